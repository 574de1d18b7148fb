"""Templates, references and type constraints inside the JSON strings of a Terraform file, read
by the mode the schema gives each string ("modes from the schema", issue 4).

    check_strings(text, body, counts=None) -> list[Diagnostic]   every string of a decoded body
    expression_strings(expr) -> Iterator[(node, abs_start, string_mode, is_key)]
    string_content(text, node, abs_start) -> strings.Decoded | None
    check_block(text, block, counts=None) -> list[Diagnostic]     one top-level block (unsorted)
    check_root(text, attributes, counts=None) -> list[Diagnostic] the root body's attributes

What is parsed, per string mode (`hcljson.schema.STRING_*`, from the attribute's mode and the
string's place in the value; object keys included):

* template (full expressions; strings nested in objects and arrays and expression object keys
  too): `template.template_diagnostics`. A string without `${` / `%{` (after JSON unescaping) is
  plain text and is not handed to the parser.
* traversal (`depends_on` entries, `moved`/`removed` addresses, `import.provider`, module
  `providers` keys and values, `ignore_changes` elements, ...): `template.parse_expression`, and
  the result must be a static reference as HCL's `ParseTraversalAbs` accepts it: a name, then
  `.attr` and `[literal number or string]` steps (no legacy `.0`, no splat, no call, no operator,
  no `${}`).
* native (resource `provider`, `import.to`, `replace_triggered_by` elements): a native-syntax
  expression, `template.parse_expression`; only syntax errors are reported.
* type (`variable.type`): `template.parse_type`.
* literal and keyword strings are not parsed (the structure layer warns about `${` in literal
  strings and checks keywords). Settings of `terraform.backend` / `terraform.cloud` are read
  literally by Terraform, so their provider-defined arguments are not parsed either.

Codes of this module (besides the template layer's `template/...` and `type/...`):

* `reference/interpolation` -- a reference written as `"${aws_instance.a}"` where Terraform
  reads the string itself as a reference (Terraform rejects it); suggests the bare reference.
* `reference/not-static` -- a string that parses as an expression but is not a static reference
  (a call, an operator, a splat, an index that is not a literal, a legacy `.0` index).
* `reference/ignore-changes-wildcard` -- `"ignore_changes": ["*"]`, the pre-0.12 wildcard that
  Terraform now rejects; suggests `"all"`.

* `template/invalid-error-message` (warning) -- a variable validation's `error_message` whose
  template does not parse: Terraform takes it literally and warns (both engines); it replaces the
  template's errors there.

Ranges are exact document ranges (through JSON escapes: strings are decoded with
`jsonsyntax.strings.decode`). Unterminated and single-quoted strings are left alone (the syntax
layer reported them).

Incremental use: `check_block` is the per top-level block unit of `terraform.analysis` (which keeps
its results per block across edits). Results are also cached by string content as written
(positions relative to the content's start), so a re-walked block costs little for strings seen
before; the commonest valid shapes (a template whose interpolations are all plain references, a
plain static reference) are recognised by a regular expression without building a tree. All walks
are iterative.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ...diagnostic import ERROR, WARNING, Diagnostic, Fix
from ...hcljson.model import Attribute, Block, Body, Expression
from ...hcljson.schema import (
    AT_DEEPER,
    AT_DEEPER_KEY,
    AT_ELEMENT,
    AT_KEY,
    AT_ROOT,
    AT_VALUE,
    EXPRESSION,
    STRING_MODES,
    STRING_NATIVE,
    STRING_TEMPLATE,
    STRING_TRAVERSAL,
    STRING_TYPE,
    BodySchema,
)
from ...hcljson.values import quoted
from ...jsonsyntax import strings
from ...jsonsyntax.tree import OBJECT, STRING, Array, Container, FlaggedString, Object, String
from ...template import parse_type, template_diagnostics
from ...template.lexer import IDENTIFIER_PATTERN
from ...template.nodes import (
    Bool,
    FunctionCall,
    Index,
    IndexStep,
    Null,
    Number,
    RelativeTraversal,
    Splat,
    Traversal,
    remap,
)
from ...template.nodes import String as StringLit
from ...template.parse import parse_expression_relative, parse_template_relative, remap_diagnostic
from ...template.types import INVALID_TYPE, parse_type_relative
from ...text.buffer import readable
from ..definition import catalogue
from ..definition.catalogue import literal_settings_block  # re-exported: which settings Terraform reads literally
from .evaluate import CODES as EVALUATION_CODES
from .evaluate import constant_problems

__all__ = [
    "check_strings", "check_block", "check_root", "expression_strings",
    "string_content", "literal_settings_block", "new_counts", "INTERPOLATION", "NOT_STATIC",
    "IGNORE_CHANGES_WILDCARD", "UNEVALUATED_BLOCKS", "unevaluated_nested",
]

INTERPOLATION = "reference/interpolation"
NOT_STATIC = "reference/not-static"
IGNORE_CHANGES_WILDCARD = "reference/ignore-changes-wildcard"
INVALID_ERROR_MESSAGE = "template/invalid-error-message"


_PLACES = (AT_ROOT, AT_ELEMENT, AT_KEY, AT_VALUE, AT_DEEPER_KEY, AT_DEEPER)
# attribute mode -> string mode per place, indexed like _PLACES.
_MODE_TABLE = {mode: tuple(table.get(p) for p in _PLACES) for mode, table in STRING_MODES.items()}
_NOTHING = (None,) * 6
# attribute mode -> string mode of a string that is the whole value.
_ROOT_MODE = {mode: table[0] for mode, table in _MODE_TABLE.items()}


# ---- strings of an expression -------------------------------------------------------------------


def expression_strings(expr: Expression) -> Iterator[tuple[String, int, str | None, bool]]:
    """`(node, absolute start, string mode, is_key)` for every JSON string inside `expr` (object
    keys too). The string mode is how the schema reads the string there (`schema.STRING_*`), None
    where the attribute's mode expects no string. Order: not specified (containers are visited
    from a stack)."""
    node = expr.node
    table = _MODE_TABLE.get(expr.mode, _NOTHING)
    kind = node.kind
    if kind == STRING:
        yield node, expr.start, table[0], False  # type: ignore[misc]
        return
    if not isinstance(node, Container):
        return
    stack: list[tuple[Container, int, bool]] = [(node, expr.start, True)]
    pop = stack.pop
    push = stack.append
    while stack:
        n, inner, top = pop()
        if top:
            kmode = table[2]
            vmode = table[3] if n.kind == OBJECT else table[1]
        else:
            kmode, vmode = table[4], table[5]
        for m in n.items:
            k = m.key
            if k is not None and k.kind == STRING:
                yield k, inner + k.start, kmode, True  # type: ignore[misc]
            v = m.value
            if v is None:
                continue
            if v.kind == STRING:
                yield v, inner + v.start, vmode, False  # type: ignore[misc]
            elif isinstance(v, Container):
                push((v, inner + v.start, False))


@lru_cache(maxsize=32768)
def string_tree(raw: str, smode: str):
    """The parse tree of one JSON string's content as written (`raw`) read in string mode `smode`
    (template, native or traversal expression, type), positions relative to the start of `raw`
    (through its escapes); None for a template without `${`/`%{` (plain text). Cached by content:
    the string checks' later readers (references, semantic tokens) share it."""
    offsets = None
    value = raw
    if "\\" in raw:
        decoded = strings.decode_raw(raw, 0)
        value, offsets = decoded.value, decoded.offsets
    tree: object
    if smode == STRING_TEMPLATE:
        if "${" not in value and "%{" not in value:
            return None
        tree = parse_template_relative(value)[0]
    elif smode == STRING_TYPE:
        tree = parse_type_relative(value)[0]
    else:
        tree = parse_expression_relative(value)[0]
    return remap(tree, offsets) if offsets is not None else tree


