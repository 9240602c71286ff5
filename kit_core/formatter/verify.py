"""Safety checks: the formatter never changes what a file means, nor loses a comment.

:func:`shape` reduces a model to what formatting must keep: every node without its source
spans, doc comments by text, literals by spelling, with the formatter's own intended
rewrites applied (`?` added for `@default`, empty parens dropped, quoted registered
idents made bare). Two files with one shape are the same design.
"""

from __future__ import annotations

import dataclasses
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
from kit_core.source import NO_SPAN, Span


def shape(f: SourceFile) -> Any:
    """The model with positions and free comments erased and formatter rewrites applied."""
    bare = dataclasses.replace(f, path="", comments=(), parse_diagnostics=(), source="")
    return _strip(bare)


def comment_texts(f: SourceFile) -> list[str]:
    return [c.text.rstrip() for c in f.comments]


def _strip(value: Any) -> Any:
    if isinstance(value, Span):
        return NO_SPAN
    if isinstance(value, tuple):
        return tuple(_strip(v) for v in value)
    if isinstance(value, Trivia):
        return Trivia(doc=tuple(Comment(c.text.rstrip(), NO_SPAN) for c in value.doc))
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    value = _rewrite(value)
    changes = {f.name: _strip(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return dataclasses.replace(value, **changes)


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
    heads = list(_head_spans(f))
    found: list[tuple[Comment, str]] = []
    for c in f.comments:
        inside = [what for a, b, what in heads if a < c.span.start_byte < b]
        if inside:
            found.append((c, inside[0]))
    return found


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
