"""kit-lsp resident memory on a large design, and its growth over many edits.

    python bench/lsp/bench_soak.py [--edits 10000] [--size default|large] [--types N] [--methods N]

Spawns `python -m kit_lsp` with a stdlib-only client (`tests/lsp/raw_client.py`), opens the
3,000-line file of the synthetic design (bench/gen_design.py) and waits until the server
has analysed the whole design (a `workspace/symbol` answer). Then sends ``--edits``
one-character `didChange` edits of a doc comment (insert, then delete: the design stays
valid), each waited for to its `publishDiagnostics` (so each is analysed, not merged away
by the debounce), and reads the resident memory (VmRSS in /proc, the server and every
process under it) after the warm-up, every tenth of the run and at the end.

Targets (issue 23 item 3): resident memory under 1.5 GB; flat over 10,000 edits (the end
within a few per cent of the start). Prints only; no assertion.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "bench" / "lsp"))
sys.path.insert(0, str(REPO / "tests" / "lsp"))
from bench_start import _descendants  # noqa: E402
from gen_design import add_size_arguments, resolve_size, write_design  # noqa: E402
from raw_client import RawClient, diagnostics_for  # noqa: E402

WARM_UP = 100  # edits before the first reading: the caches an edit fills are filled once
LIMIT_MB = 1536


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and the processes under it, in MiB."""
    total = 0
    for p in [pid, *_descendants(pid)]:
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        total += next((int(x.split()[1]) for x in status.splitlines() if x.startswith("VmRSS:")), 0)
    return total / 1024


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and the processes under it: the server's cost
    of the edits, which the machine's load does not inflate as it does their latency."""
    total = 0
    for p in [pid, *_descendants(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def comment_position(text: str) -> dict[str, int]:
    """Just after `// Big` on a doc comment in the middle of the file."""
    lines = text.split("\n")
    line = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("// Big"))
    return {"line": line, "character": len("// Big")}


def soak(root: Path, big: Path, edits: int, env: dict[str, str]) -> None:
    client = RawClient(env=env)
    try:
        client.initialize(root, watches=True)
        uri = big.as_uri()
        text = big.read_text(encoding="utf-8")
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "kit", "version": 1, "text": text}}
        )
        client.wait(diagnostics_for(uri, 1), timeout=600)
        client.answer(client.request("workspace/symbol", {"query": "Big1"}), timeout=600)
        pid = client.proc.pid
        print(f"after the whole design's analysis: {rss_mb(pid):.0f} MiB", flush=True)
        pos = comment_position(text)
        after = {"line": pos["line"], "character": pos["character"] + 1}
        start_mb, start, start_cpu, took = 0.0, time.perf_counter(), 0.0, []
        for i in range(WARM_UP + edits):
            version = i + 2
            change = {"range": {"start": pos, "end": pos if i % 2 == 0 else after}, "text": "x" if i % 2 == 0 else ""}
            doc = {"uri": uri, "version": version}
            sent = client.notify("textDocument/didChange", {"textDocument": doc, "contentChanges": [change]})
            at, _ = client.wait(diagnostics_for(uri, version), timeout=120)
            took.append(at - sent)
            done = i + 1 - WARM_UP
            if done == 0:
                start_mb, start, start_cpu = rss_mb(pid), time.perf_counter(), cpu_s(pid)
                print(f"after {WARM_UP} warm-up edits: {start_mb:.0f} MiB", flush=True)
            elif done > 0 and done % max(1, edits // 10) == 0:
                mb = rss_mb(pid)
                rate = done / (time.perf_counter() - start)
                cpu = (cpu_s(pid) - start_cpu) * 1000 / done
                print(
                    f"after {done:6} edits: {mb:6.0f} MiB ({(mb / start_mb - 1) * 100:+5.1f}%), {rate:.1f} edits/s, "
                    f"server CPU {cpu:.1f} ms per edit",
                    flush=True,
                )
        end_mb = rss_mb(pid)
        growth = (end_mb / start_mb - 1) * 100
        ordered = sorted(took[WARM_UP:])
        p95 = ordered[int(0.95 * (len(ordered) - 1))] * 1000
        cpu = (cpu_s(pid) - start_cpu) * 1000 / edits
        print(
            f"{edits} edits: {start_mb:.0f} -> {end_mb:.0f} MiB ({growth:+.1f}%); keystroke p95 {p95:.1f} ms, "
            f"server CPU {cpu:.1f} ms per edit; "
            f"target < {LIMIT_MB} MiB: {'met' if end_mb < LIMIT_MB else 'missed'}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
    finally:
        client.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=10000)
    add_size_arguments(ap)
    args = ap.parse_args()
    resolve_size(args)
    with tempfile.TemporaryDirectory(prefix="kit-bench-soak-") as tmp:
        info = write_design(Path(tmp) / "design", args.types, args.methods, args.packages, 3000)
        print(f"design: {info.packages} packages, {info.types} types, {info.methods} methods", flush=True)
        soak(info.root, info.big_file, args.edits, {**os.environ, "KIT_CACHE_DIR": str(Path(tmp) / "cache")})


if __name__ == "__main__":
    main()
