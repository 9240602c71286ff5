"""`python -m kit_lsp` = `kit-lsp`."""

from kit_lsp.server import main

main()