def string_content(text: str, node: String, abs_start: int) -> strings.Decoded | None:
    """The decoded content of string `node` with its offsets map, or None for a string the syntax
    layer reported as broken (unterminated or single-quoted)."""
    if node.quote != '"' or not node.terminated:
        return None
    return strings.decode(text, abs_start, node)


# ---- checks -----------------------------------------------------------------------------------------


def _remap(d: Diagnostic, offsets: Sequence[int]) -> Diagnostic:
    return replace(
        d, start=offsets[d.start], end=offsets[d.end],
        related=tuple(replace(r, start=offsets[r.start], end=offsets[r.end]) for r in d.related),
        fixes=tuple(replace(f, start=offsets[f.start], end=offsets[f.end]) for f in d.fixes),
    )


def _static_problem(tree) -> tuple[int, int, str] | None:
    """Where and why `tree` (an expression parsed from a traversal string) is not a static
    reference as `hclsyntax.ParseTraversalAbs` reads one; None when it is one."""
    t = type(tree)
    if t is Bool or t is Null:
        return None  # `true`, `null`: plain names to the traversal parser
    if t is Traversal or (t is RelativeTraversal and type(tree.source) in (Bool, Null)):
        for s in tree.steps:
            if type(s) is IndexStep:
                if s.legacy:
                    return s.start, s.end, "a legacy index (\".0\"); write it as \"[0]\""
                if type(s.key) not in (Number, StringLit):
                    return s.start, s.end, "an index that is not a literal number or string"
        return None
    if t is Index:
        inner = _static_problem(tree.collection)
        if inner is not None:
            return inner
        a, b = tree.bracket_span
        return a, b, "an index that is not a literal number or string"
    if t is Splat:
        inner = _static_problem(tree.source)
        if inner is not None:
            return inner
        a, b = tree.marker_span
        return a, b, "a splat expression"
    if t is RelativeTraversal:
        return _static_problem(tree.source)
    if t is FunctionCall:
        return tree.start, tree.end, "a function call"
    if t in (Number, StringLit):
        return tree.start, tree.end, "a literal value"
    return tree.start, tree.end, "an expression that is not a reference"


