"""Service benchmark: the generated service beside hand-written Go, ogen and oapi-codegen.

    python bench/service/run.py [--rounds 7] [--duration 1s] [--conns 8] [--core 0]
                                [--benchtime 1s] [--skip-load] [--skip-bench] [--work DIR]

Generates `bench/service/design` into a temporary Go project (module example.com/benchsvc,
the runtime of this checkout), puts in the benchmark's logic (`logic/`, in place of the
scaffolds), the hand-written baseline (`handwritten/`), the peers (`peers/`: ogen's and
oapi-codegen's servers, generated from the `docs/openapi.yaml` kit wrote, by the generator
versions pinned in `peers/tools/go.mod`, with the same logic as glue), the servers of the
baseline and peers (`cmd/peer`), the load generator (`cmd/loadtest`) and the in-process
comparison (`benchcmp/`), builds them and runs

1. the parity check: every server must answer each invalid request of
   `cmd/loadtest/parity.go` (the benchmark's invalid body first) with 400; exits 1 if not;
2. `go test -bench` of each handler (kit, hand-written, ogen, oapi-codegen; ns/op,
   allocs/op; target: kit's allocations at most the hand-written ones);
3. the loopback load test: the generated service with a lean config (logging at warn,
   telemetry off, docs off) and with its config as generated, the hand-written server and
   the peers, each pinned to one core, in alternating rounds; CPU time per request and
   requests per second, medians, as ratios against the hand-written server of the same run
   (targets: lean <= 1.0x hand-written and <= 0.9x ogen, default <= 1.5x hand-written). A
   further server runs the generated config with otel and metrics off: the difference to
   the default row is what telemetry costs per request.

Exits 0 once everything ran and parity holds: figures print, nothing asserts a time.
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
PEERS = HERE / "peers"
TOOLS = PEERS / "tools"
# The libraries the peers' generated code and glue import, at the versions of the tools module.
PEER_LIBS = (
    "github.com/ogen-go/ogen",
    "github.com/oapi-codegen/runtime",
    "github.com/oapi-codegen/nethttp-middleware",
    "github.com/getkin/kin-openapi",
)


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
        ("peers/ogen", "internal/peers/ogen"),
        ("peers/oapi", "internal/peers/oapi"),
        ("cmd", "cmd"),
        ("benchcmp", "internal/benchcmp"),
    ):
        shutil.copytree(HERE / src, root / dest, dirs_exist_ok=True)
    make_peers(root)


def pinned(lib: str) -> str:
    """The version of lib the tools module pins."""
    m = re.search(rf"^\s*(?:require\s+)?{re.escape(lib)} (v\S+)", (TOOLS / "go.mod").read_text(), re.M)
    if m is None:
        sys.exit(f"{TOOLS / 'go.mod'} pins no version of {lib}")
    return m[1]


def make_peers(root: Path) -> None:
    """Generates the peers' servers from the OpenAPI document kit wrote, with the generators
    pinned in peers/tools, and adds their libraries (same versions) to the project."""
    doc = root / "docs/openapi.yaml"
    ogen_dir, oapi_dir = root / "internal/peers/ogen/api", root / "internal/peers/oapi"
    tool = ["go", "tool", "-modfile", str(TOOLS / "go.mod")]
    sh(
        [
            *tool,
            "ogen",
            "-config",
            str(PEERS / "ogen.yml"),
            "-package",
            "api",
            "-target",
            str(ogen_dir),
            "-clean",
            str(doc),
        ],
        root,
    )
    (oapi_dir / "api").mkdir(parents=True, exist_ok=True)
    sh([*tool, "oapi-codegen", "-config", str(PEERS / "oapi-codegen.yaml"), str(doc)], oapi_dir)
    sh(["go", "mod", "edit", *(f"-require={lib}@{pinned(lib)}" for lib in PEER_LIBS)], root)
    with (root / "go.sum").open("a") as sums:
        sums.write((TOOLS / "go.sum").read_text())
    sh(["go", "mod", "tidy"], root)


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
        m = re.match(
            r"Benchmark(\w+)/(kit|kitstack|hand|ogen|oapi)-\d+\s+\d+\s+([\d.]+) ns/op\s+(\d+) B/op\s+(\d+) allocs/op",
            line,
        )
        if m:
            rows.setdefault(m[1], {})[m[2]] = (float(m[3]), int(m[4]), int(m[5]))
    impls = ("kit", "kitstack", "hand", "ogen", "oapi")
    print("== in-process handlers (go test -bench, benchtime " + benchtime + "): ns/op, B/op, allocs/op")
    print(f"{'endpoint':<8} " + " ".join(f"{name:>22}" for name in impls) + "  kitstack allocs <= hand")
    for name, r in rows.items():
        cells = " ".join(f"{f'{r[i][0]:.0f} / {r[i][1]} / {r[i][2]}':>22}" for i in impls)
        print(f"{name:<8} {cells}  {'ok' if r['kitstack'][2] <= r['hand'][2] else 'OVER'}")


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
        for pkg, name in ((".", "kit"), ("./cmd/peer", "peer"), ("./cmd/loadtest", "loadtest")):
            sh(["go", "build", *GO_ENV_FLAGS, "-o", str(bins / name), pkg], root)
        default, lean, notel = configs(root)
        servers = [str(bins / "loadtest"), "-kit", str(bins / "kit"), "-peer", str(bins / "peer")]
        servers += ["-lean", str(lean), "-default", str(default), "-notel", str(notel)]
        print("== parity: every server answers the invalid requests with 400")
        if subprocess.run([*servers, "-parity", "-core", ""], cwd=root, check=False).returncode != 0:
            sys.exit("parity check failed: the servers answer the invalid requests differently (see above)")
        if not args.skip_bench:
            go_bench(root, args.benchtime)
        if not args.skip_load:
            print("== loopback load")
            cmd = [
                *servers, "-d", args.duration, "-rounds", str(args.rounds), "-c", str(args.conns),
                "-core", args.core, "-only", args.only,
            ]  # fmt: skip
            subprocess.run(cmd, cwd=root, check=True)
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
