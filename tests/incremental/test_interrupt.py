"""Ctrl-C on `kit gen`: a real SIGINT to a real `kit gen` (to its process group, as a terminal
sends it) in the middle of a run on a design big enough to be interrupted. The run stops
with one line on stderr (no traceback) and status 130, and the tree is as before the run or
as after it - in the client's own process (`--no-daemon`) and through the resident kit,
which cancels the run at its next stage and serves the next run as if nothing happened."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import tree, write_project
from resident import DEADLINE, Resident

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from gen_design import write_design  # noqa: E402

GO_MOD = "module example.com/bench\n\ngo 1.26\n"
FRACTIONS = (0.2, 0.45, 0.7)  # of a whole run's time: where the interrupts land


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], float]:
    """A large design (its project, not generated), the tree a whole run leaves, and that
    run's time in a fresh process."""
    project = tmp_path_factory.mktemp("big") / "project"
    project.mkdir()
    (project / "go.mod").write_text(GO_MOD)
    write_design(project / "design", types=600, methods=200, packages=30, big_lines=300)
    done = tmp_path_factory.mktemp("done") / "project"
    shutil.copytree(project, done)
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design", "--no-daemon"], cwd=done, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return project, tree(done), time.monotonic() - started


def interrupted(cmd: list[str], cwd: Path, env: dict[str, str], after: float) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)  # the client's process group, as a terminal does
    out, err = proc.communicate(timeout=DEADLINE)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def check(
    out: subprocess.CompletedProcess[str], project: Path, before: dict[str, bytes], after: dict[str, bytes]
) -> bool:
    """Whether the interrupt landed mid-run (the run may have ended before it)."""
    assert "Traceback" not in out.stderr, out.stderr
    got = tree(project)
    assert got in (before, after), "the tree is as before the run or as after it"
    if out.returncode == 0:
        assert got == after
        return False
    assert out.returncode == 130, out.stderr
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("kit: interrupted") and out.stderr.count("kit: interrupted") == 1, out.stderr
    if "nothing was written" in last:
        assert got == before
    if "had written its files" in last:
        assert got == after
    return True


def fresh(big: tuple[Path, dict[str, bytes], float], where: Path) -> tuple[Path, dict[str, bytes]]:
    shutil.copytree(big[0], where)
    return where, tree(where)


def test_ctrl_c_on_a_run_in_its_own_process(big: tuple[Path, dict[str, bytes], float], tmp_path: Path) -> None:
    _, after, took = big
    env = {**os.environ, "KIT_NO_DAEMON": "1"}
    landed = 0
    for i, fraction in enumerate(FRACTIONS):
        project, before = fresh(big, tmp_path / f"p{i}")
        cmd = [sys.executable, "-m", "kit_core.cli", "gen", "design", "--no-daemon"]
        landed += check(interrupted(cmd, project, env, took * fraction), project, before, after)
        again = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
        assert again.returncode == 0 and tree(project) == after, again.stderr
    assert landed, "no interrupt landed mid-run: make the design bigger"


@pytest.fixture
def resident() -> Iterator[Resident]:
    r = Resident(KIT_DAEMON_LOG="INFO")  # it logs each run it cancels
    yield r
    r.stop()


def test_ctrl_c_cancels_the_run_in_the_resident_kit(
    big: tuple[Path, dict[str, bytes], float], resident: Resident, tmp_path: Path
) -> None:
    _, after, took = big
    small = tmp_path / "small"
    write_project(small)
    assert resident.gen(small).returncode == 0  # the resident kit runs before the interrupts
    pid = resident.pid()
    assert pid is not None
    cmd = [sys.executable, "-m", "kit_core.cli", "gen", "design"]
    landed = 0
    for i, fraction in enumerate(FRACTIONS):
        project, before = fresh(big, tmp_path / f"p{i}")
        landed += check(interrupted(cmd, project, resident.env, took * fraction), project, before, after)
        assert resident.pid() == pid, "the resident kit lives on"
        again = resident.gen(project)
        assert again.returncode == 0 and tree(project) == after, again.stderr
        assert resident.pid() == pid, "and serves the next run"
    assert landed, "no interrupt landed mid-run: make the design bigger"
    assert "cancelled" in (resident.folder / "daemon.log").read_text(), "a run in the resident kit was cancelled"
