-- kit-lsp for Neovim 0.11+: with this folder on 'runtimepath', `vim.lsp.enable('kit')`
-- starts the server for every .kit buffer (and kit.design.yaml, see README.md).
-- Change any field with vim.lsp.config('kit', { ... }), e.g. cmd = { '/path/to/kit-lsp' }.
return {
  cmd = { 'kit-lsp' },
  filetypes = { 'kit' },
  -- The design folder holds kit.design.yaml; a file outside any design is checked alone.
  root_markers = { 'kit.design.yaml', 'go.mod', '.git' },
  -- Settings of the server (the same names as VS Code's kit.* settings, without the prefix).
  init_options = { generateOnSave = true },
  settings = { kit = { generateOnSave = true } },
}
