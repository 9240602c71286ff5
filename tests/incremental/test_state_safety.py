"""kit's state folders cannot be taken over. Each test plays another user (an unused uid: the
tests run as root, and skip otherwise): a folder of kit's pre-created open to all and owned by
them, a socket of theirs, and symlinks at the names of kit's files (`project`, `lock`,
`journal`, `daemon.log`, `cache`) leading to files of the victim. Nothing is written through
them, nothing the other user's process says is printed, and the run generates the right tree."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from designs import tree, write_project
from resident import DEADLINE, Resident

from kit_core.statedir import project_id

OTHER = 4242  # a uid nobody uses here
NAMES = ("project", "lock", "journal", "daemon.log", "daemon.lock", "cache")

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="playing another user needs root")


@pytest.fixture
def resident() -> Iterator[Resident]:
    r = Resident()
    yield r
    r.stop()


def victims(folder: Path) -> dict[Path, bytes]:
    folder.mkdir()
    files = {folder / name: f"the victim's {name}\n".encode() for name in NAMES}
    for path, data in files.items():
        path.write_bytes(data)
    return files


def trap(folder: Path, targets: Path) -> None:
    """``folder`` as the other user leaves it: theirs, open to all, kit's names symlinked to
    the victim's files."""
    folder.mkdir(parents=True)
    for name in NAMES:
        (folder / name).symlink_to(targets / name)
        os.lchown(folder / name, OTHER, OTHER)
    os.chown(folder, OTHER, OTHER)
    os.chmod(folder, 0o777)


def reference(tmp_path: Path) -> dict[str, bytes]:
    ref = tmp_path / "ref"
    write_project(ref)
    env = {**os.environ, "KIT_CACHE_DIR": str(tmp_path / "ref-cache")}
    out = subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design", "--no-daemon"], cwd=ref, env=env, capture_output=True
    )
    assert out.returncode == 0
    return tree(ref)


def same_tree(project: Path, expected: dict[str, bytes]) -> None:
    got = tree(project)
    assert {k: v for k, v in got.items() if k != "go.mod"} == {k: v for k, v in expected.items() if k != "go.mod"}


@pytest.mark.parametrize("how", ["resident", "--no-daemon"])
def test_a_state_folder_taken_by_another_user_is_replaced(resident: Resident, tmp_path: Path, how: str) -> None:
    expected = reference(tmp_path)
    project = tmp_path / "p"
    write_project(project)
    files = victims(tmp_path / "victim")
    cache = tmp_path / "cache"
    resident.env["KIT_CACHE_DIR"] = str(cache)
    folder = cache / "projects" / project_id(project)
    trap(folder, tmp_path / "victim")
    args = ("design",) if how == "resident" else ("design", "--no-daemon")
    out = resident.gen(project, *args)
    assert out.returncode == 0, out.stderr
    same_tree(project, expected)
    assert {p: p.read_bytes() for p in files} == files, "nothing written through the symlinks"
    st = os.lstat(folder)
    assert stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700
    assert not any(p.is_symlink() for p in folder.iterdir())


def test_symlinks_in_kits_own_folder_are_not_followed(resident: Resident, tmp_path: Path) -> None:
    expected = reference(tmp_path)
    project = tmp_path / "p"
    write_project(project)
    files = victims(tmp_path / "victim")
    cache = tmp_path / "cache"
    resident.env["KIT_CACHE_DIR"] = str(cache)
    folder = cache / "projects" / project_id(project)
    folder.mkdir(parents=True, mode=0o700)
    for name in NAMES:
        (folder / name).symlink_to(tmp_path / "victim" / name)
    (resident.folder).mkdir(mode=0o700)
    for name in ("daemon.log", "daemon.lock"):
        (resident.folder / name).symlink_to(tmp_path / "victim" / name)
    out = resident.gen(project)
    assert out.returncode == 0, out.stderr
    same_tree(project, expected)
    assert resident.pid() is not None, "the resident kit ran, on files of its own"
    assert {p: p.read_bytes() for p in files} == files


