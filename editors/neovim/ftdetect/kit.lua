-- `.kit` files are kit designs.
vim.filetype.add({ extension = { kit = 'kit' } })
