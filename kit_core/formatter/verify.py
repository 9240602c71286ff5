"""Safety checks: the formatter never changes what a file means, nor loses a comment.

:func:`shape` reduces a model to what formatting must keep: every node without its source
spans, doc comments by text, literals by spelling, with the formatter's own intended
rewrites applied (`?` added for `@default`, empty parens dropped, quoted registered
idents made bare). Two files with one shape are the same design.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from kit_core.formatter import render
from kit_core.formatter.registry import registered_idents
from kit_core.model import (
    Comment,
    Decorator,
    Field,
    Literal,
    LiteralKind,
    Method,
    SourceFile,
    Trivia,
    TypeRef,
)
from kit_core.source import Span


def shape(f: SourceFile) -> Any:
    """The model with positions and free comments erased and formatter rewrites applied,
    as nested tuples (comparable with ``==``)."""
    bare = dataclasses.replace(f, path="", comments=(), parse_diagnostics=(), source="")
    return _strip(bare)


def comment_texts(f: SourceFile) -> list[str]:
    return [c.text.rstrip() for c in f.comments]


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _strip(value: Any) -> Any:
    if isinstance(value, Span):
        return None
    if isinstance(value, tuple):
        return tuple(_strip(v) for v in value)
    if isinstance(value, Trivia):
        return tuple(c.text.rstrip() for c in value.doc)
    cls = type(value)
    if not dataclasses.is_dataclass(cls):
        return value
    value = _rewrite(value)
    return (cls.__name__, *(_strip(getattr(value, name)) for name in _field_names(cls)))


def _rewrite(node: Any) -> Any:
    """The rewrites the formatter performs on purpose, applied to the model."""
    if isinstance(node, Field) and render.needs_question_mark(node):
        return dataclasses.replace(node, type=dataclasses.replace(node.type, optional=True))
    if isinstance(node, Decorator):
        names = registered_idents(node.name)
        args = tuple(_bare(a, names) for a in node.args)
        return dataclasses.replace(node, args=args, has_parens=bool(args))
    if isinstance(node, Literal) and node.kind is LiteralKind.ARRAY:
        return dataclasses.replace(node, text="")
    if isinstance(node, Method):
        return dataclasses.replace(node, body_comments=())
    return node


def _bare(lit: Literal, names: frozenset[str]) -> Literal:
    if lit.kind is LiteralKind.ARRAY:
        return dataclasses.replace(lit, items=tuple(_bare(i, names) for i in lit.items))
    if render.prefers_bare(lit, names):
        return dataclasses.replace(lit, kind=LiteralKind.IDENT, text=str(lit.value))
    return lit


# --------------------------------------------------------------------------- heads


def comments_in_heads(f: SourceFile) -> list[tuple[Comment, str]]:
    """Comments written inside a construct that prints on one line (a field's name and
    type, a type reference, a decorator, a method's verb line), with what that is."""
    if not f.comments:
        return []
    heads = sorted(_head_spans(f))
    merged = _merge(heads)
    starts = [a for a, _ in merged]
    found: list[tuple[Comment, str]] = []
    for c in f.comments:
        at = c.span.start_byte
        i = bisect_right(starts, at) - 1
        if i >= 0 and merged[i][0] < at < merged[i][1]:
            what = next(w for a, b, w in heads if a < at < b)
            found.append((c, what))
    return found


def _merge(heads: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Overlapping (start, end) intervals joined (``heads`` sorted by start)."""
    out: list[tuple[int, int]] = []
    for a, b, _ in heads:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def own_line_decorators(f: SourceFile) -> set[int]:
    """ids of the decorators printed on lines of their own (file, declarations, methods):
    their argument lists may span lines and hold comments between arguments."""
    out = {id(d) for d in f.decorators}
    for decl in f.declarations:
        out |= {id(d) for d in decl.decorators if d.span.start_byte < decl.name_span.start_byte}
        for m in getattr(decl, "methods", ()):
            out |= {id(d) for d in m.decorators}
    return out


def _head_spans(f: SourceFile) -> Iterator[tuple[int, int, str]]:
    own_line = own_line_decorators(f)
    for node in _walk(f):
        if isinstance(node, Decorator):
            what = f"the decorator @{node.name}"
            if id(node) not in own_line:
                yield node.span.start_byte, node.span.end_byte, what
                continue
            yield node.span.start_byte, node.name_span.end_byte, what
            for arg in node.args:
                yield arg.span.start_byte, arg.span.end_byte, what
        elif isinstance(node, TypeRef):
            yield node.span.start_byte, node.span.end_byte, f"the type {node.text()}"
        elif isinstance(node, Field):
            yield node.name_span.start_byte, node.type.span.end_byte, f"the field {node.name}"
        elif isinstance(node, Method):
            end = node.route.span.end_byte if node.route is not None else node.name_span.end_byte
            yield node.name_span.start_byte, end, f"the method line of {node.name}"


def _walk(value: Any) -> Iterator[Any]:
    if isinstance(value, tuple):
        for v in value:
            yield from _walk(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, (Span, Trivia, Comment, type)):
        yield value
        for fld in dataclasses.fields(value):
            if fld.name not in ("source", "comments", "parse_diagnostics", "body_comments"):
                yield from _walk(getattr(value, fld.name))
