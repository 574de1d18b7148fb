"""Every reference and function call inside the strings of a top-level block of a JSON file.

    block_references(text, block) -> list[Reference | Call]      absolute positions, source order
    references_and_sites(text, block) -> list[Reference | Call | TypedSite]   the same, and the sites
    expression_references(text, expr) -> list[Reference | Call]  those of one argument's value

Contract
--------
* Strings are read by the mode the schema gives them (`templates.expression_strings`): templates
  and native expressions are parsed (cached by content, mapped through JSON escapes, so every range
  is an exact document range); static-traversal strings (`depends_on`, `replace_triggered_by`,
  `moved.to`, `import.to`, ...) give one `STATIC` reference each. Literal, keyword and type strings
  hold no references.
* Provider references (a resource's `provider`, `import.provider`, the values of a module's
  `providers` map) have the `PROVIDER` flag: root = the provider's local name, one step = its alias.
  The keys of a module's `providers` map name the child's providers and `ignore_changes` elements
  name arguments: neither is a reference, nor are the keywords of a provisioner's `when` and
  `on_failure` and of an `action_trigger`'s `events`. `moved.from` and `removed.from` name addresses that no
  longer exist on purpose: not references either.
* `ADDRESS` marks the traversal of a static-traversal string (`depends_on`, `moved.to`, ...) and
  every reference of `replace_triggered_by` and `import.to` (addresses written as expressions,
  with rules of their own); `DEPENDS_ON` the references of `depends_on`; `MAY_BE_UNDECLARED` the
  reference of `moved.to` (an address no block need declare).
* Context (`references.IN_*`): `IN_COUNT` / `IN_FOR_EACH` when the top-level block sets `count` /
  `for_each` (and inside a `dynamic` block's content, `IN_FOR_EACH` for its own iterator is not
  needed: its iterator name is bound, see below); `IN_SELF` inside `provisioner`, `connection` and
  `postcondition` blocks; `DEPENDS_ON` for the elements of `depends_on`.
* Names bound inside the string (`for` expression and `%{ for }` variables) and the iterators of
  enclosing `dynamic` blocks are not references. Reading never raises: a string that does not
  parse gives what parsed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...diagnostic import ERROR
from ...hcljson.model import Block, Body
from ...hcljson.schema import EXPRESSION, STRING_NATIVE, STRING_TEMPLATE, STRING_TRAVERSAL
from ...jsonsyntax import strings
from ...jsonsyntax.tree import STRING, Array, FlaggedString, Object, String
from ...template.nodes import (
    Attr,
    Bool,
    Conditional,
    ForDirective,
    ForExpr,
    FunctionCall,
    IfDirective,
    Index,
    IndexStep,
    Null,
    ObjectItem,
    RelativeTraversal,
    Splat,
    Traversal,
    children,
    start_range,
)
from ...template.nodes import String as StringLiteral
from ..definition import catalogue
from ..definition.catalogue import literal_settings_block
from ..expressions.evaluate import text_interpolations
from ..expressions.templates import UNEVALUATED_BLOCKS, expression_strings, string_tree, template_raw, unevaluated_nested
from .local_cycles import CycleSite, cycle_site, may_name_locals
from .references import (
    ADDRESS,
    BLOCK_ADDRESS,
    DEPENDS_ON,
    GUARDED,
    IN_COUNT,
    IN_FOR_EACH,
    IN_SELF,
    IN_TEXT,
    MAY_BE_UNDECLARED,
    PROVIDER,
    STATIC,
    UNEVALUATED,
    Call,
    Reference,
    Step,
)
from .typed_sites import TypedSite, typed_site

#: Nested blocks inside which `self` is the enclosing resource.
_SELF_BLOCKS = catalogue.NAMESPACES["self"].valid_in
#: (block type, argument) -> how its strings refer (the catalogue's table: roles there).
_SPECIAL = catalogue.ARGUMENT_REFERENCES
_PROVIDER_ARGUMENT = "provider"  # in resource-like blocks


def block_references(text: str, block: Block) -> list[Reference | Call]:
    """The references and calls of top-level `block` (see the module doc)."""
    return _block_references(text, block, False)


def references_and_sites(text: str, block: Block) -> list[Reference | Call | TypedSite | CycleSite]:
    """`block_references`, and the `typed_sites.TypedSite` of each template string that needs one
    and the `local_cycles.CycleSite` of each local naming others (what the analysis resolves), in
    source order among them."""
    return _block_references(text, block, True)


def _block_references(text: str, block: Block, sites: bool) -> list[Any]:
    out: list[Any] = []
    body = block.body
    top_type = block.type_name
    context = 0
    if body.attribute("count") is not None:
        context |= IN_COUNT
    if body.attribute("for_each") is not None:
        context |= IN_FOR_EACH
    if top_type in UNEVALUATED_BLOCKS:
        context |= UNEVALUATED
    # (body, its type, context flags, bound names, read literally, whether `terraform validate`
    # evaluates its template strings with the variables' types: `typed_sites`)
    stack: list[tuple[Body, str, int, frozenset[str], bool, bool]] = [
        (body, top_type, context, frozenset(), False, sites and top_type not in UNEVALUATED_BLOCKS)]
    while stack:
        b, owner, ctx, bound, literal, typed = stack.pop()
        for a in b.attributes:
            if a.expr is None or (literal and a.schema is None):
                continue
            special = _SPECIAL.get((owner, a.name))
            if special == "skip":
                continue
            own_flags = 0
            if special == "may-be-undeclared":
                special, own_flags = None, MAY_BE_UNDECLARED
            if special is None and a.name == _PROVIDER_ARGUMENT and owner == top_type and top_type in _PROVIDER_OWNERS:
                special = "provider"
            own = ctx | own_flags
            if a.name == "depends_on":
                own |= DEPENDS_ON
            elif special == "address":
                special, own = None, own | (ADDRESS | BLOCK_ADDRESS if b is body and top_type in catalogue.BLOCKS else ADDRESS)
            if b is body:  # `count` cannot use count.index, nor `for_each` each.*: they define them
                if a.name == "count":
                    own &= ~IN_COUNT
                elif a.name == "for_each":
                    own &= ~IN_FOR_EACH
            # (A variable's validation: its `condition` is evaluated with the variable's type.)
            before = len(out)
            _expression(text, a.expr, special, own, bound, out, typed and (owner != "validation" or a.name == "condition"))
            # A local naming others: is it on a cycle (`local_cycles`)?
            if sites and top_type == "locals" and may_name_locals(text, a.expr):
                site = cycle_site(a.name, a.name_start, a.name_end, out[before:])
                if site is not None:
                    out.append(site)
        for nested in b.blocks:
            t = nested.type_name
            if t == "encryption" and owner == "terraform":
                out.extend(r for r in block_references_in(text, nested) if not (type(r) is Reference and r.root in _ENCRYPTION_ROOTS))
                continue
            inner_bound = bound
            if t == "dynamic":
                inner_bound = bound | {iterator_name(text, nested)}
            inner_ctx = ctx | IN_SELF if t in _SELF_BLOCKS else ctx
            inner_typed = typed
            if unevaluated_nested(b, nested):
                inner_ctx |= UNEVALUATED
                inner_typed = False
            elif t == "validation" and owner == "variable":
                inner_ctx |= UNEVALUATED
            stack.append((nested.body, t, inner_ctx, inner_bound, literal or literal_settings_block(t, owner), inner_typed))
    out.sort(key=lambda r: r.start)
    return out


_PROVIDER_OWNERS = frozenset({*catalogue.TYPED_BLOCKS, "list"})  # `list`: a query file's list blocks
#: The names OpenTofu's `terraform.encryption` block defines for its own expressions
#: (`key_provider.pbkdf2.k`, `method.aes_gcm.m`): not objects of the module.
_ENCRYPTION_ROOTS = frozenset({"key_provider", "method"})


def block_references_in(text: str, block: Block) -> list[Reference | Call]:
    """The references and calls of a nested `block` read as if it were top-level."""
    return block_references(text, block)


def expression_references(text: str, expr) -> list[Reference | Call]:
    """The references and calls of one argument's value `expr` (an expression-mode value; no
    context flags), in no particular order: what a rule about one argument reads."""
    out: list[Reference | Call] = []
    _expression(text, expr, None, 0, frozenset(), out)
    return out


def _expression(text: str, expr, special: str | None, ctx: int, bound: frozenset[str], out: list,
                sites: bool = False) -> None:
    if expr.mode == EXPRESSION and special is None:
        # The bulk of a document: a number, a literal, or a string without `{` holds no reference;
        # skipping it here, before the generic walk, saves ~40% of this module's time on open.
        node = expr.node
        t = type(node)
        if t is String:
            if text.find("{", expr.start + 1, expr.end - 1) < 0 and text.find("\\u", expr.start + 1, expr.end - 1) < 0:
                return
        elif t is Object or t is Array:
            # A container none of whose strings holds `${`, `%{` or an escape: nothing to read.
            s, e = expr.start, expr.end
            if text.find("${", s, e) < 0 and text.find("%{", s, e) < 0 and text.find("\\", s, e) < 0:
                return
        elif t is not FlaggedString:
            return
    for node, start, smode, is_key in expression_strings(expr):
        if smode is None or smode not in _PARSED:
            continue
        if type(node) is not String and (node.quote != '"' or not node.terminated):
            continue
        if special == "provider-values" and is_key:
            continue
        cs = start + 1
        raw = text[cs : start + node.end - node.start - 1]
        if smode == STRING_TEMPLATE and "{" not in raw and "\\u" not in raw:
            continue  # no interpolation: plain text
        if special == "literal-if-broken" and any(d.severity == ERROR for d in template_raw(raw)[1]):
            continue
        if sites and smode == STRING_TEMPLATE and special is None and not is_key and "var" not in bound:
            site = typed_site(cs, raw, raw if "\\" not in raw else strings.decode_raw(raw, 0).value)
            if site is not None:
                out.append(site)
        provider = special in ("provider", "provider-values")
        for item in _string_refs(raw, smode, provider):
            if isinstance(item, Reference):
                if item.root in bound and not (item.context & (STATIC | PROVIDER)):
                    continue
                out.append(Reference(item.root, item.start + cs, item.end + cs,
                                     tuple(s.shifted(cs) for s in item.steps), item.context | ctx,
                                     tuple(s.shifted(cs) for s in item.rest)))
            else:
                out.append(item.shifted(cs))


_PARSED = frozenset({STRING_TEMPLATE, STRING_NATIVE, STRING_TRAVERSAL})
#: Built-in functions whose second argument is a type (Terraform 1.15 `convert(value, type)`).
_TYPE_SECOND_ARGUMENT = frozenset({"convert", "core::convert"})


@lru_cache(maxsize=65536)
def _string_refs(raw: str, smode: str, provider: bool) -> tuple[Reference | Call, ...]:
    """The references of one string's content as written (`raw`), relative to its start."""
    tree = string_tree(raw, smode)
    if tree is None:
        return ()
    flags = STATIC if smode == STRING_TRAVERSAL else 0
    if provider:
        flags |= PROVIDER | STATIC
    return tuple(_tree_refs(tree, flags))


