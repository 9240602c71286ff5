"""The Go text helpers (`nest`, `block`) against their line-by-line definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core.generators.go.render import block, nest

_text = st.text(alphabet="ab \t\n", max_size=12)


def _indented(lines: list[str], pad: str, skip_first: bool) -> str:
    return "\n".join(ln if not ln or (skip_first and i == 0) else pad + ln for i, ln in enumerate(lines))


@settings(max_examples=300, deadline=None)
@given(_text, st.integers(0, 3), st.lists(_text, max_size=4))
def test_nest_and_block_indent_every_line_but_empty_ones(stmt: str, depth: int, body: list[str]) -> None:
    assert nest(stmt, depth) == _indented(stmt.split("\n"), "\t" * depth, skip_first=True)
    inner = _indented("\n".join(body).split("\n"), "\t", skip_first=False)
    assert block("if x", *body) == f"if x {{\n{inner}\n}}"