def _unwrapped(value: str) -> str | None:
    """`x` for a string that is exactly `${x}` (strip markers and spaces allowed), else None."""
    s = value.strip()
    if not (s.startswith("${") and s.endswith("}")) or s.count("${") != 1:
        return None
    inner = s[2:-1]
    if inner.startswith("~"):
        inner = inner[1:]
    if inner.endswith("~"):
        inner = inner[:-1]
    inner = inner.strip()
    return inner or None


@lru_cache(maxsize=8192)
def _reference_relative(value: str, smode: str, name: str) -> tuple[Diagnostic, ...]:
    """Diagnostics of a traversal/native string, with decoded-index positions (cached by content)."""
    tree, diags = parse_expression_relative(value)
    if diags:
        inner = _unwrapped(value)
        if inner is not None:
            itree, idiags = parse_expression_relative(inner)
            ok = not idiags and (smode == STRING_NATIVE or _static_problem(itree) is None)
            hint = f" Did you mean {quoted(inner)}?" if ok else ""
            # The fix rewrites the string's content (decoded positions, mapped like the diagnostic).
            fix = (Fix(0, len(value), json.dumps(inner, ensure_ascii=False)[1:-1], f"Change to {quoted(inner)}"),) if ok else ()
            return (
                Diagnostic(
                    0, len(value), ERROR, INTERPOLATION, "Reference written as a template",
                    f"The argument {quoted(name)} takes a reference written without \"${{ }}\": Terraform reads "
                    f"the string itself as a reference, not as a template.{hint}", (), fix,
                ),
            )
        return diags
    if smode == STRING_NATIVE:
        return ()
    if name == "providers" and type(tree) is Index and _static_problem(tree.collection) is None:
        return ()  # `aws.by_region[each.key]`: a provider instance (OpenTofu 1.9+; `language` checks the engine)
    problem = _static_problem(tree)
    if problem is None:
        return ()
    a, b, what = problem
    return (
        Diagnostic(
            a, b, ERROR, NOT_STATIC, "Invalid reference",
            f"The argument {quoted(name)} takes a static reference: a name followed by attribute names and "
            f"literal indexes, such as aws_instance.web or module.net[\"a\"].aws_subnet.b[0]. This has {what}.",
        ),
    )


