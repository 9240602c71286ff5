"""kit-lsp compiles again only the protos that changed and those importing them (over the
last compile that succeeded), over a real server process: an edit to an imported proto
reaches the protos importing it, and what is reused after such an edit is the edited
version, never the one compiled before it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsp_helpers import close_doc, codes, open_doc, project_client, replace_all, write_design
from lsp_helpers import wait_for_diagnostics as _wait
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

BASE = 'syntax = "proto3";\n\npackage base.v1;\n\nmessage Money {\n  int64 units = 1;\n}\n'
USER = (
    'syntax = "proto3";\n\npackage user.v1;\n\nimport "base/v1/base.proto";\n\n'
    "message Price {\n  base.v1.Money amount = 1;\n}\n"
)
OTHER = 'syntax = "proto3";\n\npackage other.v1;\n\nmessage Alone {\n  string id = 1;\n}\n'

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.26\n",
    "design/kit.design.yaml": "output:\n  fileCase: snake\n",
    "design/base/v1/base.proto": BASE,
    "design/user/v1/user.proto": USER,
    "design/other/v1/other.proto": OTHER,
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("protos"), FILES)


client = project_client()


async def wait_for_diagnostics(client: LanguageClient, uri: str, check: object) -> Sequence[lsp.Diagnostic]:
    """The helper's wait with room for a shared machine: protoc runs on every step."""
    return await _wait(client, uri, check, timeout=60)  # type: ignore[arg-type]


def _messages(diags: object) -> str:
    return " | ".join(d.message for d in diags)  # type: ignore[attr-defined]


async def test_an_edit_to_an_imported_proto_reaches_its_importers(client: LanguageClient, project: Path) -> None:
    base = open_doc(client, project / "design/base/v1/base.proto")
    user = open_doc(client, project / "design/user/v1/user.proto")
    await wait_for_diagnostics(client, user, lambda ds: not ds)
    # only base.proto changed; user.proto, compiled before against Money, must fail now
    replace_all(client, base, BASE.replace("Money", "Cash"))
    diags = await wait_for_diagnostics(client, user, lambda ds: "proto/compile" in codes(ds))
    assert '"base.v1.Money" is not defined' in _messages(diags)
    assert diags[0].range.start.line == 7
    replace_all(client, base, BASE)
    await wait_for_diagnostics(client, user, lambda ds: not ds)


async def test_what_is_reused_after_a_dependency_edit_is_the_edited_version(
    client: LanguageClient, project: Path
) -> None:
    base = open_doc(client, project / "design/base/v1/base.proto")
    user = open_doc(client, project / "design/user/v1/user.proto")
    # base.proto gains a message; then only user.proto changes, to use it: the compile of
    # user.proto must import the new base.proto, not the one compiled at the start
    replace_all(client, base, BASE + "\nmessage Rate {\n  int32 bp = 1;\n}\n")
    await wait_for_diagnostics(client, base, lambda ds: not ds)
    replace_all(client, user, USER.replace("}\n", "  base.v1.Rate rate = 2;\n}\n"))
    await wait_for_diagnostics(client, user, lambda ds: not ds)
    # and the other way: the message goes from base.proto while user.proto is unchanged
    replace_all(client, base, BASE)
    diags = await wait_for_diagnostics(client, user, lambda ds: "proto/compile" in codes(ds))
    assert '"base.v1.Rate" is not defined' in _messages(diags)
    replace_all(client, user, USER)
    await wait_for_diagnostics(client, user, lambda ds: not ds)


async def test_a_dependency_changed_on_disk_reaches_its_open_importer(client: LanguageClient, project: Path) -> None:
    close_doc(client, (project / "design/base/v1/base.proto").as_uri())  # the file on disk counts
    user = open_doc(client, project / "design/user/v1/user.proto")
    await wait_for_diagnostics(client, user, lambda ds: not ds)
    other = project / "design/other/v1/other.proto"
    path = project / "design/base/v1/base.proto"
    path.write_text(BASE.replace("Money", "Coin"))
    other.write_text(OTHER.replace("Alone", "Lone"))
    changes = [lsp.FileEvent(p.as_uri(), lsp.FileChangeType.Changed) for p in (path, other)]
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes))
    diags = await wait_for_diagnostics(client, user, lambda ds: "proto/compile" in codes(ds))
    assert '"base.v1.Money" is not defined' in _messages(diags)
    path.write_text(BASE)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes[:1]))
    await wait_for_diagnostics(client, user, lambda ds: not ds)
