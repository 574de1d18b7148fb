"""hcljson-ls: a language server for Terraform/OpenTofu JSON configuration files.

Layers, each importing only those before it:
text -> jsonsyntax -> hcljson -> template -> terraform -> features -> lsp.
`diagnostic` is plain data shared by all of them.
"""

__version__ = "0.1.0"
