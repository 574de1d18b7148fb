"""Static evaluation of template expressions: the errors Terraform's `validate` finds from types
alone, when it evaluates each expression with unknown values of known types.

    Val(type, value=UNKNOWN)                 a cty-like value: a cty JSON type, a known value or not
    DYNAMIC                                  an unknown value of unknown type (the answer when unsure)
    type_value(type_text) -> Val             an unknown value of a `variable.type` constraint as written
    get_attr(val, name) -> (Val, problem)    `.name` on a value (problem: `(summary, detail)` or None)
    get_index(val, key) -> (Val, problem)    `[key]` on a value
    constant_problems(tree) -> tuple[Diagnostic, ...]   the errors of a parsed template, evaluated alone
    expression_value(expr) -> Val | None     an expression's value so evaluated (None: it has errors)
    steps_value(val, steps) -> Val           template steps applied to a value (`DYNAMIC` after an error)
    typed_candidate(value) -> bool           whether a template may fail by the types of its variables
    typed_problems(tree, known) -> tuple[Diagnostic, ...]   the errors those types add (`known`:
                                             (root, name) -> `Val` of `var.NAME` / `local.NAME`)
    typed_value(expr, known) -> Val | None   an expression's value with those types (None: errors)
    interpolation_problem(val) -> problem | None   a value interpolated among a template's parts
    text_interpolations(tree) -> [Traversal]  the traversals a template interpolates among other parts

Values
------
Types are cty's JSON encoding (`ctytypes`): `"string"`, `"number"`, `"bool"`, `"dynamic"`,
`["list", T]`, `["set", T]`, `["map", T]`, `["tuple", [T...]]`, `["object", {name: T}]`. A known
value is Python data: `str`, `int`/`float`, `bool`, `None` (null, of type dynamic), a tuple of
`Val` (a tuple's elements) or a dict name -> `Val` (an object's attributes). A tuple's or an
object's type is known even when its elements are not.

Rules (each checked against Terraform 1.11.4's `validate`; wording in our words where it is not
cty's or HCL's short phrase, the summary and subject range are Terraform's):

* `expression/unsupported-attribute` -- `.name` on a primitive value ("Can't access attributes on a
  primitive-typed value (string)."), on a list, set or tuple, or on an object type without that
  attribute, or on a known null ("Attempt to get attribute from null value"); the range is the
  step, dot included.
* `expression/invalid-index` -- `[key]` on a primitive value, a whole-number key outside a
  tuple's length, a known object without that key, or on a known null ("Attempt to index null
  value"); the range is the step with its brackets.
* `expression/invalid-function-argument` -- an argument that cannot convert to its parameter
  type (number -> string converts, `"1"` -> number too, a tuple -> string does not; a string is
  no `list(string)`: `conversion.conversion_problem`'s words there), or that a function's own
  type check refuses (`function_types`: "Error in function call" when it names no argument);
  the range is the start of the argument (HCL's `StartRange`: a tuple's `[`, a string's content).
* `expression/invalid-operand` -- an operand of `+ - * / % < > <= >=` or unary `-` that cannot
  convert to a number, of `&& || !` that cannot convert to a bool; the range is the operand.
* `expression/invalid-interpolation` -- a known value other than a string, number or bool, or a
  null, interpolated into a template that is not one interpolation alone (`"x-${[1]}"`,
  `"x-${null}"`); an unknown one is not checked, as HCL; the range is the interpolated expression.
* `expression/inconsistent-conditional` -- a conditional whose two results have no one type
  (`conversion.unify`: a list and a string, a number and a bool), whatever its condition, as HCL
  checks it; the range runs from the true result's start to the false result's end. A conditional's
  value is the result a known condition takes, else an unknown of the unified type.

What is never reported (Terraform does not, or we cannot be sure): anything inside the arguments
of `try` and `can`; the branches of a conditional whose condition is not a known bool (the branch a
known condition does not take); the body of a `for` expression or directive, unless its collection
is a known non-empty tuple or object and it has no `if` condition (the elements are unknowns here);
splats; a null given where a value is required (a different error); functions whose engines
disagree on a parameter's type, calls with `...` expansion or the wrong number of arguments (their
own rule); anything of a reference when the evaluation has no context (`constant_problems`: every
reference is an unknown of unknown type).
A parameter's declared type is checked (a collection's by `conversion`), and some functions' own
checks of their arguments' types (`function_types`: `merge([1])`, `length(5)`), not the others'.
After an error the value is `DYNAMIC`, so one mistake gives one diagnostic (Terraform repeats a
`for` body's error per element; we say it once).

Pure functions of the tree; cached by the callers (per string content).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ...diagnostic import ERROR, Diagnostic
from ...template.nodes import (
    Attr,
    Binary,
    Bool,
    Conditional,
    ForDirective,
    ForExpr,
    FunctionCall,
    IfDirective,
    Index,
    Interpolation,
    Null,
    Number,
    Object,
    Parens,
    RelativeTraversal,
    String,
    Template,
    TemplateExpr,
    Traversal,
    Tuple,
    Unary,
)
from ...template.types import CollectionType, ObjectType, PrimitiveType, TupleType, parse_type_relative
from ..definition import functions
from ..definition.ctytypes import is_type, render_type
from .conversion import conversion_problem, unify
from .function_types import type_problem
from .values import DYNAMIC, UNKNOWN, Val, a_type, type_kind, wholly_known

__all__ = [
    "Val", "DYNAMIC", "UNKNOWN", "type_value", "get_attr", "get_index", "constant_problems", "expression_value",
    "steps_value", "typed_candidate", "typed_problems", "typed_value", "CODES", "UNSUPPORTED_ATTRIBUTE", "INVALID_INDEX", "INVALID_ARGUMENT", "INVALID_OPERAND",
    "INCONSISTENT_CONDITIONAL", "INVALID_INTERPOLATION", "interpolation_problem", "text_interpolations",
]

UNSUPPORTED_ATTRIBUTE = "expression/unsupported-attribute"
INVALID_INDEX = "expression/invalid-index"
INVALID_ARGUMENT = "expression/invalid-function-argument"
INVALID_OPERAND = "expression/invalid-operand"
#: The codes of this module (a caller drops them where Terraform does not evaluate).
INCONSISTENT_CONDITIONAL = "expression/inconsistent-conditional"
INVALID_INTERPOLATION = "expression/invalid-interpolation"
CODES = frozenset({UNSUPPORTED_ATTRIBUTE, INVALID_INDEX, INVALID_ARGUMENT, INVALID_OPERAND, INCONSISTENT_CONDITIONAL,
                   INVALID_INTERPOLATION})


_PRIMITIVES = ("string", "number", "bool")
_NUMBER = Val("number")
_BOOL = Val("bool")
_STRING = Val("string")

Problem = tuple[str, str]  # (summary, detail)


# ---- types of type constraints ------------------------------------------------------------------


def _cty(node) -> object:
    """The cty JSON type of a type node (`template.types`); dynamic where unsure."""
    t = type(node)
    if t is PrimitiveType:
        return "dynamic" if node.name == "any" else node.name
    if t is CollectionType:
        return [node.kind, _cty(node.element) if node.element is not None else "dynamic"]
    if t is TupleType:
        return ["tuple", [_cty(e) for e in node.elements]]
    if t is ObjectType:
        attrs = {a.name: _cty(a.type) for a in node.attributes}
        optional = [a.name for a in node.attributes if a.optional]
        return ["object", attrs, optional] if optional else ["object", attrs]
    return "dynamic"


@lru_cache(maxsize=1024)
def _type_of_text(type_text: str) -> object:
    if not type_text:
        return "dynamic"
    tree, diags = parse_type_relative(type_text)
    if any(d.severity == ERROR for d in diags):
        return "dynamic"
    return _cty(tree)


def type_value(type_text: str) -> Val:
    """An unknown value of the type constraint `type_text` as written ("" or one that does not
    parse: `DYNAMIC`); what Terraform's `validate` gives an input variable."""
    t = _type_of_text(type_text)
    return DYNAMIC if t == "dynamic" else Val(t)


