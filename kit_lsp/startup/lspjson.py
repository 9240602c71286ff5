"""kit diagnostics as LSP JSON, standard library only (plus `kit_core`'s values).

The one converter of kit diagnostics for the client: the first-look process
(`kit_lsp.startup.firstlook_worker`) publishes its output without importing lsprotocol (a
third of a second), the server publishes it (`kit_lsp.features.diagnostics`, through
`KitProtocol.notify_json`) and caches it (`kit_lsp.startup.cache`), so a list the start-up
published and the server's list for the same file compare as they are. `column` is the
one place that picks a client column from a span's byte and UTF-16 columns.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core.printable import printable

if TYPE_CHECKING:  # not at run time: `kit_lsp.startup.early` imports this before the handshake
    from kit_core.diagnostics import Diagnostic
    from kit_core.source import Span

TextOf = Callable[[str], "str | None"]
"""The current text of a file by path (open buffer or parsed source), for UTF-32 columns."""

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"  # lsprotocol's PositionEncodingKind values

# By `kit_core.diagnostics.Severity`'s values (a str enum: its members are these keys).
SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}


def uri_of(path: str) -> str:
    return _absolute_uri(path) if os.path.isabs(path) else Path(path).absolute().as_uri()


@lru_cache(maxsize=1 << 16)
def _absolute_uri(path: str) -> str:
    """Remembered: each analysis publishes by the URI of every file of the design (1,000 at
    10,000 types), and building a `Path` per file was an eighth of an edit's work there."""
    return Path(path).as_uri()


def column(line_text: str | None, byte_col: int, col16: int, encoding: str) -> int:
    if encoding == UTF8:
        return byte_col
    if encoding == UTF32 and line_text is not None:
        return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))
    return col16


def columns(span: Span, encoding: str, text_of: TextOf | None) -> tuple[int, int]:
    """The client columns of a span's start and end."""
    lines: Sequence[str] | None = None
    if encoding == UTF32 and text_of is not None:
        text = text_of(span.path)
        lines = text.split("\n") if text is not None else None

    def line(n: int) -> str | None:
        return lines[n] if lines is not None and n < len(lines) else None

    start = column(line(span.start_line), span.start_col, span.start_col16, encoding)
    return start, column(line(span.end_line), span.end_col, span.end_col16, encoding)


def range_json(span: Span, encoding: str, text_of: TextOf | None) -> dict[str, Any]:
    start, end = columns(span, encoding, text_of)
    return {
        "start": {"line": span.start_line, "character": start},
        "end": {"line": span.end_line, "character": end},
    }


def diagnostic_json(d: Diagnostic, encoding: str = UTF16, text_of: TextOf | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "range": range_json(d.span, encoding, text_of),
        "message": printable(d.message),
        "severity": SEVERITY[d.severity],
        "code": d.code,
        "source": "kit",
    }
    related = [
        {
            "location": {"uri": uri_of(r.span.path), "range": range_json(r.span, encoding, text_of)},
            "message": printable(r.message),
        }
        for r in d.related
        if r.span.path
    ]
    if related:
        out["relatedInformation"] = related
    return out


def publish_params(uri: str, version: int | None, diags: list[Any]) -> dict[str, Any]:
    """`textDocument/publishDiagnostics`'s params (no version: a file not open, or unknown)."""
    params: dict[str, Any] = {"uri": uri, "diagnostics": diags}
    if version is not None:
        params["version"] = version
    return params


def by_path(diags: Iterable[Diagnostic], encoding: str, text_of: TextOf | None = None) -> dict[str, list[Any]]:
    """Diagnostics as LSP JSON, grouped by the file they are in."""
    out: dict[str, list[dict[str, Any]]] = {}
    for d in diags:
        out.setdefault(d.span.path, []).append(diagnostic_json(d, encoding, text_of))
    return out
