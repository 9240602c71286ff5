"""Generated request binding: path, query, header, cookie and multipart values into the request.

Every statement calls the project's small helper package (`<output.transport>/binding.go`),
which parses with strconv, refuses NaN and infinities, and splits array headers on commas.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.go.design import GoDesign
from kit_core.generators.go.render import go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.semantics import FieldBinding, Location, TypeShape, is_optional
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES

SOURCES = {
    Location.PATH: "Path",
    Location.QUERY: "Query",
    Location.HEADER: "Header",
    Location.COOKIE: "Cookie",
    Location.FORM: "Form",
    Location.BODY: "Form",  # an unbound field of a multipart request is a form part
}


def parser(prim: str | None) -> str | None:
    """Name of the helper parsing one value of a primitive family."""
    if prim in INT_PRIMITIVES:
        return "Uint" if prim.startswith("u") else "Int"
    if prim in FLOAT_PRIMITIVES:
        return "Float"
    return {"string": "String", "bool": "Bool", "bytes": "Bytes"}.get(prim or "")


@dataclass
class Binder:
    design: GoDesign
    mapper: TypeMapper
    helper: str  # the name the helper package is imported under
    uses_query: bool = False  # a statement reads the request's raw query (`q`)

    def statements(self, b: FieldBinding, expr: str, pointer: bool) -> list[str]:
        """Statements binding one field; a required field that is absent is `<wire>: required`."""
        out = self._bind(b, expr, pointer)
        if (
            out
            and out[-1].startswith(("if vs, ok :=", "if v, ok :="))
            and b.location is not Location.PATH
            and not is_optional(b.field)
        ):
            out[-1] += f" else {{\n\treturn {self.helper}.Missing({go_string(b.wire_name)})\n}}"
        return out

    def _bind(self, b: FieldBinding, expr: str, pointer: bool) -> list[str]:
        shape = b.field.shape
        wire = go_string(b.wire_name)
        elem = shape.element() if shape.array_dims else shape
        if elem.primitive == "file":
            files = "Files" if shape.array_dims else "File"
            return [f"if err := {self.helper}.{files}(r, {wire}, &{expr}); err != nil {{\n\treturn err\n}}"]
        if shape.array_dims > 1 or elem.array_dims:
            return []
        fn = parser(elem.primitive)
        if fn is None:
            return []
        source = SOURCES[b.location]
        if b.location is Location.HEADER and shape.array_dims:
            source = "HeaderList"
        gotype = self.mapper.shape(elem.base())
        parse = f"{self.helper}.{fn}[{gotype}]"
        h = self.helper
        # A single query value is read by First: no slice of every value of the parameter.
        first = b.location is Location.QUERY and not shape.array_dims
        got, one = ("v", "v") if first else ("vs", "vs[0]")
        if shape.array_dims:
            value, assign = f"{h}.Each({wire}, vs, {parse})", f"{expr} = x"
        else:
            value, assign = f"{parse}({wire}, {one})", f"{expr} = &x" if pointer else f"{expr} = x"
        args = f"q, {wire}" if b.location is Location.QUERY else f"r, {wire}"
        if b.location is Location.QUERY:
            source = "First" if first else "Values"  # of the raw query (`q`, see the handler)
            self.uses_query = True
        refuse_file = [f"if err := {h}.NotFile(r, {wire}); err != nil {{\n\treturn err\n}}"] if source == "Form" else []
        if gotype == "string":  # a plain string takes the value as it is: no parse, no conversion
            taken = "vs" if shape.array_dims else f"&{one}" if pointer else one
            return [*refuse_file, f"if {got}, ok := {h}.{source}({args}); ok {{\n\t{expr} = {taken}\n}}"]
        return [
            *refuse_file,
            f"if {got}, ok := {h}.{source}({args}); ok {{\n"
            f"\tx, err := {value}\n\tif err != nil {{\n\t\treturn err\n\t}}\n\t{assign}\n}}",
        ]


def is_bound(b: FieldBinding, multipart: bool) -> bool:
    if b.location in (Location.NONE,):
        return False
    if b.location is Location.BODY:
        return multipart
    return True


__all__ = ["Binder", "TypeShape", "is_bound"]
