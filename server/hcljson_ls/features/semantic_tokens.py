"""Semantic tokens of a Terraform JSON document: Terraform structure outside strings, the template
layer's classification inside them, with Terraform-aware refinements.

    legend() -> (token_types, token_modifiers)
    semantic_tokens(snapshot, uri, start=None, end=None) -> list[(start, end, type, modifiers)]

Contract
--------
* `semantic_tokens` returns tokens sorted by start, non-overlapping, with absolute document offsets
  (half-open) and `modifiers` a tuple of names from the legend. With `start`/`end` (a `range`
  request) only tokens intersecting ``[start, end)`` are returned, and only the top-level blocks
  meeting the range are walked. Never empty-width tokens.
* The LSP edge (`lsp.semantic_encoding`) turns them into LSP's relative encoding.
* Results of each top-level block are kept with the block's analysis (`FileView.memo`: per body
  content, moved when the block moved), so after an edit only changed blocks are classified again.
  With provider schemas the memo key also holds `provider_lookup.resolution_key` (the schemas
  object, the engine, `required_providers` entries that change a block's provider), so tokens
  computed with other schemas are never reused.
* Provider schemas (`Snapshot.provider_schemas`; without them, or for a provider without a loaded
  schema, the table below applies as is): inside resource and data bodies, at any depth (nested
  blocks written as objects or arrays of objects, objects of protocol-6 nested attributes,
  `dynamic` `content`), a key the schema calls a nested block type is a `keyword` (as block type
  keys are), an attribute a `property`, and either one the provider marks deprecated has the
  `deprecated` modifier. Keys the schema does not know keep the table's token (top level) or none
  (inside values).

What gets which token (legend: the template layer's `TOKEN_TYPES` plus `comment`; modifiers
`declaration`, `defaultLibrary`, `deprecated`):

| where                                                        | type        | modifiers        |
|--------------------------------------------------------------|-------------|------------------|
| block type keys (`"resource"`, `"lifecycle"`, ...)           | `keyword`   |                  |
| resource/data/ephemeral/action type labels (`"aws_instance"`), backend and provisioner types | `type` | |
| provider names (`provider` label, `provider_meta` label)     | `namespace` |                  |
| declared names: resource/data names, variable, output, module, check names; `locals` keys | `variable` | `declaration` |
| `dynamic` block labels (the nested block type it generates)  | `property`  |                  |
| argument names                                               | `property`  |                  |
| meta-argument names of the block kind (`catalogue.meta_arguments`: `count` `for_each` `provider` `depends_on` in resource, data, ephemeral blocks; `source` `version` `providers` `count` `for_each` `depends_on` in module blocks; `count` `for_each` `provider` in action blocks) | `property` | `defaultLibrary` |
| `"//"` comment keys of bodies                                | `comment`   |                  |
| inside templates, references and type strings                | the template layer's classification (`template.semantic`) | |
| ... refined: roots `var` `local` `module` `data` `ephemeral` `action` `path` `terraform` | `namespace` | `defaultLibrary` |
| ... roots `count` `each` `self`                              | `variable`  | `defaultLibrary` |
| ... the name after `var.` / `local.` / `module.`             | `variable`  |                  |
| ... the type after `data.` / `ephemeral.` / `action.`        | `type`      |                  |
| ... any other root (a resource type, `aws_instance.web`)     | `type`      |                  |
| ... the iterator of an enclosing `dynamic` block             | `parameter` |                  |
| ... `ignore_changes` elements: the root is an argument name  | `property`  |                  |
| ... provider references (`provider`, module `providers`): the root | `namespace` |            |
| keyword-valued strings (`"all"`, provisioner `when`/`on_failure`, `language`, `experiments`, `events`) | `keyword` | |
| `dynamic.iterator` value                                     | `parameter` | `declaration`    |

Literal text (the characters of a JSON string outside `${...}`/`%{...}`), literal-only strings and
JSON punctuation get no token: the editor's JSON colouring applies there.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..hcljson.incremental import FileView
from ..hcljson.model import Block, Body, Expression
from ..hcljson.schema import (
    EXPRESSION,
    STRING_KEYWORD,
    STRING_NATIVE,
    STRING_TEMPLATE,
    STRING_TRAVERSAL,
    STRING_TYPE,
)
from ..hcljson.values import string_text
from ..jsonsyntax.tree import ARRAY, OBJECT, Array, Container, FlaggedString, Object, String
from ..template import TOKEN_MODIFIERS, TOKEN_TYPES, classify
from ..template.nodes import Attr, Traversal, walk
from ..terraform.definition.catalogue import (
    BLOCKS,
    CONTEXT,
    KEYWORD_ARGUMENTS,
    LABEL_BLOCK_TYPE,
    LABEL_NAME,
    LABEL_PROVIDER,
    LABEL_TYPE,
    NAMESPACES,
    NESTED_LABELS,
    PROVIDER_REFERENCE_ARGUMENTS,
    STEP_NAME,
    STEP_TYPE,
    literal_settings_block,
    meta_arguments,
)
from ..terraform.expressions.templates import expression_strings, string_tree
from ..terraform.resolution.reference_walk import iterator_name
from ..terraform.schemas.provider_lookup import block_schema, nested_body, resolution_key
from ..terraform.schemas.provider_schema import MAP, ProviderSchemas, SchemaBlock
from ..workspace import Snapshot
from . import kinds
from .results import Token

__all__ = ["legend", "semantic_tokens", "tokens_for_body", "Schemas", "TOKEN_TYPES_ALL", "TOKEN_MODIFIERS_ALL", "Token"]


TOKEN_TYPES_ALL: tuple[str, ...] = (*TOKEN_TYPES, "comment")
TOKEN_MODIFIERS_ALL: tuple[str, ...] = (*TOKEN_MODIFIERS, "deprecated")

_DECL = ("declaration",)
_LIB = ("defaultLibrary",)
_DEPRECATED = ("deprecated",)
_NONE: tuple[str, ...] = ()

# The catalogue's Terraform meaning as token kinds. Reference roots: namespaces (`var`, `path`, ...)
# and the objects of a context (`count`, `each`, `self`); the step after a declaring namespace.
_NAMESPACE_ROOTS = frozenset(n for n, ns in NAMESPACES.items() if ns.kind != CONTEXT)
_OBJECT_ROOTS = frozenset(n for n, ns in NAMESPACES.items() if ns.kind == CONTEXT)
_STEP_KINDS = {STEP_NAME: "variable", STEP_TYPE: "type"}
_NAME_AFTER = {n: _STEP_KINDS[ns.step] for n, ns in NAMESPACES.items() if ns.step in _STEP_KINDS}

# Labels per block type, by what they name: top-level (parent None) and nested.
_LABEL_KINDS = {
    LABEL_TYPE: ("type", _NONE),
    LABEL_NAME: ("variable", _DECL),
    LABEL_PROVIDER: ("namespace", _NONE),
    LABEL_BLOCK_TYPE: ("property", _NONE),
}
_TOP_LABELS = {t: tuple(_LABEL_KINDS[lab.role] for lab in b.labels) for t, b in BLOCKS.items() if b.labels}
_NESTED_LABELS = {t: tuple(_LABEL_KINDS[lab.role] for lab in labels) for t, labels in NESTED_LABELS.items()}
_DEFAULT_LABEL = ("type", _NONE)
# Traversal-mode arguments whose strings are keywords or names rather than references.
_KEYWORD_ARGUMENTS = frozenset(KEYWORD_ARGUMENTS)
# Root kinds of references by (owner block, argument): see the module table.
_PROVIDER_REF = "namespace"
_ARGUMENT_REF = "property"

CACHE_KEY = "features.semantic_tokens.blocks"  # per top-level block, in `FileView.memo`
_FULL_KEY = "features.semantic_tokens.full"


def legend() -> tuple[list[str], list[str]]:
    """`(token types, token modifiers)` in the order `encode` numbers them."""
    return list(TOKEN_TYPES_ALL), list(TOKEN_MODIFIERS_ALL)


def _shift_token(t: Token, delta: int) -> Token:
    return (t[0] + delta, t[1] + delta, t[2], t[3])


def _content(text: str, s: int, e: int) -> tuple[int, int]:
    """The range inside the quotes of a key string at `[s, e)` (as is for an unquoted word)."""
    if s < e and text[s] == '"':
        s += 1
        if e > s and text[e - 1] == '"':
            e -= 1
    return s, e


# ---- strings ---------------------------------------------------------------------------------


def _refine(tokens: list[Token], tree: Any, params: frozenset[str], root_kind: str | None) -> list[Token]:
    """Terraform meaning for traversal roots and first steps (see the module table)."""
    changes: dict[int, tuple[str, tuple[str, ...], str]] = {}  # start -> (type, mods, expected old type)
    for n in walk(tree):
        if type(n) is not Traversal:
            continue
        root = n.root
        first = n.steps[0] if n.steps and type(n.steps[0]) is Attr else None
        if root in params:
            changes[n.start] = ("parameter", _NONE, "variable")
        elif root_kind is not None:
            changes[n.start] = (root_kind, _NONE, "variable")
        elif root in _NAMESPACE_ROOTS:
            changes[n.start] = ("namespace", _LIB, "variable")
            after = _NAME_AFTER.get(root)
            if after is not None and first is not None:
                changes[first.name_start] = (after, _NONE, "property")
        elif root in _OBJECT_ROOTS:
            changes[n.start] = ("variable", _LIB, "variable")
        else:
            changes[n.start] = ("type", _NONE, "variable")
    if not changes:
        return tokens
    out = []
    for t in tokens:
        c = changes.get(t[0])
        if c is not None and t[2] == c[2]:
            out.append((t[0], t[1], c[0], c[1]))
        else:
            out.append(t)
    return out


@lru_cache(maxsize=32768)
def _string_tokens(raw: str, smode: str, params: frozenset[str], root_kind: str | None) -> tuple[Token, ...]:
    """Tokens of one JSON string's content `raw` (as written) read in string mode `smode`, with
    positions relative to the start of `raw` (cached by content)."""
    tree = string_tree(raw, smode)  # shared with the references (`terraform.templates`)
    if tree is None:
        return ()
    tokens = classify(tree)
    if smode == STRING_TYPE:
        return tuple(tokens)
    return tuple(_refine(tokens, tree, params, root_kind))


class _Walker:
    __slots__ = ("text", "out")

    def __init__(self, text: str, out: list[Token]) -> None:
        self.text = text
        self.out = out

    def headers(self, block, parent: str | None) -> None:
        """Tokens of a block's type key and label keys."""
        text = self.text
        out = self.out
        s, e = _content(text, block.type_start, block.type_end)
        out.append((s, e, "keyword", _NONE))
        kinds = (_TOP_LABELS if parent is None else _NESTED_LABELS).get(block.type_name, ())
        for i, lab in enumerate(block.labels):
            kind, mods = kinds[i] if i < len(kinds) else _DEFAULT_LABEL
            s, e = _content(text, lab.start, lab.end)
            out.append((s, e, kind, mods))

    def body(self, body: Body, owner: str | None, base_params: frozenset[str], schema: SchemaBlock | None = None) -> None:
        """Tokens of `body` (a block of type `owner`); `schema` is its provider schema, if known."""
        text = self.text
        out = self.out
        # (body, owner block type, read literally, dynamic iterators in scope, owner's meta-arguments,
        #  the body's provider schema, the provider schema of a `dynamic` block's `content`)
        stack: list[tuple[Body, str | None, bool, frozenset[str], frozenset[str], SchemaBlock | None, SchemaBlock | None]] = [
            (body, owner, False, base_params, meta_arguments(owner), schema, None)
        ]
        while stack:
            b, own, literal, params, meta, sch, content = stack.pop()
            self._comment_keys(b)
            for a in b.attributes:
                s, e = _content(text, a.name_start, a.name_end)
                if own == "locals":
                    out.append((s, e, "variable", _DECL))
                elif a.name in meta:
                    out.append((s, e, "property", _LIB))
                elif sch is not None and a.schema is None:
                    self.schema_key(s, e, a.name, sch, a.expr.node if a.expr else None, a.expr.start if a.expr else 0)
                else:
                    out.append((s, e, "property", _NONE))
                if a.expr is None or (literal and a.schema is None):
                    continue
                self.expression(a.expr, own, a.name, params)
            for blk in b.blocks:
                self.headers(blk, own)
                inner = params
                t = blk.type_name
                inner_schema = inner_content = None
                if t == "dynamic":
                    inner = params | {iterator_name(text, blk)}
                    bt = sch.block_types.get(blk.labels[-1].value) if sch is not None and blk.labels else None
                    inner_content = bt.block if bt is not None else None
                elif t == "content":
                    inner_schema = content
                stack.append((blk.body, t, literal_settings_block(t, own), inner, meta_arguments(t, own), inner_schema, inner_content))

    def schema_key(self, s: int, e: int, name: str, schema: SchemaBlock, node: Any, start: int) -> None:
        """The token of provider-defined key `name` (content `[s, e)`) of a body whose schema is
        `schema`, and the keys of the bodies written in its value `node` (absolute `start`)."""
        pending: list[tuple[int, int, str, SchemaBlock, Any, int]] = [(s, e, name, schema, node, start)]
        out = self.out
        text = self.text
        while pending:
            s, e, name, schema, node, start = pending.pop()
            bt = schema.block_types.get(name)
            inner: SchemaBlock | None
            if bt is not None:
                out.append((s, e, "keyword", _DEPRECATED if bt.block.deprecated else _NONE))
                inner, keyed = bt.block, bt.nesting == MAP
            else:
                a = schema.attributes.get(name)
                if a is None:
                    out.append((s, e, "property", _NONE))
                    continue
                out.append((s, e, "property", _DEPRECATED if a.deprecated else _NONE))
                inner = nested_body(a)
                keyed = a.nested is not None and a.nested.nesting == MAP
            if inner is None or node is None:
                continue
            for obj, at in _bodies(node, start, keyed):
                for m in obj.items:
                    k = m.key
                    if k is None or type(k) is not String and (k.quote != '"' or not k.terminated):
                        continue
                    ks, ke = at + k.start, at + k.end
                    key = text[ks + 1 : ke - 1] if type(k) is String else string_text(text, k, ks)
                    if key in inner.attributes or key in inner.block_types:
                        v = m.value
                        cs, ce = _content(text, ks, ke)
                        pending.append((cs, ce, key, inner, v, at + v.start if v is not None else 0))

    def _comment_keys(self, b: Body) -> None:
        node = b.node
        if node is None:
            return
        text = self.text
        groups: list[tuple[Container, int]]
        if isinstance(node, Container) and node.kind == OBJECT:
            groups = [(node, b.start)]
        elif isinstance(node, Container) and node.kind == ARRAY:
            inner = b.start
            groups = [(v, inner + v.start) for m in node.items if isinstance(v := m.value, Container) and v.kind == OBJECT]
        else:
            return
        for obj, at in groups:
            for m in obj.items:
                k = m.key
                if k is not None and k.end - k.start == 4 and type(k) is String:
                    ks = at + k.start
                    if text.startswith("//", ks + 1):
                        self.out.append((ks + 1, ks + 3, "comment", _NONE))

    def expression(self, expr: Expression, owner: str | None, name: str, params: frozenset[str]) -> None:
        text = self.text
        out = self.out
        find = text.find
        node = expr.node
        if expr.mode == EXPRESSION:
            # Every string is a template: the bulk of a document, handled without the generic walk.
            t = type(node)
            if t is String:
                cs = expr.start + 1
                ce = expr.end - 1
                if find("{", cs, ce) >= 0 and (find("${", cs, ce) >= 0 or find("%{", cs, ce) >= 0):
                    out.extend((s + cs, e + cs, k, m) for s, e, k, m in _string_tokens(text[cs:ce], STRING_TEMPLATE, params, None))
                return
            if t is not Object and t is not Array and t is not FlaggedString:
                return
        keyword_arg = (owner, name) in _KEYWORD_ARGUMENTS
        if name == "ignore_changes" and owner == "lifecycle":
            root_kind: str | None = _ARGUMENT_REF
        elif name in PROVIDER_REFERENCE_ARGUMENTS:
            root_kind = _PROVIDER_REF
        else:
            root_kind = None
        for node, start, smode, _ in expression_strings(expr):
            if smode is None or (type(node) is not String and (node.quote != '"' or not node.terminated)):
                continue
            cs = start + 1
            ce = start + node.end - node.start - 1
            if smode == STRING_TEMPLATE:
                if node.escaped:
                    if find("{", cs, ce) < 0 and find("\\u", cs, ce) < 0:
                        continue
                elif find("${", cs, ce) < 0 and find("%{", cs, ce) < 0:
                    continue
                rel = _string_tokens(text[cs:ce], smode, params, None)
            elif smode == STRING_KEYWORD or (smode == STRING_TRAVERSAL and keyword_arg):
                if ce > cs:
                    out.append((cs, ce, "keyword", _NONE))
                continue
            elif smode == STRING_TRAVERSAL and owner == "dynamic" and name == "iterator":
                if ce > cs:
                    out.append((cs, ce, "parameter", _DECL))
                continue
            elif smode in (STRING_TRAVERSAL, STRING_NATIVE):
                rel = _string_tokens(text[cs:ce], smode, params if root_kind is None else frozenset(), root_kind)
            elif smode == STRING_TYPE:
                rel = _string_tokens(text[cs:ce], smode, frozenset(), None)
            else:
                continue
            out.extend((s + cs, e + cs, k, m) for s, e, k, m in rel)


