"""Template strings that read input variables, checked once the variables' types are known.

    TypedSite(start, raw)       one of a block's `FileChecks` refs: a template-mode string's content
    typed_site(start, raw, value) -> TypedSite | None    the site of one string, if it needs one

`terraform validate` evaluates every expression with each input variable an unknown value of its
type constraint, so `"${upper(var.names)}"` with `names` a `list(string)` is an error ("Invalid
function argument"), as `"${var.names + 1}"` and `"${!var.names}"` are ("Invalid operand"). The
template checks evaluate a string alone, every reference an unknown of unknown type
(`evaluate.constant_problems`); a site asks again with the variables' types, in `resolve`
(`evaluate.typed_problems`), for a string that reads a variable and does more than interpolate
references (`evaluate.typed_candidate`). The steps of a variable reference itself (`var.o.nope`)
are its resolution's to check, not the site's.

`start` is the offset of the string's content (after its quote), `raw` the content as written;
the diagnostics are at the template parser's positions from `start` (`templates.string_tree`).
A site is made where `terraform validate` evaluates the string with the types: not inside a
`dynamic` block's content, a `connection` beside no provisioner, a `check` or `removed` block, nor a
variable validation's `error_message` (its `condition` is: Terraform 1.11.4 reports
`upper(var.names)` there), and not where a `dynamic` iterator is named `var`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..expressions.evaluate import typed_candidate

__all__ = ["TypedSite", "typed_site"]


@dataclass(frozen=True, slots=True)
class TypedSite:
    start: int
    raw: str

    def shifted(self, delta: int) -> TypedSite:
        return self if delta == 0 else TypedSite(self.start + delta, self.raw)


def typed_site(start: int, raw: str, value: str) -> TypedSite | None:
    """The site of a template-mode string whose content starts at `start`, written `raw` and
    `value` decoded, when its evaluation may depend on the types of input variables."""
    return TypedSite(start, raw) if typed_candidate(value) else None
