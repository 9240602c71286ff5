"""`kit gen` through the project's resident kit (`kit_core.daemon`): what it prints, its exit
status and the files it writes are those of a run in the client's own process, over edits;
another kit build is refused and the daemon makes way; concurrent clients; an idle daemon
exits. Every test stops the daemon it started (and checks that it is gone)."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import EDITS, copy_project, tree, write_project

from kit_core.daemon.protocol import LOCK_NAME, SOCKET_NAME
from kit_core.statedir import state_dir

DEADLINE = 60.0  # generous: only a broken daemon comes near it


def kit_gen(project: Path, *flags: str, idle: str = "120") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KIT_NO_DAEMON"}
    env["KIT_DAEMON_IDLE"] = idle
    return subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design", *flags],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )


def daemon_pid(project: Path) -> int | None:
    """The pid of the daemon serving the project, None when none holds its lock."""
    lock = state_dir(project) / LOCK_NAME
    if not lock.exists():
        return None
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return int(lock.read_text().split()[0])
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def wait_gone(project: Path) -> bool:
    deadline = time.monotonic() + DEADLINE
    while daemon_pid(project) is not None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def projects(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """Twin projects: ``a`` generated through the daemon, ``b`` in process."""
    a, b = tmp_path / "a", tmp_path / "b"
    write_project(a)
    write_project(b)
    yield a, b
    subprocess.run([sys.executable, "-m", "kit_core.daemon", "stop", str(a)], capture_output=True, timeout=DEADLINE)
    pid = daemon_pid(a)
    if pid is not None and not wait_gone(a):
        os.kill(pid, signal.SIGKILL)  # the daemon this test started, by its id
        pytest.fail("the daemon did not stop when asked")
    assert daemon_pid(a) is None


def same_run(a: Path, b: Path) -> subprocess.CompletedProcess[str]:
    via = kit_gen(a)
    here = kit_gen(b, "--no-daemon")
    assert (via.returncode, via.stdout, via.stderr.replace(str(a), str(b))) == (
        here.returncode,
        here.stdout,
        here.stderr,
    )
    assert tree(a) == tree(b)
    return via


def test_runs_through_the_daemon_are_runs_in_process(projects: tuple[Path, Path]) -> None:
    a, b = projects
    first = same_run(a, b)
    assert first.returncode == 0 and "written" in first.stdout
    pid = daemon_pid(a)
    assert pid is not None, "the first run started a daemon"
    for edit in EDITS:
        edit(a)
        edit(b)
        same_run(a, b)
    assert daemon_pid(a) == pid, "one daemon served every run"


def test_design_errors_come_back_located(projects: tuple[Path, Path]) -> None:
    a, b = projects
    same_run(a, b)
    for root in (a, b):
        path = root / "design" / "shared" / "shared.kit"
        path.write_text(path.read_text() + "\ntype Broken {\n\tx Nowhere\n}\n")
    via = same_run(a, b)
    assert via.returncode == 1 and "shared.kit:" in via.stderr and "nothing was written" in via.stderr


def test_another_build_is_refused_and_the_daemon_makes_way(projects: tuple[Path, Path]) -> None:
    a, b = projects
    same_run(a, b)
    old = daemon_pid(a)
    assert old is not None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(DEADLINE)
        conn.connect(str(state_dir(a) / SOCKET_NAME))
        conn.sendall(b'{"identity": "a kit of another build", "gen": {"root": "/nowhere"}}\n')
        assert b'"refused"' in conn.makefile("rb").readline()
    assert wait_gone(a), "a daemon that refused a client exits"
    edit = EDITS[0]
    edit(a)
    edit(b)
    same_run(a, b)  # the next run starts a daemon of its own build
    assert daemon_pid(a) not in (None, old)


def test_concurrent_clients_each_get_their_run(projects: tuple[Path, Path]) -> None:
    a, b = projects
    same_run(a, b)
    env = {k: v for k, v in os.environ.items() if k != "KIT_NO_DAEMON"}
    cmd = [sys.executable, "-m", "kit_core.cli", "gen", "design"]
    runs = [subprocess.Popen(cmd, cwd=a, env=env, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=DEADLINE)[0] for p in runs]
    assert [p.returncode for p in runs] == [0, 0, 0]
    assert all(out.endswith("0 swept\n") for out in outs), outs
    assert tree(a) == tree(b)


def test_an_idle_daemon_exits(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    assert kit_gen(project, idle="0.5").returncode == 0
    assert wait_gone(project)
    assert not (state_dir(project) / SOCKET_NAME).exists(), "it removes its socket"


def test_no_daemon_flag_and_environment_run_in_process(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    assert kit_gen(project, "--no-daemon").returncode == 0
    assert daemon_pid(project) is None
    copy = tmp_path / "q"
    copy_project(project, copy)
    out = subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design"], cwd=copy, capture_output=True, text=True
    )  # KIT_NO_DAEMON=1: the tests' own environment
    assert out.returncode == 0 and daemon_pid(copy) is None


def test_a_daemon_that_cannot_start_leaves_the_run_to_the_client(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    (state_dir(project) / LOCK_NAME).mkdir()  # the daemon cannot open its lock: it ends at once
    env = {k: v for k, v in os.environ.items() if k != "KIT_NO_DAEMON"}
    env["KIT_DAEMON_START_TIMEOUT"] = str(DEADLINE)
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design"], cwd=project, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0 and "written" in out.stdout, out.stderr
    assert time.monotonic() - started < DEADLINE, "the client saw the daemon end and did not wait for it"
    assert not (state_dir(project) / SOCKET_NAME).exists()