# Fast paths for the commonest valid shapes (checked against the parsers by tests): a template
# whose only sequences are `${name.attr[0]...}` interpolations, and a static reference. A match
# means "no diagnostics" without building a tree; anything else goes to the parsers.
_IDENT = IDENTIFIER_PATTERN
_REFERENCE = rf"{_IDENT}(?:\.{_IDENT}|\[[0-9]+\])*"
# (Not `${null}`: a null among other parts is an error, `evaluate.interpolation_problem`.)
_SIMPLE_TEMPLATE = re.compile(rf"(?:[^$%\\]|\$(?![{{$])|%(?![{{%])|\$\{{(?!null\b){_REFERENCE}\}})*")
_STATIC_REFERENCE = re.compile(_REFERENCE)
#: For readers of values rather than trees (`terraform.quick`): a static reference's shape.
STATIC_REFERENCE = _STATIC_REFERENCE


@lru_cache(maxsize=65536)
def _template_raw(raw: str) -> tuple[bool, tuple[Diagnostic, ...]]:
    """Whether the JSON string content `raw` (as written, escapes included) holds a template
    sequence once decoded, and its template diagnostics with positions relative to the start of
    `raw` (cached by content)."""
    if _SIMPLE_TEMPLATE.fullmatch(raw) is not None:
        return ("${" in raw or "%{" in raw), ()
    if "\\" in raw:
        dec = strings.decode_raw(raw, 0)
        value, offsets = dec.value, dec.offsets
    else:
        value, offsets = raw, range(len(raw) + 1)
    if "${" not in value and "%{" not in value:
        return False, ()
    found = template_diagnostics(value, offsets)
    if not found and _CHECKABLE.search(value) is not None:
        # No syntax error: what the types of its constants and operations say (`evaluate`).
        tree = parse_template_relative(value)[0]
        found = tuple(remap_diagnostic(d, offsets) for d in constant_problems(tree))
    return True, found


#: A template that may hold something `evaluate.constant_problems` checks: a call, an operator, a
#: conditional, an index, a step after a literal, a `null`. Anything else is left unevaluated (the
#: bulk of templates).
_CHECKABLE = re.compile(r"[(\[+*/%<>!&|?-]|[\]})\"]\s*\.|\bnull\b")


#: `_template_raw` for readers of values rather than trees (`terraform.quick`).
template_raw = _template_raw


@lru_cache(maxsize=16384)
def _other_raw(raw: str, smode: str, name: str) -> tuple[Diagnostic, ...]:
    """Diagnostics of a traversal, native or type string with content `raw`, positions relative
    to the start of `raw` (cached by content)."""
    if smode != STRING_TYPE and _STATIC_REFERENCE.fullmatch(raw) is not None:
        return ()
    dec = strings.decode_raw(raw, 0) if "\\" in raw else strings.Decoded(raw, range(len(raw) + 1))
    if smode == STRING_TYPE:
        # A type the whole string spells wrong (an unknown keyword, a quoted string: what is no
        # keyword and no call) is where Terraform reports it: the JSON string, quotes included (the
        # JSON expression's range; what a call holds is placed inside it).
        return tuple(replace(d, start=-1, end=len(raw) + 1) if d.start == 0 and d.end == len(raw) and d.code == INVALID_TYPE else d
                     for d in parse_type(dec.value, dec.offsets).diagnostics)
    rel = _reference_relative(dec.value, smode, name)
    if not rel or "\\" not in raw:
        return rel
    offsets = dec.offsets
    return tuple(_remap(d, offsets) for d in rel)


