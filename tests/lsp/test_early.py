"""Diagnostics from the last session: published while the server is still loading, only
when the design's files are exactly those they were computed from, and never different
from what the server's own analysis then finds."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from lsp_helpers import DESIGN, USERS, write_design
from raw_client import RawClient, diagnostics_for

BROKEN = USERS.replace("response User", "response Nope")


def _session(root: Path, cache: Path, opened: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Start, open one file, wait for its diagnostics and a moment, shut down; returns the
    publications received for the opened file and the log messages."""
    client = RawClient(env={**os.environ, "KIT_CACHE_DIR": str(cache)})
    try:
        client.initialize(root, {"generateOnSave": False})
        item = {"uri": opened.as_uri(), "languageId": "kit", "version": 1, "text": opened.read_text()}
        client.notify("textDocument/didOpen", {"textDocument": item})
        client.wait(diagnostics_for(opened.as_uri(), 1))
        symbols = client.request("workspace/symbol", {"query": "User"})
        client.answer(symbols)  # the server is loaded and has analysed the design
    finally:
        client.close()
    messages = client.received
    published = [
        m["params"]
        for m in messages
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == opened.as_uri()
    ]
    logs = [m["params"]["message"] for m in messages if m.get("method") == "window/logMessage"]
    return published, logs


@pytest.fixture
def design(tmp_path: Path) -> Path:
    root = write_design(tmp_path / "p", {**DESIGN, "design/users/users.kit": BROKEN}) / "design"
    return root


def test_a_second_session_publishes_the_cached_diagnostics(design: Path, tmp_path: Path) -> None:
    users = design / "users/users.kit"
    first, logs = _session(design, tmp_path / "cache", users)
    assert not any("last session" in m for m in logs)
    assert [d["code"] for d in first[-1]["diagnostics"]] == ["ref/unknown-symbol"]
    second, logs = _session(design, tmp_path / "cache", users)
    assert any("from the last session" in m for m in logs)
    versioned = [p for p in second if p.get("version") is not None]
    assert [p["version"] for p in versioned] == [1]  # published once: the server found the same
    assert all(p["diagnostics"] == first[-1]["diagnostics"] for p in second)


def test_a_changed_file_makes_the_cache_unused(design: Path, tmp_path: Path) -> None:
    users = design / "users/users.kit"
    _session(design, tmp_path / "cache", users)
    (design / "shared/shared.kit").write_text((design / "shared/shared.kit").read_text() + "\ntype Extra {}\n")
    users.write_text(USERS)  # fixed on disk
    published, logs = _session(design, tmp_path / "cache", users)
    assert not any("last session" in m for m in logs)
    assert published[0]["diagnostics"] == []


def test_a_corrupt_cache_is_ignored(design: Path, tmp_path: Path) -> None:
    users = design / "users/users.kit"
    cache = tmp_path / "cache"
    _session(design, cache, users)
    for record in cache.glob("*.json"):
        record.write_text(record.read_text()[:50])
    published, logs = _session(design, cache, users)
    assert not any("last session" in m for m in logs)
    assert [d["code"] for d in published[-1]["diagnostics"]] == ["ref/unknown-symbol"]
