"""Opening one proto of a large set (over 1 MB in all), over a real server process: the first
pass looks at the open proto and what it imports, not at the set; a proto it did not look
at gets its diagnostics from the full compile only (never an empty list first, never a
stale one); what the server ends with is the full compile's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsp_helpers import open_doc, project_client, publishes, write_design
from lsp_helpers import wait_for_diagnostics as _wait
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from kit_core.manifest_reader import load_manifest
from kit_core.proto import compile_design

pytestmark = pytest.mark.asyncio(loop_scope="module")

HEAD = 'syntax = "proto3";\n\npackage {pkg};\n\n{imports}\n'
BASE = HEAD.format(pkg="base.v1", imports="") + "message Base {\n  string id = 1;\n}\n"
OPENED = HEAD.format(pkg="shop.v1", imports='import "base/v1/base.proto";\n') + (
    "message Order {\n  base.v1.Base base = 1;\n  int64 size = 2;\n}\n"
)
BAD = HEAD.format(pkg="zed.v1", imports="") + "message Zed {\n  Nowhere id = 1;\n}\n"


def filler(n: int) -> str:
    """~20 KB of plain messages (the set's bulk: compiled only by the full compile)."""
    body = "".join(
        f"// M{m} is filler.\nmessage M{m} {{\n" + "".join(f"  int64 field_{i} = {i + 1};\n" for i in range(20)) + "}\n"
        for m in range(40)
    )
    return HEAD.format(pkg=f"fill{n}.v1", imports="") + body


FILES = {
    "go.mod": "module example.com/set\n\ngo 1.26\n",
    "design/kit.design.yaml": "output:\n  fileCase: snake\n",
    "design/base/v1/base.proto": BASE,
    "design/shop/v1/order.proto": OPENED,
    "design/zed/v1/bad.proto": BAD,
    **{f"design/fill{n}/v1/fill.proto": filler(n) for n in range(60)},
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_design(tmp_path_factory.mktemp("protoset"), FILES)
    assert sum(len(t) for n, t in FILES.items() if n.endswith(".proto")) > 1_000_000  # a first pass
    return root


client = project_client()


def places(diags: Sequence[lsp.Diagnostic]) -> list[tuple[int, int, str]]:
    return sorted((d.range.start.line, d.range.start.character, d.message) for d in diags)


def full_compile(project: Path) -> dict[str, list[tuple[int, int, str]]]:
    """The full compile's diagnostics, by file URI (in this process)."""
    design = project / "design"
    manifest, _ = load_manifest(design / "kit.design.yaml")
    out: dict[str, list[tuple[int, int, str]]] = {}
    for d in compile_design(design, project, manifest).diagnostics:
        out.setdefault(Path(d.span.path).as_uri(), []).append((d.span.start_line, d.span.start_col, d.message))
    return {uri: sorted(found) for uri, found in out.items()}


async def test_an_opened_proto_does_not_wait_for_the_set(client: LanguageClient, project: Path) -> None:
    full = full_compile(project)
    bad = (project / "design/zed/v1/bad.proto").as_uri()
    assert list(full) == [bad] and '"Nowhere" is not defined' in full[bad][0][2]
    uri = open_doc(client, project / "design/shop/v1/order.proto")
    await _wait(client, bad, lambda diags: places(diags) == full[bad], timeout=180)
    await _wait(client, uri, lambda diags: not diags, timeout=180)
    # the proto the first pass did not look at: the full compile's list, and nothing before it
    assert [places(diags) for _, diags in publishes(client)[bad]] == [full[bad]]
    # the open one: no list but the empty one (first pass and full compile agree)
    assert all(not diags for _, diags in publishes(client)[uri])
