"""Line emission with comments placed by source position.

The printer walks the model in source order and hands the emitter one *item* at a time
(a declaration, a member, a method, ...) together with the byte where that item starts in
the source. Before the item is written, every comment of the file that starts earlier is
written first: a comment that had code before it on its source line is appended to the
last written line (one space before `//`); a comment on its own line is written on a line
of its own. So every comment is written exactly once, in its original order, and doc
comments stay directly above what they document.

Blank lines are decided by a per-container :class:`Scope` policy from the kind of the
previous and the current item and whether the source had a blank line there.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from kit_core.model import Comment


class Kind(StrEnum):
    COMMENT = "comment"  # a free comment run (not directly above an item)
    FILE_DECORATOR = "file-decorator"
    PACKAGE = "package"
    IMPORT = "import"
    DECL = "decl"
    MEMBER = "member"  # field, mixin, enum value, method clause
    METHOD = "method"


Policy = Callable[[Kind | None, Kind, bool], bool]
"""(previous kind or None when first, current kind, source had a blank line) -> blank line?"""


def top_level_policy(prev: Kind | None, kind: Kind, had_blank: bool) -> bool:
    """One blank line between top-level items; imports and file decorators stay together."""
    if prev is None:
        return False
    if kind is Kind.IMPORT and prev is Kind.IMPORT:
        return False
    return not (prev is Kind.FILE_DECORATOR and kind in (Kind.FILE_DECORATOR, Kind.PACKAGE))


def service_policy(prev: Kind | None, kind: Kind, had_blank: bool) -> bool:
    """Methods (and free comments between them) are separated by one blank line."""
    return prev is not None


def body_policy(prev: Kind | None, kind: Kind, had_blank: bool) -> bool:
    """Type, enum and method bodies keep a blank line where the source had one."""
    return prev is not None and had_blank


def never_policy(prev: Kind | None, kind: Kind, had_blank: bool) -> bool:
    return False


@dataclass(slots=True)
class Scope:
    """A container being printed: its indentation, blank-line policy and last item kind."""

    indent: int
    policy: Policy
    prev: Kind | None = None

    def wants_blank(self, kind: Kind, had_blank: bool) -> bool:
        return self.policy(self.prev, kind, had_blank)


class Emitter:
    def __init__(self, source: bytes, comments: Sequence[Comment]) -> None:
        self._src = source
        self._pending = sorted(comments, key=lambda c: c.span.start_byte)
        self._starts = [c.span.start_byte for c in self._pending]
        self._next = 0
        self.lines: list[str] = []

    # ------------------------------------------------------------------ source facts

    def had_blank(self, byte: int) -> bool:
        """Whether the whitespace before ``byte`` holds a blank line."""
        return self._newlines_before(byte) >= 2

    def _newlines_before(self, byte: int) -> int:
        i = byte
        while i > 0 and self._src[i - 1 : i] in (b" ", b"\t", b"\r", b"\n"):
            i -= 1
        return self._src.count(b"\n", i, byte)

    def is_trailing(self, comment: Comment) -> bool:
        """Whether code stands before the comment on its source line."""
        i = comment.span.start_byte
        while i > 0 and self._src[i - 1 : i] in (b" ", b"\t"):
            i -= 1
        return i > 0 and self._src[i - 1 : i] not in (b"\n", b"\r")

    def code_start(self, byte: int) -> int:
        """The first byte at or after ``byte`` that is neither whitespace nor a comment."""
        src, i = self._src, byte
        while i < len(src):
            if src[i : i + 1] in (b" ", b"\t", b"\r", b"\n"):
                i += 1
            elif src[i : i + 2] == b"//":
                end = src.find(b"\n", i)
                i = len(src) if end < 0 else end
            else:
                break
        return i

    def back_to_keyword(self, byte: int, keyword: str) -> int:
        """The start of ``keyword`` when it stands (before whitespace) just before ``byte``."""
        i = byte
        while i > 0 and self._src[i - 1 : i] in (b" ", b"\t", b"\r", b"\n"):
            i -= 1
        kw = keyword.encode()
        return i - len(kw) if self._src[max(0, i - len(kw)) : i] == kw else byte

    def closing_byte(self, end: int) -> int:
        """The last code byte before ``end`` (a closing brace), skipping whitespace and comments."""
        i = end
        while i > 0:
            if self._src[i - 1 : i] in (b" ", b"\t", b"\r", b"\n"):
                i -= 1
                continue
            k = bisect_left(self._starts, i) - 1  # the last comment starting before i
            if k < 0 or self._pending[k].span.end_byte < i:
                break
            i = self._pending[k].span.start_byte
        return max(i - 1, 0)

    def line_end(self, byte: int) -> int:
        end = self._src.find(b"\n", byte)
        return len(self._src) if end < 0 else end

    def comments_between(self, start: int, end: int) -> list[Comment]:
        return self._pending[bisect_left(self._starts, start) : bisect_left(self._starts, end)]

    # ------------------------------------------------------------------ emission

    def item(self, scope: Scope, kind: Kind, start: int, text: str) -> None:
        """Open an item of ``scope`` whose first code byte is ``start`` and write its first line."""
        attached = self._flush(start, scope, kind)
        if not attached:
            self._blank_if(scope.wants_blank(kind, self.had_blank(start)))
        scope.prev = kind
        self.line(scope.indent, text)

    def piece(self, indent: int, start: int, text: str) -> None:
        """Write another line of the current item (comments before it get no blank lines)."""
        self._flush(start, Scope(indent, never_policy), None)
        self.line(indent, text)

    def close(self, scope: Scope, end: int, indent: int, text: str) -> None:
        """Write the comments left inside a container, then its closing line."""
        self._flush(end, scope, None)
        self.line(indent, text)

    def finish(self, scope: Scope) -> None:
        self._flush(len(self._src) + 1, scope, None)

    def line(self, indent: int, text: str) -> None:
        self.lines.append("\t" * indent + text if text else "")

    def has_pending_before(self, byte: int) -> bool:
        return self._next < len(self._pending) and self._pending[self._next].span.start_byte < byte

    def _blank_if(self, wanted: bool) -> None:
        if wanted and self.lines and self.lines[-1] != "":
            self.lines.append("")

    def _flush(self, until: int, scope: Scope, next_kind: Kind | None) -> bool:
        """Write comments starting before ``until``; True when the last run is attached to
        the item that follows (no blank line between them in the source)."""
        attached = False
        while self.has_pending_before(until):
            first = self._pending[self._next]
            if self.is_trailing(first) and self.lines and self.lines[-1]:
                self.lines[-1] += " " + _text(first)
                self._next += 1
                continue
            run = self._take_run(until)
            end = run[-1].span.end_byte
            attached = (
                next_kind is not None
                and not self.has_pending_before(until)
                and (self._newlines_before(until) == 1 and self._src.count(b"\n", end, until) == 1)
            )
            kind = next_kind if attached and next_kind is not None else Kind.COMMENT
            self._blank_if(scope.wants_blank(kind, self.had_blank(run[0].span.start_byte)))
            if not attached:
                scope.prev = Kind.COMMENT
            for c in run:
                self.line(scope.indent, _text(c))
        return attached

    def _take_run(self, until: int) -> list[Comment]:
        """Consecutive own-line comments with no blank line between them."""
        run = [self._pending[self._next]]
        self._next += 1
        while self.has_pending_before(until):
            nxt = self._pending[self._next]
            if self.is_trailing(nxt) or self.had_blank(nxt.span.start_byte):
                break
            run.append(nxt)
            self._next += 1
        return run


def _text(comment: Comment) -> str:
    return comment.text.rstrip()
