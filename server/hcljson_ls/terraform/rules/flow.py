"""Sensitive and ephemeral values: where they flow in a module, and where Terraform refuses them.

    file_flow(text, blocks) -> FileFlow          what one JSON file says about marks (plain data, no tree)
    may_mark(text) -> bool                      whether a file's text may hold marks at all (a text search)
    may_mark_changed(text, start, end) -> bool  the same, of a text that could not mark before a change to [start, end)
    expression_deps(text, expr) -> frozenset[Dep]   how one argument's value takes marks from its sources
    check(own, module, root, child_inputs, write_only, engine) -> list[Diagnostic]   one file's findings

Terraform marks values (cty marks) while `validate` evaluates the configuration: a `sensitive`
variable's value is marked sensitive, an `ephemeral` variable's, an `ephemeral.*` resource's and
`terraform.applying` are marked ephemeral, `sensitive(x)` adds the sensitive mark. The marks then
flow through references, local values, templates, operators and most functions; `nonsensitive(x)`
drops the sensitive mark, `ephemeralasnull(x)` the ephemeral one.

Codes (documented in docs/diagnostics.md, "Sensitive and ephemeral values"):

* `flow/sensitive-output` -- a root module output whose value holds a sensitive value and that is
  not declared `sensitive` ("Output refers to sensitive values", on the output's declaration
  range: the `{` of its body, as HCL's JSON parser gives it).
* `flow/ephemeral-root-output` -- a root module output declared `ephemeral` ("Ephemeral output not
  allowed", on the declaration range too). Terraform reports nothing else about that output then.
* `flow/ephemeral-output` -- an output (of any module) whose value holds an ephemeral value and that
  is not declared `ephemeral` ("Ephemeral value not allowed", on the value); not after a
  `flow/sensitive-output` on the same output (Terraform stops there).
* `flow/ephemeral-argument` -- an argument of a managed resource or data source whose value holds
  an ephemeral value, when the provider's schema says the argument is not write-only ("Invalid use
  of ephemeral value", on the value). Only when the schema is known (the built-in provider, or
  loaded provider schemas).
* `flow/ephemeral-repetition` -- `count` or `for_each` of a resource, data source or module call
  derived from an ephemeral value ("Invalid count argument" / "Invalid for_each argument").
* `flow/ephemeral-input` -- a module call passing an ephemeral value to a variable the child module
  (a local directory we can read) does not declare `ephemeral` ("Ephemeral value not allowed").

Contract
--------
* Never more than Terraform: every construct whose effect on marks was not checked against
  `terraform validate` (1.11.4) carries no marks here (a miss, never a false error). Marks flow
  through: references (`var.x`, `local.x`, `ephemeral.t.n`, `terraform.applying`; an attribute,
  index or splat of a marked value is marked), templates (interpolations and `%{if}` conditions),
  the arithmetic and comparison operators, conditionals (the condition and both results), the
  functions of `PROPAGATING`, `sensitive`, `nonsensitive`, `ephemeralasnull`, and into tuples and
  objects (JSON arrays and objects too) as nested marks; the nested marks of the elements of the
  arguments of `KEEPING_ELEMENTS` functions and of `merge` (what no later argument replaces) become
  nested marks of their result. They do not flow through `!`, unary `-`, `&&`, `||`, `for`
  expressions, `%{for}`, other functions (`try`, `can`, `keys` of an object literal, `element`, ...)
  or module outputs (Terraform's validate does not mark a child's outputs).
* A value has top marks (the value itself is marked) and nested marks (somewhere inside it, top
  marks included). Outputs, resource arguments and module inputs look at nested marks; `count`
  and `for_each` at top marks; a function or operator turns its operands' top marks into the
  result's top marks (a function of a tuple holding a marked element is not known to be marked).
* A `Dep` says how an expression takes the marks of one source (a variable, a local value or a
  constant mark): `top` whether the source's top marks reach the expression's top marks, `nested`
  whether the expression's nested marks take the source's nested marks ("nested") or only its top
  marks ("top"), and `removed` the marks stripped on the way. Local values resolve through the
  module's locals, cycles carrying no marks.
* Facts are plain data with absolute offsets into the file's text; `check` is pure. The caller
  decides whether the module is a root module and knows the child modules' variables
  (`child_inputs(call name)`: variable name -> declared ephemeral, None when unknown) and the
  schemas (`write_only(mode, type, provider, argument)`: True/False, None when unknown).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Attribute, Block, Expression
from ...hcljson.schema import STRING_NATIVE, STRING_TEMPLATE
from ...hcljson.values import string_text
from ...jsonsyntax.tree import STRING, TRUE, String
from ...template.nodes import (
    Binary,
    Conditional,
    FunctionCall,
    IfDirective,
    Index,
    Interpolation,
    Object,
    Parens,
    RelativeTraversal,
    Splat,
    Template,
    TemplateExpr,
    Traversal,
    Tuple,
)
from ...template.nodes import String as QuotedString
from ..definition import catalogue
from ..expressions.templates import expression_strings, string_tree

__all__ = [
    "EPHEMERAL",
    "EPHEMERAL_ARGUMENT",
    "EPHEMERAL_INPUT",
    "EPHEMERAL_OUTPUT",
    "EPHEMERAL_REPETITION",
    "EPHEMERAL_ROOT_OUTPUT",
    "PROPAGATING",
    "SENSITIVE",
    "SENSITIVE_OUTPUT",
    "Dep",
    "FileFlow",
    "check",
    "expression_deps",
    "file_flow",
    "may_mark",
    "may_mark_changed",
]

SENSITIVE = "sensitive"
EPHEMERAL = "ephemeral"

SENSITIVE_OUTPUT = "flow/sensitive-output"
EPHEMERAL_ROOT_OUTPUT = "flow/ephemeral-root-output"
EPHEMERAL_OUTPUT = "flow/ephemeral-output"
EPHEMERAL_ARGUMENT = "flow/ephemeral-argument"
EPHEMERAL_REPETITION = "flow/ephemeral-repetition"
EPHEMERAL_INPUT = "flow/ephemeral-input"

#: Built-in functions whose result Terraform 1.11.4's validate marks with the marks of their
#: arguments (each checked with a sensitive variable in a root output; `length` and `toset` with
#: an ephemeral one too). Functions not listed here carry no marks here (several do not in
#: Terraform either: `merge`, `element`, `concat`, `reverse`, `flatten`, `values`, `slice`,
#: `zipmap`, `abs`, `templatestring`, `try`, `can`, `issensitive`).
#: Built-in functions whose result holds every element (or attribute value) of its collection
#: arguments: a marked element of an argument is a marked element of the result (Terraform 1.11.4's
#: validate, each checked with `[var.s]` / `{a = var.s}` arguments of a sensitive `s` in a root
#: output). An argument marked as a whole (`concat(var.l, [])`) passes no marks through most of
#: them, so only nested marks are taken. `merge` keeps what no later argument replaces (`_merge`);
#: functions that may drop an element (`compact`, `distinct`, `element`, `slice`, `try`) are not
#: here: a dropped marked element would be a false error.
KEEPING_ELEMENTS = frozenset({
    "chunklist", "concat", "flatten", "reverse", "setproduct", "sort", "tolist", "toset", "transpose",
    "values", "zipmap",
})

PROPAGATING = frozenset({
    "abspath", "base64decode", "base64encode", "basename", "chomp", "cidrhost", "coalesce",
    "coalescelist", "compact", "contains", "distinct", "endswith", "file", "format", "formatlist",
    "index", "indent", "join", "jsondecode", "jsonencode", "keys", "length", "lookup", "lower",
    "max", "md5", "one", "regex", "regexall", "replace", "setunion", "sha1", "sha256", "sort",
    "split", "startswith", "strcontains", "strrev", "substr", "sum", "title", "tobool", "tolist",
    "tomap", "tonumber", "toset", "tostring", "trim", "trimprefix", "trimspace", "upper",
    "urlencode", "uuidv5", "yamlencode",
})
#: Binary operators whose result carries its operands' marks (`&&` and `||` do not in validate).
_PROPAGATING_OPERATORS = frozenset({"+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">="})
_MARKS = (SENSITIVE, EPHEMERAL)
_NONE: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class Dep:
    """How an expression takes the marks of `source` (see the module doc): `("variable", name)`,
    `("local", name)` or `("mark", SENSITIVE | EPHEMERAL)`."""

    source: tuple
    top: bool = True
    nested: str = "nested"  # or "top", or "inner": the source's nested marks but its top ones
    removed: frozenset = _NONE


@dataclass(frozen=True, slots=True)
class Output:
    name: str
    decl_range: tuple[int, int]
    value_range: tuple[int, int]
    sensitive: bool
    ephemeral: bool
    deps: frozenset


@dataclass(frozen=True, slots=True)
class Argument:
    """A resource's or data source's argument (`mode` "resource" or "data")."""

    mode: str
    type: str
    provider: str | None  # the `provider` meta-argument as written
    name: str
    range: tuple[int, int]
    deps: frozenset


@dataclass(frozen=True, slots=True)
class Repetition:
    meta: str  # "count" or "for_each"
    range: tuple[int, int]
    deps: frozenset


@dataclass(frozen=True, slots=True)
class Input:
    call: str
    name: str
    range: tuple[int, int]
    deps: frozenset


@dataclass(frozen=True, slots=True)
class FileFlow:
    """What one file says about marks: its variables' declared marks, its local values' deps and
    its sinks (outputs, resource arguments, `count`/`for_each`, module inputs)."""

    variables: tuple[tuple[str, frozenset], ...] = ()
    locals: tuple[tuple[str, frozenset], ...] = ()
    outputs: tuple[Output, ...] = ()
    arguments: tuple[Argument, ...] = ()
    repetitions: tuple[Repetition, ...] = ()
    inputs: tuple[Input, ...] = ()

    @property
    def has_marks(self) -> bool:
        """Whether the file declares a marked variable, refers to a constant mark or declares an
        ephemeral output: without one in the module, `check` finds nothing."""
        if any(marks for _, marks in self.variables) or any(o.ephemeral for o in self.outputs):
            return True
        groups: Iterable[frozenset] = (
            *(d for _, d in self.locals), *(o.deps for o in self.outputs), *(a.deps for a in self.arguments),
            *(r.deps for r in self.repetitions), *(i.deps for i in self.inputs),
        )
        return any(dep.source[0] == "mark" for deps in groups for dep in deps)


# ---- facts of one file ----------------------------------------------------------------------------

#: Words without which a file cannot mark a value nor declare an ephemeral output.
_MARKING_WORDS = ("sensitive", "ephemeral", "applying")
#: A JSON escape of an ASCII letter (`\u0073`): a name may be written with them. Escapes of other
#: characters (`\u00e9`, as `json.dumps` writes non-ASCII text by default) cannot spell those words.
_LETTER_ESCAPE = re.compile(r"\\u00(?:[46][1-9a-fA-F]|[57][0-9aA])")


def may_mark(text) -> bool:
    """Whether the text of a file (a `str`, or anything with `str.find`: a document's text buffer,
    searched without joining it unless it holds a `\\u` escape) may mark a value (a cheap search:
    `FileFlow.has_marks` is False for the facts of a file for which this is False).

    Why the escapes are read: any `\\u` made every file with escaped non-ASCII text (a CDKTF stack
    written with `ensure_ascii`) compute its flow facts, which builds the analysis of an open
    document: its quick open was lost (`bench/bench_undeclared.py` measured the full analysis)."""
    if any(text.find(w) >= 0 for w in _MARKING_WORDS):
        return True
    # (`\u00`, the start of every escape `_LETTER_ESCAPE` reads: `\u` alone took 1.6x as long in a
    # CDKTF file, whose escaped quotes make every `\` a candidate.)
    if text.find("\\u00") < 0:
        return False
    return _LETTER_ESCAPE.search(text if isinstance(text, str) else str(text)) is not None


#: How far before and after a change a word or escape that `may_mark` looks for can begin or end:
#: one overlapping the change lies within this many characters of it.
_MARK_REACH = max(len(w) for w in (*_MARKING_WORDS, "\\u0073")) - 1


def may_mark_changed(text, start: int, end: int) -> bool:
    """`may_mark(text)` where the text's previous version could not mark (`may_mark` was False) and
    `[start, end)` is what changed since (in this version's offsets): a word or escape it looks for
    is new only if it overlaps the change, so only the change and `_MARK_REACH` characters around it
    are searched.

    Why: `may_mark` searched the whole 5 MB text on every edit (four `str.find`s of the UCS-2 text:
    13.6 ms of an edit's 22.7 ms before the tree, bench/bench_first_edit.py)."""
    return may_mark(text[max(0, start - _MARK_REACH) : end + _MARK_REACH])


def _flag(text: str, attr: Attribute | None) -> bool:
    """A boolean meta-argument set to true (JSON `true`, or the string "true", which Terraform
    converts)."""
    if attr is None or attr.expr is None:
        return False
    e = attr.expr
    if e.kind == TRUE:
        return True
    return e.kind == STRING and string_text(text, e.node, e.start) == "true"


def file_flow(text: str, blocks: Iterable[Block]) -> FileFlow:
    """The facts of a JSON configuration file (top-level `blocks` of its decoded body)."""
    variables, locals_, outputs, arguments, repetitions, inputs = [], [], [], [], [], []
    for block in blocks:
        t = block.type_name
        body = block.body
        labels = block.label_values
        if t == "variable" and len(labels) == 1:
            marks = frozenset(m for m in _MARKS if _flag(text, body.attribute(m)))
            variables.append((labels[0], marks))
        elif t == "locals":
            for a in body.attributes:
                if a.expr is not None and a.name != "//":
                    locals_.append((a.name, expression_deps(text, a.expr)))
        elif t == "output" and len(labels) == 1:
            value = body.attribute("value")
            if value is None or value.expr is None:
                continue
            # Terraform's subject: the output's declaration range, the `{` of its body in JSON.
            decl = (body.start, body.start + 1) if body.end > body.start else block.header_range
            outputs.append(Output(labels[0], decl, value.expr.range, _flag(text, body.attribute(SENSITIVE)),
                                  _flag(text, body.attribute(EPHEMERAL)), expression_deps(text, value.expr)))
        elif t in catalogue.EVALUATED_REPETITION_BLOCKS and len(labels) == len(block.schema.labels):
            for meta in ("count", "for_each"):
                given = body.attribute(meta)
                if given is not None and given.expr is not None:
                    deps = expression_deps(text, given.expr)
                    if deps:
                        repetitions.append(Repetition(meta, given.expr.range, deps))
            provider = body.attribute("provider")
            provider_text = (string_text(text, provider.expr.node, provider.expr.start)
                             if provider is not None and provider.expr is not None and provider.expr.kind == STRING else None)
            for a in body.attributes:
                if a.schema is not None or a.expr is None or a.name == "//":
                    continue  # a meta-argument (`source`, `count`, `provider`, ...)
                deps = expression_deps(text, a.expr)
                if not deps:
                    continue
                if t == "module":
                    inputs.append(Input(labels[0], a.name, a.expr.range, deps))
                else:
                    arguments.append(Argument(t, labels[0], provider_text, a.name, a.expr.range, deps))
    return FileFlow(tuple(variables), tuple(locals_), tuple(outputs), tuple(arguments), tuple(repetitions), tuple(inputs))


def expression_deps(text: str, expr: Expression) -> frozenset:
    """The deps of one argument's value (a JSON value whose strings are templates)."""
    out: set[Dep] = set()
    for node, start, smode, is_key in expression_strings(expr):
        if is_key or smode not in (STRING_TEMPLATE, STRING_NATIVE):
            continue
        if type(node) is not String and (node.quote != '"' or not node.terminated):
            continue  # an escaped string (`FlaggedString`) that is not a whole double-quoted one
        raw = text[start + 1 : start + node.end - node.start - 1]
        if "{" not in raw and "\\u" not in raw:
            continue
        tree = string_tree(raw, smode)
        if tree is None:
            continue
        deps = _template(tree) if type(tree) is Template else _expr(tree)
        out |= deps if node is expr.node else _nest(deps)
    return frozenset(out)


def _top(deps: Iterable[Dep]) -> set[Dep]:
    """What a function or operator result takes: its operands' top marks, as its top marks."""
    return {Dep(d.source, True, "top", d.removed) for d in deps if d.top}


def _nest(deps: Iterable[Dep]) -> set[Dep]:
    """What a collection takes from an element: nested marks only."""
    return {Dep(d.source, False, d.nested, d.removed) for d in deps}


def _without(deps: Iterable[Dep], mark: str) -> set[Dep]:
    return {Dep(d.source, d.top, d.nested, d.removed | {mark}) for d in deps}


def _template(node) -> set[Dep]:
    parts = node.parts
    if len(parts) == 1 and type(parts[0]) is Interpolation:
        return _expr(parts[0].expr)  # `"${x}"` is the value of x itself
    return _parts(parts)


def _parts(parts) -> set[Dep]:
    out: set[Dep] = set()
    for p in parts:
        t = type(p)
        if t is Interpolation:
            out |= _top(_expr(p.expr))
        elif t is IfDirective:
            out |= _top(_expr(p.condition)) | _parts(p.then_parts) | _parts(p.else_parts or ())
        # Literal: nothing; `%{for}`: not known to carry marks
    return out


def _expr(node) -> set[Dep]:
    t = type(node)
    if t is Traversal:
        return _traversal(node)
    if t is Parens:
        return _expr(node.expr)
    if t is TemplateExpr:
        return _template(node)
    if t is RelativeTraversal:
        return _top(_expr(node.source))
    if t is Index:
        return _top(_expr(node.collection))
    if t is Splat:
        return _top(_expr(node.source))
    if t is FunctionCall:
        return _call(node)
    if t is Conditional:
        return _top(_expr(node.condition)) | _top(_expr(node.true_result)) | _top(_expr(node.false_result))
    if t is Binary:
        return _top(_expr(node.lhs) | _expr(node.rhs)) if node.op in _PROPAGATING_OPERATORS else set()
    if t is Tuple:
        return _nest(d for item in node.items for d in _expr(item))
    if t is Object:
        return _nest(d for item in node.items for d in _expr(item.value))
    return set()  # literals, `!`, unary `-`, `for` expressions, invalid pieces


def _traversal(node: Traversal) -> set[Dep]:
    steps = node.steps
    first = steps[0].name if steps and hasattr(steps[0], "name") else None
    if node.root in ("var", "local") and first is not None:
        kind = "variable" if node.root == "var" else "local"
        # `local.o.a`: an attribute of a value whose marks are nested may be unmarked itself.
        return {Dep((kind, first), True, "nested" if len(steps) == 1 else "top")}
    if node.root == "terraform" and first == "applying":
        return {Dep(("mark", EPHEMERAL), True, "top")}
    if node.root == "ephemeral" and len(steps) >= 2:
        return {Dep(("mark", EPHEMERAL), True, "top")}
    return set()


def _call(node: FunctionCall) -> set[Dep]:
    name = node.name
    if name.startswith("core::"):
        name = name[len("core::"):]
    args = [_expr(a) for a in node.args]
    if name == "sensitive":
        return _top(d for a in args for d in a) | {Dep(("mark", SENSITIVE), True, "top")}
    if name == "nonsensitive" and len(args) == 1:
        return _without(args[0], SENSITIVE)
    if name == "ephemeralasnull" and len(args) == 1:
        return _without(args[0], EPHEMERAL)
    out = _top(d for a in args for d in a) if name in PROPAGATING else set()
    if name in KEEPING_ELEMENTS:
        out |= {k for a in args for k in _kept(a)}
    elif name == "merge":
        out |= _merge(node.args, args)
    return out


def _merge(nodes: Sequence, args: Sequence[set[Dep]]) -> set[Dep]:
    """The nested marks `merge(...)` keeps: the attributes of its arguments that no later argument
    can replace (every later one an object written out with static keys), and all of the last's."""
    out: set[Dep] = set()
    later: set[str] = set()
    for i in range(len(nodes) - 1, -1, -1):
        node, deps = nodes[i], args[i]
        if i == len(nodes) - 1:
            out |= _kept(deps)
        elif type(node) is Object:
            for item in node.items:
                key = _static_key(item.key)
                if key is not None and key not in later:
                    out |= _nest(_expr(item.value))
        keys = [_static_key(item.key) for item in node.items] if type(node) is Object else [None]
        if None in keys:
            break  # this argument may replace any attribute of the earlier ones
        later.update(k for k in keys if k is not None)
    return out


def _kept(deps: Iterable[Dep]) -> set[Dep]:
    """The marks of an argument's elements, as the nested marks of a result that holds them all:
    what is nested in the argument, never the marks of the argument as a whole (see
    `KEEPING_ELEMENTS`)."""
    out: set[Dep] = set()
    for d in deps:
        if not d.top:
            out.add(Dep(d.source, False, d.nested, d.removed))
        elif d.nested == "nested":  # the argument is the source itself: its nested marks but its top ones
            out.add(Dep(d.source, False, "inner", d.removed))
    return out


def _static_key(node) -> str | None:
    """The attribute name an object key gives, when written out: `a` or `"a"`."""
    if type(node) is Traversal and not node.steps:
        return node.root
    if type(node) is QuotedString:
        return node.value
    return None


# ---- the module: marks of sources, and the rules --------------------------------------------------


class _Marks:
    """The (top, nested) marks of the module's sources, locals resolved on demand."""

    def __init__(self, files: Sequence[FileFlow]) -> None:
        self.variables: dict[str, frozenset] = {}
        self.locals: dict[str, frozenset] = {}
        for f in files:
            for name, marks in f.variables:
                self.variables[name] = self.variables.get(name, _NONE) | marks
            for name, deps in f.locals:
                self.locals[name] = self.locals.get(name, _NONE) | deps
        self._resolved: dict[str, tuple[frozenset, frozenset]] = {}
        self._busy: set[str] = set()

    def source(self, source: tuple) -> tuple[frozenset, frozenset]:
        kind = source[0]
        if kind == "mark":
            m = frozenset({source[1]})
            return m, m
        if kind == "variable":
            m = self.variables.get(source[1], _NONE)
            return m, m
        if kind == "local":
            return self.local(source[1])
        return _NONE, _NONE

    def local(self, name: str) -> tuple[frozenset, frozenset]:
        got = self._resolved.get(name)
        if got is not None:
            return got
        if name in self._busy:
            return _NONE, _NONE  # a cycle (its own error elsewhere): no marks
        self._busy.add(name)
        try:
            got = self.of(self.locals.get(name, _NONE))
        finally:
            self._busy.discard(name)
        self._resolved[name] = got
        return got

    def of(self, deps: Iterable[Dep]) -> tuple[frozenset, frozenset]:
        top: set[str] = set()
        nested: set[str] = set()
        for d in deps:
            s_top, s_nested = self.source(d.source)
            if d.top:
                top |= s_top - d.removed
            taken = s_nested if d.nested == "nested" else s_top if d.nested == "top" else s_nested - s_top
            nested |= taken - d.removed
        nested |= top
        return frozenset(top), frozenset(nested)


def check(
    own: FileFlow,
    module: Sequence[FileFlow],
    root: bool,
    child_inputs: Callable[[str], Mapping[str, bool] | None],
    write_only: Callable[[str, str, str | None, str], bool | None],
    engine: str = "terraform",
) -> list[Diagnostic]:
    """The findings in the file of `own` (one of `module`, the facts of every JSON file of the
    module). `engine` "opentofu": only the sensitive output rule (OpenTofu's ephemeral rules are
    not checked here)."""
    if not any(f.has_marks for f in module):
        return []
    marks = _Marks(module)
    ephemeral_rules = engine != "opentofu"
    out: list[Diagnostic] = []
    for o in own.outputs:
        if root and o.ephemeral:
            if ephemeral_rules:
                out.append(Diagnostic(*o.decl_range, ERROR, EPHEMERAL_ROOT_OUTPUT, "Ephemeral output not allowed",
                                      f"The output {o.name!r} is declared ephemeral, which only outputs of a called module may be: "
                                      "a root module's outputs are kept in the state."))
            continue
        _, nested = marks.of(o.deps)
        if root and SENSITIVE in nested and not o.sensitive:
            out.append(Diagnostic(*o.decl_range, ERROR, SENSITIVE_OUTPUT, "Output refers to sensitive values",
                                  f"The value of the root module output {o.name!r} holds sensitive data: declare the output "
                                  "with \"sensitive\": true to confirm that it may be exported (Terraform then hides it in its output)."))
            continue
        if ephemeral_rules and EPHEMERAL in nested and not o.ephemeral:
            out.append(Diagnostic(*o.value_range, ERROR, EPHEMERAL_OUTPUT, "Ephemeral value not allowed",
                                  f"The value of output {o.name!r} is derived from an ephemeral value, but the output is not "
                                  "declared with \"ephemeral\": true."))
    if not ephemeral_rules:
        return out
    for a in own.arguments:
        _, nested = marks.of(a.deps)
        if EPHEMERAL in nested and write_only(a.mode, a.type, a.provider, a.name) is False:
            what = "resource" if a.mode == "resource" else "data source"
            out.append(Diagnostic(*a.range, ERROR, EPHEMERAL_ARGUMENT, "Invalid use of ephemeral value",
                                  f"The argument {a.name!r} of this {what} is derived from an ephemeral value; only "
                                  "write-only arguments take ephemeral values, since the others are saved in the state."))
    for r in own.repetitions:
        top, _ = marks.of(r.deps)
        if EPHEMERAL in top:
            out.append(Diagnostic(*r.range, ERROR, EPHEMERAL_REPETITION, f"Invalid {r.meta} argument",
                                  f"The {r.meta!r} value is derived from an ephemeral value, which Terraform cannot keep "
                                  "between plan and apply; use only values that are not ephemeral here."))
    for i in own.inputs:
        variables = child_inputs(i.call)
        if variables is None or variables.get(i.name) is not False:
            continue  # unknown child or variable, or one declared ephemeral
        _, nested = marks.of(i.deps)
        if EPHEMERAL in nested:
            out.append(Diagnostic(*i.range, ERROR, EPHEMERAL_INPUT, "Ephemeral value not allowed",
                                  f"This value is derived from an ephemeral value, but the variable {i.name!r} of the module "
                                  f"called {i.call!r} is not declared with \"ephemeral\": true."))
    out.sort(key=lambda d: (d.start, d.end))
    return out
