"""Hover, definition, references, highlight, rename, document and workspace symbols."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import USERS, at, extract, open_doc, range_from_str, replace_all, wait_for_diagnostics
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _open_users(client: LanguageClient, design: Path, marked: str) -> tuple[str, lsp.Position | None]:
    text, cursor, _ = extract(marked)
    uri = open_doc(client, design / "design/users/users.kit", USERS)
    replace_all(client, uri, text)
    await wait_for_diagnostics(client, uri)
    return uri, cursor


async def _hover(client: LanguageClient, uri: str, pos: lsp.Position) -> str:
    result = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos))
    assert result is not None
    contents = result.contents
    assert isinstance(contents, lsp.MarkupContent)
    return contents.value


def _marked(needle: str, text: str = USERS) -> str:
    """USERS with the cursor placed just after the first character of ``needle``."""
    i = text.index(needle) + 1
    return text[:i] + "┆" + text[i:]


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("@format(uuid)", "**Sites:**"),  # decorator docs from the registry
        ("Status\n\tshared", "enum Status {"),  # a type reference: declaration + doc
        ("User {", "User is a person with an account."),  # a declaration name
        ("shared.Audit", "Audit holds creation facts."),  # a qualified reference, other package
        ("string @format(uuid)", "Built-in type"),  # primitive
        ("get GetUser", "HTTP GET"),  # verb
        ("NotFound UserNotFound", "HTTP 404"),  # error category
        ("GetUser /{id}", "method of service `Users`"),
        ("email  string", "field of `User`"),
        ("Auth)", "middleware Auth"),  # a middleware named in @middlewares
    ],
)
async def test_hover(client: LanguageClient, design: Path, needle: str, expected: str) -> None:
    uri, cursor = await _open_users(client, design, _marked(needle))
    assert cursor is not None
    assert expected in await _hover(client, uri, cursor)


async def test_hover_enum_value_in_default(client: LanguageClient, design: Path) -> None:
    text = USERS.replace("status Status\n", "status Status? @default(Active)\n")
    uri, cursor = await _open_users(client, design, _marked("Active)", text))
    assert cursor is not None
    assert "value of enum `Status`" in await _hover(client, uri, cursor)


async def test_definition_across_packages(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _open_users(client, design, _marked("Audit\n}"))
    assert cursor is not None
    result = await client.text_document_definition_async(lsp.DefinitionParams(**_pos(uri, cursor)))
    assert isinstance(result, list) and len(result) == 1
    assert result[0].uri.endswith("shared/shared.kit")
    assert result[0].range == range_from_str("3:5-3:10")


async def test_references_and_highlight(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _open_users(client, design, _marked("User {"))
    assert cursor is not None
    ctx = lsp.ReferenceContext(include_declaration=True)
    refs = await client.text_document_references_async(lsp.ReferenceParams(**_pos(uri, cursor), context=ctx))
    assert refs is not None
    lines = sorted(r.range.start.line for r in refs)
    assert lines == [3, 29]  # the declaration and `response User`
    marks = await client.text_document_document_highlight_async(lsp.DocumentHighlightParams(**_pos(uri, cursor)))
    assert marks is not None and len(marks) == 2


async def test_rename_rewrites_every_use(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _open_users(client, design, _marked("UserNotFound\n"))
    assert cursor is not None
    prep = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(**_pos(uri, cursor)))
    assert isinstance(prep, lsp.PrepareRenamePlaceholder) and prep.placeholder == "UserNotFound"
    edit = await client.text_document_rename_async(lsp.RenameParams(**_pos(uri, cursor), new_name="NoUser"))
    assert edit is not None and edit.changes is not None
    edits = edit.changes[uri]
    assert {e.new_text for e in edits} == {"NoUser"} and len(edits) == 2  # declaration + @errors(...)


@pytest.mark.parametrize("bad", ["lower", "1Abc", "type", "string", "Status"])
async def test_rename_validates_the_new_name(client: LanguageClient, design: Path, bad: str) -> None:
    uri, cursor = await _open_users(client, design, _marked("User {"))
    assert cursor is not None
    with pytest.raises(JsonRpcException):
        await client.text_document_rename_async(lsp.RenameParams(**_pos(uri, cursor), new_name=bad))


async def test_prepare_rename_works_from_a_use_in_another_file(client: LanguageClient, design: Path) -> None:
    uri, cursor = await _open_users(client, design, _marked("Audit\n}"))
    assert cursor is not None
    prep = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(**_pos(uri, cursor)))
    assert isinstance(prep, lsp.PrepareRenamePlaceholder) and prep.placeholder == "Audit"


async def test_document_symbols(client: LanguageClient, design: Path) -> None:
    uri, _ = await _open_users(client, design, USERS)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    kinds = {s.name: s.kind for s in symbols if isinstance(s, lsp.DocumentSymbol)}
    assert kinds["User"] == lsp.SymbolKind.Struct and kinds["Users"] == lsp.SymbolKind.Interface
    assert kinds["Status"] == lsp.SymbolKind.Enum and kinds["Auth"] == lsp.SymbolKind.Function
    users = next(s for s in symbols if s.name == "Users" and isinstance(s, lsp.DocumentSymbol))
    assert users.children and users.children[0].detail == "get GetUser (GetUserReq → User)"


async def test_workspace_symbols(client: LanguageClient, design: Path) -> None:
    await _open_users(client, design, USERS)
    result = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="aud"))
    assert result is not None
    names = {(s.name, s.container_name) for s in result if isinstance(s, lsp.SymbolInformation)}
    assert ("Audit", "shared") in names


def _pos(uri: str, pos: lsp.Position) -> dict[str, object]:
    p = at(uri, pos)
    return {"text_document": p.text_document, "position": p.position}
