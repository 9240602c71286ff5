"""kit-lsp survives a bad client: framing it cannot trust, JSON that is not JSON, messages
that do not fit their type, requests too early or too late - and answers every request.

The framing reader is tested on byte streams; the rest against the real server process
over its stdio with a raw client that can send anything."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from raw_client import RawClient

from kit_lsp import wire


def _frame(obj: Any) -> bytes:
    return wire.encode(obj) if isinstance(obj, dict) else obj


def _read_all(data: bytes, max_body: int = wire.MAX_BODY) -> list[Any]:
    reader = wire.FrameReader(io.BufferedReader(io.BytesIO(data)), max_body)  # type: ignore[arg-type]
    out: list[Any] = []
    while (item := reader.read()) is not None:
        out.append(wire.decode(item) if isinstance(item, bytes) else item)
    return out


PING = {"jsonrpc": "2.0", "id": 7, "method": "ping", "params": None}


@pytest.mark.parametrize(
    ("junk", "problem"),
    [
        (b"Content-Length: 1000000000000\r\n\r\n{}", "refused"),
        (b"Content-Length: abc\r\n\r\n{}", "without Content-Length"),
        (b"garbage that is no header\r\n", "malformed header"),
        (b"\r\n", "without Content-Length"),
        (b"Content-Type: x\r\n\r\n{}", "without Content-Length"),
        (b'Content-Length: 50\r\n\r\n{"a":', "malformed JSON"),  # truncated: runs into the next one
        (b"Content-Length: 9\r\n\r\nnot json!", "malformed JSON"),
        (b"Content-Length: 2\r\n\r\n[]", "batch"),
        (b'Content-Length: 24\r\n\r\n{"jsonrpc":"1.0","id":1}', "2.0"),
        (b'Content-Length: 20\r\n\r\n{"jsonrpc":"2.0","id":1}', "malformed"),  # longer than announced
    ],
)
def test_the_reader_resynchronises_after_any_bad_frame(junk: bytes, problem: str) -> None:
    items = _read_all(junk + _frame(PING))
    assert items[-1] == PING, items
    assert any(isinstance(i, wire.Problem) and problem in i.description for i in items[:-1]), items


def test_an_oversized_body_is_never_read_into_memory() -> None:
    body = b"x" * 5000
    data = b"Content-Length: %d\r\n\r\n%s" % (len(body), body) + _frame(PING)
    stream = io.BufferedReader(io.BytesIO(data), buffer_size=256)
    reader = wire.FrameReader(stream, max_body=1000)  # type: ignore[arg-type]
    first = reader.read()
    assert isinstance(first, wire.Problem) and first.reply is not None
    assert first.reply["error"]["code"] == wire.INVALID_REQUEST
    assert len(reader._pending) < 1000  # only the resynchronisation window was kept
    assert wire.decode(reader.read()) == PING  # type: ignore[arg-type]


def test_decoding_answers_what_json_rpc_requires() -> None:
    parse = wire.decode(b"{oops")
    assert isinstance(parse, wire.Problem) and parse.reply is not None
    assert (parse.reply["id"], parse.reply["error"]["code"]) == (None, -32700)
    for body, msg_id in [(b'{"jsonrpc":"2.0","id":3}', 3), (b'{"jsonrpc":"2.0","id":{},"method":"x"}', None)]:
        bad = wire.decode(body)
        assert isinstance(bad, wire.Problem) and bad.reply is not None
        assert (bad.reply["id"], bad.reply["error"]["code"]) == (msg_id, -32600)


# --------------------------------------------------------------------------- the real server


@pytest.fixture
def raw(tmp_path: Path) -> Iterator[RawClient]:
    """A fresh server, not initialized."""
    client = RawClient()
    yield client
    client.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawClient]:
    """One initialized server for the tests that leave it as they found it."""
    client = RawClient()
    client.initialize(tmp_path_factory.mktemp("wire"))
    yield client
    client.close()


def test_requests_before_initialize_get_32002(raw: RawClient, tmp_path: Path) -> None:
    position = {"line": 0, "character": 0}
    hover = raw.request("textDocument/hover", {"textDocument": {"uri": "file:///x.kit"}, "position": position})
    assert raw.answer(hover)["error"]["code"] == -32002
    raw.initialize(tmp_path)
    again = raw.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert raw.answer(again)["error"]["code"] == -32600
    symbols = raw.request("workspace/symbol", {"query": "x"})
    assert "result" in raw.answer(symbols)


def test_exit_before_initialize_ends_with_status_1(tmp_path: Path) -> None:
    client = RawClient()
    client.notify("exit", None)
    assert client.proc.wait(30) == 1


@pytest.mark.parametrize(
    "junk",
    [
        b"Content-Length: 1000000000000\r\n\r\n{}",
        b"Content-Length: oops\r\n\r\n",
        b"this is not a header at all\r\n\r\n",
        b"Content-Length: 12\r\n\r\n{not json!!}",
        b"Content-Length: 2\r\n\r\n[]",
    ],
)
def test_the_server_survives_bad_framing_and_answers_the_next_request(server: RawClient, junk: bytes) -> None:
    server.write(junk)
    symbols = server.request("workspace/symbol", {"query": "x"})
    assert "result" in server.answer(symbols)
    assert server.proc.poll() is None


def test_malformed_json_gets_32700(server: RawClient) -> None:
    server.write(b"Content-Length: 13\r\n\r\n{not json!!!}")
    _, reply = server.wait(lambda m: m.get("error", {}).get("code") == -32700, 30)
    assert reply["id"] is None and reply["error"]["code"] == -32700


def test_invalid_params_get_32602_with_the_request_id(server: RawClient) -> None:
    bad = server.request("textDocument/hover", {"textDocument": 42})
    reply = server.answer(bad)
    assert reply["error"]["code"] == -32602 and "textDocument/hover" in reply["error"]["message"]
    missing = server.request("textDocument/definition", None)
    assert server.answer(missing)["error"]["code"] == -32602
    server.notify("textDocument/didChange", {"nonsense": True})  # a bad notification: dropped, nothing breaks
    assert "result" in server.answer(server.request("workspace/symbol", {"query": ""}))


def test_unknown_methods_and_requests_after_shutdown(raw: RawClient, tmp_path: Path) -> None:
    raw.initialize(tmp_path)
    assert raw.answer(raw.request("kit/nothing", {}))["error"]["code"] == -32601
    assert raw.answer(raw.request("shutdown", None))["result"] is None
    assert raw.answer(raw.request("workspace/symbol", {"query": ""}))["error"]["code"] == -32600


def test_the_handshake_does_not_import_the_server() -> None:
    """`initialize` is answered by code that loads neither pygls nor the analyzer."""
    import subprocess

    code = (
        "import sys, kit_lsp.server, kit_lsp.startup.boot;"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs', 'tree_sitter')"
        " or m.startswith(('kit_core.analyzer', 'kit_core.lower', 'kit_lsp.app')));"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


PROFILES = ["visual-studio-code", "neovim", None, "utf-8 first", "no prepare"]


def _client_capabilities(profile: str | None) -> dict[str, Any]:
    from pygls.protocol import default_converter
    from pytest_lsp import client_capabilities

    if profile is None:
        return {}
    if profile == "utf-8 first":
        return {"general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}}
    if profile == "no prepare":
        return {"textDocument": {"rename": {}, "synchronization": {"willSave": True}}}
    caps = default_converter().unstructure(client_capabilities(profile))
    assert isinstance(caps, dict)
    return caps


def test_the_process_answers_initialize_with_the_early_answer(raw: RawClient, tmp_path: Path) -> None:
    from kit_lsp.startup.capabilities import initialize_result

    params = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": _client_capabilities("neovim")}
    assert raw.answer(raw.request("initialize", params))["result"] == json.loads(json.dumps(initialize_result(params)))


@pytest.mark.parametrize("profile", PROFILES)
def test_the_early_initialize_answer_is_what_pygls_computes(tmp_path: Path, profile: str | None) -> None:
    """The answer the start-up code sends equals the one pygls builds from the registered features."""
    from lsprotocol import types as lsp
    from pygls.protocol import default_converter

    from kit_lsp.app import create_server
    from kit_lsp.startup.capabilities import initialize_result

    caps = _client_capabilities(profile)
    params = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": caps}
    sent = json.loads(json.dumps(initialize_result(params)))
    server = create_server()
    converter = default_converter()
    structured = converter.structure(params, lsp.InitializeParams)
    generator = server.protocol.lsp_initialize(structured)
    handler, args, _ = next(generator)
    handler(*args)
    with pytest.raises(StopIteration) as done:
        generator.send(None)
    assert sent == converter.unstructure(done.value.value)


def test_every_registered_feature_is_declared() -> None:
    """What pygls registers (methods, their options, commands) is exactly what the features
    declare for the boot's answer."""
    from kit_lsp.app import create_server
    from kit_lsp.startup.capabilities import declared_methods, undeclared

    fm = create_server().protocol.fm
    assert undeclared(fm.features, fm.feature_options, fm.commands) == []
    assert len(declared_methods()) >= 25


