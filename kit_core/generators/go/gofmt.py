"""gofmt over the generated `.go` files, overlapped with rendering.

Files are written in batches to a temp directory (memory-backed when /dev/shm exists) and
each batch gets one `gofmt -w` process. While the generator is still rendering, at most
one gofmt runs (the generator keeps one core, gofmt the other); at the end the remaining
batches run one per core. Spawning one process per file, or formatting only after
everything is rendered, dominated large runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from types import TracebackType

from kit_core.generators.base import OutputFile
from kit_core.generators.go.render import Preformatted
from kit_core.scratch import memory_dir

BATCH_BYTES = 1 << 20
TRUST_PREFORMATTED = True  # tests turn it off to check that gofmt would change nothing


class GofmtError(RuntimeError):
    """gofmt refused generated code: a generator bug, reported with the file and gofmt's words."""


class Gofmt:
    """Use as a context manager: `add` files as they are rendered, then `result(files)`."""

    def __init__(self, batch_bytes: int = BATCH_BYTES, exe: str | None = None) -> None:
        self.exe = exe if exe is not None else shutil.which("gofmt")
        self.batch_bytes = batch_bytes
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._names: dict[str, str] = {}  # project path -> temp file
        self._pending: list[str] = []  # temp files not yet handed to a process
        self._pending_bytes = 0
        self._queued: list[list[str]] = []
        self._running: list[tuple[subprocess.Popen[bytes], int]] = []  # (process, stderr fd)

    def __enter__(self) -> Gofmt:
        if self.exe is not None:
            self._tmp = tempfile.TemporaryDirectory(prefix="kit-gofmt-", dir=memory_dir())
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for proc, fd in self._running:
            proc.kill()
            proc.wait()
            os.close(fd)
        if self._tmp is not None:
            self._tmp.cleanup()

    def add(self, files: Iterable[OutputFile]) -> None:
        if self._tmp is None:
            return
        for f in files:
            if not f.path.endswith(".go") or f.path in self._names:
                continue
            if TRUST_PREFORMATTED and isinstance(f, Preformatted):
                continue
            name = os.path.join(self._tmp.name, f"f{len(self._names)}.go")
            with open(name, "w", encoding="utf-8") as fh:
                fh.write(f.content)
            self._names[f.path] = name
            self._pending.append(name)
            self._pending_bytes += len(f.content)
            if self._pending_bytes >= self.batch_bytes:
                self._cut()
        self._pump(1)

    def result(self, files: list[OutputFile]) -> list[OutputFile]:
        """Every file, `.go` ones formatted (in the order given)."""
        if self._tmp is None:
            return [_plain(f) for f in files]
        self.add(files)
        self._cut()
        self._pump(max(1, os.cpu_count() or 1), wait=True)
        out = []
        for f in files:
            name = self._names.get(f.path)
            if name is None:
                out.append(_plain(f))
                continue
            with open(name, encoding="utf-8") as fh:
                out.append(OutputFile(f.path, fh.read(), f.owner))
        return out

    # ---------------------------------------------------------------- processes

    def _cut(self) -> None:
        if self._pending:
            self._queued.append(self._pending)
            self._pending, self._pending_bytes = [], 0

    def _pump(self, limit: int, wait: bool = False) -> None:
        while True:
            self._reap(block=False)
            while self._queued and len(self._running) < limit:
                self._start(self._queued.pop(0))
            if not wait or not (self._running or self._queued):
                return
            self._reap(block=True)

    def _start(self, batch: list[str]) -> None:
        assert self._tmp is not None and self.exe is not None
        fd, _ = tempfile.mkstemp(dir=self._tmp.name, suffix=".err")
        proc = subprocess.Popen([self.exe, "-w", *batch], stdout=subprocess.DEVNULL, stderr=fd)
        self._running.append((proc, fd))

    def _reap(self, block: bool) -> None:
        if block and self._running:
            self._running[0][0].wait()
        done = [(p, fd) for p, fd in self._running if p.poll() is not None]
        self._running = [(p, fd) for p, fd in self._running if p.returncode is None]
        errors = []
        for proc, fd in done:
            if proc.returncode:
                os.lseek(fd, 0, os.SEEK_SET)
                errors.append(os.read(fd, 1 << 20).decode(errors="replace"))
            os.close(fd)
        if errors:
            raise GofmtError(self._explain("".join(errors)))

    def _explain(self, stderr: str) -> str:
        for path, name in self._names.items():
            stderr = stderr.replace(name, path)
        return "gofmt refused generated code (a kit bug):\n" + stderr.strip()


def _plain(f: OutputFile) -> OutputFile:
    return OutputFile(f.path, f.content, f.owner) if isinstance(f, Preformatted) else f


def gofmt_all(files: list[OutputFile]) -> list[OutputFile]:
    """Format every `.go` file of a finished list at once."""
    with Gofmt() as fmt:
        return fmt.result(files)
