"""Where users look: a failed generation on save is a `window/showMessage`, `saveSummary`
shows a one-line summary of what was written, saving a `.proto` regenerates; and breaking
changes against `kit.breakingBaseline` (a git ref) are diagnostics as you type."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest
from lsp_helpers import (
    STOCK_PROTO,
    codes,
    next_log,
    open_doc,
    project_client,
    replace_all,
    wait_for_diagnostics,
    write_design,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

# the body of a fresh stub (what the user replaces)
FRESH_BODY = (
    '\t// TODO: implement CreateItem; until then callers get 501 {"message":"CreateItem is not implemented yet"}.\n'
    '\treturn nil, svccontext.NotImplemented("CreateItem")\n'
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

KIT = """\
package shop

enum Color {
	Red  = "red"
	Blue = "blue"
}

type Item {
	id    string
	color Color?
}

service Items {
	post CreateItem /items {
		request  Item
		response Item
	}
}
"""

PROTO = STOCK_PROTO

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.26\n",
    "design/kit.design.yaml": 'openapi:\n  title: Shop\noutput:\n  pb: "-"\n',
    "design/shop.kit": KIT,
    "design/stock/v1/stock.proto": PROTO,
}


def _git(root: Path, *args: str) -> None:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "PATH": "/usr/bin:/bin",
    }
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_design(tmp_path_factory.mktemp("save"), FILES)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return root


client = project_client("neovim", options={"generateOnSave": True, "generateDelayMs": 20, "diagnosticsDelayMs": 0})


def _save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def _message(client: LanguageClient, start: int, needle: str, timeout: float = 60) -> lsp.ShowMessageParams:
    async def poll() -> lsp.ShowMessageParams:
        while True:
            for m in client.messages[start:]:
                if needle in m.message:
                    return m
            await asyncio.sleep(0.02)

    return await asyncio.wait_for(poll(), timeout)


def _settings(client: LanguageClient, **values: object) -> None:
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"kit": values}))


async def test_saving_a_proto_regenerates(client: LanguageClient, project: Path) -> None:
    _settings(client, saveSummary=True)
    uri = open_doc(client, project / "design/stock/v1/stock.proto")
    start = len(client.messages)
    _save(client, uri)
    shown = await _message(client, start, "kit: design:")
    assert shown.type == lsp.MessageType.Info
    assert "written" in shown.message and "\n" not in shown.message
    assert (project / "internal/grpc/stock/get.go").is_file()
    assert (project / "internal/service/stock/get.go").is_file()
    _settings(client, saveSummary=False)


async def test_a_failed_generation_is_shown(client: LanguageClient, project: Path) -> None:
    path = project / "design/shop.kit"
    uri = open_doc(client, path)
    path.write_text(KIT.replace("request  Item", "request  Missing"))
    start = len(client.messages)
    _save(client, uri)
    shown = await _message(client, start, "nothing was written")
    assert shown.type == lsp.MessageType.Warning and "1 error(s)" in shown.message
    path.write_text(KIT)


async def test_without_save_summary_a_success_is_quiet(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/shop.kit")
    start, logs = len(client.messages), len(client.log_messages)
    _save(client, uri)

    async def generated() -> None:
        while not any("kit: generated" in m.message for m in client.log_messages[logs:]):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(generated(), 60)
    await asyncio.sleep(0.2)
    assert client.messages[start:] == []


async def test_breaking_changes_against_the_baseline(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/shop.kit")
    replace_all(client, uri, KIT.replace('\tBlue = "blue"\n', ""))
    await wait_for_diagnostics(client, uri)
    await asyncio.sleep(0.8)
    assert "breaking/removed" not in codes(client.diagnostics.get(uri, []))  # off by default
    _settings(client, breakingBaseline="main")
    diags = await wait_for_diagnostics(client, uri, lambda ds: "breaking/removed" in codes(ds), timeout=30)
    (d,) = [d for d in diags if d.code == "breaking/removed"]
    assert d.message == 'enum value Color.Blue ("blue") was removed' and d.range.start == lsp.Position(2, 5)
    proto = open_doc(client, project / "design/stock/v1/stock.proto")
    replace_all(client, proto, PROTO.replace("returns (Level);", "returns (stream Level);"))
    diags = await wait_for_diagnostics(client, proto, lambda ds: "breaking/streaming" in codes(ds), timeout=30)
    replace_all(client, proto, PROTO)
    replace_all(client, uri, KIT)
    await wait_for_diagnostics(client, uri, lambda ds: "breaking/removed" not in codes(ds), timeout=30)
    start = len(client.messages)
    _settings(client, breakingBaseline="no-such-ref")
    shown = await _message(client, start, "cannot read the design at no-such-ref")
    assert shown.type == lsp.MessageType.Warning
    _settings(client, breakingBaseline="")


async def test_a_method_renamed_in_the_editor_keeps_its_code_even_with_new_types(
    client: LanguageClient, project: Path
) -> None:
    path = project / "design/shop.kit"
    uri = open_doc(client, path)
    replace_all(client, uri, KIT)
    start = len(client.log_messages)
    _save(client, uri)
    await next_log(client, start, "kit: generated", timeout=60)
    stub = project / "internal/service/items/create_item.go"
    body = '\tl.Info("kept")\n\treturn nil, nil\n'
    stub.write_text(stub.read_text().replace(FRESH_BODY, body))
    await wait_for_diagnostics(client, uri)
    before = KIT[: KIT.index("CreateItem")]
    at = lsp.Position(before.count("\n"), len(before.rsplit("\n", 1)[-1]))
    edit = await client.text_document_rename_async(lsp.RenameParams(lsp.TextDocumentIdentifier(uri), at, "AddItem"))
    assert edit is not None and edit.changes is not None and uri in edit.changes
    renamed = KIT.replace("CreateItem", "AddItem").replace("\t\tresponse Item\n", "\t\tresponse Color2\n")
    renamed += "\ntype Color2 {\n\tname string\n}\n"
    path.write_text(renamed)  # the user's edit, saved: renamed, and a new response type
    replace_all(client, uri, renamed)
    start = len(client.log_messages)
    _save(client, uri)
    await next_log(client, start, "kit: generated", timeout=60)
    new = (project / "internal/service/items/add_item.go").read_text()
    assert "AddItem(req *types.Item) (*types.Color2, error) {\n" + body in new
    path.write_text(KIT)
    replace_all(client, uri, KIT)
