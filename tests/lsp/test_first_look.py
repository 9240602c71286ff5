"""The first look (`kit_lsp.startup.firstlook`): an opened file's diagnostics from a second process,
published before the server's own analysis, never showing what that analysis does not find;
the full analysis's diagnostics follow. Its JSON comes from the converter the server publishes with."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from raw_client import RawClient, diagnostics_for

from kit_core.analyzer import analyze
from kit_core.design_text import read_design
from kit_core.diagnostics import Severity
from kit_core.lower import parse_file
from kit_lsp.convert import UTF8, UTF16, UTF32, lsp_range
from kit_lsp.startup.lspjson import diagnostic_json

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from gen_design import write_design  # noqa: E402

ZZ1 = 'package zz1\n\nservice Users {\n\t@operationId("countUsers")\n\tget Count /zz1/count {}\n}\n'
ZZ2 = (
    "package zz2\n\n// A page, with a field whose type does not exist: ünïcödé 😀\ntype Page {\n\tnext p0.Nope\n}\n\n"
    'service Users {\n\t@operationId("countUsers")\n\tget Count /zz2/count {\n\t\tresponse Page\n\t}\n}\n'
)


LSP_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
    Severity.HINT: lsp.DiagnosticSeverity.Hint,
}


def test_the_json_is_lsp() -> None:
    """The one converter's JSON is what lsprotocol reads and writes back unchanged, with the
    ranges the other features send (`kit_lsp.convert.lsp_range`)."""
    converter = default_converter()
    cases = sorted((REPO / "tests" / "analyzer" / "cases").glob("*.kit"))
    files = {str(p): parse_file(str(p), read_design(str(p))) for p in cases}
    seen = 0
    for f in files.values():
        for d in analyze([f]).diagnostics:
            for encoding in (UTF8, UTF16, UTF32):
                text_of = lambda p: files[p].source if p in files else None  # noqa: E731
                sent = diagnostic_json(d, encoding, text_of)
                read = converter.structure(sent, lsp.Diagnostic)
                assert converter.unstructure(read) == sent
                assert read.range == lsp_range(d.span, encoding, text_of)
                assert read.code == d.code and read.source == "kit"
                assert read.severity == LSP_SEVERITY[d.severity]
                assert [r.location.range for r in read.related_information or []] == [
                    lsp_range(r.span, encoding, text_of) for r in d.related if r.span.path
                ]
            seen += 1 + len(d.related)
    assert seen > 200


def _codes(params: dict[str, Any]) -> list[str]:
    return sorted(d["code"] for d in params["diagnostics"])


def _first_look_children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"kit_lsp.startup.firstlook_worker" in cmdline:
            out.append(int(stat.parent.name))
    return out


def _design(tmp_path: Path) -> Path:
    """A design whose full analysis takes a while, with two packages clashing on an operation id."""
    info = write_design(tmp_path / "d", types=800, methods=240, packages=40, big_lines=300)
    (info.root / "zz1").mkdir()
    (info.root / "zz1" / "zz1.kit").write_text(ZZ1)
    (info.root / "zz2").mkdir()
    (info.root / "zz2" / "zz2.kit").write_text(ZZ2)
    return info.root


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_first_look_comes_first_and_the_full_analysis_follows(tmp_path: Path) -> None:
    root = _design(tmp_path)
    opened = root / "zz2" / "zz2.kit"
    uri = opened.as_uri()
    client = RawClient(env={**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        client.initialize(root, {"generateOnSave": False})
        assert len(_first_look_children(client.proc.pid)) == 1  # started at spawn
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": ZZ2}
        client.notify("textDocument/didOpen", {"textDocument": item})
        _, first = client.wait(diagnostics_for(uri, 1))
        _, full = client.wait(lambda m: diagnostics_for(uri, 1)(m) and len(m["params"]["diagnostics"]) == 2)
        end = time.monotonic() + 30
        while _first_look_children(client.proc.pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert _first_look_children(client.proc.pid) == []  # closed after the server's analysis
    finally:
        client.close()
    assert _codes(first["params"]) == ["ref/unknown-symbol"]  # the clash across packages is not decided
    assert _codes(full["params"]) == ["operation/duplicate-id", "ref/unknown-symbol"]
    unknown = [d for d in full["params"]["diagnostics"] if d["code"] == "ref/unknown-symbol"]
    assert first["params"]["diagnostics"] == unknown  # the same diagnostic, to the character
    published = [m["params"] for m in client.received if diagnostics_for(uri)(m)]
    assert [_codes(p) for p in published] == [_codes(first["params"]), _codes(full["params"])]


def test_a_file_opened_once_the_server_runs_gets_its_first_look_too(tmp_path: Path) -> None:
    root = _design(tmp_path)
    uri = (root / "zz2" / "zz2.kit").as_uri()
    client = RawClient(env={**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        client.initialize(root, {"generateOnSave": False})
        hover = {"textDocument": {"uri": (root / "none.kit").as_uri()}, "position": {"line": 0, "character": 0}}
        client.answer(client.request("textDocument/hover", hover))  # answered by the server, not the start-up code
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": ZZ2}
        client.notify("textDocument/didOpen", {"textDocument": item})
        _, first = client.wait(diagnostics_for(uri, 1))
        _, full = client.wait(lambda m: diagnostics_for(uri, 1)(m) and len(m["params"]["diagnostics"]) == 2)
    finally:
        client.close()
    assert _codes(first["params"]) == ["ref/unknown-symbol"]
    assert _codes(full["params"]) == ["operation/duplicate-id", "ref/unknown-symbol"]


def test_turned_off_the_server_publishes_its_own_analysis_only(tmp_path: Path) -> None:
    root = tmp_path / "d"
    (root / "zz1").mkdir(parents=True)
    (root / "zz2").mkdir()
    (root / "kit.design.yaml").write_text("")
    (root / "zz1" / "zz1.kit").write_text(ZZ1)
    (root / "zz2" / "zz2.kit").write_text(ZZ2.replace("p0.Nope", "Nope"))
    uri = (root / "zz2" / "zz2.kit").as_uri()
    env = {**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache"), "KIT_LSP_FIRST_LOOK": "0"}
    client = RawClient(env=env)
    try:
        client.initialize(root, {"generateOnSave": False})
        assert _first_look_children(client.proc.pid) == []
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": (root / "zz2" / "zz2.kit").read_text()}
        client.notify("textDocument/didOpen", {"textDocument": item})
        _, first = client.wait(diagnostics_for(uri, 1))
    finally:
        client.close()
    assert _codes(first["params"]) == ["operation/duplicate-id", "ref/unknown-symbol"]
