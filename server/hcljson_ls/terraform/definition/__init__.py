"""The definition of the Terraform and OpenTofu language: the catalogue of names (block types, labels,
meta-arguments, namespaces, file names), the versioned language, the configuration schema, the
built-in functions, type syntax and documentation URLs. Imports no other part of `terraform`."""
