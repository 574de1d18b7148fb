-- hcljson-ls for Neovim 0.11+: paste this into your init.lua.
-- Needs `hcljson-ls` on PATH (`pipx install /path/to/hcljson-ls`, from a checkout).

-- 1. Terraform/OpenTofu JSON files get the `terraform-json` filetype (CDKTF's cdk.tf.json too,
--    variable definitions files, *.tfvars.json, and test, mock and query files).
vim.filetype.add({
  pattern = {
    ['.*%.tf%.json'] = 'terraform-json',
    ['.*%.tofu%.json'] = 'terraform-json',
    ['.*%.tfvars%.json'] = 'terraform-json',
    ['.*%.tftest%.json'] = 'terraform-json',
    ['.*%.tofutest%.json'] = 'terraform-json',
    ['.*%.tfmock%.json'] = 'terraform-json',
    ['.*%.tfquery%.json'] = 'terraform-json',
  },
})

-- 2. Colours: tree-sitter uses the `json` parser (if installed); regex syntax uses JSON's.
vim.treesitter.language.register('json', 'terraform-json')
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('hcljson_ls_syntax', { clear = true }),
  pattern = 'terraform-json',
  callback = function(args)
    -- Scheduled so it runs after Neovim's own FileType handler sets syntax=terraform-json.
    vim.schedule(function()
      if vim.api.nvim_buf_is_valid(args.buf) and not vim.b[args.buf].ts_highlight then
        vim.bo[args.buf].syntax = 'json'
      end
    end)
  end,
})

-- 3. The language server.
vim.lsp.config('hcljson_ls', {
  cmd = { 'hcljson-ls', '--stdio' },
  filetypes = { 'terraform-json' },
  root_markers = { '.terraform', '.git', 'cdktf.json' },
})
vim.lsp.enable('hcljson_ls')
