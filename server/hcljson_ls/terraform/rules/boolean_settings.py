"""The boolean settings of a block, written once over `hcljson.view`: the full analysis runs the
rule on the tree (`validate` for a variable and every `lifecycle` block, the body rule
`output_rules.boolean_findings` for an output), the quick open on the C scanner's values (an
output's through `body_rules`, a resource's `lifecycle` in `quick._certify`).

    BOOLEAN_SETTINGS                                   block type -> the arguments that take true or false
    boolean_findings(view, block_type, body, names=None) -> list[Finding]

Contract
--------
* `structure/value-type` (error, "Expected a boolean", on the value): one of the block type's
  boolean settings (or of `names`, which the caller narrows to those the decoder knows there)
  given anything but `true`, `false` or the strings `"true"` / `"false"` (which Terraform
  converts). `null` is reported too, as Terraform 1.11.4 does ("null value is not allowed", on the
  value: each of these arguments checked with `terraform validate`). A member written without a
  value (mid-edit) is left alone.
* A lifecycle's `prevent_destroy` may be an expression (OpenTofu 1.12+: `language` reports the
  feature where the engine or version lacks it): a string holding `${` there is no finding here,
  and the rule says `view.tree_only` of it, so the quick open sends the block to the full analysis,
  which reads its references and its language site on the tree.
* Every value the decoder's literal check reports in these arguments (a template sequence in a
  string, a repeated key in an object) is one this rule reports too, so the quick open certifies
  these arguments on this rule alone.
* Never raises, except `Unanswerable` on values (only through `tree_only`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...diagnostic import ERROR
from ...hcljson import problems as P
from ...hcljson.values import kind_phrase_of, quoted
from ...hcljson.view import ABSENT, NO_VALUE, Finding, ValueView
from ...jsonsyntax.tree import FALSE, NULL, STRING, TRUE

__all__ = ["BOOLEAN_SETTINGS", "boolean_findings"]

#: The arguments that take true or false, per block type (Terraform's `configs/named_values.go`
#: and `configs/resource.go`; `destroy`: a `removed` block's lifecycle).
BOOLEAN_SETTINGS: dict[str, tuple[str, ...]] = {
    "output": ("sensitive", "ephemeral"),
    "variable": ("sensitive", "nullable", "ephemeral"),
    "lifecycle": ("create_before_destroy", "prevent_destroy", "destroy"),
}
#: (block type, argument): a template string there is an expression, not a wrong value.
_EXPRESSIONS = frozenset({("lifecycle", "prevent_destroy")})
_LITERALS = frozenset({TRUE, FALSE})


def boolean_findings(view: ValueView, block_type: str, body: Any, names: Iterable[str] | None = None) -> list[Finding]:
    """See the module doc."""
    out: list[Finding] = []
    for name in BOOLEAN_SETTINGS.get(block_type, ()) if names is None else names:
        v = view.member(body, name)
        if v is ABSENT or v is NO_VALUE:
            continue
        kind = view.kind(v)
        if kind in _LITERALS:
            continue
        if kind == STRING:
            s = view.string(v)
            if s == "true" or s == "false":
                continue
            if "${" in s and (block_type, name) in _EXPRESSIONS:
                view.tree_only(v, "an expression: its language site and references")
                continue
        if kind == NULL:
            out.append(Finding(
                v, ERROR, P.VALUE_TYPE, "Unsuitable value type",
                f"The argument {quoted(name)} takes true or false and cannot be null. Remove it to use its default.",
            ))
            continue
        out.append(Finding(
            v, ERROR, P.VALUE_TYPE, "Expected a boolean",
            f"The argument {quoted(name)} takes true or false, but this is {kind_phrase_of(kind)}.",
        ))
    return out
