"""Compile protos in-process with grpcio-tools' protoc: descriptors, or located errors.

    result = compile_protos(roots, names, texts, known)

``roots`` are the import roots in lookup order (the design folder first, `proto.includes`,
then grpc_tools' well-known types); ``names`` are the files to compile by their import
name (path relative to their root); ``texts`` maps an import name to an editor buffer that
replaces the file on disk; ``known`` are files compiled before that protoc takes as they
are instead of parsing them again (`--descriptor_set_in`: a design's unchanged protos and
imports when one proto was edited). The descriptors hold every imported file too, in
dependency order, with source info (locations and comments).

protoc writes its messages to file descriptor 2 and stops at the first file that fails, so
messages are taken from two places: protoc's own run (fd 2 captured for the call, lines
that are not protoc's are passed on), and, when that run fails, grpc_tools' structured
`get_protos` per input file, which reports every file's errors with their places.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources
from pathlib import Path
from threading import Event
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2

# protoc runs in this process and shares its standard error: one compile at a time.
_LOCK = threading.Lock()
# protoc's peak memory is ~80 times the text it compiles (~400 MB for a 5 MB proto with
# protovalidate rules) and stays with the process that ran it: in a long-lived process
# (kit-lsp, the resident kit) inputs larger than this run in a child protoc; a one-off
# `kit gen` runs protoc in-process (a child would cost an interpreter start).
ISOLATE_BYTES = 1_000_000
# A one-off compile of more than this, of several protos, runs as two halves side by side
# (one in a child protoc) when the machine has two cores: buf's compiler uses both.
SPLIT_BYTES = 1_000_000
# The niceness of a child protoc compiling behind a first pass: on a machine with two cores
# the server, the first pass and the full compile would otherwise share them evenly.
BACKGROUND_NICE = 10
CANCEL_POLL_S = 0.05  # how often a child protoc's waiter looks whether it is still wanted


@cache
def well_known_root() -> Path:
    """grpc_tools' copy of `google/protobuf/*.proto`."""
    return Path(str(resources.files("grpc_tools") / "_proto"))


@dataclass(frozen=True, slots=True)
class Message:
    """One protoc message: ``name`` is the file as protoc names it (import name or disk path);
    line and column are 0-based (the column in protoc's units, tabs to multiples of 8);
    -1 when protoc gives no place."""

    name: str
    line: int
    col: int
    text: str
    warning: bool = False


@dataclass(slots=True)
class Compiled:
    files: list[descriptor_pb2.FileDescriptorProto] = field(default_factory=list)  # dependency order
    messages: list[Message] = field(default_factory=list)


