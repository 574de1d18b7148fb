"""Type constraints, in-progress input (cursor context) and semantic tokens."""

from __future__ import annotations

import pytest
from tpl_support import doc

from hcljson_ls.template import TOKEN_MODIFIERS, TOKEN_TYPES, classify, context_at, parse_template, parse_type
from hcljson_ls.template.types import CollectionType, ObjectType, PrimitiveType, TupleType

# ------------------------------------------------------------------------------------------
# types


def ptype(src):
    f = doc(src)
    return f, parse_type(f.value, f.offsets)


@pytest.mark.parametrize("src,check", [
    ("⟨string⟩", lambda t: isinstance(t, PrimitiveType) and t.name == "string"),
    ("⟨list(number)⟩", lambda t: isinstance(t, CollectionType) and t.element.name == "number"),
    ("⟨set(any)⟩", lambda t: t.kind == "set"),
    ("⟨map(list(bool))⟩", lambda t: t.element.kind == "list"),
    ("⟨list⟩", lambda t: t.kind == "list" and t.element is None),
    ("⟨tuple([string, number,])⟩", lambda t: isinstance(t, TupleType) and len(t.elements) == 2),
    ("⟨object({ name = string, port = optional(number, 80) })⟩",
     lambda t: isinstance(t, ObjectType) and [a.optional for a in t.attributes] == [False, True]
     and t.attributes[1].default.text == "80"),
    ("⟨object({\\n  a = string\\n  b = optional(map(string), {})\\n})⟩", lambda t: len(t.attributes) == 2),
    ("⟨map(object({ tags = optional(list(string), [\\\"a\\\"]) }))⟩", lambda t: t.element.attributes[0].optional),
    ("⟨\\u006cist(string)⟩", lambda t: t.kind == "list"),
])
def test_types(src, check):
    f, r = ptype(src)
    assert r.diagnostics == ()
    assert (r.tree.start, r.tree.end) == f.ranges[0]
    assert check(r.tree)


def test_type_attribute_ranges_through_escapes():
    f, r = ptype("object({ ⟨n\\u0061me⟩ = ⟨string⟩ })")
    a = r.tree.attributes[0]
    assert a.name == "name" and (a.start, a.name_end) == f.ranges[0] and (a.type.start, a.type.end) == f.ranges[1]


@pytest.mark.parametrize("src,detail", [
    ("⟨strin⟩", 'The keyword "strin" is not a valid type specification. Did you mean "string"?'),
    ("list(string, ⟨number⟩)", "The list type constructor requires one argument specifying the element type."),
    ("⟨optional⟩(string)", 'Keyword "optional" is valid only as a modifier for object type attributes.'),
    ("string⟨(⟩x)", 'Primitive type keyword "string" does not expect arguments.'),
    ("⟨foo(bar)⟩", 'Keyword "foo" is not a valid type constructor.'),  # the whole, as Terraform: no call of a type
    ("list(⟨foo⟩(bar))", 'Keyword "foo" is not a valid type constructor.'),
    ("⟨[string]⟩", "A type specification is either a primitive type keyword (bool, number, string) or a complex "
                   "type constructor call, like list(string)."),
    ("⟨set⟩", "The set type constructor requires one argument specifying the element type."),
    ("tuple(⟨string⟩)", "Tuple type constructor requires a list of element types."),
    ("object({ a = optional(string, \\\"x\\\", ⟨\\\"⟩y\\\") })",
     "Optional attribute modifier expects at most two arguments: the attribute type, and a default value."),
    ("object({ ⟨\\\"a\\\"⟩ = string })", None),
    ("string ⟨string⟩", None),
])
def test_type_errors(src, detail):
    f, r = ptype(src)
    assert len(r.diagnostics) == 1, r.diagnostics
    d = r.diagnostics[0]
    assert (d.start, d.end) == f.ranges[0]
    assert d.code.startswith("type/") and d.summary == "Invalid type specification"
    if detail is not None:
        assert d.detail == detail


def test_error_in_default_value_uses_template_messages():
    f, r = ptype("object({ a = optional(list(string), [1, ⟨)⟩) })")
    assert [(d.code, d.start, d.end) for d in r.diagnostics] == [("template/invalid-expression", *f.ranges[0])]


# ------------------------------------------------------------------------------------------
# cursor context


def ctx(src):
    f = doc(src)
    return f, context_at(f.value, f.offsets, f.cursor)


def test_literal_text():
    _, c = ctx("plain $0text ${a}")
    assert c.kind == "literal"
    _, c = ctx("${a} af$0ter")
    assert c.kind == "literal"


def test_traversal_after_dot():
    f, c = ctx("x ${⟨var⟩.$0")
    assert (c.kind, c.root, c.steps, c.prefix) == ("traversal", "var", (), "")
    assert c.root_span == f.ranges[0]


def test_traversal_with_steps_and_prefix():
    f, c = ctx("${aws_instance.web[0].⟨pr$0⟩ivate_ip}")
    assert (c.kind, c.root, c.steps, c.prefix) == ("traversal", "aws_instance", ("web", 0), "pr")
    assert c.prefix_span == f.ranges[0] == (f.ranges[0][0], f.cursor)
    assert c.word_span[0] == f.ranges[0][0] and f.slice(*c.word_span) == "private_ip"


