"""initialize / initialized / configuration / workspace folders / shutdown.

Settings come from `initializationOptions`, then from `workspace/configuration` (section
`kit`) when the client supports it, and again on `workspace/didChangeConfiguration`.
After `initialized` a watcher for design files is registered dynamically when the client
allows it (a refusal is not fatal), and every design found in the workspace folders is
analysed (so diagnostics reach files that are not open).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from lsprotocol import types as lsp

from kit_core.designfiles import design_roots
from kit_lsp.documents import path_of
from kit_lsp.features.declared.lifecycle import DECLARED
from kit_lsp.settings import load_settings

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

log = logging.getLogger(__name__)

WATCHED = ("**/*.kit", "**/*.proto", "**/kit.design.yaml", "**/*.go")  # Go: users edit their stubs


def register(server: KitLanguageServer) -> None:
    state = server.state

    @DECLARED.feature(server, lsp.INITIALIZE)
    def initialize(ls: KitLanguageServer, params: lsp.InitializeParams) -> None:
        encoding = ls.workspace.position_encoding or lsp.PositionEncodingKind.Utf16
        state.encoding = getattr(encoding, "value", encoding)  # "utf-8", not "PositionEncodingKind.Utf8"
        folders = [f.uri for f in params.workspace_folders or []] or [params.root_uri or ""]
        state.folders = [Path(path_of(f)) for f in folders if f]
        state.workspace_root = state.folders[0] if state.folders else None
        apply_settings(ls, params.initialization_options)

    @DECLARED.feature(server, lsp.INITIALIZED)
    async def initialized(ls: KitLanguageServer, params: lsp.InitializedParams) -> None:
        await _register_watchers(ls)
        await pull_configuration(ls)
        await analyse_workspace(ls)

    @DECLARED.feature(server, lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(ls: KitLanguageServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        removed = {Path(path_of(f.uri)) for f in params.event.removed}
        added = [Path(path_of(f.uri)) for f in params.event.added]
        state.folders = [f for f in state.folders if f not in removed] + added
        await analyse_workspace(ls)

    @DECLARED.feature(server, lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: KitLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict) and params.settings:
            apply_settings(ls, params.settings)
        await pull_configuration(ls)

    @DECLARED.feature(server, lsp.SHUTDOWN)
    def shutdown(ls: KitLanguageServer, params: None) -> None:
        ls.regenerate.cancel_pending()
        ls.startup.remember_now()

    @DECLARED.feature(server, lsp.EXIT)
    def exit_(ls: KitLanguageServer, params: None) -> None:
        """Exit at once: 0 after `shutdown`, 1 without (every reply is already written). The
        generation worker ends at the end of its input (after a run it is in, never midway)."""
        ls.regenerate.worker.stop()
        terminate(0 if ls.shutdown_received else 1)


async def analyse_workspace(ls: KitLanguageServer) -> None:
    """Find every design in the workspace folders and analyse it: diagnostics reach every
    file, open or not. (Listing the folders runs off the message loop.)"""
    state = ls.state
    loop = asyncio.get_running_loop()
    found: set[str] = set()
    for folder in state.folders:
        roots = await loop.run_in_executor(None, design_roots, folder)
        found |= {str(r.resolve()) for r in roots}
    for root in sorted(found - state.designs):
        state.designs.add(root)
        ls.diagnostics.schedule(root)


def terminate(code: int) -> NoReturn:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the client may already have closed the pipe
            pass
    os._exit(code)  # worker threads (a generation in flight, the stdin reader) must not hold the exit


def apply_settings(ls: KitLanguageServer, raw: Any) -> None:
    settings, problem = load_settings(raw, ls.state.settings)
    changed = settings.breaking_baseline != ls.state.settings.breaking_baseline
    ls.state.settings = settings
    if changed:
        ls.breaking.refresh_all()
    if problem:
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, problem))


def _capability(ls: KitLanguageServer, *path: str) -> Any:
    node: Any = ls.client_capabilities
    for name in path:
        node = getattr(node, name, None)
        if node is None:
            return None
    return node


async def pull_configuration(ls: KitLanguageServer) -> None:
    if not _capability(ls, "workspace", "configuration"):
        return
    try:
        result = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="kit")])
        )
    except Exception as exc:  # the client may refuse; settings then stay as they are
        log.info("workspace/configuration failed: %s", exc)
        return
    if result and isinstance(result[0], dict):
        apply_settings(ls, result[0])


async def _register_watchers(ls: KitLanguageServer) -> None:
    if not _capability(ls, "workspace", "did_change_watched_files", "dynamic_registration"):
        return
    options = lsp.DidChangeWatchedFilesRegistrationOptions(
        watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
    )
    registration = lsp.Registration(
        id="kit-watch", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
    except Exception as exc:
        log.info("file watcher registration failed: %s", exc)
        return
    ls.state.watch()
