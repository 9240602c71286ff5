from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method("textDocument/documentSymbol", "documentSymbolProvider"),
    Method(
        "workspace/symbol",
        "workspaceSymbolProvider",
        options={"resolveProvider": False},
        options_type="WorkspaceSymbolOptions",
    ),
)
