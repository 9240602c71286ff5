-- kit-lsp for Neovim 0.11+: with this folder on 'runtimepath', `vim.lsp.enable('kit')`
-- starts the server for every .kit buffer, and for .proto buffers inside a design folder
-- (a folder holding kit.design.yaml above them; protos elsewhere are left alone).
-- Change any field with vim.lsp.config('kit', { ... }), e.g. cmd = { '/path/to/kit-lsp' }.
return {
  cmd = { 'kit-lsp' },
  filetypes = { 'kit', 'proto' },
  -- The design folder holds kit.design.yaml; a .kit file outside any design is checked alone.
  root_dir = function(bufnr, on_dir)
    local design = vim.fs.root(bufnr, 'kit.design.yaml')
    if vim.bo[bufnr].filetype == 'proto' then
      if design then on_dir(design) end -- no design folder: not kit's proto
      return
    end
    on_dir(design or vim.fs.root(bufnr, { 'go.mod', '.git' }) or vim.fs.dirname(vim.api.nvim_buf_get_name(bufnr)))
  end,
  -- Settings of the server (the same names as VS Code's kit.* settings, without the prefix).
  init_options = { generateOnSave = true },
  settings = { kit = { generateOnSave = true } },
}
