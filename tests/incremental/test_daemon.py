"""`kit gen` through the user's resident kit (`kit_core.daemon`): what it prints, its exit
status and the files it writes are those of a run in the client's own process, over edits;
another kit build is refused and the resident kit makes way; concurrent clients; an idle one
exits. Every test stops the resident kit it started (and checks that it is gone)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import EDITS, copy_project, tree, write_project
from resident import DEADLINE, Resident

from kit_core.daemon.protocol import LOCK_NAME, SOCKET_NAME


@pytest.fixture
def resident() -> Iterator[Resident]:
    r = Resident()
    yield r
    r.stop()


@pytest.fixture
def projects(tmp_path: Path) -> tuple[Path, Path]:
    """Twin projects: ``a`` generated through the resident kit, ``b`` in process."""
    a, b = tmp_path / "a", tmp_path / "b"
    write_project(a)
    write_project(b)
    return a, b


def same_run(r: Resident, a: Path, b: Path) -> subprocess.CompletedProcess[str]:
    via = r.gen(a)
    here = r.gen(b, "design", "--no-daemon")
    assert (via.returncode, via.stdout, via.stderr.replace(str(a), str(b))) == (
        here.returncode,
        here.stdout,
        here.stderr,
    )
    assert tree(a) == tree(b)
    return via


def test_runs_through_the_resident_kit_are_runs_in_process(resident: Resident, projects: tuple[Path, Path]) -> None:
    a, b = projects
    first = same_run(resident, a, b)
    assert first.returncode == 0 and "written" in first.stdout
    pid = resident.pid()
    assert pid is not None, "the first run started a resident kit"
    for edit in EDITS:
        edit(a)
        edit(b)
        same_run(resident, a, b)
    assert resident.pid() == pid, "one resident kit served every run"
    assert resident.processes() == [pid]


def test_design_errors_come_back_located(resident: Resident, projects: tuple[Path, Path]) -> None:
    a, b = projects
    same_run(resident, a, b)
    for root in (a, b):
        path = root / "design" / "shared" / "shared.kit"
        path.write_text(path.read_text() + "\ntype Broken {\n\tx Nowhere\n}\n")
    via = same_run(resident, a, b)
    assert via.returncode == 1 and "shared.kit:" in via.stderr and "nothing was written" in via.stderr


def test_another_build_is_refused_and_the_resident_kit_makes_way(
    resident: Resident, projects: tuple[Path, Path]
) -> None:
    a, b = projects
    same_run(resident, a, b)
    old = resident.pid()
    assert old is not None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(DEADLINE)
        conn.connect(str(resident.socket))
        conn.sendall(b'{"identity": "a kit of another build", "gen": {"root": "/nowhere"}}\n')
        assert b'"refused"' in conn.makefile("rb").readline()
    assert resident.wait_gone(), "a resident kit that refused a client exits"
    edit = EDITS[0]
    edit(a)
    edit(b)
    same_run(resident, a, b)  # the next run starts a resident kit of its own build
    assert resident.pid() not in (None, old)


def test_concurrent_clients_each_get_their_run(resident: Resident, projects: tuple[Path, Path]) -> None:
    a, b = projects
    same_run(resident, a, b)
    cmd = [sys.executable, "-m", "kit_core.cli", "gen", "design"]
    runs = [subprocess.Popen(cmd, cwd=a, env=resident.env, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=DEADLINE)[0] for p in runs]
    assert [p.returncode for p in runs] == [0, 0, 0]
    assert all(out.endswith("0 swept\n") for out in outs), outs
    assert tree(a) == tree(b)


def test_an_idle_resident_kit_exits(tmp_path: Path) -> None:
    r = Resident(KIT_DAEMON_IDLE="0.5")
    try:
        project = tmp_path / "p"
        write_project(project)
        assert r.gen(project).returncode == 0
        assert r.wait_gone()
        assert not r.socket.exists(), "it removes its socket"
    finally:
        r.stop()


def test_no_daemon_flag_and_environment_run_in_process(resident: Resident, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    assert resident.gen(project, "design", "--no-daemon").returncode == 0
    assert resident.processes() == []
    copy = tmp_path / "q"
    copy_project(project, copy)
    out = resident.gen(copy, env={"KIT_NO_DAEMON": "1"})
    assert out.returncode == 0 and resident.processes() == []


def test_a_resident_kit_that_cannot_start_leaves_the_run_to_the_client(resident: Resident, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    resident.folder.mkdir(mode=0o700)
    (resident.folder / LOCK_NAME).mkdir()  # it cannot open its lock: it ends at once
    started = time.monotonic()
    out = resident.gen(project, env={"KIT_DAEMON_START_TIMEOUT": str(DEADLINE)})
    assert out.returncode == 0 and "written" in out.stdout, out.stderr
    assert time.monotonic() - started < DEADLINE, "the client saw it end and did not wait for it"
    assert not (resident.folder / SOCKET_NAME).exists()
