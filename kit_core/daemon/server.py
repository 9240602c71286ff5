"""The resident kit: one per user, serving `kit gen` clients one at a time (a run forks for
rendering; runs on one project are serialised by its lock anyway), holding the designs it
served analysed, within bounds:

- a project whose design folder is gone is dropped within `TICK` seconds; when the last
  project it served is gone, it exits;
- at most `KIT_DAEMON_DESIGNS` designs are held (default `MAX_DESIGNS`), and past
  `KIT_DAEMON_MEMORY` MB of resident memory (default `MEMORY_MB`) the least recently used
  ones are dropped (the one just run stays);
- it exits `KIT_DAEMON_IDLE` seconds after its last client (default: `IDLE_INTERACTIVE`
  after a run from a terminal, `IDLE_SCRIPTED` after any other), on request
  (`python -m kit_core.daemon stop`), or when its socket is no longer its own.

A client's cancel (Ctrl-C) is read by a thread while the run goes on, and honoured at the
run's next stage (`Cancelled` from its progress callback): never in the middle of the
resident analysis, and never once the run writes.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import os
import socket
import sys
import threading
import time
import traceback
from collections import OrderedDict
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from kit_core import gcpause
from kit_core.daemon.protocol import LOCK_NAME, Lines, daemon_dir, identity, peer_is_me, send, socket_path

log = logging.getLogger(__name__)

IDLE_ENV = "KIT_DAEMON_IDLE"
IDLE_INTERACTIVE = 900.0  # seconds without a client before it exits, after a run from a terminal
IDLE_SCRIPTED = 60.0  # after a script's, a suite's, an editor task's run
DESIGNS_ENV = "KIT_DAEMON_DESIGNS"
MAX_DESIGNS = 8
MEMORY_ENV = "KIT_DAEMON_MEMORY"
MEMORY_MB = 1024
TICK = 2.0  # how often an idle resident kit looks at its projects and its socket
_LOCK_WAIT = 3.0  # a refusing resident kit is on its way out: wait that long for its lock


def serve() -> int:
    started_as = identity()  # before the imports: a file changed meanwhile is seen below
    folder = daemon_dir()
    lock = _take_lock(folder)
    path = socket_path(folder)
    if lock is None or path is None:
        return 0
    listener = _listen(path)
    mine = os.stat(path).st_ino
    try:
        _import_the_run()
        if identity() != started_as:
            return 0  # kit changed while it started: its clients must not meet this code
        _Daemon(listener, path, mine, started_as).loop()
    finally:
        _unlink_if_mine(path, mine)
        listener.close()
        os.close(lock)
    return 0


def _import_the_run() -> None:
    import kit_core.cli
    import kit_core.regenerate
    import kit_core.resident.designs  # noqa: F401


def _take_lock(folder: Path) -> int | None:
    from kit_core.statedir import open_state

    fd = open_state(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT)
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
                return None  # another resident kit serves this user
            time.sleep(0.02)


def _listen(path: Path) -> socket.socket:
    try:
        path.unlink()  # a dead one's (we hold the lock: no live one has it)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # the socket is born 0600: never reachable by others, not even briefly
    try:
        listener.bind(str(path))
    finally:
        os.umask(old)
    listener.listen(16)
    return listener


def _unlink_if_mine(path: Path, inode: int) -> None:
    try:
        if os.stat(path).st_ino == inode:
            path.unlink()
    except OSError:
        pass


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def rss() -> int:
    """This process's resident memory, in bytes."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _trim() -> None:
    """Hand freed memory back to the system (glibc keeps it otherwise)."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        pass


class _Daemon:
    def __init__(self, listener: socket.socket, path: Path, inode: int, ident: str) -> None:
        from kit_core.resident.designs import ResidentDesigns

        self.listener, self.path, self.inode, self.identity = listener, path, inode, ident
        self.designs = ResidentDesigns()
        self.projects: OrderedDict[Path, None] = OrderedDict()  # design roots served, least recent first
        self.warm_roots: set[Path] = set()  # the designs it holds analysed
        self.max_designs = max(1, int(_env_number(DESIGNS_ENV, MAX_DESIGNS)))
        self.memory = _env_number(MEMORY_ENV, MEMORY_MB) * 1024 * 1024
        self.idle = _env_number(IDLE_ENV, IDLE_INTERACTIVE)
        self.done = False

    def loop(self) -> None:
        last = tended = time.monotonic()
        collect = False
        self.listener.settimeout(TICK)
        while not self.done:
            if time.monotonic() - tended >= TICK:  # busy or not: clients must not delay it
                tended = time.monotonic()
                if not self._socket_is_mine() or not self._tend():
                    return
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                if time.monotonic() - last >= self.idle:
                    return
                if collect:  # idle: the cyclic garbage the runs' frozen models hid (`gcpause`)
                    gcpause.collect()
                    collect = False
                continue
            conn.settimeout(None)
            with conn:
                if not peer_is_me(conn):
                    log.warning("kit daemon: a client of another user was turned away")
                    continue
                served = self.handle(conn)
            if served is not None and not self.done:
                self.warm(*served)  # the client has its answer: get ready for the next edit
                self._bound(served[0])
            gcpause.release()
            last, collect = time.monotonic(), True

    def _socket_is_mine(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def _tend(self) -> bool:
        """Drop the projects whose design folder is gone; False when none is left."""
        gone = [root for root in self.projects if not root.is_dir()]
        for root in gone:
            self._drop(root)
        if gone:
            _trim()
        return bool(self.projects) or not gone

    def _drop(self, root: Path) -> None:
        self.projects.pop(root, None)
        self.warm_roots.discard(root)
        self.designs.forget(root)
        log.info("kit daemon: released %s", root)

    def _bound(self, current: Path) -> None:
        """Keep at most `max_designs` designs, and drop the least recently used ones past the
        memory budget (never ``current``, the one just run)."""
        held = [r for r in self.projects if self.designs.holds(r) and r != current]
        while held and len(held) + 1 > self.max_designs:
            self._forget_design(held.pop(0))
        if rss() <= self.memory:
            return
        while held and rss() > self.memory:
            self._forget_design(held.pop(0))
            _trim()

    def _forget_design(self, root: Path) -> None:
        self.warm_roots.discard(root)
        self.designs.forget(root)
        log.info("kit daemon: dropped the analysis of %s (bounds)", root)

    def handle(self, conn: socket.socket) -> tuple[Path, Path, list[str]] | None:
        """Answer one client; returns the design root it generated, the project root and
        the targets (None: nothing to get ready for)."""
        lines = Lines(conn)
        request = lines.next()
        if request is None:
            return None
        if request.get("identity") != self.identity:
            # a client of another kit build or environment: make way for a process of its own
            _unlink_if_mine(self.path, self.inode)
            self.done = True
            _reply(conn, {"refused": "another kit build or environment"})
            return None
        if request.get("stop"):
            self.done = True
            _reply(conn, {"exit": 0})
            return None
        if request.get("status"):
            _reply(conn, {"status": self.status()})
            return None
        gen = request.get("gen")
        if not isinstance(gen, dict):
            return None
        if not request.get("interactive") and IDLE_ENV not in os.environ:
            self.idle = IDLE_SCRIPTED
        elif IDLE_ENV not in os.environ:
            self.idle = IDLE_INTERACTIVE
        root = Path(gen["root"])
        self.projects[root] = None
        self.projects.move_to_end(root)
        cwd = str(request.get("cwd") or "/")
        if not self.generate(conn, lines, gen, cwd):
            return None
        project = Path(cwd, gen["context"]) if gen.get("context") else root.parent
        return root, project, list(gen.get("targets") or [])

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "projects": [str(p) for p in self.projects],
            "designs": [str(p) for p in self.projects if self.designs.holds(p)],
            "rss": rss(),
            "idle": self.idle,
        }

    def generate(self, conn: socket.socket, lines: Lines, gen: dict[str, Any], cwd: str) -> bool:
        """Run it; False when it was cancelled (or failed)."""
        from kit_core.cli import gen_here
        from kit_core.interrupt import Cancelled

        out = _Output(conn)
        watch = _Watch(lines)

        def progress(_message: str) -> None:
            if watch.cancelled:
                raise Cancelled()

        started = time.perf_counter()
        try:
            os.chdir(cwd)  # paths print relative to the client's folder
            with redirect_stdout(out.stream("out")), redirect_stderr(out.stream("err")):
                code = gen_here(
                    Path(gen["root"]),
                    Path(gen["context"]) if gen.get("context") else None,
                    gen.get("targets") or None,
                    self.loaded,
                    progress,
                )
            out.flush()
            _reply(conn, {"exit": code})
            log.info("kit daemon: run of %s: %.0f ms", gen["root"], 1000 * (time.perf_counter() - started))
            return True
        except Cancelled:
            out.flush()
            _reply(conn, {"cancelled": True})
            log.info("kit daemon: run of %s cancelled", gen["root"])
            return False
        except Exception:  # a bug: the client runs it itself (and shows it); this process goes on
            log.error("kit daemon: run failed:\n%s", traceback.format_exc())
            return False
        finally:
            os.chdir("/")
            watch.stop(conn)

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
        from kit_core.resident.designs import as_loaded

        if program.design_files(root, ".proto"):
            return None  # protos are compiled and checked by the run itself
        self.warm_roots.add(root)
        snap = self.designs.snapshot(root)
        return as_loaded(root, snap, self.designs.disk(root))


class _Watch:
    """Reads the client's messages while its run goes on: a cancel (or the client gone)."""

    def __init__(self, lines: Lines) -> None:
        self.cancelled = False
        self._thread = threading.Thread(target=self._read, args=(lines,), daemon=True)
        self._thread.start()

    def _read(self, lines: Lines) -> None:
        while (message := lines.next()) is not None:
            if message.get("cancel"):
                self.cancelled = True
                return
        self.cancelled = True  # the client is gone: nobody wants the rest

    def stop(self, conn: socket.socket) -> None:
        try:
            conn.shutdown(socket.SHUT_RD)  # wakes the reading thread
        except OSError:
            pass
        self._thread.join(timeout=1.0)


class _Output:
    """What a run prints, in order across stdout and stderr, sent in few messages."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.chunks: list[tuple[str, str]] = []
        self.size = 0
        self.gone = False  # the client went away

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
    if argv[:1] == ["serve"]:  # serve [KIT_CORE_DIR]: the folder only names the checkout in `ps`
        from kit_core import gcpause

        gcpause.install()  # an entry point: kit's bulk phases may pause and freeze the collector
        return serve()
    if argv[:1] in (["stop"], ["status"]):
        import json

        from kit_core.daemon.client import request

        answer = request({argv[0]: True})
        if answer is not None and argv[0] == "status":
            print(json.dumps(answer.get("status")))
        return 0 if answer is not None else 1
    print("usage: python -m kit_core.daemon serve | stop | status", file=sys.stderr)
    return 2
