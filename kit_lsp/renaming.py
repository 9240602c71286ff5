"""What a rename renames, from anywhere it is written, and every place it is written.

Renamable: top-level declarations (type, enum, scalar, error, middleware, service, event),
enum values, methods and fields. The cursor may be on the declaration or on any use:
a type reference (`shared.Money` in another package too), a middleware or error named in a
decorator, an `extend service` name, a field named in `@requiresOneOf`/`@mutuallyExclusive`,
a path variable `{id}` bound to a field, an enum value in `@default(...)`.

The uses of a field are the cross-field decorators of every type that has it (mixins
included) and the path variables (route and `@prefix`) bound to it by a bare `@path`. A
field's `@json` key, and the wire name given to `@path("x")`, `@query("x")`..., are the wire
contract and are left as they are; without them the wire name follows the field's name.

Whether a new name is acceptable is decided by the analyzer itself (`problem`): the renamed
design is analysed, and a rename that brings a new error (a collision, a Go name clash, a
route variable without its field...) is refused with that error's message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from kit_core.analyzer import analyze
from kit_core.diagnostics import Diagnostic, Severity
from kit_core.lower import parse_file
from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    EnumValue,
    ErrorDecl,
    EventDecl,
    Field,
    Literal,
    LiteralKind,
    Method,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)
from kit_core.semantics.types import TypeIndex
from kit_core.source import Span
from kit_core.symbols import PRIMITIVES, Kind
from kit_core.words import KEYWORDS
from kit_lsp.locate import target_at
from kit_lsp.refs import references, resolve
from kit_lsp.state import View

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CROSS_FIELD = ("requiresOneOf", "mutuallyExclusive")
COLLISION_WARNINGS = frozenset({"enum/value-collision", "field/name-collision"})
DECL, FIELD, VALUE, METHOD = "declaration", "field", "enum value", "method"


@dataclass(frozen=True, slots=True)
class Symbol:
    kind: str  # DECL, FIELD, VALUE or METHOD
    node: Decl | Field | EnumValue | Method
    owner: Decl  # the declaration itself, or the one holding the field, value or method
    package: str | None  # the owner's package

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def name_span(self) -> Span:
        return self.node.name_span


# --------------------------------------------------------------------------- under the cursor


def symbol_at(view: View, offset: int) -> tuple[Symbol, Span] | None:
    """The renamable symbol at the cursor and the span of the name written there."""
    target = target_at(view.file, offset)
    package = view.file.package
    if target is not None and target.kind == "ref":
        if offset < target.node.span.start_byte:
            return None  # on the `pkg.` qualifier
        decl = resolve(view.symbols, target.node)
        return (_decl_symbol(view, decl), target.node.span) if decl is not None else None
    if target is not None and target.kind == "decl":
        return _decl_symbol(view, target.node), target.span
    if target is not None and target.kind == "field" and target.decl is not None:
        return Symbol(FIELD, target.node, target.decl, package), target.span
    if target is not None and target.kind == "enum_value" and target.decl is not None:
        return Symbol(VALUE, target.node, target.decl, package), target.span
    if target is not None and target.kind == "method" and target.decl is not None:
        return Symbol(METHOD, target.node, target.decl, package), target.span
    if target is not None and target.kind == "decorator":
        return _in_decorator(view, target.node, target.decl, target.field, offset)
    return _path_variable(view, offset)


def _decl_symbol(view: View, decl: Decl) -> Symbol:
    if isinstance(decl, ServiceDecl) and decl.extend:
        primary = resolve_service(view, decl)
        decl = primary if primary is not None else decl
    return Symbol(DECL, decl, decl, _package_of(view, decl))


def resolve_service(view: View, block: ServiceDecl) -> ServiceDecl | None:
    for pkg in view.symbols.packages.values():
        for candidate in pkg.services.get(block.name, []):
            if not candidate.extend and any(b is block for b in pkg.services[block.name]):
                return candidate
    return None


def _package_of(view: View, decl: Decl) -> str | None:
    for f in view.files:
        if any(d is decl for d in f.declarations):
            return f.package
    return None


def _flat(args: tuple[Literal, ...]) -> Iterator[Literal]:
    for a in args:
        if a.kind is LiteralKind.ARRAY:
            yield from _flat(a.items)
        else:
            yield a


def _arg_at(d: Decorator, offset: int) -> Literal | None:
    for arg in _flat(d.args):
        if arg.kind is LiteralKind.IDENT and arg.span.start_byte <= offset <= arg.span.end_byte:
            return arg
    return None


def _in_decorator(
    view: View, d: Decorator, decl: Decl | None, fld: Field | None, offset: int
) -> tuple[Symbol, Span] | None:
    arg = _arg_at(d, offset)
    package = view.file.package
    if arg is None or package is None:
        return None
    index = TypeIndex(view.symbols)
    if d.name in CROSS_FIELD and isinstance(decl, TypeDecl | ErrorDecl):
        for ef in index.fields(decl, package):
            if ef.name == arg.value:
                return Symbol(FIELD, ef.field, ef.owner, ef.owner_package), arg.span
    if d.name == "default" and fld is not None and isinstance(decl, TypeDecl | ErrorDecl):
        enum = _enum_of(index, fld, decl, package)
        value = next((v for v in enum.values if v.name == arg.value), None) if enum is not None else None
        if enum is not None and value is not None:
            return Symbol(VALUE, value, enum, _package_of(view, enum)), arg.span
    return None


def _enum_of(index: TypeIndex, fld: Field, owner: TypeDecl | ErrorDecl, package: str) -> EnumDecl | None:
    params = tuple(p.name for p in owner.params) if isinstance(owner, TypeDecl) else ()
    shape = index.shape(fld.type, package, params)
    return shape.decl if shape.kind is Kind.ENUM and isinstance(shape.decl, EnumDecl) else None


def _path_variable(view: View, offset: int) -> tuple[Symbol, Span] | None:
    for decl in view.file.declarations:
        if not isinstance(decl, ServiceDecl) or not (decl.span.start_byte <= offset <= decl.span.end_byte):
            continue
        for m in decl.methods:
            for seg in m.route.segments if m.route is not None else ():
                span = var_span(seg.span, seg.var) if seg.var else None
                if span is not None and span.start_byte <= offset <= span.end_byte:
                    found = _path_field(view, decl, m, seg.var or "")
                    return (found, span) if found is not None else None
    return None


def _path_field(view: View, service: ServiceDecl, m: Method, var: str) -> Symbol | None:
    """The request field a bare `@path` binds to the variable ``var``."""
    package = _package_of(view, service)
    if m.request is None or package is None:
        return None
    index = TypeIndex(view.symbols)
    for ef in index.fields_of(index.shape(m.request, package)):
        path = ef.field.decorator("path")
        if path is not None and not path.args and ef.name == var:
            return Symbol(FIELD, ef.field, ef.owner, ef.owner_package)
    return None


def var_span(segment: Span, var: str) -> Span:
    """The variable's name inside a `{var}` or `{var...}` segment."""
    return sub_span(segment, 1, len(var))


