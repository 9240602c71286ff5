"""Completion items by cursor context (dsl-facts §6.1 table). Pure: text + symbols in,
items out. Decorators, formats, categories and argument kinds come from the registry."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as lsp

from kit_core.decorators import DECORATORS, ERROR_CATEGORIES, FORMATS, ArgKind, Family, RefKind, Site, lookup
from kit_core.manifest import Manifest
from kit_core.model import Decl, EnumDecl, ErrorDecl, MiddlewareDecl, ScalarDecl, ServiceDecl, SourceFile, TypeDecl
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES, PRIMITIVES, SymbolTable
from kit_lsp import context as ctx
from kit_lsp import describe

CK = lsp.CompletionItemKind
_DECL_KIND = {
    TypeDecl: CK.Struct,
    ErrorDecl: CK.Struct,
    EnumDecl: CK.Enum,
    ScalarDecl: CK.Unit,
    MiddlewareDecl: CK.Function,
    ServiceDecl: CK.Interface,
}
DURATIONS = ("100ms", "500ms", "1s", "5s", "10s", "30s", "1m", "5m")
SIZES = ("1KB", "10KB", "100KB", "1MB", "10MB", "100MB")
SUCCESS_STATUS = {
    200: "OK",
    201: "Created",
    202: "Accepted",
    204: "No Content",
    301: "Moved Permanently",
    302: "Found",
    303: "See Other",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
}
_TYPE_POSITION = re.compile(r"(^\s*[A-Za-z_]\w*\s+[\w.]*$)|([<,]\s*[\w.]*$)|(^\s*scalar\s+\w+\s+\w*$)")
_MESSAGE_POSITION = re.compile(r"\b(request|response|payload)\s+[\w.]*$")


@dataclass
class Request:
    source: bytes
    offset: int  # byte offset of the cursor
    line_prefix: str
    following: str
    package: str | None
    symbols: SymbolTable
    manifest: Manifest | None
    root: Path | None


def complete(req: Request) -> list[lsp.CompletionItem]:
    where = ctx.container(req.source, req.offset)
    prefix = req.line_prefix
    call = ctx.decorator_call(prefix)
    if call is not None:
        return _arguments(req, call, where)
    if re.search(r"@\w*$", prefix):
        at = prefix[: prefix.rfind("@")]
        return _decorators(req, ctx.decorator_sites(where, at, req.following), at, where)
    if re.search(r"^\s*import\s+(\w+\s+)?\"[^\"]*$", prefix):
        return _import_dirs(req)
    if re.search(r"^\s*error\s+\w*$", prefix) and where.kind == ctx.TOP:
        return [
            _item(c.name, CK.EnumMember, f"HTTP {c.status}", describe.category(c.name))
            for c in ERROR_CATEGORIES.values()
        ]
    if re.search(r"^\s*extend\s+service\s+\w*$", prefix):
        return _services(req)
    qualified = re.search(r"([A-Za-z_]\w*)\.\w*$", prefix)
    if qualified and qualified.group(1) in req.symbols.packages:
        messages_only = bool(_MESSAGE_POSITION.search(prefix))
        return _package_decls(req, qualified.group(1), qualify=False, messages_only=messages_only)
    if _MESSAGE_POSITION.search(prefix):
        return _types(req, messages_only=True)
    return _by_container(req, where, prefix)


def _by_container(req: Request, where: ctx.Container, prefix: str) -> list[lsp.CompletionItem]:
    words = prefix.split()
    at_start = len(words) <= 1 and not prefix.endswith(" ") if words else True
    if where.kind == ctx.SERVICE_BODY and at_start:
        return [_item(v, CK.Keyword, "HTTP method", data={"verb": v}) for v in describe.VERBS]
    if where.kind == ctx.METHOD_BODY:
        return [_item(k, CK.Keyword) for k in ("request", "response")]
    if where.kind == ctx.EVENT_BODY:
        return [_item("payload", CK.Keyword)]
    if where.kind in (ctx.TYPE_BODY, ctx.ERROR_BODY) and not at_start:
        return _types(req, params=_params(where.head))
    if _TYPE_POSITION.search(prefix) and where.kind == ctx.TOP and words and words[0] == "scalar":
        return [_item(p, CK.Keyword, "primitive", data={"primitive": p}) for p in sorted(PRIMITIVES)]
    if where.kind == ctx.TOP and at_start:
        return [*(_item(k, CK.Keyword) for k in _TOP_KEYWORDS), *_types(req, include_all=True)]
    if where.kind in (ctx.TYPE_BODY, ctx.ERROR_BODY):
        return _types(req, params=_params(where.head))  # a mixin
    return []


_TOP_KEYWORDS = (
    "package",
    "import",
    "type",
    "enum",
    "error",
    "scalar",
    "middleware",
    "service",
    "extend",
    "event",
)


def _params(head: str) -> tuple[str, ...]:
    m = re.search(r"<([^>]*)>", head)
    return tuple(p.strip() for p in m.group(1).split(",") if p.strip()) if m else ()


# --------------------------------------------------------------------------- items


def _item(
    label: str,
    kind: lsp.CompletionItemKind,
    detail: str | None = None,
    doc: str | None = None,
    sort: str | None = None,
    data: dict[str, object] | None = None,
) -> lsp.CompletionItem:
    documentation = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc) if doc else None
    return lsp.CompletionItem(
        label=label, kind=kind, detail=detail, documentation=documentation, sort_text=sort, data=data
    )


def _decl_item(decl: Decl, label: str, package: str | None = None) -> lsp.CompletionItem:
    """Documentation is filled in by `completionItem/resolve` (keeps long lists small)."""
    kind = _DECL_KIND.get(type(decl), CK.Struct)
    return _item(label, kind, _kind_word(decl), data={"package": package, "name": decl.name})


def _kind_word(decl: Decl) -> str:
    if isinstance(decl, ErrorDecl):
        return f"error {decl.category}"
    if isinstance(decl, ScalarDecl):
        return f"scalar {decl.primitive.text()}"
    return type(decl).__name__.removesuffix("Decl").lower()


def _types(
    req: Request, messages_only: bool = False, params: tuple[str, ...] = (), include_all: bool = False
) -> list[lsp.CompletionItem]:
    """Built-ins, type parameters, the own package's declarations; other packages as `pkg`
    (their declarations come after `pkg.`, or as `pkg.Name` once a prefix is typed)."""
    items: list[lsp.CompletionItem] = []
    if not messages_only and not include_all:
        items += [_item(p, CK.Keyword, "built-in type", sort="2" + p, data={"primitive": p}) for p in PRIMITIVES]
        items.append(_item("map", CK.Keyword, "map<K, V>", sort="2map", data={"primitive": "map"}))
        items += [_item(p, CK.TypeParameter, "type parameter", sort="0" + p) for p in params]
    word = ctx.word_before(req.line_prefix)
    for name in req.symbols.packages:
        if name == req.package:
            items += _package_decls(req, name, False, messages_only, include_all)
        elif word:
            found = _package_decls(req, name, True, messages_only, include_all)
            items += [i for i in found if _matches(word, i.label)]
        else:
            items.append(
                lsp.CompletionItem(
                    label=name, kind=CK.Module, detail="package", insert_text=name + ".", sort_text="4" + name
                )
            )
    return items


def _matches(word: str, label: str) -> bool:
    word, label = word.lower(), label.lower()
    return label.startswith(word) or label.rpartition(".")[2].startswith(word)


def _package_decls(
    req: Request, package: str, qualify: bool, messages_only: bool = False, include_all: bool = False
) -> list[lsp.CompletionItem]:
    pkg = req.symbols.packages.get(package)
    if pkg is None:
        return []
    decls: Iterable[Decl] = (
        pkg.types.values()
        if messages_only
        else [*pkg.types.values(), *pkg.enums.values(), *pkg.scalars.values(), *pkg.errors.values()]
    )
    if include_all:
        decls = [*decls, *pkg.middlewares.values()]
    prefix, sort = (f"{package}.", "3") if qualify else ("", "1")
    items = []
    for d in decls:
        item = _decl_item(d, prefix + d.name, package)
        item.sort_text = sort + d.name
        items.append(item)
    return items


def _services(req: Request) -> list[lsp.CompletionItem]:
    pkg = req.symbols.packages.get(req.package or "")
    if pkg is None:
        return []
    return [_decl_item(blocks[0], name, pkg.name) for name, blocks in pkg.services.items() if blocks]


def _import_dirs(req: Request) -> list[lsp.CompletionItem]:
    if req.root is None:
        return []
    out = []
    for dirpath, dirnames, _ in os.walk(req.root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("vendor", "node_modules"))
        rel = os.path.relpath(dirpath, req.root)
        if rel != ".":
            out.append(_item(rel.replace(os.sep, "/"), CK.Module, "package directory"))
    return out


# --------------------------------------------------------------------------- decorators


def _decorators(req: Request, sites: frozenset[Site], before: str, where: ctx.Container) -> list[lsp.CompletionItem]:
    family = _field_family(req, before, where) if sites & {Site.FIELD, Site.ERROR_FIELD, Site.SCALAR} else None
    items = []
    for spec in DECORATORS:
        if not spec.sites & sites:
            continue
        if spec.family is not None and family is not None and spec.family is not family:
            continue
        sort = f"{_decorator_tier(spec.name, spec.family, spec.binding)}{spec.name}"
        items.append(_item(spec.name, CK.Function, spec.summary, sort=sort, data={"decorator": spec.name}))
    return items


_RARE = frozenset({"deprecated", "sensitive", "passthrough", "ignoreMiddleware", "ignoreSecurity", "ignoreTags"})


def _decorator_tier(name: str, family: Family | None, binding: str | None) -> int:
    """Most likely first: validators (those that fit the field's type: the others are not
    offered), then the rest, then bindings, then decorators that change a lot when added."""
    if family is not None:
        return 0
    if name in _RARE:
        return 3
    return 2 if binding is not None else 1


def _field_family(req: Request, before: str, where: ctx.Container) -> Family | None:
    """The validator family of the field (or scalar) on the cursor's line; None = unknown."""
    words = before.split()
    if not words or words[0].startswith("@"):
        return None
    type_text = words[2] if words[0] == "scalar" and len(words) > 2 else words[1] if len(words) > 1 else ""
    base = type_text.rstrip("?")
    if base.endswith("[]") or base.startswith("map<"):
        return Family.ARRAY
    return _family_of(req, base)


