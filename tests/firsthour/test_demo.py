"""`bash scripts/demo` as a new user runs it: in a copy of the checkout, with no virtualenv
active, it makes its own (never installing into the system's Python), installs only what the
main job needs (no Rust toolchain, no editor, no system packages, no npm), serves the todo
example with its real logic, and prints URLs that work. Its time on a fresh machine is
measured by bench/demo/bench_demo.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from fresh_machine import Demo, clean_env, copy_checkout, free_port, tripwires

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("go", "git", "curl", "bash")), reason="go, git, curl and bash are needed"
)


def demo_env(tmp_path: Path, trip: Path) -> dict[str, str]:
    env = clean_env(trip)
    env["KIT_CACHE_DIR"] = str(tmp_path / "kit-cache")
    return env


def logged_python(folder: Path, log: Path) -> Path:
    """A `python3` ahead on PATH that logs its arguments and runs the machine's interpreter:
    what the demo asks of the system's Python."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "python3"
    exe.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{sys.executable}" "$@"\n')
    exe.chmod(0o755)
    return folder


def curl(line: str) -> str:
    proc = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 0, f"{line}\n{proc.stderr}"
    return proc.stdout


def test_demo_installs_only_the_main_job_and_serves_a_working_todo_api(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path / "kit")
    config = checkout / "examples/todo/config/config.yaml"
    config.write_text(config.read_text().replace("127.0.0.1:8080", f"127.0.0.1:{free_port()}"))
    record = tmp_path / "tripwires.log"
    system_calls = tmp_path / "python3.log"
    env = demo_env(tmp_path, tripwires(tmp_path / "tripwires", record))
    env["PATH"] = f"{logged_python(tmp_path / 'system', system_calls)}:{env['PATH']}"
    demo = Demo.start(checkout, env)
    try:
        addr, _, printed = demo.wait_banner(timeout=900)
        assert not [line for line in demo.lines if "notice:" in line]  # the example's own code is no stub
        tries = [line.strip() for line in printed if line.strip().startswith("curl ")]
        assert len(tries) == 6, printed
        created = json.loads(curl(tries[0]))
        assert created["id"] == "1" and created["title"] == "buy milk"
        assert (created["status"], created["tags"]) == ("open", ["home"])
        assert [t["id"] for t in json.loads(curl(tries[1]))["items"]] == ["1"]
        assert json.loads(curl(tries[2])) == created
        assert json.loads(curl(tries[3]))["status"] == "done"
        assert curl(tries[4]).strip() == "204"
        assert json.loads(curl(tries[5])) == {"message": "title: length out of range [1, 200]"}
        assert json.loads(curl(tries[1]))["items"] == []
        docs = next(line for line in printed if line.startswith("API docs: "))
        assert f"{addr}/docs" in docs
        with urllib.request.urlopen(f"{addr}/docs", timeout=10) as r:
            assert b"<html" in r.read().lower()
        assert any(line.startswith("{") and '"msg":"todo created"' in line for line in demo.lines)  # its logger
    finally:
        demo.stop()
    assert not record.exists(), f"the demo ran tools the main job does not need:\n{record.read_text()}"
    asked = system_calls.read_text().splitlines()
    assert asked == ["-m venv " + str(checkout / ".venv")], asked  # nothing installed into it
    installed = subprocess.run(
        [str(checkout / ".venv/bin/python"), "-c", "import kit_core; print(kit_core.__file__)"],
        cwd=tmp_path,  # not this checkout's folder, which -c would import from
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert installed.startswith(str(checkout))  # the kit the demo used is the checkout's
