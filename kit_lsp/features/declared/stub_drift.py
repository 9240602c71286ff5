"""`kit_lsp.features.stub_drift`: publishes diagnostics from a background job; handles no LSP method."""

from kit_lsp.features.declared import Declares

DECLARED = Declares()
