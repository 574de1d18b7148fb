"""Plain values read from the native-syntax files that are not configuration: the dependency lock
file (`.terraform.lock.hcl`) and a native variable definitions file (`terraform.tfvars`), parsed
with the tree-sitter-hcl grammar `terraform.native` already uses.

    lock_versions(text) -> {provider address: version}      `provider "<address>" { version = "..." }`
    assignments(text) -> {name: expression as written}      the top-level `name = value` lines
    written_at(text, start, argument=None) -> str | None    a value as written, see below

Contract
--------
* Never raises: broken syntax yields whatever tree-sitter recovered (a block or attribute inside an
  error node is skipped, as is a `version` that is not a plain string literal).
* `written_at`: the source text of the value of the attribute whose name starts at character
  `start` (a local value), or with `argument`, of that argument of the block whose label starts
  there (a variable's `default`); None when there is none. Quotes are kept: `"a"` is a string,
  `true` a bool.
* Addresses are as the lock file writes them (`registry.terraform.io/hashicorp/aws`); expressions
  are the source text of the value, whitespace kept.
"""

from __future__ import annotations

from typing import Any

from .native import _parser


def _text(node: Any, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _children(node: Any, kind: str) -> list[Any]:
    return [c for c in node.named_children if c.type == kind]


def _top_body(data: bytes) -> Any:
    root = _parser().parse(data).root_node
    bodies = _children(root, "body")
    return bodies[0] if bodies else None


def _plain_string(expr: Any, data: bytes) -> str | None:
    """The value of a string literal without templates or escapes, else None."""
    node = expr
    while node is not None and node.type in ("expression", "literal_value"):
        node = node.named_children[0] if node.named_child_count == 1 else None
    if node is None or node.type != "string_lit":
        return None
    inner = [c for c in node.named_children if c.type not in ("quoted_template_start", "quoted_template_end")]
    if not inner:
        return ""
    if len(inner) != 1 or inner[0].type != "template_literal" or "\\" in _text(inner[0], data):
        return None
    return _text(inner[0], data)


def _attributes(body: Any, data: bytes) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attr in _children(body, "attribute"):
        names = _children(attr, "identifier")
        exprs = _children(attr, "expression")
        if names and exprs:
            out.setdefault(_text(names[0], data), exprs[0])
    return out


def lock_versions(text: str) -> dict[str, str]:
    """The version the lock file pins per provider address."""
    data = text.encode("utf-8", "surrogatepass")
    body = _top_body(data)
    out: dict[str, str] = {}
    if body is None:
        return out
    for block in _children(body, "block"):
        kind = _children(block, "identifier")
        labels = _children(block, "string_lit")
        inner = _children(block, "body")
        if not kind or _text(kind[0], data) != "provider" or len(labels) != 1 or not inner:
            continue
        address = _plain_string(labels[0], data)
        version_expr = _attributes(inner[0], data).get("version")
        version = _plain_string(version_expr, data) if version_expr is not None else None
        if address and version:
            out.setdefault(address, version)
    return out


def assignments(text: str) -> dict[str, str]:
    """The top-level attributes of a native file: name -> the value's source text."""
    data = text.encode("utf-8", "surrogatepass")
    body = _top_body(data)
    if body is None:
        return {}
    found = {name: _text(expr, data).strip() for name, expr in _attributes(body, data).items()}
    return {name: value for name, value in found.items() if value}


def written_at(text: str, start: int, argument: str | None = None) -> str | None:
    data = text.encode("utf-8", "surrogatepass")
    at = len(text[:start].encode("utf-8", "surrogatepass"))
    node = _parser().parse(data).root_node.descendant_for_byte_range(at, at)
    while node is not None and node.type not in ("block", "attribute"):
        node = node.parent
    if node is None:
        return None
    if argument is None:
        if node.type != "attribute":
            return None
        exprs = _children(node, "expression")
        return _text(exprs[0], data).strip() if exprs else None
    if node.type != "block":
        return None
    bodies = _children(node, "body")
    expr = _attributes(bodies[0], data).get(argument) if bodies else None
    return _text(expr, data).strip() if expr is not None else None
