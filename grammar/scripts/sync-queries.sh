#!/usr/bin/env sh
# grammar/queries/ is the one source of the editor queries; this copies them to where they
# ship: kit_core/queries/ (the language server's highlights and folds, in the wheel) and
# editors/neovim/queries/kit/ (all of them, for Neovim and nvim-treesitter).
# tests/grammar/test_binding.py and tests/editors/test_neovim_queries.py fail until it ran.
set -eu
cd "$(dirname "$0")/.."
cp queries/highlights.scm queries/folds.scm ../kit_core/queries/
cp queries/highlights.scm queries/folds.scm queries/indents.scm queries/locals.scm \
    queries/injections.scm ../editors/neovim/queries/kit/
echo "queries copied to kit_core/queries/ and editors/neovim/queries/kit/"
