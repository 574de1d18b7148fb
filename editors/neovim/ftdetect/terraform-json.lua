-- Terraform/OpenTofu JSON configuration gets its own filetype, `terraform-json`
-- (Neovim would otherwise call these files `json`). CDKTF's `cdk.tf.json` matches too, and so do
-- variable definitions files (`*.tfvars.json`: the server tells them apart by name).
vim.filetype.add({
  pattern = {
    ['.*%.tf%.json'] = 'terraform-json',
    ['.*%.tofu%.json'] = 'terraform-json',
    ['.*%.tfvars%.json'] = 'terraform-json',
  },
})

-- Tree-sitter: highlight `terraform-json` buffers with the `json` parser (when it is installed,
-- e.g. by nvim-treesitter). Regex syntax falls back to JSON in ../syntax/terraform-json.vim.
vim.treesitter.language.register('json', 'terraform-json')
