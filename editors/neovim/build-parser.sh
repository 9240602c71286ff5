#!/usr/bin/env sh
# Compiles the kit tree-sitter parser for Neovim: writes <dir>/parser/kit.so (default dir:
# Neovim's data site folder, which is on 'runtimepath'). Needs a C compiler only; the
# parser sources are generated and committed under grammar/src.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../../grammar/src"
dir=${1:-${XDG_DATA_HOME:-$HOME/.local/share}/nvim/site}
mkdir -p "$dir/parser"
${CC:-cc} -O2 -shared -fPIC -std=c11 -I"$src" "$src/parser.c" "$src/scanner.c" -o "$dir/parser/kit.so"
echo "wrote $dir/parser/kit.so"
