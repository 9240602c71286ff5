"""Generate on save: progress, a log naming what was written and swept, coalesced saves,
nothing written for a design with errors, switchable by setting."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from lsp_helpers import (
    DESIGN,
    USERS,
    USERS_WITH_DROP,
    next_log,
    open_doc,
    project_client,
    wait_for_diagnostics,
    write_design,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("gen"), DESIGN)


client = project_client(options={"generateDelayMs": 50}, configuration={"generateOnSave": True, "generateDelayMs": 50})


def _save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def test_save_generates_with_progress_and_log(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/users/users.kit")
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "kit: generated")
    assert "internal/types/users/types.go" in message and "swept" in message
    assert (project / "internal/types/users/types.go").is_file()
    kinds = [type(v).__name__ for reports in client.progress_reports.values() for v in reports]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"
    assert "WorkDoneProgressReport" in kinds


async def test_a_save_after_an_edit_renders_only_what_it_changes(client: LanguageClient, project: Path) -> None:
    """Generation on save starts from the server's own analysis and renders only the parts
    the edit can change (the types of the edited package and the document)."""
    users = project / "design/users/users.kit"
    uri = open_doc(client, users)
    start = len(client.log_messages)
    _save(client, uri)
    await next_log(client, start, "kit: generated")
    edited = USERS.replace("// User is a person with an account.", "// User is a person who signed up.")
    users.write_text(edited)
    open_doc(client, users, edited)
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "kit: generated")
    assert "internal/types/users/types.go" in message and "internal/types/shared" not in message
    rendered, units = map(int, re.search(r"(\d+) of (\d+) parts rendered", message).groups())  # type: ignore[union-attr]
    assert 0 < rendered < units, message  # what reads package users only; shared's types are left alone
    users.write_text(USERS)
    open_doc(client, users, USERS)


async def test_saves_are_coalesced(client: LanguageClient, project: Path) -> None:
    uri = open_doc(client, project / "design/users/users.kit")
    start = len(client.log_messages)
    for _ in range(5):
        _save(client, uri)
    await next_log(client, start, "kit: generated")
    await asyncio.sleep(0.5)
    runs = [m for m in client.log_messages[start:] if m.message.startswith("kit: generated")]
    assert 1 <= len(runs) <= 2


async def test_design_with_errors_writes_nothing(client: LanguageClient, project: Path) -> None:
    users = project / "design/users/users.kit"
    if not (project / "internal/types/users/types.go").is_file():  # tests may run apart (xdist)
        start = len(client.log_messages)
        _save(client, open_doc(client, users))
        await next_log(client, start, "kit: generated")
    users.write_text(USERS.replace("response User", "response Nope"))
    stamp = (project / "internal/types/users/types.go").stat().st_mtime_ns
    uri = open_doc(client, users, users.read_text())
    await wait_for_diagnostics(client, uri, lambda ds: any(d.code == "ref/unknown-symbol" for d in ds))
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "nothing was written")
    assert "error" in message
    assert (project / "internal/types/users/types.go").stat().st_mtime_ns == stamp
    diags = await wait_for_diagnostics(client, uri)
    assert any(d.code == "ref/unknown-symbol" for d in diags)  # still shown
    users.write_text(USERS)
    open_doc(client, users, USERS)


async def test_setting_turns_it_off(client: LanguageClient, project: Path) -> None:
    client.set_configuration({"generateOnSave": False}, section="kit")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)
    uri = open_doc(client, project / "design/users/users.kit")
    start = len(client.log_messages)
    _save(client, uri)
    await asyncio.sleep(0.6)
    assert not [m for m in client.log_messages[start:] if m.message.startswith("kit: ")]


def _children(pid: int) -> dict[int, str]:
    """Command lines of the live child processes of ``pid``, by pid."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out[int(stat.parent.name)] = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
    return out


async def _generate_on_save(client: LanguageClient) -> None:
    client.set_configuration({"generateOnSave": True, "generateDelayMs": 50}, section="kit")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)


async def test_generation_runs_in_a_worker_process(client: LanguageClient, project: Path) -> None:
    """Never on a thread of the server, where it would hold the GIL against keystrokes."""
    await _generate_on_save(client)
    uri = open_doc(client, project / "design/users/users.kit")
    start = len(client.log_messages)
    _save(client, uri)
    await next_log(client, start, "kit: generated")
    server = client._server
    assert server is not None
    workers = [pid for pid, cmd in _children(server.pid).items() if "kit_lsp.worker" in cmd]
    assert workers  # (how it gives way to the keystroke path: tests/lsp/test_worker_hold.py)


async def test_a_newer_save_supersedes_a_running_generation(client: LanguageClient, project: Path) -> None:
    await _generate_on_save(client)
    big = project / "design/big/big.kit"
    big.parent.mkdir(exist_ok=True)
    body = ["package big", ""]
    for t in range(400):
        body += [f"type Big{t} {{", "\tname string @length(1, 20)", f"\tnext Big{max(t - 1, 0)}?", "}", ""]
    big.write_text("\n".join(body))
    uri = open_doc(client, big)
    await wait_for_diagnostics(client, uri)
    start = len(client.log_messages)
    reports = {k: len(v) for k, v in client.progress_reports.items()}
    _save(client, uri)

    async def running() -> None:  # the first run has reported its first stage
        while not any(len(v) > reports.get(k, 0) + 1 for k, v in client.progress_reports.items()):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(running(), 30)
    _save(client, uri)
    await next_log(client, start, "kit: generated", timeout=120)
    ends = [
        v.message
        for k, values in client.progress_reports.items()
        for v in values[reports.get(k, 0) :]
        if isinstance(v, lsp.WorkDoneProgressEnd)
    ]
    assert any("superseded" in (m or "") for m in ends), ends
    generated = [m for m in client.log_messages[start:] if m.message.startswith("kit: generated")]
    assert len(generated) == 1
    big.unlink()


async def test_a_save_regenerates_the_client(client: LanguageClient, project: Path) -> None:
    users = project / "design/users/users.kit"
    uri = open_doc(client, users)
    start = len(client.log_messages)
    _save(client, uri)
    await next_log(client, start, "kit: generated")
    methods = project / "client/users_client.go"
    assert "func (c *Client) GetUser(" in methods.read_text()
    assert (project / "client/client.go").is_file()
    edited = USERS_WITH_DROP
    users.write_text(edited)
    open_doc(client, users, edited)
    start = len(client.log_messages)
    _save(client, uri)
    message = await next_log(client, start, "kit: generated")
    assert "client/users_client.go" in message
    assert "func (c *Client) DropUser(ctx context.Context, req *users.GetUserReq" in methods.read_text()
    users.write_text(USERS)
    open_doc(client, users, USERS)