# ---- steps ------------------------------------------------------------------------------------



def get_attr(val: Val, name: str) -> tuple[Val, Problem | None]:
    """`.name` on `val` (HCL's GetAttr on a value of that type)."""
    t = val.type
    kind = type_kind(t)
    if val.value is None:
        return DYNAMIC, ("Attempt to get attribute from null value", "This value is null, so it does not have any attributes.")
    if kind == "dynamic":
        return DYNAMIC, None
    if kind in _PRIMITIVES:
        return DYNAMIC, ("Unsupported attribute", f"Can't access attributes on a primitive-typed value ({kind}).")
    if kind == "object":
        attrs = t[1]  # type: ignore[index]
        if name not in attrs:
            return DYNAMIC, ("Unsupported attribute", f'This object does not have an attribute named "{name}".')
        if val.known:
            return val.value[name], None  # type: ignore[index]
        return _unknown_of(attrs[name]), None
    if kind == "map":
        return _unknown_of(t[1]), None  # type: ignore[index]
    if kind in ("list", "set", "tuple"):
        return DYNAMIC, ("Unsupported attribute", "This value does not have any attributes.")
    return DYNAMIC, None


def _unknown_of(t: object) -> Val:
    return DYNAMIC if t == "dynamic" else Val(t)


_KEY_OUTSIDE = "The given key does not identify an element in this collection value"
_SET_INDEX = ("Elements of a set are identified only by their value and don't have any separate index or key to "
              "select with, so it's only possible to perform operations across all elements of the set.")


