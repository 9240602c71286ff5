"""Time `bash scripts/demo` from its start to the todo service answering, as on a fresh
machine: a copy of the checkout, a fresh virtualenv, an empty Go build cache and an empty
kit cache (the Go module cache and pip's download cache stay warm: downloads are the
network's time, not kit's). Target: under 90 s.

    python bench/demo/bench_demo.py [--repeat 1]

Baseline, measured in the same run: `go build ./...` of the runtime on another empty build
cache - the compile the demo cannot avoid; the ratio says how much the rest adds.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "firsthour"))

from fresh_machine import REPO, Demo, clean_env, copy_checkout, free_port, fresh_venv  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of every child process this one has waited for (and their children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def demo_once(tmp: Path) -> tuple[float, int, float]:
    checkout = copy_checkout(tmp / "kit")
    config = checkout / "examples/todo/config/config.yaml"
    config.write_text(config.read_text().replace("127.0.0.1:8080", f"127.0.0.1:{free_port()}"))
    venv_bin = fresh_venv(tmp / "venv")
    env = clean_env(venv_bin)
    env |= {"VIRTUAL_ENV": str(venv_bin.parent), "GOCACHE": str(tmp / "gocache"), "KIT_CACHE_DIR": str(tmp / "kc")}
    cpu = cpu_seconds()
    started = time.monotonic()
    demo = Demo.start(checkout, env)
    try:
        _, reported, _ = demo.wait_banner(timeout=900)
        wall = time.monotonic() - started
    finally:
        demo.stop()
    return wall, reported, cpu_seconds() - cpu


def baseline(tmp: Path) -> float:
    env = {**os.environ, "GOCACHE": str(tmp / "gocache-baseline")}
    started = time.monotonic()
    subprocess.run(["go", "build", "./..."], cwd=REPO / "runtime", env=env, check=True)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="kit-bench-demo-") as tmp:
            base = baseline(Path(tmp))
            wall, reported, cpu = demo_once(Path(tmp))
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
        print(
            f"demo to answering: {wall:.1f} s (the demo says {reported} s; target < 90 s); "
            f"baseline runtime build {base:.1f} s; ratio {wall / base:.2f}; "
            f"CPU time of the demo {cpu:.0f} s (on {cores} idle cores, wall >= {cpu / cores:.0f} s); "
            f"load average {load:.1f}"
        )


if __name__ == "__main__":
    main()
