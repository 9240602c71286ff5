"""Document sync (incremental): keep `State.docs` current and schedule analyses.

Closing a file re-analyses its design (the file on disk now counts instead of the
buffer; a file on its own has its diagnostics cleared). Saving schedules generation. A
watched `.kit` or manifest change on disk re-analyses its design (every design of the
workspace is analysed, open files or not).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.manifest import MANIFEST_NAME
from kit_core.resident.session import design_root_for
from kit_lsp.documents import Document, kind_of, path_of
from kit_lsp.features.declared.sync import DECLARED

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def checked(doc: Document) -> bool:
    """`.kit` files and manifests; `.proto` files only inside a design folder (protos
    elsewhere belong to other tools)."""
    if doc.kind == "proto":
        return design_root_for(doc.path) is not None
    return doc.kind in ("kit", "manifest")


def register(server: KitLanguageServer) -> None:
    state = server.state

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: KitLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        doc = state.docs.open(params.text_document)
        if checked(doc):
            ls.startup.ask_first_look(doc)
            ls.diagnostics.schedule_doc(doc)
            if design_root_for(doc.path) is not None:
                ls.regenerate.warm()

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: KitLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        doc = state.docs.get(params.text_document.uri)
        if doc is None:
            return
        doc.apply(params.content_changes, params.text_document.version, state.encoding)
        if checked(doc):
            ls.diagnostics.schedule_doc(doc)

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: KitLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        doc = state.docs.get(params.text_document.uri)
        if doc is None:
            return
        key = state.key_for(doc)
        state.docs.close(doc.uri)
        if not Path(key).is_dir():  # a file on its own: nothing shows it any more
            ls.diagnostics.clear(doc.uri)
            state.forget(key)
            return
        state.files_changed(key)  # the file on disk counts again (or is gone): look at it afresh
        ls.diagnostics.forget_published(doc.uri)
        ls.diagnostics.schedule(key)

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: KitLanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if kind_of(path) in ("kit", "manifest", "proto"):
            ls.regenerate.on_save(path)

    @DECLARED.feature(server, lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: KitLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        keys: set[str] = set()
        if any(path_of(c.uri).endswith(".go") for c in params.changes):
            ls.stub_drift.refresh_all()  # a stub edited, created or deleted
        for change in params.changes:
            path = path_of(change.uri)
            if path.endswith(".go"):
                continue
            root = design_root_for(path)
            if root is None:
                continue
            if Path(path).name == MANIFEST_NAME and change.type == lsp.FileChangeType.Created:
                state.designs.add(str(root))  # a new design in the workspace
            state.files_changed(str(root))
            if state.tracks(str(root)):
                keys.add(str(root))
        for key in keys:
            ls.diagnostics.schedule(key)
