-- The user's setup, as editors/neovim/README.md documents it: the folder on 'runtimepath'
-- (lsp/kit.lua, ftdetect, ftplugin, queries) and the server enabled by name. The test only
-- points cmd at the kit-lsp of its own run.
vim.opt.runtimepath:prepend(vim.env.KIT_NVIM_RTP)
vim.lsp.config('kit', { cmd = vim.json.decode(vim.env.KIT_LSP_CMD) })
vim.lsp.enable('kit')
