"""`kit_lsp.features.sync`: document sync (the `textDocumentSync` answer is computed from
these methods and the client, `kit_lsp.startup.capabilities.text_document_sync`)."""

from kit_lsp.features.declared import Declares, Method

CHANGE = 2  # TextDocumentSyncKind.Incremental: edits come as ranges

DECLARED = Declares(
    Method("textDocument/didOpen"),
    Method("textDocument/didChange"),
    Method("textDocument/didClose"),
    Method("textDocument/didSave", options={"includeText": False}, options_type="SaveOptions"),
    Method("workspace/didChangeWatchedFiles"),
)
