"""Provider schemas (`terraform providers schema -json` / `tofu providers schema -json`): loading,
provider resolution and lookups.

    load(path) -> ProviderSchemas                 read one schema file (lazily, see below)
    loads(text) -> ProviderSchemas                the same from text
    combine(*schemas) -> ProviderSchemas          several files as one (the first file wins)
    builtin() -> ProviderSchemas                  the built-in `terraform` provider (packaged data)
    normalize_address(source, engine) -> str      "aws", "hashicorp/aws" -> "registry.terraform.io/hashicorp/aws"
    provider_for(resource_type, provider_meta_argument=None, required_providers=None, engine=TERRAFORM) -> str
    ProviderSchemas.resource(address, type) / .data_source(address, type) -> SchemaBlock | None
    ProviderSchemas.resource_types(address) / .data_source_types(address) -> tuple[str, ...]
    ProviderSchemas.providers() -> tuple[str, ...]   the (normalized) provider addresses of the file(s)
    ProviderSchemas.functions(address) -> Mapping[str, Function] | None   provider-defined functions
    provider_address(local, required_providers=None, engine=TERRAFORM) -> str   a local name's provider

Contract
--------
* Loading is lazy. `load` reads the file into one `str` and walks only its skeleton (format
  version, provider addresses, and for each provider the *text span* of every resource and data
  source schema: each span is parsed with the C JSON scanner and the result dropped at once, so
  the parsed tree never exists as a whole). The schema of one resource type is parsed from its
  span and converted to frozen dataclasses only when first asked, then cached (the only mutable
  state: a private memo inside `ProviderSchemas`; results are immutable and shared). Cost of load
  plus a first lookup: about one `json.loads` of the file; memory: the text, plus the index.
* A malformed file raises `ProviderSchemaError` at `load`, naming the first misfit and where it is
  (`provider_schemas["registry.terraform.io/hashicorp/aws"].resource_schemas: expected an object, got
  the string "oops"`): not JSON, not an object with `provider_schemas`, or a piece of the wrong shape
  in what this reader uses (a section, schema, block, attribute or block type that is not an object,
  a flag that is not a boolean, a nesting mode it does not know, an attribute with neither a type nor
  a nested type). Read leniently, such a document would give false errors (a section that is not an
  object hides every resource type), so it is refused as a whole. The check runs on the values the
  index parses anyway (about 13% of the load time of a 50 MB schema). Keys this reader does not use
  are not checked, and a type of a kind it does not know (`["future", ...]`) reads as `any`.
* Provider addresses are normalized: `hostname/namespace/type`, lowercased, the hostname defaulting
  to the engine's registry (`registry.terraform.io` for Terraform, `registry.opentofu.org` for
  OpenTofu); a bare `type` means `hashicorp/type`. Lookups accept any spelling; an address on one
  of the two default registries also finds a schema loaded under the other one (OpenTofu's
  `registry.opentofu.org/hashicorp/aws` is the same provider as Terraform's).
* `provider_for` follows Terraform: the local name is the `provider` meta-argument's first part
  (`"aws.west"` -> `aws`), else the resource type's prefix before the first `_`; the address is
  `required_providers[local name]` (a source string or an object with `source`), else the implied
  `hashicorp/<local name>` on the engine's registry (`terraform` -> `terraform.io/builtin/terraform`).
* Types are rendered as a user writes them in `variable.type` (`ctytypes.render_type`: `list(string)`,
  `any`); `SchemaAttribute.cty` keeps the JSON type for checks. A protocol-6 `nested_type`
  attribute keeps its attributes in `SchemaAttribute.nested` (`NestedAttributes`: nesting
  single/list/set/map) and gets the equivalent object type.
* `builtin()` is the schema of the provider built into Terraform and OpenTofu
  (`terraform.io/builtin/terraform`: the `terraform_data` resource, the `terraform_remote_state`
  data source), shipped as `data/builtin-terraform.schema.json`: the output of `terraform providers
  schema -json` (Terraform 1.11.4) in a module using both, with one addition: an empty
  `ephemeral_resource_schemas` (that output leaves the section out for a provider without any;
  Terraform 1.11 says "Invalid ephemeral resource" for `ephemeral "terraform_data"`). Read once,
  on first use. `ephemeral_resource_types` is None for a provider whose schema has no such section.
* Functions (Terraform 1.8+ and OpenTofu 1.7+ write a provider's `functions`: name -> `parameters`,
  `variadic_parameter`, `return_type`, `summary`, `description`): `functions(address)` gives them as
  `functions.Function`s (the built-in functions' shape: signature, argument counts and parameter
  help are computed the same way), described by their description, else their summary. It is
  None when the provider's schema is not loaded or has no `functions` section (a file of an older
  engine: nothing is known, so nothing may be reported), and a section or entry of the wrong shape
  counts as absent (read leniently: an absent function is never reported as unknown from it). The
  packaged built-in schema has the `terraform` provider's `encode_tfvars`, `decode_tfvars` and
  `encode_expr`.
* `write_only` (Terraform 1.11+: an argument the provider never stores) is `SchemaAttribute.write_only`.
* Newer sections (Terraform 1.10-1.14): `ephemeral_resource_schemas`, `action_schemas` (the body of
  an action's `config` block) and `list_resource_schemas` are indexed like resources when present
  (`ephemeral_resource`, `action`, `list_resource`; `action_types` is None without the section);
  `resource_identity_schemas` (`{"version", "attributes": {name: {"type", "required_for_import",
  "optional_for_import", "description"}}}`) is read on demand as a body of attributes
  (`resource_identity`), leniently: an entry of the wrong shape counts as absent.
* Pure: imports nothing from the package but `ctytypes` and `functions` (and reads its own packaged
  data).
"""

