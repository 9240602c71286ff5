"""One change that breaks clients, as data: what changed, where it is now, where it was at
the baseline, and what it reaches (the paths, methods, RPCs and events a client meets it in)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

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


class Place(NamedTuple):
    """Where something was at the baseline: a repository-relative path, 1-based line and column."""

    ref: str
    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.ref}:{self.path}:{self.line}:{self.col}"


class Reach(NamedTuple):
    """One place a client meets a change: the path from the value's root (`price.currency`,
    `items[].id`, `attrs{}.name`; empty for the root itself), its side (where the value
    travels: `request`, `response`, `error` or `event`) and what carries it (a method
    `Items.GetItem`, an RPC `stock.v1.Stock/Get`, an event contract `shop.OrderPlaced`);
    ``error`` names the error of an error body."""

    path: str
    side: str
    via: str
    error: str = ""

    def head(self) -> str:
        if self.side == "error":
            return f"error {self.error} of" if self.via else f"error {self.error}"
        if self.side == "event":
            return "event"
        return f"the {self.side} of"


SHOWN = 8  # paths a message lists


def reach_text(reaches: Iterable[Reach]) -> str:
    """`at price.currency in the request of A, B and the response of A; at items[].id in event E`."""
    by_path: dict[str, dict[str, list[str]]] = {}
    for r in sorted(set(reaches)):
        vias = by_path.setdefault(r.path, {}).setdefault(r.head(), [])
        if r.via:
            vias.append(r.via)
    parts = []
    for path, groups in by_path.items():
        sides = " and ".join(f"{head} {', '.join(vias)}" if vias else head for head, vias in groups.items())
        parts.append(f"at {path} in {sides}" if path else f"in {sides}")
    if len(parts) > SHOWN:  # a line stays readable; `--format json` lists them all
        parts[SHOWN:] = [f"and at {len(parts) - SHOWN} more paths"]
    return "; ".join(parts)


Where = Callable[[Span], Place]  # a baseline span as a place


@dataclass(frozen=True, slots=True)
class Change:
    code: str  # one of CODES
    message: str
    span: Span | None  # where it shows in the design now (None: nothing of it is left)
    was: Place | None  # where it was at the baseline (None: it is new)
    reaches: tuple[Reach, ...] = ()  # sorted; empty for a change of a method, route or RPC itself
    named: bool = False  # the message names what it reaches already (a method's own field)

    @property
    def text(self) -> str:
        """The message with what it reaches, as `kit diff` prints it."""
        return f"{self.message} ({reach_text(self.reaches)})" if self.reaches and not self.named else self.message

    def diagnostic(self, fallback: Span, *, reach: bool = False) -> Diagnostic:
        """As a diagnostic; the editor's stays short (the change at its place), `kit diff`
        adds what it reaches (``reach``)."""
        return make(self.code, self.span or fallback, message=self.text if reach else self.message)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        s = self.span
        if s is None:  # after every located change
            return ("~", 0, 0, self.code, self.message)
        return (s.path, s.start_line, s.start_col, self.code, self.message)
