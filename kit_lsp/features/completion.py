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

from kit_lsp.completions import Request, complete

if TYPE_CHECKING:
    from kit_lsp.server import KitLanguageServer

TRIGGERS = ["@", " ", ",", ".", "/", "{", '"', "(", "<"]
_PACKAGE = re.compile(rb"^\s*package\s+([A-Za-z_]\w*)", re.MULTILINE)


def register(server: KitLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=TRIGGERS))
    @server.thread()
    def completion(ls: KitLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        state = ls.state
        doc = state.docs.get(params.text_document.uri)
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
        return lsp.CompletionList(is_incomplete=False, items=complete(req))
