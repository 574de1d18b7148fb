"""Terraform/OpenTofu meaning on top of the generic HCL JSON layer.

    catalogue                  the one home of Terraform/OpenTofu knowledge: block types, labels,
                               meta-arguments, reference namespaces, file-name rules
    schema.CONFIG_SCHEMA / OVERRIDE_SCHEMA / schema_for_path(path) / is_json_override_file(path)
    analysis.file_engine(path) -> IncrementalFile          one per open document, incremental
    analysis.analyze_file(text, root, path=None) -> FileResult            the same from scratch
    declarations.declarations(text, root, path) / duplicates_across_files(...)   module-wide rules
    native.parse_native(text) -> NativeFile    what a native `.tf`/`.tofu` file declares and refers to
    validate.block_diagnostics(block, text, override=False) -> diagnostics  Terraform rules, one block
    templates.check_strings(text, body) -> diagnostics                   strings by schema mode
    functions.lookup(name, engine) / names / signature / accepts / closest   built-in functions
                               of Terraform and OpenTofu (packaged data/functions.json)
    ctytypes.render_type(t)    cty JSON types in HCL type syntax (`["list","dynamic"]` -> `list(any)`)
    evaluate.constant_problems(tree) / type_value / get_attr / get_index   static evaluation of
                               expressions: the errors `terraform validate` finds from types alone

See the module docstrings.
"""
