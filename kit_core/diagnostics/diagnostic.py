"""A diagnostic is data: code, severity, message, span, related locations. No LSP in here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from kit_core.printable import printable
from kit_core.source import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class Related:
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A textual edit that resolves the diagnostic (quick fix in the editor)."""

    title: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def render(self) -> str:
        """`path:line:col: error code: message`, the CLI form."""
        text = f"{self.span.display()}: {self.severity.value} {self.code}: {self.message}"
        return printable(text, one_line=True)


def identity(d: Diagnostic) -> tuple[object, ...]:
    """What makes two diagnostics the same report: code, place, message and related places."""
    span = d.span
    related = tuple((r.span.path, r.span.start_byte, r.span.end_byte, r.message) for r in d.related)
    return (d.code, span.path, span.start_byte, span.end_byte, d.message, related)


def merge(*groups: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of several sources in order, true duplicates once (lowering and the
    analyzer may both hold one parse problem). Two reports of one code at one place that
    say different things (two methods missing the same `@prefix` variable) are both kept."""
    seen: set[tuple[object, ...]] = set()
    out: list[Diagnostic] = []
    for group in groups:
        for d in group:
            key = identity(d)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out
