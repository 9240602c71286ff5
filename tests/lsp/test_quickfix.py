"""A quick fix for every diagnostic that suggests something: "did you mean" (decorators,
types, middlewares), a missing `@path` or `@form`, a path variable without its field, an
undeclared middleware or error (declare it). Each fix is applied and the diagnostic it
fixes is gone from the analysis of the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import apply_edits, codes, dedent, open_doc, replace_all, wait_for_diagnostics
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXES = {
    "unknown decorator": ("type T {\n\tname string @lenght(1, 2)\n}", "decorator/unknown", "Change to @length"),
    "unknown type": ("type T {\n\towner Usr\n}", "ref/unknown-symbol", "Change to User"),
    "misspelt middleware": (
        "service S {\n\t@middlewares(Auht)\n\tget A /a {}\n}",
        "decorator/ref",
        "Change to Auth",
    ),
    "undeclared middleware": (
        "service S {\n\t@middlewares(Throttle)\n\tget A /a {}\n}",
        "decorator/ref",
        "Declare middleware Throttle",
    ),
    "undeclared error": (
        "service S {\n\t@errors(Gone)\n\tget A /a {}\n}",
        "decorator/ref",
        "Declare error Gone (NotFound)",
    ),
    "path field not bound": (
        "type Req {\n\tkey string\n}\n\nservice S {\n\tget A /a/{key} {\n\t\trequest Req\n\t}\n}",
        "path/param-missing",
        "Add @path to key",
    ),
    "path field missing": (
        "type Req {\n\tother string?\n}\n\nservice S {\n\tget A /a/{key} {\n\t\trequest Req\n\t}\n}",
        "path/param-missing",
        "Add the field `key string @path` to Req",
    ),
    "path field missing, empty body": (
        "type Req {}\n\nservice S {\n\tget A /a/{key} {\n\t\trequest Req\n\t}\n}",
        "path/param-missing",
        "Add the field `key string @path` to Req",
    ),
    "file without @form": (
        "type Up {\n\tdoc file\n}\n\nservice S {\n\tpost A /a {\n\t\trequest Up\n\t}\n}",
        "binding/type",
        "Add @form to doc",
    ),
}


@pytest.mark.parametrize("case", FIXES)
async def test_quick_fix(client: LanguageClient, design: Path, case: str) -> None:
    body, code, title = FIXES[case]
    text = dedent("package users\n\n") + body + "\n"
    path = design / "design/users/fixme.kit"
    uri = path.as_uri()
    if uri in client.diagnostics:
        replace_all(client, uri, text)
    else:
        open_doc(client, path, text)
    diags = await wait_for_diagnostics(client, uri, lambda ds: code in codes(ds))
    diag = next(d for d in diags if d.code == code)
    ctx = lsp.CodeActionContext(diagnostics=[diag])
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), diag.range, ctx)
    )
    assert actions is not None
    titles = [a.title for a in actions if isinstance(a, lsp.CodeAction)]
    action = next((a for a in actions if isinstance(a, lsp.CodeAction) and a.title == title), None)
    assert action is not None, titles
    assert action.edit is not None and action.edit.changes is not None and list(action.edit.changes) == [uri]
    fixed = apply_edits(text, action.edit.changes[uri])
    replace_all(client, uri, fixed)
    after = await wait_for_diagnostics(client, uri)
    assert code not in codes(after), (fixed, [d.message for d in after])
