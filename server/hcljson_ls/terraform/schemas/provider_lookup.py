"""What a provider schema says at a place inside a `resource` or `data` block: the one lookup hover,
completion and semantic tokens share.

    block_address(block, text, required_providers=None, engine=TERRAFORM) -> str | None
    block_schema(block, schemas, text, required_providers=None, engine=TERRAFORM) -> SchemaBlock | None
    body_at(schema, steps) -> SchemaBlock | None
    name_at(schema, steps) -> SchemaAttribute | SchemaBlockType | None
    steps_of(blocks, tail=()) -> tuple[str | int, ...] | None
    nested_body(attribute) -> SchemaBlock | None
    placeholder(attribute) -> str
    resolution_key(schemas, required_providers, engine) -> Hashable
    configuration_used(type_name, meta) -> (PROVIDER_USE, local name, alias) | None
    configuration_declared(block, text) -> (local name, alias) | None     a `provider` block's
    configuration_passed(call, key, value) -> (MODULE_PROVIDERS, call, local, alias, local, alias) | None
    passed_configurations(block, call, text) -> [(fact, key range, value range)]   a JSON call's entries
    provider_config_schema(schemas, local, required_providers, engine, validated=False)

Contract
--------
* `block` is a decoded top-level `resource`, `data`, `ephemeral` or `action` block, or a query
  file's `list` block (labels type and name; an action's or a list's schema is the body of its one
  `config` block: `list_resource_schemas` for a list), or a `provider` block (its one label the
  local name; its schema the provider's configuration: `provider_config_schema`); its provider is
  `provider_schema.provider_for` of its type label, its `provider` meta-argument (a plain JSON
  string; one with `${` is ignored) and the module's `required_providers` (`block_address`).
  `block_schema` is None for any other block, or when the schema of that provider or type is not
  loaded.
* `steps` is a path from the block's body: JSON object keys (`str`) and array indexes (`int`) as
  the configuration writes them, read the way Terraform reads JSON blocks: an index is skipped
  (a list or set block may be one object or an array of objects); after the name of a `map`-nested
  block type or nested attribute type comes its key; `"dynamic", "<type>", "content"` leads to the
  body of block type `<type>` (other keys of a `dynamic` block lead nowhere). A protocol-6
  `nested_type` attribute's objects are bodies of attributes (`nested_body`). A key that is not in
  the schema, or a step into the value of a plain attribute, leads nowhere (None).
* `body_at(schema, steps)` is the schema of the body whose JSON object `steps` reaches;
  `name_at(schema, steps)` the schema of the name `steps[-1]` in the body `steps[:-1]` reaches.
* `steps_of(blocks, tail)` turns a chain of decoded blocks (`hcljson.locate.Context.blocks`:
  the resource or data block first, then `dynamic` and `content` blocks) and the steps below the
  innermost one into steps from the resource body; None when the chain passes through a block the
  provider does not define (`lifecycle`, `provisioner`, ...).
* `placeholder(a)` is a value of `a`'s kind to write for it: `""`, `0`, `false`, `[]` or `{}`.
* `resolution_key` changes whenever what `block_schema` answers for some block may change (other
  schemas, engine, a `required_providers` entry that resolves to another loaded provider); it
  holds the `ProviderSchemas` object itself, so it never matches a later object at the same
  address.
* `configuration_used` is the provider configuration a `resource`, `data` or `ephemeral` block
  uses: its `provider` meta-argument as written (`"aws.west"`: local name and alias; `"aws"`),
  else its type's prefix (`aws_instance`: Terraform's implied provider, no alias); None when that
  is not a plain name or `name.alias` (a `${` in it: Terraform's error, not read here). The
  definitions list it (`validate.definitions`, `quick`), so that a module knows which of its
  `provider` blocks something uses: `terraform validate` reads only those.
* `configuration_passed` is one entry `key = value` of module call `call`'s `providers` map, both
  as written (`"aws.east": "aws.west"`): the child's configuration it sets (local name and alias)
  and the caller's it gives; None when either is not a plain name or `name.alias`. The definitions
  list one per entry (`validate.definitions`, `native`). A call passes its child every default
  configuration its map does not set, as Terraform 1.11 does, with a map or without one
  (`workspace.scope.ModuleScope.passes_down` follows both).
* Pure: no I/O, no state.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ...hcljson.model import Block
from ...hcljson.values import string_text
from ...jsonsyntax.tree import OBJECT, STRING
from ..definition import catalogue
from .provider_schema import (
    MAP,
    SINGLE,
    TERRAFORM,
    ProviderSchemas,
    SchemaAttribute,
    SchemaBlock,
    SchemaBlockType,
    provider_address,
    provider_for,
    provider_of,
)

__all__ = [
    "block_address",
    "block_schema",
    "body_at",
    "configuration_passed",
    "passed_configurations",
    "configuration_used",
    "meta_provider",
    "name_at",
    "nested_body",
    "placeholder",
    "resolution_key",
    "steps_of",
]

_DYNAMIC = "dynamic"
_PROVIDER = "provider"
_CONTENT = "content"

#: The kind of the definition that names the provider configuration a resource uses
#: (`configuration_used`): a fact about the module, never a duplicate (`validate.REPEATABLE`).
PROVIDER_USE = "provider-use"
#: The kind of the fact `(MODULE_PROVIDERS, call name, child's local name, child's alias, local name,
#: alias)` of each entry of a `module` call's `providers` map (`configuration_passed`).
MODULE_PROVIDERS = "module-providers"
#: What a `provider` block's site uses to hear that a child module may now inherit its configuration,
#: or no longer (`resolve.affected` maps the changes of calls, children's uses and provider blocks to it).
INHERITED_USES = ("provider-use-of",)


@functools.lru_cache(maxsize=1024)
def configuration_used(type_name: str, meta: str | None) -> tuple | None:
    """`(PROVIDER_USE, local name, alias or None)` of a resource-like block of type `type_name`
    whose `provider` meta-argument is `meta` (as written, or None): see the module doc. The same
    tuple object for the same answer (one per configuration, however many resources use it)."""
    if meta is not None:
        named = _configuration_named(meta)
        return None if named is None else (PROVIDER_USE, *named)
    local = type_name.split("_", 1)[0]
    return (PROVIDER_USE, local, None) if local and catalogue.IDENTIFIER.match(local) else None


def configuration_passed(call: str, key: str, value: str) -> tuple | None:
    """The fact `(MODULE_PROVIDERS, call, child's local name, child's alias, local name, alias)` of
    entry `key = value` of module call `call`'s `providers` map: see the module doc."""
    child, given = _configuration_named(key), _configuration_named(value)
    return None if child is None or given is None else (MODULE_PROVIDERS, call, *child, *given)


