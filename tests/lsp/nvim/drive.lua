-- Drives kit-lsp through Neovim's own LSP client (0.11+), headless, the way a user would:
-- open a design file, read the diagnostics, hover, jump to a definition, complete,
-- format, rename, fix the error and save (generate-on-save). Writes what happened as
-- JSON to $KIT_NVIM_OUT and quits. Every step is timed out; a failing step is recorded
-- and the next one still runs.
local env = vim.env
local R = { errors = {} }
local root = env.KIT_ROOT
local orders_path = root .. '/design/users/orders.kit'
local users_path = root .. '/design/users/users.kit'

local function wait(ms, cond, what)
  if not vim.wait(ms, cond, 20) then error('timed out waiting for ' .. what, 0) end
end

local function save()
  local f = assert(io.open(env.KIT_NVIM_OUT, 'w'))
  f:write(vim.json.encode(R))
  f:close()
end

-- What has run so far is on disk after every step: a hang still shows where it stopped.
local function step(name, fn)
  local ok, err = pcall(fn)
  if not ok then table.insert(R.errors, name .. ': ' .. tostring(err)) end
  R.done = name
  save()
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

local function float_lines()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
      vim.api.nvim_win_close(win, true)
      return lines
    end
  end
end

local orders, users, client

-- The version of the last diagnostics the server published per document: a request that
-- edits several files waits until the server has caught up with the latest edit.
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result then published[vim.uri_to_bufnr(result.uri)] = result.version end
  return publish(err, result, ctx, config)
end

local function caught_up(buf)
  wait(15000, function() return published[buf] == vim.lsp.util.buf_versions[buf] end,
    'diagnostics of the latest version of ' .. vim.api.nvim_buf_get_name(buf))
end

step('attach', function()
  vim.cmd.edit(vim.fn.fnameescape(orders_path))
  orders = vim.api.nvim_get_current_buf()
  R.filetype = vim.bo[orders].filetype
  wait(30000, function() return #vim.lsp.get_clients({ bufnr = orders, name = 'kit' }) > 0 end, 'kit-lsp to attach')
  client = vim.lsp.get_clients({ bufnr = orders, name = 'kit' })[1]
  R.root_dir = client.root_dir
end)

step('diagnostics', function()
  wait(30000, function() return #vim.diagnostic.get(orders) > 0 end, 'diagnostics')
  R.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(orders)) do
    table.insert(R.diagnostics, { lnum = d.lnum, col = d.col, message = d.message, code = d.code, severity = d.severity })
  end
end)

step('hover', function()
  vim.api.nvim_win_set_cursor(0, { 6, 9 }) -- `owner User`
  vim.lsp.buf.hover()
  local lines
  wait(15000, function() lines = float_lines(); return lines ~= nil end, 'the hover window')
  R.hover = table.concat(lines, '\n')
end)

step('definition', function()
  vim.api.nvim_win_set_cursor(0, { 6, 9 })
  vim.lsp.buf.definition()
  wait(15000, function() return vim.api.nvim_buf_get_name(0) == users_path end, 'the jump to users.kit')
  users = vim.api.nvim_get_current_buf()
  R.definition = { file = vim.api.nvim_buf_get_name(0), cursor = vim.api.nvim_win_get_cursor(0) }
  vim.cmd.buffer(orders)
end)

step('completion', function()
  -- vim.lsp.completion: the editor's own completion (0.11), shown in the popup menu. Typing
  -- with feedkeys 'x!' stays in Insert mode until a timer leaves it, so the request and the
  -- popup are checked from timers, and the last one presses <C-e><Esc>.
  vim.lsp.completion.enable(true, client.id, orders, { autotrigger = false })
  vim.api.nvim_win_set_cursor(0, { 7, 0 })
  local polls = 0
  local timer = assert(vim.uv.new_timer())
  vim.defer_fn(function()
    R.completion_mode = vim.api.nvim_get_mode().mode
    vim.lsp.completion.get()
    timer:start(50, 50, vim.schedule_wrap(function()
      polls = polls + 1
      local items = vim.fn.complete_info({ 'items' }).items
      if #items == 0 and polls < 300 then return end
      timer:stop()
      timer:close()
      R.completion = {}
      for _, item in ipairs(items) do table.insert(R.completion, item.word) end
      vim.api.nvim_feedkeys(vim.keycode('<C-e><Esc>'), 'n', false)
    end))
  end, 20)
  vim.api.nvim_feedkeys(vim.keycode('A @'), 'nx!', false) -- returns once Insert mode is left
  vim.api.nvim_buf_set_lines(orders, 6, 7, false, { '  item Missing' }) -- undo the typing
  if not R.completion or #R.completion == 0 then error('no completion items', 0) end
end)

step('formatting', function()
  vim.lsp.buf.format({ bufnr = orders, async = false, timeout_ms = 15000 })
  R.formatted = text(orders)
  caught_up(orders)
end)

step('rename', function()
  vim.cmd.buffer(users)
  local row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(users, 0, -1, false)) do
    if line:match('^type User ') then row = i end
  end
  vim.api.nvim_win_set_cursor(0, { row, 5 })
  vim.lsp.buf.rename('Member')
  local ok = vim.wait(15000, function() return text(orders):find('owner%s+Member') ~= nil end, 20)
  R.renamed_users = text(users)
  R.renamed_orders = text(orders)
  if not ok then error('timed out waiting for the rename edits', 0) end
end)

step('generate-on-save', function()
  vim.cmd.buffer(orders)
  local lines = vim.api.nvim_buf_get_lines(orders, 0, -1, false)
  for i, line in ipairs(lines) do lines[i] = line:gsub('Missing', 'Member') end
  vim.api.nvim_buf_set_lines(orders, 0, -1, false, lines)
  vim.cmd('silent wall')
  wait(30000, function() return #vim.diagnostic.get(orders) == 0 end, 'the fixed design to clear its diagnostics')
  local types = root .. '/internal/types/users/types.go'
  wait(60000, function()
    local f = io.open(types)
    if not f then return false end
    local body = f:read('*a')
    f:close()
    return body:find('type Member struct', 1, true) ~= nil and body:find('type Order struct', 1, true) ~= nil
  end, 'the generated ' .. types)
  R.generated = true
end)

if client then client:stop(true) end
vim.cmd('qall!')
