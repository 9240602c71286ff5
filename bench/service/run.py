"""Service benchmark: the generated service beside the same endpoints written by hand.

    python bench/service/run.py [--rounds 7] [--duration 1s] [--conns 8] [--core 0]
                                [--benchtime 1s] [--skip-load] [--skip-bench] [--work DIR]

Generates `bench/service/design` into a temporary Go project (module example.com/benchsvc,
the runtime of this checkout), puts in the benchmark's logic (`logic/`, in place of the
scaffolds), the hand-written baseline (`handwritten/`, `cmd/handwritten`), the load
generator (`cmd/loadtest`) and the in-process comparison (`benchcmp/`), builds them and runs

1. `go test -bench` of each generated handler against its hand-written twin (ns/op,
   allocs/op; target: allocations at most the hand-written ones);
2. the loopback load test: the generated service with a lean config (logging at warn,
   telemetry off, docs off) and with its config as generated, and the hand-written server,
   each pinned to one core, in alternating rounds; CPU time per request and requests per
   second, medians, as ratios against the hand-written server of the same run (targets:
   lean <= 1.2x, default <= 1.5x CPU per request on every endpoint). A fourth server runs the
   generated config with otel and metrics off: the difference to the default row is what
   telemetry costs per request.

Always exits 0 once everything ran: figures print, nothing asserts a time.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

MODULE = "example.com/benchsvc"
GO_ENV_FLAGS = ["-trimpath"]


def sh(cmd: list[str], cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def make_project(root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(HERE / "design", root / "design")
    gomod = (REPO / "examples/todo/go.mod").read_text()
    gomod = gomod.replace("example.com/todo", MODULE).replace("../../runtime", str(REPO / "runtime"))
    (root / "go.mod").write_text(gomod)
    shutil.copy(REPO / "examples/todo/go.sum", root / "go.sum")
    sh([sys.executable, "-c", "from kit_core.cli import main; main()", "gen", "design"], root)
    for src, dest in (
        ("logic", "."),
        ("handwritten", "internal/handwritten"),
        ("cmd", "cmd"),
        ("benchcmp", "internal/benchcmp"),
    ):
        shutil.copytree(HERE / src, root / dest, dirs_exist_ok=True)


def configs(root: Path) -> tuple[Path, Path, Path]:
    """The generated config (its listen addresses made local and free), the lean one, and the
    generated one with otel and metrics off (what telemetry costs is the difference)."""
    generated = (root / "config/config.yaml").read_text()
    default = generated.replace('addr: ":8080"', 'addr: "127.0.0.1:0"').replace('adminAddr: ":9090"', 'adminAddr: ""')
    lean = re.sub(r"level: info", "level: warn", default)
    lean = lean.replace("otel:\n  enabled: true", "otel:\n  enabled: false")
    lean = lean.replace("metrics:\n  enabled: true", "metrics:\n  enabled: false")
    lean = lean.replace("docs:\n  enabled: true", "docs:\n  enabled: false")
    for needle in ("level: warn", "otel:\n  enabled: false", "metrics:\n  enabled: false", "docs:\n  enabled: false"):
        assert needle in lean, f"the generated config changed shape: {needle!r} not made"
    notel = default.replace("otel:\n  enabled: true", "otel:\n  enabled: false")
    notel = notel.replace("metrics:\n  enabled: true", "metrics:\n  enabled: false")
    paths = root / "default.yaml", root / "lean.yaml", root / "notel.yaml"
    for path, text in zip(paths, (default, lean, notel), strict=True):
        path.write_text(text)
    return paths


def go_bench(root: Path, benchtime: str) -> None:
    out = sh(
        ["go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", benchtime, "./internal/benchcmp/"], root
    )
    rows: dict[str, dict[str, tuple[float, int]]] = {}
    for line in out.splitlines():
        m = re.match(r"Benchmark(\w+)/(kit|hand)-\d+\s+\d+\s+([\d.]+) ns/op\s+\d+ B/op\s+(\d+) allocs/op", line)
        if m:
            rows.setdefault(m[1], {})[m[2]] = (float(m[3]), int(m[4]))
    print("== in-process handlers (go test -bench, benchtime " + benchtime + ")")
    print(f"{'endpoint':<8} {'kit ns/op':>10} {'hand ns/op':>11} {'ratio':>7} {'kit allocs':>11} {'hand allocs':>12}")
    for name, r in rows.items():
        (kn, ka), (hn, ha) = r["kit"], r["hand"]
        verdict = "ok" if ka <= ha else "OVER"
        print(f"{name:<8} {kn:>10.0f} {hn:>11.0f} {kn / hn:>6.2f}x {ka:>11} {ha:>12}  {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--duration", default="1s")
    ap.add_argument("--conns", type=int, default=8)
    ap.add_argument("--core", default="0")
    ap.add_argument("--benchtime", default="1s")
    ap.add_argument("--only", default="", help="endpoints of the load test (create,invalid,get,list)")
    ap.add_argument("--skip-load", action="store_true")
    ap.add_argument("--skip-bench", action="store_true")
    ap.add_argument("--work", type=Path, help="project directory (default: a temporary one)")
    args = ap.parse_args()
    tmp = None if args.work else tempfile.TemporaryDirectory(prefix="kit-bench-service-")
    root = args.work or Path(tmp.name) / "benchsvc"  # type: ignore[union-attr]
    try:
        make_project(root)
        bins = root / "bin"
        for pkg, name in ((".", "kit"), ("./cmd/handwritten", "hand"), ("./cmd/loadtest", "loadtest")):
            sh(["go", "build", *GO_ENV_FLAGS, "-o", str(bins / name), pkg], root)
        default, lean, notel = configs(root)
        if not args.skip_bench:
            go_bench(root, args.benchtime)
        if not args.skip_load:
            print("== loopback load")
            cmd = [
                str(bins / "loadtest"), "-kit", str(bins / "kit"), "-hand", str(bins / "hand"),
                "-lean", str(lean), "-default", str(default), "-notel", str(notel), "-d", args.duration,
                "-rounds", str(args.rounds), "-c", str(args.conns), "-core", args.core, "-only", args.only,
            ]  # fmt: skip
            subprocess.run(cmd, cwd=root, check=True)
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
