"""Requests whose answer edits text (rename, quick fixes) are computed on every open buffer
as it is now, even while an edit of another buffer waits in the diagnostics debounce: their
edits must land on the current text, not on offsets of an older one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_helpers import (
    MANIFEST,
    apply_edits,
    open_doc,
    project_client,
    replace_all,
    wait_for_diagnostics,
    write_design,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

TYPES = """\
package shop

type Money {
	amount int
}
"""

USES = """\
package shop

type Item {
	price Money
}
"""

# An edit that moves every offset of USES: a stale analysis would place the rename in the comment.
USES_EDITED = "// the items of the shop and what they cost\n" + USES


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"design/kit.design.yaml": MANIFEST, "design/shop/types.kit": TYPES, "design/shop/uses.kit": USES}
    return write_design(tmp_path_factory.mktemp("fresh"), files) / "design"


client = project_client(
    # an edit right after an analysis waits for this debounce: it is not analysed yet when
    # the rename is asked (with the fix, the rename never depends on that timing)
    options={"generateOnSave": False, "diagnosticsDelayMs": 5000},
)


async def test_rename_right_after_an_edit_of_another_buffer(client: LanguageClient, project: Path) -> None:
    types_uri = open_doc(client, project / "shop/types.kit", TYPES)
    uses_uri = open_doc(client, project / "shop/uses.kit", USES)
    await wait_for_diagnostics(client, uses_uri)
    replace_all(client, uses_uri, USES_EDITED)  # within the debounce: not analysed yet
    await asyncio.sleep(0.1)
    pos = lsp.Position(2, 6)  # on `Money` in `type Money {`
    edit = await client.text_document_rename_async(
        lsp.RenameParams(lsp.TextDocumentIdentifier(types_uri), pos, new_name="Cash")
    )
    assert edit is not None and edit.changes is not None
    assert apply_edits(USES_EDITED, edit.changes[uses_uri]) == USES_EDITED.replace("price Money", "price Cash")
    assert apply_edits(TYPES, edit.changes[types_uri]) == TYPES.replace("Money", "Cash")