from __future__ import annotations

import functools
import json
import re
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..definition.ctytypes import is_type, render_type
from ..definition.functions import ENGINES, Function, Parameter

__all__ = [
    "BUILTIN_TERRAFORM",
    "OPENTOFU",
    "OPENTOFU_REGISTRY",
    "TERRAFORM",
    "TERRAFORM_REGISTRY",
    "NestedAttributes",
    "ProviderSchemaError",
    "ProviderSchemas",
    "SchemaAttribute",
    "SchemaBlock",
    "SchemaBlockType",
    "builtin",
    "combine",
    "load",
    "loads",
    "local_name_of",
    "normalize_address",
    "provider_address",
    "provider_for",
    "schema_block",
]

TERRAFORM = "terraform"
OPENTOFU = "opentofu"
TERRAFORM_REGISTRY = "registry.terraform.io"
OPENTOFU_REGISTRY = "registry.opentofu.org"
_DEFAULT_REGISTRIES = (TERRAFORM_REGISTRY, OPENTOFU_REGISTRY)
#: The provider of `terraform_data` and `terraform_remote_state`.
BUILTIN_TERRAFORM = "terraform.io/builtin/terraform"

# Nesting modes of blocks and nested attribute types.
SINGLE = "single"
LIST = "list"
SET = "set"
MAP = "map"
GROUP = "group"


class ProviderSchemaError(ValueError):
    """The file is not a `providers schema -json` document."""


# ---- the schema objects --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class NestedAttributes:
    """A protocol-6 `nested_type`: `nesting` single/list/set/map of objects with `attributes`."""

    nesting: str
    attributes: Mapping[str, SchemaAttribute]
    min_items: int | None = None
    max_items: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class SchemaAttribute:
    """One provider-defined argument or exported attribute. `type` is the readable type
    (`list(string)`), `cty` the JSON type (None for a nested-type attribute; see `nested`)."""

    name: str
    type: str
    cty: Any = None
    required: bool = False
    optional: bool = False
    computed: bool = False
    sensitive: bool = False
    deprecated: bool = False
    description: str = ""
    description_kind: str = "plain"
    nested: NestedAttributes | None = None
    #: Write-only (Terraform 1.11+): set in the configuration, never kept in plan or state, so it may
    #: take an ephemeral value.
    write_only: bool = False

    @property
    def computed_only(self) -> bool:
        """Set by the provider only: a configured value is an error."""
        return self.computed and not self.optional and not self.required


@dataclass(frozen=True, slots=True, eq=False)
class SchemaBlockType:
    """A nested block type: `nesting` single/list/set/map/group, bounds from the provider."""

    name: str
    nesting: str
    block: SchemaBlock
    min_items: int | None = None
    max_items: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class SchemaBlock:
    """The body of a resource, data source, provider or nested block."""

    attributes: Mapping[str, SchemaAttribute] = field(default_factory=lambda: MappingProxyType({}))
    block_types: Mapping[str, SchemaBlockType] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""
    description_kind: str = "plain"
    deprecated: bool = False
    version: int = 0

    def names(self) -> list[str]:
        """Every argument and block type name (for suggestions and completion)."""
        return [*self.attributes, *self.block_types]


