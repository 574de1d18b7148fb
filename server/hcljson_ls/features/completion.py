"""Completion where a user types in a Terraform JSON file: inside `${...}` and `%{...}`, in strings
Terraform reads as references, in type constraints, and on keys and labels.

    complete(snapshot, uri, offset, snippets=True, prefill_required=True) -> list[CompletionItem]

Contract
--------
* Where (`hcljson.locate` for the JSON place, `template.partial.context_at` inside a template):
  - after `${` (an empty slot or a name being typed): the namespaces (`var`, `local`, `module`,
    `data`, `ephemeral`, `path`, `terraform`, and `count`, `each`, `self` only where the block makes
    them valid), the resource types the module declares, the built-in functions of the module's
    engine (as snippets with their parameters when the client takes snippets) and the keywords
    `true`, `false`, `null`, `for`;
  - after `provider::`: the local names of the module's `required_providers` (inserted with the
    `::` that follows); after `provider::NAME::` (OpenTofu also `provider::NAME::ALIAS::`): the
    functions of that provider's loaded schema (`features.provider_functions`; its signature as
    detail, its description as documentation, snippets like the built-ins');
  - after a dot: `var.` the module's variables (type and description shown), `local.`, `module.`,
    `module.x.` (the outputs of a local child module), `data.`, `data.<type>.`, `<type>.` (names of
    that resource type), `<type>.<name>.` (its arguments as written, and `id`), `path.`,
    `terraform.`, `count.`, `each.`;
  - after `%{`: `if`, `for`, `else`, `endif`, `endfor`;
  - a static-reference string (`depends_on`, ...): the module's addresses, without `${`; a provider
    reference (`provider`): the provider configurations;
  - a managed resource's `lifecycle`: in an `ignore_changes` element the resource's own arguments
    and nested block types (its provider schema's or built-in schema's without the computed-only
    ones, else those its body writes), `all` where the string is the whole value; in a
    `replace_triggered_by` element managed resources only (not itself), then their attributes
    (`_lifecycle_list`);
  - an `action_trigger.events` element: the events of the module's language version
    (`language.action_trigger_events`), replacing the whole string;
  - a `provisioner` type label: the built-in provisioners (`provisioners.provisioner_types`), with
    `prefill_required` written with their required arguments like a resource type below;
  - a variable's `type` string: the type constraint keywords;
  - `terraform.required_providers`: as an entry's key, the local names the module uses and does
    not require yet, written with their `source` (a loaded provider's, else `hashicorp/<name>`) and
    a `version` tab stop; inside an entry, `source`, `version`, `configuration_aliases`;
  - a module call's `source` typed as a local path (empty, `.`, `..`, `./...`, `../...`): the
    directories there (`_module_sources`; hidden ones left out), those with configuration files
    first (detail "module"), each replacing the whole value;
  - state backends (`definition.backends`, for the module's engine and version): the type key of
    `terraform.backend` and `terraform_remote_state`'s `backend` value; a backend's settings in its
    body and in `terraform_remote_state`'s `config` object, each with its type and flags as detail
    ("string, required"), required ones first, deprecated ones last (tagged), a value of its type,
    and our one-line description with the backend's documentation link;
  - a key being typed in a body (`""`, `"fo`, or an empty place in an object): what the body's
    schema accepts and the body does not have yet (block types at the root, arguments and nested
    blocks of core blocks, meta-arguments), required ones first; accepting one writes the key, `: `
    and a value placeholder that fits (`""`, `{}`, `[]`) unless a colon follows already;
  - a label being typed: the resource or data types the module declares, provider local names.
* With provider schemas loaded (`Snapshot.provider_schemas`; nothing changes without them):
  - a key being typed, or an empty place, in a resource or data body at any depth (nested blocks
    written as objects or arrays of objects, objects of protocol-6 nested attributes, `dynamic`
    `content`; `provider_lookup.body_at`): the schema's arguments and nested block types the object
    does not have yet, computed-only attributes left out; required arguments first (detail says
    "required"), then optional arguments, nested blocks, and deprecated names last (tagged
    deprecated); the value placeholder fits the type (`""`, `0`, `false`, `[]`, `{}`);
  - the type label under `"resource"` / `"data"` / `"ephemeral"` / `"action"`: also every resource
    type / data source / ephemeral resource type / action type of the loaded providers (detail: the
    provider address; documentation: the type's description, given when at most
    `_DOCUMENTED_TYPES` types match what is typed, since reading a description parses that type's
    schema);
  - a resource / data / ephemeral / action type label typed as a key with no colon after it yet (the
    block is not written): with `prefill_required` (setting `completion.prefillRequired`) each type item
    replaces the whole key string with the whole block, `"<type>": {"<name>": {...}}`, holding the
    type's required arguments and the nested blocks it needs (`min_items` of each) with placeholders
    of their types, tab stops with snippets (`_skeletons`; an action's required arguments go in its
    `config`, written only when there are some). This parses the schema of every type
    offered (once per loaded schema: about 0.3 s for AWS's 981 types on the first request);
  - inside an `import` block's `"identity": {...}`: the identity attributes of the resource type its
    `to` names (`provider_rules.import_identity`), `required_for_import` ones first as required;
  - a query file's `list` block: its type label, the list resource types of the loaded providers
    (`list_resource_types`), with `prefill_required` typed as a key with no colon after it written
    as the whole block, `provider` (the local name) and the `config` arguments it requires
    (`_list_skeletons`); its `config` body, as an action's, from the list resource's schema;
  - after `<type>.<name>.`, `data.<type>.<name>.` and `ephemeral.<type>.<name>.`: every attribute of the type (computed ones
    included) with its type as detail, and its nested block types.
* Every item replaces exactly the typed part of the word under the cursor (`start`..`end`, absolute
  offsets, through JSON escapes), and is filtered by it (case-insensitive prefix). Items sort
  declared names first, then namespaces, functions, keywords; required arguments before optional.
* Never raises on odd input (an unterminated string, a missing brace, an empty file): an empty list.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from typing import cast

from ..hcljson.locate import ARGUMENT_NAME, BLOCK_TYPE, BODY, LABEL, LABEL_SLOT, UNKNOWN_NAME, VALUE, locate
from ..hcljson.schema import (
    KEYWORD_OR_TRAVERSAL_LIST,
    MAP_OF_LITERAL_STRINGS,
    NATIVE_LIST,
    STRING_NATIVE,
    STRING_TEMPLATE,
    STRING_TRAVERSAL,
    STRING_TYPE,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
)
from ..hcljson.values import string_text
from ..hcljson.window import NeedsTree
from ..jsonsyntax.tree import ARRAY, FALSE, OBJECT, STRING, TRUE
from ..template.partial import context_at
from ..terraform.definition import catalogue, functions
from ..terraform.definition.backends import BackendKey, backend_keys, backend_names
from ..terraform.definition.docs import backend_doc
from ..terraform.definition.language import action_trigger_events, available, function_available
from ..terraform.filekinds.tfvars import placeholder as type_placeholder
from ..terraform.rules.provisioners import provisioner_schema, provisioner_types
from ..terraform.schemas.provider_lookup import body_at, placeholder, steps_of
from ..terraform.schemas.provider_schema import SchemaBlock, provider_address, provider_of
from ..workspace import Snapshot
from ..workspace.files import list_directory
from . import kinds, module_inputs
from .hover import identity_schema, in_identity, resource_schema, variable_summary
from .provider_functions import functions_of, local_names
from .results import CompletionItem

log = logging.getLogger(__name__)


_DECLARED, _NAMESPACE, _FUNCTION, _KEYWORD = "0", "1", "2", "3"
_PROVIDED = "1"  # names a provider schema offers after the module's own
_NAMESPACES = catalogue.EXPRESSION_NAMESPACES
_TYPE_WORDS = (
    ("string", "string"), ("number", "number"), ("bool", "bool"), ("any", "any"),
    ("list", "list(${1:string})"), ("map", "map(${1:string})"), ("set", "set(${1:string})"),
    ("object", "object({${1:name} = ${2:string}})"), ("tuple", "tuple([${1:string}])"), ("optional", "optional(${1:string})"),
)


def complete(snapshot: Snapshot, uri: str, offset: int, snippets: bool = True,
             prefill_required: bool = True) -> list[CompletionItem]:
    try:
        if (own := kinds.answer("completion", snapshot, uri, offset, snippets)) is not kinds.CONFIGURATION:
            return own
        return _complete(snapshot, uri, offset, snippets, prefill_required)
    except NeedsTree:
        raise  # seen around the offset only (`features.around`): answered from the whole tree instead
    except Exception:  # completion is asked at every keystroke: never an error for the user
        log.exception("completion failed at %d in %s", offset, uri)
        return []


def _complete(snapshot: Snapshot, uri: str, offset: int, snippets: bool,
              prefill_required: bool = True) -> list[CompletionItem]:
    state = snapshot.document(uri)
    if state is None:
        return []
    # The document's text buffer, sliced where needed: joining 5 MB into one `str` would cost more
    # than the whole completion (`text.TextBuffer` answers indexing, slicing and `find`).
    text = cast(str, state.document.buffer)  # (answers every `str` operation the helpers use)
    body = state.analysis.body
    if body.node is None:  # an empty document: the root block types, each as a whole document
        if str(text).strip():
            return []
        return [replace(i, insert_text="{" + i.insert_text + "}")
                for i in _keys(_root_schema(state), set(), offset, offset, False, snippets, True, text)
                if available((i.label,), snapshot.language(uri))]
    ctx = locate(text, body, offset)
    s = ctx.string
    if s is not None and not _inside_content(s, offset):
        return []  # on a quote, or inside an escape sequence: no word is being typed there
    backend_items = _backend_completions(snapshot, uri, ctx, s, offset, text, snippets)
    if backend_items is not None:
        return backend_items
    if s is not None and not s.is_key and ctx.kind == VALUE and not ctx.path and ctx.attribute is not None \
            and ctx.attribute.name == "source" and len(ctx.blocks) == 1 and ctx.blocks[0].type_name == "module":
        return _module_sources(snapshot, uri, s)
    if ctx.kind == VALUE and ctx.attribute is not None and ctx.attribute.name == "required_providers" \
            and [b.type_name for b in ctx.blocks] == ["terraform"] and (s is None or s.is_key):
        return _required_providers(snapshot, uri, ctx, s, offset, text, snippets)
    if in_identity(ctx) and (s is None or s.is_key):
        identity = _identity_keys(snapshot, uri, ctx, s, offset, text, snippets)
        if identity:
            return identity
    if ctx.kind == VALUE and ctx.attribute is not None and ctx.attribute.schema is not None and not ctx.path:
        values = _core_values(ctx, s, offset)
        if values:
            return values
    if s is not None and not s.is_key and ctx.kind == VALUE and ctx.path and ctx.attribute is not None \
            and ctx.attribute.name == "events" and ctx.blocks and ctx.blocks[-1].type_name == "action_trigger":
        return _events(snapshot, uri, ctx, s, text)
    if s is not None and not s.is_key and _in_lifecycle(ctx, "ignore_changes", "replace_triggered_by"):
        return _lifecycle_list(snapshot, uri, ctx, s, text)
    if ctx.kind == VALUE and ctx.attribute is not None and (s is None or s.is_key):
        return _value_keys(snapshot, uri, ctx, s, offset, text, snippets)
    if s is not None and not s.is_key and s.mode == STRING_TEMPLATE and ctx.kind not in (LABEL, BLOCK_TYPE):
        return _in_expression(snapshot, uri, ctx, s, offset, snippets)
    if s is not None and not s.is_key and s.mode in (STRING_TRAVERSAL, STRING_NATIVE):
        # Native strings in JSON (`provider`, `replace_triggered_by`, `import.to`) are addresses too.
        return _static_reference(snapshot, uri, ctx, s, offset)
    if s is not None and not s.is_key and s.mode == STRING_TYPE:
        return _types(s, offset, snippets)
    if ctx.kind == LABEL and s is not None:
        items = _labels(snapshot, uri, ctx, s, offset)
        if prefill_required and s.is_key and ctx.label_index == 0 and not _colon_follows(text, s.end):
            if ctx.type_name in _SKELETON_BLOCKS:
                return _skeletons(snapshot, uri, ctx.type_name, items, s, text, snippets)
            if ctx.type_name == "list" and not ctx.blocks:  # a query file's list resource type
                return _list_skeletons(snapshot, uri, items, s, text, snippets)
            if ctx.type_name == "provisioner":
                return [_provisioner_skeleton(i, s, text, snippets) for i in items]
        return items
    if ctx.kind in (ARGUMENT_NAME, UNKNOWN_NAME, BLOCK_TYPE) and s is not None and s.is_key:
        return _key_being_typed(snapshot, uri, ctx, s, text, snippets, body)
    if ctx.kind == BODY and s is None and ctx.schema is not None and _in_object(ctx.body, offset):
        return _new_key(snapshot, uri, ctx, offset, text, snippets, body)
    return []


def _key_being_typed(snapshot: Snapshot, uri: str, ctx, s, text: str, snippets: bool, body) -> list[CompletionItem]:
    """The names a key being typed can take in its body (the core schema's, a provider schema's,
    a module call's inputs), but those already there, that start with what is typed."""
    have = _names_in(ctx.body) - {ctx.name}
    start, end = s.start, s.end
    colon = _colon_follows(text, end)
    prefix = s.value[: s.index]
    after = _comma_after(text, end) if not colon else ""
    items = _keys(ctx.schema, have, start, end, colon, snippets, ctx.body is None or ctx.body.node is body.node,
                  text, _owner(ctx), after)
    provided = _schema_body(snapshot, uri, ctx, (), text)
    items = (_schema_keys(provided, have, start, end, colon, snippets, after) + _input_keys(snapshot, uri, ctx, have, start, end, colon, snippets, after)
             + _available(snapshot, uri, ctx, items))
    return [i for i in _unique(items) if i.label.lower().startswith(prefix.lower())]


def _new_key(snapshot: Snapshot, uri: str, ctx, offset: int, text: str, snippets: bool, body) -> list[CompletionItem]:
    """Whole new members at `offset` between the members of a body: the names it does not have yet."""
    top = ctx.body is not None and ctx.body.node is body.node
    have = _names_in(ctx.body)
    after, before = _comma_after(text, offset), _comma_before(text, offset)
    items = _keys(ctx.schema, have, offset, offset, False, snippets, top, text, _owner(ctx), after, before)
    provided = _schema_body(snapshot, uri, ctx, (), text)
    return _unique(_schema_keys(provided, have, offset, offset, False, snippets, after, before)
                   + _input_keys(snapshot, uri, ctx, have, offset, offset, False, snippets, after, before) + _available(snapshot, uri, ctx, items))


def _unique(items: list[CompletionItem]) -> list[CompletionItem]:
    """`items` without a later item of a label already offered (an action's `config` is both the
    core's block and its provider schema's)."""
    seen: set[str] = set()
    return [i for i in items if not (i.label in seen or seen.add(i.label))]  # type: ignore[func-returns-value]


def _available(snapshot: Snapshot, uri: str, ctx, items: list[CompletionItem]) -> list[CompletionItem]:
    """The core names of `items` that the module's language (engine and version) has."""
    language = snapshot.language(uri)
    path = tuple(b.type_name for b in ctx.blocks)
    return [i for i in items if available((*path, i.label), language)]


def _inside_content(s, offset: int) -> bool:
    """The cursor is between the quotes of string `s`, on a character boundary of its content (not
    inside an escape such as `\u0024`)."""
    content_end = s.end - 1 if s.node.terminated else s.end
    if not s.start < offset <= content_end:
        return False
    return s.decoded.offsets[s.index] == offset


def _in_object(body, offset: int) -> bool:
    """The cursor is between the braces of `body`'s JSON object (where a new member can go)."""
    node = body.node if body is not None else None
    if node is None or node.kind != "object":
        return False
    end = body.end - 1 if node.closed else body.end
    return body.start < offset <= end


def _owner(ctx) -> str | None:
    return ctx.blocks[-1].type_name if ctx.blocks else None


def _next_char(text: str, i: int) -> str:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return text[i] if i < n else ""


def _comma_after(text: str, i: int) -> str:
    """"," when another member follows (so the new one needs a comma after it)."""
    return "," if _next_char(text, i) == '"' else ""


def _comma_before(text: str, i: int) -> str:
    """", " when a member ends just before `i` without a comma."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return ", " if j >= 0 and text[j] not in ",{[:" else ""


def _root_schema(state):
    return state.analysis.body.schema


# ---- provider-defined keys ------------------------------------------------------------------------


def _schema_body(snapshot: Snapshot, uri: str, ctx, tail: tuple, text) -> SchemaBlock | None:
    """The provider schema of the body at `tail` below the innermost decoded block of `ctx`."""
    if not ctx.blocks or ctx.blocks[0].type_name not in catalogue.SCHEMA_BODY_BLOCKS or snapshot.provider_schemas(uri) is None:
        return None
    steps = steps_of(ctx.blocks, tail)
    if steps is None:
        return None
    return body_at(resource_schema(snapshot, uri, ctx.blocks[0], text), steps)


def _value_keys(snapshot: Snapshot, uri: str, ctx, s, offset: int, text, snippets: bool) -> list[CompletionItem]:
    """Keys of a provider body written inside an argument's value: a key being typed (`s`) or an
    empty place in an object (`ctx.node`)."""
    attr = ctx.attribute
    if attr.schema is not None or attr.expr is None:
        return []
    if s is not None:
        path = ctx.path[:-1]
        start, end = s.start, s.end
        colon = _colon_follows(text, end)
        after, before = ("" if colon else _comma_after(text, end)), ""
    else:
        if ctx.node is None or ctx.node.kind != OBJECT:
            return []
        path = ctx.path
        start = end = offset
        colon = False
        after, before = _comma_after(text, offset), _comma_before(text, offset)
    provided = _schema_body(snapshot, uri, ctx, (attr.name, *path), text)
    if provided is None:
        return []
    obj = _json_at(text, attr.expr.node, attr.expr.start, path)
    have = _object_keys(text, *obj) if obj is not None else set()
    if s is not None:
        have.discard(s.value)
    items = _schema_keys(provided, have, start, end, colon, snippets, after, before)
    prefix = s.value[: s.index].lower() if s is not None else ""
    return [i for i in items if i.label.lower().startswith(prefix)]


def _identity_keys(snapshot: Snapshot, uri: str, ctx, s, offset: int, text, snippets: bool) -> list[CompletionItem]:
    """The identity attributes (`resource_identity_schemas`) of the resource type an `import` block's
    `to` names, inside its `identity` object: a key being typed (`s`) or an empty place."""
    found = identity_schema(snapshot, uri, ctx, text)
    attr = ctx.attribute
    if found is None or attr.expr is None or attr.expr.kind != OBJECT:
        return []
    if s is not None:
        if len(ctx.path) != 1:
            return []
        start, end = s.start, s.end
        colon = _colon_follows(text, end)
        after, before = ("" if colon else _comma_after(text, end)), ""
    else:
        if ctx.path or ctx.node is None or ctx.node.kind != OBJECT:
            return []
        start = end = offset
        colon = False
        after, before = _comma_after(text, offset), _comma_before(text, offset)
    have = _object_keys(text, attr.expr.node, attr.expr.start)
    if s is not None:
        have.discard(s.value)
    prefix = s.value[: s.index].lower() if s is not None else ""
    return [i for i in _schema_keys(found[1], have, start, end, colon, snippets, after, before)
            if i.label.lower().startswith(prefix)]


def _core_values(ctx, s, offset: int) -> list[CompletionItem]:
    """The values a core argument takes from a fixed set, where its value is being written: the
    keywords of a keyword argument (`when`: `create`, `destroy`) inside its string, `true` and
    `false` for a bool argument (`catalogue.VALUE_SHAPES`) in place of its value or where it goes."""
    owner = ctx.blocks[-1].type_name if ctx.blocks else ""
    name = ctx.attribute.name
    keywords = catalogue.KEYWORD_ARGUMENTS.get((owner, name))
    if keywords and s is not None and not s.is_key:
        start, end = s.decoded.source_range(0, len(s.value))
        typed = s.value[: s.index].lower()
        return [CompletionItem(k, "EnumMember", start, end, k, sort=_KEYWORD) for k in keywords if k.startswith(typed)]
    if catalogue.VALUE_SHAPES.get((owner, name)) not in ("true", "false") or s is not None:
        return []
    node = ctx.node
    if node is None:  # `"name": |`: where the value goes
        start = end = offset
    elif node.kind in (TRUE, FALSE):
        start, end = ctx.node_start, ctx.node_start + node.end - node.start
    else:
        return []
    return [CompletionItem(v, "Value", start, end, v, sort=_KEYWORD) for v in ("true", "false")]


def _events(snapshot: Snapshot, uri: str, ctx, s, text) -> list[CompletionItem]:
    """An element of `action_trigger.events`: the event keywords the module's language takes
    (`language.action_trigger_events`), not those the list has already."""
    typed = s.value[: s.index]
    listed = _list_strings(text, ctx.attribute.expr) - {s.value}
    start, end = s.decoded.source_range(0, len(s.value))
    return [CompletionItem(e, "EnumMember", start, end, e, sort=_KEYWORD)
            for e in action_trigger_events(snapshot.language(uri)) if e.startswith(typed.lower()) and e not in listed]


def _in_lifecycle(ctx, *names: str) -> bool:
    """The cursor is in the value of one of `names` of a managed resource's `lifecycle` block."""
    return (ctx.kind == VALUE and ctx.attribute is not None and ctx.attribute.name in names and len(ctx.blocks) == 2
            and ctx.blocks[0].type_name == "resource" and ctx.blocks[1].type_name == "lifecycle")


def _lifecycle_list(snapshot: Snapshot, uri: str, ctx, s, text) -> list[CompletionItem]:
    """A string of `lifecycle.ignore_changes` or `lifecycle.replace_triggered_by` (Terraform's
    `decodeReplaceTriggeredBy` and `ignore_changes` decoding in internal/configs/resource.go):
    - `"ignore_changes": "|"`: the keywords (`catalogue.IGNORE_CHANGES_KEYWORDS`; in a list `"all"`
      would name an attribute);
    - an element of `ignore_changes`: the resource's own arguments and nested block types (its
      provider schema's, computed-only attributes left out: Terraform calls ignoring them redundant;
      without a schema, the arguments its body writes), not those the list has already;
    - an element of `replace_triggered_by`: managed resources only (`data.`, `module.`, variables
      are refused), the resource itself left out; after `<type>.<name>.` their attributes."""
    typed = s.value[: s.index]
    if not all(c.isalnum() or c in "_-." for c in typed):
        return []
    parts = typed.split(".")
    prefix = parts[-1]
    start, end = s.decoded.offsets[s.index - len(prefix)], s.decoded.offsets[s.index]
    resource = ctx.blocks[0]
    own = tuple(label.value for label in resource.labels)
    if ctx.attribute.name == "ignore_changes":
        if not ctx.path:
            items = [CompletionItem(k, "Keyword", start, end, k, sort=_KEYWORD) for k in catalogue.IGNORE_CHANGES_KEYWORDS]
        elif len(parts) == 1:
            listed = _list_strings(text, ctx.attribute.expr) - {s.value}
            items = [i for i in _own_arguments(snapshot, uri, resource, text, start, end) if i.label not in listed]
        else:
            items = []
    elif len(parts) == 1:
        types_ = {k[1] for k in snapshot.declared(uri, "resource")}
        items = [CompletionItem(t, "Class", start, end, t, detail="resource type", sort=_DECLARED) for t in sorted(types_)]
    elif len(parts) == 2:
        items = [CompletionItem(k[2], "Variable", start, end, k[2], detail=f"{k[1]} resource", sort=_DECLARED)
                 for k in sorted(snapshot.declared(uri, "resource")) if k[1] == parts[0] and (k[1], k[2]) != own]
    else:
        items = [replace(i, start=start, end=end) for i in _after_dot(snapshot, uri, ctx, parts[0], tuple(parts[1:-1]))]
    return [i for i in items if i.label.lower().startswith(prefix.lower()) and i.label != prefix]


def _own_arguments(snapshot: Snapshot, uri: str, resource, text, start: int, end: int) -> list[CompletionItem]:
    """The arguments and nested block types a resource's `ignore_changes` may name (`_lifecycle_list`)."""
    schema = resource_schema(snapshot, uri, resource, text)
    if schema is not None:
        out = [CompletionItem(n, "Field", start, end, n, detail=a.type, documentation=a.description,
                              deprecated=a.deprecated, sort=_DECLARED if a.required else _PROVIDED)
               for n, a in schema.attributes.items() if not a.computed_only]
        out.extend(CompletionItem(n, "Field", start, end, n, detail=f"nested block ({bt.nesting})", sort=_PROVIDED,
                                  documentation=bt.block.description, deprecated=bt.block.deprecated)
                   for n, bt in schema.block_types.items())
        return out
    body = resource.body
    written = [a.name for a in body.attributes if a.schema is None]  # (the core ones have a schema)
    written += [b.labels[0].value for b in body.blocks if b.type_name == "dynamic" and b.labels]
    return [CompletionItem(n, "Field", start, end, n, detail="argument", sort=_DECLARED) for n in dict.fromkeys(written)]


def _list_strings(text, expr) -> set[str]:
    """The strings of a JSON array value (`expr`: an attribute's expression)."""
    if expr is None or expr.node.kind != ARRAY:
        return set()
    return {string_text(text, m.value, expr.start + m.value.start) for m in expr.node.items
            if m.value is not None and m.value.kind == STRING}


def _json_at(text, node, start: int, path: tuple):
    """(node, absolute start) at `path` (object keys, array indexes) below `node`, or None."""
    for step in path:
        if node is None or node.kind not in (OBJECT, ARRAY):
            return None
        found = None
        for k, m in enumerate(node.items):
            if m.value is None:
                continue
            if isinstance(step, int):
                hit = node.kind == ARRAY and k == step
            else:
                hit = node.kind == OBJECT and m.key is not None and m.key.kind == STRING \
                    and string_text(text, m.key, start + m.key.start) == step
            if hit:
                found = m.value
                break
        if found is None:
            return None
        node, start = found, start + found.start
    return node, start


def _object_keys(text, node, start: int) -> set[str]:
    if node is None or node.kind != OBJECT:
        return set()
    return {string_text(text, m.key, start + m.key.start) for m in node.items if m.key is not None and m.key.kind == STRING}


def _schema_keys(schema: SchemaBlock | None, have: set[str], start: int, end: int, colon: bool, snippets: bool,
                 after: str = "", before: str = "") -> list[CompletionItem]:
    """The arguments and nested block types of provider body `schema` not in `have` (module doc)."""
    if schema is None:
        return []
    out: list[CompletionItem] = []
    for name, a in schema.attributes.items():
        if name in have or a.computed_only:
            continue
        group = "09" if a.deprecated else "00" if a.required else "01"
        item = _key_item(name, "Property", placeholder(a), a.description, group, start, end, colon, snippets, after, before)
        detail = f"{a.type}, required" if a.required else a.type
        out.append(replace(item, detail=detail, deprecated=a.deprecated))
    for name, bt in schema.block_types.items():
        if name in have:
            continue
        group = "09" if bt.block.deprecated else "02"
        item = _key_item(name, "Struct", "{}", bt.block.description, group, start, end, colon, snippets, after, before)
        out.append(replace(item, detail=f"nested block ({bt.nesting})", deprecated=bt.block.deprecated))
    return out


def _input_keys(snapshot: Snapshot, uri: str, ctx, have: set[str], start: int, end: int, colon: bool, snippets: bool,
                after: str = "", before: str = "") -> list[CompletionItem]:
    """In a module call's body: the inputs its child declares and the call lacks (`features.module_inputs`)."""
    out = []
    for i in module_inputs.completions(snapshot, uri, ctx, have):
        item = _key_item(i.name, "Property", type_placeholder(i.type), i.description, "00" if i.required else "01",
                         start, end, colon, snippets, after, before)
        detail = (i.type or "any") + (", required" if i.required else "")
        out.append(replace(item, detail=detail))
    return out


# ---- keys --------------------------------------------------------------------------------------------


def _names_in(body) -> set[str]:
    if body is None:
        return set()
    return {a.name for a in body.attributes} | {b.type_name for b in body.blocks}


def _colon_follows(text: str, end: int) -> bool:
    return _next_char(text, end) == ":"


def _keys(schema, have: set[str], start: int, end: int, colon: bool, snippets: bool, top: bool, text: str,
          owner: str | None = None, after: str = "", before: str = "") -> list[CompletionItem]:
    if schema is None:
        return []
    # In the schema's order (the catalogue's: most used first), required arguments first.
    out: list[CompletionItem] = []
    for i, (name, a) in enumerate(schema.attributes.items()):
        if name in have:
            continue
        placeholder = catalogue.VALUE_SHAPES.get((owner or "", name)) or (
            "[]" if a.mode in (TRAVERSAL_LIST, NATIVE_LIST, KEYWORD_OR_TRAVERSAL_LIST)
            else "{}" if a.mode in (MAP_OF_LITERAL_STRINGS, TRAVERSAL_MAP) else '""'
        )
        group = f"{'0' if a.required else '1'}{i:03d}"
        out.append(_key_item(name, "Property", placeholder, a.description, group, start, end, colon, snippets, after, before))
    for i, (name, b) in enumerate(schema.blocks.items()):
        if name in have and not b.labels and b.max_items == 1:
            continue
        kind = "Class" if top else "Struct"
        out.append(_key_item(name, kind, "{}", b.description, f"2{i:03d}", start, end, colon, snippets, after, before))
    return out


def _key_item(name: str, kind: str, placeholder: str, doc: str, group: str, start: int, end: int, colon: bool,
              snippets: bool, after: str = "", before: str = "") -> CompletionItem:
    if colon:
        insert, snippet = f'"{name}"', False
    elif snippets:
        inner = {'""': '"$1"', "{}": "{$1}", "[]": "[$1]"}.get(placeholder) or f"${{1:{placeholder}}}"
        insert, snippet = f'{before}"{name}": {inner}{after}', True
    else:
        insert, snippet = f'{before}"{name}": {placeholder}{after}', False
    # The range starts at the key's opening quote: clients match from there, so the quote is part
    # of what they filter on.
    return CompletionItem(name, kind, start, end, insert, snippet, "", doc, group, f'"{name}"')


# ---- module sources ------------------------------------------------------------------------------------

#: Directories never offered as a module source (besides hidden ones: `.terraform`, `.git`, ...).
_NOT_SOURCES = frozenset({"node_modules"})


def _module_sources(snapshot: Snapshot, uri: str, s) -> list[CompletionItem]:
    """A module call's `source` being typed as a local path: the directories beside what is typed
    (`./` and `../` of the module's directory at first, then the directory typed so far), each
    replacing the whole string value; a directory with configuration files first (detail "module").
    Nothing for a registry or remote source, or a module that is not on disk."""
    here = snapshot.module_key(uri)
    typed = s.value[: s.index]
    if not os.path.isabs(here) or "${" in s.value or (s.value and not s.value.startswith(".")):
        return []  # a template, or a registry or remote source being edited
    if "/" in typed:
        base = typed[: typed.rindex("/") + 1]
        if not base.startswith(catalogue.LOCAL_MODULE_PREFIXES):
            return []
        bases = [base]
    elif typed in ("", ".", ".."):
        bases = list(catalogue.LOCAL_MODULE_PREFIXES)
    else:
        return []
    own = os.path.basename(os.path.normpath(here))
    start, end = s.decoded.offsets[0], s.decoded.offsets[len(s.value)]
    out = []
    for base in bases:
        directory = os.path.normpath(os.path.join(here, base))
        for name in list_directory(directory).directories:
            path = base + name
            if name.startswith(".") or name in _NOT_SOURCES or not path.startswith(typed):
                continue
            if base == "../" and name == own:
                continue  # the module itself
            files = list_directory(os.path.join(directory, name)).files
            module = any(f.endswith(catalogue.CONFIG_JSON_SUFFIXES + catalogue.CONFIG_NATIVE_SUFFIXES) for f in files)
            out.append(CompletionItem(path, "Folder", start, end, path, detail="module" if module else "directory",
                                      sort=_DECLARED if module else _KEYWORD))
    return out


# ---- required_providers ------------------------------------------------------------------------------

#: The keys of a `required_providers` entry (Terraform's `internal/configs/provider_requirements.go`).
_REQUIREMENT_KEYS = (("source", '""', "Where the provider comes from: `[host/]namespace/type`."),
                     ("version", '""', "The provider versions this module accepts, as a version constraint."),
                     ("configuration_aliases", "[]", "The provider configurations a caller must pass in, as `[\"<name>.<alias>\"]`."))


def _required_providers(snapshot: Snapshot, uri: str, ctx, s, offset: int, text, snippets: bool) -> list[CompletionItem]:
    """In `terraform.required_providers` (an object): as an entry's key, the local names the module
    uses (resource, data and ephemeral type prefixes, `provider` blocks) and does not require yet,
    written with their `source` (`hashicorp/<name>`, or the loaded provider of that name) and a
    `version` tab stop; inside an entry, its keys `source`, `version`, `configuration_aliases`."""
    expr = ctx.attribute.expr
    if expr is None or expr.kind != OBJECT:
        return []
    depth = len(ctx.path) - (1 if s is not None else 0)
    if s is None and (ctx.node is None or ctx.node.kind != OBJECT):
        return []
    if s is not None:
        colon = _colon_follows(text, s.end)
        start, end, after, before = s.start, s.end, "" if colon else _comma_after(text, s.end), ""
        typed = s.value[: s.index].lower()
    else:
        colon, start, end = False, offset, offset
        after, before, typed = _comma_after(text, offset), _comma_before(text, offset), ""
    if depth == 0:
        have = _object_keys(text, expr.node, expr.start) - ({s.value} if s is not None else set())
        used = {k[1].split("_", 1)[0] for kind in catalogue.RESOURCE_MODES for k in snapshot.declared(uri, kind)}
        used |= {k[1] for k in snapshot.declared(uri, "provider")}
        schemas = snapshot.provider_schemas(uri)
        loaded = {a.rsplit("/", 1)[-1]: a for a in schemas.providers()} if schemas is not None else {}
        out = []
        for name in sorted(n for n in used - have - {"terraform"} if n.lower().startswith(typed) and catalogue.IDENTIFIER.match(n)):
            source = "/".join(loaded[name].split("/")[-2:]) if name in loaded else f"hashicorp/{name}"
            version = '"$1"' if snippets else '""'
            insert = f'"{name}"' if colon else f'{before}"{name}": {{"source": "{source}", "version": {version}}}{after}'
            out.append(CompletionItem(name, "Module", start, end, insert, snippets and not colon, f"provider {source}",
                                      "", _DECLARED, f'"{name}"' if s is not None else ""))
        return out
    if depth != 1 or not isinstance(ctx.path[0], str):
        return []
    entry = next((m.value for m in expr.node.items if m.key is not None and m.key.kind == STRING
                  and string_text(text, m.key, expr.start + m.key.start) == ctx.path[0]), None)
    have = _object_keys(text, entry, expr.start + entry.start) if entry is not None else set()
    have -= {s.value} if s is not None else set()
    return [_key_item(name, "Property", placeholder, doc, _DECLARED, start, end, colon, snippets, after, before)
            for name, placeholder, doc in _REQUIREMENT_KEYS if name not in have and name.startswith(typed)]


# ---- state backends ------------------------------------------------------------------------------------

#: Backends Terraform refuses in a `backend` block (HCP Terraform is the `cloud` block's).
_NO_BACKEND_BLOCK = frozenset({"cloud"})


def _backend_completions(snapshot: Snapshot, uri: str, ctx, s, offset: int, text, snippets: bool) -> list[CompletionItem] | None:
    """The state backends of the module's engine and version (`definition.backends`) where one is
    named: the type key of `terraform.backend` and `terraform_remote_state`'s `backend` value; a
    backend's configuration keys (type, required first, description) in the `backend` block's body
    and in `terraform_remote_state`'s `config` object. None: not such a place."""
    language = snapshot.language(uri)
    opentofu = language.engine == "opentofu"
    known = backend_names(language.engine, language.version)
    blocks = ctx.blocks
    if ctx.type_name == "backend" and blocks and blocks[-1].type_name == "terraform" and ctx.label_index == 0:
        names = [n for n in known if n not in _NO_BACKEND_BLOCK]
        if ctx.kind == LABEL and s is not None and s.is_key:
            colon = _colon_follows(text, s.end)
            after = "" if colon else _comma_after(text, s.end)
            typed = s.value[: s.index].lower()
            return [_backend_item(n, "Module", "{}", s.start, s.end, colon, snippets, after, "", opentofu)
                    for n in names if n.startswith(typed)]
        if ctx.kind == LABEL_SLOT and s is None:
            after, before = _comma_after(text, offset), _comma_before(text, offset)
            return [_backend_item(n, "Module", "{}", offset, offset, False, snippets, after, before, opentofu) for n in names]
        return None
    if blocks and blocks[-1].type_name == "backend" and len(blocks) >= 2 and blocks[-2].type_name == "terraform":
        backend = blocks[-1].labels[0].value if blocks[-1].labels else None
        keys = backend_keys(language.engine, language.version, backend) if backend else None
        return _backend_keys(backend, keys, ctx, s, offset, text, snippets, _names_in(ctx.body), opentofu)
    if ctx.kind != VALUE or ctx.attribute is None or not blocks or blocks[0].type_name != "data" \
            or not blocks[0].labels or blocks[0].labels[0].value != "terraform_remote_state" or len(blocks) != 1:
        return None
    name = ctx.attribute.name
    if name == "backend" and s is not None and not s.is_key and not ctx.path:
        start, end = s.decoded.offsets[0], s.decoded.offsets[len(s.value)]
        typed = s.value[: s.index].lower()
        return [CompletionItem(n, "Module", start, end, n, detail="state backend", documentation=_backend_link(n, opentofu), sort=_KEYWORD)
                for n in known if n.startswith(typed)]
    if name == "config" and ctx.attribute.expr is not None and ctx.attribute.expr.kind == OBJECT \
            and (ctx.path[:-1] if s is not None else ctx.path) == ():
        chosen = blocks[0].body.attribute("backend")
        backend = string_text(text, chosen.expr.node, chosen.expr.start) if chosen is not None and chosen.expr is not None \
            and chosen.expr.kind == STRING else None
        keys = backend_keys(language.engine, language.version, backend) if backend else None
        have = _object_keys(text, ctx.attribute.expr.node, ctx.attribute.expr.start)
        return _backend_keys(backend, keys, ctx, s, offset, text, snippets, have, opentofu)
    return None


def _backend_keys(backend: str | None, keys, ctx, s, offset: int, text, snippets: bool, have: set[str],
                  opentofu: bool) -> list[CompletionItem] | None:
    if keys is None or backend is None:
        return None
    if s is not None and s.is_key:
        have = have - {s.value}
        colon = _colon_follows(text, s.end)
        after = "" if colon else _comma_after(text, s.end)
        typed = s.value[: s.index].lower()
        return [_backend_key_item(k, s.start, s.end, colon, snippets, after, "", opentofu)
                for n, k in sorted(keys.items()) if n not in have and n.lower().startswith(typed)]
    if s is None and ctx.kind in (BODY, VALUE) and (ctx.node is None or ctx.node.kind == OBJECT):
        after, before = _comma_after(text, offset), _comma_before(text, offset)
        return [_backend_key_item(k, offset, offset, False, snippets, after, before, opentofu)
                for n, k in sorted(keys.items()) if n not in have]
    return None


def _backend_key_item(key: BackendKey, start: int, end: int, colon: bool, snippets: bool, after: str, before: str,
                      opentofu: bool) -> CompletionItem:
    """A backend setting: its type and flags as the detail, required ones first, deprecated ones
    last and struck through; the description and the backend's page as documentation."""
    link = _backend_link(key.backend, opentofu)
    doc = "\n\n".join(p for p in (key.description, link) if p)
    item = _key_item(key.name, "Property", key.placeholder, doc, "0" if key.required else "2" if key.deprecated else "1",
                     start, end, colon, snippets, after, before)
    return replace(item, detail=key.signature, deprecated=key.deprecated)


def _backend_item(name: str, kind: str, placeholder: str, start: int, end: int, colon: bool, snippets: bool,
                  after: str, before: str, opentofu: bool) -> CompletionItem:
    item = _key_item(name, kind, placeholder, _backend_link(name, opentofu), "1", start, end, colon, snippets, after, before)
    return replace(item, detail="state backend")


def _backend_link(backend: str, opentofu: bool) -> str:
    url = backend_doc(backend, opentofu)
    return f"The `{backend}` backend: [documentation]({url})" if url else ""


# ---- labels ------------------------------------------------------------------------------------------


def _labels(snapshot: Snapshot, uri: str, ctx, s, offset: int) -> list[CompletionItem]:
    prefix = s.value[: s.index]
    start, end = s.decoded.offsets[0], s.decoded.offsets[s.index]
    names: list[str] = []
    t = ctx.type_name
    provided: list[CompletionItem] = []
    if ctx.label_index == 0 and (t in catalogue.RESOURCE_MODES or t == "action"):
        names = sorted({k[1] for k in snapshot.declared(uri, t)})
        provided = _schema_types(snapshot, uri, t, prefix, set(names), start, end)
    elif ctx.label_index == 0 and t == "list":  # a query file's list resource type
        provided = _list_types(snapshot, uri, prefix, start, end)
    elif ctx.label_index == 0 and t == "provisioner":
        return [CompletionItem(n, "Class", start, end, n, detail="built-in provisioner", sort=_DECLARED)
                for n in provisioner_types() if n.startswith(prefix.lower()) and n != prefix]
    elif ctx.label_index == 0 and t == "provider":
        names = sorted({k[1] for k in snapshot.declared(uri, "provider-requirement")}
                       | {k[1] for k in snapshot.declared(uri, "provider")}
                       | {k[1].split("_")[0] for k in snapshot.declared(uri, "resource")})
    return [CompletionItem(n, "Class", start, end, n, sort=_DECLARED) for n in names if n.lower().startswith(prefix.lower()) and n != prefix] + provided


#: The blocks whose type label completes to a whole block (`_skeletons`).
_SKELETON_BLOCKS = (*catalogue.RESOURCE_MODES, "action")
#: How deep required nested blocks are written out in a skeleton (a guard: real schemas need 4).
_SKELETON_DEPTH = 8


def _skeletons(snapshot: Snapshot, uri: str, block: str, items: list[CompletionItem], s, text,
               snippets: bool) -> list[CompletionItem]:
    """The type items of a label being typed as a key with nothing after it yet (`{"resource":
    {"random_s|"}}`): each replaces the whole key string and writes the whole block,
    `"<type>": {"<name>": {<required arguments>}}`, the arguments (and nested blocks with a minimum
    number of items) of the type's provider schema each with a placeholder of its type. With
    snippets, the name and every value are tab stops."""
    schemas = snapshot.provider_schemas(uri)
    after = _comma_after(text, s.end)
    out = []
    for item in items:
        schema = None
        if schemas is not None:
            # A loaded type's item names its provider; a declared type's provider is the one it implies.
            address = item.detail or provider_of(item.label, None, snapshot.required_providers(uri), snapshot.engine(uri))
            schema = getattr(schemas, _TYPE_LOOKUPS[block][1])(address, item.label) if address is not None else None
        stops = iter(range(2, 10_000))
        body = _required_body(schema, snippets, stops, _SKELETON_DEPTH)
        if block == "action":  # the schema is the `config` body's: written only when it requires something
            body = f'"config": {{{body}}}' if body else ""
        name = "${1:name}" if snippets else "name"
        insert = f'"{item.label}": {{"{name}": {{{body}}}}}{after}'
        out.append(replace(item, start=s.start, end=s.end, insert_text=insert, snippet=snippets, filter=f'"{item.label}"'))
    return out


def _list_skeletons(snapshot: Snapshot, uri: str, items: list[CompletionItem], s, text, snippets: bool) -> list[CompletionItem]:
    """A query file's list resource type items (`_list_types`, detail: the provider address) written
    as the whole block, as `_skeletons` does for a resource type: `"<type>": {"<name>": {"provider":
    "<local name>", "config": {<required arguments>}}}`, `provider` being required in a list block
    and `config` written only when the list resource's schema requires something in it."""
    schemas = snapshot.provider_schemas(uri)
    after = _comma_after(text, s.end)
    required, engine = snapshot.required_providers(uri), snapshot.engine(uri)
    out = []
    for item in items:
        schema = schemas.list_resource(item.detail, item.label) if schemas is not None and item.detail else None
        implied = item.label.split("_", 1)[0]
        named = sorted(n for n in required if provider_address(n, required, engine) == item.detail)
        local = implied if implied in named or not named else named[0]  # required_providers' name first
        stops = iter(range(3, 10_000))
        body = _required_body(schema, snippets, stops, _SKELETON_DEPTH)
        name, provider = ("${1:name}", f"${{2:{local}}}") if snippets else ("name", local)
        config = f', "config": {{{body}}}' if body else ""
        insert = f'"{item.label}": {{"{name}": {{"provider": "{provider}"{config}}}}}{after}'
        out.append(replace(item, start=s.start, end=s.end, insert_text=insert, snippet=snippets, filter=f'"{item.label}"'))
    return out


def _provisioner_skeleton(item: CompletionItem, s, text, snippets: bool) -> CompletionItem:
    """A built-in provisioner's type item writing its block with its required arguments
    (`"local-exec": {"command": ""}`), as `_skeletons` does for a resource type."""
    body = _required_body(provisioner_schema(item.label), snippets, iter(range(1, 10_000)), _SKELETON_DEPTH)
    insert = f'"{item.label}": {{{body}}}{_comma_after(text, s.end)}'
    return replace(item, start=s.start, end=s.end, insert_text=insert, snippet=snippets and "$" in body,
                   filter=f'"{item.label}"')


def _required_body(schema: SchemaBlock | None, snippets: bool, stops, depth: int) -> str:
    """The members of a body that has what `schema` requires: its required arguments and the nested
    blocks that must appear (`min_items` > 0: that many, each with its own required members)."""
    if schema is None:
        return ""
    members = []
    for name, a in schema.attributes.items():
        if a.required:
            value = placeholder(a)
            if snippets:
                n = next(stops)
                value = {'""': f'"${n}"', "{}": f"{{${n}}}", "[]": f"[${n}]"}.get(value) or f"${{{n}:{value}}}"
            members.append(f'"{name}": {value}')
    if depth > 0:
        for name, bt in schema.block_types.items():
            if bt.min_items:  # one block as an object, more as an array of that many
                blocks = [f"{{{_required_body(bt.block, snippets, stops, depth - 1)}}}" for _ in range(bt.min_items)]
                members.append(f'"{name}": {blocks[0] if len(blocks) == 1 else "[" + ", ".join(blocks) + "]"}')
    return ", ".join(members)


#: At most this many resource types get their description as documentation (each parses a schema).
_DOCUMENTED_TYPES = 60


#: Block type -> (the provider schema's types of that kind, the schema of one type).
_TYPE_LOOKUPS = {
    "resource": ("resource_types", "resource"), "data": ("data_source_types", "data_source"),
    "ephemeral": ("ephemeral_resource_types", "ephemeral_resource"), "action": ("action_types", "action"),
}


def _schema_types(snapshot: Snapshot, uri: str, block: str, prefix: str, declared: set[str], start: int,
                  end: int) -> list[CompletionItem]:
    """The types of block type `block` (resource types, data sources, ephemeral resource types,
    action types) of every loaded provider starting with `prefix`."""
    schemas = snapshot.provider_schemas(uri)
    if schemas is None or block not in _TYPE_LOOKUPS:
        return []
    types_of, schema_of = (getattr(schemas, n) for n in _TYPE_LOOKUPS[block])
    low = prefix.lower()
    found: dict[str, str] = {}
    for address in schemas.providers():
        for name in types_of(address) or ():
            if name.lower().startswith(low) and name != prefix and name not in declared:
                found.setdefault(name, address)
    document = len(found) <= _DOCUMENTED_TYPES
    out = []
    for name, address in found.items():
        schema = schema_of(address, name) if document else None
        out.append(CompletionItem(name, "Class", start, end, name, detail=address, sort=_PROVIDED,
                                  documentation=schema.description if schema is not None else "",
                                  deprecated=schema is not None and schema.deprecated))
    return out


def _list_types(snapshot: Snapshot, uri: str, prefix: str, start: int, end: int) -> list[CompletionItem]:
    """The list resource types (`list_resource_schemas`) of every loaded provider starting with
    `prefix`: a query file's `list` block type label."""
    schemas = snapshot.provider_schemas(uri)
    if schemas is None:
        return []
    low = prefix.lower()
    out: list[CompletionItem] = []
    for address in schemas.providers():
        for name in schemas.list_resource_types(address) or ():
            if name.lower().startswith(low) and name != prefix:
                schema = schemas.list_resource(address, name)
                out.append(CompletionItem(name, "Class", start, end, name, detail=address, sort=_PROVIDED,
                                          documentation=schema.description if schema is not None else "",
                                          deprecated=schema is not None and schema.deprecated))
    return _unique(out)


# ---- inside ${...} ------------------------------------------------------------------------------------


def _in_expression(snapshot: Snapshot, uri: str, ctx, s, offset: int, snippets: bool) -> list[CompletionItem]:
    pc = context_at(s.value, s.decoded.offsets, offset)
    if pc.kind == "directive":
        return _filter(pc, [CompletionItem(k, "Keyword", 0, 0, k, sort=_KEYWORD) for k in ("if", "for", "else", "endif", "endfor")])
    if pc.kind == "traversal":
        return _filter(pc, _after_dot(snapshot, uri, ctx, pc.root or "", pc.steps))
    if pc.kind in ("identifier", "expression"):
        if pc.namespace:
            return _filter(pc, _provider_namespace(snapshot, uri, pc.namespace, snippets))
        return _filter(pc, _names(snapshot, uri, ctx, snippets))
    return []


def _provider_namespace(snapshot: Snapshot, uri: str, namespace: tuple[str, ...], snippets: bool) -> list[CompletionItem]:
    """After `provider::`: the local names of the module's `required_providers`; after
    `provider::NAME::`: the functions of that provider's loaded schema (`provider_functions`)."""
    if namespace[0] != "provider":
        return []
    if len(namespace) == 1:
        return [CompletionItem(n, "Module", 0, 0, f"{n}::", detail="provider (required_providers)", sort=_DECLARED)
                for n in local_names(snapshot, uri)]
    if len(namespace) > 2 and not (len(namespace) == 3 and snapshot.is_opentofu(uri)):
        return []
    offered = functions_of(snapshot, uri, namespace[1])
    if not offered:
        return []
    prefix = "::".join(namespace) + "::"
    out = []
    for name in sorted(offered):
        fn = offered[name]
        out.append(CompletionItem(name, "Function", 0, 0, _call_text(fn, name, snippets), snippets,
                                  functions.signature(replace(fn, name=prefix + name)), fn.description, _FUNCTION))
    return out


def _call_text(fn, name: str, snippets: bool) -> str:
    """What completing function `fn` as `name` inserts: the name, or with snippets a call with
    placeholders for its parameters."""
    if not snippets:
        return name
    params = [f"${{{i}:{p.name}}}" for i, p in enumerate(fn.parameters, 1)]
    if not params and fn.variadic is not None:
        params = [f"${{1:{fn.variadic.name}}}"]
    return f"{name}({', '.join(params)})" if params else f"{name}()"


def _filter(pc, items: list[CompletionItem]) -> list[CompletionItem]:
    prefix = (pc.prefix or "").lower()
    start, end = pc.prefix_span if pc.prefix_span is not None else (0, 0)
    out = []
    for item in items:
        if item.label.lower().startswith(prefix):
            out.append(replace(item, start=start, end=end, filter=""))
    return out


def _contexts(ctx) -> set[str]:
    """Which of `count`, `each`, `self` are valid where the cursor is."""
    out: set[str] = set()
    if ctx.blocks:
        top = ctx.blocks[0].body
        if top.attribute("count") is not None:
            out.add("count")
        if top.attribute("for_each") is not None:
            out.add("each")
        if any(b.type_name in ("provisioner", "connection", "postcondition") for b in ctx.blocks[1:]):
            out.add("self")
    return out


_TYPES_OF: dict[int, tuple[frozenset, list[str]]] = {}


def _resource_types(keys: frozenset) -> list[str]:
    """The sorted types of resource keys `keys`; remembered for the same set (`Snapshot.declared`
    keeps it per module revision), so a completion does not go through every resource of a large module."""
    cached = _TYPES_OF.get(id(keys))
    if cached is not None and cached[0] is keys:
        return cached[1]
    types = sorted({k[1] for k in keys})
    if len(_TYPES_OF) > 16:
        _TYPES_OF.clear()
    _TYPES_OF[id(keys)] = (keys, types)
    return types


def _names(snapshot: Snapshot, uri: str, ctx, snippets: bool) -> list[CompletionItem]:
    out = [CompletionItem(n, "Module", 0, 0, n, detail=catalogue.NAMESPACES[n].description, sort=_NAMESPACE)
           for n in (*_NAMESPACES, *sorted(_contexts(ctx)))]
    for t in _resource_types(snapshot.declared(uri, "resource")):
        out.append(CompletionItem(t, "Class", 0, 0, t, detail="resource type", sort=_DECLARED))
    engine = "opentofu" if snapshot.is_opentofu(uri) else "terraform"
    language = snapshot.language(uri)
    for name in functions.names(engine):
        fn = functions.lookup(name, engine)
        if fn is None or function_available(name, language) is not None:  # newer than the module's version
            continue
        out.append(CompletionItem(name, "Function", 0, 0, _call_text(fn, name, snippets), snippets, functions.signature(fn), fn.description, _FUNCTION))
    out.extend(CompletionItem(k, "Keyword", 0, 0, k, sort=_KEYWORD) for k in ("true", "false", "null", "for"))
    return out


_BUILTIN_STEPS = {"path": ("module", "root", "cwd"), "terraform": ("workspace", "applying"), "count": ("index",),
                  "each": ("key", "value")}


def _after_dot(snapshot: Snapshot, uri: str, ctx, root: str, steps: tuple) -> list[CompletionItem]:
    steps = tuple(s for s in steps if isinstance(s, str))
    if root in _BUILTIN_STEPS and not steps:
        return [CompletionItem(a, "Property", 0, 0, a, sort=_DECLARED) for a in _BUILTIN_STEPS[root]]
    if root == "var" and not steps:
        return [_variable_item(snapshot, uri, k) for k in sorted(snapshot.declared(uri, "variable"))]
    if root == "local" and not steps:
        # Not the local value being defined here: it cannot refer to itself.
        defining = ctx.attribute.name if ctx.blocks and ctx.blocks[0].type_name == "locals" and ctx.attribute is not None else None
        return [CompletionItem(k[1], "Constant", 0, 0, k[1], detail="local value", sort=_DECLARED)
                for k in sorted(snapshot.declared(uri, "local")) if k[1] != defining]
    if root == "module" and not steps:
        return [CompletionItem(k[1], "Module", 0, 0, k[1], detail="module call", sort=_DECLARED) for k in sorted(snapshot.declared(uri, "module"))]
    if root == "module" and len(steps) == 1:
        return [CompletionItem(o, "Property", 0, 0, o, detail=f"output of module {steps[0]}", sort=_DECLARED)
                for o in snapshot.module_outputs(uri, steps[0])]
    if root in catalogue.TYPED_NAMESPACES:
        keys = sorted(snapshot.declared(uri, root))
        if not steps:
            return [CompletionItem(t, "Class", 0, 0, t, detail=f"{root} type", sort=_DECLARED) for t in sorted({k[1] for k in keys})]
        if len(steps) == 1:
            return [CompletionItem(k[2], "Variable", 0, 0, k[2], detail=f"{root}.{k[1]}", sort=_DECLARED) for k in keys if k[1] == steps[0]]
        if len(steps) == 2 and root != "action":  # an action has no attributes to refer to
            return _schema_attributes(snapshot, uri, steps[0], root, set())
        return []
    if root in catalogue.NAMESPACES:
        return []
    keys = sorted(k for k in snapshot.declared(uri, "resource") if k[1] == root)
    if not steps:
        return [CompletionItem(k[2], "Variable", 0, 0, k[2], detail=f"{root} resource", sort=_DECLARED) for k in keys]
    if len(steps) == 1:
        names = snapshot.resource_arguments(uri, ("resource", root, steps[0])) | {"id"}
        provided = _schema_attributes(snapshot, uri, root, "resource", names)
        names -= {i.label for i in provided}
        return [CompletionItem(a, "Field", 0, 0, a, detail=f"{root}.{steps[0]}", sort=_DECLARED) for a in sorted(names)] + provided
    return []


def _schema_attributes(snapshot: Snapshot, uri: str, type_name: str, kind: str, written: set[str]) -> list[CompletionItem]:
    """Every attribute (computed ones included) and nested block type of `kind` ("resource", "data"
    or "ephemeral") type `type_name` as its provider schema has it; the arguments `written` sort first."""
    schemas = snapshot.provider_schemas(uri)
    if schemas is None:
        return []
    address = provider_of(type_name, None, snapshot.required_providers(uri), snapshot.engine(uri))
    if address is None:
        return []
    lookup = {"data": schemas.data_source, "ephemeral": schemas.ephemeral_resource}.get(kind, schemas.resource)
    schema = lookup(address, type_name)
    if schema is None:
        return []
    out = [CompletionItem(n, "Field", 0, 0, n, detail=a.type, documentation=a.description, deprecated=a.deprecated,
                          sort=_DECLARED if n in written else _PROVIDED)
           for n, a in schema.attributes.items()]
    out.extend(CompletionItem(n, "Field", 0, 0, n, detail=f"nested block ({bt.nesting})", documentation=bt.block.description,
                              deprecated=bt.block.deprecated, sort=_DECLARED if n in written else _PROVIDED)
               for n, bt in schema.block_types.items())
    return out


def _variable_item(snapshot: Snapshot, uri: str, key: tuple) -> CompletionItem:
    """A variable with its type (detail) and description (documentation), read from its declaration."""
    kind_, description = variable_summary(snapshot, uri, key)
    detail = f"input variable: {kind_}" if kind_ else "input variable"
    return CompletionItem(key[1], "Variable", 0, 0, key[1], detail=detail, documentation=description, sort=_DECLARED)


# ---- strings read as references and types ---------------------------------------------------------------


def _static_reference(snapshot: Snapshot, uri: str, ctx, s, offset: int) -> list[CompletionItem]:
    typed = s.value[: s.index]
    if not all(c.isalnum() or c in "_-." for c in typed):
        return []
    parts = typed.split(".")
    prefix = parts[-1]
    start = s.decoded.offsets[s.index - len(prefix)]
    end = s.decoded.offsets[s.index]
    if ctx.attribute is not None and ctx.attribute.name == "provider":
        if len(parts) == 1:
            names = {k[1] for k in snapshot.declared(uri, "provider")} | {k[1] for k in snapshot.declared(uri, "provider-requirement")}
        elif len(parts) == 2:
            names = {k[2] for k in snapshot.declared(uri, "provider") if k[1] == parts[0] and k[2]}
        else:
            names = set()
        items = [CompletionItem(n, "Module", start, end, n, sort=_DECLARED) for n in sorted(names)]
    elif ctx.attribute is not None and ctx.attribute.name == "ignore_changes":
        return []
    elif len(parts) == 1:
        names = {k[1] for k in snapshot.declared(uri, "resource")} | set(catalogue.STATIC_ADDRESS_NAMESPACES)
        items = [CompletionItem(n, "Class", start, end, n, sort=_DECLARED) for n in sorted(names)]
    else:
        items = [CompletionItem(i.label, i.kind, start, end, i.insert_text, detail=i.detail, sort=i.sort,
                                deprecated=i.deprecated)
                 for i in _after_dot(snapshot, uri, ctx, parts[0], tuple(parts[1:-1]))]
    return [i for i in items if i.label.lower().startswith(prefix.lower())]


def _types(s, offset: int, snippets: bool) -> list[CompletionItem]:
    typed = s.value[: s.index]
    word = ""
    for ch in reversed(typed):
        if not (ch.isalnum() or ch == "_"):
            break
        word = ch + word
    start = s.decoded.offsets[s.index - len(word)]
    end = s.decoded.offsets[s.index]
    out = []
    for label, snippet in _TYPE_WORDS:
        if label.startswith(word.lower()):
            insert = snippet if snippets else label
            out.append(CompletionItem(label, "TypeParameter", start, end, insert, snippets and insert != label, sort=_KEYWORD))
    return out
