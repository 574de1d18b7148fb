"""The HCL JSON layer: a JSON tree read as HCL bodies, blocks, labels and arguments, driven by a
schema, generic for any HCL-JSON language (Terraform's schema lives in `terraform/`).

    schema      AttributeSchema / BlockSchema / BodySchema, attribute modes, string modes
    model       decoded data (absolute ranges): Body, Block, Label, Attribute, Expression
    decode      decode_file(text, root, schema) -> (Body, diagnostics); walk_file / decode_top
                (the root down to the top-level blocks / one block); decode_body;
                decode_blocks_from_attribute; check_expression
    incremental IncrementalFile: a decoded file (plus a later layer's per-block checks) kept up to
                date across edits at a cost per edit independent of the file's size; FileView
    locate      locate(text, body, offset) -> Context (navigation for hover and completion)
    problems    the `structure/...` diagnostic codes and message builders
    values      key_text / string_text / kind_phrase helpers

See each module's docstring for its contract.
"""
