"""hcljson-ls: a language server for Terraform/OpenTofu JSON configuration files.

Layers, each importing only those before it (`hcljson` and `template` are independent siblings):
text -> jsonsyntax -> hcljson | template -> terraform -> workspace -> features -> lsp -> cli.
`diagnostic` is plain data shared by all of them; `gcpolicy` (pausing the garbage collector) is the
edge's, imported only by `lsp` and `cli`. The contracts are checked by import-linter
(`[tool.importlinter]` in pyproject.toml, run by tests/test_architecture.py).
"""

__version__ = "0.1.0"
