from kit_lsp.features.declared import Declares, Method

TRIGGERS = ["@", " ", ",", ".", "/", "{", '"', "(", "<"]

DECLARED = Declares(
    Method(
        "textDocument/completion",
        "completionProvider",
        options={"triggerCharacters": TRIGGERS, "resolveProvider": True},
        options_type="CompletionOptions",
    ),
    Method("completionItem/resolve"),  # advertised by `resolveProvider` above
)