def _whole(key: Val) -> int | None:
    """A known key as a whole number (a number, or a string that is one), else None."""
    v = key.value
    if type(v) is int:
        return v
    if type(v) is float and v.is_integer():
        return int(v)
    if type(v) is str and re.fullmatch(r"-?[0-9]+", v):
        return int(v)
    return None


def get_index(val: Val, key: Val) -> tuple[Val, Problem | None]:
    """`[key]` on `val` (HCL's Index)."""
    t = val.type
    kind = type_kind(t)
    if val.value is None:
        return DYNAMIC, ("Attempt to index null value", "This value is null, so it does not have any indices.")
    if kind == "dynamic" or key.value is None:
        return DYNAMIC, None
    if kind in _PRIMITIVES:
        return DYNAMIC, ("Invalid index", "This value does not have any indices.")
    if not key.known:
        return DYNAMIC, None
    if kind == "set":
        return DYNAMIC, ("Invalid index", _SET_INDEX)
    if kind == "list" or kind == "tuple":  # a sequence's key must be a number (`"1"` converts)
        why = _conversion_problem(key, "number")
        if why is not None:
            return DYNAMIC, ("Invalid index", f"{_KEY_OUTSIDE}: {why}.")
    if kind == "tuple":
        n = _whole(key)
        if n is None:
            return DYNAMIC, None
        elements = t[1]  # type: ignore[index]
        if n < 0:
            return DYNAMIC, ("Invalid index", f"{_KEY_OUTSIDE}: a negative number is not a valid index for a sequence.")
        if n >= len(elements):
            if not val.known:  # cty's wording for an unknown tuple (a variable's `tuple([...])` type)
                return DYNAMIC, ("Invalid index", f"{_KEY_OUTSIDE}: the given index is greater than or equal to "
                                                  "the length of the collection.")
            return DYNAMIC, ("Invalid index", f"{_KEY_OUTSIDE}: the collection has no elements." if not elements
                             else f"{_KEY_OUTSIDE}.")
        return (val.value[n] if val.known else _unknown_of(elements[n])), None  # type: ignore[index]
    if kind == "list":
        n = _whole(key)
        return (_unknown_of(t[1]) if n is not None and n >= 0 and not val.known else DYNAMIC), None  # type: ignore[index]
    if kind == "map":
        return (_unknown_of(t[1]) if not val.known else DYNAMIC), None  # type: ignore[index]
    if kind == "object" and val.known and type(key.value) is str:
        found = val.value.get(key.value)  # type: ignore[attr-defined]
        if found is None:
            return DYNAMIC, ("Invalid index", f"{_KEY_OUTSIDE}.")
        return found, None
    return DYNAMIC, None


