from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(Method("textDocument/foldingRange", "foldingRangeProvider"))