def _bodies(node: Any, start: int, keyed: bool):
    """(JSON object, absolute start) of each body written in a block's or nested attribute's value:
    the object, or each object of an array; for a map (`keyed`), each value of the object."""
    if node.kind == OBJECT:
        if not keyed:
            yield node, start
            return
        candidates = [(m.value, start + m.value.start) for m in node.items if m.value is not None]
    elif node.kind == ARRAY and not keyed:
        candidates = [(m.value, start + m.value.start) for m in node.items if m.value is not None]
    else:
        return
    for value, at in candidates:
        if value.kind == OBJECT:
            yield value, at


def _clean(tokens: list[Token]) -> list[Token]:
    """Sorted, non-empty, non-overlapping (the first of overlapping tokens wins)."""
    tokens.sort()
    out: list[Token] = []
    last = -1
    for t in tokens:
        if t[1] > t[0] and t[0] >= last:
            out.append(t)
            last = t[1]
    return out


@dataclass(frozen=True, slots=True)
class Schemas:
    """What the provider schemas of a document's module need: the `ProviderSchemas`, the module's
    `required_providers` (local name -> source) and engine."""

    schemas: ProviderSchemas
    required_providers: Mapping[str, Any] = field(default_factory=dict)
    engine: str = "terraform"
    _by_type: dict = field(default_factory=dict, compare=False, repr=False)  # blocks without `provider`

    def of(self, text: str, block: Block) -> SchemaBlock | None:
        if block.body.attribute("provider") is not None or not block.labels:
            return block_schema(block, self.schemas, text, self.required_providers, self.engine)
        key = (block.type_name, block.labels[0].value, len(block.labels))
        try:
            return self._by_type[key]
        except KeyError:
            found = self._by_type[key] = block_schema(block, self.schemas, text, self.required_providers, self.engine)
            return found

    @property
    def key(self) -> Hashable:
        return resolution_key(self.schemas, self.required_providers, self.engine)