# ---- conversions ------------------------------------------------------------------------------


def _is_number_text(value: str) -> bool:
    """What Go's `big.Float.Parse(value, 10)` accepts: a decimal number, an exponent, `Inf`."""
    if value.lstrip("+-") in ("Inf", "inf"):
        return True
    return re.fullmatch(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", value) is not None


def _conversion_problem(val: Val, want: str) -> str | None:
    """Why `val` cannot convert to primitive type `want` (cty's phrase), or None when it can or
    may. Unknown strings may hold anything; null is left to other rules."""
    kind = type_kind(val.type)
    if kind == "dynamic" or kind == want or val.value is None:
        return None
    if kind in _PRIMITIVES:
        if want == "string":
            return None  # numbers and bools convert to strings
        if kind == "string":
            if not val.known:
                return None
            text = val.value
            if want == "number":
                return None if _is_number_text(text) else "a number is required"  # type: ignore[arg-type]
            return None if text in ("true", "false", "1", "0") else "a bool is required"
        return f"{want} required"  # number <-> bool
    return f"{want} required"


@lru_cache(maxsize=1024)
def _parameter_type(name: str, index: int) -> str | None:
    """The type of parameter `index` of built-in function `name` (HCL type syntax), when every
    engine that has the function agrees on it and it is not `any`; else None (nothing to check).
    Cached: a generated file calls the same functions thousands of times."""
    seen: set[str] = set()
    for engine in functions.ENGINES:
        fn = functions.lookup(name, engine)
        if fn is None:
            continue
        p = functions.parameter_at(fn, index)
        seen.add(p.type if p is not None else "")
    if len(seen) != 1:
        return None
    only = seen.pop()
    return only if only and only != "any" else None


def _argument_problem(val: Val, want: str) -> str | None:
    """Why argument `val` cannot convert to parameter type `want` (HCL type syntax): cty's phrase
    for a primitive (`_conversion_problem`), `conversion.conversion_problem`'s for a collection
    (`join(",", "a")`: its list of strings)."""
    if want in _PRIMITIVES:
        return _conversion_problem(val, want)
    return conversion_problem(val, _type_of_text(want))


def _parameter_name(name: str, index: int) -> str:
    fn = functions.lookup(name, None)
    p = functions.parameter_at(fn, index) if fn is not None else None
    return p.name if p is not None else ""


def _return_value(name: str) -> Val:
    types = {fn.return_type for e in functions.ENGINES if (fn := functions.lookup(name, e)) is not None}
    if len(types) == 1:
        only = types.pop()
        if only in _PRIMITIVES:
            return Val(only)
    return DYNAMIC


#: The conversion to a set, whose value is known when its argument is (`_known_set`).
_TOSET = frozenset({"toset", "core::toset"})


def _known_set(arg: Val) -> Val:
    """`toset(arg)` of a wholly known tuple: a known set of its elements, of their unified type
    (`conversion.unify`: `toset([1, "a"])` is a set of strings); anything else `DYNAMIC`. (What
    `for_each` reads: a known set must be of strings.)"""
    if type_kind(arg.type) != "tuple" or not wholly_known(arg):
        return DYNAMIC
    element: object | None = "dynamic"
    for t in arg.type[1]:  # type: ignore[index]
        element = unify(element, t) if element != "dynamic" else t
        if element is None:
            return DYNAMIC
    return Val(["set", element], arg.value)


def _arity_ok(name: str, count: int) -> bool:
    found = [fn for e in functions.ENGINES if (fn := functions.lookup(name, e)) is not None]
    return bool(found) and all(functions.accepts(fn, count) for fn in found)


# ---- evaluation -------------------------------------------------------------------------------


def _non_empty(val: Val) -> bool:
    """A known tuple or object with at least one element."""
    return type(val.value) in (tuple, dict) and len(val.value) > 0  # type: ignore[arg-type]


def _start_range(node) -> tuple[int, int]:
    """HCL's `StartRange` of an expression: where a function argument error points."""
    t = type(node)
    if t is Tuple or t is Object:
        return node.start, node.start + 1
    if t is TemplateExpr:
        parts = node.parts
        if parts:
            return parts[0].start, parts[0].end
        return node.start, node.end
    if t is String:
        return (node.start + 1, node.end - 1) if node.end - node.start > 2 else (node.start, node.end)
    if t is FunctionCall:
        return node.name_span[0], node.open_span[1]
    if t is Parens:
        return node.start, node.start + 1
    if t is Conditional:  # (Terraform 1.11.4: `upper(var.b ? [1] : [2])` on `var.b`)
        return _start_range(node.condition)
    return node.start, node.end


_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "<", ">", "<=", ">="})
_COMPARISON = frozenset({"<", ">", "<=", ">="})
_LOGICAL = frozenset({"&&", "||"})
_SUPPRESSING = frozenset({"try", "can", "core::try", "core::can"})


