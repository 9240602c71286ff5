"""A new user's machine, as far as a test can make one: a copy of this checkout, a fresh
virtualenv, tools the main job must not use replaced by tripwires, and the demo run as a
process group that is always stopped. Used by the first-hour tests and bench/demo/."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import venv
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Tools the demo must not install or run: the Rust toolchain (the tree-sitter CLI build),
# editors, system packages, npm. (Not rustc: pip asks `rustc --version` for its user agent.)
TRIPWIRES = ("cargo", "rustup", "tree-sitter", "nvim", "apt-get", "apt", "npm", "npx")


def checkout_files() -> list[str]:
    """This checkout's files as a clone would have them: tracked, or new and not ignored."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted(p for p in out.split("\0") if p and (REPO / p).is_file())


def copy_checkout(dest: Path) -> Path:
    for rel in checkout_files():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest / rel)
    return dest


def fresh_venv(path: Path) -> Path:
    """A new virtualenv with pip and nothing else; returns its bin folder."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / ("Scripts" if sys.platform == "win32" else "bin")


def tripwires(folder: Path, record: Path) -> Path:
    """Executables named like TRIPWIRES that record their call and fail."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in TRIPWIRES:
        exe = folder / name
        exe.write_text(f'#!/bin/sh\necho "{name} $*" >> "{record}"\nexit 1\n')
        exe.chmod(0o755)
    return folder


def machine_path(*first: Path) -> str:
    """PATH with ``first`` ahead, and without the folders of tools a new machine lacks."""
    go = shutil.which("go")
    keep = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and ".cargo" not in p]
    dirs = [str(p) for p in first] + keep
    if go:  # the Go toolchain is a prerequisite of kit, wherever it is installed
        dirs.append(str(Path(go).parent))
    return os.pathsep.join(dict.fromkeys(dirs))


def clean_env(*first: Path, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """This process's environment as a new user's shell would have it: no virtualenv or
    kit settings of the test run, PATH with ``first`` ahead (machine_path)."""
    gone = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "KIT_", *drop)
    env = {k: v for k, v in os.environ.items() if not k.startswith(gone)}
    if "KIT_NO_DAEMON" in os.environ:  # the harness's, not a user's: no test leaves a resident kit
        env["KIT_NO_DAEMON"] = os.environ["KIT_NO_DAEMON"]
    own = str(Path(sys.executable).parent)  # the test run's virtualenv is not the user's
    env["PATH"] = os.pathsep.join(p for p in machine_path(*first).split(os.pathsep) if p != own)
    return env


def stop_group(proc: subprocess.Popen[str]) -> int:
    """Ctrl-C to a process group started with start_new_session, as a terminal would send
    it; killed if it lingers."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


BANNER = re.compile(r"kit demo: the todo service answers at (\S+) \((\d+) s after the demo started\)")


@dataclass
class Demo:
    """`bash scripts/demo` running in its own process group, its output collected."""

    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    _reader: threading.Thread | None = None

    @classmethod
    def start(cls, checkout: Path, env: dict[str, str]) -> Demo:
        proc = subprocess.Popen(
            ["bash", "scripts/demo"],
            cwd=checkout,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        demo = cls(proc)
        demo._reader = threading.Thread(target=demo._read, daemon=True)
        demo._reader.start()
        return demo

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_banner(self, timeout: float) -> tuple[str, int, list[str]]:
        """(service address, seconds the demo reported, the lines printed after the banner)
        once the demo has printed everything it prints before serving."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(self.lines):
                m = BANNER.search(line)
                if m and any(x.startswith("Ctrl-C") for x in self.lines[i:]):
                    end = next(j for j in range(i, len(self.lines)) if self.lines[j].startswith("Ctrl-C"))
                    return m.group(1), int(m.group(2)), self.lines[i + 1 : end + 1]
            if self.proc.poll() is not None:
                time.sleep(0.2)  # let the reader drain
                raise AssertionError(f"the demo exited with {self.proc.returncode}:\n{self.output}")
            time.sleep(0.2)
        raise AssertionError(f"the demo printed no banner in {timeout} s:\n{self.output}")

    def stop(self) -> int:
        return stop_group(self.proc)


def go_env(name: str) -> str:
    return subprocess.run(["go", "env", name], capture_output=True, text=True, check=True).stdout.strip()


def newcomer_env(home: Path) -> dict[str, str]:
    env = clean_env(drop=("XDG_", "GO", "PIP_"))
    env["HOME"] = str(home)
    # The machine's Go module and build caches and pip's download cache: downloads are not
    # what this test is about. kit's own cache is the newcomer's (under HOME).
    for name in ("GOMODCACHE", "GOCACHE", "GOPATH", "GOTOOLCHAIN"):
        env[name] = go_env(name)
    env["PIP_CACHE_DIR"] = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    ).stdout.strip() or str(home / ".cache" / "pip")
    # kit's runtime module is unpublished: were the go command to look it up anywhere, it
    # would go straight to its (nonexistent) repository and fail.
    env["GOPRIVATE"] = "github.com/kitdev"
    env["GOFLAGS"] = "-mod=mod"
    return env