def compile_protos(
    roots: Sequence[Path],
    names: Sequence[str],
    texts: Mapping[str, str] | None = None,
    known: Sequence[descriptor_pb2.FileDescriptorProto] = (),
    isolate: bool = False,
    quick: bool = False,
    cancel: Event | None = None,
) -> Compiled:
    """Compile ``names``; never raises on bad input (problems are messages). ``known`` must
    not hold ``names`` nor anything that imports them, and must hold every other file of
    the first root that ``names`` import: protoc reads a file from an import root before it
    looks in `--descriptor_set_in`, so the first root is not given to protoc (``names`` are
    read from it, or taken from ``texts``). ``isolate``: a long-lived process asks for a
    large input to be compiled in a child protoc, which ``cancel`` being set ends
    (`Cancelled` is raised). ``quick``: only protoc's own messages about ``names`` are
    wanted (no files, no source info): every one's errors, in one run (`_umbrella`)."""
    if not names:
        return Compiled()
    # deferred: a design without protos never loads protoc or protobuf (~15 ms)
    from google.protobuf import descriptor_pb2

    with tempfile.TemporaryDirectory(prefix="kit-protoc-") as tmp:
        path = list(roots)
        if texts:
            path.insert(0, _overlay(Path(tmp) / "buffers", texts))
        given, subset, pb = path, list(known), Path(tmp) / "known.pb"
        out = Path(tmp) / "set.pb"
        # a quick compile writes nothing: protoc's print mode, on an input that declares
        # nothing (`_umbrella`), checks the files as a compile does and prints nothing;
        # building and writing a descriptor set was ~40% of a large proto's check
        args = ["--print_free_field_numbers"] if quick else ["--include_source_info"]
        if known:
            # only ``names`` come out (the caller has the rest), and protoc is given only the
            # known files they import, directly or not: the import statements of their texts
            # say which (a file imported in a way the pattern misses is retried with all)
            fresh = {n: texts[n] if texts and n in texts else _read_text(roots[0] / n) for n in names}
            given = [_overlay(Path(tmp) / "fresh", fresh), *roots[1:]]
            subset = _imported(known, fresh.values())
            pb.write_bytes(descriptor_pb2.FileDescriptorSet(file=subset).SerializeToString())
            args.append(f"--descriptor_set_in={pb}")
        elif not quick:
            args.append("--include_imports")
        size = _input_bytes(given, names)
        isolate = isolate and size > ISOLATE_BYTES
        inputs: Callable[[Sequence[str]], list[str]] = list
        if quick:
            umbrellas = Path(tmp) / "umbrella"
            given = [umbrellas, *given]
            inputs = partial(_umbrella, umbrellas)
        if not known and size > SPLIT_BYTES and len(names) > 1 and _cores() > 1:
            includes = [f"-I{p}" for p in given]
            halves = _compile_halves(Path(tmp), includes, args, names, isolate, cancel, quick, inputs)
            if halves is not None:
                return halves
        output = [] if quick else [f"--descriptor_set_out={out}"]
        args = [*(f"-I{p}" for p in given), *output, *args, *inputs(names)]
        rc, lines = _run(args, isolate, cancel)
        if known and rc != 0 and len(subset) < len(known) and _missed(lines, known):
            pb.write_bytes(descriptor_pb2.FileDescriptorSet(file=known).SerializeToString())
            rc, lines = _run(args, isolate, cancel)
        result = Compiled(messages=_parse_lines(lines, given))
        if quick:
            return result
        if rc == 0 and out.is_file():
            result.files = list(descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file)
            return result
        # protoc stopped at the first file that failed; the others are compiled one by one
        # (a file whose errors protoc gave is not compiled a second time: a large one would
        # cost as much again)
        reported = {m.name for m in result.messages if not m.warning}
        errors = _errors_per_file([n for n in names if n not in reported], path, result.messages)
        result.messages += errors
        if not any(not m.warning for m in result.messages):
            result.messages.append(Message(names[0], -1, -1, "protoc failed without a message"))
        return result


def _compile_halves(
    tmp: Path,
    includes: list[str],
    flags: list[str],
    names: Sequence[str],
    isolate: bool,
    cancel: Event | None,
    quick: bool,
    inputs: Callable[[Sequence[str]], list[str]] = list,
) -> Compiled | None:
    """``names`` compiled as two halves side by side (one in a child protoc; the other here
    too unless ``isolate``), each with the imports it needs: the serial compile's files in
    its order and its messages, or None when a half failed (the serial compile then says
    what protoc says of the whole; ``quick`` wants only the halves' messages, whatever
    they are). The halves are contiguous runs of the sorted names, so that a package's
    protos, which import each other, stay together."""
    # deferred: protobuf's Python runtime loads only when protos are compiled
    from google.protobuf import descriptor_pb2

    halves = _halve(includes, names)
    outs = [tmp / "half0.pb", tmp / "half1.pb"]
    runs = [
        [*includes, *([] if quick else [f"--descriptor_set_out={out}"]), *flags, *inputs(half)]
        for out, half in zip(outs, halves, strict=True)
    ]
    second: list[tuple[int, list[str]]] = []
    worker = threading.Thread(target=lambda: second.append(_run(runs[1], True, cancel)), name="kit-protoc-half")
    worker.start()
    try:
        first = _run(runs[0], isolate, cancel)
    finally:
        worker.join()
    if not second:
        return None
    lines = first[1] + second[0][1]
    paths = [Path(i[2:]) for i in includes]
    if quick:
        return Compiled(messages=_parse_lines(lines, paths))
    if first[0] != 0 or second[0][0] != 0:
        return None
    by_name: dict[str, Any] = {}
    for out in outs:
        by_name.update((f.name, f) for f in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file)
    files = in_protoc_order(names, by_name)
    order = {f.name: i for i, f in enumerate(files)}
    messages = _parse_lines(lines, paths)
    messages.sort(key=lambda m: order.get(m.name, len(order)))  # stable: protoc's order per file
    return Compiled(files, messages)