class _Evaluator:
    __slots__ = ("out",)

    def __init__(self) -> None:
        self.out: list[Diagnostic] = []

    def problem(self, span: tuple[int, int], code: str, problem: Problem) -> None:
        self.out.append(Diagnostic(span[0], span[1], ERROR, code, problem[0], problem[1]))

    def template(self, parts) -> None:
        """A template's parts: one interpolation alone is its value (HCL's wrap: not converted);
        any other template is a string, each interpolation's value converted into it."""
        if len(parts) == 1 and type(parts[0]) is Interpolation:
            self.value(parts[0].expr)
        else:
            self.parts(parts, True)

    def parts(self, parts, convert: bool = False) -> None:
        for p in parts:
            t = type(p)
            if t is Interpolation:
                val = self.value(p.expr)
                if convert:
                    self.interpolated(p.expr, val)
            elif t is IfDirective:
                cond = self.value(p.condition)
                if type(cond.value) is bool:
                    self.parts(p.then_parts if cond.value else (p.else_parts or ()), convert)
            elif t is ForDirective:
                if _non_empty(self.value(p.collection)):
                    self.parts(p.body, convert)

    def interpolated(self, expr, val: Val) -> None:
        problem = interpolation_problem(val)
        if problem is not None:
            self.problem((expr.start, expr.end), INVALID_INTERPOLATION, problem)

    def value(self, node) -> Val:
        t = type(node)
        if t is Number:
            return Val("number", node.value)
        if t is String:
            return Val("string", node.value)
        if t is Bool:
            return Val("bool", node.value)
        if t is Null:
            return Val("dynamic", None)
        if t is Parens:
            return self.value(node.expr)
        if t is TemplateExpr:
            self.template(node.parts)
            return _STRING
        if t is Traversal:
            return self.steps(DYNAMIC, node.steps)
        if t is RelativeTraversal:
            return self.steps(self.value(node.source), node.steps)
        if t is Index:
            collection = self.value(node.collection)
            key = self.value(node.key)
            got, problem = get_index(collection, key)
            if problem is not None:
                self.problem(node.bracket_span, INVALID_INDEX, problem)
            return got
        if t is Tuple:
            items = tuple(self.value(i) for i in node.items)
            return Val(["tuple", [i.type for i in items]], items)
        if t is Object:
            return self.object(node)
        if t is FunctionCall:
            return self.call(node)
        if t is Binary:
            return self.binary(node)
        if t is Unary:
            operand = self.value(node.operand)
            want = "number" if node.op == "-" else "bool"
            why = _conversion_problem(operand, want)
            if why is not None:
                self.problem((node.operand.start, node.operand.end), INVALID_OPERAND,
                             ("Invalid operand", f"Unsuitable value for unary operand: {why}."))
                return Val(want)
            v = operand.value
            if node.op == "-" and isinstance(v, (int, float)) and not isinstance(v, bool):
                return Val("number", -v)  # `[1, 2][-1]`: a known negative index
            return Val(want)
        if t is Conditional:
            return self.conditional(node)
        if t is ForExpr:
            # The body is evaluated per element: over a known non-empty collection, without a
            # condition (the element is an unknown here, so a condition's value is too), once.
            if _non_empty(self.value(node.collection)) and node.condition is None:
                if node.key is not None:
                    self.value(node.key)
                self.value(node.value)
            return DYNAMIC
        return DYNAMIC  # splats, invalid pieces, anything else

    def conditional(self, node: Conditional) -> Val:
        """HCL's conditional: both results evaluated and their types unified (an error whatever the
        condition, on the results' span, as HCL); the errors of the result a known condition takes
        (none when it is not known); the value of that result, else an unknown of the unified type."""
        cond = self.value(node.condition)
        c = cond.value
        if type(c) is str and c in ("true", "false", "1", "0"):
            c = c in ("true", "1")
        before = len(self.out)
        true = self.value(node.true_result)
        taken = len(self.out)
        false = self.value(node.false_result)
        if type(c) is not bool:
            del self.out[before:]
        elif c:
            del self.out[taken:]
        else:
            del self.out[before:taken]
        if true.value is None or false.value is None:  # a null converts to the other's type
            return DYNAMIC
        unified = unify(true.type, false.type)
        if unified is None:
            self.problem((node.true_result.start, node.false_result.end), INCONSISTENT_CONDITIONAL, (
                "Inconsistent conditional result types",
                f"The true and false results must have one type, but the true result is {_described(true.type)} "
                f"and the false result is {_described(false.type)}."))
            return DYNAMIC
        chosen = (true if c else false) if type(c) is bool else None
        if chosen is not None and chosen.type == unified:
            return chosen
        return DYNAMIC if unified == "dynamic" else Val(unified)

    def steps(self, val: Val, steps) -> Val:
        for s in steps:
            if type(s) is Attr:
                val, problem = get_attr(val, s.name)
                code = UNSUPPORTED_ATTRIBUTE
            else:
                val, problem = get_index(val, self.value(s.key))
                code = INVALID_INDEX
            if problem is not None:
                self.problem((s.start, s.end), code, problem)
                return DYNAMIC
        return val

    def object(self, node: Object) -> Val:
        attrs: dict[str, Val] = {}
        literal = True
        for item in node.items:
            k: Any = item.key  # (dispatched on its exact type)
            tk = type(k)
            if tk is Traversal and not k.steps:
                name = k.root
            elif tk is String:
                name = k.value
            else:
                self.value(k)
                literal = False
                name = None
            v = self.value(item.value)
            if name is not None:
                if name in attrs:
                    literal = False
                attrs[name] = v
        if not literal:
            return DYNAMIC
        return Val(["object", {n: v.type for n, v in attrs.items()}], attrs)

    def call(self, node: FunctionCall) -> Val:
        name = node.name
        if name in _SUPPRESSING:
            return Val("bool") if name.endswith("can") else DYNAMIC
        before = len(self.out)
        args = [self.value(a) for a in node.args]
        if len(self.out) > before:
            return DYNAMIC  # HCL calls nothing when an argument has errors
        if node.expand_final or functions.is_provider_function(name) or not _arity_ok(name, len(args)):
            return DYNAMIC
        for i, (arg, val) in enumerate(zip(node.args, args)):
            want = _parameter_type(name, i)
            if want is None:
                continue
            why = _argument_problem(val, want)
            if why is not None:
                self.problem(_start_range(arg), INVALID_ARGUMENT, (
                    "Invalid function argument", f'Invalid value for "{_parameter_name(name, i)}" parameter: {why}.'))
                return DYNAMIC
        found = type_problem(name, args)
        if found is not None:
            where, detail = found
            if where is None:
                self.problem(_start_range(node), INVALID_ARGUMENT, (
                    "Error in function call", f'Call to function "{name}" failed: {detail}.'))
            else:
                self.problem(_start_range(node.args[where]), INVALID_ARGUMENT, (
                    "Invalid function argument", f'Invalid value for "{_parameter_name(name, where)}" parameter: {detail}.'))
            return DYNAMIC
        if name in _TOSET and len(args) == 1:
            return _known_set(args[0])
        return _return_value(name)

    def binary(self, node: Binary) -> Val:
        lhs = self.value(node.lhs)
        rhs = self.value(node.rhs)
        op = node.op
        if op in _ARITHMETIC:
            want = "number"
        elif op in _LOGICAL:
            want = "bool"
        else:
            return _BOOL  # == and !=
        for side, operand, val in (("left", node.lhs, lhs), ("right", node.rhs, rhs)):
            why = _conversion_problem(val, want)
            if why is not None:
                self.problem((operand.start, operand.end), INVALID_OPERAND,
                             ("Invalid operand", f"Unsuitable value for {side} operand: {why}."))
        return _BOOL if op in _COMPARISON or op in _LOGICAL else _NUMBER


