"""Time Go generation (parse -> analyze -> Go generator, gofmt included) on a large design.

    python bench/gen/bench_gen.py [--types 2000] [--methods 600] [--target-seconds 3]

Uses the analyzer engineer's `bench/gen_design.py` (a `write_design(root, types, methods)`
function) when it exists, else a built-in synthetic design of the same size. Prints wall
time per stage, the number of files and the output size; exits 1 over the target.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from kit_core import program  # noqa: E402
from kit_core.generators import go  # noqa: E402

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


def make_design(root: Path, types: int, methods: int) -> None:
    script = REPO / "bench" / "gen_design.py"
    if script.exists():
        spec = importlib.util.spec_from_file_location("gen_design", script)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules["gen_design"] = module  # dataclasses look their module up while executing it
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        if hasattr(module, "write_design"):
            module.write_design(root, types, methods)
            return
    synthetic(root, types, methods)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--types", type=int, default=2000)
    ap.add_argument("--methods", type=int, default=600)
    ap.add_argument("--target-seconds", type=float, default=3.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as tmp:
        design_dir = Path(tmp) / "design"
        make_design(design_dir, args.types, args.methods)
        t0 = time.perf_counter()
        design = program.load_design(design_dir)
        design.module = "example.com/bench"
        t1 = time.perf_counter()
        checked = program.check(design)
        t2 = time.perf_counter()
        files, _ = go.generate(program.gen_context(design, checked.analysis))
        t3 = time.perf_counter()
    size = sum(len(f.content.encode()) for f in files)
    errors = sum(1 for d in checked.diagnostics if d.is_error)
    print(f"design: {len(design.files)} files, {errors} errors")
    print(f"parse {t1 - t0:.2f}s  analyze {t2 - t1:.2f}s  go generator {t3 - t2:.2f}s  total {t3 - t0:.2f}s")
    print(f"output: {len(files)} Go/YAML files, {size / 1e6:.1f} MB")
    ok = t3 - t0 <= args.target_seconds
    print(f"target {args.target_seconds:.1f}s: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
