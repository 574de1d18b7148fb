" Terraform/OpenTofu JSON: indent like JSON.
runtime! indent/json.vim
