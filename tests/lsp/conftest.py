"""pytest-lsp fixtures: kit-lsp in a subprocess, one server per test module, run under
two client capability profiles (VS Code and Neovim), on a temp design folder."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import DESIGN, make_client, write_design
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

PROFILES = ["visual-studio-code", "neovim"]

# kit-lsp keeps diagnostics between sessions under the user's cache folder: not in tests.
os.environ.setdefault("KIT_CACHE_DIR", tempfile.mkdtemp(prefix="kit-lsp-cache-"))


@pytest.fixture(scope="module")
def design(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("project"), DESIGN)


@pytest_lsp.fixture(
    scope="module",
    params=PROFILES,
    config=ClientServerConfig(server_command=[sys.executable, "-m", "kit_lsp"], client_factory=make_client),
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, design: Path):  # type: ignore[no-untyped-def]
    params = lsp.InitializeParams(
        capabilities=client_capabilities(request.param),
        root_uri=design.as_uri(),
        initialization_options={"generateOnSave": False, "diagnosticsDelayMs": 0},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()
