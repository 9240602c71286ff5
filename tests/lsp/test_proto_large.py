"""A proto over 1 MB in kit-lsp, over a real server process: its first pass (the proto
without its custom option values) is published first, and the full compile's diagnostics
replace it when that ends; an edit is looked at the same way."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsp_helpers import open_doc, project_client, published_now, replace_all, write_design
from lsp_helpers import wait_for_diagnostics as _wait
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from kit_core.manifest_reader import load_manifest
from kit_core.proto import compile_design

pytestmark = pytest.mark.asyncio(loop_scope="module")

HEAD = (
    'syntax = "proto3";\n\npackage big.v1;\n\nimport "google/protobuf/descriptor.proto";\n\n'
    "extend google.protobuf.FieldOptions {\n  int64 limit = 50001;\n}\n\n"
    'message Bad {\n  int64 n = 1 [(limit) = "seven"];\n  int64 size = 2;\n}\n'
)


def big_text() -> str:
    """~1.2 MB: 40,000 fields with a custom option each (most of what protoc interprets)."""
    parts = [HEAD]
    for m in range(200):
        fields = "".join(f"  int64 f{i} = {i + 1} [(limit) = {i}];\n" for i in range(200))
        parts.append(f"\n// M{m} is filler.\nmessage M{m} {{\n{fields}}}\n")
    return "".join(parts)


FILES = {
    "go.mod": "module example.com/big\n\ngo 1.26\n",
    "design/kit.design.yaml": "output:\n  fileCase: snake\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_design(tmp_path_factory.mktemp("bigproto"), {**FILES, "design/big/v1/big.proto": big_text()})


client = project_client()


def full_compile(project: Path, text: str) -> list[tuple[int, int, str]]:
    """The full compile's diagnostics of the proto as it is (in this process)."""
    design = project / "design"
    manifest, _ = load_manifest(design / "kit.design.yaml")
    pd = compile_design(design, project, manifest, {str(design / "big/v1/big.proto"): text})
    return sorted((d.span.start_line, d.span.start_col, d.message) for d in pd.diagnostics)


def places(diags: Sequence[lsp.Diagnostic]) -> list[tuple[int, int, str]]:
    return sorted((d.range.start.line, d.range.start.character, d.message) for d in diags)


async def published_lists(client: LanguageClient, uri: str, until: list[tuple[int, int, str]]) -> list[list[object]]:
    """Every list published for ``uri``'s current version, in order (a list published again
    unchanged counted once), once ``until`` is the last."""
    await _wait(client, uri, lambda diags: places(diags) == until, timeout=180)
    seen: list[list[object]] = []
    for diags in published_now(client, uri):
        if not seen or seen[-1] != places(diags):
            seen.append(places(diags))  # type: ignore[arg-type]
    return seen


async def test_the_first_pass_comes_first_and_the_full_compile_replaces_it(
    client: LanguageClient, project: Path
) -> None:
    path = project / "design/big/v1/big.proto"
    text = path.read_text()
    full = full_compile(project, text)
    assert len(full) == 1 and '"big.v1.limit"' in full[0][2] and full[0][0] == 11  # 0-based line
    uri = open_doc(client, path)
    lists = await published_lists(client, uri, full)
    assert lists == [[], full]  # the first pass has no option errors; then the full compile's

    edited = text.replace("int64 size = 2;", "Nowhere size = 2;")
    full = full_compile(project, edited)
    assert [m for _, _, m in full] == ['"Nowhere" is not defined.']
    replace_all(client, uri, edited)
    lists = await published_lists(client, uri, full)
    assert lists == [full]  # both steps find it: published once, never a wrong list between
