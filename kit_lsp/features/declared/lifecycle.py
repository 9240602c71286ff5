"""`kit_lsp.features.lifecycle`: the session's life; advertises nothing of its own."""

from kit_lsp.features.declared import Declares, Method

DECLARED = Declares(
    Method("initialize"),
    Method("initialized"),
    Method("workspace/didChangeWorkspaceFolders"),
    Method("workspace/didChangeConfiguration"),
    Method("shutdown"),
    Method("exit"),
)
