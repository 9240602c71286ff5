"""`internal/types/<pkg>/errors.go`: typed errors (dsl-facts §3.4)."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core import naming
from kit_core.error_categories import ERROR_CATEGORIES
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.fill import Filler
from kit_core.generators.go.gocontext import GoGen, decl_doc
from kit_core.generators.go.headers import header_writes
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.render import go_file
from kit_core.generators.go.statuses import go_status
from kit_core.generators.go.types import MemberView, aligned, field_view
from kit_core.model import ErrorDecl, Mixin
from kit_core.symbols import Package


@dataclass(frozen=True, slots=True)
class ErrorView:
    name: str
    go_type: str
    code_const: str
    code: str
    status: int
    status_go: str  # `http.StatusConflict`
    message: str
    doc: str
    body: list[MemberView] | None  # None: no body struct
    json_body: bool  # at least one field travels in the JSON body
    fill: list[str]  # FillEmpty statements on the copy `b`
    headers: list[str]  # WriteResponseHeaders statements (receiver e)
    unmarshal: bool  # the body embeds a type with UnmarshalJSON, which must not be promoted


def generate(g: GoGen, pkg: Package) -> OutputFile | None:
    if not pkg.errors:
        return None
    imports = g.imports()
    imports.std("encoding/json")
    imports.std("net/http")  # HTTPStatus answers net/http's status constants
    views = [error_view(g, imports, pkg.errors[n], pkg.name) for n in sorted(pkg.errors)]
    path = f"{g.layout.types_dir(pkg.name)}/errors.go"
    return go_file(path, Owner.REGEN, pkg.name, "errors.go.j2", imports, errors=views)


def error_view(g: GoGen, imports: ImportSet, decl: ErrorDecl, package: str) -> ErrorView:
    mapper = g.mapper(imports, package)
    category = ERROR_CATEGORIES[decl.category]
    members: list[MemberView] = []
    for m in g.design.members(decl, package):
        if isinstance(m, Mixin):
            members.append(MemberView("", "", mapper.base(m.ref, package), ""))
        else:
            members.append(field_view(g, mapper, m))
    own = g.design.fields_of(decl, package)
    json_body = bool(decl.mixins) or any(
        not f.sensitive and f.explicit_binding not in ("header", "cookie") for f in own
    )
    flat = g.design.flat_fields(decl, package)
    headers = header_writes(g.design, flat, "e", imports)
    fill = Filler(g.design, g.needs, mapper).statements(decl, package, recv="b") if json_body else []
    unmarshal = any(_unmarshals(g, m, package) for m in decl.mixins)
    if unmarshal:
        imports.std("bytes")
    go_type = naming.error_go_type(decl.name)
    return ErrorView(
        name=decl.name,
        go_type=go_type,
        code_const=f"ErrCode{decl.name}",
        code=naming.screaming_snake(decl.name),
        status=category.status,
        status_go=go_status(category.status),
        message=category.message,
        doc=decl_doc(decl, go_type, f"{go_type} is answered with HTTP status {category.status}."),
        body=aligned(members) if members else None,
        json_body=json_body,
        fill=fill,
        headers=headers,
        unmarshal=unmarshal,
    )


def _unmarshals(g: GoGen, m: Mixin, package: str) -> bool:
    inner = g.design.type_decl(g.design.resolve(m.ref, package))
    return inner is not None and g.needs.unmarshals(inner)
