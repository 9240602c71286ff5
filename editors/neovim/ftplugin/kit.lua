-- kit designs: tabs of width 4 and `//` comments, as `kit fmt` writes them; tree-sitter
-- highlighting, folding and indentation when the kit parser is installed (README.md).
vim.bo.expandtab = false
vim.bo.tabstop = 4
vim.bo.shiftwidth = 4
vim.bo.commentstring = '// %s'

if pcall(vim.treesitter.start) then
  vim.wo[0][0].foldmethod = 'expr'
  vim.wo[0][0].foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  vim.wo[0][0].foldlevel = 99
end

vim.b.undo_ftplugin = (vim.b.undo_ftplugin or '') .. '|setl et< ts< sw< cms<'
