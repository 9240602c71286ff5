"""`internal/service/<service-dir>/<method-file>.go` (GEN-ONCE): one logic stub per method."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_file, go_string
from kit_core.semantics import MethodInfo


@dataclass(frozen=True, slots=True)
class StubView:
    name: str
    params: str  # "req *types.CreateTodoReq" / "w http.ResponseWriter, r *http.Request" / ""
    results: str  # "(*types.Todo, error)" / "error"
    returns: str  # "nil, svccontext.NotImplemented(\"CreateTodo\")" / "svccontext.NotImplemented(\"CreateTodo\")"
    pattern: str


def generate(g: GoGen, m: MethodInfo) -> OutputFile:
    imports = g.imports()
    imports.std("context")
    log = g.rt(imports, "log")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    mapper = g.mapper(imports, m.package, "types")
    # the error comes from svccontext, which the stub imports anyway: a user who replaces
    # the body is left with no unused import (a runtime `server` import would be)
    returns = f"svccontext.NotImplemented({go_string(m.method.name)})"
    if m.passthrough:
        http = imports.std("net/http")
        params, results = f"w {http}.ResponseWriter, r *{http}.Request", "error"
    else:
        params = f"req *{mapper.shape(m.request)}" if m.request is not None else ""
        if m.response is not None:
            results, returns = f"(*{mapper.shape(m.response)}, error)", f"nil, {returns}"
        else:
            results = "error"
    view = StubView(m.method.name, params, results, returns, m.mux_pattern)
    path = f"{g.layout.join(g.layout.service, m.output_dir)}/{m.file_stem}.go"
    return go_file(path, Owner.GEN_ONCE, m.package, "stub.go.j2", imports, s=view, log=log)
