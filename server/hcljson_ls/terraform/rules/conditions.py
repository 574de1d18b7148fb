"""What a condition must refer to: the rules Terraform's configuration loader applies to the
`condition` of every check rule, from the configuration alone.

    condition_rules(text, block) -> list[Diagnostic]     for one top-level block

Codes (documented in docs/diagnostics.md):

* `reference/constant-condition` -- a `condition` (of a variable's `validation`, a
  `precondition` or `postcondition`, a `check`'s `assert`) that refers to nothing: its result could
  never change. Terraform: "Invalid <block type> expression".
* `reference/validation-without-variable` -- a variable's `validation` condition that does not
  refer to the variable itself (`var.<name>`). Terraform: "Invalid variable validation condition".
  Since Terraform 1.9 (commit 3b620bfe69, the self rule kept by acc4c12ac2) and OpenTofu 1.9
  (f6a1d8e2dd, "Support References in Variable Validation") the condition may refer to other
  objects as well, but it must still refer to its own variable (Terraform's
  `configs.checkVariableValidationBlock`, still so on its main branch of August 2026; OpenTofu
  likewise): this module
  follows the newer rule and does not report references to other objects.

* `structure/too-few-blocks` -- a `check` whose every `assert` is invalid in a way found here or
  plainly (no `condition` or `error_message`): Terraform drops each and says "Zero assert blocks".

Contract
--------
* "Refers to" is what HCL's `Variables()` gives: every traversal of the expression except the
  names the expression binds itself (`for` temporaries) and bare object keys (`{a = 1}`), the
  same references `reference_walk` reads. A literal value (`true`, `"ok"`, a JSON number) refers to
  nothing.
* Ranges are Terraform's: the condition's value (the JSON string with its quotes, or the literal).
  Both rules can report the same condition, as Terraform does.
* Override files are not checked here (their blocks are partial; the caller leaves them out).
"""

from __future__ import annotations

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Block, Body
from ...hcljson.problems import TOO_FEW_BLOCKS
from ..resolution.reference_walk import expression_references
from ..resolution.references import Reference

CONSTANT_CONDITION = "reference/constant-condition"
VALIDATION_WITHOUT_VARIABLE = "reference/validation-without-variable"

#: Nested blocks whose `condition` is a check rule, by the block that holds them.
_RULE_BLOCKS = frozenset({"validation", "precondition", "postcondition", "assert"})


def condition_rules(text: str, block: Block) -> list[Diagnostic]:
    """The problems of the conditions inside top-level `block` (see the module doc)."""
    out: list[Diagnostic] = []
    variable = block.labels[0].value if block.type_name == "variable" and block.labels else None
    stack: list[Body] = [block.body]
    while stack:
        body = stack.pop()
        for nested in body.blocks:
            if nested.type_name in _RULE_BLOCKS:
                _check_rule(text, nested, variable if nested.type_name == "validation" else None, out)
            else:
                stack.append(nested.body)
    if block.type_name == "check":
        out.extend(_no_valid_assert(block, out))
    out.sort(key=lambda d: (d.start, d.end))
    return out


def _no_valid_assert(check: Block, found: list[Diagnostic]) -> list[Diagnostic]:
    """`structure/too-few-blocks` on a check whose every `assert` Terraform drops: without its
    `condition` or `error_message`, or with a condition found constant (its checks.go keeps only
    the asserts that decode without error, then says "Zero assert blocks")."""
    asserts = check.body.blocks_of("assert")
    if not asserts:
        return []  # the decoder's "Missing assert block"
    for a in asserts:
        body = a.body
        if body.attribute("condition") is not None and body.attribute("error_message") is not None and not any(
                d.code == CONSTANT_CONDITION and body.start <= d.start < body.end for d in found):
            return []
    # Where Terraform says "Zero assert blocks": the check's declaration, the `{` of its body in JSON.
    start = check.body.start
    return [Diagnostic(start, min(start + 1, check.body.end), ERROR, TOO_FEW_BLOCKS, "No valid assert block",
                       "A check block needs at least one assert block, and each of this one's is invalid (see the "
                       "errors inside), so Terraform ignores them all.")]


def _check_rule(text: str, rule: Block, variable: str | None, out: list[Diagnostic]) -> None:
    condition = rule.body.attribute("condition")
    if condition is None or condition.expr is None:
        return
    expr = condition.expr
    refs = [r for r in expression_references(text, expr) if type(r) is Reference]
    if not refs:
        out.append(Diagnostic(
            expr.start, expr.end, ERROR, CONSTANT_CONDITION, f"Invalid {rule.type_name} expression",
            "The condition expression must refer to at least one object from elsewhere in the configuration, "
            "or else its result would not be checking anything.",
        ))
    if variable is not None and not any(r.root == "var" and r.steps and not r.steps[0].index
                                        and r.steps[0].name == variable for r in refs):
        out.append(Diagnostic(
            expr.start, expr.end, ERROR, VALIDATION_WITHOUT_VARIABLE, "Invalid variable validation condition",
            f'The condition for variable "{variable}" must refer to var.{variable} in order to test incoming values.',
        ))
