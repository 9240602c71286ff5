"""The `initialize` answer, computed without pygls (standard library only).

`kit_lsp.startup.boot` sends it before the server is imported, so the handshake does not wait for
the imports. It must be exactly what pygls computes from the registered features
(`pygls.capabilities.ServerCapabilitiesBuilder`): the server checks each start
(`KitProtocol._check_boot_answer` logs a difference) and `tests/lsp/test_wire.py`
compares both for several client profiles. A new feature means a new entry here.
"""

from __future__ import annotations

from typing import Any

from kit_core import __version__

COMPLETION_TRIGGERS = ["@", " ", ",", ".", "/", "{", '"', "(", "<"]
SEMANTIC_TOKEN_TYPES = [
    "namespace",
    "type",
    "typeParameter",
    "parameter",
    "property",
    "enumMember",
    "function",
    "method",
    "keyword",
    "comment",
    "string",
    "number",
    "operator",
    "decorator",
    "enum",
]
SEMANTIC_TOKEN_MODIFIERS = ["declaration", "defaultLibrary"]
CODE_ACTION_KINDS = ["quickfix"]
COMMANDS = ["kit.open"]  # kit_lsp.features.code_lens: show a file at a line
ENCODINGS = ("utf-8", "utf-16", "utf-32")


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


def _text_document_sync(client: Any) -> dict[str, Any]:
    sync: dict[str, Any] = {"openClose": True, "change": 2, "save": {"includeText": False}}
    for key in ("willSave", "willSaveWaitUntil"):
        value = _get(client, "textDocument", "synchronization", key)
        if value is not None:
            sync[key] = False if value else value  # the client supports it, kit does not use it
    return sync


def server_capabilities(client: Any) -> dict[str, Any]:
    prepare = bool(_get(client, "textDocument", "rename", "prepareSupport"))
    return {
        "positionEncoding": position_encoding(client),
        "textDocumentSync": _text_document_sync(client),
        "completionProvider": {"triggerCharacters": COMPLETION_TRIGGERS, "resolveProvider": True},
        "hoverProvider": True,
        "signatureHelpProvider": {"triggerCharacters": ["(", ","], "retriggerCharacters": [","]},
        "definitionProvider": True,
        "referencesProvider": True,
        "documentHighlightProvider": True,
        "documentSymbolProvider": True,
        "codeActionProvider": {"codeActionKinds": CODE_ACTION_KINDS},
        "documentFormattingProvider": True,
        "renameProvider": {"prepareProvider": True} if prepare else True,
        "foldingRangeProvider": True,
        "executeCommandProvider": {"commands": COMMANDS},
        "inlayHintProvider": {"resolveProvider": False},
        "codeLensProvider": {"resolveProvider": False},
        "semanticTokensProvider": {
            "legend": {"tokenTypes": SEMANTIC_TOKEN_TYPES, "tokenModifiers": SEMANTIC_TOKEN_MODIFIERS},
            "full": True,
        },
        "workspaceSymbolProvider": {"resolveProvider": False},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
    }


def initialize_result(params: Any) -> dict[str, Any]:
    client = params.get("capabilities") if isinstance(params, dict) else None
    return {
        "capabilities": server_capabilities(client if isinstance(client, dict) else {}),
        "serverInfo": {"name": "kit-lsp", "version": __version__},
    }