def _halve(includes: list[str], names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Two runs of ``names`` (sorted) of about equal size on disk."""
    ordered = sorted(names)
    sizes = [_input_bytes([Path(i[2:]) for i in includes], [n]) for n in ordered]
    total, acc = sum(sizes), 0
    for cut, size in enumerate(sizes):
        if acc + size / 2 >= total / 2 and cut > 0:
            return ordered[:cut], ordered[cut:]
        acc += size
    return ordered[:-1], ordered[-1:]


# the folder of the protos that import the inputs of a quick compile (see `_umbrella`)
UMBRELLA_DIR = ".kit-first-pass"


def _umbrella(base: Path, names: Sequence[str]) -> list[str]:
    """One input for protoc that imports ``names``, in their order (written under ``base``, an
    import root of the run): given several inputs, protoc stops at the first that fails and
    says nothing of the rest, but it builds every import of one input, failing or not, and
    reports each one's errors; the files load in the same order, so a name defined twice is
    reported where the compile of ``names`` reports it. Its own messages are dropped; it
    declares nothing, so protoc's print mode (a quick compile's) prints nothing."""
    name = f"{UMBRELLA_DIR}/{len(list(base.rglob('*.proto')))}.proto"
    quoted = (n.replace("\\", "\\\\").replace('"', '\\"') for n in names)
    imports = "".join(f'import "{n}";\n' for n in quoted)
    (base / name).parent.mkdir(parents=True, exist_ok=True)
    (base / name).write_text(f'syntax = "proto3";\n{imports}', encoding="utf-8")
    return [name]


def in_protoc_order(names: Iterable[str], by_name: Mapping[str, descriptor_pb2.FileDescriptorProto]) -> list[Any]:
    """The files protoc writes when it compiles ``names`` at once, in its order: each name
    after its imports, depth first, in the order they are imported."""
    out: list[Any] = []
    done: set[str] = set()

    def visit(name: str) -> None:
        if name in done or name not in by_name:
            return
        done.add(name)
        for dep in by_name[name].dependency:
            visit(dep)
        out.append(by_name[name])

    for name in names:
        visit(name)
    return out


@cache
def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Cancelled(Exception):
    """A child protoc was ended: its compile was no longer wanted."""


def _run(args: list[str], isolate: bool, cancel: Event | None = None) -> tuple[int, list[str]]:
    """protoc's exit code and the lines it wrote to standard error."""
    if isolate:
        return _run_child(args, cancel)
    # deferred: protoc loads only for a design with protos
    from grpc_tools import _protoc_compiler

    with _LOCK, _captured_stderr() as lines:
        rc = _protoc_compiler.run_main([a.encode() for a in ["protoc", *args]])
    return rc, lines


def _run_child(args: list[str], cancel: Event | None) -> tuple[int, list[str]]:
    """protoc in a child process, ended as soon as ``cancel`` is set. A compile that can be
    cancelled runs behind a first pass (`kit_core.resident.protos`): its child yields the
    cores to the first pass and the server (`BACKGROUND_NICE`), whose answer is awaited."""
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "grpc_tools.protoc", *args], stdout=subprocess.DEVNULL, stderr=err
        )
        if cancel is not None:
            _lower_priority(child.pid)
        while True:
            try:
                rc = child.wait(timeout=CANCEL_POLL_S if cancel is not None else None)
                break
            except subprocess.TimeoutExpired:
                if cancel is not None and cancel.is_set():
                    child.kill()
                    child.wait()
                    raise Cancelled() from None
        err.seek(0)
        return rc, err.read().decode("utf-8", errors="replace").splitlines()


def _lower_priority(pid: int) -> None:
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(own + BACKGROUND_NICE, 19))
    except (AttributeError, OSError):  # not POSIX, or the child has ended already
        pass


_IMPORT = re.compile(r'import\s+(?:public\s+|weak\s+)?"([^"]+)"')
_NOT_FOUND = re.compile(r'Import "([^"]+)" was not found')


