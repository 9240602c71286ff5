"""Syntax tree -> typed model (`kit_core.model`), with the parse diagnostics.

Entry points: :func:`parse_file` (text in, ``SourceFile`` out), :func:`parse_with_tree`
(also returns the tree, for incremental reparsing) and :func:`lower_tree`. Passing the
same :class:`Reuse` to successive ``lower_tree`` calls of one edited file lowers only the
declarations whose text changed: the others are taken from the previous lowering (moved
by the lines and bytes the edit added or removed; see :class:`Reuse`).

The grammar is permissive (see grammar/grammar.js); this module applies the rules that
need lines or values: decorator placement (dsl-facts §2.11), literal checks (§1.2),
error categories (§2.7), clause shapes (§2.9). Children are read by field name. It never
raises on any input: every problem becomes a diagnostic in ``parse_diagnostics``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from decimal import Decimal, InvalidOperation
from typing import Any

from tree_sitter import Node, Tree

from kit_core import syntax
from kit_core.diagnostics import Diagnostic, make
from kit_core.error_categories import ERROR_CATEGORIES
from kit_core.fastnew import maker
from kit_core.gcpause import paused_gc, retire
from kit_core.model import (
    NO_TRIVIA,
    Comment,
    Decl,
    Decorator,
    EnumDecl,
    EnumValue,
    ErrorDecl,
    EventDecl,
    Field,
    Import,
    Literal,
    LiteralKind,
    Member,
    Method,
    MiddlewareDecl,
    Mixin,
    PathSegment,
    Route,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    Trivia,
    TypeDecl,
    TypeParam,
    TypeRef,
)
from kit_core.recovery import recover
from kit_core.shift import Shift
from kit_core.source import LineIndex, Span
from kit_core.words import HTTP_VERBS, KEYWORDS

__all__ = [
    "Reuse",
    "comment_nodes",
    "lower_tree",
    "parse_file",
    "parse_with_tree",
]


INT64_MAX = 2**63 - 1
_new = tuple.__new__  # builds a Span without the named tuple's keyword-parsing constructor
_Comment, _Trivia, _Literal, _Decorator = maker(Comment), maker(Trivia), maker(Literal), maker(Decorator)
_TypeRef, _Field, _Mixin, _EnumValue, _TypeDecl = (
    maker(TypeRef), maker(Field), maker(Mixin), maker(EnumValue), maker(TypeDecl)
)  # fmt: skip
MAX_NESTING = 50  # deeper type arguments or array literals are refused (no design needs them)

_DURATION_NS = {"ns": 1, "us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 10**9, "m": 60 * 10**9,
                "h": 3600 * 10**9}  # fmt: skip
_SIZE_BYTES = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_ESCAPE_RE = re.compile(rb'\\(u\{[^}"\n]*\}|[\x00-\x7f]|[\xc0-\xff][\x80-\xbf]*)')
_SIMPLE_ESCAPES = {b"n": "\n", b"t": "\t", b"r": "\r", b'"': '"', b"\\": "\\"}

# Where an ERROR node sits, for the message.
_CONTEXT = {
    "member_body": "in type body",
    "enum_body": "in enum body",
    "service_body": "in service body",
    "method_body": "in method body",
    "event_body": "in event body",
    "argument_list": "in decorator arguments",
    "array": "in array literal",
    "path": "in route",
}

_PUNCTUATION = frozenset("{}()[]<>,:=?./@-")
_LITERAL_CONTEXTS = frozenset({"argument_list", "array", "enum_body", "enum_value", "negative_number"})

_DECLARATION_KINDS = frozenset(
    "type_declaration enum_declaration scalar_declaration error_declaration "
    "middleware_declaration service_declaration event_declaration".split()
)


def parse_file(path: str, source: str | bytes, old_tree: Tree | None = None) -> SourceFile:
    """Parse and lower one design file; syntax errors end up in ``parse_diagnostics``."""
    return parse_with_tree(path, source, old_tree)[0]


def parse_with_tree(path: str, source: str | bytes, old_tree: Tree | None = None) -> tuple[SourceFile, Tree]:
    """Like :func:`parse_file`, also returning the tree (pass it back after an edit)."""
    data = _encode(source)
    tree = syntax.parse(data, old_tree)
    return lower_tree(path, data, tree), tree


def lower_tree(path: str, source: str | bytes, tree: Tree, reuse: Reuse | None = None) -> SourceFile:
    """Lower a tree parsed from ``source`` into a ``SourceFile``.

    With ``reuse`` (kept by the caller across the versions of one file), declarations
    lowered last time from the same text are reused instead of lowered again."""
    data = _encode(source)
    with paused_gc():
        lowered = _Lowerer(path, data, tree, reuse).lower()
        if not tree.root_node.has_error:
            return lowered
        if reuse is not None and reuse.repaired is None:
            reuse.repaired = Reuse()
        again = reuse.repaired if reuse is not None else None
        repaired = recover(path, data, lambda text, fixed: _Lowerer(path, text, fixed, again).lower())
        return repaired if repaired is not None else lowered


class _Unit:
    """One lowered top-level declaration, as :class:`Reuse` keeps it."""

    __slots__ = ("start", "line", "decl", "diags")

    def __init__(self, start: int, line: int, decl: Decl, diags: tuple[Diagnostic, ...]) -> None:
        self.start = start  # byte where the unit's first line starts
        self.line = line  # that line
        self.decl = decl
        self.diags = diags  # what lowering the declaration itself reported


class Reuse:
    """What one lowering of a file leaves for lowering the next version of its text.

    A top-level declaration is taken over when the whole lines it covers - from its doc
    comment (or first decorator) down to the end of its last line, trailing comment
    included - are byte for byte those of a declaration lowered last time, and it parsed
    without error: lowering is then bound to give the same model, only moved by whole
    lines (unchanged columns). Declarations sharing a line with other items, holding a
    syntax error or handing decorators on to the next declaration are always lowered.
    """

    __slots__ = ("path", "units", "repaired")

    def __init__(self) -> None:
        self.path: str | None = None
        self.units: dict[bytes, list[_Unit]] = {}
        self.repaired: Reuse | None = None  # the same for the texts `recovery` supplies braces to


_KnownDecorator = tuple[str, bool, tuple[int, int], tuple[tuple[LiteralKind, str, object, int, int], ...], int]
_DECORATORS: dict[bytes, _KnownDecorator] = {}
"""One-line decorators of ASCII files lowered without a problem, by their text: name,
parentheses, name offsets, scalar arguments (kind, spelling, value, offsets) and length.
Designs repeat the same few decorators thousands of times."""


def _remember_decorator(written: bytes, dec: Decorator) -> None:
    start = dec.span.start_byte
    if any(a.items or a.kind is LiteralKind.ARRAY for a in dec.args):
        return  # arrays keep their nested literals: not worth a template
    if len(_DECORATORS) > 50_000:
        _DECORATORS.clear()
    _DECORATORS[written] = (
        dec.name,
        dec.has_parens,
        (dec.name_span.start_byte - start, dec.name_span.end_byte - start),
        tuple((a.kind, a.text, a.value, a.span.start_byte - start, a.span.end_byte - start) for a in dec.args),
        dec.span.end_byte - start,
    )


_KnownType = tuple[str, "str | None", tuple[Any, ...], int, bool, tuple[int, int], tuple[int, int], int]
_TYPES: dict[bytes, _KnownType] = {}
"""One-line types of ASCII files lowered without a problem, by their text: name, package,
arguments (the same, recursively), suffixes, span and name offsets, nesting depth."""


def _type_template(ref: TypeRef, start: int) -> _KnownType:
    args = tuple(_type_template(a, start) for a in ref.args)
    depth = 1 + max((a[7] for a in args), default=0)
    return (
        ref.name,
        ref.package,
        args,
        ref.array_dims,
        ref.optional,
        (ref.span.start_byte - start, ref.span.end_byte - start),
        (ref.name_span.start_byte - start, ref.name_span.end_byte - start),
        depth,
    )


def _remember_type(written: bytes, ref: TypeRef, start: int) -> None:
    template = _type_template(ref, start)
    if not _inside(template, len(written)):
        return
    if len(_TYPES) > 50_000:
        _TYPES.clear()
    _TYPES[written] = template


def _inside(template: _KnownType, length: int) -> bool:
    (a, b), (na, nb) = template[5], template[6]
    return 0 <= a <= b <= length and 0 <= na <= nb <= length and all(_inside(t, length) for t in template[2])


def comment_nodes(src: bytes, root: Node) -> list[Node]:
    """Every comment node of the tree, in order: the `//` in the text that start one (a
    look-up per `//` instead of a query walking every node of the tree)."""
    out: list[Node] = []
    pos = src.find(b"//")
    while pos >= 0:
        node = root.descendant_for_byte_range(pos, pos + 2)
        if node is not None and node.start_byte == pos and node.type == "comment":
            out.append(node)
            pos = src.find(b"//", node.end_byte)
        else:
            pos = src.find(b"//", pos + 1)
    return out


def _encode(source: str | bytes) -> bytes:
    if isinstance(source, bytes):
        return source
    return source.encode("utf-8", "surrogatepass")


class _Comments:
    """Every comment of the file, with lookups for doc runs and trailing comments."""

    def __init__(self, comments: list[Comment], full_line: list[bool]) -> None:
        self.all = tuple(comments)
        self._starts = [c.span.start_byte for c in comments]
        self._own_line = {c.span.start_line: c for c, own in zip(comments, full_line, strict=True) if own}
        self._trailing = {c.span.start_line: c for c, own in zip(comments, full_line, strict=True) if not own}

    def doc_start(self, line: int) -> int:
        """The first line of the doc run :meth:`doc_above` would take (``line`` if none)."""
        while line - 1 in self._own_line:
            line -= 1
        return line

    def own_line(self, line: int) -> Comment:
        return self._own_line[line]

    def doc_above(self, line: int) -> tuple[Comment, ...]:
        """Take the contiguous run of own-line comments ending on the line above ``line``."""
        run: list[Comment] = []
        line -= 1
        while line in self._own_line:
            run.append(self._own_line.pop(line))
            line -= 1
        run.reverse()
        return tuple(run)

    def trailing_after(self, src: bytes, end_byte: int, end_line: int) -> Comment | None:
        """Take the comment that follows ``end_byte`` on its line with only spaces between."""
        c = self._trailing.get(end_line)
        if c is None or c.span.start_byte < end_byte or src[end_byte : c.span.start_byte].strip():
            return None
        del self._trailing[end_line]
        return c

    def within(self, start_byte: int, end_byte: int) -> tuple[Comment, ...]:
        lo = bisect_left(self._starts, start_byte)
        hi = bisect_left(self._starts, end_byte)
        return self.all[lo:hi]


class _Lowerer:
    def __init__(self, path: str, src: bytes, tree: Tree, reuse: Reuse | None = None) -> None:
        self.path = path
        self.src = src
        self.tree = tree
        self.reuse = reuse
        self.previous = reuse.units if reuse is not None and reuse.path == path else {}
        self.units: dict[bytes, list[_Unit]] = {}
        self._shifts: dict[tuple[int, int], Shift] = {}  # usually one: every unit after an edit moves alike
        self.ascii = src.isascii()
        self._index: LineIndex | None = None  # built only for offsets that are not node ends
        self.diags: list[Diagnostic] = []
        self._depth = 0  # nesting of type arguments / array literals being lowered
        self.comments = self._collect_comments(tree.root_node)

    # ------------------------------------------------------------------ helpers

    def text(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def span(self, node: Node) -> Span:
        (sl, sc), (el, ec) = node.start_point, node.end_point
        start, end = node.start_byte, node.end_byte
        if self.ascii:
            return _new(Span, (self.path, start, end, sl, sc, el, ec, sc, ec))
        return _new(Span, (self.path, start, end, sl, sc, el, ec, self._col16(start, sc), self._col16(end, ec)))

    def span_of(self, first: Node, last: Node) -> Span:
        """From the start of ``first`` to the end of ``last``, from the tree's own points."""
        (sl, sc), (el, ec) = first.start_point, last.end_point
        start, end = first.start_byte, last.end_byte
        if self.ascii:
            return _new(Span, (self.path, start, end, sl, sc, el, ec, sc, ec))
        return _new(Span, (self.path, start, end, sl, sc, el, ec, self._col16(start, sc), self._col16(end, ec)))

    def _col16(self, offset: int, byte_col: int) -> int:
        chunk = self.src[offset - byte_col : offset]
        if chunk.isascii():
            return byte_col
        return len(chunk.decode("utf-8", "replace").encode("utf-16-le")) // 2

    def span_between(self, start: int, end: int) -> Span:
        """A span between two arbitrary byte offsets (escapes, gaps)."""
        if self._index is None:
            self._index = LineIndex(self.src)
        return self._index.span(self.path, start, end)

    def error(self, code: str, node: Node | Span, **fields: Any) -> None:
        span = node if isinstance(node, Span) else self.span(node)
        self.diags.append(make(code, span, **fields))

    def syntax_error(self, node: Node | Span, message: str) -> None:
        self.error("parse/syntax", node, message=message)

    def trivia(self, start_line: int, end_byte: int, end_line: int) -> Trivia:
        doc = self.comments.doc_above(start_line)
        trailing = self.comments.trailing_after(self.src, end_byte, end_line)
        if not doc and trailing is None:
            return NO_TRIVIA
        return _Trivia(doc, trailing)

    def node_trivia(self, node: Node, first: Node | None = None) -> Trivia:
        """Doc above ``first`` (or ``node``), trailing comment after ``node``."""
        start = first if first is not None else node
        return self.trivia(start.start_point.row, node.end_byte, node.end_point.row)

    def name_of(self, node: Node, what: str) -> tuple[str, Span]:
        """The ``name`` field: text and span; a keyword there is reported."""
        name = node.child_by_field_name("name")
        if name is None:
            return "", self.span(node)
        text = self.text(name)
        if text in KEYWORDS:
            self.syntax_error(name, f"`{text}` is a keyword and cannot name a {what}")
        return text, self.span(name)

    # ------------------------------------------------------------------ comments

    def _collect_comments(self, root: Node) -> _Comments:
        comments: list[Comment] = []
        own: list[bool] = []
        src, path, ascii_ = self.src, self.path, self.ascii
        for n in comment_nodes(src, root):
            start, end = n.start_byte, n.end_byte
            row, col = n.start_point  # a comment ends on the line it starts on
            end_col = col + end - start
            if ascii_:
                span = _new(Span, (path, start, end, row, col, row, end_col, col, end_col))
            else:
                span = _new(Span, (path, start, end, row, col, row, end_col, self._col16(start, col),
                                   self._col16(end, end_col)))  # fmt: skip
            comments.append(_Comment(src[start:end].decode("utf-8", "replace"), span))
            own.append(not src[start - col : start].strip())
        return _Comments(comments, own)

    # ------------------------------------------------------------------ errors

    def report_syntax_errors(self, root: Node) -> None:
        """One diagnostic per ERROR / MISSING node (walked without recursion)."""
        before = len(self.diags)
        stack = [root]
        while stack:
            node = stack.pop()
            for child in reversed(node.children):
                if child.is_error:
                    self._report_error_node(child, node)
                elif child.is_missing:
                    self.syntax_error(child, f"expected {_describe(child)}")
                elif child.has_error:
                    stack.append(child)
        if len(self.diags) == before:
            self._report_unparsed(root)

    def _report_unparsed(self, root: Node) -> None:
        """When recovery gave up, the root holds bare tokens: report the first one."""
        stray = next((c for c in root.children if not c.is_named or c.has_error), root)
        leaf = _first_leaf(stray) or stray
        self.syntax_error(leaf, f"unexpected `{_shorten(self.text(leaf))}`")

    def _report_error_node(self, node: Node, parent: Node) -> None:
        leaf = _first_leaf(node)
        if leaf is None or leaf.start_byte >= leaf.end_byte:
            self.syntax_error(node, f"unexpected end of input{_where(parent)}")
            return
        self.syntax_error(leaf, self._error_message(node, leaf))

    def _error_message(self, node: Node, leaf: Node) -> str:
        token = self.text(leaf)
        if self.src.startswith(b"/*", leaf.start_byte):
            return "block comments are not supported - use `//` line comments"
        if leaf.is_error or (len(token) == 1 and not _lexable_start(token)):
            if token[:1] not in _PUNCTUATION:
                return f"unexpected character `{token[:1]}`"
        parent = node.parent.type if node.parent is not None else ""
        if token == "-" and parent in _LITERAL_CONTEXTS:
            return "expected number after '-'"
        if token in HTTP_VERBS and parent == "source_file":
            return f"method `{token} ...` must be inside a `service` block"
        if token == '"':
            return "unterminated string literal - strings are single-line (a `raw string` may span lines)"
        if any(self.text(c) == "consume" for c in node.children[:3]):
            return "`consume` was removed - subscribe to events in application code"
        prev = node.prev_named_sibling
        if token == "(" and prev is not None and prev.type == "middleware_declaration":
            return "a middleware takes no parameters"
        return f"unexpected `{_shorten(token)}`{_where(node.parent)}"

    # ------------------------------------------------------------------ file

    def lower(self) -> SourceFile:
        root = self.tree.root_node
        if root.has_error:
            self.report_syntax_errors(root)
        state = _FileState()
        for child in root.named_children:
            self._lower_item(child, state)
        if self.reuse is not None:
            retire(self.reuse.units)
            self.reuse.path, self.reuse.units = self.path, self.units
        for dec_node, _ in state.pending:
            self.syntax_error(
                dec_node,
                f"decorator @{self.text(dec_node.child_by_field_name('name'))} is not followed by a declaration",
            )
        self.diags.sort(key=lambda d: (d.span.start_byte, d.span.end_byte))
        return SourceFile(
            path=self.path,
            package=state.package,
            package_span=state.package_span,
            decorators=state.file_decorators,
            imports=tuple(state.imports),
            declarations=tuple(state.decls),
            comments=self.comments.all,
            parse_diagnostics=tuple(self.diags),
            package_trivia=state.package_trivia,
            source=self.src.decode("utf-8", "replace"),
        )

    def _lower_item(self, node: Node, state: _FileState) -> None:
        kind = node.type
        if kind == "decorator":
            self._top_level_decorator(node, state)
        elif kind == "package_clause":
            self._package(node, state)
        elif kind == "import_declaration":
            self._import(node, state)
        elif kind in _DECLARATION_KINDS:
            if self.reuse is not None:
                state.decls.append(self._reused_declaration(node, state))
            else:
                state.decls.append(self._declaration(node, state))
            state.last_end_line = node.end_point.row
            if kind == "scalar_declaration":
                if state.carried:
                    state.pending.extend(state.carried)
                    state.carried_pending = True
                state.carried = []

    def _reused_declaration(self, node: Node, state: _FileState) -> Decl:
        """A declaration taken from the previous lowering when its lines are unchanged
        (see `Reuse`), else lowered; either way remembered for the next lowering."""
        region = None if node.has_error or state.carried_pending else self._region(node, state)
        if region is None:
            return self._declaration(node, state)
        key, start, line, first_row, end = region
        candidates = self.previous.get(key)
        unit = next((u for u in candidates if u.start == start), candidates[0]) if candidates else None
        if unit is not None:
            self._take_pending(state)
            self.comments.doc_above(first_row)  # the comments lowering would have taken
            self.comments.trailing_after(self.src, node.end_byte, node.end_point.row)
            dbyte, dline = start - unit.start, line - unit.line
            if dbyte or dline:
                shift = self._shifts.get((dbyte, dline))
                if shift is None:
                    shift = self._shifts[dbyte, dline] = Shift(dbyte, dline)
                decl = shift.decl(unit.decl)
                diags = tuple(shift.diagnostic(d) for d in unit.diags)
                unit = _Unit(start, line, decl, diags)
            self.diags.extend(unit.diags)
            self.units.setdefault(key, []).append(unit)
            return unit.decl
        before = len(self.diags)
        decl = self._declaration(node, state)
        diags = tuple(self.diags[before:])
        if not state.carried and all(start <= d.span.start_byte and d.span.end_byte <= end for d in diags):
            self.units.setdefault(key, []).append(_Unit(start, line, decl, diags))
        return decl

    def _region(self, node: Node, state: _FileState) -> tuple[bytes, int, int, int, int] | None:
        """The bytes of the whole lines a declaration (with its pending decorators, doc
        comment and trailing comment) covers, where they start and their first line;
        None when the declaration shares a line with something else."""
        src = self.src
        first = state.pending[0][0] if state.pending else node
        row = first.start_point.row
        line_start = first.start_byte - first.start_point.column
        if src[line_start : first.start_byte].strip():
            return None
        end = node.end_byte
        line_end = src.find(b"\n", end)
        if line_end < 0:
            line_end = len(src)
        after = src[end:line_end].strip()
        if after and not after.startswith(b"//"):
            return None
        first_row = row
        doc_row = self.comments.doc_start(row)
        if doc_row != row:
            start_comment = self.comments.own_line(doc_row)
            line_start = start_comment.span.start_byte - start_comment.span.start_col
            row = doc_row
        return src[line_start:line_end], line_start, row, first_row, line_end

    def _top_level_decorator(self, node: Node, state: _FileState) -> None:
        if state.last_end_line == node.start_point.row:
            name = self.text(node.child_by_field_name("name"))
            self.error("parse/decorator-after-decl", node, name=name)
            return
        dec = self.decorator(node)
        if dec is not None:
            state.pending.append((node, dec))

    def _take_pending(self, state: _FileState) -> tuple[tuple[Decorator, ...], Node | None]:
        pending = state.pending
        state.pending = []
        state.carried_pending = False
        return tuple(d for _, d in pending), (pending[0][0] if pending else None)

    def _package(self, node: Node, state: _FileState) -> None:
        decorators, first = self._take_pending(state)
        if state.package is not None or state.decls or state.imports:
            self.syntax_error(node, "the package clause must come first in the file, once")
        else:
            state.file_decorators = decorators
        name = node.child_by_field_name("name")
        state.package = self.text(name) if name is not None else ""
        if state.package in KEYWORDS:
            self.syntax_error(name or node, f"`{state.package}` is a keyword and cannot name a package")
        state.package_span = self.span(name) if name is not None else self.span(node)
        state.package_trivia = self.node_trivia(node, first)
        state.last_end_line = node.end_point.row

    def _import(self, node: Node, state: _FileState) -> None:
        decorators, first = self._take_pending(state)
        if first is not None:
            self.syntax_error(first, "an import takes no decorators")
        path_node = node.child_by_field_name("path")
        alias_node = node.child_by_field_name("alias")
        path = self.string_value(path_node) if path_node is not None else ""
        alias = self.text(alias_node) if alias_node is not None else None
        trivia = self.node_trivia(node)
        state.imports.append(Import(path, alias, self.span(node), trivia))
        state.last_end_line = node.end_point.row

    # ------------------------------------------------------------------ declarations

    def _declaration(self, node: Node, state: _FileState) -> Decl:
        decorators, first = self._take_pending(state)
        start = first if first is not None else node
        kind = node.type
        if kind == "scalar_declaration":
            return self._scalar(node, decorators, start, state)
        span = self.span_of(start, node)
        if kind == "type_declaration":
            return self._type(node, decorators, span, start)
        if kind == "enum_declaration":
            return self._enum(node, decorators, span, start)
        if kind == "error_declaration":
            return self._error_decl(node, decorators, span, start)
        if kind == "middleware_declaration":
            name, name_span = self.name_of(node, "middleware")
            return MiddlewareDecl(name, decorators, span, name_span, self.node_trivia(node, start))
        if kind == "service_declaration":
            return self._service(node, decorators, span, start)
        return self._event(node, decorators, span, start)

    def _type(self, node: Node, decorators: tuple[Decorator, ...], span: Span, start: Node) -> TypeDecl:
        name, name_span = self.name_of(node, "type")
        trivia = self.node_trivia(node, start)
        params = self._type_params(node.child_by_field_name("parameters"))
        body = node.child_by_field_name("body")
        if body is None:
            self.error("parse/type-without-body", name_span, name=name)
            members: tuple[Member, ...] = ()
        else:
            members = self.members(body)
        return _TypeDecl(name, decorators, span, name_span, trivia, params, members)

    def _type_params(self, node: Node | None) -> tuple[TypeParam, ...]:
        if node is None:
            return ()
        params: list[TypeParam] = []
        for p in node.children_by_field_name("parameter"):
            name, name_span = self.name_of(p, "type parameter")
            params.append(TypeParam(name, name_span))
        return tuple(params)

    def _enum(self, node: Node, decorators: tuple[Decorator, ...], span: Span, start: Node) -> EnumDecl:
        name, name_span = self.name_of(node, "enum")
        trivia = self.node_trivia(node, start)
        body = node.child_by_field_name("body")
        values = self._enum_values(body) if body is not None else ()
        return EnumDecl(name, decorators, span, name_span, trivia, values)

    def _enum_values(self, body: Node) -> tuple[EnumValue, ...]:
        values: list[EnumValue] = []
        leading: list[tuple[Node, Decorator]] = []
        for child in body.named_children:
            if child.type == "decorator":
                self._leading_decorator(child, leading, allowed=not values)
            elif child.type == "enum_value":
                values.append(self._enum_value(child, leading))
                leading = []
        self._dangling(leading, "an enum value")
        return tuple(values)

    def _enum_value(self, node: Node, leading: list[tuple[Node, Decorator]]) -> EnumValue:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node)
        start = leading[0][0] if leading else node
        trivia = self.node_trivia(node, start)
        value_node = node.child_by_field_name("value")
        value = self.literal(value_node) if value_node is not None else None
        if value is not None and value.kind not in (
            LiteralKind.INT,
            LiteralKind.STRING,
            LiteralKind.RAW_STRING,
        ):
            self.syntax_error(value_node or node, f"enum value {name} must be an integer or a string")
        decorators = tuple(d for _, d in leading) + self.decorators(node)
        span = self.span_of(start, node)
        name_span = self.span(name_node) if name_node is not None else span
        return _EnumValue(name, value, decorators, span, name_span, trivia)

    def _scalar(self, node: Node, decorators: tuple[Decorator, ...], start: Node, state: _FileState) -> ScalarDecl:
        """Validators on the primitive's line are the scalar's; later ones go to the next decl (§2.6)."""
        name, name_span = self.name_of(node, "scalar")
        prim_node = node.child_by_field_name("primitive")
        line = prim_node.end_point.row if prim_node is not None else node.start_point.row
        last: Node = prim_node if prim_node is not None else node
        own_nodes: list[Node] = []
        later_nodes: list[Node] = []
        for dec_node in node.children_by_field_name("decorator"):
            if dec_node.start_point.row == line and not later_nodes:
                own_nodes.append(dec_node)
                last = dec_node
            else:
                later_nodes.append(dec_node)
        trivia = self.trivia(start.start_point.row, last.end_byte, line)
        primitive = self.type_ref(prim_node) if prim_node is not None else _empty_ref(name_span)
        own = tuple(d for n in own_nodes if (d := self.decorator(n)) is not None)
        state.carried = [(n, d) for n in later_nodes if (d := self.decorator(n)) is not None]
        span = self.span_of(start, last)
        return ScalarDecl(name, decorators + own, span, name_span, trivia, primitive)

    def _error_decl(self, node: Node, decorators: tuple[Decorator, ...], span: Span, start: Node) -> ErrorDecl:
        name, name_span = self.name_of(node, "error")
        trivia = self.node_trivia(node, start)
        cat_node = node.child_by_field_name("category")
        category = self.text(cat_node)
        cat_span = self.span(cat_node) if cat_node is not None else name_span
        if cat_node is not None and category not in ERROR_CATEGORIES:
            self.error("parse/error-category", cat_span, name=category)
        body = node.child_by_field_name("body")
        members = self.members(body) if body is not None else ()
        return ErrorDecl(name, decorators, span, name_span, trivia, category, cat_span, members, body is not None)

    def _service(self, node: Node, decorators: tuple[Decorator, ...], span: Span, start: Node) -> ServiceDecl:
        name, name_span = self.name_of(node, "service")
        trivia = self.node_trivia(node, start)
        body = node.child_by_field_name("body")
        methods: list[Method] = []
        last_line = -1
        for child in body.named_children if body is not None else ():
            if child.type == "method":
                self._check_method_decorators(child, last_line)
                methods.append(self._method(child))
                last_line = child.end_point.row
            elif child.type == "event_declaration":
                ev = self.text(child.child_by_field_name("name"))
                self.syntax_error(
                    child,
                    f"event {ev} is declared inside service {name} - "
                    "events are file-level declarations, move it out of the service",
                )
        extend = node.child_by_field_name("extend") is not None
        return ServiceDecl(name, decorators, span, name_span, trivia, tuple(methods), extend)

    def _check_method_decorators(self, node: Node, last_line: int) -> None:
        """A decorator on the line where the previous method ended follows that method."""
        for dec in node.children_by_field_name("decorator"):
            if dec.start_point.row != last_line:
                return
            name = self.text(dec.child_by_field_name("name"))
            self.error("parse/decorator-after-decl", dec, name=name)

    def _method(self, node: Node) -> Method:
        name, name_span = self.name_of(node, "method")
        decorators = self.decorators(node)
        verb_node = node.child_by_field_name("verb")
        trivia = self.node_trivia(node, node)
        path_node = node.child_by_field_name("path")
        route = self._route(path_node) if path_node is not None else None
        body = node.child_by_field_name("body")
        request, response = self._clauses(body, name) if body is not None else (None, None)
        body_comments = self.comments.within(body.start_byte, body.end_byte) if body is not None else ()
        return Method(
            self.text(verb_node),
            name,
            route,
            request,
            response,
            decorators,
            self.span(node),
            name_span,
            trivia,
            body_comments,
        )

    def _clauses(self, body: Node, method: str) -> tuple[TypeRef | None, TypeRef | None]:
        return self._clause(body, "request", method), self._clause(body, "response", method)

    def _clause(self, body: Node, which: str, method: str) -> TypeRef | None:
        """The type of the ``request``/``response`` clause: a named type, once (§2.9)."""
        clauses = body.children_by_field_name(which)
        for extra in clauses[1:]:
            self.syntax_error(extra, f"duplicate {which} clause in method {method}")
        type_node = clauses[0].child_by_field_name("type") if clauses else None
        if type_node is None:
            return None
        ref = self.type_ref(type_node)
        if ref.array_dims:
            self.syntax_error(type_node, f"{which} of {method} cannot be a bare array - wrap it in a type")
        if ref.optional:
            self.syntax_error(type_node, f"{which} of {method} cannot be optional")
        return ref

    def _route(self, node: Node) -> Route:
        segments: list[PathSegment] = []
        children = node.children
        prev_end = children[0].start_byte if children else node.start_byte
        after_slash = False
        for child in children:
            if child.type == "comment" or child.is_missing:
                continue
            if child.start_byte != prev_end:
                self.syntax_error(self.span_between(prev_end, child.start_byte), "unexpected space in route")
            prev_end = child.end_byte
            if child.type == "//" or (child.type == "/" and after_slash):
                self.syntax_error(child, "empty path segment (`//`) in route")
                after_slash = True
            elif child.type == "/":
                after_slash = True
            elif child.type == "path_segment":
                segments.append(self._segment(child))
                after_slash = False
        if after_slash and segments:
            self.syntax_error(children[-1], "route cannot end with `/`")
        return Route(self.text(node), tuple(segments), self.span(node))

    def _segment(self, node: Node) -> PathSegment:
        text = self.text(node)
        parts = node.named_children
        if text.endswith("-"):
            self.syntax_error(node, f"path segment {text} cannot end with `-`")
        prev_end = node.start_byte
        for child in node.children:
            if child.start_byte != prev_end and child.type != "comment":
                self.syntax_error(self.span_between(prev_end, child.start_byte), "unexpected space in route")
            prev_end = child.end_byte
        if len(parts) == 1 and parts[0].type == "path_parameter":
            param = parts[0]
            var = self.text(param.child_by_field_name("name"))
            wildcard = param.child_by_field_name("wildcard") is not None
            return PathSegment(text, self.span(node), var, wildcard)
        return PathSegment(text, self.span(node))

    def _event(self, node: Node, decorators: tuple[Decorator, ...], span: Span, start: Node) -> EventDecl:
        name, name_span = self.name_of(node, "event")
        trivia = self.node_trivia(node, start)
        body = node.child_by_field_name("body")
        clause = body.child_by_field_name("payload") if body is not None else None
        type_node = clause.child_by_field_name("type") if clause is not None else None
        payload = self.type_ref(type_node) if type_node is not None else None
        array = payload is not None and payload.array_dims > 0
        return EventDecl(name, decorators, span, name_span, trivia, payload, array)

    # ------------------------------------------------------------------ members

    def members(self, body: Node) -> tuple[Member, ...]:
        members: list[Member] = []
        leading: list[tuple[Node, Decorator]] = []
        for child in body.named_children:
            kind = child.type
            if kind == "decorator":
                allowed = not members or isinstance(members[-1], Mixin)
                self._leading_decorator(child, leading, allowed)
            elif kind == "field":
                members.append(self._field(child, leading))
                leading = []
            elif kind == "mixin":
                if self._is_untyped_field(child):
                    self.syntax_error(child, f"field {self.text(child)} needs a type")
                    leading = []
                    continue
                if leading:
                    self.syntax_error(leading[0][0], "a mixin takes no decorators")
                    leading = []
                members.append(self._mixin(child))
        self._dangling(leading, "a field")
        return tuple(members)

    @staticmethod
    def _is_untyped_field(mixin: Node) -> bool:
        """A lone lower-case name is a field without a type, not a mixin (§2.4 rule 3)."""
        ref = mixin.child_by_field_name("type")
        after = mixin.next_sibling
        if ref is None or ref.named_child_count != 1 or (after is not None and after.is_error):
            return False
        name = ref.child_by_field_name("name")
        return name is not None and name.type == "identifier"

    def _leading_decorator(self, node: Node, leading: list[tuple[Node, Decorator]], allowed: bool) -> None:
        dec = self.decorator(node)
        if dec is None:
            return
        if not allowed:
            self.syntax_error(node, f"decorator @{dec.name} must follow the member it decorates")
            return
        leading.append((node, dec))

    def _dangling(self, leading: list[tuple[Node, Decorator]], what: str) -> None:
        if leading:
            node, dec = leading[0]
            self.syntax_error(node, f"decorator @{dec.name} is not followed by {what}")

    def _field(self, node: Node, leading: list[tuple[Node, Decorator]]) -> Field:
        name_node = node.child_by_field_name("name")
        type_node = node.child_by_field_name("type")
        start = leading[0][0] if leading else node
        span = self.span_of(start, node)
        comments = self.comments
        doc = comments.doc_above(span.start_line)
        trailing = comments.trailing_after(self.src, span.end_byte, span.end_line)
        if trailing is None and type_node is not None:
            trailing = comments.trailing_after(self.src, type_node.end_byte, type_node.end_point.row)
        trivia = _Trivia(doc, trailing) if doc or trailing else NO_TRIVIA
        ref = self.type_ref(type_node) if type_node is not None else _empty_ref(self.span(node))
        decorators = self.decorators(node)
        if leading:
            decorators = tuple(d for _, d in leading) + decorators
        name_span = self.span(name_node) if name_node is not None else span
        return _Field(self.text(name_node), ref, decorators, span, name_span, trivia)

    def _mixin(self, node: Node) -> Mixin:
        type_node = node.child_by_field_name("type")
        ref = self.named_ref(type_node) if type_node is not None else _empty_ref(self.span(node))
        return _Mixin(ref, self.span(node), self.node_trivia(node))

    # ------------------------------------------------------------------ types

    def type_ref(self, node: Node) -> TypeRef:
        if self._depth >= MAX_NESTING:
            self.syntax_error(node, f"type nested more than {MAX_NESTING} levels deep")
            return _empty_ref(self.span(node))
        start = node.start_byte
        written = self.src[start : node.end_byte] if self.ascii else b""
        if written:
            known = _TYPES.get(written)
            if known is not None and self._depth + known[7] < MAX_NESTING and not node.has_error:
                row, col = node.start_point
                return self._known_type(known, start, row, col)
        before = len(self.diags)
        self._depth += 1
        try:
            ref = self._type_ref(node)
        finally:
            self._depth -= 1
        if written and len(self.diags) == before and b"\n" not in written and not node.has_error:
            _remember_type(written, ref, start)
        return ref

    def _known_type(self, known: _KnownType, start: int, row: int, col: int) -> TypeRef:
        """A one-line type written exactly as one lowered before (ASCII file): the same
        parts at the same offsets from its start."""
        name, package, args, dims, optional, (a, b), (na, nb), _ = known
        path = self.path
        span = _new(Span, (path, start + a, start + b, row, col + a, row, col + b, col + a, col + b))
        if (na, nb) == (a, b):
            name_span = span
        else:
            name_span = _new(Span, (path, start + na, start + nb, row, col + na, row, col + nb, col + na, col + nb))
        refs = tuple([self._known_type(arg, start, row, col) for arg in args]) if args else ()
        return _TypeRef(name, span, name_span, package, refs, dims, optional)

    def _type_ref(self, node: Node) -> TypeRef:
        base = node.child_by_field_name("base")
        if node.child_count == 1 and base is not None and base.type == "named_type":
            return self.named_ref(base)  # no suffix: the same range (the common case, one span less)
        dims, optional = 0, False
        for child in node.children:  # the grammar's `array` and `optional` fields, in one pass
            kind = child.type
            if kind == "array_suffix":
                dims += 1
            elif kind == "?":
                optional = True
        span = self.span(node)
        if base is None:
            return _TypeRef("", span, span, None, (), dims, optional)
        if base.type == "map_type":
            key = base.child_by_field_name("key")
            value = base.child_by_field_name("value")
            args = tuple(self.type_ref(a) for a in (key, value) if a is not None)
            keyword = base.child_by_field_name("name") or base
            return _TypeRef("map", span, self.span(keyword), None, args, dims, optional)
        if base.type == "named_type":
            named = self.named_ref(base)
            return _TypeRef(named.name, span, named.name_span, named.package, named.args, dims, optional)
        args_node = node.child_by_field_name("arguments")  # refused by the analyzer (generic/non-generic)
        args = tuple(self.type_ref(a) for a in args_node.children_by_field_name("argument")) if args_node else ()
        return _TypeRef(self.text(base), span, self.span(base), None, args, dims, optional)

    def named_ref(self, node: Node) -> TypeRef:
        span = self.span(node)
        if node.child_count == 1:  # a bare name: the name's range is the node's
            only = node.children[0]
            if only.type in ("identifier", "type_identifier"):
                return _TypeRef(self.text(only), span, span, None, (), 0, False)
        name_node = node.child_by_field_name("name")
        pkg_node = node.child_by_field_name("package")
        args_node = node.child_by_field_name("arguments")
        args = tuple(self.type_ref(a) for a in args_node.children_by_field_name("argument")) if args_node else ()
        name_span = self.span(name_node) if name_node is not None else span
        package = self.text(pkg_node) if pkg_node is not None else None
        return _TypeRef(self.text(name_node), span, name_span, package, args, 0, False)

    # ------------------------------------------------------------------ decorators

    def decorators(self, node: Node) -> tuple[Decorator, ...]:
        nodes = node.children_by_field_name("decorator")
        if not nodes:
            return ()
        out = []
        for dec_node in nodes:
            dec = self.decorator(dec_node)
            if dec is not None:
                out.append(dec)
        return tuple(out)

    def decorator(self, node: Node) -> Decorator | None:
        start, end = node.start_byte, node.end_byte
        written = self.src[start:end]
        if self.ascii:
            known = _DECORATORS.get(written)
            if known is not None and not node.has_error:
                return self._known_decorator(node, start, known)
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        name = self.text(name_node)
        before = len(self.diags)
        args_node = node.child_by_field_name("arguments")
        args = self._arguments(args_node, name) if args_node is not None else ()
        span = self.span(node)
        trailing = self.comments.trailing_after(self.src, span.end_byte, span.end_line)
        trivia = _Trivia((), trailing) if trailing is not None else NO_TRIVIA
        dec = _Decorator(name, args, args_node is not None, span, self.span(name_node), trivia)
        if self.ascii and len(self.diags) == before and b"\n" not in written and not node.has_error:
            _remember_decorator(written, dec)
        return dec

    def _known_decorator(self, node: Node, start: int, known: _KnownDecorator) -> Decorator:
        """A one-line decorator written exactly as one lowered before: its parts are the
        same at the same offsets from its start (the file is ASCII: columns are bytes)."""
        path = self.path
        row, col = node.start_point
        name, has_parens, (na, nb), args, length = known
        literals = tuple(
            [
                _Literal(
                    kind,
                    text,
                    value,
                    _new(Span, (path, start + a, start + b, row, col + a, row, col + b, col + a, col + b)),
                    (),
                )  # fmt: skip
                for kind, text, value, a, b in args
            ]
        )
        end = start + length
        span = _new(Span, (path, start, end, row, col, row, col + length, col, col + length))
        name_span = _new(Span, (path, start + na, start + nb, row, col + na, row, col + nb, col + na, col + nb))
        trailing = self.comments.trailing_after(self.src, end, row)
        trivia = _Trivia((), trailing) if trailing is not None else NO_TRIVIA
        return _Decorator(name, literals, has_parens, span, name_span, trivia)

    def _arguments(self, node: Node, outer: str) -> tuple[Literal, ...]:
        out: list[Literal] = []
        for arg in node.children_by_field_name("argument"):
            lit = self._argument(arg, outer)
            if lit is not None:
                out.append(lit)
        return tuple(out)

    def _argument(self, node: Node, outer: str) -> Literal | None:
        kind = node.type
        if kind == "decorator":
            inner = self.text(node.child_by_field_name("name"))
            self.error("parse/nested-decorator", node, inner=inner, outer=outer)
            return None
        if kind == "named_argument":
            message = f"named arguments are not supported - the arguments of @{outer} are positional"
            self.syntax_error(node, message)
            return None
        if kind == "object_literal":
            self.syntax_error(node, f"object literals are not supported as arguments of @{outer}")
            return None
        return self.literal(node, outer)

    # ------------------------------------------------------------------ literals

    def literal(self, node: Node, outer: str = "") -> Literal:
        kind = node.type
        text = self.text(node)
        span = self.span(node)
        if kind == "string":
            return _Literal(LiteralKind.STRING, text, self.string_value(node), span, ())
        if kind == "raw_string":
            body = text[1:-1] if len(text) >= 2 and text.endswith("`") else text[1:]
            return _Literal(LiteralKind.RAW_STRING, text, body.replace("\r\n", "\n"), span, ())
        if kind in ("integer", "float", "negative_number", "duration", "size", "invalid_number"):
            return self._number(node, kind, text, span)
        if kind in ("true", "false"):
            return _Literal(LiteralKind.BOOL, text, kind == "true", span, ())
        if kind == "null":
            return _Literal(LiteralKind.NULL, text, None, span, ())
        if kind == "qualified_identifier":
            pkg = node.child_by_field_name("package")
            name = self.text(node.child_by_field_name("name"))
            value = f"{self.text(pkg)}.{name}" if pkg is not None else name
            return _Literal(LiteralKind.IDENT, text, value, span, ())
        if kind == "array":
            return _Literal(LiteralKind.ARRAY, text, None, span, self._array_items(node, outer))
        return _Literal(LiteralKind.IDENT, text, text, span, ())  # an ERROR-ish node: already reported

    def _array_items(self, node: Node, outer: str) -> tuple[Literal, ...]:
        if self._depth >= MAX_NESTING:
            self.syntax_error(node, f"array literal nested more than {MAX_NESTING} levels deep")
            return ()
        self._depth += 1
        try:
            items = [self._argument(item, outer) for item in node.children_by_field_name("item")]
        finally:
            self._depth -= 1
        return tuple(i for i in items if i is not None)

    def _number(self, node: Node, kind: str, text: str, span: Span) -> Literal:
        if node.is_missing or not text:
            return _Literal(LiteralKind.INT, text, 0, span, ())  # inserted by error recovery: reported
        if kind == "negative_number":
            num = node.child_by_field_name("number")
            if num is None or num.is_missing:
                return _Literal(LiteralKind.INT, text, 0, span, ())
            positive = self._number(num, num.type, self.text(num), span)
            value = -positive.value if isinstance(positive.value, int | float) else 0
            if positive.kind is LiteralKind.INT and value < -INT64_MAX - 1:
                self.error("parse/int-range", node, text=_shorten(text))
            return _Literal(positive.kind, text, value, span, ())
        if kind == "integer" and len(text) < 19 and text.isascii() and text.isdigit():  # plain, within int64
            return _Literal(LiteralKind.INT, text, int(text), span, ())
        match = _NUMBER_RE.match(text)
        number = match.group(0) if match else "0"
        unit = text[len(number) :]
        if kind == "integer":
            value = _int(number)
            if value > INT64_MAX and node.parent is not None and node.parent.type != "negative_number":
                self.error("parse/int-range", node, text=_shorten(text))
            return _Literal(LiteralKind.INT, text, value, span, ())
        if kind == "float":
            return _Literal(LiteralKind.FLOAT, text, float(number), span, ())
        if kind == "duration":
            return _Literal(LiteralKind.DURATION, text, _scaled(number, _DURATION_NS.get(unit, 1)), span, ())
        if kind == "size":
            return _Literal(LiteralKind.SIZE, text, _scaled(number, _SIZE_BYTES.get(unit, 1)), span, ())
        self.error("parse/number-suffix", node, suffix=unit)
        if "." in number:
            return _Literal(LiteralKind.FLOAT, text, float(number), span, ())
        return _Literal(LiteralKind.INT, text, _int(number), span, ())

    def string_value(self, node: Node) -> str:
        """The unescaped value of a `"..."` string node; bad escapes are reported."""
        if node.type == "raw_string":
            return self.text(node)[1:-1]
        start = node.start_byte + 1
        closed = node.end_byte - node.start_byte >= 2 and self.src[node.end_byte - 1] == 0x22
        end = node.end_byte - 1 if closed else node.end_byte
        raw = self.src[start:end]
        if b"\\" not in raw:
            return raw.decode("utf-8", "replace")
        out: list[str] = []
        pos = 0
        for m in _ESCAPE_RE.finditer(raw):
            out.append(raw[pos : m.start()].decode("utf-8", "replace"))
            out.append(self._escape(m.group(1), start + m.start(), start + m.end()))
            pos = m.end()
        out.append(raw[pos:].decode("utf-8", "replace"))
        return "".join(out)

    def _escape(self, body: bytes, start: int, end: int) -> str:
        simple = _SIMPLE_ESCAPES.get(body)
        if simple is not None:
            return simple
        text = "\\" + body.decode("utf-8", "replace")
        span = self.span_between(start, end)
        if not body.startswith(b"u"):
            self.error("parse/string-escape", span, text=text)
            return ""
        reason = _unicode_problem(body)
        if reason:
            self.error("parse/unicode-escape", span, text=text, reason=reason)
            return ""
        return chr(int(body[2:-1], 16))


