"""`<output.transport>/binding.go`: the binding helpers every generated handler calls."""

from __future__ import annotations

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_file


def generate(g: GoGen) -> OutputFile:
    imports = g.imports()
    for path in (
        "errors",
        "fmt",
        "math",
        "mime/multipart",
        "net/http",
        "net/url",
        "os",
        "strconv",
        "strings",
        "unsafe",
    ):
        imports.std(path)
    path = f"{g.layout.transport}/binding.go"
    return go_file(path, Owner.REGEN, "transport", "binding.go.j2", imports)
