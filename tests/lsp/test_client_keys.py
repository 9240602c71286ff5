"""The clients' manifest keys in kit-lsp (issue 22 item 4), over a real server process:
`output.client` and `output.tsClient` get hover, completion and key diagnostics like the
other output keys, and saving writes both clients with the rest of the generated code."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import (
    DESIGN,
    USERS,
    USERS_WITH_DROP,
    close_doc,
    codes,
    next_log,
    open_doc,
    project_client,
    replace_all,
    wait_for_diagnostics,
    write_design,
)
from lsp_helpers import MANIFEST as BASE
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

# both clients elsewhere than by default, so that a save writing them is seen writing these keys
MANIFEST = BASE.replace("output:\n", "output:\n  client: ./sdk\n  tsClient: ./web/api\n", 1)
CLIENT_LINE = 1  # `  client: ./sdk`
TS_LINE = 2  # `  tsClient: ./web/api`
WAIT = 60.0  # a manifest edit reanalyses the whole design: slow on a busy machine


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("clients"), {**DESIGN, "design/kit.design.yaml": MANIFEST})


client = project_client(
    options={"generateDelayMs": 50, "diagnosticsDelayMs": 0},
    configuration={"generateOnSave": True, "generateDelayMs": 50},
)


async def _hover(client: LanguageClient, uri: str, line: int, col: int) -> str:
    found = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, col))
    )
    assert found is not None
    return found.contents.value  # type: ignore[union-attr]


async def _labels(client: LanguageClient, uri: str, line: int, col: int) -> list[str]:
    done = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, col))
    )
    assert done is not None
    items = done.items if isinstance(done, lsp.CompletionList) else done
    return [i.label for i in sorted(items, key=lambda i: i.sort_text or i.label)]


async def test_hover_and_completion_of_the_client_keys(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/kit.design.yaml", MANIFEST)
    go = await _hover(client, uri, CLIENT_LINE, 4)
    assert "Go client of the HTTP API" in go and "Default: `./client`" in go
    ts = await _hover(client, uri, TS_LINE, 4)
    assert "TypeScript client of the HTTP API" in ts and "Default: `-`" in ts
    # values: the default first, then "-" (writes none)
    assert await _labels(client, uri, CLIENT_LINE, len("  client: ")) == ["./client", '"-"']
    assert '"-"' in await _labels(client, uri, TS_LINE, len("  tsClient: "))
    # keys: an output section without them offers both
    bare = MANIFEST.replace("  client: ./sdk\n  tsClient: ./web/api\n", "  \n")
    replace_all(client, uri, bare)
    keys = await _labels(client, uri, 1, 2)
    assert {"client", "tsClient"} <= set(keys) and "types" not in keys  # `types` is written already
    close_doc(client, uri)


async def test_misspelt_and_bad_client_keys_are_diagnosed(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/kit.design.yaml", MANIFEST.replace("  tsClient:", "  tsClinet:"))
    diags = await wait_for_diagnostics(client, uri, lambda ds: "manifest/unknown-key" in codes(ds), timeout=WAIT)
    (warning,) = [d for d in diags if d.code == "manifest/unknown-key"]
    assert warning.message == "output.tsClinet is not a manifest key and is ignored - did you mean output.tsClient?"
    assert (warning.range.start.line, warning.range.start.character) == (TS_LINE, 2)
    replace_all(client, uri, MANIFEST.replace("tsClient: ./web/api", "tsClient: ../web"))
    diags = await wait_for_diagnostics(client, uri, lambda ds: "manifest/value" in codes(ds), timeout=WAIT)
    (error,) = [d for d in diags if d.code == "manifest/value"]
    assert "output.tsClient '../web' must stay inside the project" in error.message
    assert error.range.start.line == TS_LINE and error.severity == lsp.DiagnosticSeverity.Error
    replace_all(client, uri, MANIFEST.replace("client: ./sdk", "client: ./internal/types/sdk"))
    nested = "manifest/output-nested"
    diags = await wait_for_diagnostics(client, uri, lambda ds: nested in codes(ds), timeout=WAIT)
    (error,) = [d for d in diags if d.code == nested]
    assert error.message.startswith("output.client internal/types/sdk lies inside output.types internal/types")
    assert error.range.start.line == CLIENT_LINE
    replace_all(client, uri, MANIFEST)
    await wait_for_diagnostics(client, uri, lambda ds: not ds, timeout=WAIT)
    close_doc(client, uri)


def _save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def test_a_save_writes_both_clients_where_the_manifest_says(client: LanguageClient, project: Path) -> None:
    users = project / "design/users/users.kit"
    uri = open_doc(client, users)
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "kit: generated", timeout=WAIT)
    assert "sdk/users_client.go" in message and "web/api/client.ts" in message
    assert "func (c *Client) GetUser(" in (project / "sdk/users_client.go").read_text()
    assert "getUser(" in (project / "web/api/client.ts").read_text()
    assert (project / "web/api/types.ts").is_file() and not (project / "client").exists()
    edited = USERS_WITH_DROP
    users.write_text(edited)
    open_doc(client, users, edited)
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "kit: generated", timeout=WAIT)
    assert "sdk/users_client.go" in message and "web/api/client.ts" in message
    assert "func (c *Client) DropUser(" in (project / "sdk/users_client.go").read_text()
    assert "dropUser(" in (project / "web/api/client.ts").read_text()
    users.write_text(USERS)
    open_doc(client, users, USERS)