def _block_tokens(text: str, block: Block, schemas: Schemas | None = None) -> list[Token]:
    out: list[Token] = []
    schema = schemas.of(text, block) if schemas is not None else None
    _Walker(text, out).body(block.body, block.type_name, frozenset(), schema)
    return _clean(out)


def tokens_for_body(text: str, root: Body | FileView, start: int | None = None, end: int | None = None,
                    schemas: Schemas | None = None) -> list[Token]:
    """Tokens of the decoded root body `root` of `text` (see `semantic_tokens`), with the module's
    provider `schemas` if known; on a `FileView` each top-level block's tokens are kept with its
    results."""
    return _tokens_for_body(text, root, start, end, schemas)


def _tokens_for_body(text: str, root: Body | FileView, start: int | None, end: int | None,
                     schemas: Schemas | None) -> list[Token]:
    out: list[Token] = []
    walker = _Walker(text, out)
    ranged = start is not None or end is not None
    lo = 0 if start is None else start
    hi = len(text) if end is None else end
    if root.attributes:
        walker.body(Body(root.node, root.start, root.end, root.schema, root.attributes, ()), None, frozenset())
    if root.node is not None:
        walker._comment_keys(Body(root.node, root.start, root.end, root.schema))
    if isinstance(root, FileView):
        tokens = _merge(_clean(out), _view_tokens(text, root, lo if ranged else None, hi if ranged else None, schemas))
        if ranged:
            tokens = [t for t in tokens if t[0] < hi and t[1] > lo]
        return tokens
    else:
        for blk in root.blocks:
            if ranged and (blk.end < lo or min(blk.start, blk.body.start) > hi):
                continue
            walker.headers(blk, None)
            out.extend(_block_tokens(text, blk, schemas))
    tokens = _clean(out)
    if ranged:
        tokens = [t for t in tokens if t[0] < hi and t[1] > lo]
    return tokens


