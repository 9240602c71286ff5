-- Drives kit-lsp's editor features through Neovim's own client (0.11+), headless: inlay
-- hints (vim.lsp.inlay_hint), code lenses (vim.lsp.codelens) and running one (the server
-- asks Neovim to show the stub), a proto of the design attaching with its diagnostics, and
-- renaming a method then saving: the new stub carries the old one's code. Writes what
-- happened as JSON to $KIT_NVIM_OUT and quits; a failing step is recorded, the next runs.
local env = vim.env
local R = { errors = {} }
local root = env.KIT_ROOT
local shop_path = root .. '/design/shop/shop.kit'
local proto_path = root .. '/design/stock/v1/stock.proto'

local function wait(ms, cond, what)
  if not vim.wait(ms, cond, 20) then error('timed out waiting for ' .. what, 0) end
end

local function save()
  local f = assert(io.open(env.KIT_NVIM_OUT, 'w'))
  f:write(vim.json.encode(R))
  f:close()
end

local function step(name, fn)
  local ok, err = pcall(fn)
  if not ok then table.insert(R.errors, name .. ': ' .. tostring(err)) end
  R.done = name
  save()
end

local function read(path)
  local f = io.open(path)
  if not f then return nil end
  local body = f:read('*a')
  f:close()
  return body
end

local shop, client

step('attach', function()
  vim.cmd.edit(vim.fn.fnameescape(shop_path))
  shop = vim.api.nvim_get_current_buf()
  wait(30000, function() return #vim.lsp.get_clients({ bufnr = shop, name = 'kit' }) > 0 end, 'kit-lsp to attach')
  client = vim.lsp.get_clients({ bufnr = shop, name = 'kit' })[1]
  wait(30000, function() return vim.diagnostic.get(shop) ~= nil and client.initialized end, 'the first analysis')
end)

step('inlay hints', function()
  vim.lsp.inlay_hint.enable(true, { bufnr = shop })
  local hints
  wait(20000, function()
    hints = vim.lsp.inlay_hint.get({ bufnr = shop })
    return #hints > 0
  end, 'inlay hints')
  R.hints = {}
  for _, h in ipairs(hints) do
    local label = h.inlay_hint.label
    if type(label) == 'table' then
      local parts = {}
      for _, p in ipairs(label) do table.insert(parts, p.value) end
      label = table.concat(parts)
    end
    table.insert(R.hints, { line = h.inlay_hint.position.line, label = label })
  end
  table.sort(R.hints, function(a, b) return a.line < b.line or (a.line == b.line and a.label < b.label) end)
end)

step('code lenses', function()
  local lenses
  wait(20000, function()
    vim.lsp.codelens.refresh({ bufnr = shop })
    vim.wait(200)
    lenses = vim.lsp.codelens.get(shop)
    return #lenses > 0
  end, 'code lenses')
  R.lenses = {}
  local open_stub
  for _, lens in ipairs(lenses) do
    table.insert(R.lenses, { line = lens.range.start.line, title = lens.command and lens.command.title })
    if lens.command and lens.command.title == 'open stub' and lens.range.start.line == 23 then open_stub = lens end
  end
  table.sort(R.lenses, function(a, b) return a.line < b.line or (a.line == b.line and a.title < b.title) end)
  assert(open_stub, 'no "open stub" lens on CreateItem')
  client:exec_cmd(open_stub.command, { bufnr = shop })
  wait(15000, function() return vim.api.nvim_buf_get_name(0):match('create_item%.go$') ~= nil end, 'the stub to show')
  R.shown = { file = vim.api.nvim_buf_get_name(0), line = vim.api.nvim_win_get_cursor(0)[1] }
  vim.cmd.buffer(shop)
end)

step('proto', function()
  vim.cmd.edit(vim.fn.fnameescape(proto_path))
  local buf = vim.api.nvim_get_current_buf()
  R.proto_filetype = vim.bo[buf].filetype
  wait(30000, function() return #vim.lsp.get_clients({ bufnr = buf, name = 'kit' }) > 0 end, 'kit-lsp to attach to the proto')
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  table.insert(lines, 'message Broken { Missing m = 1; }')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 'the proto diagnostics')
  R.proto_diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(R.proto_diagnostics, { lnum = d.lnum, code = d.code, message = d.message })
  end
  vim.api.nvim_buf_set_lines(buf, #lines - 1, #lines, false, {})
  wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 'the proto diagnostics to clear')
  vim.cmd('silent write')
  vim.cmd.buffer(shop)
end)

step('rename a method', function()
  local row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(shop, 0, -1, false)) do
    if line:match('post CreateItem') then row = i end
  end
  vim.api.nvim_win_set_cursor(0, { row, 7 })
  vim.lsp.buf.rename('AddItem')
  wait(15000, function()
    return table.concat(vim.api.nvim_buf_get_lines(shop, 0, -1, false), '\n'):find('post AddItem') ~= nil
  end, 'the rename edit')
  vim.cmd('silent wall')
  local new = root .. '/internal/service/items/add_item.go'
  wait(60000, function() return read(new) ~= nil end, 'the generated ' .. new)
  R.new_stub = read(new)
  R.old_stub = read(root .. '/internal/service/items/create_item.go')
end)

if client then client:stop(true) end
vim.cmd('qall!')
