"""One change that breaks clients, as data."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.diagnostics import Diagnostic, make
from kit_core.source import Span

CODES = (
    "breaking/removed",
    "breaking/renamed",
    "breaking/required",
    "breaking/narrowed",
    "breaking/wire",
    "breaking/status",
    "breaking/route",
    "breaking/type",
    "breaking/field-number",
    "breaking/streaming",
)


@dataclass(frozen=True, slots=True)
class Change:
    code: str  # one of CODES
    message: str
    span: Span | None  # where it shows in the design now (None: nothing of it is left)
    was: str  # where it was at the baseline: `<design-relative path>:<line>:<col>`

    def diagnostic(self, fallback: Span) -> Diagnostic:
        return make(self.code, self.span or fallback, message=self.message)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        s = self.span
        if s is None:  # after every located change
            return ("~", 0, 0, self.code, self.message)
        return (s.path, s.start_line, s.start_col, self.code, self.message)
