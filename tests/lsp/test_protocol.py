"""`kit_lsp.protocol`: kit dispatches messages itself, through pygls's public API only.

The scan derives pygls's private names from the installed pygls (every class's `_name`
methods, class attributes and `self._name` attributes), so a pygls upgrade that adds or
renames one is covered without a list to keep. The dispatch tests run the real server in
process on a real event loop, with a writer that collects what it sends.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import json
import pkgutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygls
import pytest

from kit_lsp import wire

KIT_LSP = Path(__file__).resolve().parents[2] / "kit_lsp"
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _pygls_modules() -> Iterator[tuple[str, ast.Module]]:
    for info in pkgutil.walk_packages(pygls.__path__, "pygls."):
        spec = importlib.util.find_spec(info.name)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            yield info.name, ast.parse(Path(spec.origin).read_text(encoding="utf-8"))


def pygls_private_names() -> tuple[set[str], set[str]]:
    """(names private to pygls's classes, private module-level names of pygls's modules)."""
    members: set[str] = set()
    module_level: set[str] = set()
    for _, tree in _pygls_modules():
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _private(node.name):
                module_level.add(node.name)
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(node.name):
                    members.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr):
                    members.add(node.attr)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    if _private(node.target.id):
                        members.add(node.target.id)
            for node in cls.body:
                if isinstance(node, ast.Assign):
                    members.update(t.id for t in node.targets if isinstance(t, ast.Name) and _private(t.id))
    return members, module_level


def _pygls_bases(tree: ast.Module) -> set[str]:
    """Names this module binds to pygls (``from pygls... import X``, ``import pygls``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pygls":
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.asname or a.name for a in node.names if a.name.split(".")[0] == "pygls")
    return names


