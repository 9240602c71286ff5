"""Walks the README's first hour: the fenced blocks marked `<!-- first-hour: KIND [ARG] -->`,
in order, in an empty folder, as a new user would type them.

Kinds: `shell` (run in one bash session: the working folder and exported variables carry
over from block to block), `file PATH` (write the block to PATH), `go-func PATH` (the
block is a Go function: replace the function of the same signature in PATH), `serve`
(start the command and wait until it listens), `try` (run each command; the comment after
` # ` is its expected output), `run` (run the block in the shell session) and `prints` (the
block is exactly what the previous `run` printed).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from fresh_machine import stop_group

MARKER = re.compile(r"^<!-- first-hour: (\S+)(?: (\S+))? -->\s*$")
FENCE = re.compile(r"^```(\S*)\s*$")


@dataclass(frozen=True)
class Step:
    kind: str
    arg: str
    body: str
    line: int  # of the marker in the README, 1-based


def steps(readme: str) -> list[Step]:
    lines = readme.split("\n")
    found: list[Step] = []
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        start = next(j for j in range(i + 1, len(lines)) if lines[j].strip())
        assert FENCE.match(lines[start]), f"README line {i + 1}: the marker is not followed by a code block"
        end = next(j for j in range(start + 1, len(lines)) if lines[j].startswith("```"))
        found.append(Step(m.group(1), m.group(2) or "", "\n".join(lines[start + 1 : end]) + "\n", i + 1))
    return found


class Session:
    """One user's shell: every block runs in bash with the folder and the exported
    variables the previous block left."""

    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.home = home
        self.state = home.parent / "shell-state"
        self.state.mkdir(parents=True, exist_ok=True)
        (self.state / "cwd").write_text(str(home))
        self.env = env
        self.served: subprocess.Popen[str] | None = None

    @property
    def cwd(self) -> Path:
        return Path((self.state / "cwd").read_text().strip())

    def _restore(self) -> str:
        env = self.state / "env"
        load = f". {shlex.quote(str(env))}\n" if env.exists() else ""
        return f"set -euo pipefail\n{load}cd {shlex.quote(str(self.cwd))}\n"

    def shell(self, script: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        save = f"\nexport -p > {shlex.quote(str(self.state / 'env'))}\npwd > {shlex.quote(str(self.state / 'cwd'))}\n"
        proc = subprocess.run(
            ["bash", "-c", self._restore() + script + save],
            env=self.env,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert proc.returncode == 0, f"{script}\nexit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        return proc

    def write(self, rel: str, text: str) -> None:
        path = self.cwd / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def replace_func(self, rel: str, func: str) -> None:
        path = self.cwd / rel
        lines = path.read_text().split("\n")
        signature = func.split("\n", 1)[0]
        start = lines.index(signature)  # the README's signature is the generated one
        end = next(j for j in range(start + 1, len(lines)) if lines[j] == "}")
        lines[start : end + 1] = func.rstrip("\n").split("\n")
        path.write_text("\n".join(lines))

    def serve(self, command: str, log: Path, timeout: float = 600) -> str:
        """Start the command in its own process group; the address it says it listens on."""
        out = open(log, "w")  # noqa: SIM115 - kept open for the process's lifetime
        self.served = subprocess.Popen(
            ["bash", "-c", self._restore() + "exec " + command],
            env=self.env,
            cwd=self.cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(r"listening on (\S+)", log.read_text())
            if m:
                return m.group(1)
            assert self.served.poll() is None, f"{command} exited:\n{log.read_text()}"
            time.sleep(0.2)
        raise AssertionError(f"{command} did not listen within {timeout} s:\n{log.read_text()}")

    def stop(self) -> None:
        if self.served is not None:
            stop_group(self.served)


def expectations(block: str) -> list[tuple[str, str]]:
    """(command, expected output) for each line `command # expected`."""
    pairs = []
    for line in block.strip().split("\n"):
        command, _, expected = line.rpartition(" # ")
        assert command, f"a try line needs ` # <expected output>`: {line}"
        pairs.append((command.strip(), expected.strip()))
    return pairs


def same_output(got: str, expected: str) -> bool:
    try:
        return bool(json.loads(got) == json.loads(expected))
    except ValueError:
        return got.strip() == expected
