"""kit-lsp beyond the basics, over a real server process: protos in the design (diagnostics
as you type, outline), inlay hints, code lenses and `kit.open`, definition into the stub and
into proto messages, the manifest as a language, stub drift with its quick fix, and a
renamed method's stub note."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest
from lsp_helpers import (
    codes,
    open_doc,
    project_client,
    refreshes,
    replace_all,
    wait_for_diagnostics,
    write_design,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from kit_core import program
from kit_core.generators import go
from kit_core.writer import write_outputs

pytestmark = pytest.mark.asyncio(loop_scope="module")

KIT = """\
package shop

scalar Name string @length(1, 40)

type Item {
	id   string
	name Name
}

type ItemKey {
	id string @path
}

type Level {
	count int
}

middleware Auth

@prefix("/items")
@middlewares(Auth)
service Items {
	get GetItem /{id} {
		request  ItemKey
		response Item
	}

	post CreateItem / {
		request  Item
		response Item
	}
}
"""

PROTO = """\
syntax = "proto3";

package stock.v1;

service Stock {
  rpc Get(GetRequest) returns (Level);
}

message GetRequest {
  string sku = 1;
}

message Level {
  int64 count = 1;
}
"""

MANIFEST = """\
openapi:
  title: Shop
  basePath: /api
output:
  fileCase: snake
