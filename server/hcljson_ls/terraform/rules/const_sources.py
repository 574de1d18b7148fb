"""Terraform's rule that a module call's `source` and `version` use only const input variables.

    VARIABLE_CONST                                 the kind of a const variable's fact key
    const_fact(block) -> key | None                `("variable-const", name)` of a const `variable`
    check_const_sources(sites, text, language, own, scope) -> (diagnostics, uses)

Code (docs/diagnostics.md, "Const variables in module sources"):

* `module/non-const-source` -- (error) under Terraform 1.15 and later, a module call's `source`
  or `version` refers directly to an input variable of the module that is not declared
  `const = true`. Terraform evaluates `source` and `version` while it installs modules, where every
  other variable is unknown, and says "Unknown module source" / "Unknown module version" ("Only
  literal values and const variables can be evaluated during init.") on the whole expression
  (hashicorp/terraform internal/terraform/node_module_install.go evalSource and
  evalVersionConstraint; node_root_variable.go: "All non-const variables are unknown during init").
  Under OpenTofu 1.12 and later, each reference there to a variable declared `const = false`:
  "Unable to use variable in static context", on the reference (opentofu v1.12.0
  internal/configs/static_scope.go:263-270; OpenTofu evaluates the other variables it is given).

Contract
--------
* Only as strict as Terraform, never more: under OpenTofu only a literal `const = false` (and no
  declaration setting it otherwise), nothing before Terraform 1.15 (`language/newer-version` warns there); only where the
  value is surely unknown: literal text and interpolations that each hold one bare reference
  (`"./m/${var.x}"`; no function call, operator, conditional, index into a literal or directive,
  which could make a known value of an unknown one); nothing where it refers to anything Terraform rejects there first (a resource, `count`, ...: another error of
  Terraform's), or to a variable that no file of the module declares (`reference/undeclared`).
  A variable counts as const when any of its declarations sets `const` to anything but a literal
  `false` (Terraform decodes `"true"` too). Nothing is said in a module with an override file
  (`scope.has_override_files`: it may set `const`, and the index holds no declaration of it).
  Locals derived from non-const variables are not followed (only direct `var.x` references).
* Variables are module-wide: the facts of the file (`own`) and of the other files (`scope.keys`).
  `uses` holds `(UNDECLARED, "variable-const")` and each variable read, so a change of any
  `const` re-checks the calls (`resolve.affected` maps a changed key to `(UNDECLARED, kind)`).
* Pure: no I/O; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Block
from ...jsonsyntax.tree import FALSE
from ..definition.language import OPENTOFU, TERRAFORM, Language, available
from ..resolution.reference_walk import expression_references
from ..resolution.references import Reference

VARIABLE_CONST = "variable-const"
NON_CONST_SOURCE = "module/non-const-source"

#: The reference roots Terraform accepts in a module source (the version: all but `path`).
_ALLOWED_ROOTS = {"source": frozenset({"var", "local", "path"}), "version": frozenset({"var", "local"})}
_WHAT = {"source": "source", "version": "version"}


def const_fact(block: Block) -> tuple | None:
    """The fact of a JSON `variable` block with one label that sets `const`: `("variable-const",
    name, const)`, `const` False only for a literal `false` (anything else may decode to true)."""
    if block.type_name != "variable" or len(block.labels) != 1:
        return None
    a = block.body.attribute("const")
    if a is None or a.expr is None:
        return None
    return (VARIABLE_CONST, block.labels[0].value, a.expr.node.kind != FALSE)


def _declared(name: str, own: frozenset, scope: Any) -> bool:
    key = ("variable", name)
    return key in own or bool(scope.declared(key))


def _const_settings(name: str, own: frozenset, scope: Any) -> set[bool]:
    """What the declarations of variable `name` set `const` to (empty: none sets it)."""
    facts = [k for k in own if k[0] == VARIABLE_CONST]
    facts.extend(scope.keys(VARIABLE_CONST))
    return {bool(k[2]) for k in facts if len(k) == 3 and k[1] == name}


def check_const_sources(blocks: Iterable[Block], text: str, language: Language, own: frozenset,
                        scope: Any) -> tuple[list[Diagnostic], set]:
    """See the module doc; `blocks` are module calls in current positions."""
    if language.engine == TERRAFORM:
        if not available(("module", "source", "template"), language):
            return [], set()
    elif language.engine != OPENTOFU or not available(("variable", "const"), language):
        return [], set()
    if getattr(scope, "has_override_files", False):
        return [], set()  # an override file may set const: not known here
    out: list[Diagnostic] = []
    uses: set = {("reference/undeclared", VARIABLE_CONST)}
    for block in blocks:
        for name in ("source", "version"):
            attr = block.body.attribute(name)
            if attr is None or attr.expr is None:
                continue
            e = attr.expr
            refs = expression_references(text, e)
            if language.engine == OPENTOFU:
                out.extend(_declared_not_const(refs, own, scope, uses))
                continue
            if not _only_interpolated_references(text, e.start, e.end, refs):
                continue
            found = _non_const(refs, name, own, scope, uses)
            if found:
                out.append(Diagnostic(
                    e.start, e.end, ERROR, NON_CONST_SOURCE, f"Unknown module {_WHAT[name]}",
                    f"Only literal values and const variables can be evaluated during init, and the variable "
                    f"\"{found}\" is not declared with const = true.",
                ))
    return out, uses


def _declared_not_const(refs: list, own: frozenset, scope: Any, uses: set) -> list[Diagnostic]:
    """OpenTofu: each reference to a variable declared `const = false` (and nowhere const)."""
    out = []
    for r in refs:
        if type(r) is not Reference or r.root != "var" or not r.steps or r.steps[0].index:
            continue
        var = r.steps[0].name
        uses.add(("variable", var))
        if _const_settings(var, own, scope) == {False}:
            out.append(Diagnostic(
                r.start, r.steps[0].end, ERROR, NON_CONST_SOURCE, "Unable to use variable in static context",
                f"The variable \"{var}\" cannot be used in a module's source or version, which are evaluated "
                "while the configuration loads, because it is declared with const = false.",
            ))
    return out


#: What is left of an interpolation once its reference is taken out: `${ }`, `${~ ~}`.
_BARE_INTERPOLATION = re.compile(r"\$\{~?\s*~?\}")


def _only_interpolated_references(text: str, start: int, end: int, refs: list) -> bool:
    """Whether the string value `text[start:end]` is literal text and interpolations that each
    hold one reference and nothing else (`"./m/${var.x}"`): an operator, a conditional, an index
    into a literal or a directive could make a known value of an unknown one, so nothing is said
    of those. Escapes (`$${`, `%%{`) are left alone too."""
    spans = sorted((r.start, r.end_all) for r in refs if type(r) is Reference)
    if not spans or spans[0][0] < start or spans[-1][1] > end:
        return False
    pieces, at = [], start
    for a, b in spans:
        if a < at:
            return False
        pieces.append(text[at:a])
        at = b
    pieces.append(text[at:end])
    rest = _BARE_INTERPOLATION.sub("", "".join(pieces))
    return "${" not in rest and "%{" not in rest


def _non_const(refs: list, name: str, own: frozenset, scope: Any, uses: set) -> str | None:
    """The first variable of `refs` that is declared but not const, or None (also whenever
    Terraform would say something else first or the result might be known)."""
    first: str | None = None
    for r in refs:
        if type(r) is not Reference:
            return None  # a function call
        if r.root not in _ALLOWED_ROOTS[name]:
            return None
        if r.root != "var" or not r.steps or r.steps[0].index:
            continue
        var = r.steps[0].name
        uses.add(("variable", var))
        if not _declared(var, own, scope):
            return None
        if first is None and True not in _const_settings(var, own, scope):
            first = var
    return first
