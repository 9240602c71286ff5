from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method(
        "textDocument/codeAction",
        "codeActionProvider",
        options={"codeActionKinds": ["quickfix"]},
        options_type="CodeActionOptions",
    )
)
