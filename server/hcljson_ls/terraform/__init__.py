"""Terraform/OpenTofu meaning on top of the generic HCL JSON layer.

    schema.CONFIG_SCHEMA / OVERRIDE_SCHEMA / schema_for_path(path) / is_override_file(path)
    analysis.document_analysis(state) -> FileResult        one analysis per version, incremental
    analysis.analyze_file(text, root, path=None) -> FileResult            the same from scratch
    validate.block_diagnostics(block, text, override=False) -> diagnostics  Terraform rules, one block
    templates.check_strings(text, body) -> diagnostics                   strings by schema mode

See the module docstrings.
"""