class _FileState:
    """What lowering the top level of a file accumulates."""

    def __init__(self) -> None:
        self.package: str | None = None
        self.package_span: Span | None = None
        self.package_trivia: Trivia = NO_TRIVIA
        self.file_decorators: tuple[Decorator, ...] = ()
        self.imports: list[Import] = []
        self.decls: list[Decl] = []
        self.pending: list[tuple[Node, Decorator]] = []  # decorators waiting for their item
        self.carried: list[tuple[Node, Decorator]] = []  # scalar decorators on a later line
        self.carried_pending = False  # pending holds carried decorators
        self.last_end_line = -1  # last line of the previous item, for decorator placement


def _unicode_problem(body: bytes) -> str:
    """Why a `u...` escape body is invalid, or "" when it names a character."""
    if not (body.startswith(b"u{") and body.endswith(b"}")):
        return "write \\u{XXXX} with braces"
    digits = body[2:-1]
    if not digits:
        return "no hex digits"
    if len(digits) > 6:
        return "at most 6 hex digits"
    if any(c not in b"0123456789abcdefABCDEF" for c in digits):
        return "not a hexadecimal number"
    cp = int(digits, 16)
    if cp > 0x10FFFF:
        return "beyond U+10FFFF"
    if 0xD800 <= cp <= 0xDFFF:
        return "a surrogate code point names no character"
    return ""


