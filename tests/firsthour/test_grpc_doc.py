"""docs/grpc.md's "Five minutes", from the page itself: its marked blocks, in order, in an
empty folder (`readme_walk`), with this checkout's kit as the `kit` command.

The commands are the page's own; the test changes only the service's ports (a free one
instead of :9000 in config/config.yaml and the grpcurl lines; no metrics listener).
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest
from fresh_machine import REPO, free_port, newcomer_env
from readme_walk import Session, expectations, same_output, steps

TOOLS = ("go", "git", "bash", "grpcurl")
pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in TOOLS), reason=f"{', '.join(TOOLS)} are needed")


def kit_command(folder: Path) -> Path:
    """`kit` on PATH: this checkout's kit_core, run by this test's Python."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "kit"
    exe.write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} "
        "-c 'from kit_core.cli import run; run()' \"$@\"\n"
    )
    exe.chmod(0o755)
    return folder


def test_the_grpc_page_five_minutes_in_an_empty_folder(tmp_path: Path) -> None:
    walk = steps((REPO / "docs" / "grpc.md").read_text())
    assert [s.kind for s in walk] == ["shell", "file", "shell", "go-func", "serve", "try"]
    home = tmp_path / "home"
    home.mkdir()
    env = newcomer_env(home)
    env["PATH"] = f"{kit_command(tmp_path / 'bin')}:{env['PATH']}"
    session = Session(home, env)
    port = free_port()
    try:
        for step in walk:
            if step.kind == "shell":
                session.shell(step.body)
            elif step.kind == "file":
                session.write(step.arg, step.body)
            elif step.kind == "go-func":
                session.replace_func(step.arg, step.body)
            elif step.kind == "serve":
                config = session.cwd / "config/config.yaml"
                text = config.read_text()
                assert 'addr: ":9000"' in text  # what the page says
                config.write_text(text.replace('":9000"', f'"127.0.0.1:{port}"').replace('":9090"', '""'))
                address = session.serve(step.body.strip(), tmp_path / "service.log")
                assert address == f"grpc://127.0.0.1:{port}"
            elif step.kind == "try":
                for command, expected in expectations(step.body):
                    got = session.shell(command.replace("localhost:9000", f"127.0.0.1:{port}")).stdout
                    assert same_output(got, expected), f"grpc.md line {step.line}: {command}\n{got!r} != {expected!r}"
    finally:
        session.stop()
    project = session.cwd
    # what the page says about go.mod: kit's copy in the project, nothing outside it
    text = (project / "go.mod").read_text()
    assert "=> ./third_party/kit-runtime\n" in text and str(home) not in text
    assert (project / "third_party/kit-runtime/go.mod").is_file()
