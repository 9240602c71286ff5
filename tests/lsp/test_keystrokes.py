"""The keystroke path in process: a `Document` taking incremental edits, lowered with the
reuse of unchanged declarations, analysed by the design's incremental session - after
every edit the published diagnostics must equal those of a fresh parse and analysis.
Edits add and remove lines, change text inside declarations, break the syntax and fix it."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lsp_helpers import MANIFEST, SHARED, USERS, write_design
from lsprotocol import types as lsp

from kit_core.analyzer import analyze
from kit_core.diagnostics import merge
from kit_core.lower import parse_file
from kit_core.manifest_reader import parse_manifest
from kit_core.resident.session import DesignSession
from kit_lsp.documents import Document

BIG = 'package big\n\nimport "shared"\n\n' + "".join(
    f"// Big{i} doc.\ntype Big{i} {{\n\tname string @length(1, 80)\n\tnext Big{max(i - 1, 0)}?\n"
    + ("\tname int @positive\n" if i % 5 == 2 else "")
    + ("\tlost Nowhere\n" if i % 7 == 3 else "")
    + ("\taudit shared.Audit\n" if i % 4 == 1 else "")
    + "}\n\n"
    for i in range(30)
)
SNIPPETS = ["x", "\n", "\n\n", "}", "{", "// c\n", "\tadded int?\n", "type Added {}\n", "é", "Big", ""]


def _position(text: str, index: int) -> lsp.Position:
    before = text[:index]
    return lsp.Position(before.count("\n"), len(before[before.rfind("\n") + 1 :].encode("utf-16-le")) // 2)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@example(edits=[(3792, 0, "\n"), (104, 7, "x")])
@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from(SNIPPETS)), min_size=1, max_size=8)
)
def test_keystrokes_publish_what_a_fresh_analysis_finds(tmp_path_factory, edits) -> None:  # type: ignore[no-untyped-def]
    root = write_design(
        tmp_path_factory.mktemp("keys"),
        {"kit.design.yaml": MANIFEST, "shared/shared.kit": SHARED, "users/users.kit": USERS, "big/big.kit": BIG},
    )
    path = root / "big" / "big.kit"
    doc = Document(path.as_uri(), str(path), 1, BIG.encode("utf-8"))
    session = DesignSession(root)
    session.analyze({doc.path: doc})
    text = BIG
    manifest, mdiags = parse_manifest(str(root / "kit.design.yaml"), MANIFEST)
    disk = {str(p): p.read_text(encoding="utf-8") for p in root.rglob("*.kit") if p != path}
    for version, (pos, length, snippet) in enumerate(edits, start=2):
        start = pos % (len(text) + 1)
        end = min(len(text), start + length) if length < 8 or not snippet else start  # replace, delete, insert
        rng = lsp.Range(_position(text, start), _position(text, end))
        doc.apply([lsp.TextDocumentContentChangePartial(range=rng, text=snippet)], version, "utf-16")
        text = text[:start] + snippet + text[end:]
        snap = session.analyze({doc.path: doc})
        files = [parse_file(p, t) for p, t in sorted({**disk, str(path): text}.items())]
        fresh = merge(mdiags, analyze(files, manifest).diagnostics)
        assert snap.diagnostics == fresh
        assert snap.files[str(path)] == parse_file(str(path), text)
