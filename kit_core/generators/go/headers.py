"""Response-side `@header` / `@cookie` fields written as headers and cookies (decorator rule 15)."""

from __future__ import annotations

from kit_core.generators.go.design import FieldFacts, GoDesign
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.needs import enum_is_int
from kit_core.generators.go.render import block, go_string
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES, Kind


def wire_string(design: GoDesign, f: FieldFacts, value: str, imports: ImportSet) -> str:
    """Go expression formatting one value of the field's element type to its wire string."""
    r = f.resolved
    prim = design.symbols.scalar_primitive(r) if r is not None else None
    if r is not None and r.kind is Kind.ENUM:
        prim = "int64" if enum_is_int(r.decl) else "string"  # type: ignore[arg-type]
    if prim in INT_PRIMITIVES:
        conv = imports.std("strconv")
        if prim.startswith("u"):
            return f"{conv}.FormatUint(uint64({value}), 10)"
        return f"{conv}.FormatInt(int64({value}), 10)"
    if prim in FLOAT_PRIMITIVES:
        return f"{imports.std('strconv')}.FormatFloat(float64({value}), 'g', -1, 64)"
    if prim == "bool":
        return f"{imports.std('strconv')}.FormatBool(bool({value}))"
    if prim == "datetime":
        return f"{value}.Format({imports.std('time')}.RFC3339Nano)"
    if prim == "string" and r is not None and r.kind is Kind.PRIMITIVE:
        return value
    return f"string({value})"


def header_writes(design: GoDesign, fields: list[FieldFacts], recv: str, imports: ImportSet) -> list[str]:
    """Statements writing every header/cookie field of ``recv`` to `w`."""
    out: list[str] = []
    for f in fields:
        binding = f.explicit_binding
        if binding not in ("header", "cookie") or f.sensitive:
            continue
        expr = f"{recv}.{f.go_name}"
        wire = go_string(f.wire_name(binding))
        pointer = f.pointer
        if f.ref.array_dims:
            one = _write(binding, wire, wire_string(design, f, "x", imports), add=True, imports=imports)
            out.append(block(f"for _, x := range {expr}", one))
            continue
        value = wire_string(design, f, f"*{expr}" if pointer else expr, imports)
        stmt = _write(binding, wire, value, add=False, imports=imports)
        out.append(block(f"if {expr} != nil", stmt) if pointer else stmt)
    return out


def _write(binding: str, wire: str, value: str, add: bool, imports: ImportSet) -> str:
    if binding == "header":
        return f"w.Header().{'Add' if add else 'Set'}({wire}, {value})"
    http = imports.std("net/http")
    return f'{http}.SetCookie(w, &{http}.Cookie{{Name: {wire}, Value: {value}, Path: "/"}})'
