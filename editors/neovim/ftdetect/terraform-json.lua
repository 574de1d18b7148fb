-- Terraform/OpenTofu JSON configuration gets its own filetype, `terraform-json`
-- (Neovim would otherwise call these files `json`). CDKTF's `cdk.tf.json` matches too, and so do
-- variable definitions files (`*.tfvars.json`), test, mock data and query files (`*.tftest.json`,
-- `*.tofutest.json`, `*.tfmock.json`, `*.tfquery.json`): the server tells them apart by name.
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

-- Tree-sitter: highlight `terraform-json` buffers with the `json` parser (when it is installed,
-- e.g. by nvim-treesitter). Regex syntax falls back to JSON in ../syntax/terraform-json.vim.
vim.treesitter.language.register('json', 'terraform-json')
