"""Signature help for decorator arguments: the parameter list of the decorator whose
argument list holds the cursor (from the registry), with the active parameter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.decorators import lookup
from kit_lsp.context import decorator_call
from kit_lsp.features.declared.signature_help import DECLARED

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def signature(line_prefix: str) -> lsp.SignatureHelp | None:
    call = decorator_call(line_prefix)
    spec = lookup(call.name) if call is not None else None
    if call is None or spec is None or not spec.params:
        return None
    params = [lsp.ParameterInformation(label=p.label, documentation=p.doc) for p in spec.params]
    active = min(call.index, len(spec.params) - 1) if spec.variadic else call.index
    if active >= len(spec.params):
        active = len(spec.params) - 1
    sig = lsp.SignatureInformation(
        label=spec.signature,
        documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=spec.doc),
        parameters=params,
        active_parameter=active,
    )
    return lsp.SignatureHelp(signatures=[sig], active_signature=0, active_parameter=active)


def register(server: KitLanguageServer) -> None:

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_SIGNATURE_HELP)
    def signature_help(ls: KitLanguageServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return None
        with doc.lock:
            offset = doc.offset(params.position, ls.state.encoding)
            start = doc.source.rfind(b"\n", 0, offset) + 1
            prefix = doc.source[start:offset].decode("utf-8", "replace")
        return signature(prefix)
