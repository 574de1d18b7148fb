" Terraform/OpenTofu JSON: the same buffer options as JSON.
runtime! ftplugin/json.vim
