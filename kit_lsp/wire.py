"""The JSON-RPC wire, standard library only (the start-up path imports nothing heavier).

Framing: `Content-Length: N` header lines, an empty line, N bytes of UTF-8 JSON. pygls's
reader trusts its peer; this one does not:

- a body over ``MAX_BODY`` bytes is refused without being read into memory;
- a malformed header block, an oversized or truncated body leave the reader resynchronising:
  it scans for the next `Content-Length: N\\r\\n` (which cannot occur inside valid JSON: a
  JSON text has no raw CR/LF inside strings, and the header is no JSON token), with a
  bounded buffer;
- a body that is not JSON, or not a JSON-RPC message, becomes an error answer
  (-32700 parse error, -32600 invalid request) instead of being dropped.

`Inbox` runs the reader on its own thread and hands each decoded message, or each problem,
to a sink that can be swapped (the start-up code reads the first messages itself, then the
server's event loop takes over).
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

MAX_BODY = 64 * 1024 * 1024  # a whole design's worth of text; anything larger is a broken client
MAX_HEADER_LINE = 1024
CHUNK = 64 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800

_HEADER = re.compile(rb"content-length: *(\d{1,20}) *\r?\n\Z", re.IGNORECASE)
_OTHER_HEADER = re.compile(rb"[A-Za-z][A-Za-z0-9-]*: *[^\r\n]*\r?\n\Z")
_SYNC = re.compile(rb"Content-Length: *(\d{1,20})\r\n", re.IGNORECASE)


class Problem:
    """A framing or decoding problem; ``reply`` is the error answer to send (None: log only).
    (A plain class: `dataclasses` would add milliseconds to the start-up path.)"""

    __slots__ = ("description", "reply")

    def __init__(self, description: str, reply: dict[str, Any] | None = None) -> None:
        self.description, self.reply = description, reply

    def __repr__(self) -> str:
        return f"Problem({self.description!r}, {self.reply!r})"


Item = dict[str, Any] | Problem


def error_reply(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def decode(body: bytes) -> Item:
    """A JSON-RPC message object, or the problem with it (and the error answer it deserves)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        return Problem(f"malformed JSON: {exc}", error_reply(None, PARSE_ERROR, f"Parse error: {exc}"))
    if not isinstance(data, dict):
        kind = "a batch" if isinstance(data, list) else type(data).__name__
        return Problem(f"not a message: {kind}", error_reply(None, INVALID_REQUEST, f"Invalid Request: {kind}"))
    msg_id = data.get("id")
    reply_id = msg_id if valid_id(msg_id) else None
    if data.get("jsonrpc") != "2.0":
        reply = error_reply(reply_id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"')
        return Problem("not JSON-RPC 2.0", reply)
    if "method" in data:
        if not isinstance(data["method"], str):
            return Problem("method is not a string", error_reply(reply_id, INVALID_REQUEST, "Invalid Request: method"))
        if "id" in data and not valid_id(msg_id):
            return Problem("bad request id", error_reply(None, INVALID_REQUEST, "Invalid Request: id"))
        return data
    if ("result" in data or "error" in data) and "id" in data:
        return data
    return Problem("neither a request nor a response", error_reply(reply_id, INVALID_REQUEST, "Invalid Request"))


class FrameReader:
    """Reads framed bodies from a binary stream; see the module doc for what it refuses."""

    def __init__(self, stream: BinaryIO, max_body: int = MAX_BODY) -> None:
        self._stream = stream
        self._max = max_body
        self._pending = b""  # bytes read past a resynchronisation point

    def _readline(self) -> bytes:
        if self._pending:
            i = self._pending.find(b"\n")
            if i >= 0 or len(self._pending) >= MAX_HEADER_LINE:
                end = i + 1 if 0 <= i < MAX_HEADER_LINE else MAX_HEADER_LINE
                line, self._pending = self._pending[:end], self._pending[end:]
                return line
            line, self._pending = self._pending, b""
            return line + self._stream.readline(MAX_HEADER_LINE - len(line))
        return self._stream.readline(MAX_HEADER_LINE)

    def _read(self, n: int) -> bytes:
        head, self._pending = self._pending[:n], self._pending[n:]
        if len(head) == n:
            return head
        parts, missing = [head], n - len(head)
        while missing:
            chunk = self._stream.read(missing)
            if not chunk:
                break
            parts.append(chunk)
            missing -= len(chunk)
        return b"".join(parts)

    def read(self) -> bytes | Problem | None:
        """The next body, a problem (after which the reader has resynchronised), or None at EOF."""
        length: int | None = None
        while True:
            line = self._readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if length is None:
                    if not self._resync():
                        return None
                    return Problem("header block without Content-Length")
                break
            match = _HEADER.match(line)
            if match:
                length = int(match.group(1))
            elif not _OTHER_HEADER.match(line):
                problem = Problem(f"malformed header line {line[:80]!r}")
                return problem if self._resync(line) else None
        if length > self._max:
            problem = Problem(
                f"message of {length} bytes refused (limit {self._max})",
                error_reply(None, INVALID_REQUEST, f"message of {length} bytes is over the limit of {self._max} bytes"),
            )
            return problem if self._resync() else None
        body = self._read(length)
        if len(body) < length:
            return None
        match = _SYNC.search(body)
        if match:  # a body shorter than announced ran into the next message: keep that one
            body, self._pending = body[: match.start()], body[match.start() :] + self._pending
        return body

    def _resync(self, seen: bytes = b"") -> bool:
        """Skip to the next `Content-Length` header (kept for `read`), looking from ``seen`` (the
        rejected line: the rest of an overlong body may run into the next header); False at EOF."""
        window = seen + self._pending
        self._pending = b""
        while True:
            match = _SYNC.search(window)
            if match:
                self._pending = window[match.start() :]
                return True
            window = window[-40:]  # a header split across two chunks
            chunk = self._stream.read1(CHUNK) if hasattr(self._stream, "read1") else self._stream.read(CHUNK)
            if not chunk:
                return False
            window += chunk


Sink = Callable[[Item | None], None]


class Inbox:
    """The reader thread: decodes each message and passes it (or a Problem, or None at EOF) to
    the current sink. Until a sink is attached, items wait in order.

    The reader stays at most ``max_ahead`` items ahead of its consumer (the sink's consumer
    calls `done` per item): a client that floods the server blocks on its pipe instead of
    piling decoded messages up in memory (50,000 queued edits would be 100 MB, and the
    allocator keeps that high-water mark)."""

    def __init__(self, stream: BinaryIO, max_body: int = MAX_BODY, max_ahead: int = 256) -> None:
        self._reader = FrameReader(stream, max_body)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiting: list[Item | None] = []
        self._sink: Sink | None = None
        self._ahead = 0
        self._max_ahead = max_ahead
        self._thread = threading.Thread(target=self._run, name="kit-lsp-reader", daemon=True)

    def start(self) -> Inbox:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                raw = self._reader.read()
            except (OSError, ValueError) as exc:  # the stream broke or was closed
                print(f"kit-lsp: input closed: {exc}", file=sys.stderr)
                raw = None
            item: Item | None = decode(raw) if isinstance(raw, bytes) else raw
            self._deliver(item)
            if item is None:
                return

    def _deliver(self, item: Item | None) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._ahead < self._max_ahead)
            self._ahead += 1
            sink = self._sink
            if sink is None:
                self._waiting.append(item)
                self._changed.notify_all()
                return
        sink(item)

    def done(self) -> None:
        """The consumer has handled one item it got from the sink."""
        with self._changed:
            self._ahead -= 1
            self._changed.notify_all()

    def next_waiting(self) -> Item | None:
        """The oldest waiting item (blocks; for the start-up code before a sink exists)."""
        return self.take(None)[1]

    def take(self, timeout: float | None) -> tuple[bool, Item | None]:
        """(True, the oldest waiting item) or (False, None) when none came within ``timeout``."""
        with self._changed:
            if not self._changed.wait_for(lambda: bool(self._waiting), timeout):
                return False, None
            self._ahead -= 1
            self._changed.notify_all()
            return True, self._waiting.pop(0)

    def attach(self, sink: Sink) -> None:
        """Hand every waiting item to ``sink``, in order, then every later one (each counts
        as ahead until `done`)."""
        with self._lock:
            waiting, self._waiting = self._waiting, []
            for item in waiting:
                sink(item)
            self._sink = sink


class Outbox:
    """Writes framed messages; one write per message under a lock (several threads answer)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        self.write(encode(message))

    def write(self, data: bytes) -> None:
        with self._lock:
            self._stream.write(data)
            self._stream.flush()

    def close(self) -> None:
        try:
            self._stream.close()
        except OSError:
            pass
