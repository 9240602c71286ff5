"""The one registry of diagnostic codes: code -> severity, message template, summary.

Every diagnostic is created through :func:`make`, which checks that the code exists and
that the template's named fields are all given. `docs/diagnostics/<code>.md` documents
each code (a test keeps the two in step).
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from kit_core.diagnostics.diagnostic import Diagnostic, Fix, Related, Severity
from kit_core.source import Span


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    template: str  # str.format template with named fields
    summary: str  # one line for the reference docs / hover

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(f for _, f, _, _ in string.Formatter().parse(self.template) if f)


CODES: dict[str, Code] = {}


def register(code: str, severity: Severity, template: str, summary: str) -> Code:
    if code in CODES:
        raise ValueError(f"diagnostic code {code!r} registered twice")
    entry = Code(code, severity, template, summary)
    CODES[code] = entry
    return entry


def make(
    code: str,
    span: Span,
    *,
    related: tuple[Related, ...] = (),
    fixes: tuple[Fix, ...] = (),
    severity: Severity | None = None,
    **fields: object,
) -> Diagnostic:
    """Build a diagnostic of a registered code; a bug (unknown code, missing field) raises."""
    entry = CODES.get(code)
    if entry is None:
        raise KeyError(f"unknown diagnostic code {code!r}; valid codes: {sorted(CODES)}")
    missing = entry.fields - fields.keys()
    if missing:
        raise KeyError(f"diagnostic {code!r} needs fields {sorted(missing)}")
    message = entry.template.format(**fields)
    return Diagnostic(code, severity or entry.severity, message, span, related, fixes)


E, W = Severity.ERROR, Severity.WARNING

# ---- parse errors (lowering) ------------------------------------------------------------
register("parse/syntax", E, "{message}", "text that is not valid kit syntax")
register("parse/decorator-after-decl", E,
         "decorator @{name} after a declaration on its line - put it on the line above",
         "a decorator written after a declaration on the same line")
register("parse/type-without-body", E, "type {name} needs a body - write `type {name} {{}}` for an empty type",
         "`type T` written without braces")
register("parse/int-range", E, "integer literal {text} is outside the signed 64-bit range (max 9223372036854775807)",
         "an integer literal (or enum value) that does not fit int64")
register("parse/unicode-escape", E, "invalid unicode escape {text}: {reason}",
         "a `\\u{...}` escape that names no character")
register("parse/string-escape", E, "invalid escape {text} in string literal", "an unknown string escape")
register("parse/nested-decorator", E, "decorator @{inner} cannot be an argument of @{outer}",
         "a decorator written as another decorator's argument")
register("parse/number-suffix", E, 'invalid number suffix "{suffix}"', "a number followed by an unknown unit")
register("parse/error-category", E, 'unknown error category "{name}"', "an `error` with an unknown category")

# ---- manifest and design loading ----------------------------------------------------------
register("manifest/unknown-key", W, "{key} is not a manifest key and is ignored", "a manifest key kit does not know")
register("manifest/removed-key", E, "{key} is no longer a manifest key - {note}; drop it",
         "a manifest key removed in an earlier release")
register("manifest/value", E, "{message}", "a manifest value of the wrong type or outside its allowed set")
register("manifest/syntax", E, "kit.design.yaml is not valid YAML: {message}", "a manifest that does not parse")
register("manifest/output-collision", E, "output.{first} and output.{second} name one directory {path}",
         "two output keys resolving to one directory")
register("design/no-manifest", E, "no kit.design.yaml found at {path} or any parent directory",
         "`kit gen` run outside a design folder")
register("design/no-go-mod", E,
         "no go.mod found at {root} or any parent directory; run `go mod init <module>` first",
         "a project without go.mod (the module path is read from it)")
