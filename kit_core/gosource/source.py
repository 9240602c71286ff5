"""A parsed Go file and the few questions kit asks of it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import tree_sitter
import tree_sitter_go


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_go.language()))


@dataclass(frozen=True, slots=True)
class GoFunc:
    """A function or method declaration; texts are as written (whitespace kept)."""

    name: str
    receiver: str | None  # receiver type name without `*` ("GetOrderLogic"), None for a function
    receiver_text: str | None  # "(l *GetOrderLogic)"
    params: str  # "(req *pb.GetOrderRequest)"
    results: str  # "(*pb.Order, error)", "error" or ""
    line: int  # 0-based line of the declaration
    col: int  # 0-based byte column

    @property
    def signature(self) -> str:
        """`Name(params) results` with the texts as written."""
        return f"{self.name}{self.params}" + (f" {self.results}" if self.results else "")


@dataclass(frozen=True, slots=True)
class GoCall:
    callee: str  # the called expression as written: "wiring.RegisterGRPC", "run", "s.x.Do"
    name: str  # the last name: "RegisterGRPC"
    qualifier: str | None  # the operand of a selector: "wiring"; None for a plain call
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class GoField:
    name: str  # the field name; an embedded field is named by its type ("Middlewares")
    type: str  # the type as written
    tag: str | None  # the raw tag text without quotes
    embedded: bool


class GoSource:
    """One Go file. Parsing never fails: a file with syntax errors yields what parsed."""

    def __init__(self, text: bytes, tree: tree_sitter.Tree) -> None:
        self._text = text
        self._tree = tree

    @classmethod
    def parse(cls, text: str | bytes) -> GoSource:
        data = text.encode("utf-8") if isinstance(text, str) else text
        return cls(data, _parser().parse(data))

    @property
    def has_errors(self) -> bool:
        return self._tree.root_node.has_error

    @property
    def package(self) -> str | None:
        for node in self._tree.root_node.named_children:
            if node.type == "package_clause":
                ident = node.named_children[0] if node.named_children else None
                return self._t(ident) if ident is not None else None
        return None

    def functions(self) -> list[GoFunc]:
        return [self._func(n) for n in self._top("function_declaration")]

    def methods(self, receiver: str | None = None) -> list[GoFunc]:
        out = [self._func(n) for n in self._top("method_declaration")]
        return [m for m in out if receiver is None or m.receiver == receiver]

    def calls(self) -> list[GoCall]:
        return [self._call(n) for n in _walk(self._tree.root_node) if n.type == "call_expression"]

    def calls_to(self, name: str) -> list[GoCall]:
        """Calls whose last name is ``name`` (`RegisterGRPC` matches `wiring.RegisterGRPC`)."""
        return [c for c in self.calls() if c.name == name]

    def struct_fields(self, type_name: str) -> list[GoField] | None:
        """The fields of `type <type_name> struct {...}`, None when there is no such struct."""
        for spec in _walk(self._tree.root_node):
            if spec.type != "type_spec":
                continue
            name, body = spec.child_by_field_name("name"), spec.child_by_field_name("type")
            if name is None or body is None or self._t(name) != type_name or body.type != "struct_type":
                continue
            decls = [d for lst in body.named_children for d in lst.named_children if d.type == "field_declaration"]
            return [f for decl in decls for f in self._fields(decl)]
        return None

    # ------------------------------------------------------------------ helpers

    def _t(self, node: tree_sitter.Node | None) -> str:
        if node is None:
            return ""
        return self._text[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def _top(self, kind: str) -> Iterator[tree_sitter.Node]:
        return (n for n in self._tree.root_node.named_children if n.type == kind)

    def _func(self, node: tree_sitter.Node) -> GoFunc:
        recv = node.child_by_field_name("receiver")
        return GoFunc(
            name=self._t(node.child_by_field_name("name")),
            receiver=self._receiver_type(recv),
            receiver_text=self._t(recv) if recv is not None else None,
            params=self._t(node.child_by_field_name("parameters")),
            results=self._t(node.child_by_field_name("result")),
            line=node.start_point[0],
            col=node.start_point[1],
        )

    def _receiver_type(self, recv: tree_sitter.Node | None) -> str | None:
        if recv is None:
            return None
        for decl in recv.named_children:
            typ = decl.child_by_field_name("type")
            while typ is not None and typ.type in ("pointer_type", "generic_type"):
                inner = typ.named_children[0] if typ.named_children else None
                typ = inner if typ.type == "pointer_type" else typ.child_by_field_name("type")
            if typ is not None:
                return self._t(typ)
        return None

    def _call(self, node: tree_sitter.Node) -> GoCall:
        fn = node.child_by_field_name("function")
        callee = self._t(fn)
        if fn is not None and fn.type == "selector_expression":
            name, qual = self._t(fn.child_by_field_name("field")), self._t(fn.child_by_field_name("operand"))
            return GoCall(callee, name, qual, node.start_point[0], node.start_point[1])
        return GoCall(callee, callee, None, node.start_point[0], node.start_point[1])

    def _fields(self, decl: tree_sitter.Node) -> list[GoField]:
        typ = self._t(decl.child_by_field_name("type"))
        tag_node = decl.child_by_field_name("tag")
        tag = self._t(tag_node)[1:-1] if tag_node is not None else None
        names = [self._t(c) for c in decl.children_by_field_name("name")]
        if not names:  # embedded: named by its type, without pointer or package
            return [GoField(typ.lstrip("*").rsplit(".", 1)[-1], typ, tag, True)]
        return [GoField(n, typ, tag, False) for n in names]


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))
