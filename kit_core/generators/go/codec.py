"""`internal/types/<pkg>/json.go`: the generated JSON codec of every type of a package.

`ReadKitJSON` decodes a value in one pass over the body (package kitjson of the runtime):
keys matched exactly, a repeated key refused, the `@default` values pre-filled (a null does
not cancel one: it is refused unless the member is `@nullable`), presence checked, every
message located by its JSON path. `WriteKitJSON` writes what encoding/json writes, with
rule 9 of types built in. The server uses them while its codec is the built-in one
(`server.SetGlobalJSONCodec` says how a custom codec takes over). Every struct type gets
both, so the file is a function of its own package's declarations.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.codec_fields import WireField, wire_fields
from kit_core.generators.go.codec_read import Reader, case_label
from kit_core.generators.go.codec_write import Writer
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_file, go_string, indent
from kit_core.generators.go.typemap import TypeMapper
from kit_core.generators.go.unmarshal import prefill
from kit_core.model import TypeDecl
from kit_core.symbols import Package


@dataclass(frozen=True, slots=True)
class CodecView:
    name: str
    recv: str  # "Page[T]"
    keys_var: str  # "kitKeysPage", "" without required members
    keys: list[str]  # Go literals of every member's key, in bit order
    read: list[str]  # statements of ReadKitJSON
    write: list[str]  # statements of WriteKitJSON


def generate(g: GoGen, pkg: Package) -> OutputFile | None:
    if not pkg.types:
        return None
    imports = g.imports()
    mapper = g.mapper(imports, pkg.name)
    reader, writer = Reader(mapper), Writer(mapper)  # one of each per file: they memoise by shape
    views = [codec_view(g, mapper, reader, writer, pkg.types[n], pkg.name) for n in sorted(pkg.types)]
    imports.std(f"{g.runtime}/kitjson")
    path = f"{g.layout.types_dir(pkg.name)}/json.go"
    return go_file(path, Owner.REGEN, pkg.name, "json.go.j2", imports, codecs=views)


def codec_view(g: GoGen, mapper: TypeMapper, reader: Reader, writer: Writer, decl: TypeDecl, package: str) -> CodecView:
    fields = wire_fields(g, mapper, decl, package)
    params = [p.name for p in decl.params]
    recv = f"{decl.name}[{', '.join(params)}]" if params else decl.name
    required = [i for i, f in enumerate(fields) if not f.optional]
    keys_var = f"kitKeys{decl.name}" if required else ""
    fills = prefill(g, mapper, decl, package, "v") if g.needs.unmarshals(decl) else []
    return CodecView(
        name=decl.name,
        recv=recv,
        keys_var=keys_var,
        keys=[go_string(f.key) for f in fields],
        read=[*fills, *read_body(reader, fields, keys_var, required)],
        write=writer.members(fields),
    )


def read_body(reader: Reader, fields: list[WireField], keys_var: str, required: list[int]) -> list[str]:
    out: list[str] = []
    if fields:
        out.append(f"var seen [{(len(fields) + 63) // 64}]uint64")
    out.append("if !d.Object() {\n\treturn\n}")
    cases = [f"{case_label(f.key)}\n" + indent(reader.member(f, i)) for i, f in enumerate(fields)]
    cases.append("default:\n\td.Unknown()")
    out.append("for d.More() {\n\tswitch string(d.Key()) {\n" + indent("\n".join(cases)) + "\n\t}\n}")
    masks = [0] * ((len(fields) + 63) // 64)
    for i in required:
        masks[i // 64] |= 1 << (i % 64)
    for word, mask in enumerate(masks):
        if mask:
            out.append(f"d.Missing(seen[{word}], {mask:#x}, {keys_var}[{word * 64 or ''}:])")
    return out
