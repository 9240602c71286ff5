"""The incremental session reuses per-declaration results inside an edited file (shifted
when the edit moved the declaration): after every edit its diagnostics must equal, place
for place, those of a fresh analysis of the same files."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core.analyzer import Analyzer, analyze
from kit_core.analyzer.summary import summarize
from kit_core.analyzer.walk import refs_of, walk_ref
from kit_core.lower import parse_file
from kit_core.model import SourceFile

CASES = Path(__file__).parent / "cases"
SEEDS = sorted(p for p in CASES.rglob("*.kit"))
EXAMPLES = int(os.environ.get("KIT_PROPERTY_EXAMPLES", "60"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SNIPPETS = [
    "x",
    "\n",
    "\n\n",
    "// note\n",
    "}",
    "{",
    "type Big3 {\n\tname string\n}\n",
    "type Extra {\n\tref Big2\n\tgone Missing\n}\n",
    "\tadded int? @length(1, 2)\n",
    "\tname string\n",
    '@doc("d")\n',
    "é",
    "😀",
    "Big",
    "Bug",
]


def big_design(n: int = 12) -> str:
    """Many similar declarations referring to each other, with a few problems of each kind
    (unknown names, duplicate fields, validators that do not fit, bad enum values)."""
    out = ['package big\n\nimport "other"\n\nmiddleware Auth\n\nscalar Code string @length(1, 8)\n']
    out.append("enum Color {\n\tRed\n\tGreen = 1\n\tRed\n}\n")
    for i in range(n):
        out.append(f"// Big{i} is one of many.\ntype Big{i} {{\n")
        out.append("\tBigBase\n" if i % 3 == 0 else "")
        out.append("\tname string @length(1, 80)\n\tcode Code?\n")
        if i:
            out.append(f"\tnext Big{i - 1}?\n")
        if i % 4 == 1:
            out.append("\tname int @positive\n")  # duplicate field, validator on a string
        if i % 5 == 2:
            out.append(f"\tlost Nowhere{i} // unknown\n")
        out.append("\tcolor Color @range(1, 2)\n}\n\n")
    out.append("type BigBase {\n\tid string @length(1, 64)\n}\n\n")
    out.append("service Bigs {\n\t@middlewares(Auth, Nope)\n\tget GetBig /big/{id} {\n")
    out.append("\t\trequest Big1\n\t\tresponse Big2\n\t}\n}\n")
    return "".join(out)


OTHER = "package other\n\ntype Ref {\n\tbig big.Big4\n\tmix big.BigBase\n}\n"


def _assert_same(session_diags: tuple, files: dict[str, SourceFile]) -> None:
    fresh = analyze(list(files.values())).diagnostics
    assert session_diags == fresh, "\n".join(
        [d.render() for d in session_diags if d not in fresh]
        + ["--- fresh only:"]
        + [d.render() for d in fresh if d not in session_diags]
    )


@st.composite
def edit_scripts(draw: st.DrawFn) -> list[tuple[str, int, int, str]]:
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "undo", "line"]))
        pos = draw(st.integers(0, 10**6))
        length = draw(st.integers(0, 60))
        steps.append((op, pos, length, draw(st.sampled_from(SNIPPETS))))
    return steps


def _apply(text: str, history: list[str], step: tuple[str, int, int, str]) -> str:
    op, pos, length, snippet = step
    if op == "undo":
        return history.pop() if history else text
    history.append(text)
    pos %= len(text) + 1
    if op == "line":  # a snippet at the start of a line (adds whole lines)
        pos = text.rfind("\n", 0, pos) + 1
        return text[:pos] + snippet + text[pos:]
    end = min(len(text), pos + length)
    if op == "insert":
        return text[:pos] + snippet + text[pos:]
    if op == "delete":
        return text[:pos] + text[end:]
    return text[:pos] + snippet + text[end:]


@SETTINGS
@given(edit_scripts())
def test_edits_inside_a_large_file_match_a_fresh_analysis(script: list[tuple[str, int, int, str]]) -> None:
    texts = {"/d/big/big.kit": big_design(), "/d/other/ref.kit": OTHER}
    files = {p: parse_file(p, t) for p, t in texts.items()}
    session = Analyzer()
    _assert_same(session.update_all(files.values()).diagnostics, files)
    history: list[str] = []
    for step in script:
        texts["/d/big/big.kit"] = _apply(texts["/d/big/big.kit"], history, step)
        files["/d/big/big.kit"] = parse_file("/d/big/big.kit", texts["/d/big/big.kit"])
        _assert_same(session.update(files["/d/big/big.kit"]).diagnostics, files)


@SETTINGS
@given(st.integers(0, len(SEEDS) - 1), edit_scripts())
def test_edits_of_the_analyzer_cases_match_a_fresh_analysis(
    which: int, script: list[tuple[str, int, int, str]]
) -> None:
    path = f"/d/{SEEDS[which].parent.name}/{SEEDS[which].name}"
    text = SEEDS[which].read_text(encoding="utf-8")
    files = {path: parse_file(path, text)}
    session = Analyzer()
    session.update_all(files.values())
    history: list[str] = []
    for step in script:
        text = _apply(text, history, step)
        files[path] = parse_file(path, text)
        _assert_same(session.update(files[path]).diagnostics, files)


def test_a_syntax_error_and_its_fix() -> None:
    text = big_design()
    path = "/d/big/big.kit"
    files = {path: parse_file(path, text), "/d/other/ref.kit": parse_file("/d/other/ref.kit", OTHER)}
    session = Analyzer()
    session.update_all(files.values())
    cut = text.index("type Big5 {") + len("type Big5 {")
    steps = [
        text[:cut] + "\n\tbroken string @length(1,\n" + text[cut:],  # an unclosed argument list
        text[:cut] + "\n\tbroken string @length(1, 2)\n" + text[cut:],  # fixed
        text.replace("type Big7 {", "type Big7 "),  # a body without its brace
        text,  # back to the start
        text.replace("type Big2 {", "type Big2x {"),  # a rename: Big3's reference breaks
        text,
    ]
    for step in steps:
        files[path] = parse_file(path, step)
        _assert_same(session.update(files[path]).diagnostics, files)


def test_unknown_name_hints_follow_new_declarations_in_the_same_file() -> None:
    path = "/d/a/a.kit"
    text = "package a\n\ntype A {\n\tu Usr\n}\n"
    files = {path: parse_file(path, text)}
    session = Analyzer()
    session.update_all(files.values())
    for step in [text + "\ntype User {}\n", text, text + "\nmiddleware Auth\n"]:
        files[path] = parse_file(path, step)
        _assert_same(session.update(files[path]).diagnostics, files)


def _summary_by_walking(file: SourceFile) -> tuple[bool, dict[str, object]]:
    """`summarize` spelled with the walkers it replaces."""
    mentions = False
    edges: dict[str, object] = {}
    for site in refs_of(file):
        for r in walk_ref(site.ref):
            if r.package is None and r.name == "file" and not r.args:
                mentions = True
            elif site.role in ("field", "mixin") and r.package and r.package != file.package:
                edges.setdefault(r.package, r)
    return mentions, edges


@SETTINGS
@given(st.integers(0, len(SEEDS) - 1), edit_scripts())
def test_file_summaries_match_the_walkers(which: int, script: list[tuple[str, int, int, str]]) -> None:
    text = SEEDS[which].read_text(encoding="utf-8")
    history: list[str] = []
    for step in [("line", 0, 0, ""), *script]:
        text = _apply(text, history, step)
        f = parse_file("/d/s.kit", text)
        got = summarize(f)
        assert (got.mentions_file, got.edges) == _summary_by_walking(f)


class _Forgetful(set):  # type: ignore[type-arg]
    """A memo that remembers nothing."""

    def __contains__(self, item: object) -> bool:
        return False

    def add(self, item: object) -> None:
        return None


@SETTINGS
@given(st.integers(0, len(SEEDS) - 1), edit_scripts())
def test_check_memos_change_no_result(which: int, script: list[tuple[str, int, int, str]]) -> None:
    """The decorator and validator checks remember clean inputs across analyses; with
    that memory (warmed by every earlier example) the result is the one without it."""
    import kit_core.analyzer.decorators as decorators_rule
    import kit_core.analyzer.fieldopts as fieldopts_rule
    import kit_core.analyzer.validators as validators_rule

    text = SEEDS[which].read_text(encoding="utf-8")
    history: list[str] = []
    for step in script:
        text = _apply(text, history, step)
    files = [
        parse_file("/d/m/m.kit", text),
        parse_file("/d/o/o.kit", OTHER),
        parse_file("/d/big/big.kit", big_design()),
    ]
    remembered = analyze(files).diagnostics
    rules = (decorators_rule, validators_rule, fieldopts_rule)
    saved = [rule._CLEAN for rule in rules]
    for rule in rules:
        rule._CLEAN = _Forgetful()
    try:
        assert analyze(files).diagnostics == remembered
    finally:
        for rule, memo in zip(rules, saved, strict=True):
            rule._CLEAN = memo
