"""Inline expectations for analyzer cases (mypy-style).

A case is `cases/<name>.kit` or a folder `cases/<name>/` (several `.kit` files, nested
folders, optionally `kit.design.yaml`). A line expecting diagnostics carries a trailing
comment `// E: <code>` (error) or `// W: <code>` (warning); several may follow each other
(`// E: a W: b`). In the manifest the marker is `# E: <code>`. A line marked
`// ok: <code>` is a near miss: it must not produce that code (the strict count already
ensures it; the marker records intent and is counted by the coverage test).

`check_case` is strict: every diagnostic must be expected and every expectation met;
on failure it prints every diagnostic of the case.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kit_core.analyzer import analyze
from kit_core.diagnostics import Diagnostic
from kit_core.lower import parse_file

CASES = Path(__file__).parent / "cases"
_EXPECT = re.compile(r"(?:^|\s)([EW]): ([a-z0-9_-]+/[a-z0-9_-]+)")
_OK = re.compile(r"ok: ([a-z0-9_-]+/[a-z0-9_-]+)")


@dataclass(frozen=True, slots=True)
class Expect:
    path: str  # relative to the case
    line: int  # 1-based
    severity: str  # "error" | "warning"
    code: str


def case_paths() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.suffix == ".kit" or p.is_dir())


def _sources(case: Path) -> list[Path]:
    if case.is_file():
        return [case]
    return sorted(p for p in case.rglob("*") if p.suffix in (".kit", ".yaml") and p.is_file())


def _comment(line: str, suffix: str) -> str:
    """The comment part of a line (`//` in design files, `#` in the manifest)."""
    marker = "#" if suffix == ".yaml" else "//"
    idx = line.find(marker)
    return line[idx:] if idx >= 0 else ""


def expectations(case: Path) -> tuple[list[Expect], list[str]]:
    """(expected diagnostics, near-miss codes) written in a case."""
    root = case.parent if case.is_file() else case
    expects: list[Expect] = []
    near: list[str] = []
    for src in _sources(case):
        rel = src.relative_to(root).as_posix()
        for i, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            comment = _comment(line, src.suffix)
            for sev, code in _EXPECT.findall(comment):
                expects.append(Expect(rel, i, "error" if sev == "E" else "warning", code))
            near.extend(_OK.findall(comment))
    return expects, near


def run_case(case: Path) -> list[Diagnostic]:
    if case.is_file():
        f = parse_file(str(case), case.read_text(encoding="utf-8"))
        return list(analyze([f]).diagnostics)
    if (case / "kit.design.yaml").is_file():
        from kit_core.program import check, load_design

        design = load_design(case)
        return list(check(design).diagnostics)
    files = [parse_file(str(p), p.read_text(encoding="utf-8")) for p in sorted(case.rglob("*.kit"))]
    return list(analyze(files).diagnostics)


def _actual(case: Path, diags: list[Diagnostic]) -> list[Expect]:
    root = (case.parent if case.is_file() else case).resolve()
    out = []
    for d in diags:
        try:
            rel = Path(d.span.path).resolve().relative_to(root).as_posix()
        except ValueError:
            rel = d.span.path
        out.append(Expect(rel, d.span.start_line + 1, d.severity.value, d.code))
    return out


def check_case(case: Path) -> None:
    expected, _ = expectations(case)
    diags = run_case(case)
    actual = _actual(case, diags)
    missing = Counter(expected) - Counter(actual)
    extra = Counter(actual) - Counter(expected)
    if missing or extra:
        lines = [f"case {case.name}:"]
        lines += [f"  missing: {e.path}:{e.line}: {e.severity} {e.code}" for e in missing.elements()]
        lines += [f"  unexpected: {e.path}:{e.line}: {e.severity} {e.code}" for e in extra.elements()]
        lines.append("  all diagnostics:")
        lines += [f"    {d.render()}" for d in diags] or ["    (none)"]
        raise AssertionError("\n".join(lines))