# ---- building from the JSON ------------------------------------------------------------------------


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _nesting_type(nesting: str, element: object) -> object:
    return element if nesting == SINGLE or nesting == GROUP else [nesting if nesting in (LIST, SET, MAP) else LIST, element]


def _attribute(name: str, raw: Mapping[str, Any]) -> SchemaAttribute:
    nested = None
    cty: object = raw.get("type")
    nested_raw = raw.get("nested_type")
    if isinstance(nested_raw, Mapping):
        attrs = _attributes(nested_raw.get("attributes"))
        nesting = str(nested_raw.get("nesting_mode") or SINGLE)
        nested = NestedAttributes(
            nesting, attrs, _int_or_none(nested_raw.get("min_items")), _int_or_none(nested_raw.get("max_items"))
        )
        element = ["object", {n: (a.cty if a.nested is None else _nested_cty(a.nested)) for n, a in attrs.items()}]
        cty = _nesting_type(nesting, element)
    if not is_type(cty):
        cty = "dynamic"
    return SchemaAttribute(
        name,
        render_type(cty),
        cty if nested is None else None,
        bool(raw.get("required")),
        bool(raw.get("optional")),
        bool(raw.get("computed")),
        bool(raw.get("sensitive")),
        bool(raw.get("deprecated")),
        str(raw.get("description") or ""),
        str(raw.get("description_kind") or "plain"),
        nested,
        bool(raw.get("write_only")),
    )


def _nested_cty(nested: NestedAttributes) -> object:
    element = ["object", {n: (a.cty if a.nested is None else _nested_cty(a.nested)) for n, a in nested.attributes.items()}]
    return _nesting_type(nested.nesting, element)


def _attributes(raw: object) -> Mapping[str, SchemaAttribute]:
    if not isinstance(raw, Mapping):
        return MappingProxyType({})
    return MappingProxyType({n: _attribute(n, a) for n, a in raw.items() if isinstance(a, Mapping)})


def _block(raw: object, version: int = 0) -> SchemaBlock:
    if not isinstance(raw, Mapping):
        return SchemaBlock(version=version)
    block_types = {}
    bts = raw.get("block_types")
    if isinstance(bts, Mapping):
        for name, bt in bts.items():
            if not isinstance(bt, Mapping):
                continue
            block_types[name] = SchemaBlockType(
                name,
                str(bt.get("nesting_mode") or SINGLE),
                _block(bt.get("block")),
                _int_or_none(bt.get("min_items")),
                _int_or_none(bt.get("max_items")),
            )
    return SchemaBlock(
        _attributes(raw.get("attributes")),
        MappingProxyType(block_types),
        str(raw.get("description") or ""),
        str(raw.get("description_kind") or "plain"),
        bool(raw.get("deprecated")),
        version,
    )


def schema_block(raw: object) -> SchemaBlock:
    """A `{"version": N, "block": {...}}` schema of a `providers schema -json` document, read as
    the lookups read it (for built-in schemas in the same shape: `terraform.provisioners`)."""
    return _schema(raw)


def _schema(raw: object) -> SchemaBlock:
    """A `{"version": N, "block": {...}}` schema."""
    if not isinstance(raw, Mapping):
        return SchemaBlock()
    version = raw.get("version")
    return _block(raw.get("block"), version if isinstance(version, int) else 0)


# ---- the shape of the document ---------------------------------------------------------------------
#
# A schema document of the wrong shape is refused as a whole (a schema read leniently would give
# false errors: a section that is not an object hides every resource type, an attribute that is not
# an object hides the attribute). Checked once, while the index is built, on the values it parses
# anyway; keys this reader does not use are not checked (newer formats add sections).


class _Misfit(Exception):
    """A value of the wrong shape; `where` collects the path inside the document as it unwinds."""

    def __init__(self, expected: str, value: object) -> None:
        super().__init__(expected)
        self.expected = expected
        self.value = value
        self.where: list[str] = []

    def at(self, part: str) -> _Misfit:
        self.where.append(part)
        return self

    def error(self, prefix: str = "") -> ProviderSchemaError:
        where = prefix + "".join(reversed(self.where))
        return ProviderSchemaError(f"{where}: expected {self.expected}, got {_kind(self.value)}")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {json.dumps(value[:40] + ('...' if len(value) > 40 else ''))}"
    return "an array" if isinstance(value, list) else "an object"


