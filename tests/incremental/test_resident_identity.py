"""The resident kit is always the code a `kit gen` would run: after an edit to a `kit_core`
file, to a `kit_lsp` file, or a new version of an installed distribution on the import
path, of a checkout used in place (as an editable install is), the next `kit gen` meets a
new process (the old one exits) and shows the new behaviour at once."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import EDITS, write_project
from resident import Resident

import kit_core

SOURCE = Path(kit_core.__file__).resolve().parents[1]
SUMMARY = 'f"kit: {regen + yours} files: '


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """kit's packages copied, with a distribution of its own on the import path."""
    root = tmp_path / "checkout"
    for package in ("kit_core", "kit_lsp"):
        shutil.copytree(SOURCE / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    site = tmp_path / "site"
    (site / "kitdep-1.0.dist-info").mkdir(parents=True)
    (site / "kitdep-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: kitdep\nVersion: 1.0\n")
    (site / "kitdep.py").write_text("VERSION = '1.0'\n")
    return root


@pytest.fixture
def resident(checkout: Path) -> Iterator[Resident]:
    r = Resident()
    r.env["PYTHONPATH"] = f"{checkout}:{checkout.parent / 'site'}"
    yield r
    r.stop()


def touch(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    later = time.time() + 2  # a new time even on a coarse clock
    os.utime(path, (later, later))


def test_edits_to_kit_or_what_it_imports_are_seen_at_once(resident: Resident, checkout: Path, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    first = resident.gen(project)
    assert first.returncode == 0 and "written" in first.stdout, first.stderr
    pid = resident.pid()
    assert pid is not None

    touch(checkout / "kit_core" / "cli.py", SUMMARY, 'f"kit (edited): {regen + yours} files: ')
    EDITS[0](project)
    after_core = resident.gen(project)
    assert after_core.returncode == 0 and "kit (edited): " in after_core.stdout, after_core.stdout
    core_pid = resident.pid()
    assert core_pid not in (None, pid), "the resident kit of the old code is replaced"
    assert not Path(f"/proc/{pid}").exists() or resident.processes() == [core_pid]

    touch(checkout / "kit_lsp" / "__init__.py", '"""kit-lsp', '"""kit-lsp (edited)')
    after_lsp = resident.gen(project)
    assert after_lsp.returncode == 0 and "kit (edited): " in after_lsp.stdout
    lsp_pid = resident.pid()
    assert lsp_pid not in (None, core_pid), "an edit to kit-lsp replaces it too"

    site = checkout.parent / "site"
    (site / "kitdep-1.0.dist-info").rename(site / "kitdep-2.0.dist-info")
    (site / "kitdep-2.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: kitdep\nVersion: 2.0\n")
    after_dep = resident.gen(project)
    assert after_dep.returncode == 0
    assert resident.pid() not in (None, lsp_pid), "a new version of an installed distribution replaces it"
    assert resident.processes() == [resident.pid()]