def _family_of(req: Request, name: str) -> Family | None:
    if name in ("string", "bytes"):
        return Family.STRING
    if name in INT_PRIMITIVES or name in FLOAT_PRIMITIVES:
        return Family.NUMBER
    if name == "file":
        return Family.FILE
    qualifier, _, base = name.rpartition(".")
    pkg = req.symbols.packages.get(qualifier or req.package or "")
    scalar = pkg.scalars.get(base) if pkg is not None else None
    if scalar is not None and scalar.primitive.name in PRIMITIVES:
        return _family_of(req, scalar.primitive.name)
    return None


def _arguments(req: Request, call: ctx.Call, where: ctx.Container) -> list[lsp.CompletionItem]:
    spec = lookup(call.name)
    param = spec.param_for(call.index) if spec is not None else None
    if spec is None or param is None or call.in_string:
        return []
    qualified = re.search(r"([A-Za-z_]\w*)\.\w*$", req.line_prefix)
    owner = req.symbols.packages.get(qualified.group(1)) if qualified else None
    if owner is not None and param.refers in (RefKind.MIDDLEWARE, RefKind.ERROR):  # after `pkg.`
        decls = owner.middlewares if param.refers is RefKind.MIDDLEWARE else owner.errors
        return [_decl_item(d, d.name, owner.name) for d in decls.values()]
    if param.refers is RefKind.MIDDLEWARE:
        return [_decl_item(m, m.name, p.name) for p in req.symbols.packages.values() for m in p.middlewares.values()]
    if param.refers is RefKind.ERROR:
        return [
            _decl_item(e, e.name if p.name == req.package else f"{p.name}.{e.name}", p.name)
            for p in req.symbols.packages.values()
            for e in p.errors.values()
        ]
    if param.refers is RefKind.SCHEME:
        schemes = req.manifest.openapi.security_schemes if req.manifest is not None else {}
        return [_item(s, CK.Value, "security scheme") for s in schemes]
    if param.refers is RefKind.FORMAT:
        return [_item(f.name, CK.EnumMember, f.label, f.accepts) for f in FORMATS.values()]
    if param.refers is RefKind.ENUM_VALUE or call.name == "default":
        return _enum_values(req)
    if call.name == "status":
        return _statuses()
    if ArgKind.DURATION in param.kinds:
        return [_item(d, CK.Value, "duration", sort=f"{i:02}") for i, d in enumerate(DURATIONS)]
    if ArgKind.SIZE in param.kinds:
        return [_item(s, CK.Value, "size", sort=f"{i:02}") for i, s in enumerate(SIZES)]
    return []


