"""Go type expressions for DSL type references, seen from one Go file."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.go.design import FieldFacts, GoDesign, nilable_resolved
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.layout import Layout
from kit_core.model import TypeRef
from kit_core.semantics import TypeShape, holds_nil
from kit_core.symbols import INT_PRIMITIVES, Kind

PRIMITIVE_GO = {
    "string": "string",
    "bytes": "[]byte",
    "bool": "bool",
    "float32": "float32",
    "float64": "float64",
    "any": "any",
    **{p: p for p in INT_PRIMITIVES},
}


@dataclass
class TypeMapper:
    """Renders type references for a file whose own design package is ``home``.

    ``home_alias``: None inside the types package itself (own names unqualified), else the
    alias the file imports its own package's types under (handlers use `types`).
    """

    design: GoDesign
    layout: Layout
    imports: ImportSet
    home: str
    home_alias: str | None = None

    def qualify(self, name: str, package: str | None) -> str:
        package = package or self.home
        if package == self.home:
            if self.home_alias is None:
                return name
            path = self.layout.import_path(self.layout.types_dir(package))
            return f"{self.imports.alias(path, self.home_alias)}.{name}"
        path = self.layout.import_path(self.layout.types_dir(package))
        return f"{self.imports.design(path, package)}.{name}"

    def base(self, ref: TypeRef, package: str, params: tuple[str, ...] = ()) -> str:
        """Go type of ``ref`` without the optional pointer (arrays and maps included)."""
        return "[]" * ref.array_dims + self._core(ref, package, params)

    def _core(self, ref: TypeRef, package: str, params: tuple[str, ...]) -> str:
        r = self.design.resolve(ref, package, params)
        if r is None:
            return "any"
        if r.kind is Kind.MAP:
            key, value = ref.args
            return f"map[{self.base(key, package, params)}]{self.value(value, package, params)}"
        if r.kind is Kind.PARAM:
            return r.name
        if r.kind is Kind.PRIMITIVE:
            return self._primitive(r.name)
        name = self.qualify(r.name, r.package)
        if ref.args:
            name += "[" + ", ".join(self.base(a, package, params) for a in ref.args) + "]"
        return name

    def value(self, ref: TypeRef, package: str, params: tuple[str, ...]) -> str:
        """A map value: a pointer when optional, unless the Go type already holds nil."""
        base = self.base(ref, package, params)
        if ref.optional and not self.nilable(ref, package, params):
            return "*" + base
        return base

    def _primitive(self, name: str) -> str:
        if name == "datetime":
            return self.imports.std("time") + ".Time"
        if name == "file":
            return "*" + self.imports.std("mime/multipart") + ".FileHeader"
        return PRIMITIVE_GO[name]

    def nilable(self, ref: TypeRef, package: str, params: tuple[str, ...] = ()) -> bool:
        """Whether the Go type already holds nil (slice, map, []byte, any, file header)."""
        if ref.array_dims:
            return True
        r = self.design.resolve(ref, package, params)
        return r is not None and nilable_resolved(self.design, r)

    def shape(self, shape: TypeShape) -> str:
        """Go type of a resolved shape (generic arguments already substituted), no `?` pointer."""
        return "[]" * shape.array_dims + self._shape_core(shape)

    def _shape_core(self, shape: TypeShape) -> str:
        if shape.kind is None:
            return "any"
        if shape.kind is Kind.MAP:
            key, value = shape.args
            vtype = self.shape(value)
            if value.optional and not holds_nil(value):
                vtype = "*" + vtype
            return f"map[{self.shape(key)}]{vtype}"
        if shape.kind is Kind.PARAM:
            return shape.name
        if shape.kind is Kind.PRIMITIVE:
            return self._primitive(shape.name)
        name = self.qualify(shape.name, shape.package)
        if shape.args:
            name += "[" + ", ".join(self.shape(a) for a in shape.args) + "]"
        return name

    # ---------------------------------------------------------------- fields

    def field_type(self, f: FieldFacts) -> str:
        base = self.base(f.ref, f.owner_package, f.params)
        return "*" + base if f.pointer else base
