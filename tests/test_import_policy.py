"""Import-time policy is decided at the entry points (issue 21 item 4).

The processes kit starts (the `kit` command and its subcommands, the resident kit, kit-lsp's
boot and its worker) decide what loads when: their modules may import inside functions. A
library module imports at its top; a function-local import there is a deliberate deferral
(a heavy dependency kept off a light path: jinja2, protobuf, PyYAML, tree-sitter-go,
pygls) and says so in a comment starting `deferred:` (or `cycle:` for an import cycle that
has no cleaner cut), on its line or the line above.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The processes' entry modules: what they import, and when, is their decision.
ENTRY_POINTS = {
    "kit_core/cli.py",
    "kit_core/breaking/cli.py",
    "kit_core/formatter/cli.py",
    "kit_core/mock/command.py",
    "kit_core/daemon/server.py",
    "kit_lsp/__main__.py",
    "kit_lsp/server.py",
    "kit_lsp/startup/boot.py",
    "kit_lsp/worker.py",
}
REASONS = ("# deferred:", "# cycle:")


def _local_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [n for n in ast.walk(fn) if isinstance(n, ast.Import | ast.ImportFrom)]
    return found


def _unexplained(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for node in _local_imports(ast.parse("\n".join(lines))):
        here, above = lines[node.lineno - 1], lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        if not any(r in here for r in REASONS) and not above.startswith(REASONS):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {here.strip()}")
    return out


def test_library_modules_import_at_the_top_or_say_why() -> None:
    modules = sorted(p for pkg in ("kit_core", "kit_lsp") for p in (ROOT / pkg).rglob("*.py"))
    library = [p for p in modules if str(p.relative_to(ROOT)) not in ENTRY_POINTS]
    assert len(library) > 200
    unexplained = [line for p in library for line in _unexplained(p)]
    assert unexplained == [], "function-local imports without a `# deferred:`/`# cycle:` reason:\n" + "\n".join(
        unexplained
    )


def test_entry_points_exist() -> None:
    missing = [p for p in ENTRY_POINTS if not (ROOT / p).is_file()]
    assert missing == []


def test_the_check_sees_an_unexplained_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("def f():\n    import json\n\n    # deferred: heavy\n    import csv\n    return json, csv\n")
    assert [line.split(": ", 1)[1] for line in _unexplained_at(sample, tmp_path)] == ["import json"]


def _unexplained_at(path: Path, root: Path) -> list[str]:
    global ROOT
    saved, ROOT = ROOT, root
    try:
        return _unexplained(path)
    finally:
        ROOT = saved
