"""Keys of render units: digests of exactly what each unit declares it reads.

    keys = DesignKeys(base, files, protos)   # base: what every unit depends on
    keys.of(unit)                            # -> hex digest

``files`` are the design's DSL files as (path relative to the design folder, package, text);
``protos`` the other design inputs by path (bytes). A package's digest covers the text of
its files; a unit naming a package depends on that package and on every package it
references, transitively. References are found in the text: a word followed by `.` that
names a package (`shop.Item`, `shop.Page<x>`; comments and strings count too, which only
costs a render). That is a superset of what the analyzer resolves, so a key never misses a
dependency the lowering or the generators could follow.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `digest` is imported by every kit gen, also where no unit is rendered
    from kit_core.generators.base import OutputFile
    from kit_core.generators.units import RenderUnit


def digest(*parts: str | bytes) -> str:
    h = hashlib.blake2b(digest_size=16)
    for p in parts:
        data = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
        h.update(len(data).to_bytes(8, "little"))  # length-prefixed: no two splits collide
        h.update(data)
    return h.hexdigest()


class ContentDigests(threading.Thread):
    """The `digest` of each file's content, computed in a thread: started before the files are
    written, it overlaps the writer's system calls (hashlib lets go of the GIL while it hashes;
    ~30 ms for a clean run of 2,000 files). `of` is the digest either way."""

    def __init__(self, files: Sequence[OutputFile]) -> None:
        super().__init__(name="kit-digests", daemon=True)
        self._files = files
        self._done: dict[str, tuple[str, str]] = {}  # path -> (content, digest)
        self.start()

    def run(self) -> None:
        self._done = {f.path: (f.content, digest(f.content.encode("utf-8"))) for f in self._files}

    def of(self, f: OutputFile) -> str:
        self.join()
        known = self._done.get(f.path)
        return known[1] if known is not None and known[0] is f.content else digest(f.content.encode("utf-8"))


@lru_cache(maxsize=4096)
def qualifiers(text: str) -> frozenset[str]:
    """Every word directly followed by a `.` (package qualifiers, among others). A scan from
    each dot back over the word (the design has few dots; a regex over all the text costs
    ten times more). Memoised by text: an edit rescans only the edited file."""
    found: set[str] = set()
    i = text.find(".")
    while i != -1:
        j = i
        while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
            j -= 1
        if j < i:
            found.add(text[j:i])
        i = text.find(".", i + 1)
    return frozenset(found)


# Each design file's digest, by path, with the text it was taken of: a process that lives on
# holds the same text object for a file it did not read again (`resident.DiskFiles`), so an
# edit at 10,000 types hashes the edited file, not the design's 8 MB.
_file_digests: dict[str, tuple[str, str]] = {}
_FILES_KEEP = 200_000
counts = {"files": 0}  # file digests computed (a work count the tests read)


def _file_digest(path: str, text: str) -> str:
    kept = _file_digests.get(path)
    if kept is not None and kept[0] is text:
        return kept[1]
    counts["files"] += 1
    found = digest(path, text)
    if len(_file_digests) >= _FILES_KEEP:
        _file_digests.clear()
    _file_digests[path] = (text, found)
    return found


class DesignKeys:
    def __init__(
        self,
        base: str,
        files: Sequence[tuple[str, str | None, str]],
        protos: Mapping[str, bytes] | None = None,
    ) -> None:
        self.base = base
        by_package: dict[str, list[str]] = {}
        texts: dict[str, list[str]] = {}
        every: list[str] = []
        for path, package, text in sorted(files, key=lambda f: f[0]):
            fp = _file_digest(path, text)
            every.append(fp)
            if package is not None:
                by_package.setdefault(package, []).append(fp)
                texts.setdefault(package, []).append(text)
        self._own = {p: digest(*fps) for p, fps in by_package.items()}
        names = set(by_package)
        self._refs = {
            p: sorted(q for t in ts for q in qualifiers(t) if q in names and q != p) for p, ts in texts.items()
        }
        self._files = {path: digest(path, data) for path, data in (protos or {}).items()}
        self.whole = digest(*every, *(f"{p}={d}" for p, d in sorted(self._files.items())))
        self._closures: dict[str, str] = {}

    def closure(self, package: str) -> str:
        """Digest of a package and everything it references, transitively."""
        cached = self._closures.get(package)
        if cached is None:
            reach = self._reach(package)
            cached = self._closures[package] = digest(*(f"{p}={self._own.get(p, '-')}" for p in reach))
        return cached

    def _reach(self, package: str) -> list[str]:
        seen = {package}
        work = [package]
        while work:
            for q in self._refs.get(work.pop(), ()):
                if q not in seen:
                    seen.add(q)
                    work.append(q)
        return sorted(seen)

    def of(self, unit: RenderUnit) -> str:
        parts: list[str] = [self.base, unit.name]
        parts += [f"pkg {p}={self.closure(p)}" for p in unit.packages]
        if unit.whole_design:
            parts.append(f"design={self.whole}")
        parts += [f"file {p}={self._files.get(p, '-')}" for p in unit.files]
        parts += [f"extra {e}" for e in unit.extra]
        return digest(*parts)


def base_key(*parts: str) -> str:
    """What every unit depends on (kit's build, the manifest, the module path...)."""
    return digest("kit-units-1", *parts)
