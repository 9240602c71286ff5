"""One missing `}` is one diagnostic at the place the brace is missing: for every closing
brace on a line of its own in a valid design, the design without it has exactly one error,
at the end of the body's last line, and keeps every declaration (no cascade of unknown
names); positions after the gap are those of the text as written."""

from __future__ import annotations

import pytest

from kit_core.analyzer import analyze
from kit_core.lower import parse_file
from kit_core.manifest import default_manifest

SHARED = """\
package shop

// Money is an amount.
type Money {
	amount   int @gte(0)
	currency string @length(3, 3)
}

enum Status {
	Open
	Closed
}
"""

SHOP = """\
package shop

type Order {
	id     string
	total  Money
	status Status? @default(Open)
}

type GetOrderReq {
	id string @path
}

error NotFound OrderMissing {
	id string
}

middleware Auth

@prefix("/orders")
service Orders {
	@middlewares(Auth)
	@errors(OrderMissing)
	get GetOrder /{id} {
		request  GetOrderReq
		response Order
	}

	post Create / {
		request  Order
		response Order
	}
}

type Page {
	items Order[]
	total int
}
"""


def _closers(text: str) -> list[int]:
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if line.strip() == "}"]


CASES = [(name, i) for name, text in (("shared", SHARED), ("shop", SHOP)) for i in _closers(text)]


@pytest.mark.parametrize(("name", "line"), CASES)
def test_one_missing_brace_is_one_diagnostic_where_it_is_missing(name: str, line: int) -> None:
    texts = {"shared": SHARED, "shop": SHOP}
    lines = texts[name].split("\n")
    broken = "\n".join(lines[:line] + lines[line + 1 :])
    files = {n: parse_file(f"{n}.kit", broken if n == name else t) for n, t in texts.items()}
    errors = [d for d in analyze(list(files.values()), default_manifest()).diagnostics if d.is_error]
    assert len(errors) == 1, [d.render() for d in errors]
    (error,) = errors
    before = line - 1
    while not lines[before].strip():
        before -= 1
    assert error.code == "parse/syntax" and "missing `}`" in error.message
    assert (error.span.path, error.span.start_line, error.span.start_col) == (f"{name}.kit", before, len(lines[before]))
    valid = parse_file("x.kit", texts[name])
    assert [d.name for d in files[name].declarations] == [d.name for d in valid.declarations]
    moved, was = files[name].declarations[-1], valid.declarations[-1]  # after the gap: one line up, same columns
    assert moved.name_span.start_line == was.name_span.start_line - (1 if line < was.name_span.start_line else 0)
    assert moved.name_span.start_col == was.name_span.start_col


def test_a_file_with_other_problems_is_left_as_the_parser_saw_it() -> None:
    text = "package p\n\ntype A {\n\ta int\n\ntype B {\n\tb int @@\n}\n"
    f = parse_file("p.kit", text)
    assert not any("missing `}`" in d.message for d in f.parse_diagnostics)  # type: ignore[attr-defined]


def test_missing_braces_at_the_end_and_several() -> None:
    f = parse_file("p.kit", "package p\n\ntype A {\n\ta int\n\ntype B {\n\tb int\n\ntype C {}")
    found = [(d.span.start_line, d.message) for d in f.parse_diagnostics]  # type: ignore[attr-defined]
    assert found == [(3, "missing `}` to close `type A {`"), (6, "missing `}` to close `type B {`")]
    assert [d.name for d in f.declarations] == ["A", "B", "C"]
    g = parse_file("p.kit", "package p\n\ntype A {\n\ta int")
    assert [(d.span.start_line, d.span.start_col) for d in g.parse_diagnostics] == [(3, 6)]  # type: ignore[attr-defined]