def interpolation_problem(val: Val) -> Problem | None:
    """HCL's check of a value interpolated into a string among other parts: not null, and (when
    known) a string, a number or a bool. An unknown value is not checked, whatever its type
    (Terraform 1.11.4: `"x-${var.names}"` with a `list(string)` is valid at validate)."""
    if val.value is None:
        return ("Invalid template interpolation value",
                "The expression result is null. Cannot include a null value in a string template.")
    if val.known and type_kind(val.type) not in _PRIMITIVES and val.type != "dynamic":
        return ("Invalid template interpolation value",
                f"Cannot include the given value in a string template: a string is required, but this is {_described(val.type)}.")
    return None


def text_interpolations(tree) -> list:
    """The traversals a template interpolates alone among its other parts (`"x-${local.a}"`, not
    `"${local.a}"`, whose value is the template's own): each value is converted to a string there
    (`interpolation_problem`). Only the template's own parts: a directive's are evaluated on a
    condition or per element. The reference walk marks their references (`IN_TEXT`)."""
    parts = tree.parts if type(tree) is Template else ()
    if len(parts) == 1:
        return []
    return [p.expr for p in parts if type(p) is Interpolation and type(p.expr) is Traversal]


def _described(t: object) -> str:
    """A type for a message: in words, an object or tuple type as written (`object({a = string})`)."""
    if type(t) is list and t[0] in ("object", "tuple") and is_type(t):
        return render_type(t)
    return a_type(t)


