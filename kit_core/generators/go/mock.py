"""The mock build's Go files (`kit mock`): answers and logic stubs that return them.

Only under `kit mock`; `kit gen` never calls this module. The mock keeps every generated
file (handlers, decoding, `Validate()`, routes, middlewares, main) and replaces what the
user owns: each HTTP logic stub returns its method's answer (`mock_values.py`), and
`<service parent>/mockanswers/` holds one answer per design type with a test that checks
each against its type's `Validate()`.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from kit_core import naming
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go import mock_grpc
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.mock_values import PTR, Builder, Missing
from kit_core.generators.go.render import go_file, go_string
from kit_core.model import TypeDecl
from kit_core.semantics import Location, MethodInfo, TypeShape
from kit_core.semantics.http import ErrorRef
from kit_core.symbols import Kind

ANSWERS_PACKAGE = "mockanswers"


@dataclass(frozen=True, slots=True)
class Answer:
    func: str  # TodoTodo
    label: str  # todo.Todo
    type: str  # todo.Todo (Go)
    value: str  # todo.Todo{...}


@dataclass(frozen=True, slots=True)
class MockStubView:
    name: str
    params: str
    results: str
    body: list[str]
    pattern: str


def answers_dir(g: GoGen) -> str:
    return posixpath.join(posixpath.dirname(g.layout.service.rstrip("/")) or ".", ANSWERS_PACKAGE)


def func_name(shape: TypeShape) -> str:
    """`shared.Page<shop.Money>` -> `SharedPageShopMoney`."""
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^0-9A-Za-z]+", shape.text()) if p)


def generate(g: GoGen) -> tuple[list[OutputFile], list[Missing]]:
    """The answers package, one mock stub per HTTP method and one per RPC (at its stub's path)."""
    shapes = _answer_shapes(g)
    imports = g.imports()
    mapper = g.mapper(imports, ANSWERS_PACKAGE)
    builder = Builder(g, mapper)
    answers = [Answer(func_name(s), s.text(), mapper.shape(s), builder.value(s)) for s in shapes]
    folder = answers_dir(g)
    for std in ("fmt", "strings", "sync"):
        imports.std(std)
    files = [
        go_file(
            f"{folder}/answers.go",
            Owner.REGEN,
            ANSWERS_PACKAGE,
            "mock_answers.go.j2",
            imports,
            answers=answers,
            ptr=PTR,
        ),
    ]
    test_imports = g.imports()
    test_imports.std("testing")
    files.append(
        go_file(
            f"{folder}/answers_test.go",
            Owner.REGEN,
            ANSWERS_PACKAGE,
            "mock_answers_test.go.j2",
            test_imports,
            count=len(answers),
        )
    )
    names = {s: func_name(s) for s in shapes}
    files.extend(stub(g, m, names) for m in g.http.methods)
    files.extend(mock_grpc.generate(g, folder, ANSWERS_PACKAGE))
    return files, builder.missing


def _answer_shapes(g: GoGen) -> list[TypeShape]:
    """Every non-generic type of the design, then every response shape not among them."""
    out: dict[str, TypeShape] = {}
    for pkg in g.design.packages():
        for name in sorted(pkg.types):
            decl = pkg.types[name]
            # a type with a `file` field is a multipart request: never an answer
            if isinstance(decl, TypeDecl) and not decl.params and not _has_file(g, decl, pkg.name):
                s = TypeShape(Kind.TYPE, name, pkg.name, decl)
                out.setdefault(s.text(), s)
    for m in g.http.methods:
        if m.response is not None and not m.passthrough:
            s = m.response.base()
            out.setdefault(s.text(), s)
    return list(out.values())


def _has_file(g: GoGen, decl: TypeDecl, package: str) -> bool:
    return any(
        f.leaf.resolved is not None and f.leaf.resolved.kind is Kind.PRIMITIVE and f.leaf.resolved.name == "file"
        for f in g.design.flat_fields(decl, package)
    )


def stub(g: GoGen, m: MethodInfo, names: dict[TypeShape, str]) -> OutputFile:
    imports = g.imports()
    imports.std("context")
    log = g.rt(imports, "log")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    mapper = g.mapper(imports, m.package, "types")
    if m.passthrough:
        http = imports.std("net/http")
        params, results = f"w {http}.ResponseWriter, _ *{http}.Request", "error"
        body = [f"w.WriteHeader({http}.StatusNoContent)", "return nil"]
    else:
        answers = "\x00"  # the package's name once it is known to be used (else no import)
        key = _resource_key(g, m, answers)
        uses_req = key is not None and m.request is not None
        params = f"{'req' if uses_req else '_'} *{mapper.shape(m.request)}" if m.request is not None else ""
        if m.response is not None:
            results = f"(*{mapper.shape(m.response)}, error)"
            done = f"return {answers}.{names[m.response.base()]}(), nil"
            fail = "return nil, "
        else:
            results, done, fail = "error", "return nil", "return "
        body = _memory(g, m, mapper, answers, key, fail) + [done]
        if any(answers in line for line in body):
            name = imports.std(g.layout.import_path(answers_dir(g)))
            body = [line.replace(answers, name) for line in body]
    view = MockStubView(m.method.name, params, results, body, m.mux_pattern)
    path = f"{g.layout.join(g.layout.service, m.output_dir)}/{m.file_stem}.go"
    return go_file(path, Owner.REGEN, m.package, "mock_stub.go.j2", imports, s=view, log=log)


def _not_found(m: MethodInfo) -> ErrorRef | None:
    return next((e for e in m.errors if e.status == 404 or e.decl.category == "NotFound"), None)


def _resource_key(g: GoGen, m: MethodInfo, answers: str) -> str | None:
    """`answers.Key("/todos/{id}", req.ID)` for a method that deletes a resource or may
    answer that it is not found; None for the others."""
    if not m.path_vars or (m.verb != "DELETE" and _not_found(m) is None):
        return None
    values: list[str] = []
    by_wire = {b.wire_name: b for b in m.request_fields if b.location is Location.PATH}
    for var in m.path_vars:
        b = by_wire.get(var)
        if b is None:
            return None  # a base-path variable: not the method's to read
        facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
        values.append(f"*req.{facts.go_name}" if facts.pointer else f"req.{facts.go_name}")
    return f"{answers}.Key({go_string(m.full_route)}, {', '.join(values)})"


def _memory(g: GoGen, m: MethodInfo, mapper: Any, answers: str, key: str | None, fail: str) -> list[str]:
    """Statements before the answer: deletions remembered, a deleted resource not found."""
    if m.verb == "POST":
        return [f"{answers}.Created()"]
    if key is None:
        return []
    missing = _not_found(m)
    error = ""
    if missing is not None:
        builder = Builder(g, mapper)
        ctor = mapper.qualify(f"New{naming.error_go_type(missing.decl.name)}", missing.package)
        has_body = bool(missing.decl.members)
        error = f"{ctor}({builder.error_body(missing.decl, missing.package) if has_body else ''})"
    if m.verb == "DELETE":
        if not error:
            return [f"{answers}.Delete({key})"]
        return [f"if !{answers}.Delete({key}) {{\n\t{fail}{error}\n}}"]
    return [f"if {answers}.Deleted({key}) {{\n\t{fail}{error}\n}}"]
