"""The wiring package: `Register(ctx, srv, svcCtx) error`, one call whatever the design holds."""

from __future__ import annotations

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_file


def generate(g: GoGen, has_routes: bool) -> OutputFile:
    imports = g.imports()
    imports.std("context")
    imports.std(f"{g.runtime}/server")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    applied = sorted({mw for m in g.http.methods for mw in m.middlewares})
    if applied:
        imports.std("fmt")
        imports.std("strings")
    if has_routes:
        imports.std(g.layout.import_path(g.layout.routes))
    path = f"{g.layout.wiring}/wiring.go"
    return go_file(path, Owner.REGEN, "wiring", "wiring.go.j2", imports, applied=applied, has_routes=has_routes)