def test_traversal_through_escapes():
    f, c = ctx("\\u0024{⟨v\\u0061r⟩.na$0")
    assert (c.kind, c.root, c.prefix) == ("traversal", "var", "na") and c.root_span == f.ranges[0]


def test_identifier_prefix():
    f, c = ctx("${⟨upp$0⟩")
    assert (c.kind, c.prefix) == ("identifier", "upp") and c.word_span == f.ranges[0]


def test_namespaced_function_prefix():
    _, c = ctx("${provider::aws::ar$0")
    assert (c.kind, c.namespace, c.prefix) == ("identifier", ("provider", "aws"), "ar")


def test_call_argument_index():
    f, c = ctx('${⟨lookup⟩(var.m, $0')
    assert c.kind == "expression" and c.call.name == "lookup" and c.call.arg_index == 1
    assert c.call.name_span == f.ranges[0]
    _, c = ctx('${lookup(var.m, [1, 2], va$0')
    assert (c.kind, c.prefix, c.call.arg_index) == ("identifier", "va", 2)
    _, c = ctx('${f(g(1, $0')
    assert (c.call.name, c.call.arg_index) == ("g", 1)


def test_expression_slots_and_others():
    assert ctx("${$0")[1].kind == "expression"
    assert ctx("${a + $0")[1].kind == "expression"
    assert ctx("${a ? $0")[1].kind == "expression"
    assert ctx("${12$0")[1].kind == "other"
    assert ctx('${"ab$0')[1].kind == "string"
    assert ctx("%{ $0")[1].kind == "directive"
    assert ctx("%{ end$0")[1].prefix == "end"


def test_cursor_in_a_complete_template():
    _, c = ctx("${var.na$0me} and more")
    assert (c.kind, c.root, c.prefix) == ("traversal", "var", "na")


# ------------------------------------------------------------------------------------------
# semantic tokens


def tokens(src):
    f = doc(src)
    r = parse_template(f.value, f.offsets)
    return f, [(f.slice(s, e), t, m) for s, e, t, m in classify(r.tree)]


def test_semantic_tokens_of_a_template():
    f, toks = tokens('a ${upper(var.x) == \\"b\\" ? 1 : local.m[\\"k\\"]} %{ if c }x%{ endif }')
    assert toks == [
        ("${", "macro", ()), ("upper", "function", ()), ("var", "variable", ()), ("x", "property", ()),
        ("==", "operator", ()), ('\\"b\\"', "string", ()), ("?", "operator", ()), ("1", "number", ()),
        (":", "operator", ()), ("local", "variable", ()), ("m", "property", ()), ('\\"k\\"', "string", ()),
        ("}", "macro", ()), ("%{", "macro", ()), ("if", "keyword", ()), ("c", "variable", ()), ("}", "macro", ()),
        ("%{", "macro", ()), ("endif", "keyword", ()), ("}", "macro", ()),
    ]


def test_semantic_tokens_for_expressions_and_escapes():
    _, toks = tokens("\\u0024{[for k, v in var.m : k if v]}")
    assert toks[0] == ("\\u0024{", "macro", ())
    assert ("for", "keyword", ()) in toks and ("in", "keyword", ()) in toks and ("if", "keyword", ()) in toks
    assert ("k", "parameter", ("declaration",)) in toks and ("k", "parameter", ()) in toks
    assert ("var", "variable", ()) in toks


def test_semantic_tokens_namespace_and_object_keys():
    _, toks = tokens("${provider::aws::arn_parse({ a = true }...)}")
    assert toks[1:4] == [("provider", "namespace", ()), ("aws", "namespace", ()), ("arn_parse", "function", ())]
    assert ("a", "property", ("declaration",)) in toks and ("true", "keyword", ()) in toks
    assert ("...", "operator", ()) in toks


def test_semantic_tokens_of_types():
    f = doc("map(object({ a = optional(string, 1) }))")
    r = parse_type(f.value, f.offsets)
    got = [(f.slice(s, e), t) for s, e, t, _ in classify(r.tree)]
    assert got == [("map", "type"), ("object", "type"), ("a", "property"), ("optional", "keyword"),
                   ("string", "type"), ("1", "number")]


def test_semantic_tokens_are_sorted_disjoint_and_in_legend():
    f = doc('${a.*.b} ${x[*].y[0]} ${-1 + !t} ${\\"q${z}\\"} %{ for i in l }${i}%{ endfor }')
    r = parse_template(f.value, f.offsets)
    toks = classify(r.tree)
    for (_s1, e1, *_), (s2, _e2, *_) in zip(toks, toks[1:]):
        assert e1 <= s2
    for s, e, t, mods in toks:
        assert t in TOKEN_TYPES and set(mods) <= set(TOKEN_MODIFIERS) and s < e


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = list('${}%~ab.,()[]":?!=<*+-1 \n') + ["for ", "in ", "if ", "endif", "string", "list", "object", "optional",
                                               "::", "...", "=>"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.integers(0, 100))
def test_never_raises_on_partial_input(pieces, where):
    s = "".join(pieces)
    offs = range(5, 6 + len(s))
    c = context_at(s, offs, 5 + where % (len(s) + 1))
    assert c.kind in ("literal", "string", "traversal", "identifier", "expression", "directive", "other")
    r = parse_type(s, offs)
    for start, end, t, _ in classify(r.tree):
        assert 5 <= start < end <= 5 + len(s) and t in TOKEN_TYPES
