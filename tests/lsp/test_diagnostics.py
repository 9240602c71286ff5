"""Diagnostics: project mode across files, incremental edits, manifest, close clears."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import change_doc, close_doc, open_doc, wait_for_diagnostics
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
        [
            lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(4, 0), lsp.Position(4, 1)), text=""
            )
        ],
    )
    diags = await wait_for_diagnostics(client, uri, _has_parse_error)
    assert diags[0].source == "kit"
    # put it back
    change_doc(
        client,
        uri,
        [
            lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(4, 0), lsp.Position(4, 0)), text="}"
            )
        ],
    )
    await wait_for_diagnostics(client, uri, lambda ds: not ds)
    close_doc(client, uri)


def _has_parse_error(diags: object) -> bool:
    return any(str(d.code).startswith("parse/") for d in diags)  # type: ignore[attr-defined]
