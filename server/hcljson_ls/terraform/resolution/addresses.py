"""The address rules of `moved`, `import` and `removed` blocks, as Terraform's `internal/configs`
(moved.go, import.go, removed.go) and `internal/addrs` (parse_target.go, remove_target.go,
module.go) apply them when the configuration loads.

    address_rules(block, text) -> list[Diagnostic]     one top-level block (none for other types)

Code (docs/diagnostics.md, "Addresses of moved, import and removed blocks"): `structure/invalid-address`,
an error:
* `import.to` names a data source or a module ("Invalid import address": only managed resources
  can be imported), on the whole argument;
* `removed.from` names a data source ("Data source address not allowed"), or has an instance key
  ("Resource instance keys not allowed", "Module instance keys not allowed"), on the value or the key;
* a `removed` block's provisioners when it removes no managed resource, or not at destroy time
  ("Invalid provisioner block"), where Terraform reports it: the provisioner's body `{` (`values.defined_at`);
* `moved.from` and `moved.to` name different kinds of object, a resource and a module
  ('Invalid "moved" addresses'), at the block's body `{`, as Terraform.
* `moved.from`, `moved.to` or `import.to` starts (after any `module.x` steps) with a reserved word
  (`var`, `local`, `count`, ...: `RESERVED_ROOTS`) where a resource type goes ("Invalid address"),
  from that word to the end of the address; `removed.from` takes them (Terraform parses it without
  that check).

Also here: `import_target(text, attr)`, the static address an `import` block's `to` names, by which
Terraform finds two import blocks of a module for one resource instance (`validate.definitions`
keys them; the duplicate is reported with the other duplicates, `validate.duplicates`).

Contract: addresses are read from plain JSON strings (a string with escapes or a template is left to
the reference rules); never raises; a malformed address is the reference rules' to report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Attribute, Block
from ...hcljson.values import defined_at, quoted, string_text
from ...jsonsyntax.tree import STRING
from ...template.lexer import IDENTIFIER_PATTERN
from ..definition import catalogue

INVALID_ADDRESS = "structure/invalid-address"

_STEP = re.compile(rf"({IDENTIFIER_PATTERN})|\.|(\[[^\]]*\])")


@dataclass(frozen=True, slots=True)
class _Step:
    name: str  # "" for an index
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Address:
    kind: str  # "resource", "data" or "module"
    module_keys: tuple[_Step, ...]  # instance keys of module steps
    resource_keys: tuple[_Step, ...]  # the instance key of the resource, if any
    start: int
    end: int
    reserved: _Step | None = None  # a reserved word where a resource type goes (`var.a`)


#: Words that are no resource type where a resource address is parsed (the catalogue's).
RESERVED_ROOTS = catalogue.RESERVED_ADDRESS_ROOTS


def _parse(text: str, attr: Attribute | None) -> _Address | None:
    """The address in `attr`'s plain string value (absolute positions), or None."""
    if attr is None or attr.expr is None or attr.expr.node.kind != STRING:
        return None
    node, start = attr.expr.node, attr.expr.start
    if getattr(node, "escaped", False):
        return None
    raw = text[start + 1 : attr.expr.end - 1]
    if "${" in raw or not raw:
        return None
    steps: list[_Step] = []
    at = 0
    while at < len(raw):
        m = _STEP.match(raw, at)
        if m is None:
            return None
        if m.group(1):
            steps.append(_Step(m.group(1), start + 1 + m.start(), start + 1 + m.end()))
        elif m.group(2):
            steps.append(_Step("", start + 1 + m.start(), start + 1 + m.end()))
        at = m.end()
    module_keys: list[_Step] = []
    i = 0
    while i < len(steps) and steps[i].name == "module":
        if i + 1 >= len(steps) or not steps[i + 1].name:
            return None
        i += 2
        if i < len(steps) and not steps[i].name:
            module_keys.append(steps[i])
            i += 1
    rest = steps[i:]
    if not rest:
        return _Address("module", tuple(module_keys), (), start, attr.expr.end) if module_keys or i else None
    kind = "resource"
    if rest[0].name in RESERVED_ROOTS:
        return _Address(kind, tuple(module_keys), (), start, attr.expr.end, rest[0])
    if rest[0].name == "data":
        kind, rest = "data", rest[1:]
    names = [s for s in rest if s.name]
    keys = tuple(s for s in rest if not s.name)
    if len(names) != 2:
        return None
    return _Address(kind, tuple(module_keys), keys, start, attr.expr.end)


_KEY = r'\[\s*(?:\d+|"[^"\\]*")\s*\]'
#: A resource instance address Terraform parses statically (configs/import.go `parseImportToStatic`):
#: module steps, each with at most one literal key, then `[data.]type.name` and at most one literal
#: key. Blanks inside the brackets are allowed, as HCL's traversal syntax allows them.
_STATIC_INSTANCE = re.compile(
    rf"((?:module\.{IDENTIFIER_PATTERN}(?:{_KEY})?\.)*)(data\.)?({IDENTIFIER_PATTERN})\.({IDENTIFIER_PATTERN})({_KEY})?"
)
_STATIC_STEP = re.compile(rf"module\.({IDENTIFIER_PATTERN})({_KEY})?\.")


