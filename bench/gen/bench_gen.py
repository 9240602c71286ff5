"""Time Go generation (parse -> analyze -> Go generator, gofmt included) on a large design.

    python bench/gen/bench_gen.py [--types 2000] [--methods 600] [--target-seconds 3] [--runs 3]

Uses the analyzer engineer's `bench/gen_design.py` (a `write_design(root, types, methods)`
function) when it exists, else a built-in synthetic design of the same size. Each run loads,
checks and generates from scratch in this process; per stage it prints the best wall time
over the runs, the Python CPU time and the CPU time of gofmt processes, then the number and
size of the files and the ratio of the whole and of the Go generator to the target (the
machine is shared: wall times are noisy, CPU times less so). Always exits 0 (`--strict`:
exit 1 over the target).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from kit_core import program  # noqa: E402
from kit_core.generators import go  # noqa: E402
from kit_core.generators.base import OutputFile  # noqa: E402

MANIFEST = "openapi:\n  title: Bench\n  version: 1.0.0\n  basePath: /api\n"


def synthetic(root: Path, types: int, methods: int) -> None:
    """`types` types and `methods` methods spread over packages of 100 types each."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "kit.design.yaml").write_text(MANIFEST)
    packages = max(1, types // 100)
    per_pkg_methods = max(1, methods // packages)
    for p in range(packages):
        lines = [f"package p{p}", "", 'enum State {\n\tOn = "on"\n\tOff = "off"\n}', ""]
        lines.append("error NotFound Missing {\n\tid string\n}\n")
        for t in range(100):
            ref = f"\tnext T{t - 1}?\n" if t else ""
            lines.append(
                f"type T{t} {{\n\tid string @length(1, 64)\n\tcount int? @range(0, 100)\n"
                f"\temail string? @format(email)\n\ttags string[] @maxItems(10)\n\tstate State?\n{ref}}}\n"
            )
        lines.append(f"middleware Mw{p}\n")
        lines.append(f'@prefix("/p{p}")\n@middlewares(Mw{p})\nservice S{p} {{')
        for m in range(per_pkg_methods):
            t = m % 100
            clauses = f"\t\trequest T{t}Req\n\t\tresponse T{t}\n"
            lines.append(f"\t@errors(Missing)\n\tpost M{m} /m{m}/{{id}} {{\n{clauses}\t}}\n")
        lines.append("}\n")
        for t in range(100):
            lines.append(f'type T{t}Req {{\n\tT{t}\n\tpath string @path("id")\n}}\n')
        (root / f"p{p}.kit").write_text("\n".join(lines))


def make_design(root: Path, types: int, methods: int, packages: int | None = None) -> None:
    script = REPO / "bench" / "gen_design.py"
    if script.exists():
        spec = importlib.util.spec_from_file_location("gen_design", script)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules["gen_design"] = module  # dataclasses look their module up while executing it
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        if hasattr(module, "write_design"):
            module.write_design(root, types, methods, packages)
            return
    synthetic(root, types, methods)


@dataclass
class Run:
    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    gofmt_cpu: float = 0.0


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def one_run(design_dir: Path) -> tuple[Run, list[OutputFile], int, int]:
    run = Run()
    marks = [(time.perf_counter(), time.process_time())]
    design = program.load_design(design_dir)
    design.module = "example.com/bench"
    marks.append((time.perf_counter(), time.process_time()))
    checked = program.check(design)
    marks.append((time.perf_counter(), time.process_time()))
    before = children_cpu()
    files, _ = go.generate(program.gen_context(design, checked.analysis))
    run.gofmt_cpu = children_cpu() - before
    marks.append((time.perf_counter(), time.process_time()))
    for name, (a, b) in zip(STAGES, itertools.pairwise(marks), strict=True):
        run.wall[name], run.cpu[name] = b[0] - a[0], b[1] - a[1]
    errors = sum(1 for d in checked.diagnostics if d.is_error)
    return run, files, len(design.files), errors


STAGES = ("parse", "analyze", "go generator")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--types", type=int, default=2000)
    ap.add_argument("--methods", type=int, default=600)
    ap.add_argument("--target-seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--strict", action="store_true", help="exit 1 when the best total misses the target")
    args = ap.parse_args()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as tmp:
        design_dir = Path(tmp) / "design"
        make_design(design_dir, args.types, args.methods)
        for _ in range(max(1, args.runs)):
            run, files, sources, errors = one_run(design_dir)
            runs.append(run)
    size = sum(len(f.content.encode()) for f in files)
    print(f"design: {sources} files, {errors} errors; {len(runs)} runs, best of each stage")
    for name in STAGES:
        wall = min(r.wall[name] for r in runs)
        cpu = min(r.cpu[name] for r in runs)
        extra = f" + gofmt cpu {min(r.gofmt_cpu for r in runs):.2f}s" if name == "go generator" else ""
        print(f"  {name:<13} wall {wall:5.2f}s  python cpu {cpu:5.2f}s{extra}")
    total = min(sum(r.wall.values()) for r in runs)
    gen = min(r.wall["go generator"] for r in runs)
    target = args.target_seconds
    print(f"output: {len(files)} files, {size / 1e6:.1f} MB")
    print(f"total {total:.2f}s = {total / target:.2f} x target {target:.1f}s")
    print(f"go generator {gen:.2f}s = {gen / target:.2f} x target")
    return 1 if args.strict and total > target else 0


if __name__ == "__main__":
    sys.exit(main())