def passed_configurations(block: Block, call: str, text: Any) -> list[tuple[tuple, tuple[int, int], tuple[int, int]]]:
    """`(configuration_passed fact, the key string's range, the value string's range)` of each entry
    of JSON module call `block`'s `providers` object (named `call`) whose key and value are strings
    naming configurations; ranges with their quotes."""
    providers = block.body.attribute("providers")
    e = providers.expr if providers is not None else None
    if e is None or e.kind != OBJECT:
        return []
    base = e.start
    out = []
    for m in e.node.items:  # type: ignore[attr-defined]
        k, v = m.key, m.value
        if k is None or v is None or k.kind != STRING or v.kind != STRING:
            continue
        fact = configuration_passed(call, string_text(text, k, base + k.start), string_text(text, v, base + v.start))
        if fact is not None:
            out.append((fact, (base + k.start, base + k.end), (base + v.start, base + v.end)))
    return out


def _configuration_named(written: str) -> tuple[str, str | None] | None:
    """`(local name, alias or None)` of a configuration written `name` or `name.alias`, else None."""
    parts = written.split(".")
    if len(parts) > 2 or not all(catalogue.IDENTIFIER.match(p) for p in parts):
        return None
    return parts[0], parts[1] if len(parts) == 2 else None


def configuration_declared(block: Block, text: Any) -> tuple[str, str | None] | None:
    """`(local name, alias or None)` of the configuration `provider` block `block` makes, as a
    resource names it; None when its `alias` is not a literal string."""
    alias = block.body.attribute("alias")
    if alias is None:
        return block.labels[0].value, None
    if alias.expr is None or alias.expr.kind != "string":
        return None
    return block.labels[0].value, string_text(text, alias.expr.node, alias.expr.start)


