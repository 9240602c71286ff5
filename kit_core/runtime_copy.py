"""kit's copy of its Go runtime inside a project: `third_party/kit-runtime/`.

Until the runtime modules are published, a project reaches them through a relative
`replace` to this folder (`kit_core.gomod`), so a clone builds with Go alone: no kit, no
kit cache, no absolute path. The folder is committed with the project. It holds every
runtime module (the root one and the transports with their own go.mod) without tests, and
a marker (`.kit-runtime.json`: version, digest, the files kit wrote), which makes it kit's:

- kit writes the folder only when it is absent or marked; an unmarked folder at that path
  is the user's, never written (the pin is refused with a notice);
- a refresh (an upgrade of kit, a changed runtime) rewrites the files of the new runtime,
  removes the ones the marker lists that the new runtime no longer has, and writes the
  marker last (an interrupted refresh is redone on the next run); a file the user added is
  left where it is;
- its content depends only on the runtime, so two machines write the same bytes.

Its go.mod makes it a module of its own: `go build ./...` and `go vet ./...` of the project
do not enter it, and `kit gen` never sweeps it (its files carry no kit header and it lies
outside every output folder).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from kit_core.runtime_dist import MARKER, Runtime

PROJECT_COPY = "third_party/kit-runtime"  # relative to the folder of the project's go.mod
_NOTE = (
    "kit's copy of its Go runtime, reached by a replace line in go.mod: commit it with the project. "
    "kit gen rewrites it when kit is upgraded; do not edit it (replace the runtime with a folder "
    "of your own instead)."
)


class CopyState(str, Enum):
    ABSENT = "absent"
    CURRENT = "current"  # marked with this runtime's version and digest
    STALE = "stale"  # marked, another runtime (or a refresh that did not finish)
    FOREIGN = "foreign"  # something that is not kit's at that path


@dataclass(frozen=True, slots=True)
class Marker:
    version: str
    digest: str
    files: tuple[str, ...]


def read_marker(folder: Path) -> Marker | None:
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        return Marker(str(data["version"]), str(data["digest"]), tuple(str(f) for f in data.get("files", ())))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def state(folder: Path, runtime: Runtime) -> CopyState:
    if not folder.exists() and not folder.is_symlink():
        return CopyState.ABSENT
    if not folder.is_dir() or folder.is_symlink() or not (folder / MARKER).is_file():
        return CopyState.FOREIGN
    marker = read_marker(folder)
    if marker is None or (marker.version, marker.digest) != (runtime.version, runtime.digest):
        return CopyState.STALE
    if not all((folder / m.rel / "go.mod").is_file() for m in runtime.modules):
        return CopyState.STALE  # files of it deleted by hand
    return CopyState.CURRENT


def write(folder: Path, runtime: Runtime) -> None:
    """Make the folder hold ``runtime`` (it must be ABSENT or marked: see `state`)."""
    old = read_marker(folder)
    files = runtime.files()
    for rel in files:
        _write_file(folder / rel, (runtime.root / rel).read_bytes())
    wanted = {rel.as_posix() for rel in files}
    for rel_text in old.files if old else ():
        if rel_text not in wanted and _inside(folder, rel_text):
            gone = folder / rel_text
            gone.unlink(missing_ok=True)
            _remove_empty_parents(gone.parent, folder)
    marker = {"kit": _NOTE, "version": runtime.version, "digest": runtime.digest, "files": sorted(wanted)}
    _write_file(folder / MARKER, (json.dumps(marker, indent=2) + "\n").encode())


def _inside(folder: Path, rel: str) -> bool:
    """A path from the marker names a file inside the folder (the marker is a file in the
    project: a hand-edited one must not make kit delete elsewhere)."""
    parts = Path(rel).parts
    return bool(parts) and not Path(rel).is_absolute() and ".." not in parts


def _write_file(path: Path, data: bytes) -> None:
    """Write through a temp file and rename: a file is whole or untouched; same bytes: untouched."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_empty_parents(d: Path, stop: Path) -> None:
    while d != stop and stop in d.parents:
        try:
            d.rmdir()
        except OSError:
            return
        d = d.parent