def imports_in(text: str) -> list[str]:
    """The import names a proto's text imports, by its import statements (the first word
    of their line: a search for the word, ~10 times quicker on a large proto than a
    pattern tried at every line)."""
    out = []
    for m in _IMPORT.finditer(text):
        if not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
            out.append(m.group(1))
    return out


def _imported(
    known: Sequence[descriptor_pb2.FileDescriptorProto], texts: Iterable[str]
) -> list[descriptor_pb2.FileDescriptorProto]:
    """The known files that ``texts`` import, directly or not, in ``known``'s order."""
    by_name = {f.name: f for f in known}
    todo = [name for text in texts for name in imports_in(text)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen and name in by_name:
            seen.add(name)
            todo += by_name[name].dependency
    return [f for f in known if f.name in seen]


def _missed(lines: Sequence[str], known: Sequence[descriptor_pb2.FileDescriptorProto]) -> bool:
    """Whether protoc did not find an import that ``known`` holds."""
    names = {f.name for f in known}
    return any(m.group(1) in names for line in lines for m in _NOT_FOUND.finditer(line))


def _input_bytes(path: Sequence[Path], names: Sequence[str]) -> int:
    """The size of the files protoc is given (their imports not counted), as found first."""
    total = 0
    for name in names:
        for root in path:
            try:
                total += (root / name).stat().st_size
                break
            except OSError:
                continue
    return total


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _overlay(base: Path, texts: Mapping[str, str]) -> Path:
    """A root holding the editor buffers at their import names, looked up before the disk."""
    for name, text in texts.items():
        target = base / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return base


@contextmanager
def _captured_stderr() -> Iterator[list[str]]:
    """Everything written to fd 2 during the block, as lines; lines that are not protoc's
    (another thread's log line) are written back to the real standard error afterwards."""
    lines: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            lines.extend(capture.read().decode("utf-8", errors="replace").splitlines())


# `file:line:col: message`, `file:line:col: warning: message`, `file: message`
_LINE = re.compile(r"^(?P<name>[^:\n]+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<warn>warning: )?(?P<text>.+)$")


def _parse_lines(lines: Sequence[str], path: Sequence[Path]) -> list[Message]:
    out: list[Message] = []
    foreign: list[str] = []
    for line in lines:
        m = _LINE.match(line)
        if m is None or not _is_proto_name(m.group("name"), path):
            foreign.append(line)
            continue
        name = _import_name(m.group("name"), path)
        if name.startswith(UMBRELLA_DIR + "/"):
            continue  # "Import ... had errors": said in the file that has them
        lno, col = m.group("line"), m.group("col")
        out.append(
            Message(
                name,
                int(lno) - 1 if lno else -1,
                int(col) - 1 if col else -1,
                m.group("text"),
                bool(m.group("warn")),
            )
        )
    if foreign:
        sys.stderr.write("\n".join(foreign) + "\n")
    return out


def _import_name(name: str, path: Sequence[Path]) -> str:
    """protoc names a file by its path on disk when it found it through an import root."""
    for root in path:
        prefix = str(root).rstrip("/") + "/"
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _is_proto_name(name: str, path: Sequence[Path]) -> bool:
    return name.endswith(".proto") or any(name.startswith(str(p)) for p in path)


def _errors_per_file(names: Sequence[str], path: Sequence[Path], had: Sequence[Message]) -> list[Message]:
    """Every input's errors, with places, from grpc_tools' structured compile; none of ``had``."""
    # deferred: protoc and protobuf load only for a design with protos
    from grpc_tools import _protoc_compiler

    include = [str(p).encode() for p in path]
    seen = {(m.name, m.line, m.col, m.text) for m in had}
    out: list[Message] = []
    for name in names:
        try:
            with _LOCK:
                _protoc_compiler.get_protos(name.encode(), include)
        except _protoc_compiler.ProtocErrors as exc:
            for e in exc.errors():
                msg = Message(_s(e.filename), int(e.line), int(e.column), _s(e.message))
                key = (msg.name, msg.line, msg.col, msg.text)
                if key not in seen:
                    seen.add(key)
                    out.append(msg)
    return out


def _s(value: bytes | str) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value
