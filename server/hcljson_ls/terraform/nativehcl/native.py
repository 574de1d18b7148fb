"""What a native-syntax file (`.tf`, `.tofu`) of a module declares and refers to, read with
tree-sitter-hcl. We never diagnose such files (terraform-ls does); we only need to know what they
declare, so that references in JSON files resolve to them, and what they refer to, so that "find
references" and rename reach them.

    parse_native(text) -> NativeFile
    NativeFile.declarations     tuple[Declaration, ...]     what the file declares, in source order
    NativeFile.references       tuple[Reference | Call, ...] every traversal and call, in source order

Contract
--------
* Declarations have the keys of `validate.definitions` (the JSON side): `("variable", name)`,
  `("local", name)` per attribute of a `locals` block, `("resource", type, name)`, `("data", ...)`,
  `("ephemeral", ...)`, `("action", ...)`, `("module", name)`, `("output", name)`,
  `("check", name)`, `("provider", name, alias or None)`, `validate.STATE_STORAGE` for each
  `backend` / `cloud` block of a `terraform` block (at its label, or `cloud`), `validate.REQUIRED_PROVIDERS` for
  each `required_providers` block (at its type name), `(validate.IMPORT_TARGET, instance, resource)`
  for an `import` block whose `to` is a static address (`addresses.static_instance`, at the `to`
  expression); and the facts that are no declarations
  (`validate.REPEATABLE`): `("module-source", name, source)` for a module call's literal `source`
  (at the string), `("variable-input", name, type, required)` for each variable
  (`module_calls.input_fact`: its type expression's text, spaces collapsed; whether it has no
  `default`; at its label), `references.repetition_key(key, mode)` for a resource, data source,
  ephemeral resource or module call that sets `count` / `for_each` (at its last label),
  `provider_lookup.configuration_used` of a resource, data source or ephemeral resource (its
  `provider` meta-argument's text, else its type's prefix; at its last label),
  `provider_lookup.configuration_passed` of each entry of a module call's `providers` map (at its
  key), `(provider_passing.CONFIGURED, name, alias)` for a provider block that holds a configuration
  (an argument besides `alias`, `version` and `for_each`, a nested block, or a `version` that is not
  `null`; at its label),
  `("provider-alias", name, alias)` for each `name.alias` of a
  `required_providers` entry's `configuration_aliases` (at the traversal) and for a provider block
  with `for_each` (instances of one configuration). A declaration's range is its block's last
  label (a string literal with its quotes, or a bare identifier label) or a local's name. A block
  declares nothing when its labels are not all plain literals or their number is not the schema's;
  a provider declares nothing when its `alias` is not a literal string. Label values are decoded
  (`\\"`, `\\u00e9`, `$${` ...).
* References follow `terraform.references`: the root identifier's range, then the static steps
  (`.name`, `["key"]`), ending at the first other step (a numeric or computed index, a splat, a
  legacy `.0`). Calls are `Call(name as written incl. provider::ns::, name range, args, expands)`.
  Names bound by `for` expressions, template `%{ for }` directives and `dynamic` blocks' iterators
  (the `iterator` argument, else the block's label; in scope in the dynamic block's body except
  its `for_each`) are not references where they are bound. References in template interpolations
  and directives of quoted strings and heredocs count.
* Context flags: `IN_COUNT` / `IN_FOR_EACH` inside a top-level block (or a `check`'s `data`
  block) that sets `count` / `for_each` and may (`catalogue.NAMESPACES` `count` and `each`),
  except in that `count` / `for_each` expression itself; `IN_SELF` inside `provisioner`,
  `connection` and `postcondition` blocks; `STATIC` for `moved.to` and `import.to` (in native
  syntax every other address is an expression: `depends_on = [aws_instance.a]` is a plain
  traversal); `PROVIDER` for the provider configurations named by the `provider` meta-argument
  (resources, data sources, ephemeral resources, actions, imports) and the values of a module's
  `providers` map (`aws.west`: root `aws`, one step `west`).
* Not references, as on the JSON side (`terraform.reference_walk`): the whole `terraform` block, a
  variable's `type`, `moved.from` and `removed.from` (addresses that no longer exist, on purpose),
  `lifecycle.ignore_changes`, a dynamic block's `iterator`, keyword arguments
  (`catalogue.KEYWORD_ARGUMENTS`: a provisioner's `when`, ...), the keys of a module's `providers`
  map, and a bare identifier as an object key (`{ name = 1 }`: a literal key).
* Offsets are character offsets into `text` (Python string indices), not the UTF-8 byte offsets
  tree-sitter reports. Never raises: on broken syntax tree-sitter recovers and whatever parsed is
  used (a block swallowed by an error node still declares; a label with a missing quote does not).
"""

