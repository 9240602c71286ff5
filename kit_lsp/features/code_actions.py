"""Quick fixes: the `fixes` a diagnostic carries (the analyzer attaches one to every
suggestion it makes: "did you mean", a missing `@path` or `@form`, a path variable's
missing field), declarations for an undeclared middleware or error, plus the obvious ones:
drop empty parentheses after a flag, write a quoted identifier bare, add `?` to a field
with `@default`, upper-case a name (renaming its uses too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.diagnostics import Diagnostic
from kit_core.model import Decl, SourceFile
from kit_core.source import Span
from kit_lsp import renaming
from kit_lsp.background import DesignJob
from kit_lsp.convert import UTF8, lsp_edit, lsp_range, uri_of
from kit_lsp.features.declared.code_actions import DECLARED
from kit_lsp.features.rename import workspace_edit
from kit_lsp.locate import target_at
from kit_lsp.manifest_lang import manifest_fixes
from kit_lsp.refs import ERROR, MIDDLEWARE, resolve
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

Edit = tuple[str, lsp.WorkspaceEdit]


def _single(view: View, title: str, span: Span, text: str) -> Edit:
    edit = lsp.WorkspaceEdit(changes={view.doc.uri: [lsp_edit(span, text, view.encoding)]})
    return title, edit


def _drop_parens(view: View, offset: int) -> Edit | None:
    target = target_at(view.file, offset)
    if target is None or target.kind != "decorator":
        return None
    return _single(view, f"Drop the empty parentheses of @{target.node.name}", target.span, "@" + target.node.name)


def _bare(view: View, offset: int) -> Edit | None:
    target = target_at(view.file, offset)
    if target is None or target.kind != "decorator":
        return None
    for arg in target.node.args:
        if arg.span.start_byte <= offset <= arg.span.end_byte and arg.is_string:
            return _single(view, f"Write {arg.value} without quotes", arg.span, str(arg.value))
    return None


def _optional(view: View, offset: int) -> Edit | None:
    for decl in view.file.declarations:
        for f in getattr(decl, "members", ()):
            ref = getattr(f, "type", None)
            if ref is not None and ref.span.start_byte <= offset <= ref.span.end_byte:
                end = Span(
                    ref.span.path,
                    ref.span.end_byte,
                    ref.span.end_byte,
                    ref.span.end_line,
                    ref.span.end_col,
                    ref.span.end_line,
                    ref.span.end_col,
                    ref.span.end_col16,
                    ref.span.end_col16,
                )
                return _single(view, f"Make {f.name} optional ({ref.text()}?)", end, "?")
    return None


def _upper(view: View, offset: int) -> Edit | None:
    target = target_at(view.file, offset)
    if target is None or target.kind not in ("decl", "method"):
        return None
    name: str = target.node.name
    new = name[:1].upper() + name[1:]
    if target.kind == "decl":
        decl: Decl = target.node
        symbol = renaming.Symbol(renaming.DECL, decl, decl, view.file.package)
        return f"Rename {name} to {new}", workspace_edit(view, renaming.occurrences(view, symbol), new)
    return _single(view, f"Rename {name} to {new}", target.span, new)


OBVIOUS: dict[str, Callable[[View, int], Edit | None]] = {
    "decorator/flag-empty-parens": _drop_parens,
    "decorator/arg-prefer-ident": _bare,
    "decorator/default-needs-optional": _optional,
    "decl/name-case": _upper,
}


def _carried(view: View, diag: lsp.Diagnostic) -> list[Edit]:
    """Fixes attached to the analyzer's diagnostic at that place."""
    out: list[Edit] = []
    for d in view.snapshot.diagnostics_for(view.doc.path):
        if d.code == diag.code and lsp_range(d.span, view.encoding) == diag.range:
            out += [_fix_edit(view, d, i) for i in range(len(d.fixes))]
    return out


def _fix_edit(view: View, d: Diagnostic, i: int) -> Edit:
    fix = d.fixes[i]
    uri = view.doc.uri if fix.span.path == view.doc.path else uri_of(fix.span.path)
    return fix.title, lsp.WorkspaceEdit(changes={uri: [lsp_edit(fix.span, fix.new_text, view.encoding)]})


DECLARED_CATEGORIES = ("NotFound", "BadRequest", "Conflict")  # the likeliest; the category is easy to change


def _declare(view: View, offset: int) -> list[Edit]:
    """`decorator/ref` on an undeclared middleware or error: declare it at the end of the file
    (an error of another package: at the end of a file of that package)."""
    target = target_at(view.file, offset)
    if target is None or target.kind != "ref" or target.node.namespace not in (MIDDLEWARE, ERROR):
        return []
    ref = target.node
    if resolve(view.symbols, ref) is not None:
        return []
    if ref.namespace == MIDDLEWARE:
        return [_append(view, view.file, f"Declare middleware {ref.name}", f"middleware {ref.name}")]
    file = view.file
    if ref.qualifier is not None:
        pkg = view.symbols.packages.get(ref.qualifier)
        file = pkg.files[0] if pkg is not None and pkg.files else None  # type: ignore[assignment]
    if file is None:
        return []
    name = ref.name
    return [_append(view, file, f"Declare error {name} ({c})", f"error {c} {name}") for c in DECLARED_CATEGORIES]


def _append(view: View, file: SourceFile, title: str, declaration: str) -> Edit:
    data = file.source.encode("utf-8", "surrogatepass")
    lines = data.split(b"\n")
    last = lines[-1].decode("utf-8", "replace")
    at = lsp.Position(len(lines) - 1, len(last.encode("utf-16-le")) // 2 if view.encoding != UTF8 else len(lines[-1]))
    text = ("\n" if last else "") + "\n" + declaration + "\n"
    uri = view.doc.uri if file.path == view.doc.path else uri_of(file.path)
    return title, lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(lsp.Range(at, at), text)]})


def _quick_fixes(diag: lsp.Diagnostic, edits: list[Edit]) -> list[lsp.CodeAction]:
    """The first fix is the preferred one."""
    return [
        lsp.CodeAction(title=t, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag], edit=e, is_preferred=i == 0)
        for i, (t, e) in enumerate(edits)
    ]


def actions(view: View, diagnostics: list[lsp.Diagnostic], later: DesignJob | None = None) -> list[lsp.CodeAction]:
    """Quick fixes; ``later`` holds the diagnostics computed after the analysis (stub drift)."""
    out: list[lsp.CodeAction] = []
    for diag in diagnostics:
        edits = _carried(view, diag) or (later.fixes(view.doc.path, diag, view.encoding) if later else [])
        make = OBVIOUS.get(str(diag.code))
        if not edits and make is not None:
            edit = make(view, view.offset(diag.range.start))
            edits = [edit] if edit is not None else []
        if diag.code == "decorator/ref":
            edits += _declare(view, view.offset(diag.range.start))
        out += _quick_fixes(diag, edits)
    return out


def register(server: KitLanguageServer) -> None:

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_CODE_ACTION)
    @server.thread()
    def code_action(ls: KitLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is not None and doc.kind == "manifest":  # a misspelt key
            return manifest_fixes(doc, list(params.context.diagnostics), ls.state.encoding)
        if doc is not None and doc.kind == "proto":  # stub drift on an RPC
            diags = params.context.diagnostics
            return [a for d in diags for a in _quick_fixes(d, ls.stub_drift.fixes(doc.path, d, ls.state.encoding))]
        view = ls.state.view(params.text_document.uri, fresh=True)
        if view is None:
            return None
        return actions(view, list(params.context.diagnostics), ls.stub_drift)
