"""Published diagnostics always belong to the version they are labelled with.

Edits hammer one file of a design (each version names its own missing type, so every
version has diagnostics of its own); every `publishDiagnostics` received is checked
against a fresh parse and analysis of the text of the version it names. How many sets are
published depends on timing (under load the server rightly merges all the edits into one);
what the protocol promises is checked instead: versions never go back, and the last set
published belongs to the last version."""

from __future__ import annotations

import queue
import random
import time
from pathlib import Path
from typing import Any

from lsp_helpers import DESIGN, write_design
from raw_client import RawClient, diagnostics_for

from kit_core.analyzer import analyze
from kit_core.diagnostics import merge
from kit_core.lower import parse_file
from kit_core.manifest_reader import parse_manifest
from kit_lsp.startup.lspjson import diagnostic_json

ROUNDS = 300
QUIET = 1.0  # seconds without a publish after the last version's: nothing stale follows it
FILLER = 30  # other files of the design: an analysis spends time after reading the edited buffer


def _text(version: int) -> str:
    return f"package users\n\ntype Edit{version} {{\n\tnext Missing{version}\n}}\n"


def _expected(root: Path, path: Path, text: str) -> list[dict[str, Any]]:
    manifest_path = root / "kit.design.yaml"
    manifest, mdiags = parse_manifest(str(manifest_path), manifest_path.read_text())
    files = [parse_file(str(p), p.read_text()) for p in sorted(root.rglob("*.kit")) if p != path]
    files.append(parse_file(str(path), text))
    diags = merge(mdiags, analyze(files, manifest).diagnostics)
    return [diagnostic_json(d) for d in diags if d.span.path == str(path)]


def test_every_published_set_is_the_analysis_of_the_version_it_names(tmp_path: Path) -> None:
    files = dict(DESIGN)
    for i in range(FILLER):
        files[f"design/users/z{i:02}.kit"] = f"package users\n\ntype Filler{i} {{\n\tname string @length(1, 9)\n}}\n"
    root = write_design(tmp_path, files) / "design"
    path = root / "users/a_edited.kit"  # analysed first of the design's files
    uri = path.as_uri()
    rng = random.Random(22)
    client = RawClient()
    published: list[dict[str, Any]] = []
    try:
        client.initialize(root, {"diagnosticsDelayMs": 0, "generateOnSave": False})
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": _text(1)}
        client.notify("textDocument/didOpen", {"textDocument": item})
        client.wait(diagnostics_for(uri, 1))
        for version in range(2, ROUNDS + 2):
            doc = {"uri": uri, "version": version}
            client.notify("textDocument/didChange", {"textDocument": doc, "contentChanges": [{"text": _text(version)}]})
            time.sleep(rng.choice((0, 0.001, 0.002, 0.004, 0.008, 0.016)))
        while True:
            _, msg = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", timeout=60)
            if msg["params"]["uri"] == uri:
                published.append(msg["params"])
                if msg["params"]["version"] == ROUNDS + 1:
                    break
        try:
            _, late = client.wait(
                lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
                timeout=QUIET,
            )
            published.append(late["params"])
        except queue.Empty:
            pass
    finally:
        client.close()
    versions = [params["version"] for params in published]
    assert versions == sorted(versions), f"a publish went back to an older version: {versions}"
    assert versions[-1] == ROUNDS + 1, f"the last publish is not the last version's: {versions}"
    for params in published:
        version = params["version"]
        expected = _expected(root, path, _text(version))
        assert params["diagnostics"] == expected, f"version {version} published another text's diagnostics"
