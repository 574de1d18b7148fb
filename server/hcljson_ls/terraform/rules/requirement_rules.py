"""The requirements a `terraform` block states, read as Terraform reads them: version constraints
(`required_version`, each `required_providers` entry's `version`) and provider source addresses.

    requirement_diagnostics(block, text) -> list[Diagnostic]    one top-level `terraform` block

Codes (docs/diagnostics.md, "Requirements in terraform blocks"):

* `structure/invalid-version-constraint` -- a constraint Terraform cannot parse (go-version's
  syntax, `language.constraint_syntax_ok`: `"latest"`, `""`, `"> 1 < 2"`, a template, which
  Terraform reads literally here), or a provider `version` that is no string. Terraform 1.11:
  "Invalid version constraint", on the value (internal/configs/version_constraint.go,
  provider_requirements.go).
* `structure/invalid-provider-source` -- a provider `source` that is no string, has more than three
  parts or an empty one, or whose type, namespace or hostname has characters Terraform refuses
  (terraform-registry-address ParseProviderSource: "Invalid provider type", "Invalid provider
  namespace", "Invalid provider source hostname", "Invalid provider source string"), on the value.

Contract
--------
As strict as Terraform, never more: a part is refused only for what Terraform refuses whatever the
rest (ASCII other than letters, digits and `-`, a leading or trailing `-`, `--`, `.`; a type
starting with `terraform-provider-`); non-ASCII letters are left to Terraform's IDNA check. Whether
the chosen version satisfies `required_version` is `language`'s rule. Never raises.
"""

from __future__ import annotations

import re

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Attribute, Block
from ...hcljson.values import kind_phrase, quoted, string_text
from ...jsonsyntax.tree import ARRAY, NULL, OBJECT, STRING, Node
from ..definition.language import constraint_syntax_ok, constraint_text

INVALID_VERSION_CONSTRAINT = "structure/invalid-version-constraint"
INVALID_PROVIDER_SOURCE = "structure/invalid-provider-source"

_PART_BAD_ASCII = re.compile(r"[\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]")  # ASCII but letters, digits, "-"
_HOST_BAD_ASCII = re.compile(r"[\x00-\x2c\x2f\x3b-\x40\x5b-\x60\x7b-\x7f]")  # ... and ".", ":" (a port)
_SOURCE_FORM = 'The "source" argument takes "[hostname/][namespace/]type", such as "hashicorp/aws".'


def _constraint(start: int, end: int, what: str, value: str) -> Diagnostic:
    literally = " Terraform reads this string literally: templates are not evaluated." if "${" in value else ""
    return Diagnostic(start, end, ERROR, INVALID_VERSION_CONSTRAINT, "Invalid version constraint",
                      f"{quoted(value)} is not a version constraint, so Terraform cannot read {what}. Write one "
                      f"or more comma-separated constraints such as \">= 1.5, < 2.0\" or \"~> 5.0\".{literally}")


def _required_version(attr: Attribute, text: str) -> list[Diagnostic]:
    e = attr.expr
    if e is None:
        return []
    value = constraint_text(text, e.node, e.start)
    if value is None or constraint_syntax_ok(value):
        return []  # arrays and objects: the decoder's value-type rule; null: no constraint
    return [_constraint(e.start, e.end, "the versions this module works with", value)]


def _part_problem(part: str) -> str | None:
    if "." in part:
        return "it contains a dot"
    if "--" in part:
        return "it contains two dashes in a row"
    if part.startswith("-") or part.endswith("-"):
        return "it starts or ends with a dash"
    m = _PART_BAD_ASCII.search(part)
    return f"it contains {quoted(m.group())}; only letters, digits and dashes are allowed" if m else None