#: `_string_refs` for readers of values rather than trees (`terraform.quick`).
string_refs = _string_refs


def _tree_refs(tree, flags: int) -> list[Reference | Call]:
    out: list[Reference | Call] = []
    # (node, names bound there, `GUARDED` or 0: whether Terraform's evaluation may skip it). Nodes of
    # any kind, dispatched on their exact type (`type(node) is ...`: cheaper than isinstance over the
    # 20 node classes, and not a narrowing the checker follows): typed Any.
    stack: list[tuple[Any, frozenset[str], int]] = [(tree, frozenset(), 0)]
    # Only the address itself names a provider, or is the address a static string names.
    outer: Any = tree if flags & (PROVIDER | STATIC) else None
    in_text = {id(e) for e in text_interpolations(tree)}
    while stack:
        node, scope, guard = stack.pop()
        t = type(node)
        if node is outer and flags & PROVIDER:
            keyword = _keyword_address(node)
            if keyword is not None:  # `null.west`: Terraform reads an address, where `null` is a name
                out.append(keyword)
                continue
        if t is Traversal:
            if node.root not in scope:
                if node is not outer:
                    f = flags & ~(PROVIDER | STATIC)
                elif flags & PROVIDER:
                    f = flags
                else:  # `STATIC` stays with provider addresses (as before), `ADDRESS` says what it is
                    f = (flags & ~STATIC) | ADDRESS
                if in_text and id(node) in in_text:  # (the tree is alive: its ids are its nodes')
                    f |= IN_TEXT
                static = _static_steps(node.steps)
                out.append(Reference(node.root, node.start, node.root_end, static, f | guard,
                                     _literal_steps(node.steps[len(static):])))
            continue  # steps hold no references: index keys of a static traversal are literals
        if t is ObjectItem and type(node.key) is Traversal and not node.key.steps:
            stack.append((node.value, scope, guard))  # `{name = ...}`: HCL reads a bare name key as a string
            continue
        if node is outer and t is Index:
            outer = node.collection  # `aws.by_region[each.key]` (OpenTofu): the collection is the address
        if t is FunctionCall:
            name_start, name_end = node.name_span
            out.append(Call(node.name, name_start, name_end, len(node.args), node.expand_final, node.open_span[1],
                            node.close_span, tuple([start_range(arg) for arg in node.args])))
            if node.name in _TYPE_SECOND_ARGUMENT and len(node.args) >= 2:
                # `convert(value, object({a = string}))`: the second argument is a type constraint,
                # whose `object(...)` and `string` are neither calls nor references.
                stack.extend((arg, scope, guard) for i, arg in enumerate(node.args) if i != 1)
                continue
            if node.name in _SUPPRESSING:  # `try`, `can`: their arguments' errors are not Terraform's errors
                stack.extend((arg, scope, GUARDED) for arg in node.args)
                continue
        if t is ForExpr or t is ForDirective:
            names = {node.value_var.name} | ({node.key_var.name} if node.key_var is not None else set())
            inner = scope | names
            stack.append((node.collection, scope, guard))
            for child in children(node):
                if child is not node.collection and child is not node.key_var and child is not node.value_var:
                    stack.append((child, inner, GUARDED))  # evaluated per element, if any
            continue
        # Evaluated only on a condition, or per element: a conditional's branches, an `%{ if }`'s
        # parts, a splat's per-element part.
        evaluated = node.condition if t is Conditional or t is IfDirective else node.source if t is Splat else None
        if evaluated is not None:
            for child in children(node):
                stack.append((child, scope, guard if child is evaluated else GUARDED))
            continue
        for child in children(node):
            stack.append((child, scope, guard))
    return out


