"""Stub drift renders every stub the design expects; after an edit that leaves every method
as it was (the analyzer keeps its HTTP model) it is not computed again, after one that
changes a method it is, and a Go file event (`forget`) makes it compute again."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.resident.session import DesignSession
from kit_lsp.documents import Document
from kit_lsp.features import stub_drift

MANIFEST = "version: 1\nname: shop\n"
TYPES = "package items\n\ntype Item {\n\tid string\n}\n\ntype Note {\n\ttext string\n}\n"
SERVICE = (
    "package items\n\nservice Items {\n\tget GetItem /items/{id} {\n\t\trequest ItemReq\n\t\tresponse Item\n\t}\n}\n\n"
    "type ItemReq {\n\tid string @path\n}\n"
)


def _project(root: Path) -> Path:
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n", encoding="utf-8")
    design = root / "design"
    (design / "items").mkdir(parents=True)
    (design / "kit.design.yaml").write_text(MANIFEST, encoding="utf-8")
    (design / "items" / "types.kit").write_text(TYPES, encoding="utf-8")
    (design / "items" / "service.kit").write_text(SERVICE, encoding="utf-8")
    return design


def test_stubs_are_computed_again_only_when_a_method_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    design = _project(tmp_path)
    computed: list[str] = []
    real = stub_drift.compute
    monkeypatch.setattr(stub_drift, "compute", lambda snap: computed.append(snap.key) or real(snap))
    memo = stub_drift.Memo()
    session = DesignSession(design)
    docs: dict[str, Document] = {}

    def edit(name: str, text: str) -> None:
        path = str(design / "items" / name)
        version = docs[path].version + 1 if path in docs else 1  # type: ignore[operator]
        docs[path] = Document(Path(path).as_uri(), path, version, text.encode())
        snap = session.analyze(docs)
        assert not snap.analysis.has_errors, snap.diagnostics
        memo.compute(snap)

    memo.compute(session.analyze(docs))
    assert len(computed) == 1
    edit("types.kit", TYPES.replace("text string", "text string\n\tsize int"))  # no method reads Note
    assert len(computed) == 1
    edit("types.kit", TYPES.replace("\tid string\n}\n\ntype Note", "\tid string\n\tname string\n}\n\ntype Note"))
    assert len(computed) == 2  # Item is GetItem's response: its stub's signature may change
    edit("service.kit", SERVICE.replace("/items/{id}", "/item/{id}"))
    assert len(computed) == 3
    memo.forget()  # a Go file changed
    memo.compute(session.analyze(docs))
    assert len(computed) == 4
