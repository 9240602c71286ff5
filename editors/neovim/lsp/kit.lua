-- kit-lsp for Neovim 0.11+: with this folder on 'runtimepath', `vim.lsp.enable('kit')`
-- starts the server for every .kit buffer, and for .proto buffers inside a design folder
-- (a folder holding kit.design.yaml above them; protos elsewhere are left alone).
-- Change any field with vim.lsp.config('kit', { ... }), e.g. cmd = { '/path/to/kit-lsp' }.

-- kit-lsp on PATH, else in the virtualenv Neovim was started from ($VIRTUAL_ENV/bin).
local function find_kit_lsp()
  if vim.fn.executable('kit-lsp') == 1 then return 'kit-lsp' end
  local venv = vim.env.VIRTUAL_ENV
  local exe = (venv and venv ~= '') and vim.fs.joinpath(venv, 'bin', 'kit-lsp') or nil
  if exe and vim.fn.executable(exe) == 1 then return exe end
  return nil
end

-- Neovim skips, silently, a config whose cmd list names no executable: when kit-lsp is not
-- found, cmd is this function instead, so root_dir runs and can say why nothing starts.
local function not_found_yet(dispatchers, config)
  return vim.lsp.rpc.start({ find_kit_lsp() or 'kit-lsp' }, dispatchers, { cwd = config.root_dir })
end

local found = find_kit_lsp()
local warned = false

return {
  cmd = found and { found } or not_found_yet,
  filetypes = { 'kit', 'proto' },
  -- The design folder holds kit.design.yaml; a .kit file outside any design is checked alone.
  root_dir = function(bufnr, on_dir)
    if vim.lsp.config.kit.cmd == not_found_yet and not find_kit_lsp() then
      if not warned then
        warned = true
        vim.notify(
          'kit-lsp not found: it is neither on PATH nor in $VIRTUAL_ENV/bin. Install kit (pip install) '
            .. 'in the environment Neovim starts from, or name it: '
            .. "vim.lsp.config('kit', { cmd = { '/path/to/venv/bin/kit-lsp' } })",
          vim.log.levels.WARN
        )
      end
      return
    end
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
