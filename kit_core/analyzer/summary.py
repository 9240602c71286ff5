"""Per-file facts the design rules need, computed from the file alone and cached by the
session while the file is unchanged (so an edit elsewhere does not recompute them)."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.model import ErrorDecl, EventDecl, Field, Mixin, ScalarDecl, ServiceDecl, SourceFile, TypeDecl, TypeRef


@dataclass(frozen=True, slots=True)
class FileSummary:
    mentions_file: bool  # some type reference names the `file` primitive
    edges: dict[str, TypeRef]  # other package -> the first field/mixin reference to it
    mixins: tuple[tuple[TypeDecl, Mixin, tuple[str, str]], ...] = ()  # (type, mixin, (package, name) it names)
    mixing: frozenset[tuple[str, str]] = frozenset()  # (package, name) of the types that mix others in
    mixed: frozenset[tuple[str, str]] = frozenset()  # (package, name) the mixins name


def summarize(file: SourceFile) -> FileSummary:
    """One pass over the file's type references (`walk.refs_of` order, nested arguments
    after their reference); written out because it runs for every edit of a file."""
    own = file.package
    if own is None:
        return FileSummary(False, {})
    mentions = False
    edges: dict[str, TypeRef] = {}
    mixins: list[tuple[TypeDecl, Mixin, tuple[str, str]]] = []
    for decl in file.declarations:
        kind = type(decl)
        if kind is TypeDecl or kind is ErrorDecl:
            for m in decl.members:  # type: ignore[union-attr]
                if kind is TypeDecl and type(m) is Mixin:
                    mixins.append((decl, m, (m.ref.package or own, m.ref.name)))  # type: ignore[arg-type]
                stack = [m.type if isinstance(m, Field) else m.ref]
                while stack:
                    r = stack.pop()
                    package = r.package
                    if package is None:
                        if r.name == "file" and not r.args:
                            mentions = True
                    elif package != own and package not in edges:
                        edges[package] = r
                    if r.args:
                        stack.extend(reversed(r.args))
        elif not mentions:
            refs: list[TypeRef] = []
            if kind is ScalarDecl:
                refs.append(decl.primitive)  # type: ignore[union-attr]
            elif kind is ServiceDecl:
                for method in decl.methods:  # type: ignore[union-attr]
                    refs.extend(r for r in (method.request, method.response) if r is not None)
            elif kind is EventDecl and decl.payload is not None:  # type: ignore[union-attr]
                refs.append(decl.payload)  # type: ignore[union-attr]
            while refs:
                r = refs.pop()
                if r.package is None and r.name == "file" and not r.args:
                    mentions = True
                    break
                refs.extend(r.args)
    mixing = frozenset((own, d.name) for d, _, _ in mixins)
    return FileSummary(mentions, edges, tuple(mixins), mixing, frozenset(n for _, _, n in mixins))
