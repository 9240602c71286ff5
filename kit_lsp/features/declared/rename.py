"""`kit_lsp.features.rename`: `renameProvider` depends on the client (prepareSupport), see
`kit_lsp.startup.capabilities.rename_provider`."""

from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(Method("textDocument/prepareRename"), Method("textDocument/rename"))
