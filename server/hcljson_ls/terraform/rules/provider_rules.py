"""Checking a resource or data source body against its provider's schema (`provider_schema`).

    validate_resource(body, schema, text, missing_at=None, where="this block") -> list[Diagnostic]
    SCHEMA_RULES: [rule(view, block_type, body, schema, where) -> list[Finding]]   over `hcljson.view`
    schema_findings(view, block_type, body, schema, where) -> list[Finding]   every rule of SCHEMA_RULES
    quiet_test(block_type, schema) -> (values body -> bool) | None   "SCHEMA_RULES find nothing", one pass
    body_findings(view, body, schema, where, decoded_by, known=False, missing_at=None) -> list[Finding]
    block_schema(schemas, block_type, type_name, meta, required_providers, engine) -> (address, schema | None)
    check_resource_type(schemas, address, type_name, start, end, data=False) -> list[Diagnostic]
    import_identity(block, schemas, text, required_providers, engine) -> (local, type, identity) | None

Contract
--------
* `body` is the decoded body of a `resource`/`data` block (or of a nested block) decoded with an
  open schema (`terraform.schema.RESOURCE`, `PROVIDER_DEFINED_BODY`): provider-defined names are
  `Attribute`s with `schema=None`. Names the decoder knows (meta-arguments `count`, `for_each`,
  `provider`, `depends_on`; blocks `lifecycle`, `dynamic`, `provisioner`, `connection`; `"//"`
  comments) are never reported, unless asked for (`known`: the arguments of the built-in
  `connection` block, `terraform.provisioners`). A name the provider schema calls a nested block type is re-read
  as blocks (`decode.decode_blocks_from_attribute`, bodies `PROVIDER_DEFINED_BODY`) and checked
  recursively (a `map`-nested block type has one label, its key); `dynamic "<type>"` blocks are checked against that block type (their `content`
  body), and a block type produced by `dynamic` is not counted for its bounds.
* Codes (all errors except `schema/deprecated`, a warning):
  `schema/unknown-argument` (did-you-mean and a `Fix` renaming the key), `schema/missing-argument`
  (required and not computed; a `Fix` inserting it after the body's `{` with a placeholder of its
  type), `schema/too-few-blocks`, `schema/too-many-blocks`, `schema/computed-only` (a non-null
  value for an attribute only the provider sets), `schema/deprecated` (the provider marks the
  attribute or block deprecated; `Diagnostic` has no tags field, so the LSP `Deprecated` tag is
  left to the converter, keyed on the code), `schema/wrong-kind` (a JSON literal the attribute's
  type cannot take: an object or array for a primitive, a string/number/bool for a collection,
  a bool for a number, a non-numeric string for a number; never for `null` and never for a string
  with `${` or `%{`, whose type is unknown; elements of collections and object attributes are
  checked the same way), `schema/unknown-resource-type` (only when the provider's schema is
  loaded; with a suggestion), `structure/duplicate-argument` for an attribute of the schema
  given twice in one body (Terraform: "Duplicate argument"; a repeated key of a block type adds blocks),
  `schema/unknown-ignored-attribute` (a resource's `lifecycle.ignore_changes` element whose first
  name the schema lacks; on the name, with a suggestion), `schema/unknown-self-attribute`
  (`self.<name>` in a resource's provisioner, the provisioner's connection or a postcondition,
  `<name>` not in the schema; on `.name`, with a suggestion).
* Protocol-6 nested attributes (`SchemaAttribute.nested`) are checked like blocks of attributes:
  the JSON object(s) of the value have their keys checked (unknown, missing required, computed
  only, deprecated, kinds).
* Without a schema nothing is reported. Pure: no state, no I/O (memos of immutable inputs only).
* Written once over `hcljson.view` (issue 21 §1): the rules of a resource or data body against its
  schema are the registry `SCHEMA_RULES` (`resource_body_findings`: `body_findings`, the body
  check; `ignored_name_findings`: `unknown_ignored`; `self_attribute_findings`), run by
  `check_sites` on the tree (`TreeView`, placed by `diagnostics_of`, each rule's diagnostics sorted
  by place) and by `terraform.quick` on the C scanner's values (`VALUES`: a block is certified only
  when every rule finds nothing and asks nothing `Unanswerable`). `validate_resource` (provisioner,
  connection, ephemeral and config bodies) is `body_findings` on the tree.
* Speed: the shortcuts (`_plan`, `_plainly_ok`, `_plain_blocks`; on values `_by_type`, compiled once
  per schema) skip only what cannot be reported (tests/terraform/test_provider_rules_fast_paths.py).
  `quiet_test(block_type, schema)`: for the quick open, one pass over a whole resource/data body on
  values, compiled once per schema from those same pieces, True only when every rule of
  `SCHEMA_RULES` finds nothing (False: cannot say, run the rules); None unless the registry is
  exactly the three rules it was written for (tests/terraform/test_provider_rules_quiet.py).
  `schema/wrong-kind` (`wrong_kinds`) runs a check compiled once per type (`kind_checker`, memo by
  the type object's identity; tests/terraform/test_kind_checker.py). Figures: docs/performance.md.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from ...diagnostic import ERROR, WARNING, Diagnostic, Fix
from ...hcljson.decode import decode_top_again
from ...hcljson.model import Block, Body
from ...hcljson.problems import duplicate_argument, suggestion
from ...hcljson.schema import BlockSchema, BodySchema
from ...hcljson.skim import Pairs
from ...hcljson.values import string_text
from ...hcljson.view import (
    ABSENT,
    NO_VALUE,
    VALUES,
    Finding,
    Span,
    TreeValue,
    TreeView,
    Unanswerable,
    ValueView,
    decoded_names,
    diagnostics_of,
    python_types,
)
from ...jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE, Container, Node
from ...template.lexer import IDENTIFIER_PATTERN
from ..definition import catalogue
from ..definition.schema import CONFIG_SCHEMA, PROVIDER, PROVIDER_DEFINED_BODY
from ..resolution.argument_sites import ArgumentSite, argument_site, type_text
from ..resolution.reference_walk import expression_references
from ..resolution.references import Reference
from ..schemas.provider_lookup import (
    INHERITED_USES,
    PROVIDER_USE,
    configuration_declared,
    meta_provider,
    placeholder,
    provider_config_schema,
)
from ..schemas.provider_schema import (
    BUILTIN_TERRAFORM,
    GROUP,
    MAP,
    SINGLE,
    NestedAttributes,
    ProviderSchemas,
    SchemaAttribute,
    SchemaBlock,
    SchemaBlockType,
    provider_of,
)

UNKNOWN_ARGUMENT = "schema/unknown-argument"
MISSING_ARGUMENT = "schema/missing-argument"
TOO_FEW_BLOCKS = "schema/too-few-blocks"
TOO_MANY_BLOCKS = "schema/too-many-blocks"
COMPUTED_ONLY = "schema/computed-only"
DEPRECATED = "schema/deprecated"
WRONG_KIND = "schema/wrong-kind"
UNKNOWN_RESOURCE_TYPE = "schema/unknown-resource-type"
UNKNOWN_IGNORED = "schema/unknown-ignored-attribute"
UNKNOWN_SELF = "schema/unknown-self-attribute"

#: Data sources whose provider does not refuse a value for a computed-only attribute: the built-in
#: `terraform_remote_state` (its `outputs`; `terraform validate` 1.11.4 accepts the value, unlike an SDK
#: provider or `terraform_data`, which say the attribute is read-only).
_COMPUTED_SETTABLE = frozenset({(BUILTIN_TERRAFORM, "terraform_remote_state")})

CODES = (
    UNKNOWN_ARGUMENT,
    MISSING_ARGUMENT,
    TOO_FEW_BLOCKS,
    TOO_MANY_BLOCKS,
    COMPUTED_ONLY,
    DEPRECATED,
    WRONG_KIND,
    UNKNOWN_RESOURCE_TYPE,
)

#: The end of an unknown name's detail when no known name is close to it.
NOT_IN_THIS_VERSION = "The provider's schema in use does not have it; another version of the provider may."

_TEMPLATE = re.compile(r"[$%]\{")
_KIND_PHRASE = {
    OBJECT: "a JSON object",
    ARRAY: "a JSON array",
    STRING: "a string",
    NUMBER: "a number",
    TRUE: "a bool",
    FALSE: "a bool",
}


@functools.lru_cache(maxsize=4096)  # the same few names, once per block and nested block
def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _items(node: Node):
    return node.items if isinstance(node, Container) else ()


# ---- kinds ---------------------------------------------------------------------------------------------


def _expected(cty: Any) -> str:
    if isinstance(cty, str):
        return {"string": "a string", "number": "a number", "bool": "a bool"}.get(cty, "any value")
    kind = cty[0]
    return {"list": "a list (JSON array)", "set": "a set (JSON array)", "tuple": "a tuple (JSON array)"}.get(
        kind, "a map or object (JSON object)"
    )


_NUMBER_WORDS = frozenset({"nan", "inf", "-inf", "+inf", "infinity"})
#: The strings a bool attribute takes.
BOOL_STRINGS = frozenset({"true", "false", "1", "0"})


def _numeric(value: str) -> bool:
    """Whether a string converts to a number (as a number attribute's value): a decimal number,
    spaces around it allowed; not the words Python's `float` also reads (`nan`, `inf`, ...)."""
    t = value.strip()
    if t.lower() in _NUMBER_WORDS:
        return False
    try:
        float(t)
    except ValueError:
        return False
    return True


def _kind_ok(view: ValueView, v: Any, kind: str, cty: Any) -> bool:
    """Whether the JSON value `v` (of `kind`) can be converted to `cty`, as far as its own kind
    tells (not its elements)."""
    if kind == NULL or cty == "dynamic" or kind not in _KIND_PHRASE:
        return True
    if kind == STRING:
        if cty == "string":  # before decoding: most values are strings for strings
            return True
        value = view.string(v)
        if _TEMPLATE.search(value):
            return True
        if cty == "number":
            return _numeric(value)
        if cty == "bool":
            return value in BOOL_STRINGS
        return False
    if isinstance(cty, str):
        if cty == "string":
            return kind in (NUMBER, TRUE, FALSE)
        if cty == "number":
            return kind == NUMBER
        if cty == "bool":
            return kind in (TRUE, FALSE)
        return True
    if cty[0] in ("list", "set", "tuple"):
        return kind == ARRAY
    return kind == OBJECT


#: The JSON kinds a primitive type always takes (no string to decode): checked before any call.
_ALWAYS_OK = {
    "string": frozenset({STRING, NUMBER, TRUE, FALSE, NULL}),
    "number": frozenset({NUMBER, NULL}),
    "bool": frozenset({TRUE, FALSE, NULL}),
    "dynamic": frozenset({STRING, NUMBER, TRUE, FALSE, NULL, OBJECT, ARRAY}),
}
_NOTHING_OK: frozenset = frozenset()


#: What `kind_checker` compiles: `check(view, v, name, out)`, `wrong_kinds` for one type.
KindCheck = Callable[[ValueView, Any, str, list[Finding]], None]
#: The compiled checks, by type (a string, or the identity of a type's list, kept alive with it).
_CHECKS: dict[Any, tuple[Any, KindCheck]] = {}
_CHECKS_LIMIT = 8192


def wrong_kinds(view: ValueView, v: Any, cty: Any, name: str, out: list[Finding]) -> None:
    """`schema/wrong-kind` for value `v` of attribute `name` of type `cty` and, recursively, its
    elements, appended to `out`: the one rule, run on the tree (`_check_value`) and on the C
    scanner's values (`terraform.quick`). Runs the check `kind_checker(cty)` compiled."""
    kind_checker(cty)(view, v, name, out)


def kind_checker(cty: Any) -> KindCheck:
    """The rule `wrong_kinds` for values of type `cty`, compiled once per type (a memo by the type's
    identity: schemas' types are not changed once read) so that a value's check does not dispatch on
    the type again: its value's kind, then its elements' checks, compiled likewise."""
    key = cty if type(cty) is str else id(cty)
    hit = _CHECKS.get(key)
    if hit is not None and hit[0] is cty:
        return hit[1]
    check = _compile(cty)
    if len(_CHECKS) >= _CHECKS_LIMIT:
        _CHECKS.clear()
    _CHECKS[key] = (cty, check)
    return check


def _wrong_kind(v: Any, cty: Any, name: str, kind: str) -> Finding:
    return Finding(v, ERROR, WRONG_KIND, f"Incorrect value for {_q(name)}",
                   f"The argument {_q(name)} needs {_expected(cty)}, but this is {_KIND_PHRASE[kind]}.")


def _compile(cty: Any) -> KindCheck:
    """`wrong_kinds` for type `cty`: a value of the kind the type's elements are read from (an array
    for a list, set or tuple; an object for a map or object) has its elements checked; any other
    kind is tested by `_kind_ok` (a primitive type first by the kinds it always takes)."""
    if type(cty) is str:
        ok = _ALWAYS_OK.get(cty, _NOTHING_OK)

        def primitive(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
            kind = view.kind(v)
            if kind not in ok and not _kind_ok(view, v, kind, cty):
                out.append(_wrong_kind(v, cty, name, kind))
        return primitive
    inner = _elements_check(cty) if isinstance(cty, list) and len(cty) >= 2 else None
    if inner is None:
        def shape_only(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
            kind = view.kind(v)
            if not _kind_ok(view, v, kind, cty):
                out.append(_wrong_kind(v, cty, name, kind))
        return shape_only
    container, elements = inner

    def collection(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
        kind = view.kind(v)
        if kind == container:  # (`_kind_ok` holds: the kind the type is read from)
            elements(view, v, name, out)
        elif not _kind_ok(view, v, kind, cty):
            out.append(_wrong_kind(v, cty, name, kind))
    return collection


def _skip(cty: Any) -> frozenset:
    """The kinds an element of type `cty` needs no call for: those a primitive type always takes."""
    return _ALWAYS_OK.get(cty, _NOTHING_OK) if type(cty) is str else _NOTHING_OK


def _plain_collection(cty: Any) -> tuple[str, frozenset] | None:
    """For a list, set or map of a primitive type: the JSON kind of its values and the kinds of
    elements its check returns at once for (`_skip`); None for other types."""
    if type(cty) is list and len(cty) >= 2 and cty[0] in ("list", "set", "map") and type(cty[1]) is str:
        ok = _skip(cty[1])
        if ok:
            return (OBJECT if cty[0] == "map" else ARRAY), ok
    return None


def _elements_check(cty: list) -> tuple[str, KindCheck] | None:
    """The JSON kind that `cty`'s values' elements are read from and the check of those elements;
    None for a type whose elements are not checked."""
    outer, of = cty[0], cty[1]
    if outer in ("list", "set", "map"):
        check, ok = kind_checker(of), _skip(of)
        if outer == "map":
            def map_values(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
                kind = view.kind
                for _, x in view.members(v):
                    if kind(x) not in ok:
                        check(view, x, name, out)
            return OBJECT, map_values

        def items(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
            kind = view.kind
            for x in view.items(v):
                if kind(x) not in ok:
                    check(view, x, name, out)
        return ARRAY, items
    if outer == "tuple" and isinstance(of, list):
        checks = [kind_checker(t) for t in of]

        def tuple_items(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
            for x, check in zip(view.items(v), checks):
                check(view, x, name, out)
        return ARRAY, tuple_items
    if outer == "object" and isinstance(of, Mapping):
        fields = {key: (kind_checker(t), _skip(t), _plain_collection(t)) for key, t in of.items() if t is not None}

        def object_fields(view: ValueView, v: Any, name: str, out: list[Finding]) -> None:
            kind = view.kind
            for key, x in view.members(v):
                field = fields.get(key)
                if field is None:
                    continue
                k = kind(x)
                if k in field[1]:
                    continue
                plain = field[2]
                if plain is not None and k == plain[0]:  # a list/set/map of a primitive type:
                    ok = plain[1]  # nothing to find when its elements all are of kinds it takes
                    for e in view.items(x) if k == ARRAY else (e for _, e in view.members(x)):
                        if kind(e) not in ok:
                            break
                    else:
                        continue
                field[0](view, x, f"{name}.{key}", out)
        return OBJECT, object_fields
    return None


# ---- attributes ------------------------------------------------------------------------------------------
#
# The rule of a body against its schema is written once, over `hcljson.view`: the full path runs it on
# the tree (`validate_resource`, `check_sites`), the quick open on the C scanner's values
# (`terraform.quick`: a finding, or a question the values cannot answer, sends the block to the full
# analysis). Findings are placed by `view.diagnostics_of`.


def _unknown(at: Any, name: str, candidates: list[str], where: str, what: str = "argument or nested block type",
             summary: str = "Unsupported argument") -> Finding:
    s = suggestion(name, candidates)
    # Not a likely typo: perhaps a name of another version of the provider than the schema in use.
    hint = f" Did you mean {_q(s)}?" if s is not None else f" {NOT_IN_THIS_VERSION}"
    return Finding(at, ERROR, UNKNOWN_ARGUMENT, f"{summary} {_q(name)}",
                   f"There is no {what} named {_q(name)} in {where}.{hint}",
                   fixes=((_q(s), f"Change to {_q(s)}"),) if s is not None else ())


def _missing(name: str, a: SchemaAttribute, where: str, at: Any, insert_at: Any, first: bool,
             span: tuple[int, int] | None = None) -> Finding:
    fixes: tuple[tuple[str, str], ...] = ()
    if insert_at is not None:
        fixes = ((f"{_q(name)}: {placeholder(a)}" + ("" if first else ", "), f"Add missing required argument {_q(name)}"),)
    return Finding(at, ERROR, MISSING_ARGUMENT, f"Missing required argument {_q(name)}",
                   f"The argument {_q(name)} (type {a.type}) is required in {where}, but it is not set.",
                   span=span, fixes=fixes, fix_at=insert_at)


def _duplicate(at: Any, name: str, first: Any) -> Finding:
    """`hcljson.problems.duplicate_argument`'s diagnostic, on handles."""
    d = duplicate_argument(0, 0, name, (0, 0))
    return Finding(at, d.severity, d.code, d.summary, d.detail, related=((first, d.related[0].message),))


def _set_attribute(view: ValueView, a: SchemaAttribute, name: str, key: Any, v: Any, where: str, out: list[Finding]) -> None:
    """The checks of one configured attribute (value `v`, or `NO_VALUE`; its key's handle `key`)."""
    if v is NO_VALUE:
        return
    kind = view.kind(v)
    if kind == NULL:
        return
    if a.computed_only:
        out.append(Finding(key, ERROR, COMPUTED_ONLY, f"Value for unconfigurable attribute {_q(name)}",
                           f"The attribute {_q(name)} of {where} is set by the provider; it cannot be configured."))
        return
    if a.deprecated:
        out.append(Finding(key, WARNING, DEPRECATED, f"Deprecated attribute {_q(name)}",
                           f"The provider marks the attribute {_q(name)} of {where} as deprecated."))
    if a.nested is not None:
        _check_nested(view, a.nested, name, v, kind, out)
    elif a.cty is not None:
        cty = a.cty
        if type(cty) is str and kind in _ALWAYS_OK.get(cty, _NOTHING_OK):
            return
        kind_checker(cty)(view, v, name, out)


def _check_nested(view: ValueView, nested: NestedAttributes, name: str, v: Any, kind: str, out: list[Finding]) -> None:
    """A nested-type value: its object(s) checked like block bodies of attributes."""
    want_array = nested.nesting not in (SINGLE, MAP)
    if kind == STRING and _TEMPLATE.search(view.string(v)):
        return
    if kind != (ARRAY if want_array else OBJECT):
        out.append(Finding(v, ERROR, WRONG_KIND, f"Incorrect value for {_q(name)}",
                           f"The argument {_q(name)} needs {'a JSON array of objects' if want_array else 'a JSON object'}, "
                           f"but this is {_KIND_PHRASE.get(kind, 'something else')}."))
        return
    if nested.nesting == SINGLE:
        objects: Any = (v,)
    elif kind == ARRAY:
        objects = view.items(v)
    else:
        objects = [x for _, _, x in view.fields(v) if x is not NO_VALUE]
    where = f"{_q(name)}"
    for obj in objects:
        k = view.kind(obj)
        if k == OBJECT:
            _check_object_attributes(view, nested.attributes, obj, where, out)
        elif not (k == NULL or (k == STRING and _TEMPLATE.search(view.string(obj)))):
            out.append(Finding(obj, ERROR, WRONG_KIND, f"Incorrect value for {_q(name)}",
                               f"Each element of {_q(name)} must be a JSON object, but this is {_KIND_PHRASE.get(k, 'something else')}."))


def _check_object_attributes(view: ValueView, attributes: Mapping[str, SchemaAttribute], obj: Any, where: str,
                             out: list[Finding]) -> None:
    seen: set[str] = set()
    members = False
    for key, at, x in view.fields(obj):
        members = True
        seen.add(key)
        if key == "//" or _TEMPLATE.search(key):
            continue
        a = attributes.get(key)
        if a is None:
            candidates = [n for n, a in attributes.items() if not a.computed_only]
            out.append(_unknown(at, key, candidates, f"the objects of {where}", "attribute"))
            continue
        _set_attribute(view, a, key, at, x, where, out)
    for n, a in attributes.items():
        if a.required and n not in seen:
            out.append(_missing(n, a, where, obj, view.point(obj, 1), not members, (0, 1)))


# ---- bodies --------------------------------------------------------------------------------------------


def validate_resource(
    body: Body, schema: SchemaBlock | None, text: str, missing_at: tuple[int, int] | None = None, where: str = "this block",
    known: bool = False,
) -> list[Diagnostic]:
    """The diagnostics of `body` (see the module doc) against `schema`; `missing_at` is where a
    missing required argument or block is reported (default, where Terraform reports it:
    `Body.missing_item_range`, the body's closing brace). With `known`, the
    arguments the decoder knows that `schema` names are checked too (a body whose arguments the
    decoder lists, such as `connection`; never a resource body, where such names are meta-arguments).
    `body_findings` on the tree, placed and sorted."""
    if schema is None:
        return []
    view = TreeView(text)
    diags = diagnostics_of(view, body_findings(view, body, schema, where, PROVIDER_DEFINED_BODY, known,
                                               Span(*missing_at) if missing_at is not None else None))
    diags.sort(key=_by_place)
    return diags


def _by_place(d: Diagnostic) -> tuple[int, int, str]:
    return (d.start, d.end, d.code)


def body_findings(view: ValueView, body: Any, schema: SchemaBlock, where: str, decoded_by: BodySchema,
                  known: bool = False, missing_at: Any = None) -> list[Finding]:
    """The rule of a body against `schema` (see the module doc): unknown names, computed-only and
    deprecated attributes, wrong kinds, duplicate arguments, missing required arguments, block
    counts, nested blocks (and `dynamic` ones) recursively. `decoded_by`: the body schema the tree
    was decoded with (the names the decoder reads itself, on the values view); `missing_at`: a
    handle where a missing item is reported instead of the body's `missing_place`. Unplaced
    (`diagnostics_of` places them), in an order the caller sorts."""
    out: list[Finding] = []
    _validate_body(view, body, schema, missing_at, where, decoded_by, out, known)
    return out


def _validate_body(
    view: ValueView, body: Any, schema: SchemaBlock, missing_at: Any, where: str, decoded_by: BodySchema,
    out: list[Finding], known: bool = False,
) -> None:
    """`body_findings` into `out`, in phases, each called once per body: the members the decoder
    does not read itself (`_check_arguments`), the `dynamic` blocks (`_check_dynamic_blocks`), then
    what the whole body lacks (`_check_missing`) and the block types given too often (`_check_too_many`)."""
    args, keys = view.arguments(body, decoded_by, schema.attributes if known else ())
    names = dict(args)  # (in C) the names set, for `required`; fewer than the members: a name repeated
    required, _, minimum, plain, collections = _plan(schema)
    counts = _check_arguments(view, schema, plain, collections, args, keys, len(names) != len(args), where, out)
    dynamic_types = _check_dynamic_blocks(view, body, schema, where, out)
    if required or minimum:
        _check_missing(view, body, required, minimum, names, counts, dynamic_types, missing_at, where, out)
    if counts:
        _check_too_many(schema, args, keys, counts, dynamic_types, where, out)


def _check_arguments(
    view: ValueView, schema: SchemaBlock, plain: Mapping[str, frozenset], collections: Mapping[str, list], args: Any, keys: Any,
    repeats: bool, where: str, out: list[Finding],
) -> dict[str, int]:
    """The checks of each member of `args` (`view.arguments`; `keys` their keys' handles, or None when
    the names are the handles; `repeats`: some name is given twice): a duplicate attribute, a value
    the plain tests pass (`plain`, `collections`: `_plan`'s; on values `_by_type`), an attribute's
    checks (`_set_attribute`), an unknown name, a block type's blocks (`_check_block_member`).
    Returns the blocks counted per block type."""
    counts: dict[str, int] = {}
    attributes = schema.attributes
    kind = view.kind
    # On the values view, the kinds an attribute always takes as Python types (`_by_type`).
    typed, typed_collections = _by_type(schema) if view.by_type else (None, {})
    repeated: dict[str, Any] | None = {} if repeats else None

    for i, (name, v) in enumerate(args):
        if repeated is not None:
            first = repeated.get(name)
            if first is None:
                repeated[name] = i
            elif name in attributes:
                # A repeated key names blocks again (HCL JSON), never an attribute twice.
                out.append(_duplicate(name if keys is None else keys[i], name, name if keys is None else keys[first]))
                continue
        if typed is not None:  # the two tests below, on the values' Python types (the same answers)
            ok = typed.get(name)
            if ok is not None:
                if type(v) in ok:
                    continue
            else:
                col = typed_collections.get(name)
                if col is not None and type(v) is col[0] and (
                        all(type(x) in col[1] for x in v) if col[0] is list else all(type(x) in col[1] for _, x in v)):  # type: ignore[attr-defined]
                    continue
        elif v is not NO_VALUE:
            k = kind(v)
            if k in plain.get(name, _NOTHING_OK):
                continue  # a plain value its (configurable, current, primitive) attribute takes
            cty = collections.get(name)
            if cty is not None and _plainly_ok(view, v, k, cty):
                continue  # the same for a collection of primitives
        key = name if keys is None else keys[i]
        a = attributes.get(name)
        if a is not None:
            _set_attribute(view, a, name, key, v, where, out)
            continue
        bt = schema.block_types.get(name)
        if bt is None:
            candidates = [n for n, a in attributes.items() if not a.computed_only] + list(schema.block_types)
            out.append(_unknown(key, name, candidates, where))
            continue
        counts[name] = counts.get(name, 0) + _check_block_member(view, name, key, v, bt, where, out)
    return counts


def _check_block_member(view: ValueView, name: str, key: Any, v: Any, bt: SchemaBlockType, where: str,
                        out: list[Finding]) -> int:
    """The blocks of block type `bt` that member `name` (value `v`, or `NO_VALUE`; its key's handle
    `key`) writes: counted (from the JSON alone when there is nothing to report in them,
    `_plain_blocks`; else read as the decoder reads them and each checked against `bt`), and
    `schema/deprecated` for a deprecated block type. Returns how many."""
    plain_count = None if v is NO_VALUE else _plain_blocks(view, v, bt)
    if plain_count is None:
        bodies = () if v is NO_VALUE else view.nested_bodies(key, v, _nested_schema(name, bt.nesting == MAP))
        plain_count = len(bodies)
    else:
        bodies = ()
    if bt.block.deprecated and plain_count:
        out.append(Finding(key, WARNING, DEPRECATED, f"Deprecated block type {_q(name)}",
                           f"The provider marks the block type {_q(name)} of {where} as deprecated."))
    if bodies:
        inner = f"a {_q(name)} block"
        for nested in bodies:
            _validate_body(view, nested, bt.block, None, inner, PROVIDER_DEFINED_BODY, out)
    return plain_count


def _check_dynamic_blocks(view: ValueView, body: Any, schema: SchemaBlock, where: str, out: list[Finding]) -> set[str]:
    """Each `dynamic "<type>"` block of `body`: an unknown type, else its `content` bodies checked
    against that block type. Returns the types written by `dynamic` (their counts are not known)."""
    dynamic_types: set[str] = set()
    for at, label, contents in view.dynamic_blocks(body):
        bt = schema.block_types.get(label)
        if bt is None:
            out.append(_unknown(at, label, list(schema.block_types), where, "nested block type", "Unsupported block type"))
            continue
        dynamic_types.add(label)
        for content in contents:
            _validate_body(view, content, bt.block, None, f"a {_q(label)} block", PROVIDER_DEFINED_BODY, out)
    return dynamic_types


def _check_missing(
    view: ValueView, body: Any, required: tuple, minimum: tuple, names: Mapping[str, Any], counts: Mapping[str, int],
    dynamic_types: set[str], missing_at: Any, where: str, out: list[Finding],
) -> None:
    """`schema/missing-argument` for each `required` attribute (`_plan`'s) not in `names`,
    `schema/too-few-blocks` for each block type of `minimum` with fewer blocks (not one `dynamic`
    writes): at `missing_at`, else at the body's `missing_place`."""
    place = None
    for n, a in required:
        if n not in names:
            if place is None:
                place = view.missing_place(body)
            out.append(_missing(n, a, where, missing_at or place[0], place[1], place[2]))
    for n, low, _ in minimum:
        if n in dynamic_types:
            continue
        if counts.get(n, 0) < low:
            if place is None:
                place = view.missing_place(body)
            out.append(Finding(
                missing_at or place[0], ERROR, TOO_FEW_BLOCKS, f"Insufficient {_q(n)} blocks",
                f"At least {low} {_q(n)} block{'s' if low != 1 else ''} {'are' if low != 1 else 'is'} required in {where}.",
            ))


def _check_too_many(schema: SchemaBlock, args: Any, keys: Any, counts: Mapping[str, int], dynamic_types: set[str], where: str,
                    out: list[Finding]) -> None:
    """`schema/too-many-blocks` for each block type of `counts` over its maximum (not one `dynamic`
    writes), on the first member of `args` naming it."""
    bounds = _bounds(schema)
    attributes = schema.attributes
    for n, count in counts.items():
        bound = bounds.get(n)
        if bound is None or n in dynamic_types or count < bound[0] or bound[1] is None or count <= bound[1]:
            continue
        high = bound[1]
        for i, (name, _) in enumerate(args):
            if name == n and name not in attributes:
                out.append(Finding(
                    name if keys is None else keys[i], ERROR, TOO_MANY_BLOCKS, f"Too many {_q(n)} blocks",
                    f"No more than {high} {_q(n)} block{'s are' if high != 1 else ' is'} allowed in {where}, but there are {count}.",
                ))
                break


@functools.lru_cache(maxsize=4096)
def _bounds(schema: SchemaBlock) -> dict[str, tuple[int, int | None]]:
    """`_plan`'s bounded block types of `schema` by name: (at least, at most or None)."""
    return {n: (low, high) for n, low, high in _plan(schema)[1]}


def _plain_blocks(view: ValueView, v: Any, bt: SchemaBlockType) -> int | None:
    """How many blocks value `v` of block type `bt` writes when there is nothing to report in any of
    them, read from the JSON alone: an object or an array of objects (not a map-nested type, no
    member broken) whose every key names, once, an attribute of `bt` whose value needs no check
    (`_plan`), with every required attribute set and no block type with a minimum. Else None: the
    blocks are read as the decoder reads them and checked (`view.nested_bodies`). Decoding the
    nested blocks was a third of the validation of AWS resources on the tree (bench_schemas:
    `root_block_device`, `metadata_options`, `ebs_block_device`); on values it saves the recursion."""
    if bt.nesting == MAP:
        return None
    required, _, minimum, plain, collections = _plan(bt.block)
    if minimum:
        return None
    kind = view.kind
    k = kind(v)
    if k == OBJECT:
        objects: Any = (v,)
    elif k == ARRAY:
        objects = view.whole_items(v)
        if objects is None or any(kind(o) != OBJECT for o in objects):
            return None
    else:
        return None
    typed = _by_type(bt.block)[0] if view.by_type else None
    for obj in objects:
        members = view.whole_members(obj)
        if members is None:
            return None
        names = set()
        for name, x in members:
            if name in names or name == "dynamic":
                return None
            if typed is not None:
                ok = typed.get(name)
                if ok is not None and type(x) in ok:
                    names.add(name)
                    continue
            xk = kind(x)
            if xk not in plain.get(name, _NOTHING_OK):
                cty = collections.get(name)
                if cty is None or not _plainly_ok(view, x, xk, cty):
                    return None
            names.add(name)
        if required and any(n not in names for n, _ in required):
            return None
    return len(objects)


def _plainly_ok(view: ValueView, v: Any, kind: str, cty: list) -> bool:
    """Whether value `v` (of `kind`) of a list/set (JSON array) or map (JSON object) of a primitive
    type needs no check: its elements all are of kinds that type always takes."""
    if kind != (ARRAY if cty[0] in ("list", "set") else OBJECT if cty[0] == "map" else None):
        return False
    ok = _ALWAYS_OK[cty[1]]
    if view.by_type:
        types = python_types(ok)
        if kind == ARRAY:
            return all(type(x) in types for x in view.items(v))
        return all(type(x) in types for _, x in view.members(v))
    k = view.kind
    if kind == ARRAY:
        return all(k(x) in ok for x in view.items(v))
    return all(x is NO_VALUE or k(x) in ok for _, _, x in view.fields(v))


@functools.lru_cache(maxsize=1024)
def _plainly_checked(a: SchemaAttribute) -> bool:
    """Whether a value of attribute `a` is checked for its type alone: configurable, not
    deprecated, not nested (the others always get a closer look)."""
    return a.nested is None and not a.computed_only and not a.deprecated


@functools.lru_cache(maxsize=4096)  # by the schema's identity: worked out once per schema (AWS: ~1,700 types)
def _plan(schema: SchemaBlock) -> tuple[tuple, tuple, tuple, dict[str, frozenset], dict[str, list]]:
    """What every body of `schema` is checked for, worked out once per schema, not per body: its
    required attributes; its block types with bounds (name, at least, at most or None), and those
    with a minimum; for each configurable, not deprecated attribute of a primitive type, the JSON
    kinds it always takes (a value of such a kind needs no check); and such attributes of a list,
    set or map of a primitive type, with their type (for `_plainly_ok`)."""
    required = tuple((n, a) for n, a in schema.attributes.items() if a.required)
    plain: dict[str, frozenset] = {}
    collections: dict[str, list] = {}
    for n, a in schema.attributes.items():
        if not _plainly_checked(a):
            continue
        cty = a.cty
        if type(cty) is str and cty in _ALWAYS_OK:
            plain[n] = _ALWAYS_OK[cty]
        elif type(cty) is list and len(cty) == 2 and cty[0] in ("list", "set", "map") and type(cty[1]) is str and cty[1] in _ALWAYS_OK:
            collections[n] = cty
    bounded = []
    for n, bt in schema.block_types.items():
        if bt.nesting == GROUP:
            continue
        low = bt.min_items or 0
        high = bt.max_items if bt.max_items is not None else (1 if bt.nesting == SINGLE else None)
        if low or high is not None:
            bounded.append((n, low, high))
    return required, tuple(bounded), tuple(b for b in bounded if b[1]), plain, collections


@functools.lru_cache(maxsize=4096)
def _by_type(schema: SchemaBlock) -> tuple[dict[str, frozenset], dict[str, tuple[type, frozenset]]]:
    """`_plan`'s tests of `schema`'s bodies compiled for the values view, once per schema: each plain
    attribute's kinds as Python types (`view.python_types`), and each list/set/map-of-primitive
    attribute's container type and element types (`_plainly_ok`): a value's first test without a
    call. Measured on the 5 MB bench_schemas AWS document's 5,645 resource bodies on values
    (`resource_body_findings`, medians of 7, alternating in one process, loaded machine): 63.3 ms
    with the generic `kind` tests, 52.6 ms with these."""
    _, _, _, plain, collections = _plan(schema)
    containers = {"list": list, "set": list, "map": Pairs}
    return ({n: python_types(kinds) for n, kinds in plain.items()},
            {n: (containers[cty[0]], python_types(_ALWAYS_OK[cty[1]])) for n, cty in collections.items()})


@functools.lru_cache(maxsize=1024)
def _nested_schema(name: str, labelled: bool) -> BlockSchema:
    return BlockSchema(name, labels=("key",) if labelled else (), body=PROVIDER_DEFINED_BODY)
# ---- resource types and whole blocks ---------------------------------------------------------------------


def check_resource_type(
    schemas: ProviderSchemas, address: str, type_name: str, start: int, end: int, data: bool = False
) -> list[Diagnostic]:
    """`schema/unknown-resource-type` when provider `address` is loaded and has no such type."""
    if not schemas.has_provider(address):
        return []
    # A lookup (memoized), not a scan of the ~1,000 names, for the usual known type.
    if (schemas.data_source(address, type_name) if data else schemas.resource(address, type_name)) is not None:
        return []
    known = schemas.data_source_types(address) if data else schemas.resource_types(address)
    s = suggestion(type_name, known)
    what = "data source" if data else "resource type"
    hint = f" Did you mean {_q(s)}?" if s is not None else f" {NOT_IN_THIS_VERSION}"
    fixes = (Fix(start, end, _q(s), f"Change to {_q(s)}"),) if s is not None else ()
    return [
        Diagnostic(
            start, end, ERROR, UNKNOWN_RESOURCE_TYPE, f"Invalid {what} {_q(type_name)}",
            f"The provider {address} does not support the {what} {_q(type_name)}.{hint}", (), fixes,
        )
    ]


def _check_ephemeral_type(schemas: ProviderSchemas, address: str, type_name: str, start: int, end: int) -> list[Diagnostic]:
    """`schema/unknown-resource-type` for an ephemeral resource type provider `address` does not
    have, when its schema lists its ephemeral resource types (Terraform: "Invalid ephemeral
    resource"); the body is not checked against a schema (not indexed)."""
    known = schemas.ephemeral_resource_types(address)
    if known is None or type_name in known:
        return []
    s = suggestion(type_name, known)
    hint = f" Did you mean {_q(s)}?" if s is not None else ""
    return [
        Diagnostic(
            start, end, ERROR, UNKNOWN_RESOURCE_TYPE, f"Invalid ephemeral resource type {_q(type_name)}",
            f"The provider {address} does not support the ephemeral resource type {_q(type_name)}"
            + ("; it has none." if not known else ".") + hint,
            (), (Fix(start, end, _q(s), f"Change to {_q(s)}"),) if s is not None else (),
        )
    ]


class SchemaSite:
    """A `resource`, `data` or `ephemeral` block to check against its provider's schema when the module's
    schemas and `required_providers` are known: one of a block's `FileChecks` refs (`delta`: how far
    its block has moved since, for a reader of refs at their current places).

    The decoded block is held only until the site is first resolved (`release`, by the checks'
    `resolve`, whether schemas are known or not); `block_in(text)` decodes it again after that, from
    its JSON node, in the frame of `text` the refs are resolved in. Holding it for every resource
    kept every decoded body of a file alive (~2x the text of a CDKTF-like document)."""

    __slots__ = ("_block", "_recipe", "delta")

    def __init__(self, block: Block | None, delta: int = 0, recipe: tuple | None = None) -> None:
        self._block = block
        self.delta = delta
        if recipe is None:
            assert block is not None
            body = block.body
            recipe = (block.type_name, block.type_start, block.type_end, block.labels, block.schema,
                      body.node, body.start, body.schema)
        self._recipe = recipe

    def shifted(self, delta: int) -> SchemaSite:
        return self if delta == 0 else SchemaSite(self._block, self.delta + delta, self._recipe)

    def block_in(self, text: Any) -> Block:
        """The block, at the positions it had when the site was made (read in `text`, seen in that frame)."""
        block = self._block
        if block is not None:
            return block
        type_name, type_start, type_end, labels, schema, node, start, body_schema = self._recipe
        if node is None:
            body = Body(None, start, start, body_schema)
        else:
            body = decode_top_again(text, node, start, body_schema, type_name)
        return Block(type_name, type_start, type_end, labels, body, schema)

    def release(self) -> None:
        """Let the decoded block go (`block_in` decodes it again when asked)."""
        self._block = None


def schema_sites(block: Block) -> list[SchemaSite]:
    """The sites of top-level `block` (one for a labelled resource, data, ephemeral or action block,
    a `provider` block with its local name, or an `import` block with an `identity`; else none)."""
    if block.type_name in catalogue.TYPED_BLOCKS and len(block.labels) >= 2:
        return [SchemaSite(block)]
    if block.type_name == "provider" and len(block.labels) == 1:
        return [SchemaSite(block)]
    if block.type_name == "import" and block.body.attribute("identity") is not None:
        return [SchemaSite(block)]
    return []


def _local_name(block: Block, meta_value: str | None) -> str:
    """The provider local name of a resource or data block: the `provider` meta-argument's first
    part, else the type's prefix (`provider_schema.provider_for`'s rule)."""
    if meta_value and "${" not in meta_value:
        return meta_value.split(".", 1)[0]
    return block.labels[0].value.split("_", 1)[0]


def check_sites(
    sites: list[SchemaSite], schemas: ProviderSchemas, text: Any, required_providers: Mapping[str, Any], engine: str,
    used: Callable[[tuple], bool] | None = None, arguments: list[ArgumentSite] | None = None,
) -> tuple[list[Diagnostic], set]:
    """The diagnostics of `sites` (`_validate_block` each) and the keys they used: `("provider-source",
    local name)` per site (a `required_providers` entry of that name coming or going changes the
    answer). A `provider` block is checked only when `used` says a resource of the module uses its
    configuration (`used(provider_lookup.configuration_used key)`: `terraform validate` reads no
    other), and it uses that key. With `arguments`, the `ArgumentSite`s of the resources and data
    sources with a schema are appended to it (`typed_arguments`), for the caller to resolve."""
    out: list[Diagnostic] = []
    uses: set = set()
    for site in sites:
        block = site.block_in(text)
        if block.type_name == "import":
            found = _import_identity(block, schemas, text, required_providers, engine)
            if found is not None:
                uses.add(("provider-source", found[0]))
                out.extend(found[1])
            continue
        if block.type_name == "provider":
            configuration = _configuration(block, text)
            if configuration is None:
                continue
            uses.add(("provider-source", configuration[1]))
            uses.add(configuration)
            uses.add(INHERITED_USES)
            if used is not None and used(configuration):
                out.extend(_validate_provider(block, schemas, text, required_providers, engine))
            continue
        meta_value = meta_provider(block, text)
        uses.add(("provider-source", _local_name(block, meta_value)))
        out.extend(_validate_block(block, schemas, text, required_providers, engine, meta_value, arguments))
    return out, uses


@functools.lru_cache(maxsize=4096)
def _address(type_name: str, meta: str | None, providers: tuple, engine: str) -> str | None:
    return provider_of(type_name, meta, dict(providers), engine)


def _provider_address(type_name: str, meta: str | None, required_providers: Mapping[str, Any] | None,
                      engine: str) -> str | None:
    """`provider_of`, memoized (it normalizes an address per call: 12% of the validation of a block):
    None for a type that names no provider (`_x`, ``: Terraform's "Invalid provider local name"),
    which has nothing to be checked against."""
    try:
        return _address(type_name, meta, tuple(required_providers.items()) if required_providers else (), engine)
    except TypeError:  # an unhashable entry (an object with `source`): not memoized
        return provider_of(type_name, meta, required_providers, engine)


def _validate_block(
    block: Block, schemas: ProviderSchemas, text: str, required_providers: Mapping[str, Any] | None, engine: str,
    meta_value: str | None, arguments: list[ArgumentSite] | None = None,
) -> list[Diagnostic]:
    type_label = block.labels[0]
    address = _provider_address(type_label.value, meta_value, required_providers, engine)
    if address is None:  # no provider local name: nothing to check against
        return []
    if block.type_name == "ephemeral":
        schema = schemas.ephemeral_resource(address, type_label.value)
        if schema is None:
            return _check_ephemeral_type(schemas, address, type_label.value, type_label.start, type_label.end)
        return validate_resource(block.body, schema, text, where=f"ephemeral resource {_q(type_label.value)}")
    if block.type_name in catalogue.CONFIG_SCHEMA_BLOCKS:
        return _validate_config(block, schemas, address, text)
    data = block.type_name == "data"
    _, schema = block_schema(schemas, block.type_name, type_label.value, meta_value, required_providers, engine)
    if schema is None:  # an unknown type of a loaded provider, or a provider not loaded (nothing to say)
        return check_resource_type(schemas, address, type_label.value, type_label.start, type_label.end, data)
    where = where_of(block.type_name, type_label.value)
    view = TreeView(text)
    found: list[Diagnostic] = []
    for rule in SCHEMA_RULES:
        got = diagnostics_of(view, rule(view, block.type_name, block.body, schema, where))
        got.sort(key=_by_place)
        found.extend(got)
    if arguments is not None:
        arguments.extend(_argument_sites(view, block, schema))
    if data and (address, type_label.value) in _COMPUTED_SETTABLE:
        found = [d for d in found if d.code != COMPUTED_ONLY]
    return found


def _argument_sites(view: TreeView, block: Block, schema: SchemaBlock) -> list[ArgumentSite]:
    """The `ArgumentSite`s of a resource or data source `block` against its `schema` (`typed_arguments`)."""
    out: list[ArgumentSite] = []
    for v, name, cty in typed_arguments(view, block.type_name, block.body, schema):
        if not getattr(v.node, "terminated", True):
            continue  # the syntax layer's error
        start, end = view.range(v)
        site = argument_site(start, end, view.string(v), name, type_text(cty))
        if site is not None:
            out.append(site)
    return out


def _configuration(block: Block, text: Any) -> tuple | None:
    """The provider configuration `provider` block `block` makes, as a resource using it names it
    (`(PROVIDER_USE, local, alias)`: `provider_lookup.configuration_declared`); None when its alias
    is not a literal string, or it has `for_each` (OpenTofu's instances: not judged here)."""
    if block.body.attribute("for_each") is not None:
        return None
    declared = configuration_declared(block, text)
    return None if declared is None else (PROVIDER_USE, *declared)


def _validate_provider(block: Block, schemas: ProviderSchemas, text: str, required_providers: Mapping[str, Any] | None,
                       engine: str) -> list[Diagnostic]:
    """A `provider` block against its provider's configuration schema (`provider_config_findings`),
    when that provider's schema is loaded."""
    local = block.labels[0].value
    schema = provider_config_schema(schemas, local, required_providers, engine, validated=True)
    if schema is None:
        return []
    view = TreeView(text)
    found = diagnostics_of(view, provider_config_findings(view, block.body, schema, local))
    found.sort(key=_by_place)
    return found


def _validate_config(block: Block, schemas: ProviderSchemas, address: str, text: str) -> list[Diagnostic]:
    """An `action` block (or a query file's `list` block): its type among the provider's actions
    (list resources) when its schema lists them, and its `config` block's body against that type's
    schema (a missing `config` when the schema requires an argument: `schema/missing-argument` on
    the block's type label)."""
    type_label = block.labels[0]
    action = block.type_name == "action"
    what = "action type" if action else "list resource type"
    schema = schemas.action(address, type_label.value) if action else schemas.list_resource(address, type_label.value)
    if schema is None:
        known = schemas.action_types(address) if action else schemas.list_resource_types(address)
        if known is None or type_label.value in known:
            return []
        s = suggestion(type_label.value, known)
        hint = f" Did you mean {_q(s)}?" if s is not None else ""
        return [Diagnostic(
            type_label.start, type_label.end, ERROR, UNKNOWN_RESOURCE_TYPE, f"Invalid {what} {_q(type_label.value)}",
            f"The provider {address} does not support the {what} {_q(type_label.value)}"
            + ("; it has none." if not known else ".") + hint,
            (), (Fix(type_label.start, type_label.end, _q(s), f"Change to {_q(s)}"),) if s is not None else (),
        )]
    where = f"the config of {block.type_name} {_q(type_label.value)}"
    configs = block.body.blocks_of("config")
    if not configs:
        missing = [n for n, a in schema.attributes.items() if a.required]
        if not missing:
            return []
        return [Diagnostic(
            type_label.start, type_label.end, ERROR, MISSING_ARGUMENT, "Missing required argument",
            f"The {what} {_q(type_label.value)} needs a \"config\" block with the argument {_q(missing[0])}.",
        )]
    out: list[Diagnostic] = []
    for config in configs:
        out.extend(validate_resource(config.body, schema, text, where=where))
    return out


def _import_identity(
    block: Block, schemas: ProviderSchemas, text: Any, required_providers: Mapping[str, Any], engine: str
) -> tuple[str, list[Diagnostic]] | None:
    """(provider local name, diagnostics) of an `import` block's `identity` object checked against
    the identity schema of the resource type its `to` names (`import_identity`), or None when the
    type cannot be read."""
    identity = block.body.attribute("identity")
    found = import_identity(block, schemas, text, required_providers, engine)
    if found is None or identity is None or identity.expr is None:
        return None
    local, type_name, schema = found
    node = identity.expr
    if schema is None or node.kind != OBJECT:
        return local, []
    view = TreeView(text)
    findings: list[Finding] = []
    _check_object_attributes(view, schema.attributes, TreeValue(node.node, node.start), f"the identity of {_q(type_name)}", findings)
    diags = diagnostics_of(view, findings)
    diags.sort(key=_by_place)
    return local, diags


def import_identity(
    block: Block, schemas: ProviderSchemas, text: Any, required_providers: Mapping[str, Any] | None, engine: str
) -> tuple[str, str, SchemaBlock | None] | None:
    """(provider local name, resource type, identity schema or None) of `import` block `block`: the
    type is the one its `to` names (a plain `<type>.<name>` address, with `module.` steps or
    instance keys: the step before the name), the provider that of its `provider` argument or the
    type; None when it has an `identity` argument but the type cannot be read, or no `identity`.
    The one lookup the check, completion and hover share."""
    to = block.body.attribute("to")
    identity = block.body.attribute("identity")
    if to is None or to.expr is None or to.expr.kind != STRING or identity is None or identity.expr is None:
        return None
    address_text = string_text(text, to.expr.node, to.expr.start)
    if _TEMPLATE.search(address_text):
        return None
    steps = [p for p in re.split(r"\[[^\]]*\]", address_text) if p]
    parts = ".".join(steps).split(".")
    while len(parts) >= 2 and parts[0] == "module":
        parts = parts[2:]
    if len(parts) != 2 or not parts[0]:
        return None
    type_name = parts[0]
    meta = block.body.attribute("provider")
    meta_value = text[meta.expr.start : meta.expr.end].strip('"') if meta is not None and meta.expr is not None else None
    local = meta_value.split(".", 1)[0] if meta_value and "${" not in meta_value else type_name.split("_", 1)[0]
    address = _provider_address(type_name, meta_value if meta_value and "${" not in meta_value else None, required_providers, engine)
    if address is None:  # a type that names no provider
        return None
    return local, type_name, schemas.resource_identity(address, type_name)


#: The first step of an `ignore_changes` element: a name, then the end, `.` or `[`.
_IGNORED_NAME = re.compile(rf"({IDENTIFIER_PATTERN})(?=$|[.\[])")


def unknown_ignored(view: ValueView, body: Any, schema: SchemaBlock) -> list[Finding]:
    """`schema/unknown-ignored-attribute`: an element of `lifecycle.ignore_changes` of resource
    `body` whose first name is neither an attribute nor a block type of the resource (Terraform's
    `StaticValidateTraversal` in validate: "Unsupported attribute", on the name). Only plain strings
    (no escape) are judged; that is asked only of a name that would be reported. The one rule, run
    on the tree and on the C scanner's values (`terraform.quick`)."""
    lifecycle = view.block(body, "lifecycle")
    if lifecycle is ABSENT:
        return []
    listed = view.member(lifecycle, "ignore_changes")
    if listed is ABSENT or listed is NO_VALUE or view.kind(listed) != ARRAY:
        return []
    out: list[Finding] = []
    for v in view.items(listed):
        if view.kind(v) != STRING:
            continue
        match = _IGNORED_NAME.match(view.string(v))
        if match is None or not catalogue.IDENTIFIER.match(match.group(1)):
            continue
        name = match.group(1)
        if name in schema.attributes or name in schema.block_types or not view.plain_string(v):
            continue
        hint = suggestion(name, sorted(schema.names()))
        out.append(Finding(
            v, ERROR, UNKNOWN_IGNORED, "Unsupported attribute",
            f"The resource has no argument, nested block or exported attribute named {_q(name)}, so "
            "ignore_changes cannot name it." + (f" Did you mean {_q(hint)}?" if hint else ""),
            (1, 1 + len(name)), ((hint, f"Change to {_q(hint)}"),) if hint else (),
        ))
    return out


def _self_bodies(body: Body) -> list[Body]:
    """The bodies of a resource where Terraform checks `self.<name>` against its schema in
    validate: each provisioner's and its own connection's, each postcondition's."""
    out: list[Body] = []
    for prov in body.blocks_of("provisioner"):
        out.append(prov.body)
        out.extend(c.body for c in prov.body.blocks_of("connection")[:1])
    for lifecycle in body.blocks_of("lifecycle"):
        out.extend(p.body for p in lifecycle.body.blocks_of("postcondition"))
    return out


def self_attribute_findings(view: ValueView, block_type: str, body: Any, schema: SchemaBlock, where: str) -> list[Finding]:
    """`schema/unknown-self-attribute`: `self.<name>` in a provisioner, its connection or a
    postcondition of a resource, `<name>` neither an attribute nor a block type of its schema
    ("Unsupported attribute", on `.name` as Terraform). An index (`self["x"]`) is left alone. The
    expressions are read from the tree: on the values view a body with a provisioner or a
    postcondition is `Unanswerable` (nothing to find without one)."""
    if block_type != "resource":
        return []
    if type(view) is not TreeView:
        names = dict(view.members(body))  # (in C)
        if "provisioner" in names or ("lifecycle" in names and (
                lifecycle := view.block(body, "lifecycle")) is not ABSENT and view.member(lifecycle, "postcondition") is not ABSENT):
            raise Unanswerable("self references")
        return []
    text = view.text
    out: list[Finding] = []
    for inner in _self_bodies(body):
        for attr in inner.attributes:
            if attr.expr is None or "self" not in text[attr.expr.start : attr.expr.end]:
                continue
            for ref in expression_references(text, attr.expr):
                if not isinstance(ref, Reference) or ref.root != "self" or not ref.steps:
                    continue
                step = ref.steps[0]
                name = step.name
                if step.index or name in schema.attributes or name in schema.block_types:
                    continue
                start = step.start - 1 if step.start > 0 and text[step.start - 1] == "." else step.start
                hint = suggestion(name, sorted(schema.names()))
                out.append(Finding(
                    Span(start, step.end), ERROR, UNKNOWN_SELF, "Unsupported attribute",
                    f"The resource has no argument, nested block or exported attribute named {_q(name)}, "
                    "so self has none either." + (f" Did you mean {_q(hint)}?" if hint else ""),
                    fixes=((hint, f"Change to {_q(hint)}"),) if hint else (), fix_at=Span(step.start, step.end),
                ))
    return out


def resource_body_findings(view: ValueView, block_type: str, body: Any, schema: SchemaBlock, where: str) -> list[Finding]:
    """`body_findings` of a resource or data source body (decoded as `terraform.schema` decodes it)."""
    out: list[Finding] = []
    _validate_body(view, body, schema, None, where, CONFIG_SCHEMA.blocks[block_type].body, out)  # type: ignore[arg-type]
    return out


def typed_arguments(view: ValueView, block_type: str, body: Any, schema: SchemaBlock) -> list[tuple[Any, str, Any]]:
    """`(value handle, name, type)` of each provider-defined top-level argument of a resource or data
    source `body`, given once, whose schema type is not `dynamic` and whose value is a string that
    holds a template sequence (`${`, `%{`): the candidates of `argument_sites.ArgumentSite`, on
    either view (`argument_sites.needs_site` says which need a site).

    On the values view `body` may be any `(name, value)` members of the body that hold those
    strings, names given once (`terraform.quick` passes the ones it read): the names of
    `_typed_names` are none the decoder reads itself (a provider's schema has no meta-argument)."""
    decoded_by = CONFIG_SCHEMA.blocks[block_type].body
    typed = _typed_names(schema, decoded_by)
    out: list[tuple[Any, str, Any]] = []
    if view.by_type:
        args = body
        for name, v in body:
            if type(v) is str and ("${" in v or "%{" in v):
                cty = typed.get(name)
                if cty is not None:
                    out.append((v, name, cty))
    else:
        args, _ = view.arguments(body, decoded_by)
        for name, v in args:
            if v is not NO_VALUE and name in typed and view.kind(v) == STRING and _templated(view, v):
                out.append((v, name, typed[name]))
    if out and len(dict(args)) != len(args):  # a name given twice: `structure/duplicate-argument`
        counts: dict[str, int] = {}
        for name, _ in args:
            counts[name] = counts.get(name, 0) + 1
        out = [c for c in out if counts[c[1]] == 1]
    return out


def _templated(view: ValueView, v: Any) -> bool:
    """Whether string `v` (of the tree) holds a template sequence: read in its raw text, decoded
    only when a `\\u` escape could write one (no other escape writes `$`, `%` or `{`). Decoding
    each string of bench_schemas.py's 5 MB document was ~40% of `typed_arguments` on the tree."""
    start, end = view.range(v)
    raw = view.text[start:end]  # type: ignore[attr-defined]
    if "${" in raw or "%{" in raw:
        return True
    if "\\u" not in raw:
        return False
    value = view.string(v)
    return "${" in value or "%{" in value


@functools.lru_cache(maxsize=4096)  # by the schemas' identity, as `_plan`
def _typed_names(schema: SchemaBlock, decoded_by: Any) -> dict[str, Any]:
    """The attributes of `schema` an `argument_sites.ArgumentSite` may be made for: a configurable
    one whose type is known and not `dynamic`, of a name the decoder (`decoded_by`) does not read
    itself -> its type."""
    decoded = decoded_names(decoded_by)
    return {n: a.cty for n, a in schema.attributes.items()
            if a.cty is not None and a.cty != "dynamic" and not a.computed_only and n not in decoded}


def ignored_name_findings(view: ValueView, block_type: str, body: Any, schema: SchemaBlock, where: str) -> list[Finding]:
    """`unknown_ignored` of a resource body."""
    return unknown_ignored(view, body, schema) if block_type == "resource" else []


#: A rule of a resource or data source body against its provider's schema, written over `hcljson.view`:
#: rule(view, block_type, body, schema, where) -> [Finding].
SchemaRule = Callable[[ValueView, str, Any, SchemaBlock, str], list[Finding]]

#: Every such rule, in the order the full path reports them (`check_sites`; each one's findings sorted
#: by place there). The quick open certifies a block only when all of them find nothing on its values.
SCHEMA_RULES: list[SchemaRule] = [resource_body_findings, ignored_name_findings, self_attribute_findings]


def schema_findings(view: ValueView, block_type: str, body: Any, schema: SchemaBlock, where: str) -> list[Finding]:
    """What `SCHEMA_RULES` find in a resource or data source `body` (unplaced)."""
    out: list[Finding] = []
    for rule in SCHEMA_RULES:
        out.extend(rule(view, block_type, body, schema, where))
    return out


# ---- the quick open's one-pass test of a whole body on values -------------------------------------------
#
# Running the three rules on each body's values costs a call per rule and per body, a list of members,
# and bookkeeping for findings (docs/performance.md, session 9). `quiet_test` compiles, once per schema,
# one pass over a top-level body's members from the rules' own pieces (`_plan`/`_by_type`,
# `_plain_blocks`, `kind_checker`): it answers True only when every rule of `SCHEMA_RULES` surely finds
# nothing and asks nothing `Unanswerable`, and False when it cannot say (the caller then runs the rules).
# It covers exactly the rules below; with any other registry there is no test (None).

#: The rules `quiet_test` was written for.
_QUIET_COVERS = (resource_body_findings, ignored_name_findings, self_attribute_findings)

_SKIP, _COLLECTION, _CHECKED, _BLOCK, _LIFECYCLE = range(5)


def quiet_test(block_type: str, schema: SchemaBlock) -> Callable[[Any], bool] | None:
    """For `resource`/`data` bodies of `schema` on the values view (`VALUES`): a test `quiet(body)`
    that is True only when `schema_findings(VALUES, block_type, body, schema, ...)` would return
    nothing without raising `Unanswerable` (False: it cannot say; run the rules). None when
    `SCHEMA_RULES` is not exactly the rules it covers. Compiled once per (block type, schema)."""
    if tuple(SCHEMA_RULES) != _QUIET_COVERS or block_type not in catalogue.RESOURCE_AND_DATA:
        return None
    return _quiet_test(block_type, schema)


@functools.lru_cache(maxsize=4096)  # by the schema's identity (`SchemaBlock` compares by identity)
def _quiet_test(block_type: str, schema: SchemaBlock) -> Callable[[Any], bool]:
    """`quiet_test`, compiled (`_quiet_plan`): one pass over a body's members, each looked up in the
    plain attributes' Python types first, then in the table of the other names (a name given twice,
    any member: one `dict` of the body; a missing required attribute; a name of neither: False), then
    the block counts against their bounds and, for a `lifecycle`, its two rules (`_lifecycle_quiet`).
    The checks are inline: the loop runs per member of every certified body, the bounds per body."""
    plain, table, required_names, never, bounds = _quiet_plan(block_type, schema)
    plain_get, get = plain.get, table.get

    def quiet(body: Any) -> bool:
        if never or type(body) is not Pairs:
            return False
        names = dict(body)  # (in C)
        if len(names) != len(body):  # a name given twice (even a comment's): left to the rules
            return False
        if required_names and not names.keys() >= required_names:
            return False
        counts: dict[str, int] | None = None
        lifecycle = False
        for name, v in body:
            types = plain_get(name)
            if types is not None:
                if type(v) in types:
                    continue
                return False
            entry = get(name)
            if entry is None:
                return False
            tag = entry[0]
            if tag == _SKIP:
                continue
            if tag == _LIFECYCLE:  # what the two rules reading it find: asked of them
                lifecycle = True
            elif tag == _COLLECTION:
                if type(v) is not entry[1]:
                    return False
                types = entry[2]
                if entry[1] is list:
                    for x in v:
                        if type(x) not in types:
                            return False
                else:
                    for _, x in v:
                        if type(x) not in types:
                            return False
            elif tag == _CHECKED:
                found: list[Finding] = []
                try:
                    entry[1](VALUES, v, name, found)
                except Unanswerable:
                    return False
                if found:
                    return False
            else:
                count = _plain_blocks(VALUES, v, entry[1])
                if count is None:
                    return False
                if counts is None:
                    counts = {}
                counts[name] = count
        for n, (low, high) in bounds.items():  # (inline as the loop; in a helper: ~1%, at the noise, docs/performance.md)
            count = counts.get(n, 0) if counts is not None else 0
            if count < low or (high is not None and count > high):
                return False
        return not lifecycle or _lifecycle_quiet(block_type, body, schema)
    return quiet


def _quiet_plan(block_type: str, schema: SchemaBlock) -> tuple[dict[str, frozenset], dict[str, tuple], frozenset, bool, dict]:
    """What `_quiet_test` needs of each member name for `_validate_body` to find nothing: a name the
    decoder reads itself is skipped (`view.arguments`), except `dynamic` (unanswerable on values) and,
    in a resource, `lifecycle` and `provisioner` (what `unknown_ignored` and the `self` rule read:
    `provisioner` is left to the rules, `lifecycle` has those two rules run on the body); a plain
    attribute's value of a Python type it always takes (`_by_type`); a list/set/map of a primitive
    type whose elements all are; another configurable, current, non-nested attribute whose compiled
    kind check (`kind_checker`) finds nothing; a block type, not deprecated, whose value
    `_plain_blocks` counts. Returns (plain attribute -> Python types, name -> table entry, the
    required names, whether a required name is one the decoder reads itself (always missing), block
    type -> (at least, at most or None))."""
    required, bounded, _, _, _ = _plan(schema)
    typed, typed_collections = _by_type(schema)
    decoded = CONFIG_SCHEMA.blocks[block_type].body
    decoded_names = {"//"} | (set() if decoded is None else set(decoded.attributes) | set(decoded.blocks))  # (`view.arguments` leaves them out)
    skipped = decoded_names - {"dynamic"}
    if block_type == "resource":
        skipped -= {"lifecycle", "provisioner"}
    # A plain attribute's Python types, tested first (most members); then the other names.
    plain = {n: types for n, types in typed.items() if n not in skipped}
    table: dict[str, tuple] = {}
    for n, a in schema.attributes.items():
        if n in typed_collections:
            table[n] = (_COLLECTION, *typed_collections[n])
        elif n not in typed and _plainly_checked(a) and a.cty is not None:
            table[n] = (_CHECKED, kind_checker(a.cty))
    for n, bt in schema.block_types.items():
        if not bt.block.deprecated and n not in schema.attributes:
            table[n] = (_BLOCK, bt)
    for n in skipped:
        table[n] = (_SKIP,)
    table.pop("dynamic", None)
    if block_type == "resource":
        table.pop("provisioner", None)
        table["lifecycle"] = (_LIFECYCLE,)
    required_names = frozenset(n for n, _ in required)
    never = bool(required_names & decoded_names)
    return plain, table, required_names, never, {n: (low, high) for n, low, high in bounded}


def _lifecycle_quiet(block_type: str, body: Any, schema: SchemaBlock) -> bool:
    """Whether the two rules that read a resource's `lifecycle` (`unknown_ignored`, the `self` rule)
    find nothing in `body` and ask nothing the values cannot answer."""
    try:
        return not ignored_name_findings(VALUES, block_type, body, schema, "") and \
            not self_attribute_findings(VALUES, block_type, body, schema, "")
    except Unanswerable:
        return False


def block_schema(schemas: ProviderSchemas, block_type: str, type_name: str, meta: str | None,
                 required_providers: Mapping[str, Any] | None, engine: str) -> tuple[str | None, SchemaBlock | None]:
    """(provider address, schema or None) of a `resource` or `data` block of type `type_name` whose
    `provider` meta-argument is `meta`, as `check_sites` finds them; (None, None) for a type that
    names no provider."""
    address = _provider_address(type_name, meta, required_providers, engine)
    if address is None:
        return None, None
    if block_type == "data":
        return address, schemas.data_source(address, type_name)
    return address, schemas.resource(address, type_name)


def provider_config_findings(view: ValueView, body: Any, schema: SchemaBlock, local: str) -> list[Finding]:
    """The rule of a `provider "<local>"` block's body against `schema`
    (`provider_lookup.provider_config_schema`, `validated`): `body_findings`, the meta-arguments
    `alias`, `version`, `for_each` and `dynamic` read by the decoder (`definition.schema.PROVIDER`;
    a `dynamic` block is checked against the block type it writes, as in a resource). Run on the
    tree by `check_sites` (the quick open certifies no `provider` block: it reads them with the
    full path)."""
    return body_findings(view, body, schema, f"provider {_q(local)}", _PROVIDER_BODY)


_PROVIDER_BODY = cast(BodySchema, PROVIDER.body)  # (a `provider` block has a body)


def where_of(block_type: str, type_name: str) -> str:
    """How the messages of `SCHEMA_RULES` name a resource or data source body."""
    return f"{'data source' if block_type == 'data' else 'resource'} {_q(type_name)}"


# ---- for readers of values rather than trees (`terraform.quick`) ----------------------------------------

#: `_provider_address`: the address `check_sites` resolves a block's provider to (memoized).
provider_address = _provider_address
numeric = _numeric
