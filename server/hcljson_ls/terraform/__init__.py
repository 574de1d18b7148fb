"""Terraform/OpenTofu meaning on top of the generic HCL JSON layer.

    schema.CONFIG_SCHEMA / OVERRIDE_SCHEMA / schema_for_path(path) / is_override_file(path)
    validate.analyze(text, root, path=None, cache=None) -> (Body, diagnostics)   decode + Terraform rules
    validate.validate(body, text, override=False) -> diagnostics                 Terraform rules only

See the module docstrings.
"""
