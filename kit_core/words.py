"""The DSL's reserved words (dsl-facts §1.3), written once: the HTTP verbs that open a
method, and every keyword. The lowerer, the analyzer, the formatter and the language server
read them from here."""

from __future__ import annotations

HTTP_VERBS = frozenset(("get", "post", "put", "patch", "delete", "head", "options"))

KEYWORDS = (
    frozenset(
        "package import type enum error scalar service extend middleware request response event payload map "
        "true false null".split()
    )
    | HTTP_VERBS
)
