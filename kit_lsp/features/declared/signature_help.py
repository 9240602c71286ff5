from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method(
        "textDocument/signatureHelp",
        "signatureHelpProvider",
        options={"triggerCharacters": ["(", ","], "retriggerCharacters": [","]},
        options_type="SignatureHelpOptions",
    )
)
