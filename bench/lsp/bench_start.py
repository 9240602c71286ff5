"""kit-lsp start-up: `initialize` answer time and first diagnostics on the large design.

    python bench/lsp/bench_start.py [--runs 7] [--cold 3] [--size default|large] [--types N] [--methods N]
                                    [--no-peer]

Each run spawns a fresh `python -m kit_lsp` and talks to it with a stdlib-only client
(`tests/lsp/raw_client.py`), so the client's own imports do not count:

- initialize: spawn -> the `initialize` answer, median of --runs; the baseline is the same
  round trip with a stdlib-only Python process that answers `initialize` with `{}`
  (interpreter start-up: the floor any Python server pays). Target 100 ms.
- first diagnostics: `didOpen` of the 3,000-line file of the synthetic design
  (bench/gen_design.py), sent right after the `initialize` answer as an editor does, to
  the first `publishDiagnostics` for it; cold (an empty analysis cache: `KIT_CACHE_DIR`
  points at a fresh folder) and warm (a second start over the same cache and files).
  Target 500 ms. Also printed: spawn -> those diagnostics. Cold is the median of --cold
  starts, each over its own empty cache, alternating with as many starts without the first
  look (`KIT_LSP_FIRST_LOOK=0`: the server's own full analysis; the baseline).
- the Go peer (`bench/peers`, pinned gopls), alternating with kit's cold starts: gopls
  spawned on the Go rendering of the same design (the project `kit gen` writes for it,
  `go mod tidy` offline), `initialize` answer and `didOpen` of the `big` package's
  generated `types.go` (the 3,000-line file's types, ~6,300 lines of Go) to gopls's first
  `publishDiagnostics` for it, each over an empty gopls cache (`GOPLSCACHE`), as kit's
  cold starts are over an empty kit cache; then warm, alternating with kit's warm starts
  (over the cache of its last cold start). `--no-peer` skips it.

Prints only; no assertion.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests" / "lsp"))
sys.path.insert(0, str(REPO / "bench" / "peers"))
import peers  # noqa: E402
from gen_design import add_size_arguments, resolve_size, write_design  # noqa: E402
from raw_client import RawClient, diagnostics_for  # noqa: E402

BASELINE_SERVER = r"""
import json, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
while True:
    length = 0
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        if line == b"\r\n":
            break
    msg = json.loads(inp.read(length))
    if "id" in msg:
        body = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {}}).encode()
        out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        out.flush()
    if msg.get("method") == "exit":
        sys.exit(0)
"""


def _initialize_ms(command: list[str] | None, root: Path, env: dict[str, str]) -> float:
    client = RawClient(command, env)
    try:
        return client.initialize(root)
    finally:
        client.close()


def _descendants(pid: int) -> list[int]:
    """The processes started under ``pid``, recursively (Linux; elsewhere none are known)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found += kids
        todo += kids
    return found


def _ended(pids: list[int], timeout: float = 60) -> None:
    """Wait until the processes are gone: a session's generation worker finishes the design
    it is loading after its server exits, and must not slow the next session down."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and any(Path(f"/proc/{p}").exists() for p in pids):
        time.sleep(0.05)


def first_diagnostics(root: Path, big: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """(spawn -> initialize answer, didOpen -> first diagnostics, spawn -> first diagnostics), ms.

    The session then lasts until the server has analysed the design (a `workspace/symbol`
    answer, not timed), as an editor's does: what it caches is what the next, warm, start
    reads (the first diagnostics come from the first look, long before that analysis)."""
    client = RawClient(env=env)
    try:
        init = client.initialize(root)
        uri = big.as_uri()
        text = big.read_text(encoding="utf-8")
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": text}
        sent = client.notify("textDocument/didOpen", {"textDocument": item})
        at, _ = client.wait(diagnostics_for(uri, 1), timeout=300)
        client.answer(client.request("workspace/symbol", {"query": "Big1"}), timeout=300)
        return init, (at - sent) * 1000, (at - client.started) * 1000
    finally:
        started = _descendants(client.proc.pid)
        client.close()
        _ended(started)


def go_project(tmp: Path, design: Path, env: dict[str, str]) -> Path:
    """The Go rendering of the design: a project `kit gen` writes for it, its go.sum
    completed offline (`go mod tidy`), as a user's project is before they open it."""
    project = tmp / "go-project"
    project.mkdir()
    (project / "go.mod").write_text("module example.com/bench\n\ngo 1.26\n", encoding="utf-8")
    shutil.copytree(design, project / "design")
    beside = Path(sys.executable).with_name("kit")  # the kit of this Python, as bench_cli runs it
    kit = [str(beside) if beside.is_file() else "kit", "gen", "design", "--no-daemon"]
    subprocess.run(kit, cwd=project, env={**env, "KIT_NO_DAEMON": "1"}, check=True, capture_output=True)
    subprocess.run(["go", "mod", "tidy"], cwd=project, env=peers.go_env(), check=True, capture_output=True)
    return project


