"""The document's text does not depend on how it was made: libyaml's emitter writes what the
pure-Python one writes, a fragment dumped alone and shifted reads as it does in the whole,
and the document kept in pieces between runs (kit-lsp) is the document built whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kit_core import program
from kit_core.generators import openapi
from kit_core.generators.openapi import serialize
from kit_core.generators.openapi.emit import Writer
from kit_core.generators.openapi.incremental import forget, render_incremental
from kit_core.incremental.keys import DesignKeys

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_text = st.lists(
    st.characters(codec="utf-8", exclude_categories=("Cs",)).map(str)
    | st.sampled_from(["\n", ": ", " #", "- ", "'", '"', "  ", "|", "{x}", "null", "1.5", "yes"]),
    max_size=6,
).map("".join)
_scalar = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | _text
_value = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text.filter(bool), inner, max_size=3),
    max_leaves=12,
)


def pure(value: Any) -> str:
    return serialize._dump(value, serialize._Dumper)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_text.filter(bool), _value, min_size=1, max_size=4))
@example({"1": "\n", "0": None})  # libyaml ends this with `...`, the Python emitter does not
@example({"0": "\x85"})  # libyaml writes NEL as `"\N"`, the Python emitter as it is
def test_fragments_read_as_in_the_whole(doc: dict[str, Any]) -> None:
    whole = serialize.dump({"outer": {"inner": doc}})
    try:
        parts = [serialize.fragment(k, v, 4) for k, v in doc.items()]
    except serialize.Unshiftable:
        return  # said so: the document is then written whole
    pieces = "outer:\n  inner:\n" + "".join(text for text, _ in parts)
    assert pieces + (serialize.END_MARKER if parts[-1][1] else "") == whole
    assert whole == pure({"outer": {"inner": doc}})  # what the Python emitter writes


def _design(name: str) -> tuple[Any, Any, DesignKeys]:
    design = program.load_design(EXAMPLES / name / "design")
    design.module = "example.com/x"
    checked = program.check(design)
    files = [(f.path, f.package, f.source) for f in design.files]
    return design, checked, DesignKeys("base", files)


def test_document_kept_in_pieces_is_the_document_built_whole() -> None:
    for name in sorted(p.name for p in EXAMPLES.iterdir() if (p / "design").is_dir()):
        design, checked, keys = _design(name)
        symbols, index, http = openapi._parts(checked.analysis, design.manifest)
        whole = openapi.render(checked.analysis, design.manifest)
        forget()
        assert render_incremental(symbols, design.manifest, http, index, keys) == whole, name
        assert render_incremental(symbols, design.manifest, http, index, keys) == whole, name  # from the pieces


_lines = st.lists(_text, min_size=1, max_size=4).map("\n".join)  # more block scalars, blank lines among them
_key = _text.filter(bool) | st.integers(0, 600)
_deep = st.recursive(
    _scalar | _lines,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_key, inner, max_size=3),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(_deep)
@example({"k": " lead\n\nx", "m": [{"a": "x\ny", "b": ["p\nq", [], {}]}, [["r\ns"]]]})
@example({"k": "x\n\n", "j": 1})  # `|+`: libyaml closes the document with `...` (the writer gives up)
@example([{"? x": "a\u2028b"}])
def test_structure_writer_writes_what_libyaml_writes(value: Any) -> None:
    text = Writer(serialize._emit_c).document(value)
    if text is not None:
        assert text == serialize._emit_c(value)


def test_structure_writer_takes_the_design_documents() -> None:
    for name in sorted(p.name for p in EXAMPLES.iterdir() if (p / "design").is_dir()):
        design, checked, _ = _design(name)
        doc = serialize.canonical(openapi.document_for(checked.analysis, design.manifest))
        assert Writer(serialize._emit_c).document(doc) == serialize._emit_c(doc), name
