"""`kit_lsp.features.breaking`: publishes diagnostics from a background job; handles no LSP method."""

from kit_lsp.features.declared import Declares

DECLARED = Declares()
