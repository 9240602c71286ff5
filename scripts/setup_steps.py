"""Runs setup steps side by side and says how long each took.

    python3 scripts/setup_steps.py NAME=COMMAND [NAME=COMMAND ...]

scripts/setup-test's orchestration: every COMMAND starts at once under bash (most steps wait on
the network, and the longest, the tree-sitter CLI build, must not wait for the others), each
with its output in its own log file, so that side-by-side steps do not interleave their
output. Each step prints its seconds when it ends, with the CPU seconds it used (its own
and its children's: the figure a busy machine does not inflate), and the notices its log has (lines
starting "setup:", which the tool scripts print when they leave a tool out and carry on). A
failed step is named, with the last lines of its log and the log's path; the exit status is
1 if any step failed. Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

TAIL_LINES = 30  # of a failed step's log: enough for a compiler's error, not a whole build
POLL_S = 0.2


@dataclass
class Step:
    name: str
    command: str
    log: Path
    proc: subprocess.Popen[bytes]
    started: float
    seconds: float | None = None
    cpu: float = 0.0


def reap(step: Step) -> bool:
    """Whether the step has ended; if so, records its exit status and CPU seconds (wait4's
    resource usage covers every descendant it waited for: cargo's rustc, go's compiles)."""
    pid, status, usage = os.wait4(step.proc.pid, os.WNOHANG)
    if pid == 0:
        return False
    step.proc.returncode = os.waitstatus_to_exitcode(status)
    step.cpu = usage.ru_utime + usage.ru_stime
    return True


def parse(args: list[str]) -> list[tuple[str, str]]:
    steps = []
    for arg in args:
        name, sep, command = arg.partition("=")
        if not sep or not name or not command:
            raise SystemExit(f"setup_steps: expected NAME=COMMAND, got {arg!r}")
        steps.append((name, command))
    names = [name for name, _ in steps]
    if len(set(names)) != len(names):
        raise SystemExit(f"setup_steps: step names repeat: {names}")
    return steps


def start(name: str, command: str, logs: Path) -> Step:
    log = logs / f"{name}.log"
    with log.open("wb") as out:
        # Its own session, so stopping the setup stops the step's whole process tree
        # (cargo's rustc children, apt's dpkg); no standard input (no prompt can hang).
        proc = subprocess.Popen(
            ["bash", "-c", command],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Step(name, command, log, proc, time.monotonic())


def notices(log: Path) -> list[str]:
    return [line for line in log.read_text(errors="replace").splitlines() if line.startswith("setup:")]


def tail(log: Path, lines: int = TAIL_LINES) -> str:
    text = log.read_text(errors="replace").rstrip("\n").splitlines()
    return "\n".join(text[-lines:])


def stop_all(steps: list[Step]) -> None:
    for step in steps:
        if step.proc.poll() is None:
            try:
                os.killpg(step.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    for step in steps:
        try:
            step.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(step.proc.pid, signal.SIGKILL)
            step.proc.wait()


def run(args: list[str]) -> int:
    wanted = parse(args)
    logs = Path(tempfile.mkdtemp(prefix="kit-setup-"))
    t0 = time.monotonic()
    steps = [start(name, command, logs) for name, command in wanted]
    print(f"setup: started {', '.join(name for name, _ in wanted)} (logs in {logs})", flush=True)
    try:
        while any(step.seconds is None for step in steps):
            for step in steps:
                if step.seconds is None and reap(step):
                    step.seconds = time.monotonic() - step.started
                    verdict = "done" if step.proc.returncode == 0 else f"FAILED (exit {step.proc.returncode})"
                    print(f"setup: {step.name} {verdict} in {step.seconds:.0f} s (CPU {step.cpu:.0f} s)", flush=True)
                    for line in notices(step.log):
                        print(f"setup: {step.name}: {line.removeprefix('setup:').strip()}", flush=True)
            time.sleep(POLL_S)
    finally:
        stop_all(steps)  # no-op unless interrupted
    failed = [step for step in steps if step.proc.returncode != 0]
    for step in failed:
        print(f"setup: step {step.name} failed; the end of {step.log}:", file=sys.stderr)
        print(tail(step.log), file=sys.stderr)
    total = time.monotonic() - t0
    if failed:
        print(f"setup: FAILED: {', '.join(step.name for step in failed)} ({total:.0f} s)", file=sys.stderr)
        return 1
    cpu = sum(step.cpu for step in steps)
    print(f"setup: all {len(steps)} steps done in {total:.0f} s (CPU {cpu:.0f} s)", flush=True)
    for step in steps:
        step.log.unlink()
    logs.rmdir()
    return 0


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through run's finally, which stops the steps


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    sys.exit(run(sys.argv[1:]))
