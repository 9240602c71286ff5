"""Text edits of a user's Go file: a new signature for a logic method, missing imports.

The body is never touched: an edit covers the parameter list and the results only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kit_core.gosource import GoFunc, GoSource, assumed_name


@dataclass(frozen=True, slots=True)
class Edit:
    start: int  # byte offsets in the file
    end: int
    text: str


def apply_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """The file with the edits applied (they must not overlap)."""
    out = data
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: e.start] + e.text.encode("utf-8") + out[e.end :]
    return out


def signature_edits(user: GoSource, found: GoFunc, wanted_src: GoSource, wanted: GoFunc) -> list[Edit]:
    """Edits giving ``found`` (a method of the user's file) the signature of ``wanted`` (the
    same method as kit writes it now): package names are spelled as the user's file imports
    them (imports it lacks are added), the user's parameter names are kept when the number
    of parameters is the same; the receiver, the name and the body stay as they are."""
    assert found.sig is not None and wanted.sig is not None
    names = _user_names(user)
    wanted_paths = {i.name: i.path for i in wanted_src.imports()}
    start, end = wanted.sig.params_start, wanted.sig.results_end
    subs: list[Edit] = []
    added: dict[str, str] = {}  # path -> name for imports the user's file lacks
    for s, e, name in wanted_src.package_refs(start, end):
        path = wanted_paths.get(name)
        if path is None:
            continue
        spelled = names.get(path) or added.get(path) or _free_name(name, set(names.values()) | set(added.values()))
        if path not in names:
            added[path] = spelled
        if spelled != name:
            subs.append(Edit(s - start, e - start, spelled))
    if len(found.sig.params) == len(wanted.sig.params):
        for mine, theirs in zip(found.sig.params, wanted.sig.params, strict=True):
            if mine.name and theirs.name_start >= 0 and mine.name != theirs.name:
                subs.append(Edit(theirs.name_start - start, theirs.name_start - start + len(theirs.name), mine.name))
    text = apply_edits(wanted_src.data[start:end], subs).decode("utf-8")
    edits = [Edit(found.sig.params_start, found.sig.results_end, text)]
    if added:
        edits.append(import_edit(user, added))
    return edits


def _user_names(src: GoSource) -> dict[str, str]:
    out: dict[str, str] = {}
    for imp in src.imports():
        out.setdefault(imp.path, imp.name)
    return out


def _free_name(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}{n}", n + 1
    return candidate


def import_line(path: str, name: str) -> str:
    return f'{name} "{path}"' if name != assumed_name(path) else f'"{path}"'


def is_std(path: str) -> bool:
    """A standard-library path (its first element has no dot), which gofmt groups first."""
    return "." not in path.split("/", 1)[0]


def _after_last_std(src: GoSource) -> int:
    """The start of the line after the last standard-library import of the group (the group's
    `)` when it has none)."""
    std = [i for i in src.imports() if is_std(i.path)]
    if not std:
        return src.import_group_close()
    end = src.data.find(b"\n", std[-1].end)
    return end + 1 if end >= 0 else src.import_group_close()


def import_edit(src: GoSource, imports: dict[str, str]) -> Edit:
    """One insertion adding ``imports`` (path -> name) to the file's import block."""
    lines = [import_line(path, name) for path, name in sorted(imports.items())]
    close = src.import_group_close()
    if close >= 0:
        std = [line for path, line in zip(sorted(imports), lines, strict=True) if is_std(path)]
        at = _after_last_std(src) if std and len(std) == len(lines) else close
        return Edit(at, at, "".join(f"\t{line}\n" for line in lines))
    at = src.import_block_end()
    lead = "\n" if not src.imports() else ""  # a blank line after the package clause
    return Edit(at, at, lead + "".join(f"\nimport {line}" for line in lines))
