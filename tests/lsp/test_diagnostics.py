"""Diagnostics: project mode across files, incremental edits, manifest, close clears."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import change_doc, close_doc, codes, open_doc, replace_all, wait_for_diagnostics
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_clean_file_publishes_empty_list(client: LanguageClient, design: Path) -> None:
    uri = open_doc(client, design / "design/users/users.kit")
    diags = await wait_for_diagnostics(client, uri)
    assert [d for d in diags if d.severity == lsp.DiagnosticSeverity.Error] == []


async def test_parse_error_comes_and_goes_on_edits(client: LanguageClient, design: Path) -> None:
    path = design / "design/users/extra.kit"
    uri = open_doc(client, path, "package users\n\ntype Extra {\n\tname string\n}\n")
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    # delete the closing brace: a parse error
    change_doc(
        client,
        uri,
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(4, 0), lsp.Position(4, 1)), text="")],
    )
    diags = await wait_for_diagnostics(client, uri, _has_parse_error)
    assert diags[0].source == "kit"
    # put it back
    change_doc(
        client,
        uri,
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(4, 0), lsp.Position(4, 0)), text="}")],
    )
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    close_doc(client, uri)


def _has_parse_error(diags: object) -> bool:
    return any(str(d.code).startswith("parse/") for d in diags)  # type: ignore[attr-defined]


async def test_error_caused_by_another_file_is_reported_where_it_is(client: LanguageClient, design: Path) -> None:
    users = open_doc(client, design / "design/users/users.kit")
    shared_path = design / "design/shared/shared.kit"
    shared = open_doc(client, shared_path)
    await wait_for_diagnostics(client, users, lambda ds: not _errors(ds))
    replace_all(client, shared, shared_path.read_text().replace("type Audit", "type AuditLog"))
    diags = await wait_for_diagnostics(client, users, lambda ds: "ref/unknown-symbol" in codes(ds))
    assert any(d.range.start.line == 7 for d in diags)  # `shared.Audit` in users.kit
    await wait_for_diagnostics(client, shared, lambda ds: not _errors(ds))
    close_doc(client, shared)  # the file on disk counts again: the error goes away
    await wait_for_diagnostics(client, users, lambda ds: "ref/unknown-symbol" not in codes(ds))


async def test_closing_a_file_clears_its_diagnostics(client: LanguageClient, design: Path) -> None:
    uri = open_doc(client, design / "design/users/broken.kit", "package users\ntype Broken {\n")
    await wait_for_diagnostics(client, uri, lambda ds: bool(ds))
    close_doc(client, uri)
    await wait_for_diagnostics(client, uri, lambda ds: not ds)


async def test_manifest_diagnostics(client: LanguageClient, design: Path) -> None:
    path = design / "design/kit.design.yaml"
    uri = open_doc(client, path, path.read_text() + "bogus: 1\n")
    diags = await wait_for_diagnostics(client, uri, lambda ds: "manifest/unknown-key" in codes(ds))
    warning = next(d for d in diags if d.code == "manifest/unknown-key")
    assert warning.severity == lsp.DiagnosticSeverity.Warning and warning.range.start.line == 9
    replace_all(client, uri, path.read_text())
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    close_doc(client, uri)


async def test_a_misspelt_manifest_key_gets_did_you_mean_and_a_quick_fix(client: LanguageClient, design: Path) -> None:
    path = design / "design/kit.design.yaml"
    uri = open_doc(client, path, path.read_text() + "outptu:\n  fileCase: snake\n")
    diags = await wait_for_diagnostics(client, uri, lambda ds: "manifest/unknown-key" in codes(ds))
    warning = next(d for d in diags if d.code == "manifest/unknown-key")
    assert warning.message == "outptu is not a manifest key and is ignored - did you mean output?"
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), warning.range, lsp.CodeActionContext(diagnostics=[warning])
        )
    )
    assert actions is not None and [a.title for a in actions] == ["Change to output"]  # type: ignore[union-attr]
    edit = actions[0].edit  # type: ignore[union-attr]
    assert edit is not None and edit.changes is not None
    (change,) = edit.changes[uri]
    assert (change.range, change.new_text) == (warning.range, "output")
    replace_all(client, uri, path.read_text())
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    close_doc(client, uri)


async def test_file_outside_a_design_is_checked_alone(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_doc(client, tmp_path / "loose.kit", "package loose\ntype T {\n\ta Missing\n}\n")
    diags = await wait_for_diagnostics(client, uri, lambda ds: bool(ds))
    assert "ref/unknown-symbol" in codes(diags)
    close_doc(client, uri)


def _errors(diags: object) -> list[object]:
    return [d for d in diags if d.severity == lsp.DiagnosticSeverity.Error]  # type: ignore[attr-defined]


async def test_watched_file_changes_on_disk_reanalyse_open_files(client: LanguageClient, design: Path) -> None:
    users = open_doc(client, design / "design/users/users.kit")
    await wait_for_diagnostics(client, users, lambda ds: not _errors(ds))
    extra = design / "design/users/dup.kit"
    extra.write_text("package users\n\ntype User {}\n")
    created = lsp.FileEvent(uri=extra.as_uri(), type=lsp.FileChangeType.Created)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[created]))
    await wait_for_diagnostics(client, users, lambda ds: "decl/duplicate" in codes(ds))
    extra.unlink()
    deleted = lsp.FileEvent(uri=extra.as_uri(), type=lsp.FileChangeType.Deleted)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[deleted]))
    await wait_for_diagnostics(client, users, lambda ds: "decl/duplicate" not in codes(ds))


async def test_columns_use_the_negotiated_encoding(client: LanguageClient, design: Path) -> None:
    """Neovim negotiates UTF-8 (byte columns), VS Code UTF-16: `Ü` is 2 bytes, 1 unit."""
    text = 'package users\n\ntype Accent {\n\tname string @doc("Ü") @bogus\n}\n'
    uri = open_doc(client, design / "design/users/accent.kit", text)
    diags = await wait_for_diagnostics(client, uri, lambda ds: "decorator/unknown" in codes(ds))
    bogus = next(d for d in diags if d.code == "decorator/unknown")
    caps = client.capabilities
    encodings = caps.general.position_encodings if caps is not None and caps.general is not None else None
    utf8 = bool(encodings) and encodings[0] == lsp.PositionEncodingKind.Utf8  # type: ignore[index]
    line = text.split("\n")[3]
    units = line.index("bogus")
    assert bogus.range.start.character == (len(line[:units].encode()) if utf8 else units)
    close_doc(client, uri)
