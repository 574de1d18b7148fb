"""The rules of a top-level block's body written once, over `hcljson.view`: the full analysis runs
them on the tree (`validate`), the quick open on the C scanner's values (`quick`).

    BODY_RULES                                  the registry: rule(view, block_type, labels, body) -> [Finding]
    body_findings(view, block_type, labels, body) -> list[Finding]
    body_diagnostics(block, text) -> list[Diagnostic]     the full path's: on a decoded block, placed

Contract
--------
* A rule reads only through the view it is given (`ValueView`): kinds, strings, numbers as written,
  members, items; it returns `Finding`s on value handles and never asks for a position. It judges a
  body of a configuration file (not of an override file: the merged block is what Terraform judges).
* The full path places each finding on its value's range (`diagnostics_of`), in the registry's
  order, where `validate` reported the rule before it moved here. The quick open certifies a block
  only when every rule returns nothing for its values; a finding, or a question the values view
  cannot answer (`Unanswerable`), sends the block to the full analysis of its small document,
  which reports it with its range. So a rule added to `BODY_RULES` is reported by the open and by
  every edit alike (tests/terraform/test_body_rules.py), with no second copy of it in `quick`.
* Rules never raise on what the decoder or `skim` produce, except `Unanswerable` on values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..diagnostic import Diagnostic
from ..hcljson.model import Block
from ..hcljson.view import Finding, TreeView, ValueView, diagnostics_of
from .repetition_values import repetition_findings

__all__ = ["BODY_RULES", "BodyRule", "body_diagnostics", "body_findings"]

BodyRule = Callable[[ValueView, str, tuple[str, ...], Any], list[Finding]]

#: Every rule of a top-level body, in the order the full path reports them.
BODY_RULES: list[BodyRule] = [repetition_findings]


def body_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any) -> list[Finding]:
    """What the registered rules find in `body` of a `block_type` block labelled `labels`."""
    out: list[Finding] = []
    for rule in BODY_RULES:
        out.extend(rule(view, block_type, labels, body))
    return out


def body_diagnostics(block: Block, text: str) -> list[Diagnostic]:
    """`body_findings` of decoded top-level `block` of document `text`, placed on their ranges."""
    view = TreeView(text)
    return diagnostics_of(view, body_findings(view, block.type_name, tuple(lab.value for lab in block.labels), block.body))
