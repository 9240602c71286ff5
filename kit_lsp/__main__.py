"""`python -m kit_lsp` = `kit-lsp` (see `kit_lsp.boot`: nothing heavy is imported before the handshake)."""

from kit_lsp.boot import main

main()
