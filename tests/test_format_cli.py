"""`kit fmt [-l] [-w] [paths]` and `kit fmt -` (dsl-facts §5.2)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from kit_core.format import run

UGLY = "package p\ntype A { a int }\n"
PRETTY = "package p\n\ntype A {\n\ta int\n}\n"


def _run(paths: list[str], list_only: bool = False, write: bool = True, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(paths, list_only, write, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _design(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.kit").write_text(UGLY)
    (tmp_path / "sub" / "b.kit").write_text(PRETTY)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.kit").write_text(UGLY)
    return tmp_path


def test_default_rewrites_in_place(tmp_path: Path) -> None:
    root = _design(tmp_path)
    assert _run([str(root)]) == (0, "", "")
    assert (root / "a.kit").read_text() == PRETTY
    assert (root / ".hidden" / "c.kit").read_text() == UGLY  # hidden folders are skipped


def test_list_only_lists_and_exits_1_without_writing(tmp_path: Path) -> None:
    root = _design(tmp_path)
    code, out, _ = _run([str(root)], list_only=True, write=False)
    assert (code, out.splitlines()) == (1, [str(root / "a.kit")])
    assert (root / "a.kit").read_text() == UGLY


def test_list_and_write(tmp_path: Path) -> None:
    root = _design(tmp_path)
    code, out, _ = _run([str(root)], list_only=True, write=True)
    assert code == 1 and out.strip() == str(root / "a.kit")
    assert (root / "a.kit").read_text() == PRETTY
    assert _run([str(root)], list_only=True, write=False)[0] == 0


def test_refused_file_is_reported_and_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.kit"
    bad.write_text("package p\ntype A {\n")
    code, _, err = _run([str(bad)])
    assert code == 1 and "bad.kit:" in err and "parse/" in err
    assert bad.read_text() == "package p\ntype A {\n"


def test_stdin_to_stdout() -> None:
    assert _run(["-"], stdin=UGLY) == (0, PRETTY, "")
    code, out, err = _run(["-"], stdin="type {")
    assert code == 1 and out == "" and err


def test_no_design_files_and_missing_paths(tmp_path: Path) -> None:
    code, _, err = _run([str(tmp_path)])
    assert code == 1 and "no design files" in err
    code, _, err = _run([str(tmp_path / "nope.kit")])
    assert code == 1 and "no such file" in err


def test_write_replaces_the_file_atomically(tmp_path: Path) -> None:
    """`kit fmt -w` writes through the writer: a new file renamed over the old one (a new
    inode), keeping the file's mode, with no staging file left beside it."""
    f = tmp_path / "a.kit"
    f.write_text(UGLY)
    f.chmod(0o640)
    before = f.stat().st_ino
    assert _run([str(f)])[0] == 0
    assert f.read_text() == PRETTY
    assert f.stat().st_ino != before and f.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.kit"]


def test_a_crash_mid_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kit_core.writer import host

    f = tmp_path / "a.kit"
    f.write_text(UGLY)

    def half_then_die(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(host, "_write_all", half_then_die)
    with pytest.raises(OSError):
        _run([str(f)])
    assert f.read_text() == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.kit"]


def test_a_symlinked_file_is_formatted_through_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.kit"
    real.write_text(UGLY)
    (tmp_path / "d").mkdir()
    link = tmp_path / "d" / "link.kit"
    link.symlink_to(real)
    assert _run([str(link)])[0] == 0
    assert link.is_symlink() and real.read_text() == PRETTY
