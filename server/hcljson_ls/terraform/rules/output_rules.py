"""The literal settings of an `output` body, written once over `hcljson.view` (a body rule of
`body_rules.BODY_RULES`): the full analysis runs it on the tree, the quick open on the C scanner's
values.

    boolean_findings(view, block_type, labels, body) -> list[Finding]
    OUTPUT_BOOLEANS                                  the output arguments that take true or false

Contract
--------
* `structure/value-type` (error, "Expected a boolean", on the value): an output's `sensitive` or
  `ephemeral` given anything but `true`, `false`, `null` or the strings `"true"` / `"false"`
  (`boolean_settings.boolean_findings`, the rule every block's boolean settings share).
* Every value the decoder's literal check reports in these arguments (a template sequence in a
  string, a repeated key in an object) is one this rule reports too, so the quick open certifies
  these two arguments on this rule alone (`quick._certify`).
* Judged in override files too; never raises (on values: nothing `Unanswerable` is asked).
"""

from __future__ import annotations

from typing import Any

from ...hcljson.view import Finding, ValueView
from .boolean_settings import BOOLEAN_SETTINGS
from .boolean_settings import boolean_findings as setting_findings

__all__ = ["OUTPUT_BOOLEANS", "boolean_findings"]

#: The arguments of an output that take true or false (Terraform's `configs/named_values.go`).
OUTPUT_BOOLEANS = BOOLEAN_SETTINGS["output"]


def boolean_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any) -> list[Finding]:
    """See the module doc."""
    if block_type != "output":
        return []
    return setting_findings(view, block_type, body)
