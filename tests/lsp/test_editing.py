"""Completion, signature help, formatting, quick fixes, semantic tokens, folding."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import apply_edits, dedent, extract, open_doc, replace_all, wait_for_diagnostics
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRATCH = "design/users/scratch.kit"


async def _scratch(client: LanguageClient, design: Path, marked: str) -> tuple[str, lsp.Position]:
    text, cursor, _ = extract(dedent(marked))
    path = design / SCRATCH
    uri = path.as_uri()
    if uri in client.diagnostics:
        replace_all(client, uri, text)
    else:
        open_doc(client, path, text)
    await wait_for_diagnostics(client, uri)
    return uri, cursor or lsp.Position(0, 0)


async def _labels(client: LanguageClient, design: Path, marked: str) -> set[str]:
    uri, cursor = await _scratch(client, design, marked)
    result = await client.text_document_completion_async(lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), cursor))
    items = result.items if isinstance(result, lsp.CompletionList) else result or []
    return {i.label for i in items}


COMPLETIONS = {
    "decorators on a string field": (
        "package users\ntype T {\n\tname string @┆\n}\n",
        {"length", "format", "pattern", "doc", "json"},
        {"gte", "prefix", "minItems"},
    ),
    "decorators on an int field": ("package users\ntype T {\n\tn int @┆\n}\n", {"gte", "range"}, {"length"}),
    "decorators on a method": (
        "package users\nservice S {\n\t@┆\n\tget A {}\n}\n",
        {"middlewares", "errors", "timeout"},
        {"length", "prefix"},
    ),
    "decorators on a service": ("package users\n@┆\nservice S {}\n", {"prefix", "middlewares"}, {"length"}),
    "middleware names": ("package users\nservice S {\n\t@middlewares(┆)\n\tget A {}\n}\n", {"Auth"}, set()),
    "error names incl. other packages": (
        "package users\nservice S {\n\t@errors(┆)\n\tget A {}\n}\n",
        {"UserNotFound"},
        set(),
    ),
    "security schemes": ("package users\nservice S {\n\t@security(┆)\n\tget A {}\n}\n", {"bearer"}, set()),
    "format names": (
        "package users\ntype T {\n\ta string @format(┆)\n}\n",
        {"email", "uuid", "hexcolor"},
        set(),
    ),
    "enum values in @default": (
        "package users\ntype T {\n\ts Status? @default(┆)\n}\n",
        {"Active", "Disabled"},
        set(),
    ),
    "error categories": ("package users\nerror ┆\n", {"NotFound", "Conflict"}, set()),
    "field types": (
        "package users\ntype T {\n\ta ┆\n}\n",
        {"string", "map", "User", "Status", "shared"},
        {"shared.Audit"},
    ),
    "other packages' types by prefix": ("package users\ntype T {\n\ta Au┆\n}\n", {"shared.Audit"}, set()),
    "generic parameters": ("package users\ntype Box<Item> {\n\ta ┆\n}\n", {"Item", "string"}, set()),
    "a package's declarations after `pkg.`": (
        "package users\ntype T {\n\ta shared.┆\n}\n",
        {"Audit", "Page"},
        {"User"},
    ),
    "message types": (
        "package users\nservice S {\n\tget A {\n\t\tresponse ┆\n\t}\n}\n",
        {"User"},
        {"Status"},
    ),
    "verbs in a service": ("package users\nservice S {\n\t┆\n}\n", {"get", "post", "delete"}, set()),
    "clauses in a method": (
        "package users\nservice S {\n\tget A {\n\t\t┆\n\t}\n}\n",
        {"request", "response"},
        set(),
    ),
    "keywords at top level": ("package users\n┆\n", {"type", "service", "enum"}, set()),
    "durations": ("package users\nservice S {\n\t@timeout(┆)\n\tget A {}\n}\n", {"5s", "100ms"}, set()),
}


@pytest.mark.parametrize("case", COMPLETIONS)
async def test_completion(client: LanguageClient, design: Path, case: str) -> None:
    src, present, absent = COMPLETIONS[case]
    labels = await _labels(client, design, src)
    assert present <= labels, present - labels
    assert not absent & labels, absent & labels


async def test_signature_help_tracks_the_argument(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _scratch(client, design, "package users\ntype T {\n\ta string @length(1, ┆)\n}\n")
    result = await client.text_document_signature_help_async(
        lsp.SignatureHelpParams(lsp.TextDocumentIdentifier(uri), cursor)
    )
    assert result is not None and result.signatures[0].label.startswith("@length(")
    assert result.active_parameter == 1


async def _format(client: LanguageClient, uri: str) -> list[lsp.TextEdit]:
    opts = lsp.FormattingOptions(tab_size=4, insert_spaces=False)
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(lsp.TextDocumentIdentifier(uri), opts)
    )
    return list(edits or [])


async def test_formatting_matches_kit_fmt(client: LanguageClient, design: Path) -> None:
    from kit_core.format import format_source

    ugly = "package users\ntype T { a string  @length(1, 2)  b int }\n"
    uri, _ = await _scratch(client, design, ugly)
    assert apply_edits(ugly, await _format(client, uri)) == format_source("x.kit", ugly).text
    await _scratch(client, design, "package users\ntype T {\n")  # does not parse: no edits
    assert not await _format(client, uri)


TIDY = "package users\n" + "".join(f"\ntype T{i} {{\n\tname string @length(1, 2)\n}}\n" for i in range(8))


async def test_formatting_answers_with_minimal_edits(client: LanguageClient, design: Path) -> None:
    text = TIDY.replace("type T4 {\n\tname string @length(1, 2)", "type T4 {\n\tname   string   @length(1,2)")
    uri, _ = await _scratch(client, design, text)
    edits = await _format(client, uri)
    line = text.split("\n").index("\tname   string   @length(1,2)")
    assert edits and all(e.range.start.line == e.range.end.line == line for e in edits), edits
    assert sum(len(e.new_text) for e in edits) <= 20
    assert apply_edits(text, edits) == TIDY


async def test_formatting_keeps_crlf_line_endings(client: LanguageClient, design: Path) -> None:
    lf = TIDY.replace("\tname string @length(1, 2)\n}\n\ntype T5", "\tname  string @length(1, 2)\n}\n\n\n\ntype T5")
    crlf = lf.replace("\n", "\r\n")
    uri, _ = await _scratch(client, design, crlf)
    edits = await _format(client, uri)
    assert edits
    lines = crlf.split("\n")  # a CRLF line keeps its \r at the end here, so positions still line up
    fixed = apply_edits("\n".join(lines), edits)
    assert "\n" not in fixed.replace("\r\n", "")  # no bare LF was introduced
    assert fixed == TIDY.replace("\n", "\r\n")


async def test_quick_fixes(client: LanguageClient, design: Path) -> None:
    uri, _ = await _scratch(client, design, "package users\ntype T {\n\tn int @positive() @default(1)\n}\n")
    diags = await wait_for_diagnostics(client, uri, lambda ds: len(ds) >= 2)
    ctx = lsp.CodeActionContext(diagnostics=list(diags))
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(4, 0))
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), whole, ctx)
    )
    assert actions is not None
    texts = {
        e.new_text
        for a in actions
        if isinstance(a, lsp.CodeAction) and a.edit and a.edit.changes
        for e in a.edit.changes[uri]
    }
    assert {"@positive", "?"} <= texts


async def test_semantic_tokens(client: LanguageClient, design: Path) -> None:
    uri, _ = await _scratch(client, design, "package users\ntype T {\n\ta string @length(1, 2)\n}\n")
    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri))
    )
    assert tokens is not None and tokens.data and len(tokens.data) % 5 == 0
    first = tokens.data[:5]
    assert list(first[:3]) == [0, 0, 7]  # `package`


async def test_folding_ranges(client: LanguageClient, design: Path) -> None:
    src = "package users\n// one\n// two\ntype T {\n\ta string\n\tb string\n}\n"
    uri, _ = await _scratch(client, design, src)
    ranges = await client.text_document_folding_range_async(lsp.FoldingRangeParams(lsp.TextDocumentIdentifier(uri)))
    assert ranges is not None
    spans = {(r.start_line, r.end_line, r.kind) for r in ranges}
    assert (1, 2, lsp.FoldingRangeKind.Comment) in spans
    assert any(s == 3 and e >= 5 for s, e, _ in spans)


async def test_completion_item_resolve_adds_documentation(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _scratch(client, design, "package users\ntype T {\n\tname string @┆\n}\n")
    result = await client.text_document_completion_async(lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), cursor))
    items = result.items if isinstance(result, lsp.CompletionList) else result or []
    length = next(i for i in items if i.label == "length")
    resolved = await client.completion_item_resolve_async(length)
    assert isinstance(resolved.documentation, lsp.MarkupContent)
    assert "**Sites:**" in resolved.documentation.value


async def test_quick_fix_upper_cases_a_name_and_its_uses(client: LanguageClient, design: Path) -> None:
    uri, _ = await _scratch(client, design, "package users\ntype item {}\ntype Box {\n\ta item\n}\n")
    diags = await wait_for_diagnostics(client, uri, lambda ds: any(d.code == "decl/name-case" for d in ds))
    case = [d for d in diags if d.code == "decl/name-case"]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), case[0].range, lsp.CodeActionContext(diagnostics=case))
    )
    assert actions is not None
    action = next(a for a in actions if isinstance(a, lsp.CodeAction) and a.title == "Rename item to Item")
    assert action.edit is not None and action.edit.changes is not None
    assert sorted(e.range.start.line for e in action.edit.changes[uri]) == [1, 3]


@pytest.mark.parametrize(
    ("field", "first"),
    [
        ("name string", {"length", "minLength", "maxLength", "pattern", "format"}),
        ("count int", {"gte", "gt", "lte", "lt", "range", "positive", "negative", "multipleOf"}),
        ("tags string[]", {"minItems", "maxItems", "uniqueItems"}),
    ],
)
async def test_decorator_completions_put_fitting_validators_first(
    client: LanguageClient, design: Path, field: str, first: set[str]
) -> None:
    uri, cursor = await _scratch(client, design, f"package users\ntype T {{\n\t{field} @┆\n}}\n")
    result = await client.text_document_completion_async(lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), cursor))
    items = result.items if isinstance(result, lsp.CompletionList) else result or []
    ordered = [i.label for i in sorted(items, key=lambda i: i.sort_text or i.label)]
    assert set(ordered[: len(first)]) == first, ordered
    bindings = {"path", "query", "header", "cookie", "body", "form"}
    assert max(ordered.index(v) for v in first) < min(ordered.index(b) for b in bindings if b in ordered)
    assert ordered.index("json") < min(ordered.index(b) for b in bindings if b in ordered)
