"""One reading of design bytes for every reader (a byte-order mark, CR-only line ends), and
no control character from a design reaching a terminal or an editor unescaped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kit_core import program
from kit_core.design_text import decode_design
from kit_core.diagnostics import Diagnostic, Severity
from kit_core.printable import printable
from kit_core.source import file_span
from kit_lsp.startup.lspjson import diagnostic_json

ITEM = "package shop\n\n// Item is sold.\ntype Item {\n\tname string // its name\n\tage  int\n}\n"


def test_decoding() -> None:
    assert decode_design(b"\xef\xbb\xbfpackage a\n") == "package a\n"
    assert decode_design(b"package a\r\rtype A {}\r") == "package a\n\ntype A {}\n"
    assert decode_design(b"package a\r\ntype A {}\r\n") == "package a\r\ntype A {}\r\n"  # CRLF kept
    assert decode_design(b"package \xff\n") == "package \ufffd\n"


@given(st.binary(max_size=200))
def test_decoding_keeps_byte_offsets_after_the_mark(data: bytes) -> None:
    text = decode_design(data)
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    if b"\xff" not in body and not any(0x80 <= b for b in body):
        assert len(text.encode()) == len(body)  # a CR becomes an LF in place


def project(tmp_path: Path, source: bytes) -> Path:
    (tmp_path / "design").mkdir()
    (tmp_path / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (tmp_path / "design/kit.design.yaml").write_text("openapi:\n  title: Shop\n")
    (tmp_path / "design/shop.kit").write_bytes(source)
    return tmp_path / "design"


def kit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kit_core.cli", *args], cwd=cwd, capture_output=True, text=True)


def generated(design: Path) -> dict[str, str]:
    d = program.load_design(design)
    checked = program.check(d)
    assert not checked.has_errors, [x.render() for x in checked.diagnostics]
    return {f.path: f.content for f in program.generate(d, checked.analysis).files}


def test_gen_and_fmt_read_a_bom_and_cr_line_ends_alike(tmp_path: Path) -> None:
    odd = b"\xef\xbb\xbf" + ITEM.replace("\n", "\r").encode()
    design = project(tmp_path, odd)
    loaded = program.load_design(design)
    item = loaded.files[0].declarations[0]
    assert item.doc == "Item is sold."  # one doc comment, attached: as `kit fmt` reads it
    before = generated(design)
    assert kit("fmt", "-l", "design", cwd=tmp_path).returncode == 1  # the mark and CRs are changes
    assert kit("fmt", "design", cwd=tmp_path).returncode == 0
    assert (design / "shop.kit").read_bytes() == ITEM.encode()  # the same layout, LF, no mark
    assert generated(design) == before  # and gen reads the formatted file as it read the other


def test_control_characters_are_escaped_in_every_message(tmp_path: Path) -> None:
    design = project(tmp_path, b"package shop\n\ntype Item {\n\tname string @format(`\x1b]0;pwned\x07\x1b[2J`)\n}\n")
    out = kit("gen", "design", cwd=tmp_path)
    assert out.returncode == 1
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr
    assert "unknown format `\\x1b]0;pwned\\x07\\x1b[2J`" in out.stderr
    checked = program.check(program.load_design(design))
    sent = diagnostic_json(checked.diagnostics[0])
    assert "\x1b" not in sent["message"] and "\\x1b]0;pwned" in sent["message"]


def test_printable() -> None:
    assert printable("plain text") == "plain text"
    assert printable("a\x1b[31mb\x9bc\u202ed") == "a\\x1b[31mb\\x9bc\\u202ed"
    assert printable("two\nlines\ttab") == "two\nlines\ttab"
    assert printable("two\nlines", one_line=True) == "two\\nlines"
    assert printable(printable("\x1b")) == printable("\x1b")  # idempotent
    d = Diagnostic("decl/name-case", Severity.ERROR, "bad \x1b name", file_span("x\x1b.kit"))
    assert "\x1b" not in d.render()
