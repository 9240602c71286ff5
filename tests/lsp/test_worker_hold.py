"""The generation worker gives way to the keystroke path by being stopped, not by a low
priority that a busy machine turns into starvation: `Worker.hold` stops its process group
while a run is in flight and continues it after, and a worker whose server dies while it is
held does not linger stopped."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from lsp_helpers import DESIGN, write_design

from kit_lsp.worker import WORKER_NICENESS, Worker


def _state(pid: int) -> str | None:
    """The process state letter of ``pid`` (`T` stopped, `Z` zombie), None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _wait_state(pid: int, wanted: set[str | None], timeout: float = 10.0) -> str | None:
    deadline = time.monotonic() + timeout
    while (state := _state(pid)) not in wanted and time.monotonic() < deadline:
        time.sleep(0.02)
    return state


def test_a_held_worker_is_stopped_and_its_run_finishes_after(tmp_path: Path) -> None:
    root = write_design(tmp_path, DESIGN) / "design"
    worker = Worker()

    async def scenario() -> dict[str, object] | None:
        _, outcome = await worker.run(root, lambda _: None)
        with worker.hold():
            pid = worker._proc.pid if worker._proc else 0
            assert _wait_state(pid, {"T"}) == "T"
            with worker.hold():  # nested: the inner release does not continue it
                pass
            assert _state(pid) == "T"
            await asyncio.sleep(0.5)
            assert not outcome.done()  # stopped: it cannot have finished
        assert _state(pid) != "T"
        return await asyncio.wait_for(outcome, 120)

    try:
        result = asyncio.run(scenario())
    finally:
        worker.stop()
    assert result is not None and not result.get("failure"), result
    assert (tmp_path / "internal").is_dir()  # the run wrote its output once continued


def test_the_worker_runs_a_little_below_the_editor(tmp_path: Path) -> None:
    worker = Worker()
    try:
        worker.start()
        assert worker._proc is not None
        deadline = time.monotonic() + 30
        while os.getpriority(os.PRIO_PROCESS, worker._proc.pid) != WORKER_NICENESS and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.getpriority(os.PRIO_PROCESS, worker._proc.pid) == WORKER_NICENESS
        assert os.sched_getscheduler(worker._proc.pid) == os.SCHED_OTHER  # not the idle class
    finally:
        worker.stop()


SERVER = """
import asyncio, os, sys
from pathlib import Path
from kit_lsp.worker import Worker

async def main() -> None:
    worker = Worker()
    await worker.run(Path(sys.argv[1]), lambda _: None)
    worker.hold().__enter__()  # held, never released: the server dies now
    print(worker._proc.pid, flush=True)
    await asyncio.sleep(0.3)
    os._exit(0)

asyncio.run(main())
"""


def test_a_worker_held_when_its_server_dies_does_not_linger(tmp_path: Path) -> None:
    root = write_design(tmp_path, DESIGN) / "design"
    server = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SERVER), str(root)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    pid = int(server.stdout.split()[0])
    assert _wait_state(pid, {None, "Z"}) in (None, "Z"), f"worker {pid} still {_state(pid)}"
