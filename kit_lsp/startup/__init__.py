"""kit-lsp's start-up, in one place: from spawn to the server's first own analysis.

- `boot`: the entry point; answers `initialize` before pygls is imported, imports the
  server on a thread meanwhile, then hands the stream over.
- `capabilities`: the `initialize` answer, computed from the features' declarations
  (`kit_lsp.features.declared`).
- `cache`: the diagnostics of the last session, per design, keyed by file contents.
- `firstlook` / `firstlook_worker`: a second process that answers an opened file's
  diagnostics before the server has analysed its design.
- `early`: what is published before the hand-over (the cache's records, first looks).
- `handover`: the server's side of the same duties once it runs (first looks until its
  own analysis is out, what not to publish twice, writing the cache).
- `lspjson`: kit diagnostics as LSP JSON: the one converter every publication uses.

Everything but `handover` imports the standard library (and light `kit_core` modules)
only: it runs before the server's imports are done.
"""
