"""Incremental sync: LSP range edits (UTF-16 columns) applied to the text and recorded on
the tree give the same text and the same model as a fresh parse."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsp_helpers import USERS
from lsprotocol import types as lsp

from kit_core.formatter.verify import shape
from kit_core.lower import parse_file
from kit_core.resident.session import DiskFiles
from kit_lsp.convert import UTF8, UTF16, UTF32
from kit_lsp.documents import Document

TEXT = USERS.replace("// User is a person", "// Üser 😀 is a person")


def _position(text: str, index: int, encoding: str) -> lsp.Position:
    before = text[:index]
    line = before.count("\n")
    col_text = before[before.rfind("\n") + 1 :]
    if encoding == UTF8:
        col = len(col_text.encode("utf-8"))
    elif encoding == UTF32:
        col = len(col_text)
    else:
        col = len(col_text.encode("utf-16-le")) // 2
    return lsp.Position(line, col)


@st.composite
def edits(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 20)))
    new = draw(st.sampled_from(["", "x", "\n", "😀", "é", "}", ' @doc("d")', "type Z {}\n", "//c\n"]))
    return start, end, new


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), encoding=st.sampled_from([UTF16, UTF8, UTF32]))
def test_incremental_edits_match_a_fresh_parse(data: st.DataObject, encoding: str) -> None:
    doc = Document("file:///d/users.kit", "/d/users.kit", 1, TEXT.encode("utf-8"))
    doc.parsed()  # a tree to edit incrementally
    expected = TEXT
    for version in range(2, 2 + data.draw(st.integers(1, 4))):
        start, end, new = data.draw(edits(expected))
        rng = lsp.Range(_position(expected, start, encoding), _position(expected, end, encoding))
        doc.apply([lsp.TextDocumentContentChangePartial(range=rng, text=new)], version, encoding)
        expected = expected[:start] + new + expected[end:]
        assert doc.text == expected
        raw = expected.encode("utf-8")
        assert doc.line_starts() == [0] + [i + 1 for i, b in enumerate(raw) if b == 0x0A]
    fresh = parse_file(doc.path, expected)
    got = doc.parsed()
    assert shape(got) == shape(fresh)
    assert [d.message for d in got.parse_diagnostics] == [d.message for d in fresh.parse_diagnostics]


def test_whole_document_change_resets_the_tree() -> None:
    doc = Document("file:///d/a.kit", "/d/a.kit", 1, b"package a\n")
    doc.parsed()
    doc.apply([lsp.TextDocumentContentChangeWholeDocument(text="package b\n")], 2, UTF16)
    assert doc.parsed().package == "b" and doc.version == 2


def test_end_position_counts_client_units() -> None:
    doc = Document("file:///d/a.kit", "/d/a.kit", 1, "a\n😀x".encode())
    assert doc.end_position(UTF16) == lsp.Position(1, 3)
    assert doc.end_position(UTF32) == lsp.Position(1, 2)
    assert doc.end_position(UTF8) == lsp.Position(1, 5)


def test_disk_files_are_checked_again_once_the_trust_ends(tmp_path: Path) -> None:
    path = tmp_path / "a.kit"
    path.write_text("package a\n\ntype A {}\n", encoding="utf-8")
    trusting, checking = DiskFiles(trust=3600), DiskFiles()
    first = trusting.get(str(path))
    assert first is not None and checking.get(str(path)) is not None
    path.write_text("package a\n\ntype A {}\n\ntype B {}\n", encoding="utf-8")
    assert trusting.get(str(path)) is first  # checked a moment ago: trusted
    assert len(checking.get(str(path)).declarations) == 2  # type: ignore[union-attr]
    trusting.forget_checks()  # a watched-file event
    assert len(trusting.get(str(path)).declarations) == 2  # type: ignore[union-attr]
