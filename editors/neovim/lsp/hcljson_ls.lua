-- hcljson-ls: language server for Terraform/OpenTofu JSON (*.tf.json, *.tofu.json).
--
-- Neovim 0.11+ native LSP config (`:help lsp-config`). Put this file on your
-- 'runtimepath' as `lsp/hcljson_ls.lua` (for example ~/.config/nvim/lsp/hcljson_ls.lua),
-- then call `vim.lsp.enable('hcljson_ls')` from init.lua. Filetype detection for
-- `terraform-json` is in ../ftdetect/terraform-json.lua.
--
-- Install the server first, from a checkout: `pipx install /path/to/hcljson-ls` (puts `hcljson-ls` on PATH).
return {
  cmd = { 'hcljson-ls', '--stdio' },
  filetypes = { 'terraform-json' },
  -- Priority order: the directory Terraform/OpenTofu was initialised in, then the
  -- repository, then a CDKTF project. Without any marker the server runs in single-file mode.
  root_markers = { '.terraform', '.git', 'cdktf.json' },
}