def _base_name(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def private_uses(source: str, members: set[str], module_level: set[str]) -> list[str]:
    """Where ``source`` uses or overrides a private name of pygls's.

    A name counts as kit's own, not pygls's, when it is ``self.<name>`` inside a class that
    does not derive from a pygls class (within this module) and that class sets or defines
    it itself (`Regenerator._server` is its own reference to the server, not pygls's)."""
    tree = ast.parse(source)
    from_pygls = _pygls_bases(tree)
    derived: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):  # outer classes come first
        if any(_base_name(b) in from_pygls or _base_name(b) in derived for b in cls.bases):
            derived.add(cls.name)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pygls":
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if _private(a.name)]
    owned: set[int] = set()  # the `self.<name>` nodes that are a class's own attribute
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        inside = list(ast.walk(cls))
        if cls.name in derived:
            for node in inside:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in members:
                    found.append(f"{node.lineno}: {cls.name} overrides {node.name}")
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in members:
                    found.append(f"{node.lineno}: {cls.name} sets {node.attr}")
            continue
        own = {n.name for n in inside if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        own |= {n.attr for n in inside if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)}
        for node in inside:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                if node.attr in own:
                    owned.add(id(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in members and id(node) not in owned:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ACCESSORS:
            names = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            found += [f"{node.lineno}: {node.func.id}(..., {n!r})" for n in names if n in members | module_level]
    return found


def test_kit_lsp_uses_and_overrides_no_private_name_of_pygls() -> None:
    members, module_level = pygls_private_names()
    # the derivation finds what pygls keeps private (these are the hooks kit used to override)
    assert {"_execute_handler", "_send_response", "_request_futures", "_converter"} <= members
    found = [
        f"{path.relative_to(KIT_LSP)}:{where}"
        for path in sorted(KIT_LSP.rglob("*.py"))
        for where in private_uses(path.read_text(encoding="utf-8"), members, module_level)
    ]
    assert found == []


def test_the_scan_finds_overrides_private_reads_and_private_imports() -> None:
    members, module_level = pygls_private_names()
    source = """
from pygls.protocol import LanguageServerProtocol, _dict_to_object

class P(LanguageServerProtocol):
    def _send_response(self, msg_id, result=None, error=None):
        self._request_futures.pop(msg_id, None)

class Q(P):
    def handle(self):
        self._converter = None

class Mine:
    def __init__(self, server):
        self._server = server  # kit's own reference: allowed

    def run(self):
        self._server.protocol._request_futures.clear()
        getattr(self._server, "_thread_pool")
"""
    found = sorted(private_uses(source, members, module_level), key=lambda f: (int(f.split(":")[0]), f))
    assert found == [
        "2: imports _dict_to_object",
        "5: P overrides _send_response",
        "6: ._request_futures",
        "10: ._converter",
        "10: Q sets _converter",
        "17: ._request_futures",
        "18: getattr(..., '_thread_pool')",
    ]


# ---------------------------------------------------------------------- dispatch, in process


class Collected:
    """The server's writer: keeps every framed message it is given, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def write(self, data: bytes) -> None:  # one framed message a write (kit's and pygls's)
        message = json.loads(data.split(b"\r\n\r\n", 1)[1])
        with self.lock:
            self.messages.append(message)

    def close(self) -> None:
        pass

    def answers(self, msg_id: Any) -> list[dict[str, Any]]:
        with self.lock:
            return [m for m in self.messages if m.get("id") == msg_id and "method" not in m]


def _server(tmp_path: Path) -> tuple[Any, Collected]:
    from kit_lsp.app import create_server

    server = create_server()
    out = Collected()
    server.kit_protocol.set_writer(out)
    return server, out


def _initialize(protocol: Any, root: Path) -> None:
    params = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    protocol.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})


async def _until(check: Any, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def test_every_handler_is_forgotten_when_done(tmp_path: Path) -> None:
    """Notifications that finish inline leave nothing behind; one that waits (a coroutine)
    is kept while it runs and forgotten after (pygls kept each one: 2 KB a keystroke)."""
    server, out = _server(tmp_path)
    protocol = server.kit_protocol
    release = asyncio.Event()
    seen: list[str] = []

    @server.feature("kit/slowNote")
    async def slow(ls: Any, params: Any) -> None:
        await release.wait()
        seen.append("slow")

    async def run() -> None:
        _initialize(protocol, tmp_path)
        await _until(lambda: out.answers(0))
        uri = (tmp_path / "a.kit").as_uri()
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": "package a\n"}
        protocol.receive({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}})
        for version in range(2, 202):
            change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": "package a\n"}]}
            protocol.receive({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change})
        assert protocol.running == 0
        protocol.receive({"jsonrpc": "2.0", "method": "kit/slowNote", "params": {}})
        assert protocol.running == 1
        release.set()
        await _until(lambda: seen == ["slow"])
        await _until(lambda: protocol.running == 0)

    asyncio.run(run())


def test_a_cancelled_threaded_request_is_answered_once_and_sees_it(tmp_path: Path) -> None:
    """-32800 at once; the handler, already running in the thread pool, sees `cancelled()`
    and its late result is dropped; a shutdown afterwards finds nothing running."""
    server, out = _server(tmp_path)
    protocol = server.kit_protocol
    started, noticed = threading.Event(), threading.Event()

    @server.feature("kit/slowRequest")
    @server.thread()
    def slow(ls: Any, params: Any) -> str:
        started.set()
        while not ls.kit_protocol.cancelled():
            time.sleep(0.005)
        noticed.set()
        return "late"

    async def run() -> None:
        _initialize(protocol, tmp_path)
        protocol.receive({"jsonrpc": "2.0", "id": 7, "method": "kit/slowRequest", "params": {}})
        await _until(started.is_set)
        protocol.receive({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}})
        assert out.answers(7) == [
            {"jsonrpc": "2.0", "id": 7, "error": {"code": wire.REQUEST_CANCELLED, "message": "request 7 was cancelled"}}
        ]
        await _until(noticed.is_set)
        await _until(lambda: protocol.running == 0)
        protocol.receive({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}})  # too late: ignored
        await asyncio.sleep(0.05)
        assert len(out.answers(7)) == 1

    asyncio.run(run())


def test_shutdown_cancels_what_is_still_running(tmp_path: Path) -> None:
    """A coroutine request still waiting is cancelled by `shutdown` and answered -32800;
    `shutdown` itself is answered; requests after it get -32600."""
    server, out = _server(tmp_path)
    protocol = server.kit_protocol
    forever = asyncio.Event()

    @server.feature("kit/waits")
    async def waits(ls: Any, params: Any) -> str:
        await forever.wait()
        return "never"

    async def run() -> None:
        _initialize(protocol, tmp_path)
        protocol.receive({"jsonrpc": "2.0", "id": 1, "method": "kit/waits", "params": {}})
        await asyncio.sleep(0.05)
        assert protocol.running == 1
        protocol.receive({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        await _until(lambda: out.answers(1) and out.answers(2))
        assert out.answers(1)[0]["error"]["code"] == wire.REQUEST_CANCELLED
        assert out.answers(2) == [{"jsonrpc": "2.0", "id": 2, "result": None}]
        assert protocol.running == 0 and protocol.shutdown_received
        protocol.receive({"jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": {"query": ""}})
        assert out.answers(3)[0]["error"]["code"] == wire.INVALID_REQUEST

    asyncio.run(run())


@pytest.mark.parametrize("kind", ["plain", "coroutine", "thread", "no JSON"])
def test_a_failing_handler_is_answered_32603(tmp_path: Path, kind: str) -> None:
    """Whatever goes wrong in a handler, or in encoding its result, the request is answered."""
    server, out = _server(tmp_path)
    protocol = server.kit_protocol

    def fail(ls: Any, params: Any) -> None:
        raise ValueError("broken handler")

    async def fail_later(ls: Any, params: Any) -> None:
        fail(ls, params)

    def no_json(ls: Any, params: Any) -> Any:
        return {"broken handler": {1, 2}}  # a set: no JSON for it

    handlers = {"plain": fail, "coroutine": fail_later, "thread": server.thread()(fail), "no JSON": no_json}
    handler: Any = handlers[kind]
    server.feature("kit/fails")(handler)

    async def run() -> None:
        _initialize(protocol, tmp_path)
        protocol.receive({"jsonrpc": "2.0", "id": 9, "method": "kit/fails", "params": {}})
        await _until(lambda: out.answers(9))
        (answer,) = out.answers(9)
        assert answer["error"]["code"] == wire.INTERNAL_ERROR
        assert "broken handler" in answer["error"]["message"] or kind == "no JSON", answer
        assert protocol.running == 0

    asyncio.run(run())
