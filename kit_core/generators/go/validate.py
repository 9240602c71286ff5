"""`internal/types/<pkg>/validate.go`: `Validate()` per type or scalar that has something to check."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go import instances
from kit_core.generators.go.align import align
from kit_core.generators.go.checks import Emitter, FieldChecks, PackageHelpers
from kit_core.generators.go.design import VALIDATORS, Leaf, arg_strings
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.needs import CROSS_FIELD, scalar_validates
from kit_core.generators.go.render import go_file, go_string
from kit_core.generators.go.walk import Scope
from kit_core.model import Mixin, ScalarDecl, TypeDecl
from kit_core.symbols import Kind, Package, Resolved

CROSS_MESSAGES = {
    "requiresOneOf": ("== 0", "at least one must be set"),
    "mutuallyExclusive": ("> 1", "at most one may be set"),
}


@dataclass(frozen=True, slots=True)
class ValidateView:
    recv: str  # "v *Todo", "v Email"
    doc: str
    body: list[str]


def generate(g: GoGen, pkg: Package) -> OutputFile | None:
    helpers = PackageHelpers()
    imports = g.imports()
    checks = FieldChecks(g.design, g.needs, helpers)
    out: list[ValidateView] = []
    std: set[str] = set()
    for name in sorted(pkg.scalars):
        s = pkg.scalars[name]
        if scalar_validates(s):
            out.append(scalar_view(g, checks, s, pkg.name, std))
    for name in sorted(pkg.types):
        t = pkg.types[name]
        if g.needs.validates(t):
            out.append(type_view(g, checks, t, pkg.name, std))
    functions = instances.views(g, checks, pkg, imports, std)
    if not out and not functions:
        return None
    for path in sorted(std | helpers.imports):
        imports.std(path)
    path = f"{g.layout.types_dir(pkg.name)}/validate.go"
    return go_file(
        path,
        Owner.REGEN,
        pkg.name,
        "validate.go.j2",
        imports,
        methods=out,
        functions=functions,
        helpers=sorted(helpers.names),
        patterns=align(
            [(False, [var, f"= regexp.MustCompile({go_string(src)})"]) for src, var in _by_var(helpers.patterns)]
        ),
    )


def _by_var(patterns: dict[str, str]) -> list[tuple[str, str]]:
    """(source, var) in the order of the variables (`kitPattern0`, `kitPattern1`...)."""
    return sorted(patterns.items(), key=lambda p: int(p[1].removeprefix("kitPattern")))


def scalar_view(g: GoGen, checks: FieldChecks, s: ScalarDecl, package: str, std: set[str]) -> ValidateView:
    em = Emitter()
    leaf = Leaf(s.primitive, Resolved(Kind.SCALAR, s.name, package, s), package, ())
    for d in s.decorators:
        if d.name in VALIDATORS:
            checks.decorator(em, d, "v", s.primitive, leaf, "")
    em.add("return nil")
    std.update(em.std)
    return ValidateView(f"v {s.name}", f"Validate checks a {s.name} value against its declared constraints.", em.lines)


def type_view(g: GoGen, checks: FieldChecks, t: TypeDecl, package: str, std: set[str]) -> ValidateView:
    em = Emitter()
    params = tuple(p.name for p in t.params)
    for m in g.design.members(t, package):
        if isinstance(m, Mixin):
            if g.needs.leaf_validates(g.design.resolve(m.ref, package, params)):
                em.add(f"if err := v.{m.ref.name}.Validate(); err != nil {{\n\treturn err\n}}")
                if m.ref.args:  # an instance over slices or maps: what its Validate cannot see
                    checks.walker.expand(em, m.ref, Scope(package, params), f"v.{m.ref.name}", "", [])
            continue
        if m.sensitive:
            continue
        checks.field(em, m, f"v.{m.go_name}", m.pointer, m.label)
    _cross_field(g, em, t, package)
    em.add("return nil")
    std.update(em.std)
    recv = f"{t.name}[{', '.join(params)}]" if params else t.name
    return ValidateView(f"v *{recv}", f"Validate checks a {t.name} and stops at the first violation.", em.lines)


def _cross_field(g: GoGen, em: Emitter, t: TypeDecl, package: str) -> None:
    cross = [d for d in t.decorators if d.name in CROSS_FIELD]
    if not cross:
        return  # most types: no need to gather the fields
    fields = {f.name: f for f in g.design.flat_fields(t, package)}
    for d in cross:
        members = [fields[n] for n in arg_strings(d) if n in fields]
        cmp, reason = CROSS_MESSAGES[d.name]
        names = " ".join(f.label for f in members)
        em.open("")
        em.add("n := 0")
        for f in members:
            em.add(f"if v.{f.go_name} != nil {{\n\tn++\n}}")
        em.fail(f"n {cmp}", f"{d.name} [{names}] - {reason}")
        em.close()
