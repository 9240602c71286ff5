"""Helpers of the LSP tests: a small design, opening documents, waiting for diagnostics,
and cursor markers: `┆` marks the cursor, `~~~text~~~` marks an expected range."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

CURSOR = "┆"
RANGE = "~~~"

MANIFEST = """\
output:
  types: ./internal/types
openapi:
  title: Test API
  basePath: /api
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
"""

SHARED = """\
package shared

// Audit holds creation facts.
type Audit {
	createdAt datetime
}

// Page is one page of results.
type Page<T> {
	items T[]
	total int
}
"""

USERS = """\
package users

// User is a person with an account.
type User {
	id     string @format(uuid)
	email  string @format(email)
	status Status
	shared.Audit
}

enum Status {
	Active
	Disabled
}

type GetUserReq {
	id string @path
}

error NotFound UserNotFound

middleware Auth

@prefix("/users")
service Users {
	@middlewares(Auth)
	@errors(UserNotFound)
	get GetUser /{id} {
		request  GetUserReq
		response User
	}
}
"""

# USERS with a second method: an edit that adds one to every generated client
USERS_WITH_DROP = USERS.replace(
    "\t\tresponse User\n\t}\n",
    "\t\tresponse User\n\t}\n\n\tdelete DropUser /{id} {\n\t\trequest GetUserReq\n\t}\n",
)

# A proto beside the .kit files of the editor tests (`output.pb: "-"`: it carries its go_package).
STOCK_PROTO = """\
syntax = "proto3";

package stock.v1;

option go_package = "example.com/shop/internal/pb/stock/v1;stockv1";

service Stock {
  rpc Get(Req) returns (Level);
}

message Req { string sku = 1; }
message Level { int64 count = 1; }
"""

DESIGN: dict[str, str] = {
    "go.mod": "module example.com/app\n\ngo 1.26\n",
    "design/kit.design.yaml": MANIFEST,
    "design/shared/shared.kit": SHARED,
    "design/users/users.kit": USERS,
}


def write_design(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root.resolve()


def dedent(src: str) -> str:
    return textwrap.dedent(src).lstrip("\n")


def _published(client: LanguageClient) -> dict[str, int | None]:
    """uri -> version of the last publishDiagnostics received by this client."""
    return client.__dict__.setdefault("kit_published", {})  # type: ignore[no-any-return]


def _versions(client: LanguageClient) -> dict[str, int]:
    """uri -> version of each document this client has open."""
    return client.__dict__.setdefault("kit_versions", {})  # type: ignore[no-any-return]


def publishes(client: LanguageClient) -> dict[str, list[tuple[int | None, list[lsp.Diagnostic]]]]:
    """uri -> every publishDiagnostics received by this client, in order: (version, list). A
    test that asks what was published in between reads it here (polling the last list can
    miss one that was replaced before the poll ran)."""
    return client.__dict__.setdefault("kit_publishes", {})  # type: ignore[no-any-return]


def published_now(client: LanguageClient, uri: str) -> list[list[lsp.Diagnostic]]:
    """Every list published for the document's current version, in order."""
    version = _versions(client).get(uri)
    return [diags for v, diags in publishes(client).get(uri, []) if v == version]


def _publish(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    _published(client)[params.uri] = params.version
    publishes(client).setdefault(params.uri, []).append((params.version, list(params.diagnostics)))


def _register(client: LanguageClient, params: lsp.RegistrationParams) -> None:
    return None


def refreshes(client: LanguageClient) -> dict[str, int]:
    """How many `workspace/<x>/refresh` requests the server sent, by method."""
    return client.__dict__.setdefault("kit_refreshes", {})  # type: ignore[no-any-return]


def _refresh(method: str):  # type: ignore[no-untyped-def]
    def handler(client: LanguageClient, params: None) -> None:
        refreshes(client)[method] = refreshes(client).get(method, 0) + 1

    return handler


def make_client() -> LanguageClient:
    """pytest-lsp's test client, also recording the version of published diagnostics and
    accepting `client/registerCapability` and the inlay-hint and code-lens refreshes (it has
    no handler for them)."""
    client = LanguageClient(converter_factory=default_converter)
    features = {
        **DEFAULT_CLIENT_FEATURES,
        lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
        lsp.CLIENT_REGISTER_CAPABILITY: _register,
        lsp.WORKSPACE_INLAY_HINT_REFRESH: _refresh(lsp.WORKSPACE_INLAY_HINT_REFRESH),
        lsp.WORKSPACE_CODE_LENS_REFRESH: _refresh(lsp.WORKSPACE_CODE_LENS_REFRESH),
    }
    register_lsp_features(client, features)
    return client


# --------------------------------------------------------------------------- markers


def extract(src: str) -> tuple[str, lsp.Position | None, list[lsp.Range]]:
    """Remove markers: (text, cursor position or None, marked ranges in order)."""
    text, cursor, ranges = "", None, []
    line = col = 0
    open_at: lsp.Position | None = None
    i = 0
    while i < len(src):
        if src.startswith(CURSOR, i):
            cursor = lsp.Position(line, col)
            i += len(CURSOR)
            continue
        if src.startswith(RANGE, i):
            if open_at is None:
                open_at = lsp.Position(line, col)
            else:
                ranges.append(lsp.Range(open_at, lsp.Position(line, col)))
                open_at = None
            i += len(RANGE)
            continue
        ch = src[i]
        text += ch
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 2 if ord(ch) > 0xFFFF else 1
        i += 1
    return text, cursor, ranges


def range_from_str(s: str) -> lsp.Range:
    """`"3:4-3:9"` (0-based line:character) as a Range."""
    start, end = s.split("-")
    sl, sc = (int(x) for x in start.split(":"))
    el, ec = (int(x) for x in end.split(":"))
    return lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec))


