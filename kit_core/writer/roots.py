"""Which directories a run may sweep (spec "What the service does" rule 6).

* Go target: the REGEN output directories named by the manifest (types, transport, routes,
  wiring, grpc, client, every events target), walked recursively; GEN-ONCE territory (service,
  middleware, config, svccontext.go, main.go) is never a root and is cut out of the others.
* pb code: only the directories where this run wrote pb code of the design's own protos,
  not recursively; none when the design has no proto (so a moved proto's old directory and
  the last proto's code stay).
* Docs target: only the document at `output.openapi` (not its neighbours; the document of
  a former `output.openapi` path is left in place).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

GO_ROOT_KEYS = ("types", "transport", "routes", "wiring", "grpc", "client")
GEN_ONCE_KEYS = ("service", "middleware", "config")
DIR_KEYS = (*GO_ROOT_KEYS, "pb", *GEN_ONCE_KEYS)


@dataclass(frozen=True, slots=True)
class SweepRoots:
    recursive: tuple[str, ...]  # kit REGEN files anywhere below are swept
    pb_dirs: tuple[str, ...]  # generated .go files directly inside are swept
    openapi: str | None  # this one file is swept
    excluded: tuple[str, ...]  # never swept, even when inside a root


def norm(path: str) -> str:
    p = posixpath.normpath(path)
    return "" if p == "." else p


def is_under(path: str, root: str) -> bool:
    return root == "" or path == root or path.startswith(root.rstrip("/") + "/")


def output_path(manifest: Any, key: str) -> str | None:
    value = str(getattr(manifest.output, key, "-") or "-")
    return None if value == "-" else norm(value)


def events_dirs(manifest: Any) -> list[str]:
    targets = getattr(manifest, "events_targets", None)
    if targets is None:
        return [norm(manifest.events_out_default())]
    return [norm(t.out) for t in targets if t.out and t.out != "-"]


def sweep_roots(manifest: Any, written: Iterable[str], targets: Iterable[str]) -> SweepRoots:
    chosen = set(targets)
    recursive: list[str] = []
    pb_dirs: list[str] = []
    openapi = output_path(manifest, "openapi") if "docs" in chosen else None
    pb = output_path(manifest, "pb")
    if "go" in chosen:
        recursive = [p for p in (output_path(manifest, k) for k in GO_ROOT_KEYS) if p is not None]
        recursive += events_dirs(manifest)
        if pb is not None:
            pb_dirs = sorted({posixpath.dirname(w) for w in written if w.endswith(".go") and is_under(w, pb)})
    excluded = [p for p in (output_path(manifest, k) for k in GEN_ONCE_KEYS) if p is not None]
    excluded += [
        p
        for p in (
            pb,
            output_path(manifest, "main"),
            output_path(manifest, "svccontext"),
            output_path(manifest, "openapi"),
        )
        if p is not None
    ]
    return SweepRoots(tuple(dict.fromkeys(recursive)), tuple(pb_dirs), openapi, tuple(excluded))


def output_dirs(manifest: Any) -> list[tuple[str, str]]:
    """(key, directory) of every directory output, events targets included."""
    out = [(f"output.{k}", p) for k in DIR_KEYS if (p := output_path(manifest, k)) is not None]
    targets = getattr(manifest, "events_targets", None)
    if targets is None:
        out.append(("events.targets[].out (default)", norm(manifest.events_out_default())))
    else:
        out += [(f"events.targets[{i}].out", norm(t.out)) for i, t in enumerate(targets) if t.out and t.out != "-"]
    return [(k, p) for k, p in out if p]


def gen_once_dirs(manifest: Any) -> list[str]:
    """Where GEN-ONCE files go (searched for staging leftovers; never swept)."""
    dirs = [p for p in (output_path(manifest, k) for k in GEN_ONCE_KEYS) if p is not None]
    for key in ("main", "svccontext"):
        p = output_path(manifest, key)
        if p is not None and posixpath.dirname(p):
            dirs.append(posixpath.dirname(p))
    return dirs
