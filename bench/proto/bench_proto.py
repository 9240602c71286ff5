"""Large protos: kit-lsp's diagnostics and `kit gen`'s compile on a 5 MB proto and a
googleapis-sized set of protos, against `buf build` and protoc in the same run.

    python bench/proto/bench_proto.py [--rounds 3] [--big-mb 5] [--set 600] [--only lsp,compile]

The designs are `bench/proto/gen_protos.py`'s (protovalidate rules from the Go module cache).

kit-lsp (a fresh `python -m kit_lsp` per round, stdlib client `tests/lsp/raw_client.py`):
  open   `didOpen` of the edited proto (the 5 MB one; a proto in the middle of the set that
         the rest of its directory imports) to its first `publishDiagnostics`;
  edit   a one-line edit that renames a field (still valid) to its diagnostics;
  error  an edit that breaks a field type to the diagnostics showing the error;
  fix    the edit undone to the cleared diagnostics;
  rss    the server's peak resident set (VmHWM) at the end of the round.
Each timing is wall time and the CPU time of the server and its child protocs that ended over
the same interval (the machine is shared: CPU time is the steadier figure), to the first
diagnostics of the version (a large proto's first pass), and until the server is quiet again
(the full compile behind it is in; each step waits for that). Target: 3 s from open and
from each edit, < 300 MB.

compile (alternating, one run of each per round, each a fresh process from start to exit):
  kit     `kit gen`'s compile stage: `compile_design` (protoc in-process, descriptors with
          source info, kit's proto rules) in a fresh interpreter;
  buf     `buf build -o <file>` (bench/proto/bin/buf, pinned in bench/proto/tools/go.mod;
          built on the first run), over a buf workspace of the same files;
  protoc  `python -m grpc_tools.protoc --descriptor_set_out --include_imports
          --include_source_info`, the same compiler kit runs, as a subprocess.
Target: kit no slower than buf. Prints medians and spreads; no assertion.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "lsp"))
from gen_protos import Written, rules_root, write_big, write_set  # noqa: E402
from raw_client import RawClient, diagnostics_for  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
BUF = HERE / "bin" / "buf"
KIT_COMPILE = """
import sys
from pathlib import Path
from kit_core.manifest_reader import load_manifest
from kit_core.proto import compile_design
root = Path(sys.argv[1])
manifest, _ = load_manifest(root / "kit.design.yaml")
pd = compile_design(root, root.parent, manifest)
assert pd.files and not pd.has_errors, pd.diagnostics[:3]
"""


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (its threads included) and of its children that ended
    (kit's child protoc for a large input), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICKS


def compiling(pid: int) -> bool:
    """Whether the process has a child other than its generation worker: a child protoc
    running, or one ended but not yet reaped (its CPU time is not counted until it is)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                if b"kit_lsp.worker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                    return True
            except OSError:
                continue
    return False


def settle(pid: int, quiet: float = 1.0) -> float:
    """Wait until the server has no child protoc and has used no CPU for ``quiet`` seconds
    (a full compile behind a first pass, and the analysis publishing it, are over); the
    time it went quiet."""
    last, cpu = time.perf_counter(), cpu_seconds(pid)
    while True:
        time.sleep(0.05)
        now_cpu = cpu_seconds(pid)
        if compiling(pid) or now_cpu - cpu > 0.02:
            last, cpu = time.perf_counter(), now_cpu
        elif time.perf_counter() - last >= quiet:
            return last


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _edit(text: str, old: str, new: str, version: int, uri: str) -> tuple[dict[str, object], str]:
    """A one-range didChange replacing the first ``old`` (on one line) by ``new``."""
    at = text.index(old)
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    end = {"line": line, "character": col + len(old)}
    change = {"range": {"start": {"line": line, "character": col}, "end": end}, "text": new}
    params: dict[str, object] = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
    return params, text[:at] + new + text[at + len(old) :]


def lsp_round(design: Written, probe: str) -> dict[str, float]:
    """One fresh server: open, edit, error, fix; (wall s, CPU s) of each, and peak RSS."""
    client = RawClient(env={**os.environ, "KIT_NO_DAEMON": "1"})
    pid = client.proc.pid
    out: dict[str, float] = {}
    try:
        client.initialize(design.root.parent)
        path = design.root / design.edited
        uri, text = path.as_uri(), path.read_text(encoding="utf-8")

        def timed(name: str, send: Callable[[], float], version: int, want_error: bool | None) -> None:
            cpu = cpu_seconds(pid)
            sent = send()
            while True:
                at, msg = client.wait(diagnostics_for(uri, version), timeout=900)
                errors = [d for d in msg["params"]["diagnostics"] if d.get("severity") == 1]
                if want_error is None or bool(errors) == want_error:
                    break
            out[name], out[name + " cpu"] = at - sent, cpu_seconds(pid) - cpu
            if want_error is False and errors:
                print(f"  unexpected errors after {name}: {errors[:2]}")
            # the full compile behind a first pass: over before the next step (whose CPU
            # would otherwise hold the killed child's)
            quiet = settle(pid)
            out[name + " full"], out[name + " full cpu"] = quiet - sent, cpu_seconds(pid) - cpu

        item = {"uri": uri, "languageId": "proto", "version": 1, "text": text}

        def open_it() -> float:
            return client.notify("textDocument/didOpen", {"textDocument": item})

        timed("open", open_it, 1, False)
        edits = [("edit", probe, probe + "_x", False), ("error", "int64 size", "Nowhere size", True)]
        edits.append(("fix", "Nowhere size", "int64 size", False))
        for version, (name, old, new, want) in enumerate(edits, start=2):
            params, text = _edit(text, old, new, version, uri)
            timed(name, functools.partial(client.notify, "textDocument/didChange", params), version, want)
        out["rss"] = peak_rss_mb(pid)
    finally:
        client.close()
    return out


