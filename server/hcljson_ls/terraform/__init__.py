"""Terraform/OpenTofu meaning on top of the generic HCL JSON layer, in sub-packages that import only
those below them (docs/architecture.md; import-linter contracts in pyproject.toml): quick >
analysis | nativehcl > rules > resolution > schemas > expressions > definition, and filekinds.

    definition.catalogue                the one home of Terraform/OpenTofu knowledge: block types, labels,
                               meta-arguments, reference namespaces, file-name rules
    definition.schema.CONFIG_SCHEMA / OVERRIDE_SCHEMA / schema_for_path(path) / is_json_override_file(path)
    analysis.file_engine(path) -> IncrementalFile          one per open document, incremental
    analysis.analyze_file(text, root, path=None) -> FileResult            the same from scratch
    rules.declarations.declarations(text, root, path) / duplicates_across_files(...)   module-wide rules
    nativehcl.native.parse_native(text) -> NativeFile    what a native `.tf`/`.tofu` file declares and refers to
    rules.validate.block_diagnostics(block, text, override=False) -> diagnostics  Terraform rules, one block
    expressions.templates.check_strings(text, body) -> diagnostics                   strings by schema mode
    definition.functions.lookup(name, engine) / names / signature / accepts / closest   built-in functions
                               of Terraform and OpenTofu (packaged data/functions.json)
    definition.ctytypes.render_type(t)
                               cty JSON types in HCL type syntax (`["list","dynamic"]` -> `list(any)`)
    expressions.evaluate.constant_problems(tree) / type_value / get_attr / get_index   static evaluation of
                               expressions: the errors `terraform validate` finds from types alone

See the module docstrings.
"""
