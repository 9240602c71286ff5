"""Compile and generate 200 protos with kit, against grpcio-tools' protoc run as a subprocess.

    python bench/grpc/bench_compile.py [--protos 200] [--runs 3]

Writes a synthetic design (20 directories of 10 protos; each proto imports a shared one and
well-known types, declares 6 messages and a service of 4 RPCs, one of each kind), builds the
two plugins once into bench/grpc/bin (pinned in this folder's go.mod), then per run, best of
``--runs``:

1. compile only: kit's in-process compile stage (`kit_core.proto.compile_design`: protoc in
   this process, descriptors with source info, located diagnostics, kit's proto rules)
   against `python -m grpc_tools.protoc --descriptor_set_out` (a fresh interpreter);
2. compile and generate: `kit gen` in this process (load, compile, check, the gRPC server
   layer, both plugins fed over stdin, writing every file) against the same subprocess
   running both plugins with `--go_out --go-grpc_out` (pb code only).

Both sides run the same plugin binaries. The machine is shared: wall times are noisy;
ratios from one run are what to compare. Always exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))

from kit_core import cli, program  # noqa: E402
from kit_core.manifest_reader import load_manifest  # noqa: E402
from kit_core.proto import compile_design  # noqa: E402
from kit_core.proto.compile import well_known_root  # noqa: E402

SHARED = 'syntax = "proto3";\npackage shared;\nmessage Money { int64 cents = 1; string currency = 2; }\n'


def proto(d: int, i: int) -> str:
    msgs = "".join(
        f"message M{i}_{j} {{\n  string id = 1;\n  shared.Money price = 2;\n"
        f"  google.protobuf.Timestamp at = 3;\n  repeated string tags = 4;\n  map<string, int64> counts = 5;\n}}\n"
        for j in range(4)
    )
    svc = (
        f"service Svc{d}x{i} {{\n  rpc Get(M{i}_0) returns (M{i}_1);\n"
        f"  rpc Watch(M{i}_0) returns (stream M{i}_1);\n"
        f"  rpc Push(stream M{i}_2) returns (google.protobuf.Empty);\n"
        f"  rpc Chat(stream M{i}_3) returns (stream M{i}_3);\n}}\n"
    )
    return (
        f'syntax = "proto3";\npackage bench.d{d};\nimport "shared/shared.proto";\n'
        'import "google/protobuf/timestamp.proto";\nimport "google/protobuf/empty.proto";\n'
        f"// Protos {i} of directory {d}.\n{msgs}"
        f"message Req{i} {{ string q = 1; }}\nmessage Resp{i} {{ string a = 1; }}\n{svc}"
    )


def write_design(root: Path, protos: int) -> list[str]:
    design = root / "design"
    (design / "shared").mkdir(parents=True)
    (design / "shared/shared.proto").write_text(SHARED)
    bins = HERE / "bin"
    (design / "kit.design.yaml").write_text(
        f"proto:\n  plugins:\n    go: {bins / 'protoc-gen-go'}\n    goGrpc: {bins / 'protoc-gen-go-grpc'}\n"
    )
    (root / "go.mod").write_text("module example.com/bench\n\ngo 1.26.0\n")
    names = ["shared/shared.proto"]
    per_dir = 10
    for n in range(protos - 1):
        d, i = divmod(n, per_dir)
        path = design / f"d{d}" / f"p{i}.proto"
        path.parent.mkdir(exist_ok=True)
        path.write_text(proto(d, i))
        names.append(f"d{d}/p{i}.proto")
    return names


def build_plugins() -> None:
    subprocess.run(
        [
            "go",
            "build",
            "-o",
            "bin/",
            "google.golang.org/protobuf/cmd/protoc-gen-go",
            "google.golang.org/grpc/cmd/protoc-gen-go-grpc",
        ],
        cwd=HERE,
        check=True,
    )


def best(runs: int, fn: Callable[[int], None]) -> float:
    times = []
    for r in range(runs):
        start = time.perf_counter()
        fn(r)
        times.append(time.perf_counter() - start)
    return min(times)


def protoc(root: Path, names: list[str], out: Path, plugins: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, "-m", "grpc_tools.protoc", f"-I{root / 'design'}", f"-I{well_known_root()}"]
    if plugins:
        args += [
            f"--plugin=protoc-gen-go={HERE / 'bin/protoc-gen-go'}",
            f"--plugin=protoc-gen-go-grpc={HERE / 'bin/protoc-gen-go-grpc'}",
            f"--go_out={out}",
            f"--go-grpc_out={out}",
            "--go_opt=module=example.com/bench",
            "--go-grpc_opt=module=example.com/bench",
            *[f"--go_opt=M{n}=example.com/bench/internal/pb/{Path(n).parent};{Path(n).parent.name}" for n in names],
            *[
                f"--go-grpc_opt=M{n}=example.com/bench/internal/pb/{Path(n).parent};{Path(n).parent.name}"
                for n in names
            ],
        ]
    else:
        args += [f"--descriptor_set_out={out / 'set.pb'}", "--include_imports", "--include_source_info"]
    subprocess.run([*args, *names], check=True)


def kit_compile(root: Path) -> None:
    manifest, _ = load_manifest(root / "design/kit.design.yaml")
    pd = compile_design(root / "design", root, manifest)
    assert pd.files and not pd.has_errors, pd.diagnostics[:3]


def kit_generate_in_memory(root: Path) -> int:
    """load, compile, check, generate (server layer and plugins): everything but the writer."""
    design = program.load_design(root / "design", project_root=root)
    checked = program.check(design)
    assert not checked.has_errors
    return len(program.generate(design, checked.analysis).files)


def kit_gen(root: Path) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["gen", "-f", str(root / "design"), "-c", str(root)])
    assert code == 0, out.getvalue()[-2000:]
    return sum(1 for _ in (root / "internal").rglob("*.go"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--protos", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    build_plugins()
    with tempfile.TemporaryDirectory(prefix="kit-bench-grpc-") as tmp:
        base = Path(tmp)
        src = base / "src"
        names = write_design(src, args.protos)
        print(f"{args.protos} protos, {args.runs} runs each, best wall time")
        kc = best(args.runs, lambda r: kit_compile(src))
        pc = best(args.runs, lambda r: protoc(src, names, base / f"set{r}", plugins=False))
        print(f"compile only:   kit in-process {kc:.3f}s   protoc subprocess {pc:.3f}s   -> kit {pc / kc:.2f}x faster")
        counts: list[int] = []

        def kit_run(r: int) -> None:
            root = base / f"kit{r}"
            names_r = write_design(root, args.protos)
            assert names_r == names
            kit_gen(root)

        km = best(args.runs, lambda r: counts.append(kit_generate_in_memory(src)))
        kg = best(args.runs, kit_run)
        pg = best(args.runs, lambda r: protoc(src, names, base / f"gen{r}", plugins=True))
        pb_files = sum(1 for _ in (base / "gen0").rglob("*.go"))
        print(
            f"compile+generate: protoc subprocess {pg:.3f}s ({pb_files} pb files written)\n"
            f"  kit, in memory (no writer) {km:.3f}s ({counts[0]} files: pb code + server layer + stubs + project)"
            f" -> kit/protoc time {km / pg:.2f}x\n"
            f"  kit gen, every file written {kg:.3f}s -> kit/protoc time {kg / pg:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
