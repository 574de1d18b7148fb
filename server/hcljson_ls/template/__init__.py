"""The `template` layer: HCL native templates, expressions and type constraints inside JSON strings.

Public API (all positions are absolute document offsets; inputs are a decoded JSON string `value`
and its `offsets` map from `hcljson_ls.jsonsyntax.strings.decode`: `offsets[i]` = document offset of
decoded character `i`, `offsets[len(value)]` = offset just after the content):

* `parse_template(value, offsets) -> TemplateResult(tree: Template, diagnostics)`
* `template_diagnostics(value, offsets) -> tuple[Diagnostic, ...]` (cheapest check)
* `parse_expression(value, offsets) -> ExpressionResult(tree, diagnostics)` (bare expression,
  e.g. static traversals: `depends_on` entries, `provider = "aws.west"`)
* `parse_type(value, offsets) -> TypeResult(tree, diagnostics)` (`variable.type`)
* `unwrap(template)` — Template Interpolation Unwrapping (a lone `${x}` is the expression `x`)
* `walk(node)` — a node and its descendants in source order; node classes in `nodes`
* `context_at(value, offsets, doc_offset) -> CursorContext` — in-progress input (`partial`)
* `classify(tree) -> [(start, end, token_type, modifiers)]` — semantic tokens (`semantic`,
  legend `TOKEN_TYPES` / `TOKEN_MODIFIERS`)

Diagnostics are `hcljson_ls.diagnostic.Diagnostic` with codes `template/...` and `type/...`.
Grammars: `grammars/template.lark`, `grammars/types.lark` (loaded by `grammars.grammar_text`).
"""

from .nodes import walk
from .parse import ExpressionResult, TemplateResult, parse_expression, parse_template, template_diagnostics, unwrap
from .partial import CallContext, CursorContext, context_at
from .semantic import TOKEN_MODIFIERS, TOKEN_TYPES, classify
from .types import TypeResult, parse_type

__all__ = [
    "TemplateResult", "ExpressionResult", "TypeResult", "parse_template", "template_diagnostics",
    "parse_expression", "parse_type", "unwrap", "walk", "context_at", "CursorContext", "CallContext",
    "classify", "TOKEN_TYPES", "TOKEN_MODIFIERS",
]