def constant_problems(tree) -> tuple[Diagnostic, ...]:
    """The errors of template `tree` (a `Template` or an expression without parse errors) that
    follow from its constants and the types of its operations alone: every reference is an unknown
    value of unknown type. Positions are the tree's."""
    ev = _Evaluator()
    if type(tree) is Template:
        ev.template(tree.parts)
    else:
        ev.value(tree)
    return tuple(ev.out)


def expression_value(expr) -> Val | None:
    """The value of expression `expr` (no parse errors) with every reference an unknown of unknown
    type, or None when evaluating it finds an error (`constant_problems` reports those)."""
    ev = _Evaluator()
    val = ev.value(expr)
    return None if ev.out else val


def steps_value(val: Val, steps) -> Val:
    """Template steps (`Attr`, index steps) applied to `val`; `DYNAMIC` once one is an error (the
    reference's own check reports it)."""
    return _Evaluator().steps(val, steps)


#: The references `typed_problems` asks about: input variables and local values.
_KNOWN_ROOTS = frozenset({"var", "local"})
#: An interpolation that does more than name something: a call, an operator, a conditional, an
#: index that is no whole number, up to its first `}` (a `-` inside a name is none; the text
#: around interpolations is not looked at: `"a-${var.x}"` is none).
_OPERATION = re.compile(r"\$\{[^}]*?(?:[(+*/%<>!&|?]|\[[^\]0-9]|-(?![\w-]))")