class _Checker:
    """`counting`: the caller asked for `counts` (see `new_counts`), so every string is visited
    to be counted; otherwise containers without anything to check are skipped unvisited."""

    __slots__ = ("text", "counts", "counting")

    def __init__(self, text: str, counts: dict[str, int] | None) -> None:
        self.text = text
        self.counting = counts is not None
        self.counts = counts if counts is not None else new_counts()

    def body(self, body: Body, parent: str | None, out: list[Diagnostic]) -> None:
        """Check every string in `body` and its nested blocks (`parent`: the type of the block
        owning `body`, None for the file). The commonest case -- an argument whose value is one
        string -- is handled inline (this loop runs for every argument of the document)."""
        text = self.text
        find = text.find
        string = self.string
        templates_in = self.templates_in
        plain = 0
        stack: list[tuple[Body, str | None, bool]] = [(body, parent, False)]
        while stack:
            b, owner, literal = stack.pop()
            for a in b.attributes:
                e = a.expr
                if e is None or (literal and a.schema is None):
                    continue
                node: Any = e.node  # dispatched on `type(node)` below (the checker does not narrow that)
                t = type(node)
                if t is String:  # plain string (no escapes, terminated)
                    smode = _ROOT_MODE.get(e.mode)
                    if smode == STRING_TEMPLATE:
                        cs = e.start + 1
                        ce = e.end - 1
                        if find("{", cs, ce) < 0 or (find("${", cs, ce) < 0 and find("%{", cs, ce) < 0):
                            plain += 1
                            continue
                    if smode in _PARSED:
                        string(node, e.start, smode, a.name, out)
                elif t is Object or t is Array:
                    if e.mode == EXPRESSION:
                        templates_in(node, e.start, a.name, out)
                    elif e.mode in _PARSES:
                        for n, start, smode, _ in expression_strings(e):
                            if smode in _PARSED:
                                string(n, start, smode, a.name, out)
                elif t is FlaggedString:
                    smode = _ROOT_MODE.get(e.mode)
                    if smode in _PARSED:
                        string(node, e.start, smode, a.name, out)
            for blk in b.blocks:
                stack.append((blk.body, blk.type_name, literal_settings_block(blk.type_name, owner)))
        self.counts["plain"] += plain

    def templates_in(self, node: Container, start: int, name: str, out: list[Diagnostic]) -> None:
        """Every string (keys too) of an expression-mode container: all templates. Plain strings
        without a sequence are skipped inline (the bulk of a document); when not counting, so is
        a container whose text holds no `${`, `%{` or backslash (no string in it can hold a
        template sequence, even once unescaped): three scans in C instead of a walk."""
        text = self.text
        find = text.find
        if not self.counting:
            end = start + node.end - node.start
            if find("${", start, end) < 0 and find("%{", start, end) < 0 and find("\\", start, end) < 0:
                return
        string = self.string
        plain = 0
        stack: list[tuple[Container, int]] = [(node, start)]
        pop = stack.pop
        push = stack.append
        while stack:
            n, inner = pop()
            for m in n.items:
                x: Any = m.key  # (dispatched on `type(x)`) a string, an unquoted word, junk or nothing: never a container
                if x is not None:
                    t = type(x)
                    if t is String:
                        cs = inner + x.start + 1
                        ce = inner + x.end - 1
                        if find("{", cs, ce) < 0 or (find("${", cs, ce) < 0 and find("%{", cs, ce) < 0):
                            plain += 1
                        else:
                            string(x, inner + x.start, STRING_TEMPLATE, name, out)
                    elif t is FlaggedString:
                        string(x, inner + x.start, STRING_TEMPLATE, name, out)
                x = m.value
                if x is not None:
                    t = type(x)
                    if t is String:
                        cs = inner + x.start + 1
                        ce = inner + x.end - 1
                        if find("{", cs, ce) < 0 or (find("${", cs, ce) < 0 and find("%{", cs, ce) < 0):
                            plain += 1
                        else:
                            string(x, inner + x.start, STRING_TEMPLATE, name, out)
                    elif t is Object or t is Array:
                        push((x, inner + x.start))
                    elif t is FlaggedString:
                        string(x, inner + x.start, STRING_TEMPLATE, name, out)
        self.counts["plain"] += plain

    def string(self, node: String, start: int, smode: str, name: str, out: list[Diagnostic]) -> None:
        """Check one string (`start`: its absolute start) read in string mode `smode`."""
        if type(node) is not String and (node.quote != '"' or not node.terminated):
            return  # broken: the syntax layer reported it
        text = self.text
        counts = self.counts
        cs = start + 1
        ce = start + node.end - node.start - 1
        if smode == STRING_TEMPLATE:
            if node.escaped:
                if text.find("{", cs, ce) < 0 and text.find("\\u", cs, ce) < 0:
                    counts["plain"] += 1
                    return
            elif text.find("${", cs, ce) < 0 and text.find("%{", cs, ce) < 0:
                counts["plain"] += 1
                return
            elif _fullmatch(_SIMPLE_TEMPLATE, text, cs, ce):
                counts["template"] += 1  # what `_template_raw` says first, without a slice or the cache
                return
            seq, rel = _template_raw(text[cs:ce])
            counts["template" if seq else "plain"] += 1
        else:
            counts[smode] += 1
            if smode != STRING_TYPE and not node.escaped and _fullmatch(_STATIC_REFERENCE, text, cs, ce):
                return  # what `_other_raw` says first, without a slice or the cache
            raw = text[cs:ce]
            if raw == "*" and name == "ignore_changes":
                out.append(_wildcard(cs, ce))
                return
            rel = _other_raw(raw, smode, name)
        if rel:
            out.extend(d.shifted(cs) for d in rel)


