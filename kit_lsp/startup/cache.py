"""A design's last published diagnostics, kept between sessions, keyed by file contents.

Standard library only: the start-up code (`kit_lsp.startup.early`) reads it before the server is
imported, to show diagnostics within milliseconds of opening an editor; the server writes it
when a design has been quiet for a moment. One JSON file per design root under
``$KIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/kit/lsp``, else ``~/.cache/kit/lsp`` (outside
the project). A record holds the kit version, the position encoding its ranges use, a
digest of the manifest and of every design file analysed, and the diagnostics published for
each file. It is used only when all of that still holds: the same kit, the same encoding,
the same set of files with the same bytes; anything else (a corrupt or foreign file
included) and it is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from kit_core import __version__
from kit_core.designfiles import MANIFEST_NAME, design_files

FORMAT = 1

Record = dict[str, Any]


def cache_dir() -> Path:
    explicit = os.environ.get("KIT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kit" / "lsp"


def record_path(root: str) -> Path:
    name = hashlib.sha256(root.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return cache_dir() / f"{name}.json"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def text_digest(text: str) -> str:
    return digest(text.encode("utf-8", "surrogatepass"))


def make_record(
    root: str, encoding: str, manifest: str | None, files: dict[str, str], diagnostics: dict[str, list[Any]]
) -> Record:
    """``manifest``: the manifest text analysed (None: none); ``files``: path -> text analysed;
    ``diagnostics``: path -> the LSP diagnostics (JSON) published for it."""
    return {
        "format": FORMAT,
        "kit": __version__,
        "root": root,
        "encoding": encoding,
        "manifest": text_digest(manifest) if manifest is not None else None,
        "files": {path: text_digest(text) for path, text in files.items()},
        "diagnostics": {path: diags for path, diags in diagnostics.items() if diags},
    }


def save(record: Record) -> None:
    """Write atomically (a reader never sees half a record); failures are not fatal."""
    target = record_path(record["root"])
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".kit-", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(record, fh, separators=(",", ":"))
        os.replace(tmp, target)
    except OSError:
        pass


def load(root: str) -> Record | None:
    try:
        record = json.loads(record_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = (
        isinstance(record, dict)
        and record.get("format") == FORMAT
        and record.get("kit") == __version__
        and record.get("root") == root
        and isinstance(record.get("files"), dict)
        and isinstance(record.get("diagnostics"), dict)
    )
    return record if ok else None


def disk_digest(path: Path) -> str | None:
    """The digest of a file's text as the analyzer reads it (None: unreadable or not UTF-8)."""
    try:
        data = path.read_bytes()
        return text_digest(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def matches_disk(record: Record, buffers: dict[str, str]) -> bool:
    """Whether the design on disk (``buffers``: open buffers' texts by path, over the disk)
    is exactly what the record was made from."""
    root = Path(record["root"])
    mpath = str(root / MANIFEST_NAME)
    manifest = buffers.get(mpath)
    found = text_digest(manifest) if manifest is not None else disk_digest(root / MANIFEST_NAME)
    if found != record.get("manifest"):
        return False
    files: dict[str, str] = record["files"]
    inside = str(root) + os.sep
    paths = {str(p) for p in design_files(root)} | {p for p in buffers if p.endswith(".kit") and p.startswith(inside)}
    if paths != set(files):
        return False
    for path in paths:
        text = buffers.get(path)
        found = text_digest(text) if text is not None else disk_digest(Path(path))
        if found != files[path]:
            return False
    return True
