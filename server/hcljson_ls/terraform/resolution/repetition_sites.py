"""`count` and `for_each` values that are an input variable or a local value: checked against what
`terraform validate` knows of it.

    repetition_sites(block, text) -> list[RepetitionSite]     a top-level block's (none or one)
    site_of(name, start, raw, value) -> RepetitionSite | None  one argument value's
    repetition_candidate(value) -> bool                       whether a value needs a site
    RepetitionSite(name, start, end, value, inner)             one of a block's `FileChecks` refs

`terraform validate` evaluates `count` and `for_each` with every input variable an unknown value of
its type constraint, so `"for_each": "${var.names}"` with `names` a `list(string)` is already an
error ("Invalid for_each argument"), and `"count": "${var.enabled}"` with a `bool` one ("Incorrect
value type"). A site is the value of such an argument: a JSON string that is exactly one
interpolation that reads an input variable or a local value (`var.NAME` with any steps after it, or
an expression of them: `"${var.on ? var.names : []}"`, `repetition_candidate`), in a resource, data
source or module call
(`catalogue.EVALUATED_REPETITION_BLOCKS`) that does not set both arguments (Terraform then reads
neither), in a file that is no override file (the caller's test). `resolve` evaluates it once the
variables' types and the locals' literal values are known (`local_values`, `evaluate.typed_value`)
and judges it by `expressions.repetition`'s rule, on the whole value, quotes included: Terraform's
range.

`inner` is the value's raw JSON content when it is written `${...}` exactly, for the quick fix that
wraps the expression in `toset()`; else None.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...hcljson.model import Block
from ...hcljson.values import string_text
from ...jsonsyntax.tree import STRING
from ..definition.catalogue import EVALUATED_REPETITION_BLOCKS
from ..expressions.evaluate import typed_candidate
from ..expressions.repetition import whole_expression, whole_reference

__all__ = ["REPETITION_NAMES", "RepetitionSite", "repetition_candidate", "repetition_sites", "site_of"]

#: The arguments a site may be the value of.
REPETITION_NAMES = ("count", "for_each")


@dataclass(frozen=True, slots=True)
class RepetitionSite:
    name: str  # "count" or "for_each"
    start: int  # the JSON string value, quotes included
    end: int
    value: str  # the string's value (decoded): one interpolation
    inner: str | None

    def shifted(self, delta: int) -> RepetitionSite:
        if delta == 0:
            return self
        return RepetitionSite(self.name, self.start + delta, self.end + delta, self.value, self.inner)


def repetition_sites(block: Block, text: str) -> list[RepetitionSite]:
    """The site of top-level `block` (see the module doc), if it has one."""
    if block.type_name not in EVALUATED_REPETITION_BLOCKS:
        return []
    found = [a for a in block.body.attributes if a.name in REPETITION_NAMES]
    if len(found) != 1 or found[0].expr is None or found[0].expr.kind != STRING:
        return []  # none, both (Terraform reads neither), or repeated (a structure error)
    expr = found[0].expr
    if not getattr(expr.node, "terminated", True):
        return []  # the syntax layer's error
    value = string_text(text, expr.node, expr.start)
    site = site_of(found[0].name, expr.start, text[expr.start + 1 : expr.end - 1], value)
    return [] if site is None else [site]


def site_of(name: str, start: int, raw: str, value: str) -> RepetitionSite | None:
    """The site of argument `name` whose JSON string value starts at `start` (its quote), written
    `raw` between its quotes and `value` decoded, when the value needs one (`repetition_candidate`);
    else None."""
    if not repetition_candidate(value):
        return None
    exact = raw.startswith("${") and raw.endswith("}") and not raw.startswith("${~") and not raw.endswith("~}")
    return RepetitionSite(name, start, start + len(raw) + 2, value, raw[2:-1] if exact else None)


def repetition_candidate(value: str) -> bool:
    """Whether a `count` or `for_each` string `value` is one interpolation that reads an input
    variable or a local value: `var.NAME...`, `local.NAME...` (`whole_reference`), or an expression
    that computes with them (`evaluate.typed_candidate`). (A constant one is the literal rule's:
    `rules.repetition_values`.)"""
    if "${" not in value:
        return False
    if whole_reference(value) is not None:
        return True
    return typed_candidate(value) and whole_expression(value) is not None
