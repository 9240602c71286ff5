"""Publishing an analysis looks at the files whose diagnostics may have changed (those with
some, now or before, the open documents, a closed buffer's), not at every file of the
design: a keystroke's publication costs the same on a design twice as large."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kit_core.diagnostics import make
from kit_core.manifest import default_manifest
from kit_core.resident.session import Snapshot
from kit_core.source import file_span
from kit_core.symbols import SymbolTable
from kit_lsp.features.diagnostics import Diagnostics

ROOT = "/d"


def _server(open_docs: list[Any], sent: list[dict[str, Any]]) -> Any:
    state = SimpleNamespace(docs_for=lambda key: open_docs, encoding="utf-16", text_of=lambda path: None)
    return SimpleNamespace(
        state=state,
        analysis_listeners=[],
        startup=SimpleNamespace(already_published=lambda uri, version, converted: False),
        kit_protocol=SimpleNamespace(notify_json=lambda method, params: sent.append(params)),
    )


def _snapshot(files: int, broken: set[int], version: int) -> Snapshot:
    paths = [f"{ROOT}/p{i}/types.kit" for i in range(files)]
    diags = [make("decl/name-case", file_span(paths[i]), kind="type", name="x", suggestion="X") for i in broken]
    return Snapshot(
        ROOT,
        Path(ROOT),
        default_manifest(f"{ROOT}/kit.design.yaml"),
        dict.fromkeys(paths),  # type: ignore[arg-type]
        diags,
        SymbolTable(),
        versions={paths[0]: version},
    )


def _looked_at(files: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[dict[str, Any]]]:
    doc = SimpleNamespace(path=f"{ROOT}/p0/types.kit", uri=f"file://{ROOT}/p0/types.kit", version=1)
    sent: list[dict[str, Any]] = []
    published = Diagnostics(_server([doc], sent))  # type: ignore[arg-type]
    published.publish_snapshot(_snapshot(files, {1}, 1))
    calls: list[str] = []
    real = published._publish_file
    monkeypatch.setattr(published, "_publish_file", lambda path, *rest: calls.append(path) or real(path, *rest))
    sent.clear()
    doc.version = 2
    published.publish_snapshot(_snapshot(files, {2}, 2))  # p1's problem fixed, p2's appeared
    return len(calls), sent


def test_a_publication_looks_at_the_changed_files_only(monkeypatch: pytest.MonkeyPatch) -> None:
    small, sent = _looked_at(100, monkeypatch)
    large, _ = _looked_at(200, monkeypatch)
    assert small == large == 3  # the open document, the fixed file, the new one
    assert {p["uri"].rsplit("/", 2)[1]: len(p["diagnostics"]) for p in sent} == {"p0": 0, "p1": 0, "p2": 1}
