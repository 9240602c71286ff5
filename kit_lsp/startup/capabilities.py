"""The `initialize` answer, computed from the features' declarations without pygls.

`kit_lsp.startup.boot` sends it before the server is imported, so the handshake does not
wait for the imports. Each feature declares the methods it handles and what they advertise
(`kit_lsp.features.declared.<name>`, plain data) and registers its handlers through the
same declaration, so the answer here and the one pygls builds from the registered features
(`pygls.capabilities.ServerCapabilitiesBuilder`) come from one source: the server checks
each start (`KitProtocol._check_boot_answer` logs a difference), `tests/lsp/test_wire.py`
compares both for several client profiles, and `undeclared` finds a registration that
bypassed its declaration. What depends on the client is computed here: the position
encoding, document sync (will-save), and rename (prepare support).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from kit_core import __version__
from kit_lsp import features
from kit_lsp.features.declared import Declares, Method
from kit_lsp.features.declared.sync import CHANGE

ENCODINGS = ("utf-8", "utf-16", "utf-32")
# pygls advertises these for every server: workspace folders (it keeps them itself) and the
# file operations of registered `workspace/*Files` methods (kit has none).
WORKSPACE = {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}}


@functools.cache
def declarations() -> tuple[Declares, ...]:
    """Every feature's declaration, in registration order (standard library only)."""
    return tuple(importlib.import_module(f"{features.__name__}.declared.{n}").DECLARED for n in features.NAMES)


def declared_methods() -> dict[str, Method]:
    return {name: m for d in declarations() for name, m in d.methods.items()}


def _get(node: Any, *path: str) -> Any:
    for name in path:
        if not isinstance(node, dict):
            return None
        node = node.get(name)
    return node


def position_encoding(client: Any) -> str:
    """The client's first preferred encoding we support; UTF-16 by default (as pygls)."""
    for encoding in _get(client, "general", "positionEncodings") or ():
        if encoding in ENCODINGS:
            return str(encoding)
    return "utf-16"


def text_document_sync(client: Any, methods: dict[str, Method]) -> dict[str, Any]:
    """pygls always handles open and close itself; save as declared; will-save is reported
    as unused when the client supports it (kit does not handle it)."""
    save = methods.get("textDocument/didSave")
    sync: dict[str, Any] = {"openClose": True, "change": CHANGE, "save": save.advertised() if save else False}
    for key, method in (("willSave", "textDocument/willSave"), ("willSaveWaitUntil", "textDocument/willSaveWaitUntil")):
        value = _get(client, "textDocument", "synchronization", key)
        if value is not None:
            sync[key] = bool(value) and method in methods
    return sync


def rename_provider(client: Any, methods: dict[str, Method]) -> Any:
    """RenameOptions only for a client that supports prepareRename (LSP); else a plain True."""
    if not _get(client, "textDocument", "rename", "prepareSupport"):
        return True
    return {"prepareProvider": "textDocument/prepareRename" in methods}


def server_capabilities(client: Any) -> dict[str, Any]:
    methods = declared_methods()
    caps: dict[str, Any] = {
        "positionEncoding": position_encoding(client),
        "textDocumentSync": text_document_sync(client, methods),
    }
    for method in methods.values():
        if method.provider is not None:
            caps[method.provider] = method.advertised()
    if "textDocument/rename" in methods:
        caps["renameProvider"] = rename_provider(client, methods)
    caps["executeCommandProvider"] = {"commands": [c for d in declarations() for c in d.commands]}
    caps["workspace"] = WORKSPACE
    return caps


def initialize_result(params: Any) -> dict[str, Any]:
    client = params.get("capabilities") if isinstance(params, dict) else None
    return {
        "capabilities": server_capabilities(client if isinstance(client, dict) else {}),
        "serverInfo": {"name": "kit-lsp", "version": __version__},
    }


def undeclared(registered: dict[str, Any], options: dict[str, Any], commands: dict[str, Any]) -> list[str]:
    """How a server's registrations (pygls's feature manager: ``fm.features``,
    ``fm.feature_options``, ``fm.commands``) differ from the declarations; empty when every
    feature registered exactly what it declares."""
    methods = declared_methods()
    problems = [f"{name} is registered but not declared" for name in sorted(registered.keys() - methods.keys())]
    problems += [f"{name} is declared but not registered" for name in sorted(methods.keys() - registered.keys())]
    for name in sorted(registered.keys() & methods.keys()):
        if options.get(name) != methods[name].registration():
            problems.append(f"{name} is registered with other options than declared")
    declared_commands = {c for d in declarations() for c in d.commands}
    problems += [f"command {c} is registered but not declared" for c in sorted(commands.keys() - declared_commands)]
    problems += [f"command {c} is declared but not registered" for c in sorted(declared_commands - commands.keys())]
    return problems
