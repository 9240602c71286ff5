"""`kit.design.yaml` in the editor: hover on every key and completion of keys and values
(`kit_core.editor.manifest_lang`, from the one key table). Its diagnostics are the
manifest reader's, published with the design's (each on its exact key)."""

from __future__ import annotations

from lsprotocol import types as lsp

from kit_core.editor.manifest_lang import complete, hover
from kit_lsp.convert import UTF8, UTF32, lsp_edit, lsp_range
from kit_lsp.documents import Document


def _index(line: str, character: int, encoding: str) -> int:
    """The str index of a client column."""
    if encoding == UTF32:
        return min(character, len(line))
    data = line.encode("utf-8" if encoding == UTF8 else "utf-16-le")
    unit = 1 if encoding == UTF8 else 2
    return len(data[: character * unit].decode("utf-8" if encoding == UTF8 else "utf-16-le", "ignore"))


def _column(line: str, index: int, encoding: str) -> int:
    """The client column of a str index."""
    if encoding == UTF32:
        return index
    if encoding == UTF8:
        return len(line[:index].encode("utf-8"))
    return len(line[:index].encode("utf-16-le")) // 2


def _line(text: str, n: int) -> str:
    lines = text.split("\n")
    return lines[n].rstrip("\r") if n < len(lines) else ""


def manifest_hover(doc: Document, pos: lsp.Position, encoding: str) -> lsp.Hover | None:
    text = doc.text
    line = _line(text, pos.line)
    found = hover(text, pos.line, _index(line, pos.character, encoding))
    if found is None:
        return None
    markdown, n, start, end = found
    span = lsp.Range(lsp.Position(n, _column(line, start, encoding)), lsp.Position(n, _column(line, end, encoding)))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, markdown), span)


_KINDS = {
    "key": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.Value,
    "snippet": lsp.CompletionItemKind.Snippet,
}


def manifest_completion(doc: Document, pos: lsp.Position, encoding: str) -> lsp.CompletionList:
    text = doc.text
    line = _line(text, pos.line)
    col = _index(line, pos.character, encoding)
    items = []
    start = col - len(_typed(line[:col]))
    end = col + len(_rest(line[col:]))
    replace = lsp.Range(
        lsp.Position(pos.line, _column(line, start, encoding)), lsp.Position(pos.line, _column(line, end, encoding))
    )
    for item in complete(text, pos.line, col):
        extra = []
        if item.extra_lines:
            indent = " " * (len(line) - len(line.lstrip(" ")))
            at = lsp.Position(pos.line, _column(line, len(line), encoding))
            extra = [lsp.TextEdit(lsp.Range(at, at), "".join(f"\n{indent}{x}" for x in item.extra_lines))]
        items.append(
            lsp.CompletionItem(
                label=item.label,
                kind=_KINDS[item.kind],
                detail=item.detail or None,
                documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, item.doc),
                sort_text=item.sort,
                filter_text=item.insert,
                text_edit=lsp.TextEdit(replace, item.insert),
                additional_text_edits=extra or None,
            )
        )
    return lsp.CompletionList(is_incomplete=False, items=items)


def _rest(after: str) -> str:
    """The rest of the word under the cursor (a completion replaces the whole word)."""
    i = 0
    while i < len(after) and not after[i].isspace() and after[i] != ":":
        i += 1
    return after[:i]


def _typed(before: str) -> str:
    """The word being typed before the cursor (a key or a value, quotes and `./` included)."""
    i = len(before)
    while i > 0 and not before[i - 1].isspace() and before[i - 1] != ":":
        i -= 1
    return before[i:]


def manifest_fixes(doc: Document, diagnostics: list[lsp.Diagnostic], encoding: str) -> list[lsp.CodeAction]:
    """Quick fixes of the manifest's diagnostics (a misspelt key's "did you mean"): the
    reader's, read again from the document's text and matched by code and range."""
    # deferred: PyYAML and the diagnostics registry load only when a manifest is read
    from kit_core.manifest_reader import parse_manifest

    found = parse_manifest(doc.path, doc.source.decode("utf-8", "replace"))[1]
    out: list[lsp.CodeAction] = []
    for diag in diagnostics:
        for d in found:
            if d.code != diag.code or lsp_range(d.span, encoding) != diag.range:
                continue
            for i, fix in enumerate(d.fixes):
                edit = lsp.WorkspaceEdit(changes={doc.uri: [lsp_edit(fix.span, fix.new_text, encoding)]})
                kind = lsp.CodeActionKind.QuickFix
                out.append(lsp.CodeAction(fix.title, kind=kind, diagnostics=[diag], edit=edit, is_preferred=i == 0))
    return out
