-- Opens each design file of $KIT_FILES (JSON list) in Neovim with editors/neovim on
-- 'runtimepath' and the kit parser built by build-parser.sh, and records what the editor
-- does with the queries: whether its highlighter runs, every highlight capture, the fold
-- level of each line, the indents and locals captures, and the injected regions.
-- Writes JSON to $KIT_NVIM_OUT and quits.
local R = { errors = {}, files = {} }

local function captures(name, buf, root)
  local out = {}
  local query = vim.treesitter.query.get('kit', name)
  if query == nil then error('no ' .. name .. ' query for kit on runtimepath', 0) end
  for id, node, metadata in query:iter_captures(root, buf, 0, -1) do
    local sr, sc, er, ec = node:range()
    local range = metadata[id] and metadata[id].range
    if range then sr, sc, er, ec = range[1], range[2], range[3], range[4] end
    table.insert(out, { query.captures[id], sr, sc, er, ec, metadata['injection.language'] })
  end
  return out
end

for _, path in ipairs(vim.json.decode(vim.env.KIT_FILES)) do
  local ok, err = pcall(function()
    vim.cmd.edit(vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    local root = vim.treesitter.get_parser(buf, 'kit'):parse()[1]:root()
    local folds = {}
    for lnum = 1, vim.api.nvim_buf_line_count(buf) do
      folds[lnum] = vim.treesitter.foldexpr(lnum)
    end
    R.files[path] = {
      filetype = vim.bo[buf].filetype,
      highlighter = vim.treesitter.highlighter.active[buf] ~= nil,
      foldmethod = vim.wo.foldmethod,
      commentstring = vim.bo[buf].commentstring,
      highlights = captures('highlights', buf, root),
      indents = captures('indents', buf, root),
      locals = captures('locals', buf, root),
      injections = captures('injections', buf, root),
      folds = folds,
    }
  end)
  if not ok then table.insert(R.errors, path .. ': ' .. tostring(err)) end
end

local f = assert(io.open(vim.env.KIT_NVIM_OUT, 'w'))
f:write(vim.json.encode(R))
f:close()
vim.cmd('qall!')
