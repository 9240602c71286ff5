"""Document symbols of a `.proto` file of a design: its messages (fields, nested messages
and enums), enums (values) and services (RPCs), from the last compile that succeeded."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from kit_core.proto.outline import Symbol
from kit_core.resident.session import Snapshot
from kit_lsp.convert import lsp_range

K = lsp.SymbolKind
_KINDS = {
    "message": K.Struct,
    "field": K.Field,
    "enum": K.Enum,
    "value": K.EnumMember,
    "service": K.Interface,
    "rpc": K.Method,
}


def _symbol(s: Symbol, enc: str) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(
        name=s.name,
        kind=_KINDS[s.kind],
        range=lsp_range(s.span, enc),
        selection_range=lsp_range(s.name_span, enc),
        detail=s.detail or None,
        children=[_symbol(c, enc) for c in s.children] or None,
    )


def proto_symbols(snap: Snapshot | None, path: str, enc: str) -> list[lsp.DocumentSymbol]:
    if snap is None or snap.root is None:
        return []
    try:
        name = Path(path).relative_to(snap.root).as_posix()
    except ValueError:
        return []
    return [_symbol(s, enc) for s in snap.proto_outlines.get(name, [])]