def sub_span(span: Span, start: int, length: int) -> Span:
    """``length`` ASCII characters from ``start`` bytes into a one-line span."""
    return Span(
        span.path,
        span.start_byte + start,
        span.start_byte + start + length,
        span.start_line,
        span.start_col + start,
        span.start_line,
        span.start_col + start + length,
        span.start_col16 + start,
        span.start_col16 + start + length,
    )


# --------------------------------------------------------------------------- every place


def occurrences(view: View, symbol: Symbol, checkpoint: Callable[[], None] = lambda: None) -> list[Span]:
    """The declaration's name and every use of it, across the design."""
    spans = [symbol.name_span]
    if symbol.kind == DECL and not isinstance(symbol.node, EventDecl):
        spans += [r.span for r in references(view.symbols, view.files, symbol.owner)]
    elif symbol.kind == FIELD:
        spans += _field_uses(view, symbol, checkpoint)
    elif symbol.kind == VALUE:
        spans += _value_uses(view, symbol, checkpoint)
    return _unique(spans)


def _unique(spans: list[Span]) -> list[Span]:
    seen: set[tuple[str, int]] = set()
    out = []
    for s in spans:
        if (s.path, s.start_byte) not in seen:
            seen.add((s.path, s.start_byte))
            out.append(s)
    return out


def _owners(view: View) -> Iterator[tuple[SourceFile, TypeDecl | ErrorDecl]]:
    for f in view.files:
        for decl in f.declarations:
            if isinstance(decl, TypeDecl | ErrorDecl) and f.package is not None:
                yield f, decl


def _field_uses(view: View, symbol: Symbol, checkpoint: Callable[[], None]) -> list[Span]:
    index = TypeIndex(view.symbols)
    field = symbol.node
    out: list[Span] = []
    for f, decl in _owners(view):
        checkpoint()
        if not any(ef.field is field for ef in index.fields(decl, f.package or "")):
            continue
        for d in decl.decorators:
            if d.name in CROSS_FIELD:
                out += [a.span for a in _flat(d.args) if a.kind is LiteralKind.IDENT and a.value == symbol.name]
    path = field.decorator("path") if isinstance(field, Field) else None
    if path is not None and not path.args:
        out += _route_uses(view, index, symbol)
    return out


