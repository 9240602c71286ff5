from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method("textDocument/definition", "definitionProvider"),
    Method("textDocument/references", "referencesProvider"),
    Method("textDocument/documentHighlight", "documentHighlightProvider"),
)
