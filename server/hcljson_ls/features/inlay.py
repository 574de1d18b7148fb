"""Inlay hints: beside `var.x` the value the variable takes, beside `local.y` its value when it is a
literal.

    value_hints(snapshot, uri, start=None, end=None) -> list[Hint]
    tfvars_values(directory) -> {name: (value as written, file name)}
    shorten(value, limit=MAX_LABEL) -> str

Contract
--------
* A hint follows each reference (`DocumentState.analysis` refs) that is exactly `var.<name>` or
  `local.<name>` (a reference with further steps, `var.obj.key`, gets none), at the end of its
  name, when the reference lies in `[start, end]` (None: the whole document).
* A variable's value: the one the module's variable definitions files set, read as Terraform
  loads them (`terraform.tfvars`, `terraform.tfvars.json`, then `*.auto.tfvars` and
  `*.auto.tfvars.json` in name order; a later file wins; an open document's text over the disk's),
  else the default of its declaration (`features.tfvars.module_variables`), else no hint.
* A local value's: its expression when it is a literal (JSON without `${`/`%{` in any string, or a
  native number, bool, null or plain quoted string), else no hint.
* The label is `= <value>` in compact JSON (native values as written, whitespace collapsed), cut to
  `MAX_LABEL` characters with `…`; the tooltip says where the value comes from.
* Never raises on odd input; a broken or unreadable tfvars file sets nothing.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from ..terraform.definition import catalogue
from ..terraform.nativehcl.native_values import assignments, written_at
from ..terraform.resolution.references import Reference
from ..workspace import Snapshot
from ..workspace.files import list_directory, uri_of_path
from .tfvars import Declared, module_variables

MAX_LABEL = 30
_NATIVE_LITERAL = re.compile(r'^(?:"(?:[^"\\$%]|\\.|\$(?!\{)|%(?!\{))*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$')


@dataclass(frozen=True, slots=True)
class Hint:
    offset: int
    label: str
    tooltip: str


def shorten(value: str, limit: int = MAX_LABEL) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _compact(written: str) -> str:
    """A JSON value as written, in compact form (as written, whitespace collapsed, when not JSON)."""
    try:
        return json.dumps(json.loads(written), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return written


def _is_literal_json(value: object) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str) and ("${" in v or "%{" in v):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def _tfvars_files(directory: str) -> list[str]:
    names = list_directory(directory).files
    # Terraform loads terraform.tfvars, then terraform.tfvars.json, then the *.auto.tfvars(.json) files in name order
    return sorted((n for n in names if catalogue.is_auto_tfvars(n)), key=lambda n: (catalogue.stem(n) != "terraform", n))


def tfvars_values(snapshot: Snapshot, directory: str) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for name in _tfvars_files(directory):
        text = snapshot.text_of(uri_of_path(os.path.join(directory, name)))
        if text is None:
            continue
        text = str(text)
        if name.endswith(".json"):
            try:
                values = json.loads(text)
            except (ValueError, RecursionError):
                continue
            if isinstance(values, dict):
                for key, value in values.items():
                    out[key] = (json.dumps(value, ensure_ascii=False, separators=(",", ":")), name)
        else:
            for key, written in assignments(text).items():
                out[key] = (written, name)
    return out


def _local_value(snapshot: Snapshot, uri: str, name: str) -> str | None:
    sites = snapshot.declaration_sites(uri, ("local", name))
    if len(sites) != 1:
        return None
    site_uri, start, _ = sites[0]
    if catalogue.file_kind(site_uri) == catalogue.CONFIG_NATIVE:
        written = written_at(snapshot.text_of(site_uri) or "", start)
        return written if written is not None and _NATIVE_LITERAL.match(written) else None
    view = snapshot.view_of(site_uri)
    if view is None:
        return None
    text, body = view
    for block in body.blocks_at(start):
        for attr in block.body.attributes if block.type_name == "locals" else ():
            if attr.name_start == start and attr.expr is not None:
                written = text[attr.expr.start : attr.expr.end]
                try:
                    value = json.loads(written)
                except (ValueError, RecursionError):
                    return None
                return json.dumps(value, ensure_ascii=False, separators=(",", ":")) if _is_literal_json(value) else None
    return None


def _default(snapshot: Snapshot, declared: Declared) -> str | None:
    if declared.default is None:
        return None
    site_uri, start, _ = declared.sites[0]
    if catalogue.file_kind(site_uri) == catalogue.CONFIG_NATIVE:  # as written: quotes kept
        return written_at(snapshot.text_of(site_uri) or "", start, "default")
    return _compact(declared.default)


def value_hints(snapshot: Snapshot, uri: str, start: int | None = None, end: int | None = None) -> list[Hint]:
    state = snapshot.document(uri)
    if state is None:
        return []
    wanted: list[tuple[str, str, int]] = []
    for ref in state.analysis.body.refs():
        if type(ref) is not Reference or ref.root not in ("var", "local") or len(ref.steps) != 1:
            continue
        at = ref.steps[0].end
        if (start is None or ref.start >= start) and (end is None or at <= end):
            wanted.append((ref.root, ref.steps[0].name, at))
    if not wanted:
        return []
    variables = module_variables(snapshot, uri) if any(root == "var" for root, _, _ in wanted) else {}
    directory = snapshot.module_key(uri)
    values = tfvars_values(snapshot, directory) if variables and os.path.isabs(directory) else {}
    locals_: dict[str, str | None] = {}
    out = []
    for root, name, at in wanted:
        if root == "var":
            if name in values and name in variables:
                written, source = values[name]
                out.append(Hint(at, "= " + shorten(written), f"var.{name} is set in {source}"))
            elif name in variables and (default := _default(snapshot, variables[name])) is not None:
                out.append(Hint(at, "= " + shorten(default), f"The default of var.{name}"))
        else:
            if name not in locals_:
                locals_[name] = _local_value(snapshot, uri, name)
            value = locals_[name]
            if value is not None:
                out.append(Hint(at, "= " + shorten(value), f"The value of local.{name}"))
    return sorted(out, key=lambda h: h.offset)