def _route_uses(view: View, index: TypeIndex, symbol: Symbol) -> list[Span]:
    out: list[Span] = []
    for f in view.files:
        for decl in f.declarations:
            if not isinstance(decl, ServiceDecl) or f.package is None:
                continue
            bound = [
                m
                for m in decl.methods
                if m.request is not None
                and any(ef.field is symbol.node for ef in index.fields_of(index.shape(m.request, f.package)))
            ]
            for m in bound:
                segments = m.route.segments if m.route is not None else ()
                out += [var_span(s.span, symbol.name) for s in segments if s.var == symbol.name]
            if bound:
                out += _prefix_uses(decl, symbol.name)
    return out


def _prefix_uses(service: ServiceDecl, var: str) -> list[Span]:
    prefix = service.decorator("prefix")
    arg = prefix.args[0] if prefix is not None and prefix.args else None
    if arg is None or not arg.is_string or arg.span.start_line != arg.span.end_line:
        return []
    token = "{" + var + "}"
    return [sub_span(arg.span, m.start() + 1, len(var)) for m in re.finditer(re.escape(token), arg.text)]


def _value_uses(view: View, symbol: Symbol, checkpoint: Callable[[], None]) -> list[Span]:
    index = TypeIndex(view.symbols)
    out: list[Span] = []
    for f, decl in _owners(view):
        checkpoint()
        for fld in decl.fields:
            default = fld.decorator("default")
            if default is None or _enum_of(index, fld, decl, f.package or "") is not symbol.owner:
                continue
            out += [a.span for a in _flat(default.args) if a.kind is LiteralKind.IDENT and a.value == symbol.name]
    return out


# --------------------------------------------------------------------------- is the new name fine


def syntax_problem(symbol: Symbol, new: str) -> str | None:
    """What the name itself breaks, before looking at the design."""
    if not _IDENT.fullmatch(new):
        return f"{new!r} is not a valid identifier (letters, digits and `_`, not starting with a digit)"
    if symbol.kind in (FIELD, VALUE):
        if symbol.kind == FIELD and not (new[0].islower() or new[0] == "_"):
            return f"{new!r}: a field name starts with a lower-case letter (an upper-case one reads as a mixin)"
        return None
    if new in KEYWORDS:
        return f"{new!r} is a reserved word"
    if new in PRIMITIVES:
        return f"{new!r} is a built-in type name"
    if not new[0].isupper() and not (symbol.kind == DECL and isinstance(symbol.node, ServiceDecl)):
        return f"{new!r} must start with an upper-case letter (it becomes an exported Go name)"
    return None


def renamed_files(view: View, spans: list[Span], new: str) -> dict[str, SourceFile]:
    """The files the rename touches, parsed again with the new name written in."""
    by_path: dict[str, list[Span]] = {}
    for s in spans:
        by_path.setdefault(s.path, []).append(s)
    out: dict[str, SourceFile] = {}
    for path, edits in by_path.items():
        f = view.file_of(path)
        if f is None:
            continue
        data = f.source.encode("utf-8", "surrogatepass")
        for s in sorted(edits, key=lambda s: s.start_byte, reverse=True):
            data = data[: s.start_byte] + new.encode() + data[s.end_byte :]
        out[path] = parse_file(path, data)
    return out


def problem(view: View, symbol: Symbol, new: str, spans: list[Span]) -> str | None:
    """None when the design renamed has no new error (nor a new name collision)."""
    first = syntax_problem(symbol, new)
    if first is not None or new == symbol.name:
        return first
    changed = renamed_files(view, spans, new)
    files = [changed.get(f.path, f) for f in view.files]
    manifest = view.snapshot.manifest
    current = all(view.snapshot.files.get(f.path) is f for f in view.files)
    found = view.snapshot.diagnostics if current else analyze(view.files, manifest).diagnostics
    before = _counted(found, symbol.name, new)
    for d in analyze(files, manifest).diagnostics:
        key = (d.code, d.message)
        if not _counts(d):
            continue
        if before.get(key, 0) > 0:
            before[key] -= 1
            continue
        return f"renaming {symbol.name} to {new} would give {d.code}: {d.message}"
    return None


def _counts(d: Diagnostic) -> bool:
    return d.severity is Severity.ERROR or d.code in COLLISION_WARNINGS


def _counted(diags: Iterable[Diagnostic], old: str, new: str) -> dict[tuple[str, str], int]:
    """Existing problems, their messages as the rename will spell them."""
    out: dict[tuple[str, str], int] = {}
    word = re.compile(rf"\b{re.escape(old)}\b")
    for d in diags:
        if _counts(d):
            key = (d.code, word.sub(new, d.message))
            out[key] = out.get(key, 0) + 1
    return out