def _int(digits: str) -> int:
    """Decimal digits as an int; absurdly long literals (beyond Python's str->int limit)
    saturate to a value that is out of the int64 range anyway."""
    return int(digits) if len(digits) <= 40 else 10**40


def _scaled(number: str, factor: int) -> int:
    try:
        return int(Decimal(number) * factor)
    except InvalidOperation:
        return 0


def _empty_ref(span: Span) -> TypeRef:
    return TypeRef("", span, span)


def _first_leaf(node: Node) -> Node | None:
    while node.child_count:
        first = node.children[0]
        if first.start_byte >= first.end_byte and node.child_count > 1:
            first = next((c for c in node.children if c.end_byte > c.start_byte), first)
        node = first
    return node


def _where(parent: Node | None) -> str:
    where = _CONTEXT.get(parent.type, "") if parent is not None else ""
    return f" {where}" if where else ""


def _describe(node: Node) -> str:
    kind = node.type
    if kind in ("identifier", "type_identifier"):
        return "a name"
    if kind in ("type_ref", "named_type"):
        return "a type"
    if kind.isidentifier():
        return kind.replace("_", " ")
    return f"`{kind}`"


def _lexable_start(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in '_{}()[]<>,:=?./@-"`')


def _shorten(token: str) -> str:
    token = token.splitlines()[0] if token else token
    return token if len(token) <= 30 else token[:27] + "..."