def _view_tokens(text: str, view: FileView, start: int | None, end: int | None, schemas: Schemas | None) -> list[Token]:
    """The top-level blocks' tokens, sorted and cleaned as they come: blocks are in document order,
    each block's own tokens are kept cleaned (`FileView.memo`, under a key that holds the schemas'
    `Schemas.key`), and header keys shared with the previous block (its type key, a shared label)
    are left out as already there."""
    compute = lambda blk: _block_tokens(text, blk, schemas)  # noqa: E731
    key = CACHE_KEY if schemas is None else (CACHE_KEY, schemas.key)
    stream: list[Token] = []
    heads: list[Token] = []
    walker = _Walker(text, heads)
    last = -1
    for top, items in view.memo(key, compute, _shift_token, start, end):  # type: ignore[arg-type]
        heads.clear()
        walker.headers(top, None)
        for t in heads:
            if t[1] > t[0] and t[0] >= last:
                stream.append(t)
                last = t[1]
        if items:
            if items[0][0] >= last:
                stream.extend(items)
                last = items[-1][1]
            else:  # pragma: no cover - a body never starts before its own header
                for t in items:
                    if t[0] >= last:
                        stream.append(t)
                        last = t[1]
    return stream


def _merge(few: list[Token], stream: list[Token]) -> list[Token]:
    """Two cleaned token lists as one (`few` short: the root body's own tokens)."""
    for t in few:
        i = bisect_left(stream, t)
        if (i > 0 and stream[i - 1][1] > t[0]) or (i < len(stream) and t[1] > stream[i][0]):
            return _clean(few + stream)  # overlapping: let the general rule decide
        stream.insert(i, t)
    return stream


def semantic_tokens(snapshot: Snapshot, uri: str, start: int | None = None, end: int | None = None) -> list[Token]:
    """Tokens of open document `uri`, all of them or those intersecting ``[start, end)``; see the
    module doc. Empty for an unknown document."""
    if (own := kinds.answer("semantic_tokens", snapshot, uri, start, end)) is not kinds.CONFIGURATION:
        return own
    state = snapshot.document(uri)
    if state is None:
        return []
    body = state.analysis.body
    loaded = snapshot.provider_schemas(uri)
    schemas = Schemas(loaded, snapshot.required_providers(uri), snapshot.engine(uri)) if loaded is not None else None
    if start is None and end is None:
        key = _FULL_KEY if schemas is None else (_FULL_KEY, schemas.key)
        return state.cached(key, lambda s: tokens_for_body(s.text, body, schemas=schemas))  # type: ignore[arg-type]
    return tokens_for_body(state.text, body, start, end, schemas)
