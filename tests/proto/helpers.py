"""A project on disk with a design folder, a go.mod and some protos; `kit gen` through main."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kit_core import cli

MANIFEST = "output:\n  fileCase: snake\n"


def project(tmp: Path, protos: dict[str, str], manifest: str = MANIFEST, kit: dict[str, str] | None = None) -> Path:
    """tmp/design holds the protos (by path relative to the design folder)."""
    (tmp / "design").mkdir(parents=True, exist_ok=True)
    (tmp / "design" / "kit.design.yaml").write_text(manifest)
    (tmp / "go.mod").write_text("module example.com/app\n\ngo 1.26.0\n")
    for rel, text in {**protos, **(kit or {})}.items():
        path = tmp / "design" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp / "design"


def kit_gen(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["gen", *args])
    return code, out.getvalue(), err.getvalue()


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def spy_children(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """The child protocs `kit_core.proto.compile` starts from now on, as they start."""
    from kit_core.proto import compile as compile_mod

    children: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(*args: Any, **kw: Any) -> subprocess.Popen[bytes]:
        children.append(real_popen(*args, **kw))
        return children[-1]

    monkeypatch.setattr(compile_mod.subprocess, "Popen", popen)
    return children