def _enum_values(req: Request) -> list[lsp.CompletionItem]:
    words = req.line_prefix.split()
    if len(words) < 2:
        return []
    qualifier, _, name = words[1].rstrip("?").rpartition(".")
    pkg = req.symbols.packages.get(qualifier or req.package or "")
    enum = pkg.enums.get(name) if pkg is not None else None
    if enum is None:
        return []
    return [_item(v.name, CK.EnumMember, f"{enum.name} value", v.trivia.doc_text) for v in enum.values]


def _statuses() -> list[lsp.CompletionItem]:
    items = [_item(str(code), CK.Value, phrase) for code, phrase in SUCCESS_STATUS.items()]
    items += [_item(str(c.status), CK.Value, f"{c.name}: {c.message}") for c in ERROR_CATEGORIES.values()]
    return items


def resolve_documentation(item: lsp.CompletionItem, symbols: SymbolTable | None, files: dict[str, object]) -> None:
    """Fill in an item's documentation from its ``data`` (`completionItem/resolve`)."""
    data = item.data if isinstance(item.data, dict) else {}
    text: str | None = None
    if "decorator" in data:
        text = describe.decorator(str(data["decorator"]))
    elif "primitive" in data:
        text = describe.primitive(str(data["primitive"]))
    elif "verb" in data:
        text = describe.verb(str(data["verb"]))
    elif "name" in data and symbols is not None:
        text = _decl_doc(symbols, files, data.get("package"), str(data["name"]))
    if text:
        item.documentation = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)


def _decl_doc(symbols: SymbolTable, files: dict[str, object], package: object, name: str) -> str | None:
    pkg = symbols.packages.get(str(package)) if package else None
    if pkg is None:
        return None
    decl = pkg.lookup(name) or pkg.middlewares.get(name) or next(iter(pkg.services.get(name, [])), None)
    file = files.get(decl.name_span.path) if decl is not None else None

    if decl is None or not isinstance(file, SourceFile):
        return decl.doc if decl is not None else None
    return describe.declaration(decl, file)