def test_a_feature_registered_without_its_declaration_is_found() -> None:
    from lsprotocol import types as lsp

    from kit_lsp.app import create_server
    from kit_lsp.features.declared.hover import DECLARED
    from kit_lsp.startup.capabilities import undeclared

    server = create_server()
    server.feature(lsp.TEXT_DOCUMENT_DECLARATION)(lambda ls, params: None)  # bypasses any declaration
    server.command("kit.other")(lambda ls, args: None)
    fm = server.protocol.fm
    assert undeclared(fm.features, fm.feature_options, fm.commands) == [
        "textDocument/declaration is registered but not declared",
        "command kit.other is registered but not declared",
    ]
    with pytest.raises(KeyError, match="textDocument/typeDefinition is not declared"):
        DECLARED.feature(server, lsp.TEXT_DOCUMENT_TYPE_DEFINITION)


def test_a_registration_with_other_options_than_declared_is_found() -> None:
    from lsprotocol import types as lsp
    from pygls.protocol import default_converter

    from kit_lsp.features.declared import Declares, Method
    from kit_lsp.startup.capabilities import undeclared

    registered = {lsp.TEXT_DOCUMENT_CODE_ACTION: object()}
    options = {lsp.TEXT_DOCUMENT_CODE_ACTION: lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.Refactor])}
    problems = undeclared(registered, options, {})
    assert "textDocument/codeAction is registered with other options than declared" in problems
    declared = {"codeActionKinds": ["quickfix"]}
    method = Method(lsp.TEXT_DOCUMENT_CODE_ACTION, "codeActionProvider", declared, "CodeActionOptions")
    registered_options = Declares(method).methods[lsp.TEXT_DOCUMENT_CODE_ACTION].registration()
    assert isinstance(registered_options, lsp.CodeActionOptions)
    assert default_converter().unstructure(registered_options) == declared == method.advertised()


def test_the_declarations_load_without_the_server() -> None:
    """The boot reads every feature's declaration with the standard library only."""
    import subprocess

    code = (
        "import sys, kit_lsp.startup.boot; from kit_lsp.startup.capabilities import declarations, initialize_result;"
        "n = len(declarations()); initialize_result({'capabilities': {}});"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs', 'tree_sitter',"
        " 'dataclasses') or m.startswith(('kit_core.analyzer', 'kit_core.diagnostics', 'kit_lsp.app',"
        " 'kit_lsp.features.hover')));"
        "print(n, heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    from kit_lsp.features import NAMES

    assert out.stdout.strip() == f"{len(NAMES)} []"


def test_kit_lsp_reads_no_private_pygls_state() -> None:
    """pygls's converter, server and shutdown flag are not read through private attributes
    (they changed between pygls releases); `KitProtocol` keeps its own references."""
    import re

    private = re.compile(
        r"\b(?:protocol|kit_protocol|server|ls)\._[a-z]|\._(?:converter|shutdown|send_data)\b|self\._server\.thread_pool"
    )
    root = Path(__file__).resolve().parents[2] / "kit_lsp"
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []
