"""A long-lived process pins the runtime at every run: a go.mod it found pinned is not read
again with the go command while its size, time and inode are unchanged (and its time is
old enough to trust), and kit's copy in the project is where it left it; any edit of either
is read and pinned again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kit_core import gomod, runtime_dist

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="the go command is needed")


def _age(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))


def test_a_settled_go_mod_is_not_read_again_until_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(gomod, "_settled", {})
    project = tmp_path / "app"
    project.mkdir()
    mod = project / "go.mod"
    mod.write_text("module example.com/app\n\ngo 1.26\n")
    copy = runtime_dist.runtime()
    assert gomod.pin_runtime(project, copy)  # pinned: a notice
    pinned = mod.read_text()
    assert runtime_dist.RUNTIME_MODULE in pinned
    reads: list[Path] = []
    real = gomod.read

    def counting(directory: Path) -> gomod.GoMod:
        reads.append(directory)
        return real(directory)

    monkeypatch.setattr(gomod, "read", counting)
    assert gomod.pin_runtime(project, copy) == [] and len(reads) == 1  # just written: read
    _age(mod)
    assert gomod.pin_runtime(project, copy) == [] and len(reads) == 2  # found settled, remembered
    assert gomod.pin_runtime(project, copy) == [] and len(reads) == 2  # not read again
    mod.write_text("module example.com/app\n\ngo 1.26\n")  # the user dropped kit's lines
    assert gomod.pin_runtime(project, copy)  # read, and pinned again
    assert len(reads) == 3 and mod.read_text() == pinned
    _age(mod)
    assert gomod.pin_runtime(project, copy) == [] and len(reads) == 4  # settled again
    shutil.rmtree(project / "third_party")  # kit's copy deleted, go.mod untouched
    (notice,) = gomod.pin_runtime(project, copy)
    assert "it was missing" in notice.message and len(reads) == 5
    assert (project / "third_party/kit-runtime/go.mod").is_file()
