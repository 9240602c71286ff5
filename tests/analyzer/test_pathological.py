"""Pathological designs finish, raise nothing and report what they should: long chains and
cycles of mixins (walked with explicit stacks, once per type) and thousands of references
to unknown types (each "did you mean" found through an index, not by comparing with every
declared name). Times are the bench's business (bench/run_analyze.py --pathological)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from kit_core.analyzer import Analyzer, analyze
from kit_core.lower import parse_file

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from pathological import mixin_chain, unknown_references  # noqa: E402


def _codes(text: str) -> Counter[str]:
    f = parse_file("/design/p.kit", text)
    assert not f.parse_diagnostics
    return Counter(d.code for d in analyze([f]).diagnostics)


def test_a_chain_of_1000_mixins_is_valid_and_every_type_has_every_field_below_it() -> None:
    f = parse_file("/design/p.kit", mixin_chain(1000))
    analysis = analyze([f])
    assert list(analysis.diagnostics) == []
    first = next(d for d in f.declarations if d.name == "T0")
    fields = analysis.index.fields(first, "p")  # type: ignore[arg-type]
    assert [ef.name for ef in fields] == [f"f{i}" for i in reversed(range(1000))]  # mixin first, then own
    assert fields[0].via == (first.mixins[0],) and fields[-1].via == ()  # type: ignore[union-attr]


def test_a_cycle_of_1000_mixins_is_reported_at_every_mixin() -> None:
    assert _codes(mixin_chain(1000, cycle=True)) == Counter({"mixin/cycle": 1000})


def test_a_short_cycle_names_its_way_around() -> None:
    f = parse_file("/design/p.kit", mixin_chain(3, cycle=True))
    messages = sorted(d.message for d in analyze([f]).diagnostics)
    assert messages[0].endswith("T0 -> T1 -> T2 -> T0"), messages


def test_5000_unknown_references_each_get_their_hint() -> None:
    f = parse_file("/design/p.kit", unknown_references(5000))
    diags = analyze([f]).diagnostics
    assert Counter(d.code for d in diags) == Counter({"ref/unknown-symbol": 5000})
    hinted = [d for d in diags if "did you mean Known" in d.message]
    assert len(hinted) == 5000
    assert "unknown type Knwn00042 - did you mean Known00042?" in {d.message for d in diags}


def test_closing_a_long_chain_into_a_cycle_incrementally_matches_a_fresh_analysis() -> None:
    chain = mixin_chain(300)
    session = Analyzer()
    session.update_all([parse_file("/design/p.kit", chain)])
    closed = chain.replace("type T299 {\n", "type T299 {\n\tT0\n")
    incremental = session.update(parse_file("/design/p.kit", closed)).diagnostics
    fresh = analyze([parse_file("/design/p.kit", closed)]).diagnostics
    assert [d.render() for d in incremental] == [d.render() for d in fresh]
    assert Counter(d.code for d in fresh) == Counter({"mixin/cycle": 300})


def test_a_design_with_a_1000_deep_mixin_chain_generates(tmp_path: Path) -> None:
    from kit_core import program
    from kit_core.generators import go

    design_dir = tmp_path / "design"
    design_dir.mkdir()
    (design_dir / "kit.design.yaml").write_text("openapi:\n  title: T\n  version: 1.0.0\n")
    service = "\ntype Req { T0 }\n\nservice S {\n\tpost Do /do {\n\t\trequest Req\n\t\tresponse T0\n\t}\n}\n"
    (design_dir / "p.kit").write_text(mixin_chain(1000) + service)
    design = program.load_design(design_dir, project_root=tmp_path)
    design.module = "example.com/chain"
    checked = program.check(design)
    assert not checked.has_errors
    files, _ = go.generate(program.gen_context(design, checked.analysis))
    types = next(f.content for f in files if f.path.endswith("types/p/types.go"))
    assert "type T0 struct {\n\tT1\n" in types
