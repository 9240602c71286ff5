"""Diagnostics reach every file of every design in the workspace folders, open or not:
published at start, updated when another file's edit changes them, cleared when fixed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    MANIFEST,
    close_doc,
    codes,
    make_client,
    open_doc,
    replace_all,
    wait_for_diagnostics,
    write_design,
)
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

TYPES = """\
package shop

type Money {
	amount int
	currency string
}
"""

SERVICES = """\
package shop

type Order {
	total Money
	tax   Money
}

type GetOrderReq {
	id string @path
}

service Orders {
	get GetOrder /orders/{id} {
		request  GetOrderReq
		response Order
	}
}

type Refund {
	amount Money
}
"""

BROKEN = "package other\n\ntype Lost {\n\tthing Nowhere\n}\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {
        "go.mod": "module example.com/shop\n\ngo 1.26\n",
        "api/kit.design.yaml": MANIFEST,
        "api/shop/types.kit": TYPES,
        "api/shop/services.kit": SERVICES,
        "other/kit.design.yaml": MANIFEST,
        "other/lost.kit": BROKEN,
        "notes/.hidden/kit.design.yaml": MANIFEST,
    }
    return write_design(tmp_path_factory.mktemp("ws"), files)


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "kit_lsp"], client_factory=make_client),
)
async def client(lsp_client: LanguageClient, project: Path):  # type: ignore[no-untyped-def]
    params = lsp.InitializeParams(
        capabilities=client_capabilities("neovim"),
        workspace_folders=[lsp.WorkspaceFolder(uri=project.as_uri(), name="ws")],
        initialization_options={"generateOnSave": False, "diagnosticsDelayMs": 0},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def test_files_never_opened_get_their_diagnostics(client: LanguageClient, project: Path) -> None:
    lost = (project / "other/lost.kit").as_uri()
    diags = await wait_for_diagnostics(client, lost, lambda ds: bool(ds))
    assert codes(diags) == ["ref/unknown-symbol"]
    services = (project / "api/shop/services.kit").as_uri()
    assert services not in client.diagnostics  # a clean file that was never shown anything: nothing to send


async def test_breaking_a_type_reaches_closed_files_and_fixing_it_clears_them(
    client: LanguageClient, project: Path
) -> None:
    services = (project / "api/shop/services.kit").as_uri()
    types = open_doc(client, project / "api/shop/types.kit")
    replace_all(client, types, TYPES.replace("type Money", "type Cash"))
    diags = await wait_for_diagnostics(client, services, lambda ds: len(ds) == 3)
    assert codes(diags) == ["ref/unknown-symbol"] * 3
    assert sorted(d.range.start.line for d in diags) == [3, 4, 19]
    replace_all(client, types, TYPES)
    assert not list(await wait_for_diagnostics(client, services, lambda ds: not ds))


async def test_closing_a_buffer_shows_the_file_on_disk(client: LanguageClient, project: Path) -> None:
    path = project / "api/shop/services.kit"
    uri = open_doc(client, path, SERVICES.replace("tax   Money", "tax   Nope"))
    await wait_for_diagnostics(client, uri, lambda ds: "ref/unknown-symbol" in codes(ds))
    close_doc(client, uri)
    assert not list(await wait_for_diagnostics(client, uri, lambda ds: not ds))


async def test_one_missing_brace_is_one_diagnostic_in_the_whole_design(client: LanguageClient, project: Path) -> None:
    types = open_doc(client, project / "api/shop/types.kit")
    broken = TYPES.replace("type Money {", "type Base {\n\tid string\n\ntype Money {")  # Base is not closed
    replace_all(client, types, broken)
    diags = await wait_for_diagnostics(client, types, lambda ds: bool(ds))
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("parse/syntax", 3, 10)]
    assert "missing `}`" in diags[0].message
    services = (project / "api/shop/services.kit").as_uri()
    symbols = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="Money"))
    assert symbols and any(s.name == "Money" for s in symbols)  # still declared, so nothing cascades:
    assert not client.diagnostics.get(services)  # no unknown Money in the other file
    replace_all(client, types, TYPES)
    await wait_for_diagnostics(client, types, lambda ds: not ds)