# --------------------------------------------------------------------------- documents


def open_doc(client: LanguageClient, path: Path, text: str | None = None) -> str:
    """Open a document (or, when it is open already, replace its text)."""
    uri = path.as_uri()
    body = path.read_text() if text is None else text
    if uri in _versions(client):
        replace_all(client, uri, body)
        return uri
    _versions(client)[uri] = 1
    lang = "yaml" if path.suffix == ".yaml" else "kit"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, lang, 1, body)))
    return uri


def change_doc(client: LanguageClient, uri: str, changes: Sequence[lsp.TextDocumentContentChangeEvent]) -> int:
    versions = _versions(client)
    versions[uri] = versions.get(uri, 1) + 1
    doc = lsp.VersionedTextDocumentIdentifier(uri=uri, version=versions[uri])
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(doc, list(changes)))
    return versions[uri]


def replace_all(client: LanguageClient, uri: str, text: str) -> int:
    return change_doc(client, uri, [lsp.TextDocumentContentChangeWholeDocument(text=text)])


def close_doc(client: LanguageClient, uri: str) -> None:
    _versions(client).pop(uri, None)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def wait_for_diagnostics(
    client: LanguageClient,
    uri: str,
    check: Callable[[Sequence[lsp.Diagnostic]], bool] = lambda _: True,
    timeout: float = 15.0,
) -> Sequence[lsp.Diagnostic]:
    """Wait until diagnostics for the document's current version satisfy ``check``."""
    version = _versions(client).get(uri)

    async def poll() -> Sequence[lsp.Diagnostic]:
        while True:
            fresh = version is None or _published(client).get(uri) == version
            if fresh and uri in client.diagnostics and check(client.diagnostics[uri]):
                return client.diagnostics[uri]
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(poll(), timeout)


def codes(diags: Sequence[lsp.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diags)


def at(uri: str, pos: lsp.Position) -> lsp.TextDocumentPositionParams:
    return lsp.TextDocumentPositionParams(lsp.TextDocumentIdentifier(uri), pos)


def apply_edits(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """``text`` with the edits applied (positions in UTF-16 units on `\n`-split lines: the
    texts of these tests are ASCII, or CRLF lines that keep their `\r`)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def at(p: lsp.Position) -> int:
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: at(e.range.start), reverse=True):
        text = text[: at(e.range.start)] + e.new_text + text[at(e.range.end) :]
    return text


async def next_log(client: LanguageClient, start: int, needle: str, timeout: float = 30) -> str:
    """The first `window/logMessage` after the ``start``-th one that contains ``needle``."""

    async def poll() -> str:
        while True:
            for m in client.log_messages[start:]:
                if needle in m.message:
                    return m.message
            await asyncio.sleep(0.02)

    return await asyncio.wait_for(poll(), timeout)


QUIET = {"generateOnSave": False, "diagnosticsDelayMs": 0}  # nothing generated on save, no debounce


def project_client(
    profile: str = "visual-studio-code", options: dict[str, Any] = QUIET, configuration: dict[str, Any] | None = None
) -> Any:
    """The `client` fixture of a test module with its own `project` fixture (a folder): one
    kit-lsp for the module under the client ``profile``, initialized with ``options``;
    ``configuration``: the client's `kit` settings, when the test reads them back."""

    @pytest_lsp.fixture(
        scope="module",
        config=ClientServerConfig(server_command=[sys.executable, "-m", "kit_lsp"], client_factory=make_client),
    )
    async def client(lsp_client: LanguageClient, project: Path):  # type: ignore[no-untyped-def]
        if configuration is not None:
            lsp_client.set_configuration(configuration, section="kit")
        params = lsp.InitializeParams(
            capabilities=client_capabilities(profile), root_uri=project.as_uri(), initialization_options=options
        )
        await lsp_client.initialize_session(params)
        yield
        await lsp_client.shutdown_session()

    return client
