"""Middleware artefacts: GEN-ONCE scaffolds and the REGEN slots of `svccontext/middlewares.go`
(which also holds `NotImplemented`, the error fresh logic stubs return)."""

from __future__ import annotations

from kit_core import naming
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen, decl_doc, go_doc
from kit_core.generators.go.render import go_file
from kit_core.model import MiddlewareDecl


def declared(g: GoGen) -> list[MiddlewareDecl]:
    """Every middleware of the design (names are project-global), sorted by name."""
    found: dict[str, MiddlewareDecl] = {}
    for pkg in g.design.packages():
        for name, decl in pkg.middlewares.items():
            found.setdefault(name, decl)
    return [found[n] for n in sorted(found)]


def scaffold(g: GoGen, decl: MiddlewareDecl) -> OutputFile:
    imports = g.imports()
    imports.std("net/http")
    imports.std(f"{g.runtime}/server")
    path = f"{g.layout.middleware}/{naming.middleware_file(decl.name, g.layout.file_case)}"
    doc = scaffold_doc(decl)
    return go_file(path, Owner.GEN_ONCE, "middleware", "middleware.go.j2", imports, name=decl.name, doc=doc)


def scaffold_doc(decl: MiddlewareDecl) -> str:
    name = f"New{decl.name}Middleware"
    lead = (
        f"{name} returns the {decl.name} middleware. Set it on the service context\n"
        "(svccontext.NewServiceContext) so that the routes applying it receive it."
    )
    # no `Deprecated:` paragraph for @deprecated: the generated service context calls the
    # constructor, and would be using a deprecated function (staticcheck SA1019); the slot
    # type in svccontext/middlewares.go carries it
    return go_doc(name, decl.doc, (), lead)


def slots(g: GoGen, decls: list[MiddlewareDecl]) -> OutputFile:
    imports = g.imports()
    imports.std(f"{g.runtime}/server")  # slots are server.Middleware; NotImplemented wraps the server's
    path = f"{g.layout.svccontext_dir}/middlewares.go" if g.layout.svccontext_dir else "middlewares.go"
    views = [
        (d.name, decl_doc(d, f"{d.name}Middleware", f"{d.name}Middleware is the slot of the {d.name} middleware."))
        for d in decls
    ]
    return go_file(path, Owner.REGEN, "svccontext", "middlewares.go.j2", imports, middlewares=views)
