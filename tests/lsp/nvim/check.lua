-- Drives kit-lsp from a real Neovim (0.7+), headless: open a design file, wait for the
-- server's diagnostics, ask for hover and formatting, write what arrived as JSON, quit.
local env = vim.env
local out_path = env.KIT_NVIM_OUT
local cmd = vim.fn.json_decode(env.KIT_LSP_CMD)
local results = { diagnostics = {}, hover = vim.NIL, formatting = vim.NIL, errors = {} }

local function finish()
  local f = io.open(out_path, 'w')
  f:write(vim.fn.json_encode(results))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(env.KIT_FILE))
  local buf = vim.api.nvim_get_current_buf()
  local config = { name = 'kit', cmd = cmd, root_dir = env.KIT_ROOT }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, client_id)
  end

  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(results.diagnostics, { lnum = d.lnum, message = d.message, severity = d.severity })
  end

  local uri = vim.uri_from_bufnr(buf)
  local pos = { line = tonumber(env.KIT_HOVER_LINE), character = tonumber(env.KIT_HOVER_CHAR) }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = uri }, position = pos }, 15000)
  for _, r in pairs(hover or {}) do
    if r.result then results.hover = r.result.contents.value end
    if r.err then table.insert(results.errors, r.err.message) end
  end

  local fmt = vim.lsp.buf_request_sync(buf, 'textDocument/formatting',
    { textDocument = { uri = uri }, options = { tabSize = 4, insertSpaces = false } }, 15000)
  for _, r in pairs(fmt or {}) do
    if r.result and r.result[1] then results.formatting = r.result[1].newText end
    if r.err then table.insert(results.errors, r.err.message) end
  end
  vim.lsp.stop_client(client_id)
end)
if not ok then table.insert(results.errors, tostring(err)) end
finish()
