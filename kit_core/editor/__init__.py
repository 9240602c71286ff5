"""What the language server shows, computed from the typed model as plain data (no LSP
types here; `kit_lsp` converts at the edge):

- `manifest_lang`: `kit.design.yaml` as a language: the key under the cursor, hover text
  and completions, all read from `kit_core.manifest_keys`;
- `hints`: inlay hints (full route and status, wire locations, inherited validators,
  effective middleware chains) from `kit_core.semantics`, exactly what the generators use;
- `lenses`: per-method facts (stub, handler, OpenAPI operation) for code lenses and go to
  definition.
"""
