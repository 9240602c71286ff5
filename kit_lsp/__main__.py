"""`python -m kit_lsp` = `kit-lsp` (see `kit_lsp.startup.boot`: nothing heavy is imported before the handshake)."""

from kit_lsp.startup.boot import main

main()
