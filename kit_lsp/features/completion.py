"""Completion: decorators for the site, decorator arguments (middlewares, errors, schemes,
formats, enum values, statuses, durations, sizes), error categories, type names (own
package, `pkg.Type`, primitives, generics), keywords, verbs and clauses.

It reads the text around the cursor and the latest analysis of the design; it never waits
for a fresh analysis (a keystroke later the symbols catch up).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_lsp.completions import Request, complete, resolve_documentation
from kit_lsp.context import word_before as _word
from kit_lsp.features.declared.completion import DECLARED
from kit_lsp.manifest_lang import manifest_completion

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

_PACKAGE = re.compile(rb"^\s*package\s+([A-Za-z_]\w*)", re.MULTILINE)


def register(server: KitLanguageServer) -> None:

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_COMPLETION)
    @server.thread()
    def completion(ls: KitLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        state = ls.state
        doc = state.docs.get(params.text_document.uri)
        if doc is not None and doc.kind == "manifest":
            return manifest_completion(doc, params.position, state.encoding)
        if doc is None or doc.kind != "kit":
            return None
        with doc.lock:
            source, offset = doc.source, doc.offset(params.position, state.encoding)
        key = state.key_for(doc)
        snap = state.latest(key) or state.analyze(key)
        line_start = source.rfind(b"\n", 0, offset) + 1
        package = _PACKAGE.search(source)
        req = Request(
            source=source,
            offset=offset,
            line_prefix=source[line_start:offset].decode("utf-8", "replace"),
            following=source[offset : offset + 4096].decode("utf-8", "replace"),
            package=package.group(1).decode() if package else None,
            symbols=snap.symbols,
            manifest=snap.manifest,
            root=snap.root,
        )
        items = complete(req)
        incomplete = any(i.kind == lsp.CompletionItemKind.Module for i in items)
        return lsp.CompletionList(is_incomplete=incomplete or bool(_word(req.line_prefix)), items=items)

    @DECLARED.feature(server, lsp.COMPLETION_ITEM_RESOLVE)
    @server.thread()
    def resolve(ls: KitLanguageServer, item: lsp.CompletionItem) -> lsp.CompletionItem:
        snaps = [s for s in (ls.state.latest(ls.state.key_for(d)) for d in ls.state.docs) if s is not None]
        for snap in snaps:
            resolve_documentation(item, snap.symbols, dict(snap.files))
            if item.documentation is not None:
                break
        if not snaps:
            resolve_documentation(item, None, {})
        return item