_SUPPRESSING = frozenset({"try", "can", "core::try", "core::can"})


def _keyword_address(tree) -> Reference | None:
    """A provider address whose first name is a keyword of expressions (`null`, `true`, `false`):
    the local name of a provider (`hashicorp/null`), which an expression parse takes for a literal."""
    source, steps = (tree.source, tree.steps) if type(tree) is RelativeTraversal else (tree, ())
    if isinstance(source, Null):
        name = "null"
    elif isinstance(source, Bool):
        name = "true" if source.value else "false"
    else:
        return None
    return Reference(name, source.start, source.end, _static_steps(steps), PROVIDER | STATIC)


def _static_steps(steps) -> tuple[Step, ...]:
    out: list[Step] = []
    for step in steps:
        if type(step) is Attr:
            out.append(Step(step.name, step.name_start, step.end))
        elif type(step) is IndexStep and not step.legacy and type(step.key) is StringLiteral:
            out.append(Step(step.key.value, step.key.start, step.key.end, True, step.end))
        else:
            break
    return tuple(out)


def _literal_steps(steps) -> tuple[Step, ...]:
    """`Reference.rest`: the literal steps after the static ones (a numeric index first)."""
    out: list[Step] = []
    for step in steps:
        if type(step) is Attr:
            out.append(Step(step.name, step.name_start, step.end))
        else:
            key = step.key
            name = key.value if type(key) is StringLiteral else getattr(key, "text", "")
            out.append(Step(str(name), key.start, key.end, True, step.end))
    return tuple(out)


def iterator_name(text: str, block: Block) -> str:
    """The name a `dynamic` block's content refers to its element by: `iterator` (its string
    value), else the block's label ("" without one)."""
    it = block.body.attribute("iterator")
    if it is not None and it.expr is not None and it.expr.kind == STRING:
        value = strings.decode_raw(text[it.expr.start + 1 : it.expr.end - 1], 0).value.strip()
        if value:
            return value
    return block.labels[0].value if block.labels else ""
