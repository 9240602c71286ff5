"""The resident kit stays bounded the way `kit gen` is really run: in throwaway folders, by
scripts and test suites (output piped, no terminal), in CI. One process per user, whatever
the number of projects; a project's state is released when its folder goes, and the
process exits when the last one goes; nothing is started in CI or for a folder that holds
no design."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import write_project
from resident import Resident

TODO = Path(__file__).resolve().parents[2] / "examples" / "todo"
PROJECTS = 20
MAX_RSS = 200 * 1024 * 1024
RELEASE = 10.0  # seconds within which a project whose folder is gone is released


@pytest.fixture
def resident() -> Iterator[Resident]:
    r = Resident()
    del r.env["KIT_DAEMON_IDLE"]  # its own choice
    yield r
    r.stop()


def vm_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def throwaway(folder: Path) -> Path:
    shutil.copytree(TODO / "design", folder / "design")
    shutil.copy(TODO / "go.mod", folder / "go.mod")
    return folder


def test_twenty_throwaway_projects_make_one_bounded_process_that_lets_go(resident: Resident, tmp_path: Path) -> None:
    copies = [throwaway(tmp_path / f"t{i}") for i in range(PROJECTS)]
    for copy in copies:
        out = resident.gen(copy)
        assert out.returncode == 0 and "written" in out.stdout, out.stderr
    pids = resident.processes()
    assert len(pids) == 1, f"one resident kit for {PROJECTS} projects, found {pids}"
    assert vm_rss(pids[0]) < MAX_RSS, f"{vm_rss(pids[0]) / 2**20:.0f} MB"
    status = resident.status()
    assert status is not None and len(status["projects"]) == PROJECTS
    assert status["idle"] == 60.0, "a run without a terminal leaves it one minute of idle time"

    for copy in copies[: PROJECTS // 2]:
        shutil.rmtree(copy)
    started = time.monotonic()
    while True:
        status = resident.status()
        assert status is not None
        if not {Path(p).parent for p in status["projects"]} & set(copies[: PROJECTS // 2]):
            break
        assert time.monotonic() - started < RELEASE, "the state of deleted projects is released"
        time.sleep(0.2)
    assert len(status["projects"]) == PROJECTS - PROJECTS // 2

    for copy in copies[PROJECTS // 2 :]:
        shutil.rmtree(copy)
    assert resident.wait_gone(RELEASE), "the resident kit exits when its last project is gone"


def test_past_its_design_bound_the_least_recently_used_designs_are_dropped(tmp_path: Path) -> None:
    r = Resident(KIT_DAEMON_DESIGNS="2")
    try:
        copies = [throwaway(tmp_path / f"t{i}") for i in range(3)]
        for copy in copies:
            assert r.gen(copy).returncode == 0
        status = r.status()
        assert status is not None
        assert [Path(p).parent.name for p in status["designs"]] == ["t1", "t2"]
        assert len(status["projects"]) == 3  # still served (its next run reads the disk)
        again = r.gen(copies[0])
        assert again.returncode == 0 and "0 written" in again.stdout
    finally:
        r.stop()


@pytest.mark.parametrize(
    ("env", "args"),
    [
        ({"CI": "true"}, ("design",)),
        ({}, ("-f", "nowhere")),
        ({}, ("-f", "empty")),
        ({"KIT_NO_DAEMON": "1"}, ("design",)),
    ],
    ids=["ci", "no-folder", "folder-without-design", "kit-no-daemon"],
)
def test_no_resident_kit_is_started(
    resident: Resident, tmp_path: Path, env: dict[str, str], args: tuple[str, ...]
) -> None:
    project = tmp_path / "p"
    write_project(project)
    (project / "empty").mkdir()
    out = resident.gen(project, *args, env=env)
    assert "Traceback" not in out.stderr
    time.sleep(0.3)
    assert resident.processes() == [] and not resident.socket.exists()


def test_past_its_memory_budget_only_the_design_just_run_is_kept(tmp_path: Path) -> None:
    r = Resident(KIT_DAEMON_MEMORY="1")  # MB: always past it
    try:
        copies = [throwaway(tmp_path / f"t{i}") for i in range(3)]
        for copy in copies:
            assert r.gen(copy).returncode == 0
        status = r.status()
        assert status is not None
        assert [Path(p).parent.name for p in status["designs"]] == ["t2"]
        assert len(status["projects"]) == 3
    finally:
        r.stop()
