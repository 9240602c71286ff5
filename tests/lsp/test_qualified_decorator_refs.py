"""kit-lsp follows qualified names in `@middlewares` and `@errors` (definition, references,
completion after `pkg.`), and publishes every report of a code at one place that says
something different (two methods missing one `@prefix` variable)."""

from __future__ import annotations

from pathlib import Path

from kit_core.lower import parse_file
from kit_core.model import SourceFile
from kit_core.resident.session import DesignSession
from kit_core.symbols import SymbolTable
from kit_lsp.completions import Request, complete
from kit_lsp.locate import target_at
from kit_lsp.refs import references, resolve

SHARED = """\
package shared

middleware Auth

error NotFound ItemNotFound
"""

API = """\
package api

middleware Auth2

@middlewares(shared.Auth)
service Items {
\t@errors(shared.ItemNotFound)
\tget A /a {}
}
"""


def _design() -> tuple[list[SourceFile], SymbolTable]:
    files = [parse_file("/d/shared.kit", SHARED), parse_file("/d/api.kit", API)]
    return files, SymbolTable.build(files)


def _resolve_at(needle: str) -> object:
    files, symbols = _design()
    offset = API.encode().index(needle.encode()) + len(needle) - 1
    target = target_at(files[1], offset)
    assert target is not None and target.kind == "ref"
    return resolve(symbols, target.node)


def test_definition_of_a_qualified_middleware_and_error() -> None:
    files, symbols = _design()
    assert _resolve_at("shared.Auth") == symbols.packages["shared"].middlewares["Auth"]
    assert _resolve_at("shared.ItemNotFound") == symbols.packages["shared"].errors["ItemNotFound"]


def test_a_qualifier_naming_a_package_without_that_middleware_resolves_to_nothing() -> None:
    files = [parse_file("/d/shared.kit", SHARED), parse_file("/d/api.kit", API.replace("shared.Auth", "api.Auth"))]
    symbols = SymbolTable.build(files)
    offset = files[1].source.index("api.Auth") + 5
    target = target_at(files[1], offset)
    assert target is not None and resolve(symbols, target.node) is None


def test_references_of_a_middleware_include_its_qualified_uses() -> None:
    files, symbols = _design()
    auth = symbols.packages["shared"].middlewares["Auth"]
    refs = references(symbols, files, auth)
    assert [(r.span.path, r.qualifier, r.name) for r in refs] == [("/d/api.kit", "shared", "Auth")]


def _complete(prefix: str) -> list[str]:
    files, symbols = _design()
    text = API.replace("@middlewares(shared.Auth)", prefix + ")")
    offset = text.index(prefix) + len(prefix)
    req = Request(text.encode(), offset, prefix, ")", "api", symbols, None, None)
    return sorted(i.label for i in complete(req))


def test_completion_after_pkg_dot_inside_middlewares_and_errors() -> None:
    assert _complete("@middlewares(shared.") == ["Auth"]
    assert _complete("@errors(shared.") == ["ItemNotFound"]
    assert _complete("@middlewares(") == ["Auth", "Auth2"]


def test_the_editor_shows_both_methods_missing_one_prefix_variable(tmp_path: Path) -> None:
    (tmp_path / "kit.design.yaml").write_text("openapi:\n  title: T\n  version: 1.0.0\n")
    (tmp_path / "a.kit").write_text(
        'package p\n\ntype R {\n\ta string\n}\n\n@prefix("/o/{org}")\nservice S {\n'
        "\tget A /a {\n\t\trequest R\n\t}\n\n\tget B /b {\n\t\trequest R\n\t}\n}\n"
    )
    snapshot = DesignSession(tmp_path).analyze({})
    missing = [d.message for d in snapshot.diagnostics if d.code == "path/param-missing"]
    assert len(missing) == 2 and any("S.A" in m for m in missing) and any("S.B" in m for m in missing)