def source_problem(source: str) -> tuple[str, str] | None:
    """(summary, detail) when Terraform refuses provider source address `source`, else None."""
    parts = source.split("/")
    if not source or len(parts) > 3 or "" in parts:
        return "Invalid provider source string", f"{quoted(source)} is not a provider source address. {_SOURCE_FORM}"
    type_name = parts[-1]
    why = _part_problem(type_name)
    if why is None and type_name.lower().startswith("terraform-provider-"):
        why = ("it starts with \"terraform-provider-\", the prefix of the provider's repository name, "
               f"which is not part of its type (write {quoted(type_name[len('terraform-provider-'):])})")
    if why is not None:
        return "Invalid provider type", f"The provider type {quoted(type_name)} in {quoted(source)} is not valid: {why}."
    if len(parts) >= 2 and parts[-2] != "-":
        why = _part_problem(parts[-2])
        if why is not None:
            return "Invalid provider namespace", f"The namespace {quoted(parts[-2])} in {quoted(source)} is not valid: {why}."
    if len(parts) == 3:
        m = _HOST_BAD_ASCII.search(parts[0])
        if m is not None:
            return ("Invalid provider source hostname",
                    f"The hostname {quoted(parts[0])} in {quoted(source)} is not valid: it contains {quoted(m.group())}.")
    return None


def _requirement(node: Node, start: int, text: str, out: list[Diagnostic]) -> None:
    """One entry of `required_providers` (absolute start `start`): an object, or a version string."""
    if node.kind == STRING:
        value = string_text(text, node, start)
        if not constraint_syntax_ok(value):
            out.append(_constraint(start, start + node.end - node.start, "the provider versions this module works with", value))
        return
    if node.kind != OBJECT:
        return  # the shape rule's (validate.required_providers)
    inner = start  # the members' positions are relative to their object
    for m in node.items:  # type: ignore[attr-defined]
        k, v = m.key, m.value
        if k is None or k.kind != STRING or v is None or v.kind in ("error", "bare"):
            continue
        name = string_text(text, k, inner + k.start)
        vs, ve = inner + v.start, inner + v.end
        if name == "version":
            if v.kind != STRING:
                out.append(Diagnostic(vs, ve, ERROR, INVALID_VERSION_CONSTRAINT, "Invalid version constraint",
                                      f"A provider's \"version\" takes a string of version constraints, such as "
                                      f"\"~> 5.0\", but this is {kind_phrase(v)}."))
            else:
                value = string_text(text, v, vs)
                if not constraint_syntax_ok(value):
                    out.append(_constraint(vs, ve, "the provider versions this module works with", value))
        elif name == "source":
            if v.kind != STRING:
                out.append(Diagnostic(vs, ve, ERROR, INVALID_PROVIDER_SOURCE, "Invalid provider source",
                                      f"A provider's \"source\" takes a string, such as \"hashicorp/aws\", but this is "
                                      f"{kind_phrase(v)}."))
                continue
            problem = source_problem(string_text(text, v, vs))
            if problem is not None:
                out.append(Diagnostic(vs, ve, ERROR, INVALID_PROVIDER_SOURCE, *problem))


def requirement_diagnostics(block: Block, text: str) -> list[Diagnostic]:
    """The rules above for top-level `terraform` block `block`."""
    out: list[Diagnostic] = []
    for a in block.body.attributes:
        if a.name == "required_version":
            out.extend(_required_version(a, text))
        elif a.name == "required_providers" and a.expr is not None:
            e = a.expr
            node = e.node
            if node.kind == OBJECT:
                objects = [(node, e.start)]
            elif node.kind == ARRAY:  # several required_providers blocks written as an array
                objects = [(m.value, e.start + m.value.start) for m in node.items  # type: ignore[attr-defined]
                           if m.value is not None and m.value.kind == OBJECT]
            else:
                continue
            for obj, at in objects:
                for m in obj.items:  # type: ignore[attr-defined]
                    v = m.value
                    if v is not None and v.kind != NULL:
                        _requirement(v, at + v.start, text, out)
    return out