from __future__ import annotations

import logging
import re
import threading
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..definition import catalogue
from ..definition.language import CONSTRAINT_KIND, OPENTOFU, TERRAFORM
from ..resolution.addresses import static_instance
from ..resolution.module_calls import input_fact
from ..resolution.provider_passing import CONFIGURED
from ..resolution.provider_passing import META as PROVIDER_META
from ..resolution.references import (
    IN_COUNT,
    IN_FOR_EACH,
    IN_SELF,
    INSTANCED,
    PROVIDER,
    REPETITION,
    STATIC,
    Call,
    Reference,
    Step,
    repetition_key,
)
from ..rules.const_sources import VARIABLE_CONST
from ..rules.declarations import Declaration
from ..rules.validate import IMPORT_TARGET, REQUIRED_PROVIDERS, STATE_STORAGE
from ..schemas.provider_lookup import configuration_passed, configuration_used

__all__ = ["NativeFile", "parse_native"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class NativeFile:
    declarations: tuple[Declaration, ...] = ()
    references: tuple[Reference | Call, ...] = ()


# ---- the parser --------------------------------------------------------------------------------

_local = threading.local()  # a tree-sitter Parser is not to be shared between threads


def _parser() -> Any:
    parser = getattr(_local, "parser", None)
    if parser is None:
        import tree_sitter  # lazy: only native files need the grammar (a C extension) loaded
        import tree_sitter_hcl  # lazy: likewise

        parser = _local.parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_hcl.language()))
    return parser


def parse_native(text: str, tofu_file: bool = False) -> NativeFile:
    """Everything `text`, a native-syntax configuration file, declares and refers to (never raises:
    an internal failure gives an empty result). `tofu_file`: a `.tofu` file, whose
    `required_version` is OpenTofu's (`language.constraint_keys`)."""
    try:
        return _read(text, tofu_file)
    except Exception:  # a bug here must not take the workspace down: the file contributes nothing
        log.exception("reading a native file failed")
        return NativeFile()


def _read(text: str, tofu_file: bool = False) -> NativeFile:
    data = text.encode("utf-8", "surrogatepass")
    tree = _parser().parse(data)
    walk = _Walk(text, data)
    walk.constraint_engine = OPENTOFU if tofu_file else TERRAFORM
    walk.run(tree.root_node)
    return NativeFile(tuple(walk.declarations), tuple(walk.references))


# ---- offsets -----------------------------------------------------------------------------------

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _char_offsets(text: str) -> Callable[[int], int] | None:
    """Byte offset of the UTF-8 encoding -> character offset; None when they are the same."""
    if text.isascii():
        return None
    starts: list[int] = []  # byte offset just past each non-ASCII character
    extra: list[int] = []  # bytes beyond one per character, up to and including that character
    total = 0
    for m in _NON_ASCII.finditer(text):
        c = ord(m.group())
        width = 2 if c < 0x800 else 3 if c < 0x10000 else 4  # surrogates (surrogatepass) take 3
        char = m.start()
        total += width - 1
        starts.append(char + total + 1)
        extra.append(total)
    size = len(text)

    def convert(b: int) -> int:
        i = bisect_right(starts, b)
        c = b - (extra[i - 1] if i else 0)
        return min(c, size)

    return convert


# ---- strings -----------------------------------------------------------------------------------