def provider_config_schema(schemas: ProviderSchemas, local: str, required_providers: Mapping[str, Any] | None,
                           engine: str, validated: bool = False) -> SchemaBlock | None:
    """The configuration schema of the provider the module calls `local`
    (`ProviderSchemas.provider_config`; `validated`: as `terraform validate` reads a `provider`
    block, no argument required); None when that provider's schema is not loaded, or no address
    can be made of the name."""
    try:
        address = provider_address(local, required_providers, engine)
    except ValueError:
        return None
    return schemas.provider_config(address, validated)


# States of the walk along `steps`.
_BODY, _KEY, _DYNAMIC_TYPE, _DYNAMIC_BODY = range(4)


def meta_provider(block: Block, text: Any) -> str | None:
    """The string value of the block's `provider` meta-argument (as written), or None."""
    meta = block.body.attribute("provider")
    if meta is None or meta.expr is None or meta.expr.kind != "string":
        return None
    return string_text(text, meta.expr.node, meta.expr.start)


def block_address(
    block: Block, text: Any, required_providers: Mapping[str, Any] | None = None, engine: str = TERRAFORM
) -> str | None:
    """The provider address of resource or data block `block` (see the module doc); None when its
    type names no provider (`provider_schema.provider_of`)."""
    meta = meta_provider(block, text)
    return provider_of(block.labels[0].value, meta if meta and "${" not in meta else None, required_providers, engine)


def block_schema(
    block: Block,
    schemas: ProviderSchemas | None,
    text: Any,
    required_providers: Mapping[str, Any] | None = None,
    engine: str = TERRAFORM,
) -> SchemaBlock | None:
    """The schema of the body of resource, data, ephemeral or action block `block`, or None (for an
    action: a body whose one nested block type, `config`, holds the action's schema); of a
    `provider` block, its provider's configuration schema (as the provider writes it: its required
    arguments too, which `terraform validate` does not require)."""
    if schemas is None or block.type_name not in catalogue.SCHEMA_BODY_BLOCKS:
        return None
    if block.type_name == _PROVIDER:
        if len(block.labels) != 1:
            return None
        return provider_config_schema(schemas, block.labels[0].value, required_providers, engine)
    if len(block.labels) < 2:
        return None
    address = block_address(block, text, required_providers, engine)
    if address is None:
        return None
    type_name = block.labels[0].value
    kind = block.type_name
    if kind in catalogue.CONFIG_SCHEMA_BLOCKS:
        config = schemas.action(address, type_name) if kind == "action" else schemas.list_resource(address, type_name)
        if config is None:
            return None
        return SchemaBlock(block_types=MappingProxyType({"config": SchemaBlockType("config", SINGLE, config, None, 1)}),
                           description=config.description, description_kind=config.description_kind)
    if kind == "ephemeral":
        return schemas.ephemeral_resource(address, type_name)
    return schemas.data_source(address, type_name) if kind == "data" else schemas.resource(address, type_name)


def nested_body(attribute: SchemaAttribute) -> SchemaBlock | None:
    """The objects of a nested-type attribute as a body of attributes (None for other attributes)."""
    nested = attribute.nested
    if nested is None:
        return None
    return SchemaBlock(nested.attributes, deprecated=attribute.deprecated)


