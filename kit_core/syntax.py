"""The tree-sitter side of kit: the DSL language, parsing (also incremental) and queries.

Thin by design: ``lower.py`` turns the tree into the typed model; the language server
keeps trees per document and reparses after edits with :func:`edit` + :func:`parse`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tree_sitter import Language, Node, Parser, Point, Query, QueryCursor, Tree

__all__ = [
    "Language",
    "Node",
    "Tree",
    "TextEdit",
    "apply_edit",
    "captures",
    "edit",
    "folds_query",
    "highlights_query",
    "language",
    "parse",
    "query",
]


@cache
def language() -> Language:
    """The kit language, loaded once from the compiled binding."""
    binding = importlib.import_module("kit_core._kit_grammar")  # the C extension built by setup.py
    return Language(binding.language())


@cache
def _parser() -> Parser:
    return Parser(language())


def parse(source: bytes, old_tree: Tree | None = None) -> Tree:
    """Parse UTF-8 ``source``; pass the edited previous tree to reparse incrementally."""
    if old_tree is None:
        return _parser().parse(source)
    return _parser().parse(source, old_tree)


@dataclass(frozen=True, slots=True)
class TextEdit:
    """A replacement of ``old_text[start_byte:old_end_byte]`` by ``new_text`` (UTF-8)."""

    start_byte: int
    old_end_byte: int
    new_text: bytes


def _point_at(text: bytes, offset: int) -> Point:
    line = text.count(b"\n", 0, offset)
    line_start = text.rfind(b"\n", 0, offset) + 1
    return Point(line, offset - line_start)


def edit(tree: Tree, old_source: bytes, change: TextEdit) -> bytes:
    """Record ``change`` on ``tree`` (in place) and return the new source text.

    Afterwards ``parse(new_source, tree)`` reparses only what the edit touched.
    """
    new_source = old_source[: change.start_byte] + change.new_text + old_source[change.old_end_byte :]
    new_end_byte = change.start_byte + len(change.new_text)
    tree.edit(
        start_byte=change.start_byte,
        old_end_byte=change.old_end_byte,
        new_end_byte=new_end_byte,
        start_point=_point_at(old_source, change.start_byte),
        old_end_point=_point_at(old_source, change.old_end_byte),
        new_end_point=_point_at(new_source, new_end_byte),
    )
    return new_source


def apply_edit(tree: Tree, old_source: bytes, change: TextEdit) -> tuple[Tree, bytes]:
    """Edit ``tree`` and reparse incrementally: ``(new_tree, new_source)``."""
    new_source = edit(tree, old_source, change)
    return parse(new_source, tree), new_source


# --------------------------------------------------------------------------- queries


@cache
def query(name: str) -> Query:
    """A query shipped in ``kit_core/queries/<name>.scm``, compiled once."""
    text = resources.files("kit_core").joinpath("queries", f"{name}.scm").read_text(encoding="utf-8")
    return Query(language(), text)


def highlights_query() -> Query:
    return query("highlights")


def folds_query() -> Query:
    return query("folds")


def captures(q: Query, node: Node) -> dict[str, list[Node]]:
    """Run ``q`` over ``node``: capture name -> nodes in document order."""
    return QueryCursor(q).captures(node)
