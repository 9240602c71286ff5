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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "firsthour"))

from fresh_machine import REPO, Demo, copy_checkout, free_port, fresh_venv, machine_path  # noqa: E402


def demo_once(tmp: Path) -> tuple[float, int]:
    checkout = copy_checkout(tmp / "kit")
    config = checkout / "examples/todo/config/config.yaml"
    config.write_text(config.read_text().replace("127.0.0.1:8080", f"127.0.0.1:{free_port()}"))
    venv_bin = fresh_venv(tmp / "venv")
    own = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in machine_path(venv_bin).split(os.pathsep) if p != own)
    env |= {"VIRTUAL_ENV": str(venv_bin.parent), "GOCACHE": str(tmp / "gocache"), "KIT_CACHE_DIR": str(tmp / "kc")}
    started = time.monotonic()
    demo = Demo.start(checkout, env)
    try:
        _, reported, _ = demo.wait_banner(timeout=900)
        wall = time.monotonic() - started
    finally:
        demo.stop()
    return wall, reported


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
            wall, reported = demo_once(Path(tmp))
        load = os.getloadavg()[0]
        print(
            f"demo to answering: {wall:.1f} s (the demo says {reported} s; target < 90 s); "
            f"baseline runtime build {base:.1f} s; ratio {wall / base:.2f}; load average {load:.1f}"
        )


if __name__ == "__main__":
    main()
