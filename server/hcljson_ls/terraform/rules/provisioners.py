"""The built-in provisioners (`local-exec`, `remote-exec`, `file`) and the `connection` block
checked against their schemas, as `terraform validate` checks them.

    provisioner_diagnostics(block, text) -> list[Diagnostic]    one top-level `resource` block
    provisioner_schema(type_name) -> SchemaBlock | None
    provisioner_types() -> tuple[str, ...]                       the built-in types, sorted
    CONNECTION_SCHEMA

Data
----
`data/builtin-provisioners.schema.json`: the provisioners' schemas and the connection block's
(Terraform's `ConnectionBlockSupersetSchema`: the arguments of every connection type) in the shape
of `providers schema -json`, transcribed from Terraform's source (the file says where from).

Contract
--------
* Only provisioners of a built-in type count (and their connections).
* Each `provisioner` block of a built-in type has its body checked by the schema rules
  (`provider_rules.validate_resource`: `schema/unknown-argument` with "Did you mean", `schema/missing-argument`,
  `schema/wrong-kind`, ...), a missing argument at the body's closing brace as Terraform reports
  it. A provisioner of another type is left alone (Terraform looks for a plugin installed by hand).
* `provisioner/invalid-config` (error, on the provisioner's type): what the provisioner itself
  validates: `file` needs exactly one of `source` and `content`, `remote-exec` exactly one of
  `inline`, `script` and `scripts` (a `null` value is not set; any other value is).
* Terraform checks a connection only for a provisioner that uses it (`NodeValidatableResource.
  validateProvisioner`): the provisioner's own `connection` merged over the resource's
  (`configs.MergeBodies`), else either one alone. So with at least one provisioner: the values'
  types of every connection are checked; a connection read alone is also checked for unknown
  arguments and needs `host` (the resource's: when a provisioner has no connection of its own;
  a provisioner's: when the resource has none); in a merge, the resource's connection still needs
  `host` (it is read with the whole schema) and unknown arguments go unreported on both sides.
  A missing `host` is reported at the connection's closing brace, as Terraform does.
* Pure: reads only its packaged data (once).
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from importlib import resources

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Block, Body
from ...hcljson.values import quoted, string_text
from ...jsonsyntax.tree import NULL, STRING
from ..definition.catalogue import DESTROY_PROVISIONER_REFERENCES, DESTROY_PROVISIONER_ROOTS, REMOVED_PROVISIONERS
from ..resolution.reference_walk import expression_references
from ..resolution.references import Reference
from ..schemas.provider_schema import SchemaBlock, schema_block
from .provider_rules import MISSING_ARGUMENT, NOT_IN_THIS_VERSION, UNKNOWN_ARGUMENT, validate_resource

__all__ = ["DESTROY_REFERENCE", "INVALID_CONFIG", "REMOVED", "provisioner_diagnostics", "provisioner_schema",
           "provisioner_types", "connection_schema"]

INVALID_CONFIG = "provisioner/invalid-config"
REMOVED = "provisioner/removed"
DESTROY_REFERENCE = "provisioner/destroy-reference"

#: Arguments of which a provisioner needs exactly one (Terraform's `ValidateProvisionerConfig`).
_ONE_OF = {
    "file": ("source", "content"),
    "remote-exec": ("inline", "script", "scripts"),
}


@functools.cache
def _data() -> dict:
    return json.loads(resources.files("hcljson_ls.terraform").joinpath("data/builtin-provisioners.schema.json").read_text(encoding="utf-8"))


@functools.cache
def provisioner_schema(type_name: str) -> SchemaBlock | None:
    """The schema of built-in provisioner `type_name`, or None."""
    raw = _data()["provisioners"].get(type_name)
    return schema_block(raw) if raw is not None else None


def provisioner_types() -> tuple[str, ...]:
    """The built-in provisioner types (`file`, `local-exec`, `remote-exec`)."""
    return tuple(sorted(_data()["provisioners"]))


@functools.cache
def connection_schema() -> SchemaBlock:
    """The arguments of a `connection` block (every connection type's)."""
    return schema_block(_data()["connection"])


def _plain(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The schema rules' wording without its remark about provider versions (these schemas are Terraform's)."""
    return [replace(d, detail=d.detail.replace(f" {NOT_IN_THIS_VERSION}", "")) if NOT_IN_THIS_VERSION in d.detail else d
            for d in diags]


def _set(body: Body, name: str) -> bool:
    a = body.attribute(name)
    return a is not None and a.expr is not None and a.expr.kind != NULL


def _one_of(prov: Block, type_name: str) -> list[Diagnostic]:
    names = _ONE_OF.get(type_name)
    if names is None or prov.body.node is None:
        return []
    count = sum(_set(prov.body, n) for n in names)
    if count == 1:
        return []
    lab = prov.labels[0]
    if type_name == "file":
        summary = "Cannot set both 'source' and 'content'" if count else "Must provide one of 'source' or 'content'"
        detail = "The file provisioner copies either a local file (source) or the given text (content): set exactly one of them."
    else:
        summary = "Invalid remote-exec provisioner configuration"
        detail = 'Only one of "inline", "script", or "scripts" must be set.'
    return [Diagnostic(lab.start, lab.end, ERROR, INVALID_CONFIG, summary, detail)]


def _connection(body: Body, text: str, alone: bool) -> list[Diagnostic]:
    """The connection `body` checked (see the module doc), but for the required `host`; unknown
    arguments only when it is read `alone`."""
    found = validate_resource(body, connection_schema(), text, where='the "connection" block', known=True)
    return [d for d in found if d.code != MISSING_ARGUMENT and (alone or d.code != UNKNOWN_ARGUMENT)]


def _missing_host(body: Body) -> Diagnostic:
    start, end = body.missing_item_range
    return Diagnostic(start, end, ERROR, MISSING_ARGUMENT, 'Missing required argument "host"',
                      'The argument "host" (type string) is required in the "connection" block, but it is not set.')


def _when(prov: Block, text: str) -> str | None:
    a = prov.body.attribute("when")
    if a is None or a.expr is None or a.expr.kind != STRING:
        return None
    return string_text(text, a.expr.node, a.expr.start)


def _allowed_at_destroy(ref: Reference) -> bool:
    if ref.root in DESTROY_PROVISIONER_ROOTS:
        return True
    return len(ref.steps) == 1 and not ref.rest and (ref.root, ref.steps[0].name) in DESTROY_PROVISIONER_REFERENCES \
        and not ref.steps[0].index


def _destroy_references(body: Body, text: str) -> list[Diagnostic]:
    """What Terraform's `onlySelfRefs` says of the arguments of a destroy-time provisioner's
    `body` (or of its connection's): one error per reference to anything but the resource itself,
    on the argument's whole value, as Terraform reports it."""
    out: list[Diagnostic] = []
    for a in body.attributes:
        if a.expr is None or a.name in ("when", "on_failure"):
            continue
        for ref in expression_references(text, a.expr):
            if isinstance(ref, Reference) and not _allowed_at_destroy(ref):
                name = text[ref.start : ref.end_all]
                out.append(Diagnostic(
                    a.expr.start, a.expr.end, ERROR, DESTROY_REFERENCE, "Invalid reference from destroy provisioner",
                    f"A destroy-time provisioner (and its connection) may refer only to the resource itself, through "
                    f"\"self\", \"count.index\" or \"each.key\", but this refers to {quoted(name)}: other objects may "
                    "already be gone when it runs, and such references make dependency cycles.",
                ))
    return out


def provisioner_diagnostics(block: Block, text: str) -> list[Diagnostic]:
    """The diagnostics of the provisioners and connections of top-level resource `block`."""
    if block.type_name != "resource":
        return []
    provisioners = block.body.blocks_of("provisioner")
    if not provisioners:
        return []
    out: list[Diagnostic] = []
    bases = block.body.blocks_of("connection")
    base = bases[0].body if bases else None
    base_alone = False  # some provisioner uses the resource's connection as it is
    merged = False  # some provisioner merges its own over it
    for prov in provisioners:
        if not prov.labels:
            continue
        type_name = prov.labels[0].value
        if type_name in REMOVED_PROVISIONERS:
            lab = prov.labels[0]
            out.append(Diagnostic(
                lab.start, lab.end, ERROR, REMOVED, f"The {quoted(type_name)} provisioner has been removed",
                f"Terraform 0.15 removed the {quoted(type_name)} provisioner (deprecated since 0.13.4). Run the tool "
                "from a local-exec or remote-exec provisioner, or better, outside Terraform (an image built "
                "beforehand, cloud-init, a configuration management run).",
            ))
            continue  # Terraform reads nothing else of it
        if _when(prov, text) == "destroy":
            out.extend(_destroy_references(prov.body, text))
            for own_connection in prov.body.blocks_of("connection")[:1]:
                out.extend(_destroy_references(own_connection.body, text))
        schema = provisioner_schema(type_name)
        if schema is None or prov.body.node is None:
            continue  # Terraform stops at the missing plugin: its connection is not read either
        out.extend(validate_resource(prov.body, schema, text, where=f"the {quoted(type_name)} provisioner"))
        out.extend(_one_of(prov, type_name))
        own = prov.body.blocks_of("connection")
        if own:
            conn = own[0].body
            merged = True
            out.extend(_connection(conn, text, alone=base is None))
            if base is None and not _set(conn, "host"):
                out.append(_missing_host(conn))
        else:
            base_alone = True
    if base is not None and (base_alone or merged):
        out.extend(_connection(base, text, alone=base_alone))
        if not _set(base, "host"):
            out.append(_missing_host(base))
    out.sort(key=lambda d: (d.start, d.end, d.code))
    return _plain(out)
