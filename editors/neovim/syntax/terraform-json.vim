" Terraform/OpenTofu JSON: coloured as plain JSON.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/json.vim
let b:current_syntax = 'terraform-json'
