"""Terraform JSON configuration written as native HCL (`terraform fmt` style), read by the schema.

    to_native(text, path=None, *, start=None, end=None, schema_of=None, comments=True) -> NativeText
    block_to_native(text, block, *, schema_of=None, comments=True) -> NativeText
    tfvars_to_native(text, *, comments=True) -> NativeText    a `*.tfvars.json` file as `.tfvars`
    NativeText(text, problems)      problems: tuple[Problem(start, end, code, message), ...]

`to_native` parses and decodes `text` (a `.tf.json` / `.tofu.json` file at `path`: the name picks
the schema, see `schema.schema_for_path`) and converts the whole file, or, with `start`/`end`, the
top-level blocks that meet that range. `block_to_native` converts one decoded top-level block (as
`FileView.blocks_at` gives it) without parsing again; it is what a hover or a code action calls.

What a JSON value becomes depends on the mode the schema gives it (`hcljson.schema.STRING_MODES`):

* expression strings are templates: `"${var.x}"` (one interpolation) is the expression `var.x`
  (in parentheses when it spans lines; as an object key always: `(var.k) = 1`); any other template
  stays a quoted string, its literal text re-escaped for HCL (`\\n`, `\\"`, `\\\\`, `\\u0001`), its
  `${ }` / `%{ }` sequences and `$${` / `%%{` escapes kept as written;
* literal strings (`description`, `source`, `variable.default`, backend settings, ...) are quoted
  strings with `${` / `%{` escaped as `$${` / `%%{`, so they still mean the same characters;
* traversal, keyword and native-expression strings (`depends_on`, `provider`, `ignore_changes`,
  `moved.from`, `replace_triggered_by`, module `providers`, ...) are written bare (`aws.west`);
  a type constraint (`variable.type`) is written bare (`list(string)`);
* numbers are kept exactly as written (an exponent without a fraction gets `.0`: `1e5` is
  `1.0e5`, which tree-sitter-hcl reads too), `true`/`false`/`null` as they are; objects and arrays
  become object and tuple constructors (a key that is an ASCII identifier bare, any other quoted);
* blocks are blocks with quoted labels; `terraform.required_providers` (an argument in JSON) is a
  block, and its `configuration_aliases` are traversals; `"//"` properties of block bodies (and of
  the root) become `#` comment lines (a non-string comment value as indented JSON; with
  `comments=False` none do, with `comments=TEXT_COMMENTS` only string values do);
* a provider-defined name (an argument or nested block of a resource, data source, provider ...)
  is a nested block only when `schema_of(top_level_block)` gives the provider's `SchemaBlock` and
  it lists the name as a block type (`dynamic` blocks' `content` follow the schema too); without a
  schema such a name is written as an argument (`name = {...}`), which is what the JSON says.

Layout: two-space indentation, `=` aligned within a run of consecutive single-line arguments
(a multi-line value, a comment, a block or a blank line ends a run, as `terraform fmt` does),
objects over several lines, short tuples of plain values on one line, a blank line between
top-level blocks and around nested blocks. The text ends with a newline (empty when nothing was
converted).

Contract
--------
* Never raises. What cannot be converted is left out, or kept as a quoted string, and reported as
  a `Problem` (absolute character offsets into `text`, `code`, plain-text `message`): JSON syntax
  errors (their own `syntax/...` codes), content the decoder could not read as configuration
  (`structure/...`: an unknown block type, a body that is not an object, a missing label, a
  duplicate argument: the part is missing from the output), and this module's own codes:
  `convert/missing-value` (a property without a value), `convert/not-an-identifier` (an argument
  or block name native syntax cannot write), `convert/unreadable-string` (a string that does not
  parse in its mode: kept as a quoted string). Problems are sorted by position.
* Pure: plain data in, plain data out; offsets only (no lines or columns).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from ...diagnostic import ERROR, Diagnostic
from ...hcljson import problems as P
from ...hcljson.decode import decode_blocks_from_attribute, decode_file
from ...hcljson.model import Attribute, Block, Body
from ...hcljson.schema import (
    AT_DEEPER,
    AT_DEEPER_KEY,
    AT_ELEMENT,
    AT_KEY,
    AT_ROOT,
    AT_VALUE,
    LITERAL,
    STRING_KEYWORD,
    STRING_NATIVE,
    STRING_TEMPLATE,
    STRING_TRAVERSAL,
    STRING_TYPE,
    TRAVERSAL_LIST,
    BlockSchema,
    string_mode,
)
from ...hcljson.values import key_text, string_text
from ...jsonsyntax import parse
from ...jsonsyntax.tree import ARRAY, OBJECT, Array, Container, Node, Number, Object, String
from ...jsonsyntax.tree import Literal as JsonLiteral
from ...template.nodes import ForDirective, IfDirective, Interpolation, Literal
from ...template.parse import parse_expression_relative, parse_template_relative
from ...template.types import parse_type_relative
from ..definition.catalogue import IDENTIFIER, literal_settings_block
from ..definition.schema import PROVIDER_DEFINED_BODY, schema_for_path
from ..expressions.templates import string_content
from ..filekinds.tfvars import TFVARS_SCHEMA
from ..schemas.provider_schema import MAP, SchemaBlock

__all__ = ["TEXT_COMMENTS", "NativeText", "Problem", "SchemaOf", "block_to_native", "tfvars_to_native", "to_native"]

MISSING_VALUE = "convert/missing-value"
NOT_AN_IDENTIFIER = "convert/not-an-identifier"
UNREADABLE_STRING = "convert/unreadable-string"
INTERNAL_ERROR = "convert/internal-error"

#: Decoder diagnostics after which a part of the input is missing from the output.
_DROPPED = frozenset({
    P.UNKNOWN_ARGUMENT, P.UNKNOWN_BLOCK_TYPE, P.BLOCK_TYPE, P.BODY_TYPE, P.BODY_ELEMENT_TYPE,
    P.DYNAMIC_BODY_TYPE, P.LABEL_TYPE, P.LABEL_ELEMENT_TYPE, P.MISSING_LABEL, P.DUPLICATE_ARGUMENT,
})


@dataclass(frozen=True, slots=True)
class Problem:
    """A part of the input the native text does not represent: `[start, end)` in the JSON text."""

    start: int
    end: int
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class NativeText:
    text: str
    problems: tuple[Problem, ...] = ()


#: `comments=TEXT_COMMENTS`: only `"//"` properties holding a string become comments (what a hover shows:
#: the author's notes, not the JSON of CDKTF's metadata objects).
TEXT_COMMENTS = "text"

#: The provider's schema of a top-level block (a resource's, a data source's, a provider's ...), or None.
SchemaOf = Callable[[Block], "SchemaBlock | None"]


def to_native(
    text: str,
    path: str | None = None,
    *,
    start: int | None = None,
    end: int | None = None,
    schema_of: SchemaOf | None = None,
    comments: bool | str = True,
) -> NativeText:
    """The native text of the file `text` (at `path`), or of its top-level blocks meeting
    `[start, end]` (either bound may be given alone). See the module doc."""
    try:
        return _convert_file(text, path, start, end, schema_of, comments)
    except Exception as exc:
        return NativeText("", (Problem(0, len(text), INTERNAL_ERROR, f"The conversion failed: {exc!r}"),))


def tfvars_to_native(text: str, *, comments: bool | str = True) -> NativeText:
    """A variable definitions file (`*.tfvars.json`) as a native `.tfvars` file: one `name = value`
    per root property, decoded as Terraform reads the file (`tfvars.TFVARS_SCHEMA`: just attributes,
    every string literal, so `${` and `%{` are escaped as `$${` and `%%{`), `"//"` a comment. The
    same problems as `to_native` (a root that is not an object, a property without a value, a name
    native syntax cannot write)."""
    try:
        parsed = parse(text)
        body, diags = decode_file(text, parsed.root, TFVARS_SCHEMA)
        found = [_problem(d) for d in parsed.diagnostics if d.severity == ERROR]
        found.extend(_problem(d) for d in diags if d.code in _DROPPED)
        w = _Writer(text, None, comments)
        items: list[Item] = [item for a in body.attributes if (item := w.attribute(a, "", LITERAL)) is not None]
        if comments:
            items.extend(w.comment_items(body, ""))
        found.extend(w.problems)
        lines = _emit(items, "")  # arguments of one body: `=` aligned, as `terraform fmt` writes them
        return NativeText("\n".join(lines) + "\n" if lines else "", _sorted(found))
    except Exception as exc:
        return NativeText("", (Problem(0, len(text), INTERNAL_ERROR, f"The conversion failed: {exc!r}"),))


def block_to_native(text: str, block: Block, *, schema_of: SchemaOf | None = None, comments: bool | str = True) -> NativeText:
    """The native text of one decoded top-level `block` of `text` (see the module doc); problems are
    the conversion's own (the caller has the file's syntax and structure diagnostics)."""
    try:
        w = _Writer(text, schema_of, comments)
        item = (block.start, _BLOCK, w.block_lines(block, None, "", None))
        return NativeText(_file_text([item]), _sorted(w.problems))
    except Exception as exc:
        return NativeText("", (Problem(block.start, block.end, INTERNAL_ERROR, f"The conversion failed: {exc!r}"),))


def _convert_file(text: str, path: str | None, start: int | None, end: int | None, schema_of: SchemaOf | None, comments: bool | str) -> NativeText:
    parsed = parse(text)
    body, diags = decode_file(text, parsed.root, schema_for_path(path))
    found = [_problem(d) for d in parsed.diagnostics if d.severity == ERROR]
    found.extend(_problem(d) for d in diags if d.code in _DROPPED)
    w = _Writer(text, schema_of, comments)
    if start is None and end is None:
        items = w.body_items(body, None, None, "", None)
    else:
        lo = 0 if start is None else start
        hi = len(text) if end is None else end
        chosen = [b for b in body.blocks if b.start <= hi and lo <= b.end]
        items = [(b.start, _BLOCK, w.block_lines(b, None, "", None)) for b in chosen]
        found = [p for p in found if any(b.start <= p.start and p.end <= b.end for b in chosen)]
    found.extend(w.problems)
    return NativeText(_file_text(items), _sorted(found))


def _problem(d: Diagnostic) -> Problem:
    return Problem(d.start, d.end, d.code, d.plain_message)


def _sorted(problems: list[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(set(problems), key=lambda p: (p.start, p.end, p.code, p.message)))


def _file_text(items: list) -> str:
    """Top-level items in source order, a blank line between them; a newline at the end."""
    chunks = ["\n".join(_item_lines(it, "")) for it in sorted(items, key=lambda it: it[0])]
    return "\n\n".join(chunks) + "\n" if chunks else ""


# ---- HCL text pieces ---------------------------------------------------------------------------

_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
_ESCAPES.update({c: f"\\u{c:04x}" for c in range(0x20) if c not in _ESCAPES})
_ESCAPES[0x7F] = "\\u007f"
#: Identifiers never written bare as an object key (`for` would start a `for` expression, the
#: literal words would be values); any other ASCII identifier is, anything else is quoted.
_RESERVED = frozenset({"true", "false", "null", "for", "in", "if"})
#: An argument or block type name native syntax can write (HCL identifiers).
_IDENTIFIER = IDENTIFIER
_NEWLINES = re.compile(r"\r\n|\r|\n")
_COMMENT_CONTROLS = {c: f"\\u{c:04x}" for c in range(0x20) if c != 9}


def _escaped(s: str) -> str:
    """`s` with what a quoted HCL string cannot hold as is escaped (template sequences untouched)."""
    return s.translate(_ESCAPES)


def _unambiguous(s: str) -> str:
    """Literal template text (escapes included) with a `$` just before a `$${` (a `%` before a
    `%%{`) written `\\u0024` (`\\u0025`): HCL reads `$$${` as `$` and `$${`, tree-sitter-hcl as
    `$$` and `${`; the escape means the same to both."""
    return _BEFORE_ESCAPE.sub(lambda m: "\\u0024" if m.group() == "$" else "\\u0025", s) if "{" in s else s


_BEFORE_ESCAPE = re.compile(r"\$(?=\$\$\{)|%(?=%%\{)")


def _literal(s: str) -> str:
    """A quoted HCL string whose value is exactly `s` (template sequences escaped)."""
    return '"' + _unambiguous(_escaped(s).replace("${", "$${").replace("%{", "%%{")) + '"'


def _literal_key(s: str) -> str:
    return s if s.isascii() and IDENTIFIER.match(s) and s not in _RESERVED else _literal(s)


def _literal_spans(parts: Sequence[Any], out: list[tuple[int, int]]) -> None:
    for p in parts:
        t = type(p)
        if t is Literal:
            out.append((p.start, p.end))
        elif t is IfDirective:
            _literal_spans(p.then_parts, out)
            _literal_spans(p.else_parts or (), out)
        elif t is ForDirective:
            _literal_spans(p.body, out)


def _template(value: str) -> tuple[str, str] | None:
    """A template (a decoded JSON string) in native syntax: `("expr", source)` for one lone
    interpolation, `("string", quoted template)` otherwise; None when it does not parse."""
    tree, diags = parse_template_relative(value)
    if diags:
        return None
    parts = tree.parts
    if len(parts) == 1 and type(parts[0]) is Interpolation:
        e = parts[0].expr
        return "expr", value[e.start : e.end].strip()
    spans: list[tuple[int, int]] = []
    _literal_spans(parts, spans)
    spans.sort()
    out = ['"']
    pos = 0
    for s, end in spans:
        out.append(value[pos:s])  # a sequence: kept as written
        out.append(_unambiguous(_escaped(value[s:end])))
        pos = end
    out.append(value[pos:])
    out.append('"')
    return "string", "".join(out)


def _number(raw: str) -> str:
    """A JSON number as written, but `1e5` as `1.0e5`: the same number, and tree-sitter-hcl reads
    an exponent only after a fraction (HCL reads both)."""
    if "." not in raw and ("e" in raw or "E" in raw):
        i = raw.lower().index("e")
        return f"{raw[:i]}.0{raw[i:]}"
    return raw


def _plain_text(value: str) -> bool:
    """A template that is only literal text with nothing escaped (`"abc"`, not `"$${x}"`)."""
    return "{" not in value or ("${" not in value and "%{" not in value)


def _expression(src: str) -> str:
    """An expression's source as an argument value: in parentheses when it spans lines (there,
    unlike inside `${ }`, a line end would end the argument)."""
    return f"({src})" if "\n" in src or "\r" in src else src


# ---- the writer --------------------------------------------------------------------------------

_ATTR, _BLOCK, _COMMENT = "attribute", "block", "comment"
_INDENT = "  "
_TUPLE_WIDTH = 80

Item = tuple  # (start, kind, lines) or, for an argument, (start, kind, lines, name)


class _Writer:
    def __init__(self, text: str, schema_of: SchemaOf | None, comments: bool | str) -> None:
        self.text = text
        self.schema_of = schema_of
        self.comments = comments
        self.problems: list[Problem] = []

    def shows(self, comment: Node) -> bool:
        """Whether the value of a `"//"` property becomes `#` lines (`comments`: True, False, or
        `TEXT_COMMENTS`: only string values, not CDKTF's metadata objects)."""
        return self.comments is True or (self.comments == TEXT_COMMENTS and isinstance(comment, String))

    def problem(self, start: int, end: int, code: str, message: str) -> None:
        self.problems.append(Problem(start, end, code, message))

    # -- bodies and blocks -------------------------------------------------------------------

    def block_lines(self, block: Block, parent: str | None, indent: str, pschema: Any) -> list[str]:
        """`type "label" ... {`, the body, `}` (the first line unindented)."""
        if pschema is None and parent is None and self.schema_of is not None:
            pschema = self.schema_of(block)
        header = " ".join([block.type_name, *(_literal(lab.value) for lab in block.labels)])
        inner = self.body_items(block.body, block.type_name, parent, indent + _INDENT, pschema)
        if not inner:
            return [header + " {}"]
        return [header + " {", *_emit(inner, indent + _INDENT), indent + "}"]

    def body_items(self, body: Body, owner: str | None, parent: str | None, indent: str, pschema: Any) -> list[Item]:
        """The items of `body` (of a block of type `owner`, inside one of type `parent`), any order."""
        items: list[Item] = []
        literal = owner is not None and literal_settings_block(owner, parent)
        for a in body.attributes:
            if owner == "terraform" and parent is None and a.name == "required_providers" and a.expr is not None:
                items.extend(self.required_providers(a, indent))
                continue
            if a.schema is None and pschema is not None and a.name in pschema.block_types and a.expr is not None:
                nested = self.schema_blocks(a, pschema, owner, indent)
                if nested is not None:
                    items.extend(nested)
                    continue
            item = self.attribute(a, indent, LITERAL if literal and a.schema is None else a.mode)
            if item is not None:
                items.append(item)
        for b in body.blocks:
            if not _IDENTIFIER.match(b.type_name):
                self.problem(b.type_start, b.type_end, NOT_AN_IDENTIFIER, f"Native syntax cannot name a block {_literal(b.type_name)}; the block is left out.")
                continue
            child: Any = None  # the schema of the block's body: a `_Dynamic`'s, or a block type's
            if pschema is not None and b.type_name == "dynamic" and b.labels:
                bt = pschema.block_types.get(b.labels[-1].value)
                child = _Dynamic(bt.block) if bt is not None else None
            elif type(pschema) is _Dynamic and b.type_name == "content":
                child = pschema.content
            items.append((b.start, _BLOCK, self.block_lines(b, owner, indent, child)))
        if self.comments:
            items.extend(self.comment_items(body, indent))
        return items

    def schema_blocks(self, a: Attribute, pschema: SchemaBlock, owner: str | None, indent: str) -> list[Item] | None:
        """Argument `a` read as the provider's nested block type of that name (None: it is no block)."""
        bt = pschema.block_types[a.name]
        schema = BlockSchema(a.name, labels=("key",) if bt.nesting == MAP else (), body=PROVIDER_DEFINED_BODY)
        blocks, diags = decode_blocks_from_attribute(self.text, a, schema)
        if diags:
            return None
        return [(b.start, _BLOCK, self.block_lines(b, owner, indent, bt.block)) for b in blocks]

    def attribute(self, a: Attribute, indent: str, mode: str) -> Item | None:
        if not _IDENTIFIER.match(a.name):
            self.problem(a.name_start, a.name_end, NOT_AN_IDENTIFIER, f"Native syntax cannot name an argument {_literal(a.name)}; it is left out.")
            return None
        e = a.expr
        if e is None:
            self.problem(a.name_start, a.name_end, MISSING_VALUE, f"The argument {_literal(a.name)} has no value; it is left out.")
            return None
        lines = self.value(e.node, e.start - e.node.start, mode, AT_ROOT, indent)
        if lines is None:
            return None
        return (a.start, _ATTR, lines, a.name)

    def required_providers(self, a: Attribute, indent: str) -> list[Item]:
        """`terraform.required_providers`, an argument in JSON, a block (or several) in native syntax."""
        e = a.expr
        node = e.node  # type: ignore[union-attr]
        base = e.start - node.start  # type: ignore[union-attr]
        groups: list[tuple[Container, int]]
        if isinstance(node, Container) and node.kind == ARRAY:
            at = base + node.start
            groups = [(v, at) for m in node.items if isinstance(v := m.value, Container) and v.kind == OBJECT]
        elif isinstance(node, Container) and node.kind == OBJECT:
            groups = [(node, base)]
        else:
            item = self.attribute(a, indent, LITERAL)
            return [item] if item is not None else []
        out: list[Item] = []
        for obj, obase in groups:
            inner = obase + obj.start
            entries: list[Item] = []
            for m in obj.items:
                key = m.key
                name = key_text(self.text, key, inner + key.start) if key is not None else None
                if key is None or name is None:
                    continue
                ks = inner + key.start
                if name == "//":
                    if m.value is not None and self.shows(m.value):
                        entries.append((ks, _COMMENT, self.comment_lines(m.value, inner, indent + _INDENT)))
                    continue
                if not _IDENTIFIER.match(name):
                    self.problem(ks, inner + key.end, NOT_AN_IDENTIFIER, f"Native syntax cannot name a provider requirement {_literal(name)}; it is left out.")
                    continue
                if m.value is None:
                    self.problem(ks, inner + key.end, MISSING_VALUE, f"The provider requirement {_literal(name)} has no value; it is left out.")
                    continue
                lines = self.requirement(m.value, inner, indent + _INDENT)
                entries.append((ks, _ATTR, lines, name))
            body = [*_emit(entries, indent + _INDENT), indent + "}"] if entries else []
            out.append((inner, _BLOCK, ["required_providers {", *body] if body else ["required_providers {}"]))
        return out

    def requirement(self, node: Node, base: int, indent: str) -> list[str]:
        """One provider requirement: literal, but `configuration_aliases` are traversals."""
        if node.kind != OBJECT:
            return self.value(node, base, LITERAL, AT_ROOT, indent) or ["null"]
        inner = base + node.start
        entries: list[Item] = []
        for m in node.items:  # type: ignore[attr-defined]
            if m.key is None or m.value is None:
                continue
            name = key_text(self.text, m.key, inner + m.key.start)
            if name is None:
                continue
            mode = TRAVERSAL_LIST if name == "configuration_aliases" else LITERAL
            lines = self.value(m.value, inner, mode, AT_ROOT, indent + _INDENT)
            if lines is not None:
                entries.append((inner + m.key.start, _ATTR, lines, _literal_key(name)))
        return ["{", *_emit(entries, indent + _INDENT), indent + "}"] if entries else ["{}"]

    def comment_items(self, body: Body, indent: str) -> list[Item]:
        node = body.node
        if node is None:
            return []
        base = body.start - node.start
        groups: list[tuple[Container, int]]
        if isinstance(node, Container) and node.kind == OBJECT:
            groups = [(node, base + node.start)]
        elif isinstance(node, Container) and node.kind == ARRAY:
            at = base + node.start
            groups = [(v, at + v.start) for m in node.items if isinstance(v := m.value, Container) and v.kind == OBJECT]
        else:
            return []
        out: list[Item] = []
        for obj, inner in groups:
            for m in obj.items:
                k = m.key
                if k is None or m.value is None or key_text(self.text, k, inner + k.start) != "//" or not self.shows(m.value):
                    continue
                out.append((inner + k.start, _COMMENT, self.comment_lines(m.value, inner, indent)))
        return out

    def comment_lines(self, value: Node, base: int, indent: str) -> list[str]:
        """`# ...` lines for the value of a `"//"` property (first line unindented, like the rest)."""
        start = base + value.start
        if isinstance(value, String):
            content = string_text(self.text, value, start)
        else:
            raw = self.text[start : base + value.end]
            try:
                content = json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
            except ValueError:
                content = raw
        lines = [("# " + line.translate(_COMMENT_CONTROLS)).rstrip() for line in _NEWLINES.split(content)]
        return [lines[0], *(indent + line for line in lines[1:])]

    # -- values --------------------------------------------------------------------------------

    def value(self, node: Node, base: int, mode: str, place: str, indent: str) -> list[str] | None:
        """The lines of a JSON value (`base`: the absolute start of its container) read in attribute
        mode `mode` at `place` (`schema.AT_*`); the first line unindented, the others absolute.
        None for a broken value (a syntax error was reported)."""
        kind = node.kind
        start = base + node.start
        if isinstance(node, String):
            return [self.string(node, start, string_mode(mode, place))]
        if isinstance(node, Number):
            return [_number(self.text[start : base + node.end])]
        if isinstance(node, JsonLiteral):
            return [self.text[start : base + node.end]]
        if isinstance(node, Object):
            return self.object(node, start, mode, place, indent)
        if isinstance(node, Array):
            return self.tuple(node, start, mode, place, indent)
        return None if kind in ("error", "bare") else ["null"]

    def object(self, node: Object, inner: int, mode: str, place: str, indent: str) -> list[str]:
        top = place == AT_ROOT
        kplace, vplace = (AT_KEY, AT_VALUE) if top else (AT_DEEPER_KEY, AT_DEEPER)
        entries: list[Item] = []
        for m in node.items:
            k, v = m.key, m.value
            if k is None or v is None:
                continue
            key = self.key(k, inner + k.start, string_mode(mode, kplace)) if isinstance(k, String) else None
            if key is None:
                continue  # junk: a syntax error was reported
            lines = self.value(v, inner, mode, vplace, indent + _INDENT)
            if lines is not None:
                entries.append((inner + k.start, _ATTR, lines, key))
        if not entries:
            return ["{}"]
        return ["{", *_emit(entries, indent + _INDENT), indent + "}"]

    def tuple(self, node: Array, inner: int, mode: str, place: str, indent: str) -> list[str]:
        eplace = AT_ELEMENT if place == AT_ROOT else AT_DEEPER
        elements: list[list[str]] = []
        for m in node.items:
            v = m.value
            if v is None:
                continue
            lines = self.value(v, inner, mode, eplace, indent + _INDENT)
            if lines is not None:
                elements.append(lines)
        if not elements:
            return ["[]"]
        if all(len(e) == 1 for e in elements):
            one = "[" + ", ".join(e[0] for e in elements) + "]"
            if len(indent) + len(one) <= _TUPLE_WIDTH:
                return [one]
        out = ["["]
        for e in elements:
            out.append(indent + _INDENT + e[0] + ("," if len(e) == 1 else ""))
            out.extend(e[1:-1])
            if len(e) > 1:
                out.append(e[-1] + ",")
        out.append(indent + "]")
        return out

    def string(self, node: String, start: int, smode: str | None) -> str:
        """A JSON string value read in string mode `smode` (None: not expected there; literal)."""
        decoded = string_content(self.text, node, start)
        if decoded is None:  # unterminated or single-quoted: a syntax error was reported
            return _literal(string_text(self.text, node, start))
        value = decoded.value
        if smode == STRING_TEMPLATE:
            if _plain_text(value):
                return '"' + _escaped(value) + '"'
            got = _template(value)
            if got is not None:
                return _expression(got[1]) if got[0] == "expr" else got[1]
            return self.unreadable(node, start, value, "a template")
        if smode in (STRING_TRAVERSAL, STRING_NATIVE):
            src = value.strip()
            if src and not parse_expression_relative(src)[1]:
                return _expression(src)
            return self.unreadable(node, start, value, "a reference" if smode == STRING_TRAVERSAL else "an expression")
        if smode == STRING_KEYWORD:
            if _IDENTIFIER.match(value.strip()):
                return value.strip()
            return self.unreadable(node, start, value, "a keyword")
        if smode == STRING_TYPE:
            src = value.strip()
            if src and not parse_type_relative(src)[1]:
                return src
            return self.unreadable(node, start, value, "a type constraint")
        return _literal(value)

    def key(self, node: String, start: int, smode: str | None) -> str | None:
        """An object key read in string mode `smode`: bare, quoted, or a parenthesized expression."""
        decoded = string_content(self.text, node, start)
        if decoded is None:
            return None
        value = decoded.value
        if smode == STRING_TEMPLATE:
            if _plain_text(value):
                return _literal_key(value)
            got = _template(value)
            if got is not None:
                return f"({got[1]})" if got[0] == "expr" else got[1]
            return self.unreadable(node, start, value, "a template")
        if smode in (STRING_TRAVERSAL, STRING_NATIVE):
            return self.string(node, start, smode)
        return _literal_key(value)

    def unreadable(self, node: String, start: int, value: str, what: str) -> str:
        self.problem(
            start, start + node.end - node.start, UNREADABLE_STRING,
            f"This string does not parse as {what}; it is kept as a quoted string.",
        )
        return _literal(value)


class _Dynamic:
    """What stands for a provider schema in a `dynamic` block's body: no provider-defined names
    there (`block_types` is empty), only `content`, whose schema is the named block type's."""

    __slots__ = ("content",)
    block_types: ClassVar[Mapping[str, Any]] = MappingProxyType({})

    def __init__(self, content: SchemaBlock) -> None:
        self.content = content


def _item_lines(it: Item, indent: str) -> list[str]:
    """An item's lines, the first one indented (an argument's with `name = `)."""
    lines = it[2]
    first = f"{indent}{it[3]} = {lines[0]}" if it[1] == _ATTR else indent + lines[0]
    return [first, *lines[1:]]


def _emit(items: list[Item], indent: str) -> list[str]:
    """The lines of a body's or object's items in source order: `=` aligned within runs of
    single-line arguments, a blank line around nested blocks (not after a comment)."""
    out: list[str] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        if run:
            width = max(len(n) for n, _ in run)
            out.extend(f"{indent}{n.ljust(width)} = {v}" for n, v in run)
            run.clear()

    previous = None
    for it in sorted(items, key=lambda it: it[0]):
        kind, lines = it[1], it[2]
        if previous is not None and previous != _COMMENT and _BLOCK in (kind, previous):
            flush()
            out.append("")
        if kind == _ATTR and len(lines) == 1:
            run.append((it[3], lines[0]))
        else:
            flush()
            out.extend(_item_lines(it, indent))
        previous = kind
    flush()
    return out