def _wildcard(start: int, end: int) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, IGNORE_CHANGES_WILDCARD, "Invalid ignore_changes wildcard",
        'The ["*"] form of the ignore_changes wildcard was deprecated in Terraform 0.12 and is no longer '
        'accepted. Did you mean "ignore_changes": "all"?',
    )


def _fullmatch(pattern: re.Pattern, text, start: int, end: int) -> bool:
    """Whether `pattern` matches all of `text[start:end]` (`str` or `TextBuffer`: `readable`)."""
    return pattern.fullmatch(*readable(text, start, end)) is not None


_PARSED = frozenset({STRING_TEMPLATE, STRING_TRAVERSAL, STRING_NATIVE, STRING_TYPE})
# Attribute modes that read some string of a value by a parser (the others are skipped whole).
_PARSES = frozenset(mode for mode, table in _MODE_TABLE.items() if any(x in _PARSED for x in table))


def new_counts() -> dict[str, int]:
    """Counters of strings checked: `template` (parsed templates), `plain` (template-mode strings
    without `${`/`%{`, not parsed), `traversal`, `native`, `type`."""
    return {"template": 0, "plain": 0, STRING_TRAVERSAL: 0, STRING_NATIVE: 0, STRING_TYPE: 0}


def check_strings(text: str, body: Body, counts: dict[str, int] | None = None) -> list[Diagnostic]:
    """Diagnostics of every string of the decoded root `body` of `text` by its mode (see the
    module doc), sorted by position. `counts` (see `new_counts`) is incremented for the strings
    checked in this call."""
    out = check_root(text, body.attributes, counts)
    for blk in body.blocks:
        out.extend(check_block(text, blk, counts))
    out.sort(key=lambda d: (d.start, d.end))
    return out