def _member(name: str) -> str:
    return f"[{json.dumps(name)}]"


def _object(value: object, expected: str = "an object") -> dict:
    if type(value) is not dict:
        raise _Misfit(expected, value)
    return value


#: The keys of an attribute, a nested type, a block or a block type that are checked, and the
#: type their value must have (None: absent). One pass over each object's members.
_BOOL, _STR, _COUNT = "true or false", "a string", "a whole number"
_EXPECTED = {"description": _STR, "description_kind": _STR, "deprecated": _BOOL, "required": _BOOL,
             "optional": _BOOL, "computed": _BOOL, "sensitive": _BOOL, "write_only": _BOOL,
             "min_items": _COUNT, "max_items": _COUNT}
_PYTHON_TYPE = {_BOOL: bool, _STR: str, _COUNT: int}
_NESTINGS = frozenset({SINGLE, LIST, SET, MAP, GROUP})


def _check_members(raw: dict) -> None:
    expected_of = _EXPECTED
    for key, value in raw.items():
        expected = expected_of.get(key)
        if expected is not None and value is not None and type(value) is not _PYTHON_TYPE[expected]:
            raise _Misfit(expected, value).at("." + key)
        if expected is _COUNT and value is not None and value < 0:
            raise _Misfit(expected, value).at("." + key)


def _check_nesting(raw: dict, expected: str) -> None:
    mode = raw.get("nesting_mode")
    if mode is not None and mode not in _NESTINGS:
        raise _Misfit(expected, mode).at(".nesting_mode")


def _check_attributes(raw: object) -> None:
    if raw is None:
        return
    for name, attribute in _object(raw).items():
        try:
            if type(attribute) is not dict:
                raise _Misfit("an object", attribute)
            _check_members(attribute)
            nested = attribute.get("nested_type")
            if nested is not None:
                try:
                    nested = _object(nested)
                    _check_members(nested)
                    _check_nesting(nested, "single, list, set or map")
                    try:
                        _check_attributes(nested.get("attributes"))
                    except _Misfit as e:
                        raise e.at(".attributes") from None
                except _Misfit as e:
                    raise e.at(".nested_type") from None
            else:
                cty = attribute.get("type")
                if not (type(cty) is str or (type(cty) is list and cty and type(cty[0]) is str)):
                    # The shape of a type; a kind this reader does not know (a newer format's) reads as `any`.
                    raise _Misfit("a type (or a nested_type)", cty).at(".type")
        except _Misfit as e:
            raise e.at(_member(name)) from None


def _check_block(raw: object) -> None:
    if raw is None:
        return
    raw = _object(raw)
    _check_members(raw)
    try:
        _check_attributes(raw.get("attributes"))
    except _Misfit as e:
        raise e.at(".attributes") from None
    block_types = raw.get("block_types")
    if block_types is None:
        return
    try:
        for name, block_type in _object(block_types).items():
            try:
                block_type = _object(block_type)
                _check_members(block_type)
                _check_nesting(block_type, "single, list, set, map or group")
                try:
                    _check_block(block_type.get("block"))
                except _Misfit as e:
                    raise e.at(".block") from None
            except _Misfit as e:
                raise e.at(_member(name)) from None
    except _Misfit as e:
        raise e.at(".block_types") from None


def _check_schema(raw: object) -> None:
    """A `{"version": N, "block": {...}}` schema of the format; raises `_Misfit`."""
    raw = _object(raw)
    version = raw.get("version")
    if version is not None and type(version) is not int:
        raise _Misfit("a whole number", version).at(".version")
    try:
        _check_block(raw.get("block"))
    except _Misfit as e:
        raise e.at(".block") from None


