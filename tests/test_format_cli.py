"""`kit fmt [-l] [-w] [paths]` and `kit fmt -` (dsl-facts §5.2)."""

from __future__ import annotations

import io
from pathlib import Path

from kit_core.format import run

UGLY = "package p\ntype A { a int }\n"
PRETTY = "package p\n\ntype A {\n\ta int\n}\n"


def _run(
    paths: list[str], list_only: bool = False, write: bool = True, stdin: str = ""
) -> tuple[int, str, str]:
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
