"""Properties: parse + analyze never raises, never hits an internal error, and every
diagnostic is located inside the file it names; the incremental session agrees with a
full analysis after each edit."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core.analyzer import Analyzer, analyze
from kit_core.diagnostics import Diagnostic
from kit_core.lower import parse_file
from kit_core.model import SourceFile

CASES = Path(__file__).parent / "cases"
SEEDS = sorted(p for p in CASES.rglob("*.kit"))
SEED_TEXTS = [p.read_text(encoding="utf-8") for p in SEEDS]
TOKENS = [
    "package p\n",
    "type ",
    "T",
    "U",
    "<T>",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "?",
    "@",
    ".",
    ",",
    "/",
    "=",
    "-",
    "map<string, ",
    ">",
    " string",
    " int",
    " file",
    " datetime",
    " any",
    "\n",
    "@path",
    "@query",
    "@form",
    "@default(",
    "@length(1, 2)",
    "@positive",
    "service S {",
    "get M /x/{id} {",
    "request T",
    "response T",
    "extend service S {",
    "event E { payload T[] }",
    "enum E { A B = 1 }",
    "scalar S string",
    "error NotFound E",
    "middleware M",
    "@middlewares(M)",
    '@group("g")',
    '"str"',
    "`raw`",
    "5s",
    "2MB",
    "-1",
    "1.5",
    "null",
    "// c\n",
    'import "x"\n',
    "@security(a)",
    "@errors(E)",
    "@requiresOneOf(a, b)",
    "Page<T?>",
    "T[][]",
]
EXAMPLES = int(os.environ.get("KIT_PROPERTY_EXAMPLES", "60"))  # raise it for a longer local run
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(files: list[SourceFile], diags: tuple[Diagnostic, ...]) -> None:
    sizes = {f.path: len(f.source.encode("utf-8")) for f in files}
    for d in diags:
        assert d.code != "internal/analyzer-error", d.render()
        assert d.span.path in sizes, f"{d.render()} is located outside the analysed files"
        assert 0 <= d.span.start_byte <= d.span.end_byte <= sizes[d.span.path], d.render()
        assert d.span.start_line >= 0 and d.span.start_col >= 0, d.render()


def _run(texts: list[str]) -> None:
    files = [parse_file(f"/design/f{i}.kit", t) for i, t in enumerate(texts)]
    _check(files, analyze(files).diagnostics)


@SETTINGS
@given(st.text(max_size=400))
def test_random_text(text: str) -> None:
    _run([text])


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_random_token_soup(text: str) -> None:
    _run([text, "package p\ntype T { x string }\n"])


@SETTINGS
@given(st.sampled_from(SEED_TEXTS), st.data())
def test_mutated_designs(seed: str, data: st.DataObject) -> None:
    text = seed
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["delete", "insert", "swap"]))
        if op == "delete":
            end = min(len(text), pos + data.draw(st.integers(1, 12)))
            text = text[:pos] + text[end:]
        elif op == "insert":
            text = text[:pos] + data.draw(st.sampled_from(TOKENS)) + text[pos:]
        else:
            text = text[:pos] + data.draw(st.sampled_from(TOKENS)) + text[pos + 1 :]
    _run([text, SEED_TEXTS[0]])


@SETTINGS
@given(
    st.lists(
        st.tuples(st.integers(0, len(SEEDS) - 1), st.integers(0, 2000), st.sampled_from(TOKENS)), min_size=1, max_size=5
    )
)
def test_incremental_session_matches_full_analysis(edits: list[tuple[int, int, str]]) -> None:
    texts = {f"/design/{p.parent.name}/{p.name}": t for p, t in zip(SEEDS[:12], SEED_TEXTS[:12], strict=True)}
    files = {path: parse_file(path, t) for path, t in texts.items()}
    session = Analyzer()
    session.update_all(files.values())
    paths = sorted(files)
    for which, pos, token in edits:
        path = paths[which % len(paths)]
        text = texts[path]
        pos = pos % (len(text) + 1)
        texts[path] = text[:pos] + token + text[pos:]
        files[path] = parse_file(path, texts[path])
        incremental = session.update(files[path]).diagnostics
        full = analyze(list(files.values())).diagnostics
        assert [d.render() for d in incremental] == [d.render() for d in full]


def test_incremental_session_adds_removes_and_moves_files() -> None:
    texts = {f"/design/{p.parent.name}/{p.name}": t for p, t in zip(SEEDS, SEED_TEXTS, strict=True)}
    files = {path: parse_file(path, t) for path, t in texts.items()}
    session = Analyzer()
    session.update_all(files.values())
    steps: list[tuple[str, str | None]] = [
        ("/design/shared/shared.kit", None),  # remove the package other files use
        ("/design/shared/shared.kit", texts.get("/design/shared/shared.kit")),  # and bring it back
        ("/design/extra/new.kit", "package orders\n\ntype Item {}\n"),  # a duplicate in another file
        ("/design/extra/new.kit", "package moved\n\ntype Item {}\n"),  # the file changes package
    ]
    batch = session.update_many([files[p] for p in sorted(files)][:3], ["/design/nowhere.kit"]).diagnostics
    assert [d.render() for d in batch] == [d.render() for d in analyze(list(files.values())).diagnostics]
    for path, text in steps:
        if text is None:
            files.pop(path, None)
            incremental = session.remove(path).diagnostics
        else:
            files[path] = parse_file(path, text)
            incremental = session.update(files[path]).diagnostics
        full = analyze(list(files.values())).diagnostics
        assert [d.render() for d in incremental] == [d.render() for d in full], path
