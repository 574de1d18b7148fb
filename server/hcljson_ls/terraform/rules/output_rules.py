"""The literal settings of an `output` body, written once over `hcljson.view` (a body rule of
`body_rules.BODY_RULES`): the full analysis runs it on the tree, the quick open on the C scanner's
values.

    boolean_findings(view, block_type, labels, body) -> list[Finding]
    OUTPUT_BOOLEANS                                  the output arguments that take true or false

Contract
--------
* `structure/value-type` (error, "Expected a boolean", on the value): an output's `sensitive` or
  `ephemeral` given anything but `true`, `false`, `null` or the strings `"true"` / `"false"`
  (which Terraform converts). A member written without a value (mid-edit) is left alone.
* Every value the decoder's literal check reports in these arguments (a template sequence in a
  string, a repeated key in an object) is one this rule reports too, so the quick open certifies
  these two arguments on this rule alone (`quick._certify`).
* Judged in override files too; never raises (on values: nothing `Unanswerable` is asked).
"""

from __future__ import annotations

from typing import Any

from ...diagnostic import ERROR
from ...hcljson import problems as P
from ...hcljson.values import kind_phrase_of, quoted
from ...hcljson.view import ABSENT, NO_VALUE, Finding, ValueView
from ...jsonsyntax.tree import FALSE, NULL, STRING, TRUE

__all__ = ["OUTPUT_BOOLEANS", "boolean_findings"]

#: The arguments of an output that take true or false (Terraform's `configs/named_values.go`).
OUTPUT_BOOLEANS = ("sensitive", "ephemeral")

_LITERALS = frozenset({TRUE, FALSE, NULL})


def boolean_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any) -> list[Finding]:
    """See the module doc."""
    if block_type != "output":
        return []
    out: list[Finding] = []
    for name in OUTPUT_BOOLEANS:
        v = view.member(body, name)
        if v is ABSENT or v is NO_VALUE:
            continue
        kind = view.kind(v)
        if kind in _LITERALS or (kind == STRING and view.string(v) in ("true", "false")):
            continue
        out.append(Finding(
            v, ERROR, P.VALUE_TYPE, "Expected a boolean",
            f"The argument {quoted(name)} takes true or false, but this is {kind_phrase_of(kind)}.",
        ))
    return out
