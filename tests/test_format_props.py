"""Properties of `kit fmt` over every design file of the repository and every corpus
example: formatting is accepted, idempotent and keeps the model (the formatter checks the
model itself; these tests also check it independently), and the canonical layout does
not depend on the whitespace of the input (hypothesis varies spaces, tabs, indentation
and trailing blanks between tokens)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core import syntax
from kit_core.format import format_source
from kit_core.formatter.verify import comment_texts, shape
from kit_core.lower import parse_file

ROOT = Path(__file__).resolve().parent.parent
SKIP = ("node_modules", ".git")


def _design_files() -> dict[str, str]:
    found: dict[str, str] = {}
    for base in ("examples", "grammar/test", "tests"):
        for p in sorted((ROOT / base).rglob("*.kit")):
            if not any(s in p.parts for s in SKIP):
                found[str(p.relative_to(ROOT))] = p.read_text(encoding="utf-8")
    for corpus in sorted((ROOT / "grammar/test/corpus").glob("*.txt")):
        for i, src in enumerate(_corpus_sources(corpus.read_text(encoding="utf-8"))):
            found[f"{corpus.relative_to(ROOT)}#{i}"] = src
    return found


def _corpus_sources(text: str) -> list[str]:
    """The source of each tree-sitter corpus example (between the header and `---`)."""
    parts = re.split(r"^={3,}\n.*?\n={3,}\n", text, flags=re.MULTILINE | re.DOTALL)
    return [p.split("\n---\n", 1)[0].strip("\n") + "\n" for p in parts if "\n---\n" in p]


FILES = _design_files()
PARSEABLE = {k: v for k, v in FILES.items() if not parse_file(k, v).parse_diagnostics}

SETTINGS = settings(
    max_examples=int(os.environ.get("KIT_PROP_EXAMPLES", "15")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_there_are_files_to_check() -> None:
    assert len(PARSEABLE) >= 20


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_file_formats_idempotently_and_keeps_its_model(name: str) -> None:
    src = FILES[name]
    first = format_source(name, src)
    if name not in PARSEABLE:
        assert not first.ok and first.text == src  # refused, untouched
        return
    assert first.ok, [d.message for d in first.diagnostics]
    second = format_source(name, first.text)
    assert second.ok and second.text == first.text
    before, after = parse_file(name, src), parse_file(name, first.text)
    assert shape(after) == shape(before)
    assert comment_texts(after) == comment_texts(before)


def _gaps(src: str) -> list[tuple[int, int]]:
    """Byte ranges of whitespace between two tokens (outside strings and comments)."""
    data = src.encode("utf-8")
    tree = syntax.parse(data)
    leaves: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.child_count == 0 or node.type in ("string", "raw_string", "comment"):
            leaves.append((node.start_byte, node.end_byte))
        else:
            stack.extend(reversed(node.children))
    leaves.sort()
    gaps = [(a[1], b[0]) for a, b in zip(leaves, leaves[1:], strict=False) if b[0] > a[1]]
    return [(s, e) for s, e in gaps if data[s:e].strip() == b""]


@st.composite
def respaced(draw: st.DrawFn, src: str) -> str:
    """``src`` with the whitespace between tokens varied but not its line structure."""
    data = src.encode("utf-8")
    out, last = bytearray(), 0
    for start, end in _gaps(src):
        gap = data[start:end]
        out += data[last:start]
        newlines = gap.count(b"\n")
        indent = draw(st.sampled_from([b"", b" ", b"\t", b"  ", b"\t \t"]))
        if newlines == 0:
            out += draw(st.sampled_from([b" ", b"  ", b"\t", b" \t "]))
        else:
            blank = b"\n" * (newlines if newlines < 2 else draw(st.integers(2, 3)))
            out += draw(st.sampled_from([b"", b" ", b"\t"])) + blank + indent
        last = end
    out += data[last:]
    return out.decode("utf-8")


@SETTINGS
@given(data=st.data(), name=st.sampled_from(sorted(PARSEABLE)))
def test_layout_does_not_depend_on_input_whitespace(data: st.DataObject, name: str) -> None:
    src = PARSEABLE[name]
    variant = data.draw(respaced(src))
    expected = format_source(name, src)
    got = format_source(name, variant)
    assert got.ok, [d.message for d in got.diagnostics]
    assert got.text == expected.text


# --------------------------------------------------------------------------- generated designs

_NAMES = st.sampled_from(["id", "name", "email", "count", "tags", "owner", "createdAt", "payload", "type"])
_TYPES = st.sampled_from(
    ["string", "int", "int64", "bool", "float64", "string[]", "string?", "int[]?", "map<string, int>",
     "Item", "Item?", "Item[]", "Page<Item>", "shared.Audit", "Status", "datetime"]
)  # fmt: skip
_DECORATORS = st.sampled_from(
    ["@doc(\"x\")", "@length(1, 20)", "@format(\"email\")", "@format(uuid)", "@default(1)", "@nullable()",
     "@sensitive", "@example([1,2 , 3])", "@json(\"k\")", "@gte(-1.50)", "@pattern(`^a$`)", "@query"]
)  # fmt: skip
_COMMENT = st.sampled_from(["// note", "//x", "// TODO: more  ", "// µ ünïcode"])
_SPACE = st.sampled_from([" ", "  ", "\t"])


@st.composite
def _field(draw: st.DrawFn) -> str:
    decorators = draw(st.lists(_DECORATORS, max_size=3, unique=True))
    sep = draw(_SPACE)
    line = draw(_NAMES) + sep + draw(_TYPES) + "".join(draw(_SPACE) + d for d in decorators)
    if draw(st.booleans()):
        line += " " + draw(_COMMENT)
    return line


@st.composite
def _body(draw: st.DrawFn, member: st.SearchStrategy[str]) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(_COMMENT))
        if draw(st.integers(0, 4)) == 0:
            lines.append("")
        lines.append(draw(member))
    return "\n".join("\t" + line if line else "" for line in lines)


@st.composite
def _type(draw: st.DrawFn, i: int) -> str:
    body = draw(_body(_field()))
    return f"type T{i} {{\n{body}\n}}" if body.strip() else f"type T{i} {{}}"


@st.composite
def _enum(draw: st.DrawFn, i: int) -> str:
    values = draw(st.lists(st.sampled_from(["A", "Bb", "Ccc", "type"]), min_size=1, max_size=4, unique=True))
    valued = draw(st.booleans())
    lines = [f"{v} = {j}" if valued else v for j, v in enumerate(values)]
    if draw(st.booleans()):
        lines[0] += ' @doc("first")'
    return f"enum E{i} {{\n" + "\n".join("\t" + line for line in lines) + "\n}"


@st.composite
def _service(draw: st.DrawFn, i: int) -> str:
    methods = []
    for j in range(draw(st.integers(0, 3))):
        decorators = draw(
            st.lists(st.sampled_from(["@timeout(5s)", "@errors(NotFound)", "@positive()"]), max_size=2, unique=True)
        )
        clauses = draw(st.permutations(["request Req", "response Resp"]))[: draw(st.integers(0, 2))]
        compact = draw(st.booleans())
        body = " ".join(clauses) if compact else "\n\t\t" + "\n\t\t".join(clauses) + "\n\t"
        head = "".join(f"\t{d}\n" for d in decorators)
        methods.append(f"{head}\tget M{j} /m{j}/{{id}} {{{body if clauses else ''}}}")
    return f'@prefix("/s")\nservice S{i} {{\n' + "\n".join(methods) + "\n}"


@st.composite
def designs(draw: st.DrawFn) -> str:
    makers = [_type, _enum, _service,
              lambda i: st.just(f"scalar Sc{i} string @minLength(1)"),
              lambda i: st.just(f"middleware Mw{i}"),
              lambda i: st.just(f"error NotFound Er{i}"),
              lambda i: st.just(f"event Ev{i} {{ payload Item[] }}")]  # fmt: skip
    parts = ["package gen"]
    for i in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 3)) == 0:
            parts.append(draw(_COMMENT) + "\n")
        parts.append(draw(draw(st.sampled_from(makers))(i)))
    return "\n".join(parts) + "\n"


@settings(
    max_examples=int(os.environ.get("KIT_PROP_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(src=designs())
def test_generated_designs_format_idempotently_keeping_model_and_comments(src: str) -> None:
    before = parse_file("gen.kit", src)
    assert not before.parse_diagnostics, (src, before.parse_diagnostics)
    first = format_source("gen.kit", src)
    assert first.ok, (src, [d.message for d in first.diagnostics])
    after = parse_file("gen.kit", first.text)
    assert shape(after) == shape(before)
    assert comment_texts(after) == comment_texts(before)
    assert format_source("gen.kit", first.text).text == first.text
