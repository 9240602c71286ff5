"""shutdown / exit exactly per LSP, `-version`, and settings that do not fit."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_helpers import make_client
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "kit_lsp"]


CAPABILITIES: dict[str, lsp.InitializeResult] = {}


async def _start(tmp_path: Path, options: object = None) -> LanguageClient:
    client = make_client()
    await client.start_io(*SERVER)
    params = lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=tmp_path.as_uri(),
        initialization_options=options,
    )
    CAPABILITIES["last"] = await client.initialize_session(params)
    return client


async def _exit_code(client: LanguageClient) -> int:
    client.exit(None)
    server = client._server  # the subprocess pytest-lsp started
    assert server is not None
    code = await asyncio.wait_for(server.wait(), 10)
    await client.stop()
    return code


@pytest.mark.asyncio
async def test_exit_after_shutdown_is_0_and_requests_after_shutdown_are_invalid(tmp_path: Path) -> None:
    client = await _start(tmp_path)
    assert await client.shutdown_async(None) is None
    with pytest.raises(JsonRpcException) as err:
        await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="x"))
    assert err.value.code == -32600  # InvalidRequest
    assert await _exit_code(client) == 0


@pytest.mark.asyncio
async def test_exit_without_shutdown_is_1_and_capabilities(tmp_path: Path) -> None:
    client = await _start(tmp_path)
    caps = CAPABILITIES["last"].capabilities
    sync = caps.text_document_sync
    assert isinstance(sync, lsp.TextDocumentSyncOptions) and sync.change == lsp.TextDocumentSyncKind.Incremental
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider and caps.document_formatting_provider and caps.code_action_provider
    assert caps.completion_provider and caps.signature_help_provider and caps.semantic_tokens_provider
    assert caps.folding_range_provider and caps.document_symbol_provider and caps.workspace_symbol_provider
    assert await _exit_code(client) == 1


@pytest.mark.asyncio
async def test_invalid_settings_are_reported_and_defaults_kept(tmp_path: Path) -> None:
    client = await _start(tmp_path, {"generateOnSave": "sometimes"})
    for _ in range(1000):  # the settings are read once the server is loaded, after the handshake
        if client.messages:
            break
        await asyncio.sleep(0.02)
    assert client.messages and "invalid settings" in client.messages[0].message
    await client.shutdown_session()
    await client.stop()


def test_version_flag() -> None:
    out = subprocess.run([*SERVER, "-version"], capture_output=True, text=True, timeout=30, check=True)
    assert out.stdout.startswith("kit-lsp ")
    out = subprocess.run([*SERVER, "--version"], capture_output=True, text=True, timeout=30, check=True)
    assert out.stdout.startswith("kit-lsp ")


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_flag_prints_usage_and_exits_0(flag: str) -> None:
    """Run by hand, `kit-lsp --help` explains itself (stdin closed: it must not wait for an editor)."""
    out = subprocess.run(
        [*SERVER, flag], capture_output=True, text=True, timeout=30, check=False, stdin=subprocess.DEVNULL
    )
    assert out.returncode == 0 and out.stdout.startswith("usage: kit-lsp "), (out.returncode, out.stderr)
    assert "--version" in out.stdout and "Language Server Protocol" in out.stdout


@pytest.mark.asyncio
async def test_workspace_symbols_without_open_files(tmp_path: Path) -> None:
    from lsp_helpers import DESIGN, write_design

    root = write_design(tmp_path, DESIGN)
    client = await _start(root)
    result = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="User"))
    assert result is not None and {s.name for s in result} >= {"User", "Users", "GetUserReq", "UserNotFound"}
    await client.shutdown_session()
    await client.stop()
