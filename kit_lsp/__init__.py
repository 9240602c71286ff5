"""kit-lsp: the language server of the kit design DSL (pygls 2.x, stdio)."""