def buf_workspace(design: Written, ws: Path) -> Path:
    """A buf v2 workspace of the design's protos and the rules (buf reads the files in place
    of protoc's import roots); the well-known types are buf's own."""
    if ws.exists():
        return ws
    shutil.copytree(design.root, ws / "design", ignore=shutil.ignore_patterns("*.yaml"))
    (ws / "rules/buf/validate").mkdir(parents=True)
    shutil.copy(design.rules / "buf/validate/validate.proto", ws / "rules/buf/validate/validate.proto")
    (ws / "buf.yaml").write_text("version: v2\nmodules:\n  - path: design\n  - path: rules\n")
    return ws


def run(args: list[str], cwd: Path | None = None) -> tuple[float, float]:
    """(wall s, CPU s of the child) of one process from start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_round(design: Written, ws: Path, out: Path) -> dict[str, tuple[float, float]]:
    from kit_core.proto.compile import well_known_root

    env_py = [sys.executable, "-c", KIT_COMPILE, str(design.root)]
    protoc = [sys.executable, "-m", "grpc_tools.protoc", f"-I{design.root}", f"-I{design.rules}"]
    protoc += [f"-I{well_known_root()}", f"--descriptor_set_out={out / 'protoc.pb'}"]
    protoc += ["--include_imports", "--include_source_info", *design.names]
    res = {"kit": run(env_py), "protoc": run(protoc)}
    if BUF.is_file():
        res["buf"] = run([str(BUF), "build", "-o", str(out / "buf.binpb")], cwd=ws)
    return res


def build_buf() -> None:
    if BUF.is_file():
        return
    print("building buf (bench/proto/tools/go.mod) ...", flush=True)
    done = subprocess.run(
        ["go", "build", "-o", str(BUF), "github.com/bufbuild/buf/cmd/buf"], cwd=HERE / "tools", check=False
    )
    if done.returncode != 0:
        print("buf did not build: protoc (subprocess) is the only baseline")


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{med:7.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--big-mb", type=float, default=5.0)
    ap.add_argument("--set", type=int, default=600)
    ap.add_argument("--only", default="lsp,compile")
    args = ap.parse_args()
    only = set(args.only.split(","))
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if "compile" in only:
        build_buf()
    rules = rules_root()
    with tempfile.TemporaryDirectory(prefix="kit-bench-proto-") as tmp:
        base = Path(tmp)
        designs = {
            f"{args.big_mb:g} MB proto": (write_big(base / "big/design", args.big_mb, rules), "f0_string"),
            f"{args.set} protos": (write_set(base / "set/design", args.set, rules), "f0_string"),
        }
        for label, (design, probe) in designs.items():
            size = sum((design.root / n).stat().st_size for n in design.names) / 1e6
            print(f"\n== {label}: {len(design.names)} files, {size:.1f} MB; edited: {design.edited}")
            if "lsp" in only:
                rounds = [lsp_round(design, probe) for _ in range(args.rounds)]
                for key in ("open", "edit", "error", "fix"):
                    wall = [r[key] for r in rounds]
                    cpu = [r[key + " cpu"] for r in rounds]
                    met = "met" if statistics.median(wall) < 3 else "MISSED"
                    print(f"  lsp {key:6} wall s {spread(wall)}  server CPU s {spread(cpu)}  target 3 s: {met}")
                    wall = [r[key + " full"] for r in rounds]
                    cpu = [r[key + " full cpu"] for r in rounds]
                    print(f"    until the full compile is in: wall s {spread(wall)}  CPU s {spread(cpu)}")
                rss = [r["rss"] for r in rounds]
                met = "met" if max(rss) < 300 else "MISSED"
                print(f"  lsp peak RSS MB {spread(rss)}  target 300 MB: {met}")
            if "compile" in only:
                ws = buf_workspace(design, base / (label.split()[1] + "-buf"))
                results: dict[str, list[tuple[float, float]]] = {}
                for _ in range(args.rounds):
                    for name, value in compile_round(design, ws, base).items():
                        results.setdefault(name, []).append(value)
                for name, values in results.items():
                    wall, cpu = [v[0] for v in values], [v[1] for v in values]
                    print(f"  compile {name:6} wall s {spread(wall)}  CPU s {spread(cpu)}")
                if "buf" in results:
                    k = statistics.median(v[0] for v in results["kit"])
                    b = statistics.median(v[0] for v in results["buf"])
                    print(f"  kit / buf wall: {k / b:.2f}x (target <= 1.0: {'met' if k <= b else 'MISSED'})")


if __name__ == "__main__":
    main()
