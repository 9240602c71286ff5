"""A renamed method keeps the user's code: the new stub is written with the old stub's
body, receiver and parameter names, and the imports the body uses; the old file is left
in place with a notice.

A new stub (one this run writes for the first time) is paired with an old one (a stub in
the same directory that no method produces any more) when the editor says so (a rename
done in kit-lsp: ``renames`` maps the old stub path to the new one), or when exactly one
old stub has the new one's parameter and result types and it matches no other new stub.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from kit_core.generators.base import Notice, OutputFile, Owner
from kit_core.gosource import GoFunc, GoSource
from kit_core.stubs.edits import Edit, apply_edits, import_edit
from kit_core.stubs.expected import LOGIC_SUFFIXES


@dataclass(frozen=True, slots=True)
class Pair:
    old: str  # project-relative path of the old stub
    new: str
    old_method: str
    new_method: str


def stub_method(src: GoSource) -> GoFunc | None:
    """The logic method of a stub: `func (l *<Name>Service) <Name>(...)` (or `<Name>Logic`)."""
    for m in src.methods():
        if m.receiver in tuple(m.name + s for s in LOGIC_SUFFIXES):
            return m
    return None


def rename_pairs(
    new: Sequence[tuple[str, str]],
    stale: Sequence[str],
    read: Callable[[str], bytes | None],
    renames: Mapping[str, str] | None = None,
) -> list[Pair]:
    """Pairs of (old stub, new stub); ``new`` holds (path, text) of stubs written for the
    first time, ``stale`` the paths of Go files under `output.service` no method produces any
    more (a stub is known by its shape, `func (l *XService) X(...)`, not by its header: users
    may drop the header)."""
    olds: dict[str, GoFunc] = {}
    for path in stale:
        data = read(path)
        m = stub_method(GoSource.parse(data)) if data is not None else None
        if m is not None:
            olds[path] = m
    if not olds:
        return []  # nothing to carry (a fresh project's thousands of new stubs are not parsed)
    # only a new stub beside an old one, or named by a rename, can pair: the others are not parsed
    wanted = {posixpath.dirname(o) for o in olds}
    targets = set((renames or {}).values())
    news = {
        path: m
        for path, text in new
        if (posixpath.dirname(path) in wanted or path in targets)
        and (m := stub_method(GoSource.parse(text))) is not None
    }
    pairs = [Pair(o, n, olds[o].name, news[n].name) for o, n in (renames or {}).items() if o in olds and n in news]
    taken = {p.old for p in pairs} | {p.new for p in pairs}
    candidates: dict[str, list[str]] = {}
    for n, nm in news.items():
        if n in taken:
            continue
        for o, om in olds.items():
            if o not in taken and posixpath.dirname(o) == posixpath.dirname(n) and _same_types(om, nm):
                candidates.setdefault(n, []).append(o)
    claimed: dict[str, int] = {}
    for found in candidates.values():
        for o in found:
            claimed[o] = claimed.get(o, 0) + 1
    for n, found in sorted(candidates.items()):
        if len(found) == 1 and claimed[found[0]] == 1:
            pairs.append(Pair(found[0], n, olds[found[0]].name, news[n].name))
    return sorted(pairs, key=lambda p: p.new)


def _same_types(a: GoFunc, b: GoFunc) -> bool:
    return a.sig is not None and b.sig is not None and a.sig.types() == b.sig.types()


def carried_text(new_text: str, old_data: bytes) -> str:
    """The new stub with the old stub's method body, receiver and parameter names, and the
    imports that body uses; imports nothing uses any more (the TODO's) are dropped."""
    new_src, old_src = GoSource.parse(new_text), GoSource.parse(old_data)
    nm, om = stub_method(new_src), stub_method(old_src)
    if nm is None or om is None or nm.sig is None or om.sig is None or om.sig.body_start < 0:
        return new_text
    edits = [Edit(nm.sig.body_start, nm.sig.body_end, old_src.text(om.sig.body_start, om.sig.body_end))]
    if om.sig.receiver_name and nm.sig.receiver_name_start >= 0 and om.sig.receiver_name != nm.sig.receiver_name:
        start = nm.sig.receiver_name_start
        edits.append(Edit(start, start + len(nm.sig.receiver_name), om.sig.receiver_name))
    if len(om.sig.params) == len(nm.sig.params):
        for mine, theirs in zip(om.sig.params, nm.sig.params, strict=True):
            if mine.name and theirs.name_start >= 0 and mine.name != theirs.name:
                edits.append(Edit(theirs.name_start, theirs.name_start + len(theirs.name), mine.name))
    have = {i.path for i in new_src.imports()}
    wanted = {i.name: i for i in old_src.imports()}
    used = old_src.selector_operands(om.sig.body_start, om.sig.body_end)
    missing = {wanted[n].path: n for n in used if n in wanted and wanted[n].path not in have}
    if missing and new_src.import_group_close() >= 0:
        edits.append(import_edit(new_src, missing))
    text = apply_edits(new_src.data, edits).decode("utf-8")
    return drop_unused_imports(text)


def drop_unused_imports(text: str) -> str:
    src = GoSource.parse(text)
    used = src.selector_operands(0, len(src.data))
    dead = [i for i in src.imports() if i.name not in used and i.name not in ("_", ".")]
    if not dead:
        return text
    data = src.data
    edits = []
    for imp in dead:  # the whole line of the import spec
        start = data.rfind(b"\n", 0, imp.start) + 1
        end = data.find(b"\n", imp.end)
        edits.append(Edit(start, end + 1 if end >= 0 else len(data), ""))
    return apply_edits(data, edits).decode("utf-8")


def carry_renamed(
    files: Sequence[OutputFile],
    stale: Sequence[str],
    read: Callable[[str], bytes | None],
    renames: Mapping[str, str] | None = None,
) -> tuple[list[OutputFile], list[Notice]]:
    """The run's files with renamed methods' new stubs carrying the old code, and a notice
    per old stub. ``stale`` are the stubs on disk this run no longer produces."""
    new = [
        (f.path, f.content)
        for f in files
        if f.owner is Owner.GEN_ONCE and f.path.endswith(".go") and read(f.path) is None
    ]
    pairs = rename_pairs(new, stale, read, renames) if new and stale else []
    if not pairs:
        return list(files), []
    by_new = {p.new: p for p in pairs}
    out, notices = [], []
    for f in files:
        pair = by_new.get(f.path)
        old = read(pair.old) if pair is not None else None
        if pair is None or old is None:
            out.append(f)
            continue
        out.append(replace(f, content=_formatted(f.path, carried_text(f.content, old))))
        notices.append(
            Notice(
                pair.old,
                f"logic stub of {pair.old_method}, renamed to {pair.new_method}: its code "
                f"was carried into {pair.new}; kit no longer calls this file - delete it once you "
                "have checked the new one",
            )
        )
    return out, notices


def _formatted(path: str, text: str) -> str:
    # deferred: the Go generators (jinja2) load only when Go is rendered
    from kit_core.generators.go.gofmt import gofmt_all

    return gofmt_all([OutputFile(path, text, Owner.GEN_ONCE)])[0].content
