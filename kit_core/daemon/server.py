"""The daemon: one per project, serving `kit gen` clients one at a time (a run forks for
rendering, which is only safe in a single-threaded process; runs on one project are
serialised by its lock anyway)."""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from kit_core import gcpause
from kit_core.daemon.protocol import LOCK_NAME, Lines, send, socket_path

log = logging.getLogger(__name__)

IDLE_ENV = "KIT_DAEMON_IDLE"
IDLE_DEFAULT = 900.0  # seconds without a client before it exits
_LOCK_WAIT = 3.0  # a refusing daemon is on its way out: wait that long for its lock
_TICK = 5.0  # how often an idle daemon checks that its socket is still its own


def serve(folder: Path) -> int:
    lock = _take_lock(folder)
    path = socket_path(folder)
    if lock is None or path is None:
        return 0
    listener = _listen(path)
    mine = os.stat(path).st_ino
    try:
        _Daemon(listener, path, mine).loop(float(os.environ.get(IDLE_ENV, IDLE_DEFAULT)))
    finally:
        _unlink_if_mine(path, mine)
        listener.close()
        os.close(lock)
    return 0


def _take_lock(folder: Path) -> int | None:
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + _LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)  # who serves: for a person (or a test) looking
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None  # another daemon serves this project
            time.sleep(0.02)


def _listen(path: Path) -> socket.socket:
    try:
        path.unlink()  # a dead daemon's (we hold the lock: no live one has it)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(16)
    return listener


def _unlink_if_mine(path: Path, inode: int) -> None:
    try:
        if os.stat(path).st_ino == inode:
            path.unlink()
    except OSError:
        pass


class _Daemon:
    def __init__(self, listener: socket.socket, path: Path, inode: int) -> None:
        self.listener, self.path, self.inode = listener, path, inode
        self.identity: str | None = None
        self.designs: Any = None  # kit_lsp.generation.ResidentDesigns, made at the first run
        self.warm_roots: set[Path] = set()  # the designs it holds analysed
        self.done = False

    def loop(self, idle: float) -> None:
        last, collect = time.monotonic(), False
        self.listener.settimeout(min(idle, _TICK))
        while not self.done:
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                if time.monotonic() - last >= idle or not self._socket_is_mine():
                    return
                if collect:  # idle: the cyclic garbage the runs' frozen models hid (`gcpause`)
                    gcpause.collect()
                    collect = False
                continue
            conn.settimeout(None)
            with conn:
                root = self.handle(conn)
            if root is not None and not self.done:
                self.warm(*root)  # the client has its answer: get ready for the next edit
            gcpause.release()
            last, collect = time.monotonic(), True

    def _socket_is_mine(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def handle(self, conn: socket.socket) -> tuple[Path, Path, list[str]] | None:
        """Answer one client; returns the design root it generated, the project root and
        the targets."""
        from kit_core.daemon.protocol import identity

        request = Lines(conn).next()
        if request is None:
            return None
        if self.identity is None:
            self.identity = identity()
        if request.get("identity") != self.identity:
            # a client of another kit build or environment: make way for a daemon of its own
            _unlink_if_mine(self.path, self.inode)
            self.done = True
            _reply(conn, {"refused": "another kit build or environment"})
            return None
        if request.get("stop"):
            self.done = True
            _reply(conn, {"exit": 0})
            return None
        gen = request.get("gen")
        if not isinstance(gen, dict):
            return None
        cwd = str(request.get("cwd") or "/")
        self.generate(conn, gen, cwd)
        root = Path(gen["root"])
        project = Path(cwd, gen["context"]) if gen.get("context") else root.parent
        return root, project, list(gen.get("targets") or [])

    def generate(self, conn: socket.socket, gen: dict[str, Any], cwd: str) -> None:
        from kit_core.cli import gen_here

        out = _Output(conn)
        started = time.perf_counter()
        try:
            os.chdir(cwd)  # paths print relative to the client's folder
            with redirect_stdout(out.stream("out")), redirect_stderr(out.stream("err")):
                code = gen_here(
                    Path(gen["root"]),
                    Path(gen["context"]) if gen.get("context") else None,
                    gen.get("targets") or None,
                    self.loaded,
                )
            out.flush()
            _reply(conn, {"exit": code})
            log.info("kit daemon: run of %s: %.0f ms", gen["root"], 1000 * (time.perf_counter() - started))
        except Exception:  # a bug: the client runs it itself (and shows it); this daemon goes on
            log.error("kit daemon: run failed:\n%s", traceback.format_exc())
        finally:
            os.chdir("/")

    def warm(self, root: Path, project_root: Path, targets: list[str]) -> None:
        """Parse, analyse and render the design-wide units now if no run needed it yet (a run
        with nothing to render does not load it), so that the first edit is not a whole load
        and a whole OpenAPI document."""
        from kit_core.regenerate import TARGETS, prime

        if root in self.warm_roots:
            return
        self.warm_roots.add(root)
        try:
            loaded = self.loaded(root)
            if loaded is not None:
                prime(loaded, project_root, targets or TARGETS)
        except Exception:
            log.error("kit daemon: loading %s failed:\n%s", root, traceback.format_exc())

    def loaded(self, root: Path) -> Any:
        """The resident analysis of the design, when it is exactly what is on disk."""
        from kit_core import program
        from kit_lsp.generation import ResidentDesigns, as_loaded

        if program.design_files(root, ".proto"):
            return None  # protos are compiled and checked by the run itself
        if self.designs is None:
            self.designs = ResidentDesigns()
        self.warm_roots.add(root)
        snap = self.designs.snapshot(root)
        return as_loaded(root, snap, self.designs.disk(root))


class _Output:
    """What a run prints, in order across stdout and stderr, sent in few messages."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.chunks: list[tuple[str, str]] = []
        self.size = 0
        self.gone = False  # the client went away (Ctrl-C): the run finishes all the same

    def stream(self, kind: str) -> _Stream:
        return _Stream(self, kind)

    def add(self, kind: str, text: str) -> None:
        if self.chunks and self.chunks[-1][0] == kind:
            self.chunks[-1] = (kind, self.chunks[-1][1] + text)
        else:
            self.chunks.append((kind, text))
        self.size += len(text)
        if self.size > 1 << 16:
            self.flush()

    def flush(self) -> None:
        chunks, self.chunks, self.size = self.chunks, [], 0
        for kind, text in chunks:
            _reply(self.conn, {kind: text}, self)


class _Stream:
    def __init__(self, output: _Output, kind: str) -> None:
        self.output, self.kind = output, kind

    def write(self, text: str) -> int:
        self.output.add(self.kind, text)
        return len(text)

    def flush(self) -> None:
        self.output.flush()

    def isatty(self) -> bool:
        return False


def _reply(conn: socket.socket, message: dict[str, Any], output: _Output | None = None) -> None:
    if output is not None and output.gone:
        return
    try:
        send(conn, message)
    except OSError:
        if output is not None:
            output.gone = True


def main(argv: list[str]) -> int:
    logging.basicConfig(level=os.environ.get("KIT_DAEMON_LOG", "WARNING"), stream=sys.stderr)
    if len(argv) == 2 and argv[0] == "serve":
        return serve(Path(argv[1]))
    if len(argv) == 2 and argv[0] == "stop":
        from kit_core.daemon.client import stop
        from kit_core.statedir import state_dir

        return 0 if stop(state_dir(Path(argv[1]).resolve())) else 1
    print("usage: python -m kit_core.daemon serve STATE_FOLDER | stop PROJECT_ROOT", file=sys.stderr)
    return 2
