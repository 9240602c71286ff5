"""The Go text helpers (`nest`, `indent`, `block`, `json_string`) against their plain definitions."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core.generators.go.jsonwire import json_string
from kit_core.generators.go.render import block, indent, nest, plain_docs

_text = st.text(alphabet="ab \t\n", max_size=12)


def _indented(lines: list[str], pad: str, skip_first: bool) -> str:
    return "\n".join(ln if not ln or (skip_first and i == 0) else pad + ln for i, ln in enumerate(lines))


@settings(max_examples=300, deadline=None)
@given(_text, st.integers(0, 3), st.lists(_text, max_size=4))
def test_nest_and_block_indent_every_line_but_empty_ones(stmt: str, depth: int, body: list[str]) -> None:
    assert nest(stmt, depth) == _indented(stmt.split("\n"), "\t" * depth, skip_first=True)
    inner = _indented("\n".join(body).split("\n"), "\t", skip_first=False)
    assert block("if x", *body) == f"if x {{\n{inner}\n}}"


def _encoding_json(text: str) -> str:
    """What Go's encoding/json writes for a string: Python's escaping (the same short forms
    and \\u00XX controls), made HTML-safe, U+2028/U+2029 escaped."""
    out = json.dumps(text, ensure_ascii=False)
    for ch in "<>&\u2028\u2029":
        out = out.replace(ch, f"\\u{ord(ch):04x}")
    return out


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet=st.sampled_from('ab\\"<>&\x00\x1f\x7f\b\f\n\r\t\u2028\u2029é'), max_size=8) | st.text(max_size=8)
)
def test_json_string_escapes_as_encoding_json(text: str) -> None:
    assert json_string(text) == _encoding_json(text)


@settings(max_examples=300, deadline=None)
@given(_text)
def test_indent_puts_every_line_but_empty_ones_one_tab_in(text: str) -> None:
    assert indent(text) == _indented(text.split("\n"), "\t", skip_first=False)


# `plain_docs` as first written: a multiline `^` pattern (now searched for after a line break)
_RISKY_DOC = re.compile(r"^//(?: [ \t]| [-*+•#]| \d+[.)]| \[[^\]]*\]:|[^ \n])", re.M)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="/ \t\n-*+•#1.)[]:ab", max_size=24))
def test_plain_docs_as_the_multiline_pattern(text: str) -> None:
    blank = any(b in text for b in ("\n//\n//\n", "\n//\n\n", "\n\n//\n"))
    assert plain_docs(text) == (_RISKY_DOC.search(text) is None and not blank)
