"""Bodies of types, errors and enums: one member per line, aligned columns.

Fields: the name is padded to the body's longest field name + 1, then the type; when the
field has decorators on its line the type is padded to the body's longest type + 1 and the
decorators follow, one space apart. Decorators written on continuation lines join the
field's line, unless comments sit among them: a single trailing comment moves to the end
of the field line, several comments keep their decorators on continuation lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit_core.formatter import render
from kit_core.formatter.emitter import Emitter, Kind, Scope, body_policy
from kit_core.model import Decorator, EnumValue, Field, LiteralKind, Member, Mixin


@dataclass(frozen=True, slots=True)
class _Widths:
    name: int
    type: int


def print_members(em: Emitter, members: Sequence[Member], indent: int, close_at: int) -> None:
    scope = Scope(indent, body_policy)
    fields = [m for m in members if isinstance(m, Field)]
    widths = _field_widths(fields)
    for m in members:
        if isinstance(m, Mixin):
            em.item(scope, Kind.MEMBER, em.code_start(m.span.start_byte), render.type_ref(m.ref))
        else:
            _print_field(em, scope, m, widths)
    em.close(scope, close_at, indent - 1, "}")


def _field_widths(fields: Sequence[Field]) -> _Widths:
    """Both columns are as wide as the body's longest name and longest type (dsl-facts §5.1)."""
    name = max((len(f.name) for f in fields), default=0)
    return _Widths(name, max((len(render.field_type(f)) for f in fields), default=0))


def _above(f: Field) -> list[Decorator]:
    return [d for d in f.decorators if d.span.start_byte < f.name_span.start_byte]


def _after(f: Field) -> list[Decorator]:
    return [d for d in f.decorators if d.span.start_byte >= f.name_span.start_byte]


def _keeps_above_lines(em: Emitter, f: Field) -> bool:
    above = _above(f)
    return bool(above) and bool(em.comments_between(above[0].span.start_byte, f.name_span.start_byte))


def _print_field(em: Emitter, scope: Scope, f: Field, widths: _Widths) -> None:
    above, groups = _above(f), decorator_lines(em, f.type.span.end_byte, _after(f))
    if _keeps_above_lines(em, f):
        em.item(scope, Kind.MEMBER, above[0].span.start_byte, render.decorator(above[0]))
        for d in above[1:]:
            em.piece(scope.indent, d.span.start_byte, render.decorator(d))
        first = groups[0] if groups else []
        em.piece(scope.indent, f.name_span.start_byte, _with_decorators(f, widths, first))
    else:
        first = above + (groups[0] if groups else [])
        start = above[0].span.start_byte if above else f.name_span.start_byte
        em.item(scope, Kind.MEMBER, start, _with_decorators(f, widths, first))
    for group in groups[1:]:
        em.piece(scope.indent + 1, group[0].span.start_byte, render.decorators(group))


def _with_decorators(f: Field, widths: _Widths, decorators: Sequence[Decorator]) -> str:
    name = f.name.ljust(widths.name) + " "
    if not decorators:
        return name + render.field_type(f)
    return name + render.field_type(f).ljust(widths.type) + " " + render.decorators(decorators)


def decorator_lines(em: Emitter, head_end: int, decorators: Sequence[Decorator]) -> list[list[Decorator]]:
    """Decorators trailing a member, grouped into lines.

    The first group goes on the member's line (it may be empty). A single trailing comment
    among them moves to the line end (one group); otherwise each comment ends a line.
    """
    if not decorators:
        return []
    among = em.comments_between(head_end, em.line_end(decorators[-1].span.end_byte))
    if len(among) <= 1 and all(em.is_trailing(c) for c in among):
        return [list(decorators)]
    groups: list[list[Decorator]] = [[]]
    prev_end = head_end
    for d in decorators:
        if em.comments_between(prev_end, d.span.start_byte):
            groups.append([])
        groups[-1].append(d)
        prev_end = d.span.end_byte
    return groups


# --------------------------------------------------------------------------- enums


def print_enum_values(em: Emitter, values: Sequence[EnumValue], indent: int, close_at: int) -> None:
    scope = Scope(indent, body_policy)
    width = max((len(v.name) for v in values if v.value is not None), default=0)
    for v in values:
        head = v.name if v.value is None else v.name.ljust(width) + " = " + _enum_literal(v)
        head_end = v.value.span.end_byte if v.value is not None else v.name_span.end_byte
        groups = decorator_lines(em, head_end, v.decorators)
        first = groups[0] if groups else []
        text = head + (" " + render.decorators(first) if first else "")
        em.item(scope, Kind.MEMBER, v.name_span.start_byte, text)
        for group in groups[1:]:
            em.piece(indent + 1, group[0].span.start_byte, render.decorators(group))
    em.close(scope, close_at, indent - 1, "}")


def _enum_literal(v: EnumValue) -> str:
    assert v.value is not None
    if v.value.kind is LiteralKind.ARRAY:
        return render.literal(v.value)
    return v.value.text
