"""`kit fmt`: one canonical layout for design files (dsl-facts §5), shared with kit-lsp.

Public API:

- :func:`format_source` ``(path, text) -> FormatResult``: parse and format one file's text;
- :func:`format_model` ``(file) -> FormatResult``: format an already parsed ``SourceFile``
  (the language server passes the file it keeps for incremental reparsing);
- :func:`run` ``(paths, list_only, write) -> exit code``: the `kit fmt [-l] [-w] [paths]`
  command (``"-"`` reads stdin and writes stdout).

A file is refused (``FormatResult.ok`` is False, the text is returned unchanged, the
diagnostics say why) when it has parse errors, when a comment sits inside a construct
printed on one line, or when the output would not re-parse to the same design with the
same comments (a formatter bug, reported rather than written).
"""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.diagnostics import Diagnostic, make
from kit_core.formatter import verify
from kit_core.formatter.cli import run
from kit_core.formatter.printer import print_file
from kit_core.model import SourceFile
from kit_core.source import file_span

__all__ = ["FormatResult", "format_model", "format_source", "run"]


@dataclass(frozen=True, slots=True)
class FormatResult:
    path: str
    original: str
    text: str  # the formatted text; the original text when refused
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def changed(self) -> bool:
        return self.ok and self.text != self.original


def format_source(path: str, text: str) -> FormatResult:
    # deferred: the parser loads only when a file is parsed
    from kit_core.lower import parse_file

    return format_model(parse_file(path, text))


def format_model(file: SourceFile) -> FormatResult:
    original = file.source
    parse_errors = tuple(d for d in file.parse_diagnostics if isinstance(d, Diagnostic) and d.is_error)
    if parse_errors:
        return FormatResult(file.path, original, original, parse_errors)
    in_heads = verify.comments_in_heads(file)
    if in_heads:
        diags = tuple(make("format/comment-position", c.span, what=what) for c, what in in_heads)
        return FormatResult(file.path, original, original, diags)
    text = print_file(file)
    reason = _instability(file, text)
    if reason:
        return FormatResult(
            file.path, original, original, (make("format/unstable", file_span(file.path), reason=reason),)
        )
    return FormatResult(file.path, original, text)


def _instability(before: SourceFile, text: str) -> str | None:
    # deferred: the parser loads only when a file is parsed
    from kit_core.lower import parse_file

    after = parse_file(before.path, text)
    if any(isinstance(d, Diagnostic) and d.is_error for d in after.parse_diagnostics):
        return "the output does not parse"
    if verify.comment_texts(after) != verify.comment_texts(before):
        return "comments would be lost or moved out of order"
    if verify.shape(after) != verify.shape(before):
        return "the output parses to a different design"
    return None