_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))|\$\$\{|%%\{", re.DOTALL)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_TEMPLATE = re.compile(r"(?<!\$)\$\{|(?<!%)%\{")


def _unescape(m: re.Match) -> str:
    whole = m.group()
    if whole == "$${":
        return "${"
    if whole == "%%{":
        return "%{"
    hex_ = m.group(1) or m.group(2)
    if hex_ is not None:
        c = int(hex_, 16)
        return chr(c) if c <= 0x10FFFF else whole
    return _SIMPLE.get(m.group(3), whole)


def _plain_string(node: Any, data: bytes) -> str | None:
    """The value of `node`, a `string_lit` holding no template sequence and complete; else None."""
    if node.type != "string_lit" or node.has_error:
        return None
    children = node.children
    if len(children) < 2 or children[-1].type != "quoted_template_end" or children[-1].is_missing:
        return None
    for c in children[1:-1]:
        if c.type != "template_literal":
            return None
    raw = data[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "surrogatepass")
    if "\\" not in raw and "{" not in raw:
        return raw
    if _TEMPLATE.search(raw.replace("$${", "").replace("%%{", "")):
        return None  # a template sequence where HCL wants a literal
    return _ESCAPE.sub(_unescape, raw)


# ---- the walk ----------------------------------------------------------------------------------

_DECLARING = catalogue.NAMED_BLOCKS
_RESOURCE_MODES = frozenset(catalogue.RESOURCE_MODES)
_COUNT_BLOCKS = catalogue.MULTI_INSTANCE_BLOCKS
_FOR_EACH_BLOCKS = catalogue.NAMESPACES["each"].valid_in
_SELF_BLOCKS = catalogue.NAMESPACES["self"].valid_in
_SKIPPED_BLOCKS = frozenset({"terraform"})  # settings read literally: nothing in it refers to anything
_FOR_EXPRESSIONS = frozenset({"for_tuple_expr", "for_object_expr"})
#: Wrappers around top-level blocks (a block swallowed by error recovery is still top level).
_CONTAINERS = frozenset({"config_file", "body", "ERROR"})

_NO_NAMES: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class _Ctx:
    flags: int = 0
    bound: frozenset[str] = _NO_NAMES
    block: str | None = None  # the type of the enclosing block
    parent: str | None = None  # the type of the block enclosing that one
    top: bool = False  # `block` is a top-level block (its arguments may be meta-arguments)


_ROOT = _Ctx()


class _Walk:
    def __init__(self, text: str, data: bytes) -> None:
        self.data = data
        self.convert = _char_offsets(text)
        self.declarations: list[Declaration] = []
        self.references: list[Reference | Call] = []
        self.constraint_engine = TERRAFORM  # whose `required_version` this file's is
        self.stack: list[tuple[Any, _Ctx]] = []

    # -- helpers -----------------------------------------------------------------------------

    def span(self, node: Any) -> tuple[int, int]:
        s, e = node.start_byte, node.end_byte
        c = self.convert
        return (s, e) if c is None else (c(s), c(e))

    def name(self, node: Any) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    # -- driving -------------------------------------------------------------------------------

    def run(self, root: Any) -> None:
        self.top_level(root)

    def top_level(self, node: Any) -> None:
        """Top-level blocks, attributes and error nodes, in order (walked as they come)."""
        for child in node.children:
            t = child.type
            if t == "block":
                self.block(child, _ROOT, top=True)
                self.drain()
            elif t in _CONTAINERS:
                if _shallow(child):
                    self.top_level(child)
                else:
                    self.stack.append((child, _ROOT))
                    self.drain()
            elif child.child_count or t == "variable_expr":
                self.stack.append((child, _ROOT))
                self.drain()

    def drain(self) -> None:
        stack, visit = self.stack, self.visit
        while stack:
            visit(*stack.pop())

    def push_children(self, children: list, ctx: _Ctx) -> None:
        """Push the children that may hold references (literals and tokens cannot)."""
        stack = self.stack
        for child in reversed(children):
            if child.child_count and child.type != "literal_value" or child.type == "variable_expr":
                stack.append((child, ctx))

    # -- nodes ---------------------------------------------------------------------------------

    def visit(self, node: Any, ctx: _Ctx) -> None:
        t = node.type
        if t == "variable_expr":
            self.reference(node, ctx)
        elif t == "function_call":
            self.call(node, ctx)
        elif t in _FOR_EXPRESSIONS:
            self.scope(node, ctx, "for_intro")
        elif t == "template_for":
            self.scope(node, ctx, "template_for_start")
        elif t == "object_elem":
            self.object_elem(node, ctx)
        elif t == "block":
            self.block(node, ctx, top=False)
        elif t == "attribute":
            self.attribute(node, ctx)
        else:
            self.push_children(node.children, ctx)

    def reference(self, node: Any, ctx: _Ctx) -> None:
        ident = node.child(0)
        if ident is None or ident.is_missing or ident.start_byte == ident.end_byte:
            return
        root = self.name(ident)
        if root in ctx.bound:
            return
        steps: list[Step] = []
        sibling = node.next_sibling
        while sibling is not None:
            t = sibling.type
            if t == "get_attr":
                name = sibling.child(sibling.child_count - 1)
                if name is None or name.type != "identifier" or name.is_missing or name.start_byte == name.end_byte:
                    break
                steps.append(Step(self.name(name), *self.span(name)))
            elif t == "index":
                key = _string_index(sibling)
                value = _plain_string(key, self.data) if key is not None else None
                if value is None:
                    break
                steps.append(Step(value, *self.span(key), True))
            else:
                break
            sibling = sibling.next_sibling
        self.references.append(Reference(root, *self.span(ident), tuple(steps), ctx.flags))

    def call(self, node: Any, ctx: _Ctx) -> None:
        children = node.children
        ident = children[0] if children else None
        arguments = None
        for c in children:
            if c.type == "function_arguments":
                arguments = c
        if ident is not None and ident.type == "identifier" and not ident.is_missing and ident.start_byte < ident.end_byte:
            args, expands = 0, False
            if arguments is not None:
                for c in arguments.children:
                    t = c.type
                    if t == "expression":
                        args += 1
                    elif t == "ellipsis":
                        expands = True
            self.references.append(Call(self.name(ident), *self.span(ident), args, expands))
        if arguments is not None:
            self.push_children(arguments.children, ctx)

    def scope(self, node: Any, ctx: _Ctx, intro_type: str) -> None:
        """A `for` expression or `%{ for }` directive: its collection (in `intro_type`, the part
        before the body) is read in `ctx`, the rest with the names it binds bound."""
        children = node.children
        names: set[str] = set()
        collection: list = []
        for c in children:
            if c.type == intro_type:
                for part in c.children:
                    if part.type == "identifier":
                        if not part.is_missing:
                            names.add(self.name(part))
                    elif part.child_count or part.type == "variable_expr":
                        collection.append(part)
        inner = _Ctx(ctx.flags, ctx.bound | names, ctx.block, ctx.parent, ctx.top) if names else ctx
        stack = self.stack
        for c in reversed(children):
            if c.type == intro_type:
                for part in reversed(collection):
                    stack.append((part, ctx))
            elif c.child_count or c.type == "variable_expr":
                stack.append((c, inner))

    def object_elem(self, node: Any, ctx: _Ctx) -> None:
        children = node.children
        if children and node.field_name_for_child(0) == "key" and _bare_identifier(children[0]):
            children = children[1:]  # `{ name = ... }`: a literal key
        self.push_children(children, ctx)

    # -- blocks --------------------------------------------------------------------------------

    def block(self, node: Any, ctx: _Ctx, top: bool) -> None:
        children = node.children
        if not children or children[0].type != "identifier":
            self.push_children(children, ctx)
            return
        type_name = self.name(children[0])
        labels: list = []
        body = None
        for c in children[1:]:
            t = c.type
            if t in ("string_lit", "identifier"):
                if body is None:
                    labels.append(c)
            elif t == "body":
                body = c
        attributes = _attributes(body, self) if body is not None else {}
        if top:
            self.declare(type_name, labels, attributes, body)
            if type_name in _SKIPPED_BLOCKS:
                return
        flags = ctx.flags
        multi = top or (type_name == "data" and ctx.block == "check")
        if multi:
            if "count" in attributes and type_name in _COUNT_BLOCKS:
                flags |= IN_COUNT
            if "for_each" in attributes and type_name in _FOR_EACH_BLOCKS:
                flags |= IN_FOR_EACH
        if type_name in _SELF_BLOCKS and not top:
            flags |= IN_SELF
        inner = _Ctx(flags, ctx.bound, type_name, ctx.block, multi)
        if type_name == "dynamic" and not top:
            iterator = None
            it = attributes.get("iterator")
            if it is not None:
                expr = _expression_of(it)
                if expr is not None and _bare_identifier(expr):
                    iterator = self.name(expr.child(0).child(0))
            if iterator is None and labels:
                iterator = _plain_string(labels[0], self.data) if labels[0].type == "string_lit" else self.name(labels[0])
            if iterator:
                scoped = _Ctx(flags, ctx.bound | {iterator}, type_name, ctx.block, False)
                outer = inner
                stack = self.stack
                for c in reversed(body.children if body is not None else ()):
                    if c.type == "attribute" and _attribute_name(c, self) in ("for_each", "iterator"):
                        stack.append((c, outer))
                    elif c.child_count:
                        stack.append((c, scoped))
                return
        if body is not None:
            self.push_children(body.children, inner)

    def attribute(self, node: Any, ctx: _Ctx) -> None:
        name = _attribute_name(node, self)
        expr = _expression_of(node)
        if name is None or expr is None:
            self.push_children(node.children, ctx)
            return
        block = ctx.block
        mode = _argument_mode(block, ctx.parent, ctx.top, name) if block is not None else None
        if mode is _SKIP:
            return
        flags = ctx.flags
        if mode is _STATIC:
            flags |= STATIC
        elif mode is _PROVIDER or mode is _PROVIDER_VALUES:
            flags |= PROVIDER
        if ctx.top and name in ("count", "for_each"):
            flags &= ~(IN_COUNT | IN_FOR_EACH)  # the block's instances are not known there yet
        inner = ctx if flags == ctx.flags else _Ctx(flags, ctx.bound, block, ctx.parent, ctx.top)
        if mode is _PROVIDER_VALUES:
            elements = _object_elements(expr)
            if elements is not None:  # `{ aws = aws.west }`: the keys name the child's providers
                for elem in reversed(elements):
                    value = elem.child_by_field_name("val")
                    if value is not None:
                        self.stack.append((value, inner))
                return
        self.stack.append((expr, inner))

    def declare(self, type_name: str, labels: list, attributes: dict, body: Any) -> None:
        add = self.declarations.append
        if type_name == "locals":
            for c in body.children if body is not None else ():
                if c.type == "attribute" and _attribute_name(c, self) is not None:
                    ident = c.child(0)
                    add(Declaration(("local", self.name(ident)), *self.span(ident)))
            return
        if type_name == "terraform":
            required = attributes.get("required_version")
            lit = _literal_string(_expression_of(required)) if required is not None else None
            value = _plain_string(lit, self.data) if lit is not None else None
            if value is not None:  # a version constraint of the module, as in JSON files
                add(Declaration((CONSTRAINT_KIND, self.constraint_engine, value), *self.span(lit)))
            if body is not None:
                self.configuration_aliases(body)
                self.state_storage(body)
            return
        if type_name in _DECLARING:
            if len(labels) != len(catalogue.BLOCKS[type_name].labels):
                return
            found = [self.label(lab) for lab in labels]
            values = [v for v in found if v is not None]
            if len(values) != len(found):
                return
            add(Declaration((type_name, *values), *self.span(labels[-1])))
            if type_name == "variable":
                type_expr = _expression_of(attributes["type"]) if "type" in attributes else None
                type_text = " ".join(self.name(type_expr).split()) if type_expr is not None else ""
                add(Declaration(input_fact(values[0], type_text, "default" not in attributes), *self.span(labels[-1])))
                const_expr = _expression_of(attributes["const"]) if "const" in attributes else None
                if const_expr is not None:
                    const = self.name(const_expr).strip() != "false"
                    add(Declaration((VARIABLE_CONST, values[0], const), *self.span(labels[-1])))
            if type_name in INSTANCED:
                for mode in REPETITION:
                    if mode in attributes:
                        add(Declaration(repetition_key((type_name, *values), mode), *self.span(labels[-1])))
            if type_name in _RESOURCE_MODES:  # the provider configuration it uses, as in JSON files
                meta = _expression_of(attributes["provider"]) if "provider" in attributes else None
                used = configuration_used(values[0], self.name(meta).strip() if meta is not None else None)
                if used is not None:
                    add(Declaration(used, *self.span(labels[-1])))
            source = attributes.get("source") if type_name == "module" else None
            lit = _literal_string(_expression_of(source)) if source is not None else None
            value = _plain_string(lit, self.data) if lit is not None else None
            if value is not None:
                add(Declaration(("module-source", values[0], value), *self.span(lit)))
            providers = _expression_of(attributes["providers"]) if type_name == "module" and "providers" in attributes else None
            for elem in (_object_elements(providers) or ()) if providers is not None else ():
                key, value = elem.child_by_field_name("key"), elem.child_by_field_name("val")
                if key is not None and value is not None:  # each entry, as in JSON files
                    passed = configuration_passed(values[0], self.object_key(key) or self.name(key).strip(), self.name(value).strip())
                    if passed is not None:
                        add(Declaration(passed, *self.span(key)))
        elif type_name == "import" and "to" in attributes:  # the instance it imports into (`validate.IMPORT_TARGET`)
            to = _expression_of(attributes["to"])
            target = static_instance(self.name(to)) if to is not None else None
            if target is not None:
                add(Declaration((IMPORT_TARGET, *target), *self.span(to)))
        elif type_name == "provider" and len(labels) == 1:
            name = self.label(labels[0])
            if name is None:
                return
            alias = None
            attr = attributes.get("alias")
            if attr is not None:
                lit = _literal_string(_expression_of(attr))
                alias = _plain_string(lit, self.data) if lit is not None else None
                if alias is None:
                    return
            # With `for_each` (OpenTofu), instances of one configuration: it declares its alias.
            kind = "provider-alias" if "for_each" in attributes else "provider"
            add(Declaration((kind, name, alias), *self.span(labels[0])))
            version = _expression_of(attributes["version"]) if "version" in attributes else None
            nested = any(c.type == "block" for c in (body.children if body is not None else ()))
            if (kind == "provider-alias" or nested or any(n not in PROVIDER_META for n in attributes)
                    or (version is not None and self.name(version).strip() != "null")):
                add(Declaration((CONFIGURED, name, alias), *self.span(labels[0])))  # as in JSON files

    def state_storage(self, body: Any) -> None:
        """`validate.STATE_STORAGE` for each `backend` / `cloud` block of a `terraform` block, at
        its last label (a backend's type) or its type name (cloud)."""
        for block in body.children:
            if block.type != "block" or block.child_count == 0:
                continue
            if self.name(block.child(0)) not in ("backend", "cloud"):
                continue
            labels = [c for c in block.children[1:] if c.type in ("string_lit", "identifier")]
            self.declarations.append(Declaration(STATE_STORAGE, *self.span(labels[-1] if labels else block.child(0))))

    def configuration_aliases(self, body: Any) -> None:
        """What a `required_providers` block (`body`: a `terraform` block's) declares, like the JSON
        files (`validate.definitions`): `("provider-requirement", name, source or None)` for each
        entry, at its name, and `("provider-alias", name, alias)` for each `name.alias` in its
        `configuration_aliases`, at the traversal's range; and `validate.REQUIRED_PROVIDERS` for the
        block itself, at its type name (a module has one)."""
        for block in body.children:
            if block.type != "block" or block.child_count == 0 or self.name(block.child(0)) != "required_providers":
                continue
            self.declarations.append(Declaration(REQUIRED_PROVIDERS, *self.span(block.child(0))))
            inner = next((c for c in block.children if c.type == "body"), None)
            for attr in inner.children if inner is not None else ():
                expr = _expression_of(attr) if attr.type == "attribute" else None
                if attr.type == "attribute" and attr.child_count and attr.child(0).type == "identifier":
                    source = None
                    for elem in (_object_elements(expr) or ()) if expr is not None else ():
                        key, value = elem.child_by_field_name("key"), elem.child_by_field_name("val")
                        if key is not None and value is not None and self.object_key(key) == "source":
                            lit = _literal_string(value)
                            source = _plain_string(lit, self.data) if lit is not None else None
                    self.declarations.append(
                        Declaration(("provider-requirement", self.name(attr.child(0)), source), *self.span(attr.child(0)))
                    )
                for elem in (_object_elements(expr) or ()) if expr is not None else ():
                    key, value = elem.child_by_field_name("key"), elem.child_by_field_name("val")
                    if key is None or value is None or self.object_key(key) != "configuration_aliases":
                        continue
                    items = value.child(0) if value.child_count == 1 else None
                    items = items.child(0) if items is not None and items.type == "collection_value" else None
                    for item in items.children if items is not None and items.type == "tuple" else ():
                        parts: list = item.children if item.type == "expression" else []
                        if len(parts) == 2 and parts[0].type == "variable_expr" and parts[1].type == "get_attr":
                            name, alias = parts[0].child(0), parts[1].child(parts[1].child_count - 1)
                            if alias is not None and alias.type == "identifier" and alias.start_byte < alias.end_byte:
                                start, end = self.span(item)
                                self.declarations.append(
                                    Declaration(("provider-alias", self.name(name), self.name(alias)), start, end)
                                )

    def object_key(self, key: Any) -> str | None:
        """The name an object key spells: a bare identifier or a literal string."""
        if _bare_identifier(key):
            return self.name(key.child(0).child(0))
        lit = _literal_string(key)
        return _plain_string(lit, self.data) if lit is not None else None

    def label(self, node: Any) -> str | None:
        if node.type == "identifier":
            return self.name(node) if not node.is_missing and node.start_byte < node.end_byte else None
        return _plain_string(node, self.data)


def _shallow(node: Any) -> bool:
    """A node wrapping top-level blocks (an error node holding some), not an expression."""
    return node.type != "ERROR" or any(c.type in ("block", "attribute", "body") for c in node.children)


def _attribute_name(node: Any, walk: _Walk) -> str | None:
    ident = node.child(0)
    if ident is None or ident.type != "identifier" or ident.is_missing or ident.start_byte == ident.end_byte:
        return None
    return walk.name(ident)


def _attributes(body: Any, walk: _Walk) -> dict[str, Any]:
    """A body's attributes by name (the first of each name), in source order."""
    out: dict[str, Any] = {}
    for c in body.children:
        if c.type == "attribute":
            name = _attribute_name(c, walk)
            if name is not None and name not in out:
                out[name] = c
    return out


def _expression_of(attribute: Any) -> Any:
    for c in attribute.children:
        if c.type == "expression":
            return c
    return None


def _bare_identifier(expr: Any) -> bool:
    """`expr` is an `expression` that is a lone identifier (`name`, no steps, no parentheses)."""
    return expr.type == "expression" and expr.child_count == 1 and expr.child(0).type == "variable_expr"


def _literal_string(expr: Any) -> Any:
    """The `string_lit` that `expr`, an `expression`, is made of (`"x"`), else None."""
    if expr is None or expr.child_count != 1:
        return None
    lit = expr.child(0)
    if lit.type != "literal_value" or lit.child_count != 1:
        return None
    s = lit.child(0)
    return s if s.type == "string_lit" else None


def _string_index(index: Any) -> Any:
    """The `string_lit` of an `index` node `["key"]`, else None."""
    new = index.child(0)
    if new is None or new.type != "new_index":
        return None
    for c in new.children:
        if c.type == "expression":
            return _literal_string(c)
    return None


_SKIP, _STATIC, _PROVIDER, _PROVIDER_VALUES = "skip", "static", "provider", "provider values"
#: The catalogue's reference roles (`catalogue.ARGUMENT_REFERENCES`) as native syntax reads them: an
#: address of a top-level block (`moved.to`, `import.to`) is a static traversal; any other address
#: (`replace_triggered_by`) and a message template are plain expressions.
_ROLE_MODES = {"skip": _SKIP, "provider": _PROVIDER, "provider-values": _PROVIDER_VALUES, "may-be-undeclared": _STATIC}
#: (block type, argument) -> how the argument refers, at any depth.
_ARGUMENTS = {
    key: _STATIC if role == "address" else _ROLE_MODES[role]
    for key, role in catalogue.ARGUMENT_REFERENCES.items()
    if role in _ROLE_MODES or (role == "address" and key[0] in catalogue.BLOCKS)
}
#: (block type, argument) -> how a top-level block's argument refers besides: the `provider` meta-argument.
_TOP_ARGUMENTS = {(t, "provider"): _PROVIDER for t, b in catalogue.BLOCKS.items() if "provider" in b.meta_arguments}


def _argument_mode(block: str, parent: str | None, top: bool, name: str) -> str | None:
    """How the value of argument `name` of a `block` refers (see the module doc); None: plainly."""
    mode = _ARGUMENTS.get((block, name))
    if mode is None and top:
        if parent is None:
            mode = _TOP_ARGUMENTS.get((block, name))
        elif name == "provider" and name in catalogue.meta_arguments(block, parent):
            mode = _PROVIDER  # a check's data source
    return mode


def _object_elements(expr: Any) -> list | None:
    """The `object_elem` nodes of `expr` when it is an object constructor, else None."""
    if expr.child_count != 1 or expr.child(0).type != "collection_value":
        return None
    obj = expr.child(0).child(0)
    if obj is None or obj.type != "object":
        return None
    return [c for c in obj.children if c.type == "object_elem"]


# ---- what a declaration says (for hover) ----------------------------------------------------------


def declaration_details(text: str, start: int) -> dict[str, str]:
    """The arguments of the block declared at character offset `start` (its last label), as
    `name -> expression source`, a string literal's value unquoted; for a local value declared at
    `start` (its name), `{"value": expression source}`. Empty when nothing is declared there."""
    return declarations_details(text, (start,)).get(start, {})


def declarations_details(text: str, starts: tuple[int, ...]) -> dict[int, dict[str, str]]:
    """`declaration_details` for each of `starts`, from one parse of `text` (empty when it fails)."""
    try:
        data = text.encode("utf-8", "surrogatepass")
        root = _parser().parse(data).root_node
        ascii_only = text.isascii()  # then byte and character offsets agree
        out = {}
        for start in starts:
            at = start if ascii_only else len(text[:start].encode("utf-8", "surrogatepass"))
            out[start] = _details(data, root.descendant_for_byte_range(at, at + 1))
        return out
    except Exception:  # never raise for a hover
        log.exception("reading a native declaration failed")
        return {}


def _details(data: bytes, node: Any) -> dict[str, str]:
    """The arguments of the block around `node`, or the value of the attribute around it."""

    def source(n: Any) -> str:
        lit = _literal_string(n)
        raw = data[n.start_byte : n.end_byte].decode("utf-8", "surrogatepass")
        if lit is not None and len(raw) >= 2:
            return raw[1:-1]
        return raw

    while node is not None and node.type not in ("block", "attribute"):
        node = node.parent
    if node is None:
        return {}
    if node.type == "attribute":
        expr = _expression_of(node)
        return {"value": source(expr)} if expr is not None else {}
    out: dict[str, str] = {}
    for c in node.children:
        if c.type != "body":
            continue
        for a in c.children:
            if a.type != "attribute" or a.child(0) is None:
                continue
            name = data[a.child(0).start_byte : a.child(0).end_byte].decode("utf-8", "surrogatepass")
            expr = _expression_of(a)
            if expr is not None and name not in out:
                out[name] = source(expr)
    return out
