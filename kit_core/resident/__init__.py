"""The resident design session: a design kept parsed and analysed between runs, so that an
edit re-parses and re-analyses only what changed. One engine for both resident processes:
kit-lsp (its server and its generation worker) and `kit gen`'s resident kit
(`kit_core.daemon`).

    buffers.py   what the session reads of an open editor buffer (`Buffer`; kit-lsp's
                 documents implement it, the resident kit has none)
    session.py   `DesignSession` (one design root: disk files, open buffers, the analyzer's
                 incremental session) and the `Snapshot` each analysis yields
    protos.py    the design's protos, compiled as `kit gen` compiles them
    designs.py   `ResidentDesigns` (sessions by root, for a generating process) and
                 `as_loaded` (a snapshot as a run's loaded design, when it is what is on disk)

Nothing here imports kit-lsp, pygls or lsprotocol: `kit gen`'s resident kit runs on it.
"""
