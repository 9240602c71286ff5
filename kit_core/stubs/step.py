"""The stubs' part of a run, called by the writer before it plans: carry renamed methods'
code into their new stubs, and report drift of the stubs already on disk as notices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kit_core.generators.base import Notice, OutputFile, Owner
from kit_core.gosource import GoSource
from kit_core.source import NO_SPAN
from kit_core.stubs.carry import carry_renamed, stub_method
from kit_core.stubs.drift import drift_notices, find_drift
from kit_core.stubs.expected import HTTP, Expected
from kit_core.writer.roots import output_path


def stubs_step(
    host: Any,
    files: Sequence[OutputFile],
    manifest: Any,
    renames: Mapping[str, str] | None = None,
    known: Sequence[str] = (),
) -> tuple[list[OutputFile], list[Notice]]:
    """(files, notices): ``host`` reads the project (`kit_core.writer.Host`); ``known`` are
    outputs not rendered again this run (incremental generation: they still count as
    produced). Drift is reported for the stubs this run renders (those of the service
    directories whose design changed)."""
    root = output_path(manifest, "service")
    if root is None:
        return list(files), []
    produced = {f.path for f in files} | set(known)
    stale = [p for p in host.files_under(root) if p.endswith(".go") and p not in produced]
    out, notices = carry_renamed(files, stale, host.read, renames)
    stubs = [f for f in out if f.owner is Owner.GEN_ONCE and _under(f.path, root) and f.path.endswith(".go")]
    # only a stub already on disk can drift: the others (every one, in a clean run) are not parsed
    on_disk = {f.path: data for f in stubs if (data := host.read(f.path)) is not None}
    expected = [e for f in stubs if f.path in on_disk and (e := from_output(f)) is not None]
    return out, notices + drift_notices(find_drift(expected, on_disk.get))


def from_output(f: OutputFile) -> Expected | None:
    """A generated stub as an `Expected` (labelled by its method; no place in the design)."""
    m = stub_method(GoSource.parse(f.content))
    if m is None or m.receiver is None:
        return None
    kind = HTTP if m.receiver.endswith("Service") else "rpc"
    return Expected(f.path, m.receiver, m.name, f.content, m.name, NO_SPAN, kind)


def _under(path: str, root: str) -> bool:
    return root in ("", ".") or path.startswith(root.rstrip("/") + "/")