def _walk(schema: SchemaBlock | None, steps: Sequence[str | int]) -> SchemaBlock | None:
    """The body `steps` reaches, or None (see the module doc)."""
    if schema is None:
        return None
    state, block = _BODY, schema
    for step in steps:
        if isinstance(step, int):
            continue
        if state == _KEY:
            state = _BODY
        elif state == _DYNAMIC_TYPE:
            bt = block.block_types.get(step)
            if bt is None:
                return None
            state, block = _DYNAMIC_BODY, bt.block
        elif state == _DYNAMIC_BODY:
            if step != _CONTENT:
                return None
            state = _BODY
        else:
            bt = block.block_types.get(step)
            if bt is not None:
                state, block = (_KEY if bt.nesting == MAP else _BODY), bt.block
                continue
            a = block.attributes.get(step)
            if a is not None:
                inner = nested_body(a)
                if inner is None or a.nested is None:
                    return None
                state, block = (_KEY if a.nested.nesting == MAP else _BODY), inner
                continue
            if step != _DYNAMIC:
                return None
            state = _DYNAMIC_TYPE
    return block if state == _BODY else None


def body_at(schema: SchemaBlock | None, steps: Sequence[str | int]) -> SchemaBlock | None:
    """The schema of the body whose JSON object `steps` reaches from `schema`'s body, or None."""
    return _walk(schema, steps)


def name_at(schema: SchemaBlock | None, steps: Sequence[str | int]) -> SchemaAttribute | SchemaBlockType | None:
    """The attribute or nested block type named `steps[-1]` in the body `steps[:-1]` reaches."""
    if not steps or not isinstance(steps[-1], str):
        return None
    body = _walk(schema, steps[:-1])
    if body is None:
        return None
    name = steps[-1]
    return body.attributes.get(name) or body.block_types.get(name)


def steps_of(blocks: Sequence[Block], tail: Sequence[str | int] = ()) -> tuple[str | int, ...] | None:
    """Steps from the body of `blocks[0]` to `tail` under the innermost block (see the module doc)."""
    out: list[str | int] = []
    inside_dynamic = False
    for i, blk in enumerate(blocks[1:]):
        if i == 0 and blk.type_name == "config" and blocks[0].type_name in catalogue.CONFIG_SCHEMA_BLOCKS:
            out.append("config")  # an action's (a list's) schema is its `config` block's (`block_schema`)
        elif blk.type_name == _DYNAMIC and blk.labels and not inside_dynamic:
            out.extend((_DYNAMIC, blk.labels[-1].value))
            inside_dynamic = True
        elif blk.type_name == _CONTENT and inside_dynamic:
            out.append(_CONTENT)
            inside_dynamic = False
        else:
            return None
    if inside_dynamic:
        return None if tail else tuple(out)  # the dynamic block's own arguments: no schema
    return (*out, *tail)


def placeholder(attribute: SchemaAttribute) -> str:
    """A value of the attribute's kind: `""`, `0`, `false`, `[]` or `{}`."""
    nested = attribute.nested
    if nested is not None:
        return "{}" if nested.nesting in (SINGLE, MAP) else "[]"
    cty = attribute.cty
    if cty == "number":
        return "0"
    if cty == "bool":
        return "false"
    if isinstance(cty, list) and cty:
        return "[]" if cty[0] in ("list", "set", "tuple") else "{}"
    return '""'


def resolution_key(
    schemas: ProviderSchemas | None, required_providers: Mapping[str, Any] | None, engine: str
) -> Hashable:
    """A key equal for two calls only if `block_schema` answers the same for every block (see the
    module doc). A `required_providers` entry counts only when it leads to another loaded provider
    than the implied one, so typing a source does not make a new key per keystroke."""
    if schemas is None:
        return None
    differs = []
    for local in sorted(required_providers or {}):
        given = provider_for(local, local, required_providers, engine)
        implied = provider_for(local, local, None, engine)
        if given == implied:
            continue
        effective = given if schemas.has_provider(given) else None
        if effective != (implied if schemas.has_provider(implied) else None):
            differs.append((local, effective))
    return (schemas, engine, tuple(differs))
