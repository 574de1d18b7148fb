"""Query files in JSON (`*.tfquery.json`, Terraform 1.14): the `list` blocks `terraform query` reads.

    is_query_file(name) -> bool      a query file, by name (any case): `catalogue.QUERY_JSON`
    QUERY_SCHEMA                     the root body of a query file
    QueryChecks(scope)               the analysis' part (`hcljson.incremental.FileChecks`)

Contract
--------
* The root holds what Terraform's `internal/configs/query_file.go` decodes: `list "<type>" "<name>"`
  (`provider` required, `count`, `for_each`, `include_resource`, `limit`, one `config` block whose
  arguments the provider's list resource defines), `provider "<name>"`, `locals` and
  `variable "<name>"` (the configuration's bodies, `schema`). Anything else is unknown.
* Rules of one block: a list name must be an identifier (`structure/invalid-name`), `count` and
  `for_each` exclude each other (`structure/conflicting-arguments`); strings by mode
  (`templates.check_block`).
* `terraform query` adds the file's variables, locals and providers to the module of its directory,
  but a configuration file never sees them (a query file is loaded only by `terraform query`): the
  file's own declarations (`validate.definitions` keys, and `("list", type, name)` for its list
  blocks) resolve its own references, with the module's declarations (`scope`); nothing of the file
  reaches the module's other files (`workspace`: not one of its files). `list.<type>.<name>` must
  name a list block of the file (`reference/undeclared`). Duplicates within the file are the
  configuration's (`validate.duplicates`).
* A list block's `config` body is checked against its provider's `list_resource_schemas` entry
  (`provider_rules.check_sites`: the provider from the `provider` argument's local name and the
  module's `required_providers`), when the module's schemas have it; an unknown type is reported
  when the provider lists its list resources.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...diagnostic import ERROR, Diagnostic, Fix, Related
from ...hcljson.incremental import FileChecks
from ...hcljson.model import Block
from ...hcljson.problems import suggestion
from ...hcljson.schema import EXPRESSION, BlockSchema, BodySchema
from ...hcljson.schema import AttributeSchema as A
from ...hcljson.values import quoted
from ..definition import catalogue
from ..definition.schema import COUNT, FOR_EACH, LOCALS, PROVIDER, PROVIDER_DEFINED_BODY, RESOURCE_PROVIDER, VARIABLE
from ..expressions.templates import check_block
from ..resolution.reference_walk import block_references
from ..resolution.references import UNEVALUATED, Reference
from ..resolution.resolve import SCHEMAS_CHANGED, Scope, affected, required_providers, resolve
from ..rules.provider_rules import SchemaSite, check_sites
from ..rules.validate import CONFLICTING_ARGUMENTS, block_diagnostics, definitions, duplicates
from ..schemas.provider_schema import TERRAFORM
from .testfile import block_rules

__all__ = ["QUERY_SCHEMA", "QueryChecks", "is_query_file"]


def is_query_file(name: str | None) -> bool:
    """True for a JSON query file name, path or URI (`x.tfquery.json`; any case)."""
    return bool(name) and catalogue.file_kind(name, ignore_case=True) == catalogue.QUERY_JSON  # type: ignore[arg-type]


LIST = BlockSchema(
    "list", ("type", "name"),
    BodySchema.of(
        attributes=[
            # Terraform checks `provider` itself, at the block's definition (the body's `{`).
            A("provider", True, RESOURCE_PROVIDER.mode, "The provider configuration that lists the objects, as `\"<name>\"` or `\"<name>.<alias>\"`.",
              missing_at_open=True),
            COUNT, FOR_EACH,
            A("include_resource", False, EXPRESSION, "Whether each result includes the full resource object (default false)."),
            A("limit", False, EXPRESSION, "The most results to return (default 100)."),
        ],
        blocks=[BlockSchema("config", (), PROVIDER_DEFINED_BODY, "The filter arguments of the provider's list resource.", max_items=1)],
    ),
    "A query of existing infrastructure objects of a type, to import them (`terraform query`).",
)

QUERY_SCHEMA = BodySchema.of(
    blocks=[LIST, PROVIDER, LOCALS, VARIABLE],
    description="A Terraform query file: `list` blocks run by `terraform query` (Terraform 1.14).",
)


def _list_rules(text: str, block: Block) -> list[Diagnostic]:
    out = block_rules(text, block)
    count, for_each = block.body.attribute("count"), block.body.attribute("for_each")
    if count is not None and for_each is not None:
        first, second = (count, for_each) if count.name_start <= for_each.name_start else (for_each, count)
        out.append(Diagnostic(second.name_start, second.name_end, ERROR, CONFLICTING_ARGUMENTS,
                              'Invalid combination of "count" and "for_each"',
                              'The "count" and "for_each" meta-arguments are mutually-exclusive.',
                              (Related(first.name_start, first.name_end, f"{quoted(first.name)} is set here"),)))
    return out


class QueryChecks(FileChecks):
    """A query file's rules, strings, declarations and references (see the module doc); `scope`
    answers for the module of its directory (None: the file alone)."""

    __slots__ = ("scope",)

    def __init__(self, scope: Scope | None = None) -> None:
        self.scope = scope

    def block(self, text: str, block: Block):
        refs: list[Any] = list(block_references(text, block))
        if block.type_name == "list":
            rules = _list_rules(text, block)
            labels = block.label_values
            defs = [(("list", *labels), *block.header_range)] if len(labels) == 2 else []
            if len(labels) == 2:
                refs = [*refs, SchemaSite(block)]  # its `config` against the list resource's schema
        else:
            rules = block_diagnostics(block, text)
            defs = definitions(block, text)
        return rules, check_block(text, block, evaluated=False), defs, refs

    def resolve(self, refs, own: frozenset, text):
        sites = [r for r in refs if type(r) is SchemaSite]
        refs = [r for r in refs if type(r) is not SchemaSite]
        out, uses = self._references(refs, own)
        schemas = self.scope.provider_schemas if self.scope is not None else None
        if not sites or schemas is None:
            return out, (uses | {SCHEMAS_CHANGED}) if sites else uses
        found, used = check_sites(sites, schemas, text, required_providers(own, self.scope), self.scope.engine or TERRAFORM)  # type: ignore[union-attr]
        return sorted([*out, *found], key=lambda d: (d.start, d.end)), uses | used | {SCHEMAS_CHANGED}

    def _references(self, refs, own: frozenset):
        lists = [r for r in refs if type(r) is Reference and r.root == "list"]
        # UNEVALUATED: what evaluation of a query file says of the types of values is not checked.
        others = [replace(r, context=r.context | UNEVALUATED) if type(r) is Reference else r
                  for r in refs if not (type(r) is Reference and r.root == "list")]
        out, uses = resolve(others, own, self.scope)
        for ref in lists:
            found = _list_reference(ref, own)
            if found is not None:
                out.append(found)
        out.sort(key=lambda d: (d.start, d.end))
        return out, uses | {("list", "*")} if lists else uses

    def affected(self, changed: frozenset) -> frozenset:
        found = affected(changed)
        return found | {("list", "*")} if any(k[0] == "list" for k in changed if isinstance(k, tuple) and k) else found

    def cross(self, keys, place, text) -> list[Diagnostic]:
        return duplicates(keys, place, text)


def _list_reference(ref: Reference, own: frozenset) -> Diagnostic | None:
    if len(ref.steps) < 2 or ("list", ref.steps[0].name, ref.steps[1].name) in own:
        return None
    names = sorted(f"{k[1]}.{k[2]}" for k in own if k[0] == "list" and len(k) == 3)
    written = f"{ref.steps[0].name}.{ref.steps[1].name}"
    hint = suggestion(written, names)
    start, end = ref.steps[0].start, ref.steps[1].end
    return Diagnostic(start, end, ERROR, "reference/undeclared", f"Reference to undeclared list block {quoted('list.' + written)}",
                      f"This query file declares no list block {quoted(written)}." + (f" Did you mean {quoted('list.' + hint)}?" if hint else ""),
                      (), (Fix(start, end, hint, f"Change to {quoted('list.' + hint)}"),) if hint else ())
