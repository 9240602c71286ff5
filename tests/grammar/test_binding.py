"""The compiled grammar binding, the shipped queries and the syntax wrapper."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from tree_sitter import Language

from kit_core import syntax

ROOT = Path(__file__).resolve().parents[2]


def test_binding_exposes_a_language_capsule() -> None:
    binding = importlib.import_module("kit_core._kit_grammar")
    lang = Language(binding.language())
    assert lang.name == "kit"
    assert lang.abi_version >= 14
    assert syntax.language() is syntax.language()  # loaded once


def test_parse_smoke() -> None:
    tree = syntax.parse(b"package p\ntype T { id string }\n")
    assert not tree.root_node.has_error
    assert [c.type for c in tree.root_node.named_children] == ["package_clause", "type_declaration"]


@pytest.mark.parametrize("name", ["highlights", "folds", "comments"])
def test_shipped_queries_compile(name: str) -> None:
    assert syntax.query(name).pattern_count > 0


@pytest.mark.parametrize("name", ["highlights.scm", "folds.scm"])
def test_package_queries_match_the_grammar_queries(name: str) -> None:
    shipped = (ROOT / "kit_core" / "queries" / name).read_text(encoding="utf-8")
    source = (ROOT / "grammar" / "queries" / name).read_text(encoding="utf-8")
    assert shipped == source, f"copy grammar/queries/{name} to kit_core/queries/"


def test_highlight_captures() -> None:
    tree = syntax.parse(b'package p\n@doc("x")\ntype T { id string @format(uuid) }\n')
    caps = syntax.captures(syntax.highlights_query(), tree.root_node)
    texts = {name: sorted(n.text.decode() for n in nodes if n.text) for name, nodes in caps.items()}
    assert "type" in texts["keyword"] and "package" in texts["keyword"]
    assert texts["type.definition"] == ["T"]
    assert texts["property"] == ["id"]
    assert texts["type.builtin"] == ["string"]
    assert "format" in texts["attribute"]


def test_folds_cover_bodies() -> None:
    tree = syntax.parse(b"service S {\n\tget A /a {\n\t\tresponse R\n\t}\n}\n")
    folds = syntax.captures(syntax.folds_query(), tree.root_node)["fold"]
    assert sorted(n.type for n in folds) == ["method_body", "service_body"]


def test_incremental_edit_and_reparse() -> None:
    old = b"package p\ntype T { a string }\n"
    tree = syntax.parse(old)
    at = old.index(b"a string")
    new_tree, new = syntax.apply_edit(tree, old, syntax.TextEdit(at, at + 1, b"name"))
    assert new == b"package p\ntype T { name string }\n"
    field = new_tree.root_node.named_children[1].child_by_field_name("body").named_children[0]
    assert field.child_by_field_name("name").text == b"name"
    assert str(new_tree.root_node) == str(syntax.parse(new).root_node)


def test_edit_points_count_bytes_on_multibyte_lines() -> None:
    old = 'package p\n@doc("é")\ntype T {}\n'.encode()
    tree = syntax.parse(old)
    at = old.index(b"type")
    new_tree, new = syntax.apply_edit(tree, old, syntax.TextEdit(at, at, b"\n"))
    assert str(new_tree.root_node) == str(syntax.parse(new).root_node)
