"""The rules of a top-level block's body written once, over `hcljson.view`: the full analysis runs
them on the tree (`validate`), the quick open on the C scanner's values (`quick`).

    BODY_RULES                                  the registry: rule(view, block_type, labels, body) -> [Finding]
    NOT_IN_OVERRIDES                            the rules an override file is not judged by
    body_findings(view, block_type, labels, body, override=False) -> list[Finding]
    body_diagnostics(block, text, override=False) -> list[Diagnostic]   the full path's: placed

Contract
--------
* A rule reads only through the view it is given (`ValueView`): kinds, strings, numbers as written,
  members, items; it returns `Finding`s on value (or key) handles and asks for a position only to
  order what it reports. It judges a top-level body of a configuration file; a rule in
  `NOT_IN_OVERRIDES` not that of an override file (the merged block is what Terraform judges).
* The full path places each finding on its value's range (`diagnostics_of`), in the registry's
  order, where `validate` reported the rule before it moved here. The quick open certifies a block
  only when every rule returns nothing for its values; a finding, or a question the values view
  cannot answer (`Unanswerable`), sends the block to the full analysis of its small document,
  which reports it with its range. So a rule added to `BODY_RULES` is reported by the open and by
  every edit alike (tests/terraform/test_body_rules.py), with no second copy of it in `quick`.
* Rules never raise on what the decoder or `skim` produce, except `Unanswerable` on values.
* The rules of a resource or data body against its provider's schema have a registry of the same
  kind, `provider_rules.SCHEMA_RULES` (rule(view, block_type, body, schema, where) -> [Finding]),
  run by `provider_rules.check_sites` on the tree and by `quick` on values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...diagnostic import Diagnostic
from ...hcljson.model import Block
from ...hcljson.view import Finding, TreeView, ValueView, diagnostics_of
from .output_rules import boolean_findings
from .repetition_values import conflict_findings, repetition_findings

__all__ = ["BODY_RULES", "NOT_IN_OVERRIDES", "BodyRule", "body_diagnostics", "body_findings"]

BodyRule = Callable[[ValueView, str, tuple[str, ...], Any], list[Finding]]

#: Every rule of a top-level body, in the order the full path reports them.
BODY_RULES: list[BodyRule] = [conflict_findings, repetition_findings, boolean_findings]
NOT_IN_OVERRIDES: frozenset[BodyRule] = frozenset({repetition_findings})


def body_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any,
                  override: bool = False) -> list[Finding]:
    """What the registered rules find in `body` of a `block_type` block labelled `labels` (of an
    override file: `override`)."""
    out: list[Finding] = []
    for rule in BODY_RULES:
        if not (override and rule in NOT_IN_OVERRIDES):
            out.extend(rule(view, block_type, labels, body))
    return out


def body_diagnostics(block: Block, text: str, override: bool = False) -> list[Diagnostic]:
    """`body_findings` of decoded top-level `block` of document `text`, placed on their ranges."""
    view = TreeView(text)
    labels = tuple(lab.value for lab in block.labels)
    return diagnostics_of(view, body_findings(view, block.type_name, labels, block.body, override))
