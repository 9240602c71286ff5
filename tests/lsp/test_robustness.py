"""Half-typed text never makes a feature raise: hover, completion, signature help,
definition, references, symbols, semantic tokens, folding, formatting and quick fixes run
in-process on mutated designs at every kind of position."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsp_helpers import DESIGN, USERS, write_design
from lsprotocol import types as lsp

from kit_core.format import format_model
from kit_lsp.completions import Request, complete
from kit_lsp.features.code_actions import actions
from kit_lsp.features.folding import ranges
from kit_lsp.features.hover import markdown
from kit_lsp.features.navigation import declaration_at
from kit_lsp.features.semantic_tokens import tokens
from kit_lsp.features.signature_help import signature
from kit_lsp.features.symbols import document_symbols
from kit_lsp.locate import target_at
from kit_lsp.refs import references
from kit_lsp.state import State

PIECES = ["@", "@length(", "(", ")", "{", "}", "\n", " ", "shared.", "<", ">", ",", '"', "`", "?", "[]",
          "type ", "service S {", "get A /{id} {", "request ", "error ", "enum E {", "//", "Ü😀",
          "@default("]  # fmt: skip


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> State:
    root = write_design(tmp_path_factory.mktemp("robust"), DESIGN)
    s = State()
    uri = (root / "design/users/users.kit").as_uri()
    s.docs.open(lsp.TextDocumentItem(uri, "kit", 1, USERS))
    return s


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = USERS
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 8))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + cut :]
    return text


@settings(
    max_examples=int(os.environ.get("KIT_PROP_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=mutated(), spots=st.lists(st.floats(0, 1), min_size=3, max_size=6))
def test_features_never_raise(state: State, text: str, spots: list[float]) -> None:
    doc = next(iter(state.docs))
    doc.apply([lsp.TextDocumentContentChangeWholeDocument(text=text)], (doc.version or 0) + 1, "utf-16")
    snap = state.analyze(state.key_for(doc))
    view = state.view(doc.uri)
    assert view is not None
    document_symbols(view.file.declarations, "utf-16")
    tokens(doc, "utf-16")
    ranges(doc)
    format_model(view.file)
    diags = [d for d in snap.diagnostics if d.span.path == doc.path][:5]
    from pygls.protocol import default_converter

    from kit_lsp.startup.lspjson import diagnostic_json

    sent = [default_converter().structure(diagnostic_json(d), lsp.Diagnostic) for d in diags]  # as clients send them
    actions(view, sent)
    for spot in spots:
        offset = int(spot * len(doc.source))
        target = target_at(view.file, offset)
        if target is not None:
            markdown(view, target, offset)
        line = doc.source[:offset].count(b"\n")
        pos = lsp.Position(line, offset - (doc.source.rfind(b"\n", 0, offset) + 1))
        decl = declaration_at(view, pos)
        if decl is not None:
            references(view.symbols, view.files, decl)
        start = doc.source.rfind(b"\n", 0, offset) + 1
        prefix = doc.source[start:offset].decode("utf-8", "replace")
        signature(prefix)
        req = Request(
            doc.source,
            offset,
            prefix,
            doc.source[offset:].decode("utf-8", "replace"),
            "users",
            snap.symbols,
            snap.manifest,
            snap.root,
        )
        complete(req)


def test_state_has_the_design(state: State) -> None:
    doc = next(iter(state.docs))
    assert Path(state.key_for(doc)).name == "design"
