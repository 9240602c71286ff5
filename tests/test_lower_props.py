"""Properties of parsing + lowering: never raises, diagnostics are located inside the
file, and an incremental reparse after an edit lowers to the same model as a fresh parse."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core import syntax
from kit_core.lower import Reuse, comment_nodes, lower_tree, parse_file, parse_with_tree
from kit_core.model import SourceFile
from kit_core.shift import Shift
from kit_core.source import Span

DESIGN_DIR = Path(__file__).parent / "grammar" / "designs"
DESIGNS = [p.read_text(encoding="utf-8") for p in sorted(DESIGN_DIR.glob("*.kit"))]
ROOT = Path(__file__).parent.parent
MORE_DESIGNS = [  # examples and the analyzer's cases (full of diagnostics)
    p.read_text(encoding="utf-8")
    for p in sorted([*(ROOT / "examples").rglob("*.kit"), *(ROOT / "tests" / "analyzer" / "cases").rglob("*.kit")])
]

# Pieces of the DSL that mutations splice in: keywords, punctuation, literals, oddities.
TOKENS = [
    "package", "import", "type", "enum", "error", "scalar", "service", "extend", "middleware",
    "request", "response", "event", "payload", "map", "true", "false", "null", "get", "post",
    "{", "}", "(", ")", "[", "]", "<", ">", ",", ":", "=", "?", ".", "/", "//", "@", "-", "...",
    "\n", " ", "\t", "\r\n", '"', "`", "\\", "\\u{", "\\u{110000}", "5s", "2MB", "5xyz",
    "-1", "1.5", "9223372036854775808", "@doc(", "@x(@y)", "/* */", "é", "😀", "\x00", "#",
    "T", "id", "string", "{id}", "{rest...}", "NotFound", "Teapot", "9" * 5000, "[" * 200,
]  # fmt: skip

# KIT_PROP_EXAMPLES=3000 for a longer hunt.
SETTINGS = settings(
    max_examples=int(os.environ.get("KIT_PROP_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _spans(value: object) -> list[Span]:
    """Every Span reachable from a model value."""
    if isinstance(value, Span):
        return [value]
    if isinstance(value, tuple | list):
        return [s for v in value for s in _spans(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [s for f in dataclasses.fields(value) for s in _spans(getattr(value, f.name))]
    return []


def _check(path: str, text: str, f: SourceFile) -> None:
    size = len(text.encode("utf-8", "surrogatepass"))
    lines = text.count("\n") + 1
    assert isinstance(f, SourceFile)
    for d in f.parse_diagnostics:
        span = d.span  # type: ignore[attr-defined]
        assert span.path == path
        assert 0 <= span.start_byte <= span.end_byte <= size, d
        assert 0 <= span.start_line <= span.end_line < lines, d
        assert d.message  # type: ignore[attr-defined]
    for span in _spans(dataclasses.replace(f, parse_diagnostics=())):
        assert 0 <= span.start_byte <= span.end_byte <= size, span


@st.composite
def mutated_design(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(DESIGNS))
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "text"]))
        if op == "insert":
            text = text[:pos] + draw(st.sampled_from(TOKENS)) + text[pos:]
        elif op == "delete":
            end = draw(st.integers(pos, min(len(text), pos + 40)))
            text = text[:pos] + text[end:]
        elif op == "duplicate":
            end = draw(st.integers(pos, min(len(text), pos + 80)))
            text = text[:end] + text[pos:end] + text[end:]
        else:
            text = text[:pos] + draw(st.text(max_size=8)) + text[pos:]
    return text


@SETTINGS
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    _check("r.kit", text, parse_file("r.kit", text))


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map(" ".join))
def test_token_soup_never_raises(text: str) -> None:
    _check("s.kit", text, parse_file("s.kit", text))


@SETTINGS
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    f = parse_file("b.kit", data)
    for d in f.parse_diagnostics:
        assert 0 <= d.span.start_byte <= d.span.end_byte <= len(data)  # type: ignore[attr-defined]


@SETTINGS
@given(mutated_design())
def test_mutated_designs_never_raise(text: str) -> None:
    _check("m.kit", text, parse_file("m.kit", text))


@SETTINGS
@given(st.data())
def test_incremental_reparse_lowers_like_a_fresh_parse(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(DESIGNS))
    _, tree = parse_with_tree("i.kit", text)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 30)))
    old = text.encode("utf-8")
    start_byte, end_byte = len(text[:start].encode("utf-8")), len(text[:end].encode("utf-8"))
    inserted = data.draw(st.sampled_from(TOKENS)).encode("utf-8")
    new_tree, new_source = syntax.apply_edit(tree, old, syntax.TextEdit(start_byte, end_byte, inserted))
    incremental = lower_tree("i.kit", new_source, new_tree)
    fresh_tree = syntax.parse(new_source)
    if fresh_tree.root_node.has_error:
        # error recovery may legitimately differ between a fresh and an incremental parse
        _check("i.kit", new_source.decode("utf-8"), incremental)
        return
    assert str(new_tree.root_node) == str(fresh_tree.root_node)
    assert incremental == parse_file("i.kit", new_source)


# Edits for the reuse of declarations across lowerings: whole lines in and out, text inside
# declarations, comments above them, syntax errors made and fixed.
REUSE_SNIPPETS = [
    "x", "\n", "\n\n", "// doc\n", "}", "{", " ", "\t", "@doc(\"d\")\n", "type Added {\n\tname string\n}\n",
    "\tfield int? @range(1, 2)\n", "é", "😀", "scalar S string\n\t@length(1)\n", "// trailing", "@", "(",
    "\r\n", "type T { a int } type U {}\n", "enum E { A B }\n", "@deprecated ",
]  # fmt: skip


@SETTINGS
@given(st.data())
def test_reusing_declarations_lowers_like_lowering_anew(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(DESIGNS + MORE_DESIGNS)).encode("utf-8")
    reuse = Reuse()
    tree = syntax.parse(text)
    lower_tree("r.kit", text, tree, reuse)
    history: list[bytes] = []
    for _ in range(data.draw(st.integers(1, 6))):
        if history and data.draw(st.booleans()) and data.draw(st.booleans()):
            new = history.pop()  # undo: back to text lowered before
            start, end, inserted = 0, len(text), new
        else:
            history.append(text)
            start = data.draw(st.integers(0, len(text)))
            if data.draw(st.booleans()):
                start = text.rfind(b"\n", 0, start) + 1  # at the start of a line
            end = data.draw(st.integers(start, min(len(text), start + 40)))
            inserted = data.draw(st.sampled_from(REUSE_SNIPPETS)).encode("utf-8")
        tree, text = syntax.apply_edit(tree, text, syntax.TextEdit(start, end, inserted))
        reused = lower_tree("r.kit", text, tree, reuse)
        assert reused == lower_tree("r.kit", text, tree)
        assert reused.parse_diagnostics == lower_tree("r.kit", text, tree).parse_diagnostics
        if not tree.root_node.has_error:
            assert reused == parse_file("r.kit", text)


def test_reuse_keeps_unchanged_declarations_and_moves_later_ones() -> None:
    text = b'package p\n\n// A doc\ntype A {\n\tx int\n}\n\n@doc("b")\ntype B {\n\ty A? // why\n}\n'
    reuse = Reuse()
    tree = syntax.parse(text)
    first = lower_tree("r.kit", text, tree, reuse)
    tree, text = syntax.apply_edit(tree, text, syntax.TextEdit(len(b"package p\n"), len(b"package p\n"), b"\n\n"))
    second = lower_tree("r.kit", text, tree, reuse)
    assert second == parse_file("r.kit", text)
    assert second.declarations[1].span.start_line == first.declarations[1].span.start_line + 2
    moved, was = second.declarations[1].decorators[0], first.declarations[1].decorators[0]
    assert moved.span.start_byte == was.span.start_byte + 2
    end = text.index(b"type B")
    tree, text = syntax.apply_edit(tree, text, syntax.TextEdit(end, end, b"scalar S string\n"))
    third = lower_tree("r.kit", text, tree, reuse)
    assert third.declarations[0] is second.declarations[0]  # before the edit: the same object
    assert third == parse_file("r.kit", text)


def _moved(value: object, dbyte: int, dline: int) -> object:
    """Every Span inside a model value moved, by reflection (what `Shift` writes out)."""
    if isinstance(value, Span):
        return value._replace(
            start_byte=value.start_byte + dbyte,
            end_byte=value.end_byte + dbyte,
            start_line=value.start_line + dline,
            end_line=value.end_line + dline,
        )
    if isinstance(value, tuple):
        return tuple(_moved(v, dbyte, dline) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _moved(getattr(value, f.name), dbyte, dline) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


def test_shift_moves_every_span_of_every_declaration() -> None:
    for text in DESIGNS + MORE_DESIGNS:
        for decl in parse_file("s.kit", text).declarations:
            for dbyte, dline in ((0, 0), (7, 2), (-3, -1)):
                assert Shift(dbyte, dline).decl(decl) == _moved(decl, dbyte, dline)


@SETTINGS
@given(st.one_of(mutated_design(), st.text(max_size=300), st.sampled_from(DESIGNS + MORE_DESIGNS)))
def test_comments_are_the_comment_nodes_of_the_tree(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    root = syntax.parse(data).root_node
    found = sorted(syntax.captures(syntax.query("comments"), root).get("comment", []), key=lambda n: n.start_byte)
    expected = [(n.start_byte, n.end_byte) for n in found]
    assert [(n.start_byte, n.end_byte) for n in comment_nodes(data, root)] == expected
    assert [(c.span.start_byte, c.span.end_byte) for c in parse_file("c.kit", data).comments] == expected


@SETTINGS
@given(st.one_of(mutated_design(), st.sampled_from(DESIGNS + MORE_DESIGNS)))
def test_type_suffixes_are_the_grammar_fields(text: str) -> None:
    """Lowering counts a type's `[]` and `?` by child type, as the `array` / `optional` fields."""
    stack = [syntax.parse(text.encode("utf-8", "surrogatepass")).root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type == "type_ref":
            by_type = [c.type for c in node.children]
            assert by_type.count("array_suffix") == len(node.children_by_field_name("array"))
            assert ("?" in by_type) == (node.child_by_field_name("optional") is not None)


class _Forgetful(dict):  # type: ignore[type-arg]
    """A memo that remembers nothing."""

    def get(self, key: object, default: object = None) -> object:
        return default

    def __setitem__(self, key: object, value: object) -> None:
        return None


@SETTINGS
@given(st.one_of(mutated_design(), st.sampled_from(DESIGNS + MORE_DESIGNS)))
def test_remembered_decorators_and_types_lower_like_new_ones(text: str) -> None:
    """One-line decorators and types lowered before are rebuilt from templates: the same model."""
    import kit_core.lower as lowering

    parse_file("warm.kit", text)  # fills the memo (as every earlier example did)
    remembered = parse_file("r.kit", text)
    saved = lowering._DECORATORS, lowering._TYPES
    lowering._DECORATORS, lowering._TYPES = _Forgetful(), _Forgetful()
    try:
        fresh = parse_file("r.kit", text)
    finally:
        lowering._DECORATORS, lowering._TYPES = saved
    assert remembered == fresh
    assert remembered.parse_diagnostics == fresh.parse_diagnostics
