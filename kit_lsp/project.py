"""kit-lsp's name for the resident design session, which lives in `kit_core.resident.session`
(one engine for kit-lsp and `kit gen`'s resident kit). Kept so that code importing it from
here still works; new code imports `kit_core.resident.session`."""

from kit_core.resident.session import DesignSession, DiskFiles, Snapshot, analyze_single, design_root_for

__all__ = ["DesignSession", "DiskFiles", "Snapshot", "analyze_single", "design_root_for"]