"""

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.26\n",
    "design/kit.design.yaml": MANIFEST,
    "design/shop/shop.kit": KIT,
    "design/stock/v1/stock.proto": PROTO,
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("editor"), FILES)


client = project_client()


def _generate(project: Path) -> None:
    """The Go side as `kit gen` writes it (no protobuf plugins needed for the stubs)."""
    design = program.load_design(project / "design")
    checked = program.check(design)
    assert not checked.has_errors, [d.render() for d in checked.diagnostics]
    files, _ = go.generate(program.gen_context(design, checked.analysis))
    from kit_core.generators import openapi

    files += openapi.generate(program.gen_context(design, checked.analysis))
    assert write_outputs(project, files, design.manifest).ok


def _pos(text: str, needle: str, delta: int = 0) -> lsp.Position:
    before = text[: text.index(needle) + delta]
    return lsp.Position(before.count("\n"), len(before.rsplit("\n", 1)[-1]))


async def _until(check, timeout: float = 20.0):  # type: ignore[no-untyped-def]
    async def poll():  # type: ignore[no-untyped-def]
        while True:
            found = await check()
            if found:
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), timeout)


# --------------------------------------------------------------------------- protos


async def test_proto_diagnostics_as_you_type_with_buffers_over_disk(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/stock/v1/stock.proto")
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    replace_all(client, uri, PROTO.replace("  int64 count = 1;", "  int64 count = 1;\n  Missing gone = 2;"))
    diags = await wait_for_diagnostics(client, uri, lambda ds: "proto/compile" in codes(ds))
    (d,) = diags
    assert d.range.start == lsp.Position(14, 2) and '"Missing" is not defined' in d.message
    assert (project / "design/stock/v1/stock.proto").read_text() == PROTO  # the buffer, not the disk
    replace_all(client, uri, PROTO)
    await wait_for_diagnostics(client, uri, lambda ds: not ds)


async def test_proto_outline(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/stock/v1/stock.proto", PROTO)
    await wait_for_diagnostics(client, uri)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    get = "(stock.v1.GetRequest) → stock.v1.Level"
    shape = [(s.name, s.kind, [(c.name, c.kind, c.detail) for c in s.children or []]) for s in symbols]  # type: ignore[union-attr]
    assert shape == [
        ("Stock", lsp.SymbolKind.Interface, [("Get", lsp.SymbolKind.Method, f"unary {get}")]),
        ("GetRequest", lsp.SymbolKind.Struct, [("sku", lsp.SymbolKind.Field, "string = 1")]),
        ("Level", lsp.SymbolKind.Struct, [("count", lsp.SymbolKind.Field, "int64 = 1")]),
    ]


# --------------------------------------------------------------------------- inlay hints


async def test_inlay_hints(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/shop/shop.kit", KIT)
    await wait_for_diagnostics(client, uri)
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(40, 0))
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(lsp.TextDocumentIdentifier(uri), whole))
    assert hints is not None
    got = [(h.position.line, h.position.character, h.label) for h in hints]
    assert got == [
        (5, 12, 'body "id"'),
        (6, 10, "@length(1, 40)"),
        (6, 10, 'body "name"'),
        (10, 10, 'path "id"'),
        (22, 18, "GET /api/items/{id} · 200"),
        (22, 18, "middlewares: Auth"),
        (27, 18, "POST /api/items · 201"),
        (27, 18, "middlewares: Auth"),
    ]
    only = lsp.Range(lsp.Position(22, 0), lsp.Position(23, 0))
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(lsp.TextDocumentIdentifier(uri), only))
    assert hints is not None and [h.label for h in hints] == ["GET /api/items/{id} · 200", "middlewares: Auth"]


# --------------------------------------------------------------------------- the manifest


async def test_manifest_hover_completion_and_key_diagnostics(client: LanguageClient, project: Path) -> None:
    path = project / "design/kit.design.yaml"
    text = MANIFEST + "  tpyes: ./x\n"
    uri = open_doc(client, path, text)
    diags = await wait_for_diagnostics(client, uri, lambda ds: "manifest/unknown-key" in codes(ds))
    assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in diags] == [(5, 2, 7)]
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(4, 4)))
    assert hover is not None and "Default: `snake`" in hover.contents.value  # type: ignore[union-attr]
    assert hover.range == lsp.Range(lsp.Position(4, 2), lsp.Position(4, 10))
    done = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(4, 12))
    )
    assert done is not None
    values = sorted(done.items, key=lambda i: i.sort_text or "")  # type: ignore[union-attr]
    assert [i.label for i in values] == ["snake", "kebab", "camel"]
    assert values[1].text_edit.range == lsp.Range(lsp.Position(4, 12), lsp.Position(4, 17))  # type: ignore[union-attr]
    replace_all(client, uri, MANIFEST)
    await wait_for_diagnostics(client, uri, lambda ds: not ds)


# --------------------------------------------------------------------------- lenses, definition


async def test_code_lenses_and_open(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/shop/shop.kit", KIT)
    await wait_for_diagnostics(client, uri)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert lenses is not None and [(c.range.start.line, c.command.title) for c in lenses] == [  # type: ignore[union-attr]
        (22, "stub: not generated yet"),
        (27, "stub: not generated yet"),
    ]
    _generate(project)
    stub = project / "internal/service/items/create_item.go"
    todo = (
        '\t// TODO: implement CreateItem; until then callers get 501 {"message":"CreateItem is not implemented yet"}.\n'
        '\treturn nil, svccontext.NotImplemented("CreateItem")'
    )
    stub.write_text(stub.read_text().replace(todo, "\treturn req, nil"))
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert lenses is not None
    titles = [(c.range.start.line, c.command.title) for c in lenses]  # type: ignore[union-attr]
    assert titles == [
        (22, "stub: TODO"),
        (22, "open handler"),
        (22, "open stub"),
        (22, "open in OpenAPI"),
        (27, "stub: implemented"),
        (27, "open handler"),
        (27, "open stub"),
        (27, "open in OpenAPI"),
    ]
    openapi = next(c for c in lenses if c.command.title == "open in OpenAPI")  # type: ignore[union-attr]
    assert openapi.command is not None
    await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(openapi.command.command, openapi.command.arguments)
    )
    shown = client.shown_documents[-1]
    doc_lines = (project / "docs/openapi.yaml").read_text().splitlines()
    assert shown.uri == (project / "docs/openapi.yaml").as_uri()
    assert shown.selection is not None and doc_lines[shown.selection.start.line].strip() == "operationId: GetItem"
    rpcs = open_doc(client, project / "design/stock/v1/stock.proto", PROTO)
    await wait_for_diagnostics(client, rpcs)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(rpcs)))
    assert lenses is not None and [(c.range.start.line, c.command.title) for c in lenses] == [  # type: ignore[union-attr]
        (5, "stub: TODO"),
        (5, "open handler"),
        (5, "open stub"),
    ]


async def test_definition_into_the_stub_and_into_protos(client: LanguageClient, project: Path) -> None:
    _generate(project)
    uri = open_doc(client, project / "design/shop/shop.kit", KIT)
    await wait_for_diagnostics(client, uri)
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), _pos(KIT, "GetItem", 2))
    )
    stub = project / "internal/service/items/get_item.go"
    assert isinstance(found, list) and [f.uri for f in found] == [stub.as_uri()]
    assert stub.read_text().splitlines()[found[0].range.start.line].startswith("func (l *GetItemService) GetItem(")
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), _pos(KIT, "type Level", 6))
    )
    assert isinstance(found, list) and [(Path(f.uri).name, f.range.start.line) for f in found] == [
        ("shop.kit", 13),
        ("stock.proto", 12),
    ]


# --------------------------------------------------------------------------- stub drift


async def _diags(client: LanguageClient, uri: str, code: str) -> Sequence[lsp.Diagnostic]:
    async def check():  # type: ignore[no-untyped-def]
        return [d for d in client.diagnostics.get(uri, []) if d.code == code]

    return await _until(check)


async def test_stub_drift_on_the_method_and_its_quick_fix(client: LanguageClient, project: Path) -> None:
    _generate(project)
    uri = open_doc(client, project / "design/shop/shop.kit", KIT)
    replace_all(client, uri, KIT.replace("response Item\n\t}\n\n\tpost", "response Level\n\t}\n\n\tpost"))
    (diag,) = await _diags(client, uri, "stub/drift")
    assert diag.range.start == _pos(KIT, "GetItem")
    assert "response type changed from `*types.Item` to `*types.Level`" in diag.message
    assert refreshes(client).get(lsp.WORKSPACE_CODE_LENS_REFRESH, 0) > 0  # lenses show the drift too
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert lenses is not None and lenses[0].command is not None
    assert (lenses[0].range.start.line, lenses[0].command.title) == (22, "stub: signature drifted")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), diag.range, lsp.CodeActionContext([diag]))
    )
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, lsp.CodeAction) and a.title.startswith("Rewrite the signature")]
    stub = project / "internal/service/items/get_item.go"
    (edits,) = action.edit.changes.values()  # type: ignore[union-attr]
    (edit,) = edits
    lines = stub.read_text().splitlines()
    line = lines[edit.range.start.line]
    fixed = line[: edit.range.start.character] + edit.new_text + line[edit.range.end.character :]
    assert fixed == "func (l *GetItemService) GetItem(req *types.ItemKey) (*types.Level, error) {"
    stub.write_text("\n".join([*lines[: edit.range.start.line], fixed, *lines[edit.range.start.line + 1 :]]) + "\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(stub.as_uri(), lsp.FileChangeType.Changed)])
    )

    async def cleared():  # type: ignore[no-untyped-def]
        return not [d for d in client.diagnostics.get(uri, []) if d.code == "stub/drift"]

    assert await _until(cleared)
    replace_all(client, uri, KIT)


async def test_a_renamed_method_is_told_its_code_will_move(client: LanguageClient, project: Path) -> None:
    _generate(project)
    uri = open_doc(client, project / "design/shop/shop.kit", KIT)
    replace_all(client, uri, KIT.replace("post CreateItem", "post AddItem"))
    (diag,) = await _diags(client, uri, "stub/renamed")
    assert diag.severity == lsp.DiagnosticSeverity.Information
    assert "internal/service/items/create_item.go holds the code of CreateItem" in diag.message
    replace_all(client, uri, KIT)