def _instance_key(key: str | None) -> str:
    """A literal instance key in one spelling: `[ 00 ]` and `[0]` are the number 0, `["0"]` a string."""
    if not key:
        return ""
    inner = key[1:-1].strip()
    return f"[{inner}]" if inner.startswith('"') else f"[{int(inner)}]"


def import_target(text: str, attr: Attribute | None) -> tuple[str, str] | None:
    """The resource instance `attr` (an `import` block's `to`, a JSON string) names, when it is a
    static address (`static_instance`), or None."""
    if attr is None or attr.expr is None or attr.expr.node.kind != STRING:
        return None
    return static_instance(string_text(text, attr.expr.node, attr.expr.start))


def static_instance(address: str) -> tuple[str, str] | None:
    """The resource instance `address` names, when it is a static address: `(instance, resource)`,
    the instance address in one spelling (equal for the addresses Terraform finds equal: `a.b[0]`
    and `a.b[ 00 ]`, not `a.b` and `a.b[0]`, nor `a.b[0]` and `a.b["0"]`) and the resource's address
    without instance keys (how Terraform's message names it). None for anything else (a reference
    in a key, a template, a key with escapes, a malformed or reserved address): Terraform compares
    only static addresses, so none of these is ever a duplicate."""
    m = _STATIC_INSTANCE.fullmatch(address)
    if m is None or m.group(3) in RESERVED_ROOTS or m.group(3) == "data":
        return None
    modules = [(step.group(1), _instance_key(step.group(2))) for step in _STATIC_STEP.finditer(m.group(1))]
    resource = f"{m.group(2) or ''}{m.group(3)}.{m.group(4)}"
    instance = "".join(f"module.{name}{key}." for name, key in modules) + resource + _instance_key(m.group(5))
    return instance, "".join(f"module.{name}." for name, _ in modules) + resource


def _diag(start: int, end: int, summary: str, detail: str) -> Diagnostic:
    return Diagnostic(start, end, ERROR, INVALID_ADDRESS, summary, detail)


def address_rules(block: Block, text: str) -> list[Diagnostic]:
    t = block.type_name
    body = block.body
    out: list[Diagnostic] = []
    if t in catalogue.RESOURCE_ADDRESS_ARGUMENTS:
        for name in catalogue.RESOURCE_ADDRESS_ARGUMENTS[t]:
            address = _parse(text, body.attribute(name))
            if address is not None and address.reserved is not None:
                word = address.reserved
                out.append(_diag(word.start, address.end - 1, "Invalid address",
                                 f"{quoted(word.name)} is a reserved word, not a resource type, so this is no resource address. "
                                 f"To name a resource type spelled like it, write \"resource.{word.name}...\"."))
    if t == "import":
        attr = body.attribute("to")
        address = _parse(text, attr)
        if address is not None and address.kind != "resource":
            out.append(_diag(attr.start, attr.end, "Invalid import address",  # type: ignore[union-attr]
                             "Only managed resources can be imported."))
    elif t == "removed":
        address = _parse(text, body.attribute("from"))
        if address is not None:
            if address.kind == "data":
                out.append(_diag(address.start, address.end, "Data source address not allowed",
                                 "Data sources are never destroyed, so they are not valid targets of removed blocks. "
                                 "To remove the data source from state, remove the data source block from configuration."))
            for key in address.module_keys[:1]:
                out.append(_diag(key.start, key.end, "Module instance keys not allowed",
                                 "Module address must be a module (e.g. \"module.foo\"), not a module instance "
                                 "(e.g. \"module.foo[1]\")."))
            for key in address.resource_keys[:1]:
                out.append(_diag(key.start, key.end, "Resource instance keys not allowed",
                                 "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource "
                                 "instance (e.g. \"test_instance.foo[1]\")."))
            for p in body.blocks_of("provisioner"):
                if address.kind != "resource":
                    out.append(_diag(*defined_at(text, p.header_range), "Invalid provisioner block",
                                     "Provisioners are valid only when a removed block targets a managed resource."))
                    continue
                when = p.body.attribute("when")
                value = text[when.expr.start + 1 : when.expr.end - 1] if when is not None and when.expr is not None else ""
                if value != "destroy":
                    out.append(_diag(*defined_at(text, p.header_range), "Invalid provisioner block",
                                     "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a "
                                     "destroy-time provisioner, use: \"when\": \"destroy\"."))
    elif t == "moved":
        source, target = _parse(text, body.attribute("from")), _parse(text, body.attribute("to"))
        if source is not None and target is not None and (source.kind == "module") != (target.kind == "module"):
            out.append(_diag(*defined_at(text, block.header_range), "Invalid \"moved\" addresses",
                             "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules."))
    out.sort(key=lambda d: (d.start, d.end))
    return out
