"""A parsed Go file and the few questions kit asks of it."""

from __future__ import annotations

import re
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
    sig: GoSignature | None = None  # where the parts are and what their types are

    @property
    def signature(self) -> str:
        """`Name(params) results` with the texts as written."""
        return f"{self.name}{self.params}" + (f" {self.results}" if self.results else "")


@dataclass(frozen=True, slots=True)
class GoParam:
    name: str  # "" when unnamed (results, `func(int)`)
    type: str  # as written
    key: str  # the type with every package name replaced by its import path, spaces removed
    name_start: int = -1  # byte offset of the name (-1 when unnamed)
    type_start: int = -1  # byte offsets of the type
    type_end: int = -1


@dataclass(frozen=True, slots=True)
class GoSignature:
    """A function's parts by byte offset, and its parameter and result types."""

    start: int  # the `func` keyword
    receiver_name: str  # "l" in `(l *GetLogic)`; "" without one
    receiver_name_start: int  # its byte offset (-1 without one)
    params: tuple[GoParam, ...]
    results: tuple[GoParam, ...]
    params_start: int  # the `(` of the parameter list
    results_end: int  # the end of the result (or of the parameters without one)
    body_start: int  # the `{` of the body (-1 without a body)
    body_end: int

    def types(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(parameter keys, result keys): what two signatures must share to match."""
        return tuple(p.key for p in self.params), tuple(r.key for r in self.results)


@dataclass(frozen=True, slots=True)
class GoImport:
    name: str  # the name the file uses: the alias, else the package name goimports assumes
    path: str
    aliased: bool
    start: int
    end: int


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
        self._names: dict[str, str] | None = None

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

    def imports(self) -> list[GoImport]:
        out = []
        for spec in _walk(self._tree.root_node):
            if spec.type != "import_spec":
                continue
            path = self._t(spec.child_by_field_name("path")).strip('"`')
            alias = spec.child_by_field_name("name")
            name = self._t(alias) if alias is not None else assumed_name(path)
            out.append(GoImport(name, path, alias is not None, spec.start_byte, spec.end_byte))
        return out

    def import_block_end(self) -> int:
        """Where a new import line goes: the end of the last import declaration (after the
        package clause when there is none)."""
        end = 0
        for node in self._tree.root_node.named_children:
            if node.type in ("package_clause", "import_declaration"):
                end = node.end_byte
        return end

    def import_group_close(self) -> int:
        """The offset of the `)` closing the last grouped import declaration, -1 without one."""
        close = -1
        for node in self._tree.root_node.named_children:
            if node.type != "import_declaration":
                continue
            for child in node.named_children:
                if child.type == "import_spec_list" and child.child_count and child.children[-1].type == ")":
                    close = child.children[-1].start_byte
        return close

    def text(self, start: int, end: int) -> str:
        return self._text[start:end].decode("utf-8", errors="replace")

    @property
    def data(self) -> bytes:
        return self._text

    def package_refs(self, start: int, end: int) -> list[tuple[int, int, str]]:
        """(start, end, name) of every package name used as `name.X` between two offsets."""
        out = []
        for n in _walk(self._tree.root_node):
            if n.end_byte <= start or n.start_byte >= end:
                continue
            if n.type in ("selector_expression", "qualified_type"):
                op = n.child_by_field_name("operand") or n.child_by_field_name("package")
                if op is not None and op.type in ("identifier", "package_identifier"):
                    out.append((op.start_byte, op.end_byte, self._t(op)))
        return sorted(out)

    def selector_operands(self, start: int, end: int) -> set[str]:
        """Names used as `name.X` between two offsets (the packages a body refers to)."""
        return {name for _, _, name in self.package_refs(start, end)}

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
            sig=self._signature(node, recv),
            name=self._t(node.child_by_field_name("name")),
            receiver=self._receiver_type(recv),
            receiver_text=self._t(recv) if recv is not None else None,
            params=self._t(node.child_by_field_name("parameters")),
            results=self._t(node.child_by_field_name("result")),
            line=node.start_point[0],
            col=node.start_point[1],
        )

    def _signature(self, node: tree_sitter.Node, recv: tree_sitter.Node | None) -> GoSignature:
        params = node.child_by_field_name("parameters")
        result = node.child_by_field_name("result")
        body = node.child_by_field_name("body")
        names = self._import_names()
        receiver_name, receiver_name_start = "", -1
        if recv is not None:
            for decl in recv.named_children:
                first = decl.child_by_field_name("name")
                if first is not None:
                    receiver_name, receiver_name_start = self._t(first), first.start_byte
        end = result.end_byte if result is not None else (params.end_byte if params is not None else node.end_byte)
        return GoSignature(
            start=node.start_byte,
            receiver_name=receiver_name,
            receiver_name_start=receiver_name_start,
            params=self._params(params, names),
            results=self._results(result, names),
            params_start=params.start_byte if params is not None else end,
            results_end=end,
            body_start=body.start_byte if body is not None else -1,
            body_end=body.end_byte if body is not None else -1,
        )

    def _import_names(self) -> dict[str, str]:
        if self._names is None:
            self._names = {i.name: i.path for i in self.imports()}
        return self._names

    def _params(self, plist: tree_sitter.Node | None, names: dict[str, str]) -> tuple[GoParam, ...]:
        if plist is None:
            return ()
        out: list[GoParam] = []
        for decl in plist.named_children:
            typ = decl.child_by_field_name("type")
            if typ is None:
                continue
            text, key = self._t(typ), self.type_key(typ, names)
            if decl.type == "variadic_parameter_declaration":
                text, key = "..." + text, "..." + key
            idents = decl.children_by_field_name("name")
            if not idents:
                out.append(GoParam("", text, key, -1, typ.start_byte, typ.end_byte))
            out.extend(GoParam(self._t(i), text, key, i.start_byte, typ.start_byte, typ.end_byte) for i in idents)
        return tuple(out)

    def _results(self, result: tree_sitter.Node | None, names: dict[str, str]) -> tuple[GoParam, ...]:
        if result is None:
            return ()
        if result.type == "parameter_list":
            return self._params(result, names)
        return (GoParam("", self._t(result), self.type_key(result, names), -1, result.start_byte, result.end_byte),)

    def type_key(self, node: tree_sitter.Node, names: dict[str, str] | None = None) -> str:
        """A type with package names replaced by import paths and no spaces: two spellings of
        one type (another import alias, other spacing) have one key."""
        names = self._import_names() if names is None else names
        if node.type == "qualified_type":
            pkg = self._t(node.child_by_field_name("package"))
            return f"{names.get(pkg, pkg)}.{self._t(node.child_by_field_name('name'))}"
        if node.child_count == 0:
            return self._t(node)
        return "".join(self.type_key(c, names) for c in node.children)

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


_MAJOR = re.compile(r"^v[0-9]+$")


def assumed_name(path: str) -> str:
    """The package name goimports assumes for an import path without an alias: the last
    element (the one before a `/vN` major version), without a `go-` prefix, up to the first
    `.` or `-` (`gopkg.in/yaml.v3` -> `yaml`)."""
    parts = path.split("/")
    last = parts[-1]
    if _MAJOR.match(last) and len(parts) > 1:
        last = parts[-2]
    last = last.removeprefix("go-")
    for i, ch in enumerate(last):
        if not (ch.isalnum() or ch == "_"):
            return last[:i]
    return last


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))
