"""The rules of a `variable` block about its values: the `default` against the `type`.

    variable_diagnostics(block, text) -> list[Diagnostic]     one top-level `variable` block

Contract
--------
* Code `variable/invalid-default` (error, on the whole `default` value: Terraform's subject range),
  summary "Invalid default value for variable" as Terraform words it:
  - a `default` that cannot convert to the `type` constraint, by the conversion of variable
    definitions files (`tfvars.conversion_problem`: go-cty's rules as Terraform applies them). The
    default is taken literally (no templates: `"${true}"` is not a bool). No check without a type,
    with a type that does not parse (its own diagnostic), or for a `null` default;
  - a `null` default with `nullable = false`.
* Pure; never raises on any block the decoder produces.
"""

from __future__ import annotations

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Block
from ...hcljson.values import string_text
from ...jsonsyntax.tree import FALSE, NULL, STRING
from ..filekinds.tfvars import conversion_problem, type_of

__all__ = ["INVALID_DEFAULT", "variable_diagnostics"]

INVALID_DEFAULT = "variable/invalid-default"
_SUMMARY = "Invalid default value for variable"


def variable_diagnostics(block: Block, text: str) -> list[Diagnostic]:
    if block.type_name != "variable":
        return []
    body = block.body
    default = body.attribute("default")
    if default is None or default.expr is None:
        return []
    e = default.expr
    if e.kind == NULL:
        nullable = body.attribute("nullable")
        if nullable is not None and nullable.expr is not None and nullable.expr.kind == FALSE:
            return [Diagnostic(e.start, e.end, ERROR, INVALID_DEFAULT, _SUMMARY,
                               "A null default value is not valid when nullable=false.")]
        return []
    t = body.attribute("type")
    if t is None or t.expr is None or t.expr.kind != STRING:
        return []
    type_node = type_of(string_text(text, t.expr.node, t.expr.start) or "")
    if type_node is None:
        return []
    problem = conversion_problem(text, e.node, e.start, type_node)
    if problem is None:
        return []
    return [Diagnostic(e.start, e.end, ERROR, INVALID_DEFAULT, _SUMMARY,
                       f"This default value is not compatible with the variable's type constraint: {problem.message}.")]
