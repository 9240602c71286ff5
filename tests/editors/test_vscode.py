"""The VS Code extension, shippable: its own tests (mocha against a stubbed `vscode`
module, vscode-tmgrammar-test over the grammar's construct files), a `.vsix` that
`vsce package` builds through the `vscode:prepublish` bundle, and a TextMate grammar
whose scopes agree with the tree-sitter highlights on every character of the designs
in this repository (the examples, the grammar's highlight tests, the test designs).

node_modules come from `scripts/test-tools/vscode.sh` (`npm ci`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tree_sitter import Query, QueryCursor

from kit_core import syntax

REPO = Path(__file__).resolve().parents[2]
EXT = REPO / "editors" / "vscode"
READY = shutil.which("node") is not None and (EXT / "node_modules" / ".bin" / "vsce").exists()
needs_node = pytest.mark.skipif(
    not READY and not os.environ.get("CI"), reason="node and editors/vscode/node_modules (scripts/test-tools/vscode.sh)"
)

DESIGNS = sorted(
    [*(REPO / "examples").rglob("*.kit"), *(REPO / "grammar/test/highlight").glob("*.kit")]
    + [*(REPO / "tests/grammar/designs").glob("*.kit"), *(EXT / "test/syntax").glob("*.kit")]
)

# The TextMate scope a character must have (its innermost scope starts with one of these)
# for each tree-sitter highlight capture of grammar/queries/highlights.scm.
SCOPES: dict[str, tuple[str, ...]] = {
    "comment": ("comment.", "punctuation.definition.comment"),
    "keyword": ("keyword.",),
    "keyword.function": ("keyword.other.verb",),
    "type.builtin": ("support.type.builtin",),
    "module": ("entity.name.namespace",),
    "type.definition": ("entity.name.type",),
    "constant.builtin": ("support.constant", "constant.language"),
    "function": ("entity.name.function",),
    "function.method": ("entity.name.function.method",),
    "type.parameter": ("entity.name.type.parameter",),
    "property": ("variable.other.property",),
    "constant": ("variable.other.enummember", "variable.other.constant"),
    "type": ("entity.name.type",),
    "variable.parameter": ("variable.parameter",),
    "operator": ("keyword.operator",),
    "string.special.path": ("string.unquoted.path",),
    "punctuation.delimiter": ("punctuation.",),
    "punctuation.bracket": ("punctuation.",),
    "attribute": ("entity.name.function.decorator", "punctuation.definition.decorator"),
    "string": ("string.", "punctuation.definition.string"),
    "string.escape": ("constant.character.escape",),
    "number": ("constant.numeric",),
    "number.float": ("constant.numeric",),
    "error": ("invalid.",),
    "boolean": ("constant.language.boolean",),
}


def npm(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("npm")
    assert exe is not None
    return subprocess.run([exe, *args], cwd=EXT, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def tm_tokens() -> dict[str, list[list[Any]]]:
    proc = subprocess.run(
        ["node", str(EXT / "test/grammar/tokens.js"), *map(str, DESIGNS)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def ts_capture_per_char(source: str) -> dict[tuple[int, int], str]:
    """(line, column in characters) -> the capture that colours it: the innermost node's,
    and the earliest pattern's for one node (tree-sitter's highlighter rule)."""
    query = Query(syntax.language(), (REPO / "grammar/queries/highlights.scm").read_text())
    lines = source.split("\n")
    best: dict[tuple[int, int], tuple[int, int, str]] = {}
    for pattern, caps in QueryCursor(query).matches(syntax.parse(source.encode()).root_node):
        for name, nodes in caps.items():
            for n in nodes:
                rank = (n.end_byte - n.start_byte, pattern)
                for cell in _cells(lines, n.start_point, n.end_point):
                    if cell not in best or rank < best[cell][:2]:
                        best[cell] = (*rank, name)
    return {cell: v[2] for cell, v in best.items()}


def _cells(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> Iterator[tuple[int, int]]:
    for row in range(start[0], end[0] + 1):
        raw = lines[row].encode()
        first = len(raw[: start[1]].decode()) if row == start[0] else 0
        last = len(raw[: end[1]].decode()) if row == end[0] else len(lines[row])
        yield from ((row, c) for c in range(first, last))


def tm_scope_per_char(tokens: list[list[Any]]) -> dict[tuple[int, int], list[str]]:
    return {(line, c): scopes for line, start, end, scopes in tokens for c in range(start, end)}


@needs_node
@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: str(p.relative_to(REPO)))
def test_textmate_scopes_agree_with_tree_sitter(tm_tokens: dict[str, list[list[Any]]], path: Path) -> None:
    source = path.read_text()
    lines = source.split("\n")
    ts = ts_capture_per_char(source)
    tm = tm_scope_per_char(tm_tokens[str(path)])
    wrong, bare = [], []
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            if ch.isspace():
                continue
            scopes = tm.get((row, col), ["source.kit"])
            specific = [s for s in scopes if s != "source.kit" and not s.startswith("meta.")]
            if not specific:
                bare.append(f"{row + 1}:{col + 1} {ch!r}")
                continue
            capture = ts.get((row, col))
            if capture is not None and not specific[-1].startswith(SCOPES[capture]):
                where = f"{row + 1}:{col + 1} {line.strip()!r}"
                wrong.append(f"{where}: {ch!r} is {specific[-1]}, tree-sitter says @{capture}")
    assert bare == [], "characters without a specific scope"
    assert wrong == []


@needs_node
def test_the_cases_of_the_issue(tm_tokens: dict[str, list[list[Any]]]) -> None:
    """Enum values are not types; a field named `file` is a field, `file` as a type a built-in."""
    path = next(p for p in DESIGNS if p.name == "issue-cases.test.kit")
    lines = path.read_text().split("\n")
    tm = tm_scope_per_char(tm_tokens[str(path)])

    def scope_of(needle: str, line_re: str) -> str:
        row = next(i for i, line in enumerate(lines) if re.search(line_re, line))
        return tm[(row, lines[row].index(needle))][-1]

    assert scope_of("Active", r"^\s+Active\b") == "variable.other.enummember.kit"
    assert scope_of("file", r"^\s+file\s+string") == "variable.other.property.kit"
    assert scope_of("file", r"^\s+upload\s+file") == "support.type.builtin.kit"


@needs_node
def test_extension_tests_and_grammar_tests_pass() -> None:
    proc = npm("test")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    passing = re.search(r"(\d+) passing", proc.stdout)
    assert passing and int(passing.group(1)) >= 20, proc.stdout[-2000:]
    assert "failing" not in proc.stdout


@needs_node
def test_vsce_packages_a_bundled_extension(tmp_path: Path) -> None:
    vsix = tmp_path / "kit.vsix"
    proc = npm("exec", "--", "vsce", "package", "--no-dependencies", "--out", str(vsix))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
        bundle = z.read("extension/out/extension.js").decode()
    assert {"extension/out/extension.js", "extension/syntaxes/kit.tmLanguage.json", "extension/LICENSE.txt"} <= names
    assert "extension/language-configuration.json" in names and "extension/snippets/kit.json" in names
    assert not [n for n in names if "node_modules" in n or n.endswith(".ts") or "/test/" in n or "out-test" in n]
    assert 'require("vscode")' in bundle  # the one module left out of the bundle
    assert "kit language server" in bundle  # the client is in the bundle, not a dependency
    assert manifest["repository"]["url"] and manifest["license"] == "MIT"
    titles = {c["command"]: f"{c['category']}: {c['title']}" for c in manifest["contributes"]["commands"]}
    assert titles == {
        "kit.generate": "kit: Generate",
        "kit.restartServer": "kit: Restart Language Server",
        "kit.showOutput": "kit: Show Output",
    }
    defaults = manifest["contributes"]["configurationDefaults"]["[kit]"]
    assert defaults["editor.formatOnSave"] is True and defaults["editor.defaultFormatter"] == "kitdev.kit-vscode"