@lru_cache(maxsize=16384)
def typed_candidate(value: str) -> bool:
    """Whether template string `value` (decoded) may have errors that the types of the input
    variables or the values of the local values it reads decide (`typed_problems`): it reads one
    (`var.`, `local.`) and one of its interpolations does more than name something (`_OPERATION`). The steps of a variable
    reference alone are checked where the reference is resolved. Cached by content: a generated
    file repeats its templates (one of 60 characters in each of 5,750 resources of the benchmark's
    document: 1.4% of the open's instructions without the cache)."""
    return ("var." in value or "local." in value) and _OPERATION.search(value) is not None


class _Typed(_Evaluator):
    """`_Evaluator` with each input variable `var.NAME` and local value `local.NAME` the value
    `known(root, NAME)` gives. The errors of such a reference's own steps are left out: its
    resolution reports them, and so those of the template's `text_interpolations` (`IN_TEXT`)."""

    __slots__ = ("known", "by_reference")

    def __init__(self, known, by_reference: tuple = ()) -> None:
        super().__init__()
        self.known = known
        self.by_reference = by_reference

    def interpolated(self, expr, val: Val) -> None:
        if not any(expr is e for e in self.by_reference):
            super().interpolated(expr, val)

    def value(self, node) -> Val:
        t = type(node)
        if t is Traversal and node.root in _KNOWN_ROOTS and node.steps and type(node.steps[0]) is Attr:
            return _Evaluator().steps(self.known(node.root, node.steps[0].name), node.steps[1:])
        if t is ForExpr and _binds_var(node):
            return DYNAMIC  # `var` bound by the `for`: not the input variables
        return super().value(node)

    def parts(self, parts, convert: bool = False) -> None:
        super().parts([p for p in parts if type(p) is not ForDirective or not _binds_var(p)], convert)


def _binds_var(node) -> bool:
    """Whether a `for` expression or directive names one of its variables `var`."""
    return node.value_var.name == "var" or (node.key_var is not None and node.key_var.name == "var")


def typed_value(expr, known) -> Val | None:
    """The value of expression `expr` (no parse errors) with each input variable and local value the
    value `known(root, name)` gives (as `typed_problems`), or None when evaluating it finds an error."""
    ev = _Typed(known)
    val = ev.value(expr)
    return None if ev.out else val


def typed_problems(tree, known) -> tuple[Diagnostic, ...]:
    """The errors of template `tree` (no parse errors) that follow once each input variable and
    local value is the value `known(root, name)` gives (`root` "var" or "local": an unknown of a
    variable's type, a local's literal value): those `constant_problems` does not find already.
    Positions are the tree's."""
    ev = _Typed(known, tuple(text_interpolations(tree)))
    if type(tree) is Template:
        ev.template(tree.parts)
    else:
        ev.value(tree)
    if not ev.out:
        return ()
    known = {(d.start, d.end, d.code) for d in constant_problems(tree)}
    return tuple(d for d in ev.out if (d.start, d.end, d.code) not in known)
