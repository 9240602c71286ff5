"""`kit-lsp`: the console script's entry point (`kit_lsp.server:main`).

Deliberately light: importing this module loads nothing but the start-up code, so that
`initialize` is answered before the server's imports (see `kit_lsp.startup.boot`). The server
itself lives in `kit_lsp.app`; its names are reachable from here too, loaded on first use.
"""

from __future__ import annotations

from typing import Any


def main() -> None:
    """`kit-lsp [-stdio] [-version] [-help]`: serve on stdin/stdout; exit 0 only after `shutdown`."""
    from kit_lsp.startup.boot import main as boot_main

    boot_main()


def __getattr__(name: str) -> Any:  # `from kit_lsp.server import create_server`, as before
    if name in ("KitLanguageServer", "create_server", "serve"):
        from kit_lsp import app

        return getattr(app, name)
    raise AttributeError(name)