def gopls_start(gopls: Path, project: Path, cache: Path) -> tuple[float, float, float]:
    """Like first_diagnostics, for gopls on the Go project over an empty gopls cache: the
    first publishDiagnostics for the opened file (gopls publishes one even when empty)."""
    client = RawClient([str(gopls)], {**peers.go_env(), "GOPLSCACHE": str(cache)})
    try:
        init = client.initialize(project)
        path = project / "internal" / "types" / "big" / "types.go"
        uri = path.as_uri()
        item = {"uri": uri, "languageId": "go", "version": 1, "text": path.read_text(encoding="utf-8")}
        sent = client.notify("textDocument/didOpen", {"textDocument": item})
        at, _ = client.wait(diagnostics_for(uri), timeout=600)
        return init, (at - sent) * 1000, (at - client.started) * 1000
    finally:
        client.close()


def line(name: str, ms: float, target: float | None, baseline: float | None = None) -> None:
    text = f"{name:34} {ms:8.1f} ms"
    if target is not None:
        text += f"   {ms / target:5.2f}x target ({target:.0f} ms)"
    if baseline:
        text += f"   {ms / baseline:5.2f}x baseline ({baseline:.1f} ms)"
    print(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--cold", type=int, default=3)
    add_size_arguments(ap)
    ap.add_argument("--no-peer", action="store_true", help="do not measure gopls")
    args = ap.parse_args()
    resolve_size(args)
    with tempfile.TemporaryDirectory(prefix="kit-bench-start-") as tmp:
        env = {**os.environ, "KIT_CACHE_DIR": str(Path(tmp) / "cache")}
        empty = Path(tmp) / "empty"
        empty.mkdir()
        baseline = statistics.median(
            _initialize_ms([sys.executable, "-c", BASELINE_SERVER], empty, env) for _ in range(args.runs)
        )
        init = statistics.median(_initialize_ms(None, empty, env) for _ in range(args.runs))
        line("initialize (empty folder)", init, 100, baseline)
        info = write_design(Path(tmp) / "design", args.types, args.methods, args.packages, 3000)
        print(f"design: {info.packages} packages, {info.types} types, {info.methods} methods")
        gopls = None if args.no_peer else peers.build("gopls")
        project = None if gopls is None else go_project(Path(tmp), info.root, env)
        colds, offs, peer = [], [], []
        for i in range(max(1, args.cold)):
            if gopls is not None and project is not None:
                peer.append(gopls_start(gopls, project, Path(tmp) / f"gopls{i}"))
            off = {**env, "KIT_CACHE_DIR": str(Path(tmp) / f"off{i}"), "KIT_LSP_FIRST_LOOK": "0"}
            offs.append(first_diagnostics(info.root, info.big_file, off))
            colds.append(
                first_diagnostics(info.root, info.big_file, {**env, "KIT_CACHE_DIR": str(Path(tmp) / f"c{i}")})
            )
        env["KIT_CACHE_DIR"] = str(Path(tmp) / f"c{len(colds) - 1}")  # what the last cold start cached
        warm, peer_warm = [], []
        for _ in range(max(1, args.runs // 2)):
            warm.append(first_diagnostics(info.root, info.big_file, env))
            if gopls is not None and project is not None:  # over what its last cold start cached
                peer_warm.append(gopls_start(gopls, project, Path(tmp) / f"gopls{len(peer) - 1}"))
        line("initialize (large design)", statistics.median(w[0] for w in [*colds, *warm]), 100, baseline)
        off_ms = statistics.median(o[1] for o in offs)
        line("first diagnostics, cold", statistics.median(c[1] for c in colds), 500, off_ms)
        runs = ", ".join(f"{c[1]:.0f}" for c in colds)
        print(f"{'':34} runs: {runs} ms; baseline: the same start without the first look")
        line("  spawn -> first diagnostics, cold", statistics.median(c[2] for c in colds), None)
        line("first diagnostics, warm", statistics.median(w[1] for w in warm), 500)
        line("  spawn -> first diagnostics, warm", statistics.median(w[2] for w in warm), None)
        if peer:
            print(f"peer: {peers.version('gopls')} on the generated Go project, alternating with the cold starts")
            line("gopls initialize", statistics.median(p[0] for p in peer), None)
            gopls_ms = statistics.median(p[1] for p in peer)
            kit_ms = statistics.median(c[1] for c in colds)
            line("gopls first diagnostics", gopls_ms, None)
            print(f"{'':34} runs: {', '.join(f'{p[1]:.0f}' for p in peer)} ms")
            line("  gopls spawn -> first diagnostics", statistics.median(p[2] for p in peer), None)
            line("gopls first diagnostics, warm", statistics.median(p[1] for p in peer_warm), None)
            print(f"kit / gopls, first diagnostics (cold): {kit_ms / gopls_ms:.2f}x (target <= 1.00x)")
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
