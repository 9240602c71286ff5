"""The tree-sitter queries in an editor: Neovim 0.11+, headless, with editors/neovim on
'runtimepath' and the parser built by editors/neovim/build-parser.sh, highlights, folds,
indents, locals and injects over every example design (tests/editors/nvim/captures.lua).

grammar/queries/ is the one source of the queries; editors/neovim/queries/kit/ holds
copies (grammar/scripts/sync-queries.sh), checked here byte for byte."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nvim_support import NVIM_RTP, REPO, isolated_env, needs_nvim, run_nvim
from tree_sitter import Query, QueryCursor

from kit_core import syntax
from kit_core.program import design_files

QUERIES = ("highlights", "folds", "indents", "locals", "injections")
EXAMPLES = [p for ex in sorted((REPO / "examples").iterdir()) for p in design_files(ex / "design")]
SCRIPT = Path(__file__).parent / "nvim" / "captures.lua"


@pytest.mark.parametrize("name", QUERIES)
def test_neovim_queries_are_the_grammar_queries(name: str) -> None:
    copy = (NVIM_RTP / "queries" / "kit" / f"{name}.scm").read_bytes()
    source = (REPO / "grammar" / "queries" / f"{name}.scm").read_bytes()
    assert copy == source, "run grammar/scripts/sync-queries.sh"


def test_tree_sitter_cli_config_names_every_query() -> None:
    config = json.loads((REPO / "grammar" / "tree-sitter.json").read_text())["grammars"][0]
    assert {name: config.get(name) for name in QUERIES} == {name: f"queries/{name}.scm" for name in QUERIES}


@pytest.fixture(scope="module")
def in_neovim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("nvim-ts")
    site = tmp / "site"
    subprocess.run(["sh", str(NVIM_RTP / "build-parser.sh"), str(site)], check=True, capture_output=True)
    out = tmp / "captures.json"
    env = isolated_env(tmp, KIT_NVIM_OUT=str(out), KIT_FILES=json.dumps([str(p) for p in EXAMPLES]))
    init = tmp / "init.lua"
    # The README's setup: editors/neovim and the parser's site folder on 'runtimepath'.
    init.write_text(f"vim.opt.runtimepath:prepend({str(NVIM_RTP)!r})\nvim.opt.runtimepath:prepend({str(site)!r})\n")
    proc = run_nvim(["-u", str(init), "-c", f"luafile {SCRIPT}"], env, tmp)
    assert out.exists(), f"Neovim wrote nothing:\n{proc.stdout}\n{proc.stderr}"
    result = json.loads(out.read_text())
    assert result["errors"] == []
    yield result["files"]


def py_captures(name: str, source: bytes) -> set[tuple[str, int, int, int, int]]:
    """The same query over the same file through kit's own binding (py-tree-sitter)."""
    query = Query(syntax.language(), (REPO / "grammar" / "queries" / f"{name}.scm").read_text())
    out = set()
    for cap, nodes in QueryCursor(query).captures(syntax.parse(source).root_node).items():
        for n in nodes:
            out.add((cap, n.start_point[0], n.start_point[1], n.end_point[0], n.end_point[1]))
    return out


def nvim_captures(rows: list[list[Any]]) -> set[tuple[str, int, int, int, int]]:
    return {(r[0], r[1], r[2], r[3], r[4]) for r in rows}


@needs_nvim
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(REPO / "examples")))
def test_highlights_apply_to_every_example(in_neovim: dict[str, Any], path: Path) -> None:
    got = in_neovim[str(path)]
    assert (got["filetype"], got["highlighter"], got["commentstring"]) == ("kit", True, "// %s")
    caps = nvim_captures(got["highlights"])
    source = path.read_bytes()
    assert caps == py_captures("highlights", source)  # Neovim applies the query kit ships
    # Every character that is not blank is coloured by some capture.
    lines = source.decode().split("\n")
    covered = {(r, c) for _, sr, sc, er, ec in caps for r, c in _cells(lines, sr, sc, er, ec)}
    bare = [(r + 1, c + 1, line[c]) for r, line in enumerate(lines) for c in range(len(line)) if not line[c].isspace()]
    assert [cell for cell in bare if (cell[0] - 1, cell[1] - 1) not in covered] == []


@needs_nvim
def test_the_examples_show_every_kind_of_capture(in_neovim: dict[str, Any]) -> None:
    names = {row[0] for got in in_neovim.values() for row in got["highlights"]}
    expected = {"keyword", "keyword.function", "type.definition", "type", "type.builtin", "property", "constant"}
    expected |= {"attribute", "comment", "string", "number", "module", "function.method", "variable.parameter"}
    assert expected <= names


def _cells(lines: list[str], sr: int, sc: int, er: int, ec: int) -> Iterator[tuple[int, int]]:
    for r in range(sr, er + 1):
        start = sc if r == sr else 0
        end = ec if r == er else len(lines[r])
        for c in range(start, end):
            yield r, c


@needs_nvim
def test_folds_indents_and_locals_in_the_editor(in_neovim: dict[str, Any]) -> None:
    todo = REPO / "examples/todo/design/todo.kit"
    got = in_neovim[str(todo)]
    assert got["foldmethod"] == "expr"  # editors/neovim/ftplugin
    lines = todo.read_text().split("\n")
    svc = lines.index("service TodoService {") + 1  # 1-based
    assert got["folds"][svc - 1].startswith(">")  # a fold starts at the service body
    assert got["folds"][svc] != "0"  # and the first method is inside it
    begins = {(c[1], c[2]) for c in got["indents"] if c[0] == "indent.begin"}
    assert (svc - 1, lines[svc - 1].index("{")) in begins
    for path in EXAMPLES:
        rows = in_neovim[str(path)]
        assert nvim_captures(rows["indents"]) == py_captures("indents", path.read_bytes())
        assert nvim_captures(rows["locals"]) == py_captures("locals", path.read_bytes())
    defs = {lines[c[1]][c[2] : c[4]] for c in got["locals"] if c[0] == "local.definition.type"}
    assert {"Todo", "TodoList", "TodoService", "TodoNotFound"} <= defs


@needs_nvim
def test_the_regex_of_pattern_is_injected(in_neovim: dict[str, Any]) -> None:
    path = REPO / "examples/showcase/design/shop/types.kit"
    lines = path.read_text().split("\n")
    regions = [
        (c[5], lines[c[1]][c[2] : c[4]]) for c in in_neovim[str(path)]["injections"] if c[0] == "injection.content"
    ]
    assert ("regex", "^[A-Z]{3}$") in regions  # @pattern(`^[A-Z]{3}$`), quotes dropped