def check_block(text: str, block: Block, counts: dict[str, int] | None = None, evaluated: bool = True) -> list[Diagnostic]:
    """Diagnostics of every string of top-level `block` (its body and nested blocks) by mode, in
    checking order (not sorted). `counts`: see `new_counts`. `evaluated`: the block is part of a
    configuration `terraform validate` evaluates (not a test or query file's), so the errors of
    constant evaluation (`evaluate`) are kept where it evaluates expressions."""
    out: list[Diagnostic] = []
    _Checker(text, counts).body(block.body, block.type_name, out)
    if out and any(d.code in EVALUATION_CODES for d in out):
        spans = _unevaluated_spans(block) if evaluated else [block.body_range]
        if spans:
            out = [d for d in out if d.code not in EVALUATION_CODES or not any(s <= d.start < e for s, e in spans)]
    if block.type_name == "variable" and out:
        out = _lenient_error_messages(block, out)
    return out


#: Top-level blocks whose expressions `terraform validate` does not evaluate (the catalogue's).
UNEVALUATED_BLOCKS = catalogue.UNEVALUATED_BLOCKS


def unevaluated_nested(parent: Body, nested: Block) -> bool:
    """Whether `terraform validate` may leave nested block `nested` of body `parent` unevaluated:
    the content of a `dynamic` block (not expanded when its `for_each` is unknown), a `connection`
    block beside no `provisioner` (nothing uses it; Terraform 1.11.4 accepts any value there)."""
    t = nested.type_name
    return t == "dynamic" or (t == "connection" and not parent.blocks_of("provisioner"))


def _unevaluated_spans(block: Block) -> list[tuple[int, int]]:
    """The parts of top-level `block` where `terraform validate` may not evaluate expressions, so
    the errors of constant evaluation are not reported there: the whole of a `check` or `removed`
    block; `unevaluated_nested` blocks; a variable validation's `condition` (its `error_message` is
    evaluated: Terraform warns)."""
    if block.type_name in UNEVALUATED_BLOCKS:
        return [block.body_range]
    spans: list[tuple[int, int]] = []
    stack = [block]
    while stack:
        b = stack.pop()
        for nested in b.body.blocks:
            if unevaluated_nested(b.body, nested):
                spans.append(nested.body_range)
                continue
            if nested.type_name == "validation" and b.type_name == "variable":
                condition = nested.body.attribute("condition")
                if condition is not None and condition.expr is not None:
                    spans.append((condition.expr.start, condition.expr.end))
            stack.append(nested)
    return spans


def _lenient_error_messages(block: Block, out: list[Diagnostic]) -> list[Diagnostic]:
    """A variable validation's `error_message` whose template has errors is read as a literal
    string by Terraform, with a warning (`terraform.evalVariableValidations`, kept for JSON
    configurations written before templates were evaluated there): its errors become that one
    warning, on the whole value."""
    for validation in block.body.blocks_of("validation"):
        a = validation.body.attribute("error_message")
        e = a.expr if a is not None else None
        if e is None or e.kind != STRING:
            continue
        inside = [d for d in out if e.start <= d.start and d.end <= e.end]
        errors = [d for d in inside if d.severity == ERROR]
        if not errors:
            continue
        first = errors[0]
        out = [d for d in out if not (e.start <= d.start and d.end <= e.end)]
        out.append(Diagnostic(
            e.start, e.end, WARNING, INVALID_ERROR_MESSAGE, "Validation error message expression is invalid",
            "The error message provided could not be evaluated as an expression, so Terraform is interpreting it as "
            f"a string literal. In future versions of Terraform, this will be considered an error. ({first.summary}: {first.detail})",
        ))
    return out


def check_root(text: str, attributes: tuple[Attribute, ...], counts: dict[str, int] | None = None) -> list[Diagnostic]:
    """Diagnostics of the strings of the root body's attributes, in checking order."""
    out: list[Diagnostic] = []
    if attributes:
        checker = _Checker(text, counts)
        checker.body(Body(None, 0, 0, _NO_SCHEMA, attributes, ()), None, out)
    return out


_NO_SCHEMA = BodySchema()
