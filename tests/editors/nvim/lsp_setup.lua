-- The README's Neovim setup, nothing more (no cmd override): the folder on 'runtimepath'
-- and the server enabled by name. Once started, opens $KIT_FILE and writes, as JSON to
-- $KIT_NVIM_OUT, the notifications shown and whether a kit client started.
vim.opt.runtimepath:prepend(vim.env.KIT_NVIM_RTP)
local notes = {}
vim.notify = function(msg, level) table.insert(notes, { msg = msg, level = level }) end
vim.lsp.enable('kit')

local function client()
  local c = vim.lsp.get_clients({ name = 'kit' })[1]
  return c and c.initialized and c or nil
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true, -- :edit fires BufRead and FileType (which start the server)
  callback = function() -- filetype detection is on by now
    vim.cmd.edit(vim.env.KIT_FILE)
    vim.wait(tonumber(vim.env.KIT_WAIT_MS), function() return client() ~= nil or #notes > 0 end, 20)
    vim.cmd.edit(vim.env.KIT_FILE2) -- a second buffer: the warning is not repeated
    vim.wait(200)
    local c = client()
    local out = assert(io.open(vim.env.KIT_NVIM_OUT, 'w'))
    out:write(vim.json.encode({
      filetype = vim.bo.filetype,
      notes = notes,
      started = c ~= nil,
      cmd = c and c.config.cmd or vim.NIL,
      warn = vim.log.levels.WARN,
    }))
    out:close()
    if c then c:stop(true) end
    vim.cmd('qall!')
  end,
})
