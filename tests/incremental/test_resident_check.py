"""A resident process (kit-lsp's generation worker, `kit gen`'s daemon) generates from the
design it holds analysed only when that is what is on disk. Files read long enough ago are
vouched for by one `stat` (`DiskFiles.vouches`); a file changed within the file system's
clock resolution of its read (git's "racy" case) is compared by its bytes."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path

from designs import copy_project, tree, write_project

from kit_core.generators.openapi.incremental import forget, kept
from kit_core.regenerate import prime, regenerate
from kit_core.resident.designs import ResidentDesigns, as_loaded
from kit_core.resident.session import DiskFiles
from kit_lsp.generation import generate_design

OLD_NS = 10 * 1_000_000_000


def _age(path: Path, by_ns: int = OLD_NS) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - by_ns))


def test_an_old_file_is_vouched_for_by_its_stat(tmp_path: Path) -> None:
    path = tmp_path / "a.kit"
    path.write_text("package a\n\ntype A {\n\tx string\n}\n")
    _age(path)
    disk = DiskFiles()
    parsed = disk.get(str(path))
    assert parsed is not None and disk.vouches(str(path), parsed)
    path.write_text(path.read_text().replace("x string", "y string"))  # same size, new time
    assert not disk.vouches(str(path), parsed)


def test_a_file_read_right_after_a_write_is_not(tmp_path: Path) -> None:
    path = tmp_path / "a.kit"
    path.write_text("package a\n\ntype A {\n\tx string\n}\n")
    disk = DiskFiles()
    parsed = disk.get(str(path))
    assert parsed is not None
    assert not disk.vouches(str(path), parsed), "a change within the same clock tick would be unseen"


def test_an_edit_hidden_from_stat_is_still_generated(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    design = write_project(a)
    designs = ResidentDesigns()
    root = design.resolve()
    generate = partial(
        generate_design, root, snapshot=partial(designs.snapshot, root), disk=partial(designs.disk, root)
    )
    assert generate().ok
    notes = design / "notes" / "notes.kit"
    before = notes.stat()
    text = notes.read_text()
    edited = text.replace("free text", "more text")
    assert len(edited) == len(text) and edited != text
    notes.write_text(edited)  # same size, and the same time as when it was read:
    os.utime(notes, ns=(before.st_atime_ns, before.st_mtime_ns))  # only the bytes tell
    assert generate().ok
    copy_project(a, b)
    full = regenerate(b / "design")  # a fresh run over the same files, from disk
    assert full.report is not None and full.report.ok
    assert tree(a) == tree(b)
    snap = designs.snapshot(root)  # its stat unchanged, the file is not parsed again:
    assert as_loaded(root, snap, designs.disk(root)) is None  # so the copy is never used


def test_a_racy_file_found_equal_is_vouched_for_later(tmp_path: Path) -> None:
    design = write_project(tmp_path / "p").resolve()
    designs = ResidentDesigns()
    snap = designs.snapshot(design)  # every file just written: racy
    disk = designs.disk(design)
    assert disk is not None and not any(disk.vouches(p, f) for p, f in snap.files.items())
    time.sleep(2.1)  # the files' times are now old enough, had they been read now
    assert as_loaded(design, snap, disk) is not None  # compared by bytes, found equal now
    assert all(disk.vouches(p, f) for p, f in snap.files.items())


def test_vouching_skips_reading_unchanged_files(tmp_path: Path, monkeypatch: object) -> None:
    design = write_project(tmp_path / "p").resolve()
    for path in design.rglob("*.kit"):
        _age(path)
    designs = ResidentDesigns()
    snap = designs.snapshot(design)
    time.sleep(0.01)
    import kit_core.resident.designs as generation

    reads: list[str] = []
    real = generation.read_design

    def counting(path: str) -> str:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(generation, "read_design", counting)  # type: ignore[attr-defined]
    assert as_loaded(design, snap, designs.disk(design)) is not None
    assert reads == []
    assert as_loaded(design, snap) is not None and len(reads) == len(snap.files)


def test_priming_a_loaded_design_keeps_the_document_pieces_and_changes_no_output(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    design = write_project(a).resolve()
    assert regenerate(design).report is not None  # a run of another process: nothing kept here
    forget()
    designs = ResidentDesigns()
    loaded = as_loaded(design, designs.snapshot(design), designs.disk(design))
    assert loaded is not None and not kept()
    prime(loaded, a)
    assert kept(), "the next edit renders only the pieces it changes"
    assert not any(p.name.startswith(".kit-") for p in a.rglob("*")), "priming writes nothing"
    copy_project(a, b)
    for root in (a, b):
        notes = root / "design" / "notes" / "notes.kit"
        notes.write_text(notes.read_text().replace("free text", "short text"))
    again = as_loaded(design, designs.snapshot(design), designs.disk(design))
    inc = regenerate(design, loaded=again, resident=True)
    assert inc.rendered and "openapi/document" in inc.rendered
    forget()
    full = regenerate(b / "design")
    assert full.report is not None and full.report.ok and inc.report is not None and inc.report.ok
    assert tree(a) == tree(b)
