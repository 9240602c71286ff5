from kit_lsp.features.declared import Declares, Method

OPEN = "kit.open"  # show a file at a line

DECLARED = Declares(
    Method(
        "textDocument/codeLens",
        "codeLensProvider",
        options={"resolveProvider": False},
        options_type="CodeLensOptions",
    ),
    commands=(OPEN,),
)
