from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method(
        "textDocument/inlayHint",
        "inlayHintProvider",
        options={"resolveProvider": False},
        options_type="InlayHintOptions",
    )
)
