"""Schemas for HCL JSON bodies, generic for any HCL-JSON language (Terraform is one user).

Contract
--------
A schema says how the properties of a JSON object that represents an HCL *body* are
interpreted: which property names are attributes (arguments) and how their values are read
(`AttributeSchema.mode`), which are blocks (`BlockSchema`: label names and the nested body's
schema), and what happens to names the schema does not list (`BodySchema.dynamic_attributes`,
`open_attributes`, `open_blocks`). All classes are frozen and hashable by identity-free value
semantics except for the mappings (use them as plain data; do not mutate the mappings).

Attribute modes (how the JSON value of an argument is read; see `STRING_MODES` for what a JSON
string means at each place inside such a value):

=========================== ==================================================================
``EXPRESSION``              full expression: any JSON value; strings (object keys too) are
                            templates (``"${var.x}"``).
``LITERAL``                 literal-only: any JSON value, strings taken literally.
``LITERAL_STRING``          a JSON string (or ``null``), taken literally (e.g. a description,
                            a module ``source``); a number or a bool converts to its string,
                            as HCL's decoding into a string does (``"description": 12``).
``TRAVERSAL``               a JSON string holding a static traversal (``"aws.west"``), no
                            ``${}``.
``TRAVERSAL_LIST``          a JSON array of such strings (e.g. ``depends_on``).
``TRAVERSAL_MAP``           a JSON object whose keys and values are traversal strings (e.g.
                            Terraform module ``providers``: ``{"aws": "aws.west"}``).
``TYPE``                    a JSON string holding a type constraint (``"list(string)"``).
``KEYWORD_OR_TRAVERSAL_LIST`` a keyword string (e.g. ``"all"``) or an array of traversal strings
                            (e.g. ``ignore_changes``).
``MAP_OF_LITERAL_STRINGS``  a JSON object whose values are JSON strings, all taken literally.
``NATIVE``                  a JSON string holding a native-syntax expression (not a template:
                            ``"aws_instance.a.id"``); other JSON values are ordinary
                            expressions (HCL "static call"/Terraform's JSON reference unwrapping).
``NATIVE_LIST``             a JSON array whose elements are read as ``NATIVE`` (e.g.
                            ``replace_triggered_by``).
=========================== ==================================================================

`null` is accepted as "not set" for every mode except the traversal/type/keyword modes, whose
readers (HCL static traversal analysis) require a string.

Block bodies
------------
* `attributes` / `blocks`: the names the schema knows.
* `dynamic_attributes`: every property is an attribute (HCL "JustAttributes", e.g. Terraform
  ``locals``); such a body must be a single JSON object (not an array of objects).
* `open_attributes`: names the schema does not list are accepted as attributes in
  ``EXPRESSION`` mode (e.g. provider-defined resource arguments). They are decoded as
  `Attribute` with ``schema=None`` and are never reported as duplicates (without the provider's
  schema a repeated name may well be a repeated nested block).
* `open_blocks` (without `open_attributes`): unknown names are accepted as blocks without labels
  whose bodies are decoded with `OPEN_BODY`.
* both open: unknown names are decoded as attributes with ``schema=None`` (a JSON value cannot
  tell an argument from a nested block); a later layer that knows better can re-read such an
  attribute's value as blocks with `decode.decode_blocks_from_attribute`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

# ---- attribute modes -------------------------------------------------------------------------
EXPRESSION = "expression"
LITERAL = "literal"
LITERAL_STRING = "literal_string"
TRAVERSAL = "traversal"
TRAVERSAL_LIST = "traversal_list"
TRAVERSAL_MAP = "traversal_map"
TYPE = "type"
KEYWORD_OR_TRAVERSAL_LIST = "keyword_or_traversal_list"
MAP_OF_LITERAL_STRINGS = "map_of_literal_strings"
NATIVE = "native"
NATIVE_LIST = "native_list"

MODES = frozenset(
    {
        EXPRESSION,
        LITERAL,
        LITERAL_STRING,
        TRAVERSAL,
        TRAVERSAL_LIST,
        TRAVERSAL_MAP,
        TYPE,
        KEYWORD_OR_TRAVERSAL_LIST,
        MAP_OF_LITERAL_STRINGS,
        NATIVE,
        NATIVE_LIST,
    }
)

# ---- string modes: how a JSON string found inside an attribute value is read ----------------
STRING_TEMPLATE = "template"  # an HCL native-syntax template ("Hello ${name}")
STRING_LITERAL = "literal"  # the characters themselves
STRING_TRAVERSAL = "traversal"  # a static traversal ("aws_instance.web")
STRING_TYPE = "type"  # a type constraint ("map(string)")
STRING_KEYWORD = "keyword"  # a bare keyword ("all")
STRING_NATIVE = "native"  # a native-syntax expression, not a template

# Where a string sits relative to the attribute value: the value itself, an element of the
# top-level array, a key or a value of the top-level object, or deeper (any nesting).
AT_ROOT = "root"
AT_ELEMENT = "element"
AT_KEY = "key"
AT_VALUE = "value"
AT_DEEPER_KEY = "deeper_key"
AT_DEEPER = "deeper"

# STRING_MODES[mode][place] -> string mode, or None when no string is expected there.
STRING_MODES: Mapping[str, Mapping[str, str | None]] = MappingProxyType(
    {
        EXPRESSION: dict.fromkeys((AT_ROOT, AT_ELEMENT, AT_KEY, AT_VALUE, AT_DEEPER_KEY, AT_DEEPER), STRING_TEMPLATE),
        LITERAL: dict.fromkeys((AT_ROOT, AT_ELEMENT, AT_KEY, AT_VALUE, AT_DEEPER_KEY, AT_DEEPER), STRING_LITERAL),
        LITERAL_STRING: {AT_ROOT: STRING_LITERAL},
        TRAVERSAL: {AT_ROOT: STRING_TRAVERSAL},
        TRAVERSAL_LIST: {AT_ELEMENT: STRING_TRAVERSAL},
        TRAVERSAL_MAP: {AT_KEY: STRING_TRAVERSAL, AT_VALUE: STRING_TRAVERSAL},
        TYPE: {AT_ROOT: STRING_TYPE},
        KEYWORD_OR_TRAVERSAL_LIST: {AT_ROOT: STRING_KEYWORD, AT_ELEMENT: STRING_TRAVERSAL},
        MAP_OF_LITERAL_STRINGS: {AT_KEY: STRING_LITERAL, AT_VALUE: STRING_LITERAL},
        # Non-string values under NATIVE are ordinary expressions: their strings are templates.
        NATIVE: {
            AT_ROOT: STRING_NATIVE,
            AT_ELEMENT: STRING_TEMPLATE,
            AT_KEY: STRING_TEMPLATE,
            AT_VALUE: STRING_TEMPLATE,
            AT_DEEPER_KEY: STRING_TEMPLATE,
            AT_DEEPER: STRING_TEMPLATE,
        },
        NATIVE_LIST: {AT_ELEMENT: STRING_NATIVE, AT_KEY: None, AT_DEEPER_KEY: STRING_TEMPLATE, AT_DEEPER: STRING_TEMPLATE},
    }
)


def string_mode(mode: str, place: str) -> str | None:
    """How a JSON string at `place` (one of the ``AT_*`` constants) inside a value of attribute
    mode `mode` is read, or None when the mode expects no string there."""
    return STRING_MODES.get(mode, {}).get(place)


@dataclass(frozen=True, slots=True)
class AttributeSchema:
    """One argument a body accepts. `mode` is one of the attribute modes above. A required
    argument that is missing is reported on the body's closing brace (HCL's missing item range),
    or on its opening brace with `missing_at_open` (an argument Terraform requires by a check of
    its own, reported at the block's definition)."""

    name: str
    required: bool = False
    mode: str = EXPRESSION
    description: str = ""
    missing_at_open: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown attribute mode {self.mode!r}")


@dataclass(frozen=True, slots=True)
class BlockSchema:
    """One nested block type. `labels` are the label *names* (one JSON nesting level each).
    `body` None means the block's body is decoded with `OPEN_BODY`. `min_items`/`max_items`
    bound the number of blocks of this type in one body (None: unbounded). Too few are reported on
    the enclosing body's closing brace, or on its opening brace with `missing_at_open` (a minimum
    Terraform checks by code of its own, at the enclosing block's definition)."""

    type_name: str
    labels: tuple[str, ...] = ()
    body: BodySchema | None = None
    description: str = ""
    min_items: int | None = None
    max_items: int | None = None
    missing_at_open: bool = False


def _frozen_map(value: object) -> Mapping:
    if isinstance(value, MappingProxyType):
        return value
    if isinstance(value, Mapping):
        return MappingProxyType(dict(value))
    # An iterable of schemas: key them by name.
    items = {}
    for s in cast("Iterable[AttributeSchema | BlockSchema]", value):
        items[s.name if isinstance(s, AttributeSchema) else s.type_name] = s
    return MappingProxyType(items)


@dataclass(frozen=True, slots=True, eq=False)
class BodySchema:
    """What a body accepts. `attributes`/`blocks` map names to schemas (an iterable of schemas is
    accepted too and keyed by name). Compared by identity (schemas are built once)."""

    attributes: Mapping[str, AttributeSchema] = field(default_factory=dict)
    blocks: Mapping[str, BlockSchema] = field(default_factory=dict)
    dynamic_attributes: bool = False
    open_attributes: bool = False
    open_blocks: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", _frozen_map(self.attributes))
        object.__setattr__(self, "blocks", _frozen_map(self.blocks))

    def names(self) -> list[str]:
        """Every argument and block type name the schema knows (for suggestions, completion)."""
        return [*self.attributes, *self.blocks]

    @staticmethod
    def of(
        attributes: Iterable[AttributeSchema] = (),
        blocks: Iterable[BlockSchema] = (),
        *,
        dynamic_attributes: bool = False,
        open_attributes: bool = False,
        open_blocks: bool = False,
        description: str = "",
    ) -> BodySchema:
        """Convenience constructor from iterables of schemas."""
        return BodySchema(
            attributes={a.name: a for a in attributes},
            blocks={b.type_name: b for b in blocks},
            dynamic_attributes=dynamic_attributes,
            open_attributes=open_attributes,
            open_blocks=open_blocks,
            description=description,
        )


# A body that accepts anything: unknown names are attributes (see the module docstring).
OPEN_BODY = BodySchema(open_attributes=True, open_blocks=True)
# A body that is nothing but attributes (HCL JustAttributes).
DYNAMIC_BODY = BodySchema(dynamic_attributes=True)
