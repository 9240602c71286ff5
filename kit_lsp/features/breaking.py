"""Breaking changes as you type, against the baseline the setting `kit.breakingBaseline`
names (a git ref; off when empty): the same comparison as `kit diff <ref>`
(`kit_core.breaking`). The baseline is read once per design and commit (git archive into
a temporary directory, never the work tree) and kept in memory; a change with no place left
in the design is shown on the manifest."""

from __future__ import annotations

import subprocess
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kit_core.diagnostics import Diagnostic
from kit_core.resident.session import Snapshot
from kit_core.source import file_span
from kit_lsp.background import DesignJob, Tell

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

SOURCE = "breaking"
DELAY_S = 0.5


class Baselines:
    """The baseline of each (design, ref), read again only when the ref moves."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], tuple[str, Any]] = {}
        self._lock = threading.Lock()

    def get(self, snap: Snapshot, ref: str) -> Any:
        # deferred: off kit-lsp's start-up path; loads when the job first runs
        from kit_core.breaking import BaselineError, baseline_at

        assert snap.root is not None
        with self._lock:
            try:
                sha = _commit(ref, snap.root)
                hit = self._cache.get((snap.key, ref))
                if hit is not None and hit[0] == sha:
                    return hit[1]
                with baseline_at(ref, snap.root, snap.root.parent) as base:
                    self._cache[(snap.key, ref)] = (sha, base)
                    return base
            except BaselineError as exc:
                raise Tell(f"kit: cannot read the design at {ref} (kit.breakingBaseline): {exc}") from exc


def _commit(ref: str, cwd: Any) -> str:
    # deferred: off kit-lsp's start-up path; loads when the job first runs
    from kit_core.breaking import BaselineError

    proc = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if proc.returncode != 0:
        raise BaselineError(f"{ref} is not a commit of this repository")
    return proc.stdout.strip()


def make_compute(server: KitLanguageServer) -> Any:
    baselines = Baselines()

    def compute(snap: Snapshot) -> dict[str, list[Diagnostic]] | None:
        # deferred: off kit-lsp's start-up path; loads when the job first runs
        from kit_core.breaking import breaking_changes

        ref = server.state.settings.breaking_baseline
        if not ref or snap.root is None or snap.analysis is None:
            return {}
        if snap.protos is not None and snap.protos.first_pass:
            return None  # a large proto's first pass: its full compile is coming (what it had stays)
        base = baselines.get(snap, ref)
        if base is None:
            return {}
        out: dict[str, list[Diagnostic]] = {}
        manifest = file_span(str(snap.root / "kit.design.yaml"))
        for change in breaking_changes(base, snap.analysis, snap.protos):
            d = change.diagnostic(manifest)
            if change.span is None:
                d = replace(d, message=f"{d.message} (was at {change.was})")
            out.setdefault(d.span.path, []).append(d)
        return out

    return compute


def register(server: KitLanguageServer) -> None:
    server.breaking = DesignJob(server, SOURCE, make_compute(server), DELAY_S)
    server.analysis_listeners.append(server.breaking.on_snapshot)
