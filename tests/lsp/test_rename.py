"""Rename from any place a name is written, for every kind of name, across files and
packages; names that collide or break Go's rules are refused. Each accepted rename is
applied and the design it gives is analysed: it must have no error."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import MANIFEST, apply_edits, open_doc, project_client, wait_for_diagnostics, write_design
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from kit_core.analyzer import analyze
from kit_core.lower import parse_file
from kit_core.manifest_reader import parse_manifest

pytestmark = pytest.mark.asyncio(loop_scope="module")

SHARED = """\
package shared

type Money {
	amount   int
	currency string
}

error NotFound ItemMissing

middleware Auth

enum Level {
	Low
	High
}
"""

SHOP = """\
package shop

@requiresOneOf(note, code)
type CreateReq {
	id    string @path
	note  string?
	code  string?
	price shared.Money
	level shared.Level? @default(Low)
}

type Item {
	price shared.Money
}

service Shop {
	@middlewares(Auth)
	@errors(shared.ItemMissing)
	post CreateItem /items/{id} {
		request  CreateReq
		response Item
	}
}

extend service Shop {
	get ListItems /items {
		response Item
	}
}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"design/kit.design.yaml": MANIFEST, "design/shared/shared.kit": SHARED, "design/shop/shop.kit": SHOP}
    return write_design(tmp_path_factory.mktemp("rename"), files) / "design"


client = project_client()


def _position(text: str, needle: str, skip: int = 0) -> lsp.Position:
    """Just inside the first character of ``needle`` (after ``skip`` characters of it)."""
    i = text.index(needle) + skip + 1
    before = text[:i]
    return lsp.Position(before.count("\n"), i - (before.rfind("\n") + 1))


def _errors_after(project: Path, texts: dict[str, str]) -> list[str]:
    manifest, _ = parse_manifest(str(project / "kit.design.yaml"), MANIFEST)
    files = [parse_file(path, text) for path, text in texts.items()]
    return [d.render() for d in analyze(files, manifest).diagnostics if d.is_error]


ACCEPTED = [
    # (file the cursor is in, needle, characters into it, new name, expected uses per file)
    ("shop", "shared.Money\n}", 7, "Cash", {"shared": 1, "shop": 2}),  # a qualified use in another package
    ("shared", "Money {", 0, "Cash", {"shared": 1, "shop": 2}),
    ("shop", "ItemMissing)", 0, "Gone", {"shared": 1, "shop": 1}),  # an error named in @errors
    ("shop", "Auth)", 0, "Guard", {"shared": 1, "shop": 1}),  # a middleware in @middlewares
    ("shop", "note, code", 0, "remark", {"shop": 2}),  # a field in @requiresOneOf
    ("shop", "code  string?", 0, "ref", {"shop": 2}),
    ("shop", "id}", 0, "key", {"shop": 2}),  # a path variable bound by a bare @path
    ("shop", "Low)", 0, "Lowest", {"shared": 1, "shop": 1}),  # an enum value in @default
    ("shared", "High", 0, "Top", {"shared": 1}),
    ("shop", "CreateItem", 0, "AddItem", {"shop": 1}),  # a method
    ("shop", "Shop {\n\tget", 0, "Store", {"shop": 2}),  # a service from its extend block
    ("shop", "Level? @default", 0, "Grade", {"shared": 1, "shop": 1}),  # an enum
]


@pytest.mark.parametrize(("where", "needle", "skip", "new", "expected"), ACCEPTED)
async def test_rename_from_any_use(
    client: LanguageClient, project: Path, where: str, needle: str, skip: int, new: str, expected: dict[str, int]
) -> None:
    paths = {"shared": project / "shared/shared.kit", "shop": project / "shop/shop.kit"}
    texts = {"shared": SHARED, "shop": SHOP}
    uri = open_doc(client, paths[where], texts[where])
    await wait_for_diagnostics(client, uri)
    pos = lsp.TextDocumentPositionParams(lsp.TextDocumentIdentifier(uri), _position(texts[where], needle, skip))
    prep = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(pos.text_document, pos.position))
    assert isinstance(prep, lsp.PrepareRenamePlaceholder)
    old = prep.placeholder
    edit = await client.text_document_rename_async(lsp.RenameParams(pos.text_document, pos.position, new_name=new))
    assert edit is not None and edit.changes is not None
    counts = {name: len(edit.changes.get(p.as_uri(), [])) for name, p in paths.items()}
    assert {k: v for k, v in counts.items() if v} == expected
    renamed = {str(paths[n]): apply_edits(texts[n], edit.changes.get(paths[n].as_uri(), [])) for n in paths}
    assert _errors_after(project, renamed) == []
    assert all(e.new_text == new for es in edit.changes.values() for e in es)
    assert all(old in texts[n] and old not in renamed[str(paths[n])].split() for n in paths if counts[n])


REFUSED = [
    ("shared", "Money {", 0, "ItemMissing", "decl/duplicate"),  # types and errors share a namespace
    ("shop", "note  string", 0, "code", "field/duplicate"),
    ("shop", "CreateItem", 0, "ListItems", "service/duplicate-method"),
    ("shared", "Low\n", 0, "High", "enum/duplicate-name"),
    ("shop", "CreateItem", 0, "addItem", "upper-case"),
    ("shared", "Money {", 0, "string", "built-in"),
    ("shared", "Money {", 0, "2x", "identifier"),
    ("shop", "note  string", 0, "Note", "lower-case"),
    ("shared", "Auth\n", 0, "Config", "decl/go-name-collision"),  # a middleware named like a Go type kit generates
]


@pytest.mark.parametrize(("where", "needle", "skip", "new", "reason"), REFUSED)
async def test_rename_refuses_collisions_and_bad_names(
    client: LanguageClient, project: Path, where: str, needle: str, skip: int, new: str, reason: str
) -> None:
    path = project / ("shared/shared.kit" if where == "shared" else "shop/shop.kit")
    text = SHARED if where == "shared" else SHOP
    uri = open_doc(client, path, text)
    await wait_for_diagnostics(client, uri)
    pos = _position(text, needle, skip)
    with pytest.raises(JsonRpcException) as refused:
        await client.text_document_rename_async(lsp.RenameParams(lsp.TextDocumentIdentifier(uri), pos, new_name=new))
    assert reason in str(refused.value)


async def test_nothing_to_rename_on_a_keyword_or_a_qualifier(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "shop/shop.kit", SHOP)
    await wait_for_diagnostics(client, uri)
    for needle in ("service Shop", "shared.Money\n}"):  # the keyword; the `shared.` qualifier
        pos = _position(SHOP, needle)
        params = lsp.PrepareRenameParams(lsp.TextDocumentIdentifier(uri), pos)
        assert await client.text_document_prepare_rename_async(params) is None
