"""Generate on save writes the Go client of the HTTP API (`output.client`) with the rest,
and a method added in the editor gets its client method on the next save."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import DESIGN, USERS, make_client, next_log, open_doc, write_design
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("gen-client"), DESIGN)


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "kit_lsp"], client_factory=make_client),
)
async def client(lsp_client: LanguageClient, project: Path):  # type: ignore[no-untyped-def]
    lsp_client.set_configuration({"generateOnSave": True, "generateDelayMs": 50}, section="kit")
    params = lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=project.as_uri(),
        initialization_options={"generateDelayMs": 50},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def test_a_save_regenerates_the_client(client: LanguageClient, project: Path) -> None:
    users = project / "design/users/users.kit"
    uri = open_doc(client, users)
    start = len(client.log_messages)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    await next_log(client, start, "kit: generated")
    methods = project / "client/users_client.go"
    assert "func (c *Client) GetUser(" in methods.read_text()
    assert (project / "client/client.go").is_file()
    edited = USERS.replace(
        "\t\tresponse User\n\t}\n",
        "\t\tresponse User\n\t}\n\n\tdelete DropUser /{id} {\n\t\trequest GetUserReq\n\t}\n",
    )
    assert edited != USERS
    users.write_text(edited)
    open_doc(client, users, edited)
    start = len(client.log_messages)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    message = await next_log(client, start, "kit: generated")
    assert "client/users_client.go" in message
    assert "func (c *Client) DropUser(ctx context.Context, req *users.GetUserReq" in methods.read_text()
