"""Time a full parse + analyze of a large design, and re-analysis after one file edit.

    python bench/run_analyze.py [--design DIR] [--repeat 5]
    python bench/run_analyze.py --pathological [--repeat 3]

Without --design a synthetic design is generated (bench/gen_design.py: about 100
packages, 2,000 types, 600 methods, plus one 3,000-line file) in a temporary folder.
Each time is the median of --repeat runs and is printed with two ratios: against its
target on this machine (full: 1 s, one-file edit: 50 ms) and against a baseline measured
in the same run (a plain tree-sitter parse of the same bytes, no lowering, no analysis).
With --pathological it times pathological designs instead (bench/pathological.py: a chain
and a cycle of 1,000 mixins, 5,000 references to unknown types), each against a plain
tree-sitter parse of the same bytes. Prints only; it asserts nothing (timings belong in no
test).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from gen_design import write_design  # noqa: E402
from pathological import mixin_chain, unknown_references  # noqa: E402

from kit_core import syntax  # noqa: E402
from kit_core.analyzer import Analyzer, analyze  # noqa: E402
from kit_core.lower import parse_file  # noqa: E402
from kit_core.manifest_reader import parse_manifest  # noqa: E402

FULL_TARGET = 1.0
EDIT_TARGET = 0.050


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(label: str, seconds: float, target: float, baseline: float) -> None:
    ratio_t = seconds / target
    ratio_b = seconds / baseline if baseline > 0 else float("inf")
    verdict = "within target" if seconds <= target else "OVER target"
    print(
        f"{label:<34} {seconds * 1000:9.1f} ms   {ratio_t:5.2f}x target ({target * 1000:.0f} ms, {verdict})"
        f"   {ratio_b:6.1f}x baseline ({baseline * 1000:.1f} ms)"
    )


def edited(text: str, n: int) -> str:
    """One realistic edit: a field added to the first type of the file."""
    return text.replace("\tname string @length(1, 200)\n", f"\tname string @length(1, 200)\n\tadded{n} int?\n", 1)


def run(root: Path, repeat: int) -> None:
    manifest_path = root / "kit.design.yaml"
    manifest, _ = parse_manifest(str(manifest_path), manifest_path.read_text(encoding="utf-8"))
    paths = sorted(str(p) for p in root.rglob("*.kit"))
    texts = {p: Path(p).read_text(encoding="utf-8") for p in paths}
    data = {p: t.encode("utf-8") for p, t in texts.items()}
    lines = sum(t.count("\n") + 1 for t in texts.values())
    print(f"design: {root} - {len(paths)} files, {lines} lines")

    baseline_full = median_time(lambda: [syntax.parse(b) for b in data.values()], repeat)
    files = [parse_file(p, texts[p]) for p in paths]
    parse_only = median_time(lambda: [parse_file(p, texts[p]) for p in paths], repeat)
    analyze_only = median_time(lambda: analyze(files, manifest), repeat)
    full = median_time(lambda: analyze([parse_file(p, texts[p]) for p in paths], manifest), repeat)
    diags = analyze(files, manifest).diagnostics

    edit_path = str(root / "p50" / "types.kit") if str(root / "p50" / "types.kit") in texts else paths[len(paths) // 2]
    session = Analyzer(manifest)
    session.update_all(files)
    baseline_edit = median_time(lambda: syntax.parse(data[edit_path]), repeat)
    counter = iter(range(10**6))

    def one_edit() -> None:
        session.update(parse_file(edit_path, edited(texts[edit_path], next(counter))))

    one_edit()  # warm the session once, as an editor would be
    edit = median_time(one_edit, max(repeat, 5))
    update_only_files = [parse_file(edit_path, edited(texts[edit_path], 10**6 + i)) for i in range(max(repeat, 5))]
    it = iter(update_only_files)
    update_only = median_time(lambda: session.update(next(it)), max(repeat, 5))

    print(f"diagnostics: {len(diags)} ({sum(d.is_error for d in diags)} errors)")
    print(f"{'tree-sitter parse, all files':<34} {baseline_full * 1000:9.1f} ms   (baseline)")
    print(f"{'  lowering to the model (parse)':<34} {parse_only * 1000:9.1f} ms")
    print(f"{'  analysis alone':<34} {analyze_only * 1000:9.1f} ms")
    report("full parse + analyze", full, FULL_TARGET, baseline_full)
    print(f"edited file: {edit_path}")
    report("one-file edit: parse + re-analyze", edit, EDIT_TARGET, baseline_edit)
    report("one-file edit: re-analyze only", update_only, EDIT_TARGET, baseline_edit)


PATHOLOGICAL = (
    ("chain of 1,000 mixins", lambda: mixin_chain(1000)),
    ("cycle of 1,000 mixins", lambda: mixin_chain(1000, cycle=True)),
    ("5,000 unknown type references", lambda: unknown_references(5000)),
)


def run_pathological(repeat: int) -> None:
    """Parse + analyze of each pathological design, as a ratio to a plain parse of its bytes."""
    print(f"{'design':<34} {'parse+analyze':>13}   {'tree-sitter parse':>17}   ratio")
    for label, make in PATHOLOGICAL:
        text = make()
        data = text.encode()
        baseline = median_time(lambda data=data: syntax.parse(data), repeat)
        full = median_time(lambda text=text: analyze([parse_file("/bench/p.kit", text)]), repeat)
        print(f"{label:<34} {full * 1000:10.1f} ms   {baseline * 1000:14.1f} ms   {full / baseline:6.1f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--design", type=Path, help="an existing design folder (default: generate one)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pathological", action="store_true", help="time pathological designs instead")
    args = ap.parse_args(argv)
    if args.pathological:
        run_pathological(args.repeat)
        return 0
    if args.design:
        run(args.design.resolve(), args.repeat)
        return 0
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as tmp:
        info = write_design(Path(tmp) / "design")
        print(
            f"generated {info.packages} packages, {info.types} types, {info.methods} methods "
            f"(+ {info.big_file.name}, {len(info.big_file.read_text().splitlines())} lines)"
        )
        run(info.root.resolve(), args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