def test_a_fallback_folder_of_another_user_is_never_used(tmp_path: Path) -> None:
    expected = reference(tmp_path)
    project = tmp_path / "p"
    write_project(project)
    files = victims(tmp_path / "victim")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    os.chmod(tmp, 0o1777)  # like /tmp
    trap(tmp / f"kit-{os.getuid()}" / project_id(project), tmp_path / "victim")
    os.chown(tmp / f"kit-{os.getuid()}", OTHER, OTHER)
    os.chmod(tmp / f"kit-{os.getuid()}", 0o777)
    env = {**os.environ, "KIT_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(tmp)}
    out = subprocess.run(
        [sys.executable, "-m", "kit_core.cli", "gen", "design"], cwd=project, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    same_tree(project, expected)
    assert {p: p.read_bytes() for p in files} == files
    assert out.stderr.count("not using kit's state folder") == 1, out.stderr


def _serve_as_other(path: Path, ready: int) -> None:
    """A forked child: listen on ``path`` as the other user, answer every client with a lie."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o777)
    os.setgid(OTHER)
    os.setuid(OTHER)
    listener.listen(4)  # the credentials a client sees are the listener's at this call
    os.write(ready, b"!")
    while True:
        conn, _ = listener.accept()
        conn.sendall(b'{"out": "PWNED\\n"}\n{"exit": 0}\n')
        conn.close()


@pytest.fixture
def foreign(resident: Resident) -> Iterator[Path]:
    """A socket in the user's resident-kit folder served by another user's process."""
    resident.folder.mkdir(mode=0o700)
    path = resident.socket
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            _serve_as_other(path, w)
        finally:
            os._exit(0)
    os.close(w)
    assert os.read(r, 1) == b"!"
    os.close(r)
    yield path
    os.kill(pid, 9)  # the server this test started, by its id
    os.waitpid(pid, 0)


def test_the_client_trusts_no_process_of_another_user(resident: Resident, foreign: Path, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    out = resident.gen(project)
    assert out.returncode == 0 and "written" in out.stdout, out.stderr
    assert "PWNED" not in out.stdout + out.stderr
    assert "another user's process" in out.stderr


def test_a_resident_folder_taken_by_another_user_is_replaced(resident: Resident, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    resident.folder.mkdir()
    lie = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lie.bind(str(resident.socket))
    lie.listen(1)
    os.chown(resident.socket, OTHER, OTHER)
    os.chown(resident.folder, OTHER, OTHER)
    os.chmod(resident.folder, 0o777)
    try:
        out = resident.gen(project)
    finally:
        lie.close()
    assert out.returncode == 0 and "written" in out.stdout, out.stderr
    st = os.lstat(resident.folder)
    assert st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700
    assert resident.pid() is not None, "a resident kit of this user serves from the folder made anew"


def test_the_resident_kit_answers_no_client_of_another_user(resident: Resident, tmp_path: Path) -> None:
    project = tmp_path / "p"
    write_project(project)
    assert resident.gen(project).returncode == 0
    os.chmod(resident.run_dir, 0o755)
    os.chmod(resident.folder, 0o777)  # as if its folder had been left open
    os.chmod(resident.socket, 0o777)
    code = (
        "import os, socket, sys\n"
        f"os.setgid({OTHER}); os.setuid({OTHER})\n"
        "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(20)\n"
        "s.connect(sys.argv[1])\n"
        "try:\n    s.sendall(sys.argv[2].encode() + b'\\n'); print(repr(s.recv(1000)))\n"
        "except ConnectionError:\n    print(repr(b''))\n"
    )
    ident = subprocess.run(
        [sys.executable, "-c", "from kit_core.daemon.protocol import identity; print(identity())"],
        env=resident.env,
        capture_output=True,
        text=True,
    ).stdout.strip()
    request = json.dumps({"identity": ident, "stop": True})  # what would stop it, from this user
    out = subprocess.run(
        [sys.executable, "-c", code, str(resident.socket), request],
        env=resident.env,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert out.stdout.strip() == "b''", out.stdout + out.stderr  # closed without a word
    assert resident.pid() is not None, "and it did not obey"
