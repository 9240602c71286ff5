"""Stub drift: a gen-once logic stub whose method signature no longer matches what the
design generates (request or response type changed, streaming kind changed, the method
gone from the file). A renamed method is not drift: its new stub does not exist yet
(`carry.py` moves the code)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kit_core.diagnostics import Diagnostic, Fix, Related, make
from kit_core.generators.base import Notice
from kit_core.gosource import GoFunc, GoParam, GoSource
from kit_core.source import LineIndex, Span
from kit_core.stubs.edits import Edit, signature_edits
from kit_core.stubs.expected import HTTP, Expected, method_in

Read = Callable[[str], "bytes | None"]  # project-relative path -> the file's bytes, None when absent

_STREAMS = {
    "google.golang.org/grpc.ServerStreamingServer[": "server",
    "google.golang.org/grpc.ClientStreamingServer[": "client",
    "google.golang.org/grpc.BidiStreamingServer[": "bidi",
}
KIND_NAMES = {"unary": "unary", "server": "server streaming", "client": "client streaming", "bidi": "bidirectional"}


@dataclass(frozen=True, slots=True)
class Drift:
    expected: Expected
    found: GoFunc | None  # the user's method; None when the stub file has no such method
    wanted: GoFunc
    changes: tuple[str, ...]
    edits: tuple[Edit, ...]  # the quick fix: offsets in the stub file (none when the method is gone)
    index: LineIndex  # of the stub file, for spans

    @property
    def message_detail(self) -> str:
        if self.found is None:
            return f"has no method {self.expected.receiver}.{self.expected.method}"
        return (
            f"no longer matches the design: {'; '.join(self.changes)} - it is `{self.found.signature}`, "
            f"kit now generates `{self.wanted.signature}`"
        )

    def stub_span(self, root: Path) -> Span:
        path = str(root / self.expected.path)
        if self.found is None or self.found.sig is None:
            return self.index.span(path, 0, 0)
        return self.index.span(path, self.found.sig.start, self.found.sig.results_end)


def find_drift(expected: Sequence[Expected], read: Read) -> list[Drift]:
    out = []
    for e in expected:
        data = read(e.path)
        if data is None:
            continue
        wanted = e.parsed()
        if wanted is None:
            continue
        found = method_in(data, e.receiver, e.method)
        if found is None:
            out.append(Drift(e, None, wanted, (), (), LineIndex(data)))
            continue
        assert found.sig is not None and wanted.sig is not None
        if found.sig.types() == wanted.sig.types():
            continue
        edits = tuple(signature_edits(GoSource.parse(data), found, GoSource.parse(e.text), wanted))
        out.append(Drift(e, found, wanted, tuple(changes(found, wanted, e.kind)), edits, LineIndex(data)))
    return out


def stream_kind(f: GoFunc) -> str:
    assert f.sig is not None
    for p in f.sig.params:
        for prefix, kind in _STREAMS.items():
            if p.key.startswith(prefix):
                return kind
    return "unary"


def changes(found: GoFunc, wanted: GoFunc, kind: str) -> list[str]:
    """What differs, in the design's words."""
    assert found.sig is not None and wanted.sig is not None
    if kind != HTTP and stream_kind(found) != stream_kind(wanted):
        return [f"streaming kind changed from {KIND_NAMES[stream_kind(found)]} to {KIND_NAMES[stream_kind(wanted)]}"]
    out = []
    mine, theirs = _message(found.sig.params), _message(wanted.sig.params)
    if mine != theirs:
        out.append(_changed("request", mine, theirs))
    elif [p.key for p in found.sig.params] != [p.key for p in wanted.sig.params]:
        out.append("parameters changed")
    mine, theirs = _message(found.sig.results), _message(wanted.sig.results)
    if mine != theirs:
        out.append(_changed("response", mine, theirs))
    elif [p.key for p in found.sig.results] != [p.key for p in wanted.sig.results]:
        out.append("results changed")
    return out


def _message(params: tuple[GoParam, ...]) -> GoParam | None:
    """The request or response message: the first pointer parameter or result."""
    return next((p for p in params if p.key.startswith("*") and "net/http." not in p.key), None)


def _changed(what: str, mine: GoParam | None, theirs: GoParam | None) -> str:
    if mine is None and theirs is not None:
        return f"the design now has a {what} `{theirs.type}`"
    if theirs is None and mine is not None:
        return f"the design no longer has a {what} (the stub has `{mine.type}`)"
    assert mine is not None and theirs is not None
    return f"{what} type changed from `{mine.type}` to `{theirs.type}`"


def drift_diagnostics(drifts: Sequence[Drift], root: Path) -> list[Diagnostic]:
    """`stub/drift` on the method (or RPC) in the design, with the signature rewrite as its
    quick fix; ``root`` is the project root (stub paths are relative to it)."""
    out = []
    for d in drifts:
        stub = d.stub_span(root)
        fixes: tuple[Fix, ...] = ()
        if d.edits:
            title = f"Rewrite the signature of {d.expected.method} in {d.expected.path} (the body is kept)"
            fixes = tuple(Fix(title, d.index.span(stub.path, e.start, e.end), e.text) for e in d.edits)
        out.append(
            make(
                "stub/drift",
                d.expected.span,
                related=(Related(stub, f"the logic stub of {d.expected.label}"),),
                fixes=fixes,
                stub=d.expected.path,
                label=d.expected.label,
                detail=d.message_detail,
            )
        )
    return out


def drift_notices(drifts: Sequence[Drift]) -> list[Notice]:
    """The same drift as `kit gen` notices (the stub is the user's: kit never rewrites it)."""
    return [
        Notice(
            d.expected.path,
            f"logic stub of {d.expected.label} {d.message_detail}; edit the signature "
            "(kit-lsp offers the rewrite as a quick fix)",
        )
        for d in drifts
    ]