# ---- the lazy index --------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# The C scanners behind `json.loads` (attributes of CPython's decoder that typeshed omits).
_scan_once: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_scanstring: Callable[..., tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

# The sections of a provider whose members are indexed by span (everything else is parsed).
_SPAN_SECTIONS = ("resource_schemas", "data_source_schemas")
#: Indexed like them when present (Terraform 1.10+ writes it only for providers that have some;
#: the built-in provider's packaged schema says it has none with an empty one).
_EPHEMERAL = "ephemeral_resource_schemas"
#: Indexed like them when present: Terraform 1.14's `action` blocks and `.tfquery` `list` blocks.
_ACTIONS = "action_schemas"
_LIST_RESOURCES = "list_resource_schemas"
_OPTIONAL_SPAN_SECTIONS = (_EPHEMERAL, _ACTIONS, _LIST_RESOURCES)
#: Parsed with the provider (small: a few attributes per resource type), read leniently.
_IDENTITIES = "resource_identity_schemas"


def _ws(text: str, i: int) -> int:
    return _WS.match(text, i).end()  # type: ignore[union-attr]


def _members(text: str, i: int):
    """Yield `(key, value_start)` for each member of the object at `i`; the caller must return the
    index after the value through `send`. Raises ProviderSchemaError on malformed input."""
    i = _ws(text, i)
    if i >= len(text) or text[i] != "{":
        raise ProviderSchemaError(f"expected a JSON object at offset {i}")
    i = _ws(text, i + 1)
    if i < len(text) and text[i] == "}":
        return i + 1
    while True:
        if i >= len(text) or text[i] != '"':
            raise ProviderSchemaError(f"expected a property name at offset {i}")
        key_at = i
        key, i = _scanstring(text, i + 1)
        i = _ws(text, i)
        if i >= len(text) or text[i] != ":":
            raise ProviderSchemaError(f"expected ':' at offset {i}")
        i = _ws(text, i + 1)
        i = yield key, key_at, i
        i = _ws(text, i)
        if i < len(text) and text[i] == ",":
            i = _ws(text, i + 1)
            continue
        if i < len(text) and text[i] == "}":
            return i + 1
        raise ProviderSchemaError(f"expected ',' or '}}' at offset {i}")


def _walk_object(text: str, i: int, on_member) -> int:
    """Walk the object at `i`, calling `on_member(key, key_start, value_start) -> value_end` per
    member; return the index after the object."""
    gen = _members(text, i)
    try:
        key, key_at, start = next(gen)
        while True:
            key, key_at, start = gen.send(on_member(key, key_at, start))
    except StopIteration as stop:
        return stop.value


def _skip(text: str, i: int) -> tuple[Any, int]:
    try:
        return _scan_once(text, i)
    except StopIteration:
        raise ProviderSchemaError(f"expected a JSON value at offset {i}") from None
    except json.JSONDecodeError as e:
        raise ProviderSchemaError(str(e)) from None


@dataclass(frozen=True, slots=True, eq=False)
class _Provider:
    """One provider of a file: the spans of its resource/data source schemas, the rest parsed."""

    text: str = field(repr=False)
    spans: Mapping[str, Mapping[str, tuple[int, int]]] = field(repr=False)
    other: Mapping[str, Any] = field(repr=False)


def _index(text: str) -> tuple[str, dict[str, _Provider]]:
    providers: dict[str, _Provider] = {}
    version = ""

    def provider(start: int) -> tuple[dict, dict, int]:
        spans: dict[str, dict[str, tuple[int, int]]] = {s: {} for s in _SPAN_SECTIONS}
        other: dict[str, Any] = {}

        def section(key: str, _key_at: int, vstart: int) -> int:
            if key in _OPTIONAL_SPAN_SECTIONS:
                spans.setdefault(key, {})
            if key in spans and text.startswith("{", vstart):
                # Offsets only while the values are parsed and dropped (nothing small is kept
                # between the transient objects, so their memory is freed whole); names after.
                offsets = array("q")

                def entry(name: str, key_at: int, s: int) -> int:
                    value, e = _skip(text, s)  # parsed, checked and dropped: finds the end
                    try:
                        _check_schema(value)
                    except _Misfit as misfit:
                        raise misfit.at(f".{key}{_member(name)}") from None
                    offsets.extend((key_at, s, e))
                    return e

                end = _walk_object(text, vstart, entry)
                table = spans[key]
                for j in range(0, len(offsets), 3):
                    table[_scanstring(text, offsets[j] + 1)[0]] = (offsets[j + 1], offsets[j + 2])
                return end
            value, e = _skip(text, vstart)
            if key in spans or (key == "provider" and value is not None):
                try:
                    _check_schema(value) if key == "provider" else _object(value)
                except _Misfit as misfit:
                    raise misfit.at("." + key) from None
            other[key] = value
            return e

        if not text.startswith("{", start):
            raise _Misfit("an object", _skip(text, start)[0])
        end = _walk_object(text, start, section)
        return spans, other, end

    def top(key: str, _key_at: int, start: int) -> int:
        nonlocal version
        if key == "provider_schemas" and text.startswith("{", start):

            def one(address: str, _key_at: int, s: int) -> int:
                try:
                    spans, other, e = provider(s)
                except _Misfit as misfit:
                    raise misfit.at(f"provider_schemas{_member(address)}") from None
                providers.setdefault(
                    normalize_address(address),
                    _Provider(text, MappingProxyType({k: MappingProxyType(v) for k, v in spans.items()}), MappingProxyType(other)),
                )
                return e

            return _walk_object(text, start, one)
        value, e = _skip(text, start)
        if key == "provider_schemas" and value is not None:
            raise _Misfit("an object", value).at("provider_schemas")
        if key == "format_version" and value is not None:
            if not isinstance(value, str):
                raise _Misfit("a string", value).at("format_version")
            version = value
        return e

    try:
        end = _walk_object(text, _ws(text, 0), top)
    except _Misfit as misfit:
        raise misfit.error() from None
    if text[_ws(text, end) :].strip():
        raise ProviderSchemaError(f"unexpected text after the JSON object at offset {end}")
    if not version and not providers and '"provider_schemas"' not in text:
        raise ProviderSchemaError("it has neither format_version nor provider_schemas")
    return version, providers


@dataclass(frozen=True, slots=True, eq=False)
class ProviderSchemas:
    """The provider schemas of one or more `providers schema -json` files (see the module doc)."""

    format_version: str = ""
    _providers: Mapping[str, _Provider] = field(default_factory=lambda: MappingProxyType({}))
    _memo: dict = field(default_factory=dict, repr=False)

    def providers(self) -> tuple[str, ...]:
        return tuple(self._providers)

    def _provider(self, address: str) -> _Provider | None:
        found = self._providers.get(address)
        if found is not None:
            return found
        try:
            a = normalize_address(address)
        except ValueError:
            return None
        found = self._providers.get(a)
        if found is None:
            host, _, rest = a.partition("/")
            if host in _DEFAULT_REGISTRIES:
                for other in _DEFAULT_REGISTRIES:
                    found = found or self._providers.get(f"{other}/{rest}")
        return found

    def has_provider(self, address: str) -> bool:
        return self._provider(address) is not None

    def _section(self, address: str, section: str, type_name: str) -> SchemaBlock | None:
        p = self._provider(address)
        if p is None:
            return None
        key = (p, section, type_name)  # per provider, whatever the address's spelling
        memo = self._memo
        if key in memo:
            return memo[key]
        result = None
        span = p.spans.get(section, {}).get(type_name)
        if span is not None:
            raw, _ = _skip(p.text, span[0])
            result = _schema(raw)
        memo[key] = result
        return result

    def resource(self, address: str, type_name: str) -> SchemaBlock | None:
        """The schema of managed resource type `type_name` of provider `address`, or None."""
        return self._section(address, "resource_schemas", type_name)

    def data_source(self, address: str, type_name: str) -> SchemaBlock | None:
        """The schema of data source `type_name` of provider `address`, or None."""
        return self._section(address, "data_source_schemas", type_name)

    def ephemeral_resource(self, address: str, type_name: str) -> SchemaBlock | None:
        """The schema of ephemeral resource type `type_name` of provider `address`, or None."""
        return self._section(address, _EPHEMERAL, type_name)

    def action(self, address: str, type_name: str) -> SchemaBlock | None:
        """The schema of the `config` body of action type `type_name` of provider `address`, or None."""
        return self._section(address, _ACTIONS, type_name)

    def action_types(self, address: str) -> tuple[str, ...] | None:
        """The action types of provider `address`; None when it is not loaded or its schema has no
        `action_schemas` section."""
        p = self._provider(address)
        found = p.spans.get(_ACTIONS) if p is not None else None
        return tuple(found) if found is not None else None

    def list_resource(self, address: str, type_name: str) -> SchemaBlock | None:
        """The schema of list resource type `type_name` of provider `address` (`.tfquery` `list`
        blocks), or None."""
        return self._section(address, _LIST_RESOURCES, type_name)

    def list_resource_types(self, address: str) -> tuple[str, ...] | None:
        """The list resource types of provider `address`; None when it is not loaded or its schema
        has no `list_resource_schemas` section."""
        p = self._provider(address)
        found = p.spans.get(_LIST_RESOURCES) if p is not None else None
        return tuple(found) if found is not None else None

    def resource_identity(self, address: str, type_name: str) -> SchemaBlock | None:
        """The identity of managed resource type `type_name` of provider `address` as a body of
        attributes (required: `required_for_import`, else optional), or None when its schema has
        none or one of the wrong shape (read leniently: nothing is reported from it)."""
        p = self._provider(address)
        if p is None:
            return None
        key = (p, _IDENTITIES, type_name)
        if key not in self._memo:
            section = p.other.get(_IDENTITIES)
            raw = section.get(type_name) if isinstance(section, Mapping) else None
            self._memo[key] = _identity(raw)
        return self._memo[key]

    def resource_types(self, address: str) -> tuple[str, ...]:
        p = self._provider(address)
        return tuple(p.spans["resource_schemas"]) if p is not None else ()

    def ephemeral_resource_types(self, address: str) -> tuple[str, ...] | None:
        """The ephemeral resource types of provider `address`; None when it is not loaded or its
        schema does not say (no `ephemeral_resource_schemas` section)."""
        p = self._provider(address)
        found = p.spans.get(_EPHEMERAL) if p is not None else None
        return tuple(found) if found is not None else None

    def data_source_types(self, address: str) -> tuple[str, ...]:
        p = self._provider(address)
        return tuple(p.spans["data_source_schemas"]) if p is not None else ()

    def functions(self, address: str) -> Mapping[str, Function] | None:
        """The functions of provider `address` by name; None when its schema is not loaded or
        says nothing about functions (see the module doc)."""
        p = self._provider(address)
        if p is None:
            return None
        key = (p, "functions", "")
        if key not in self._memo:
            self._memo[key] = _functions(p.other.get("functions"))
        return self._memo[key]

    def provider_config(self, address: str, validated: bool = False) -> SchemaBlock | None:
        """The schema of the provider's own configuration block, or None. `validated`: as `terraform
        validate` reads a `provider` block with it (`none_required`)."""
        p = self._provider(address)
        if p is None or not isinstance(p.other.get("provider"), Mapping):
            return None
        key = (p, "provider", "validated" if validated else "")
        if key not in self._memo:
            self._memo[key] = none_required(self.provider_config(address)) if validated else _schema(p.other["provider"])  # type: ignore[arg-type]
        return self._memo[key]


def none_required(block: SchemaBlock) -> SchemaBlock:
    """`block` with every argument optional and no bounds on its nested blocks, at every depth
    (Terraform's `configschema.Block.NoneRequired`): how `terraform validate` reads a `provider`
    block, whose required arguments may come from elsewhere (the environment) when it runs. The
    attributes of a nested-type attribute are kept as they are, as Terraform keeps them."""
    return replace(
        block,
        attributes=MappingProxyType({n: replace(a, required=False, optional=True) if a.required else a
                                     for n, a in block.attributes.items()}),
        block_types=MappingProxyType({n: replace(bt, block=none_required(bt.block), min_items=None, max_items=None)
                                      for n, bt in block.block_types.items()}),
    )


def _identity(raw: object) -> SchemaBlock | None:
    if not isinstance(raw, Mapping):
        return None
    attributes = raw.get("attributes")
    if not isinstance(attributes, Mapping):
        return None
    out: dict[str, SchemaAttribute] = {}
    for name, a in attributes.items():
        if not isinstance(a, Mapping) or not is_type(a.get("type")):
            return None
        required = a.get("required_for_import") is True
        description = a.get("description")
        out[name] = SchemaAttribute(name, render_type(a["type"]), a["type"], required=required, optional=not required,
                                    description=description if isinstance(description, str) else "")
    version = raw.get("version")
    return SchemaBlock(MappingProxyType(out), version=version if isinstance(version, int) else 0)


def _function_parameter(raw: object) -> Parameter | None:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        return None
    cty = raw.get("type")
    nullable = raw.get("is_nullable", raw.get("allow_null_value", False))
    return Parameter(raw["name"], render_type(cty if is_type(cty) else "dynamic"), bool(nullable))


def _function(name: str, raw: object) -> Function | None:
    if not isinstance(raw, Mapping):
        return None
    params_raw = raw.get("parameters") or []
    if not isinstance(params_raw, list):
        return None
    params = [_function_parameter(x) for x in params_raw]
    if any(p is None for p in params):
        return None
    variadic = None
    if raw.get("variadic_parameter") is not None:
        variadic = _function_parameter(raw["variadic_parameter"])
        if variadic is None:
            return None
    cty = raw.get("return_type")
    summary, description = raw.get("summary"), raw.get("description")
    text = description if isinstance(description, str) and description.strip() else summary if isinstance(summary, str) else ""
    return Function(name, tuple(params), variadic, render_type(cty if is_type(cty) else "dynamic"),  # type: ignore[arg-type]
                    text.strip(), ENGINES)


def _functions(raw: object) -> Mapping[str, Function] | None:
    """A provider's `functions` section; None when it is absent or not an object."""
    if not isinstance(raw, Mapping):
        return None
    out = {}
    for name, entry in raw.items():
        fn = _function(name, entry)
        if fn is not None:
            out[name] = fn
    return MappingProxyType(out)


def loads(text: str) -> ProviderSchemas:
    """The provider schemas of a `providers schema -json` document."""
    version, providers = _index(text)
    return ProviderSchemas(version, MappingProxyType(providers))


def load(path: str | Path) -> ProviderSchemas:
    """The provider schemas of the file at `path` (UTF-8)."""
    return loads(Path(path).read_text(encoding="utf-8"))


def combine(*schemas: ProviderSchemas) -> ProviderSchemas:
    """One view of several files; a provider found in more than one comes from the first."""
    providers: dict[str, _Provider] = {}
    for s in schemas:
        for address, p in s._providers.items():
            providers.setdefault(address, p)
    return ProviderSchemas(schemas[0].format_version if schemas else "", MappingProxyType(providers))


@functools.cache
def builtin() -> ProviderSchemas:
    """The schema of the built-in `terraform` provider (see the module doc)."""
    return loads(resources.files("hcljson_ls.terraform").joinpath("data/builtin-terraform.schema.json").read_text(encoding="utf-8"))


# ---- addresses and resolution ----------------------------------------------------------------------


def registry_for(engine: str = TERRAFORM) -> str:
    return OPENTOFU_REGISTRY if engine == OPENTOFU else TERRAFORM_REGISTRY


def normalize_address(source: str, engine: str = TERRAFORM) -> str:
    """`hostname/namespace/type`, lowercased; `ValueError` for an empty or over-long source."""
    parts = [p for p in source.strip().lower().split("/")]
    if not source.strip() or any(not p for p in parts) or len(parts) > 3:
        raise ValueError(f"not a provider source address: {source!r}")
    if len(parts) == 1:
        if parts[0] == "terraform":
            return BUILTIN_TERRAFORM
        parts = ["hashicorp", parts[0]]
    if len(parts) == 2:
        parts = [registry_for(engine), *parts]
    return "/".join(parts)


def local_name_of(provider_meta_argument: str) -> str:
    """`"aws.west"` -> `aws` (also `"${aws.west}"`, the form some generators write)."""
    s = provider_meta_argument.strip()
    if s.startswith("${") and s.endswith("}"):
        s = s[2:-1].strip()
    return s.split(".", 1)[0].strip()


def provider_for(
    resource_type: str,
    provider_meta_argument: str | None = None,
    required_providers: Mapping[str, Any] | None = None,
    engine: str = TERRAFORM,
) -> str:
    """The address of the provider of a resource or data source (see the module doc)."""
    local = local_name_of(provider_meta_argument) if provider_meta_argument else ""
    if not local:
        local = resource_type.split("_", 1)[0]
    return provider_address(local, required_providers, engine)


def provider_of(
    resource_type: str,
    provider_meta_argument: str | None = None,
    required_providers: Mapping[str, Any] | None = None,
    engine: str = TERRAFORM,
) -> str | None:
    """`provider_for`, or None when the type names no provider: no local name can be read from it
    (`_x`, a blank type left by a half-typed key: Terraform's "Invalid provider local name")."""
    try:
        return provider_for(resource_type, provider_meta_argument, required_providers, engine)
    except ValueError:
        return None


def provider_address(local: str, required_providers: Mapping[str, Any] | None = None, engine: str = TERRAFORM) -> str:
    """The address of the provider the module calls `local`: `required_providers[local]`'s source,
    else the implied `hashicorp/<local>` on the engine's registry (`terraform`: the built-in one)."""
    entry = (required_providers or {}).get(local)
    source = entry.get("source") if isinstance(entry, Mapping) else entry
    if isinstance(source, str) and source.strip():
        try:
            return normalize_address(source, engine)
        except ValueError:
            pass
    if local == "terraform":
        return BUILTIN_TERRAFORM
    return normalize_address(f"hashicorp/{local}", engine)
