"""One engine: the resident design session lives in `kit_core.resident`; importing `kit_core`
(every module of it) and a `kit gen` through the resident kit never load kit-lsp, pygls or
lsprotocol. Checked with poisoned copies of those packages first on the import path: any
import of them writes a mark and fails."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import EDITS, write_project
from resident import Resident

import kit_core

EDITOR = ("kit_lsp", "pygls", "lsprotocol")


@pytest.fixture
def poisoned(tmp_path: Path) -> Path:
    """A folder of packages named like the editor's that record their import and fail."""
    marks = tmp_path / "marks"
    marks.mkdir()
    folder = tmp_path / "poison"
    for name in EDITOR:
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(
            f"open({str(marks / name)!r}, 'w').close()\nraise ImportError('kit_core imported {name}')\n"
        )
    return folder


def test_every_kit_core_module_imports_without_the_editor(poisoned: Path) -> None:
    names = [m.name for m in pkgutil.walk_packages(kit_core.__path__, "kit_core.") if not m.name.endswith("__main__")]
    code = f"import importlib, sys\nfor n in {names!r}:\n    importlib.import_module(n)\n"
    code += f"print(sorted(m for m in sys.modules if m.split('.')[0] in {EDITOR!r}))\n"
    env_path = f"{poisoned}:{Path(kit_core.__file__).parents[1]}"
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": env_path}, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert not any((poisoned.parent / "marks").iterdir())


@pytest.fixture
def resident(poisoned: Path) -> Iterator[Resident]:
    r = Resident()
    r.env["PYTHONPATH"] = f"{poisoned}:{Path(kit_core.__file__).parents[1]}"
    yield r
    r.stop()


def test_a_gen_through_the_resident_kit_never_loads_the_editor(resident: Resident, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    first = resident.gen(project)
    assert first.returncode == 0 and "written" in first.stdout, first.stderr
    pid = resident.pid()
    assert pid is not None, "a resident kit served it"
    EDITS[0](project)
    again = resident.gen(project)  # a run on the resident analysis
    assert again.returncode == 0 and resident.pid() == pid, again.stderr
    assert not any((tmp_path / "marks").iterdir()), "the resident kit imported an editor package"
