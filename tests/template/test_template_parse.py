"""Templates and expressions: constructs, exact ranges through escapes, diagnostics, fast paths."""

from __future__ import annotations

import json

import pytest
import shared_data
from hypothesis import given, settings
from hypothesis import strategies as st
from tpl_support import doc

from hcljson_ls.template import nodes as N
from hcljson_ls.template import parse_expression, parse_template, template_diagnostics, unwrap, walk
from hcljson_ls.template.parse import _fast_template, _slow_template, parse_template_relative

CORPUS = shared_data.REAL_CORPUS


def parse(src: str):
    f = doc(src)
    return f, parse_template(f.value, f.offsets)


def first(tree, cls, pred=lambda n: True):
    for n in walk(tree):
        if isinstance(n, cls) and pred(n):
            return n
    raise AssertionError(f"no {cls.__name__} in {tree}")


# ------------------------------------------------------------------------------------------
# constructs: the marked range is the range of the first node of the given class

CONSTRUCTS = [
    # literals
    ("x ${⟨42⟩}", N.Number, None),
    ("${⟨1.5e+3⟩}", N.Number, None),
    ("${⟨true⟩} ${false}", N.Bool, None),
    ("${⟨null⟩}", N.Null, None),
    ("${⟨[1, \\\"a\\\", null]⟩}", N.Tuple, None),
    ("${⟨[]⟩}", N.Tuple, None),
    ("${⟨{ a = 1, \\\"b\\\" : 2 }⟩}", N.Object, None),
    ("${⟨{\\n  a = 1\\n  b = 2,\\n}⟩}", N.Object, None),
    ("${{ ⟨a = 1⟩ }}", N.ObjectItem, None),
    # traversals
    ("${⟨var.name⟩}", N.Traversal, None),
    ("${⟨var.list[0].x⟩}", N.Traversal, None),
    ("${⟨aws_instance.web.0.id⟩}", N.Traversal, None),
    ("${var⟨.name⟩}", N.Attr, None),
    ("${var.l⟨[0]⟩}", N.IndexStep, None),
    ("${var.l⟨.0⟩}", N.IndexStep, None),
    ("${⟨var.m[var.k]⟩}", N.Index, None),
    ("${⟨f(x).a⟩}", N.RelativeTraversal, None),
    # splats
    ("${⟨aws_instance.web.*.id⟩}", N.Splat, None),
    ("${⟨aws_instance.web[*].id⟩}", N.Splat, None),
    ("${aws_instance.web⟨[*]⟩.id}", N.SplatItem, None),
    # function calls
    ("${⟨upper(var.x)⟩}", N.FunctionCall, None),
    ("${⟨concat(var.a, var.b...)⟩}", N.FunctionCall, lambda n: n.expand_final),
    ("${⟨provider::aws::arn_parse(x)⟩}", N.FunctionCall, lambda n: n.name == "provider::aws::arn_parse"),
    ("${⟨core::upper(x)⟩}", N.FunctionCall, lambda n: n.namespace == ("core",)),
    ("${⟨f()⟩}", N.FunctionCall, lambda n: n.args == ()),
    ("${⟨f(1,)⟩}", N.FunctionCall, lambda n: len(n.args) == 1),
    # for expressions
    ("${⟨[for k, v in x : v if v != null]⟩}", N.ForExpr, lambda n: not n.is_object and n.key_var.name == "k"),
    ("${⟨{for k, v in x : k => v...}⟩}", N.ForExpr, lambda n: n.is_object and n.group_span is not None),
    ("${⟨{\\nfor s in var.l : s => upper(s)\\n}⟩}", N.ForExpr, lambda n: n.is_object),
    # operators
    ("${⟨!a⟩}", N.Unary, lambda n: n.op == "!"),
    ("${⟨-a.b⟩}", N.Unary, lambda n: isinstance(n.operand, N.Traversal)),
    ("${⟨a || b && c⟩}", N.Binary, lambda n: n.op == "||" and n.rhs.op == "&&"),
    ("${⟨1 + 2 * 3 - 4⟩}", N.Binary, lambda n: n.op == "-" and n.lhs.op == "+" and n.lhs.rhs.op == "*"),
    ("${⟨a == b < c⟩}", N.Binary, lambda n: n.op == "==" and n.rhs.op == "<"),
    ("${⟨a >= 1 && b <= 2 || c % 2 != 0⟩}", N.Binary, lambda n: n.op == "||"),
    ("${⟨a ? b : c ? d : e⟩}", N.Conditional, lambda n: isinstance(n.false_result, N.Conditional)),
    ("${⟨(a + b)⟩ * c}", N.Parens, None),
    # nested quoted templates
    ("${⟨\\\"${a}-x\\\"⟩}", N.TemplateExpr, None),
    ("${f(⟨\\\"plain\\\"⟩)}", N.String, lambda n: n.value == "plain"),
    ("${\\\"a⟨${b}⟩c\\\"}", N.Interpolation, lambda n: n.start > 20),
    ("${\\\"⟨%{ if a }x%{ endif }⟩\\\"}", N.IfDirective, None),
    # template level
    ("⟨a ⟩${b}", N.Literal, lambda n: n.value == "a "),
    ("⟨$${b}⟩", N.Literal, lambda n: n.value == "${b}"),
    ("⟨%%{b}⟩", N.Literal, lambda n: n.value == "%{b}"),
    ("x ⟨${~ a ~}⟩ y", N.Interpolation, lambda n: n.strip_left and n.strip_right),
    ("⟨%{ if a }x%{ else }y%{ endif }⟩", N.IfDirective, lambda n: n.else_parts is not None),
    ("⟨%{~ for k, v in m ~}${k}=${v}%{~ endfor ~}⟩", N.ForDirective, lambda n: n.key_var.name == "k"),
    ("%{ if a }⟨%{ else }⟩%{ endif }", N.Marker, lambda n: n.keyword == "else"),
]


@pytest.mark.parametrize("src,cls,pred", CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS])
def test_construct_ranges(src, cls, pred):
    f, r = parse(src)
    assert r.diagnostics == (), r.diagnostics
    node = first(r.tree, cls, pred or (lambda n: True))
    assert (node.start, node.end) == f.ranges[0], (f.slice(node.start, node.end), f.slice(*f.ranges[0]))


def test_whole_template_range_and_every_node_inside():
    f, r = parse("pre \\u0024{f(\\\"\\u00e9\\\", [for x in y : x...])} é ${a.b} 😀")
    assert (r.tree.start, r.tree.end) == (f.content_start, f.content_end)
    for n in walk(r.tree):
        assert f.content_start <= n.start <= n.end <= f.content_end
        for c in N.children(n):
            assert n.start <= c.start <= c.end <= n.end, (n, c)


ESCAPED_RANGES = [
    # `\u0024{` is `${`: the interpolation starts at the backslash, the open span covers both
    ("⟨\\u0024{a}⟩", N.Interpolation),
    # the traversal ends after the whole escape of its last character
    ("${⟨var.na\\u006De⟩}", N.Traversal),
    ("${⟨\\\"a\\\\\\\\b\\\"⟩}", N.String),
    ("ééé ${⟨local.é⟩}", N.Traversal),
    ("\\ud83d\\ude00${⟨x.y⟩}", N.Traversal),
    ("😀 ${x⟨.y⟩}", N.Attr),
]


@pytest.mark.parametrize("src,cls", ESCAPED_RANGES, ids=[c[0] for c in ESCAPED_RANGES])
def test_ranges_through_escapes(src, cls):
    f, r = parse(src)
    assert r.diagnostics == ()
    node = first(r.tree, cls)
    assert (node.start, node.end) == f.ranges[0]


def test_open_and_close_spans_are_source_exact():
    f, r = parse("\\u0024{a\\u007D")
    interp = r.tree.parts[0]
    assert f.slice(*interp.open_span) == "\\u0024{"
    assert f.slice(*interp.close_span) == "\\u007D"


def test_string_value_is_decoded_twice():
    # JSON `\\\"` -> template `\"` -> HCL string containing `"`
    f, r = parse('${\\"a\\\\\\"b\\"}')
    s = first(r.tree, N.String)
    assert s.value == 'a"b'


# ------------------------------------------------------------------------------------------
# diagnostics: each marked range is one diagnostic, in order, with the given summaries

ERRORS = [
    ("${var.⟨}⟩", ["Invalid attribute name"]),
    ('${lookup(var.m, \\"k\\"⟨}⟩', ["Unterminated function call"]),
    ("${⟨}⟩", ["Invalid expression"]),
    ("x ⟨${⟩a", ["Unclosed template interpolation sequence"]),
    ("${a ⟨b⟩}", ["Extra characters after interpolation expression"]),
    ("${a⟨:⟩b}", ["Extra characters after interpolation expression"]),
    ("⟨%{ endif }⟩", ["Unexpected endif directive"]),
    ("⟨%{ if a }⟩x", ["Missing endif directive"]),
    ("⟨%{ for x in y }⟩", ["Missing endfor directive"]),
    ("%{ for x in y }⟨%{ else }⟩%{ endfor }", ["Unexpected else directive"]),
    ("%{ if a }%{ else }⟨%{ else }⟩%{ endif }", ["Unexpected else directive"]),
    ("%{ ⟨iff⟩ a }", ["Invalid template control keyword"]),
    ("${a.⟨0.1⟩}", ["Invalid legacy index syntax"]),
    ("${f(a ⟨b⟩)}", ["Missing argument separator"]),
    ("${f(a⟨...⟩, b)}", ["Missing closing parenthesis"]),
    ("${(a ⟨b⟩)}", ["Unbalanced parentheses"]),
    ("${[a ⟨b⟩]}", ["Missing item separator"]),
    ("${{a ⟨b⟩}}", ["Missing key/value separator"]),
    ("${{a = 1 ⟨b⟩ = 2}}", ["Missing attribute separator"]),
    ("⟨${⟩{a = 1}", ["Unclosed template interpolation sequence"]),
    ("${{a = 1⟨]⟩}}", ["Unterminated object constructor expression"]),
    ("${a ? b ⟨}⟩", ["Missing false expression in conditional"]),
    ("${[for ⟨1⟩ in x : 1]}", ["Invalid 'for' expression"]),
    ("${[for x ⟨on⟩ y : x]}", ["Invalid 'for' expression"]),
    ("${[for k, v in x : ⟨k⟩ => v]}", ["Invalid 'for' expression"]),
    ("${{for v in x : ⟨v⟩}}", ["Invalid 'for' expression"]),
    ("${a ⟨&⟩ b}", ["Unsupported operator"]),
    ("${a ⟨@⟩}", ["Invalid character"]),
    ('${\\"a⟨\\\\q⟩\\"}', ["Invalid escape sequence"]),
    ('${⟨\\"abc}⟩', ["Unterminated template string"]),
    # more than one per string: each sequence is parsed on its own
    ("${var.⟨}⟩ and ${⟨}⟩ and ${ok}", ["Invalid attribute name", "Invalid expression"]),
    ("${f(⟨,⟩)} %{ ⟨iff⟩ } ⟨%{ endif }⟩", ["Invalid expression", "Invalid template control keyword",
                                          "Unexpected endif directive"]),
    # ranges through escapes
    ("\\u0024{var.⟨\\u007D⟩", ["Invalid attribute name"]),
    ("é ⟨\\u0024{⟩a", ["Unclosed template interpolation sequence"]),
]


@pytest.mark.parametrize("src,summaries", ERRORS, ids=[e[0] for e in ERRORS])
def test_diagnostics(src, summaries):
    f, r = parse(src)
    got = [(d.summary, (d.start, d.end)) for d in r.diagnostics]
    assert got == list(zip(summaries, f.ranges)), (got, f.ranges)
    for d in r.diagnostics:
        assert d.code.startswith("template/") and d.severity == "error" and d.detail.endswith((".", "?", '"'))
    assert template_diagnostics(f.value, f.offsets) == r.diagnostics


def test_missing_expression_at_end_of_bare_expression():
    f = doc("aws_instance.⟨⟩")
    r = parse_expression(f.value, f.offsets)
    assert [(d.summary, d.start, d.end) for d in r.diagnostics] == [("Invalid attribute name", *f.ranges[0])]
    assert isinstance(r.tree, N.Invalid)


def test_did_you_mean_for_directive_keyword():
    _, r = parse("%{ endfr }")
    assert 'Did you mean "endfor"?' in r.diagnostics[0].detail


def test_broken_sequence_keeps_the_rest_of_the_tree():
    f, r = parse("a ${var.} b ${x.y} %{ if c }d%{ endif }")
    kinds = [type(p).__name__ for p in r.tree.parts]
    assert kinds == ["Literal", "Interpolation", "Literal", "Interpolation", "Literal", "IfDirective"]
    assert isinstance(r.tree.parts[1].expr, N.Invalid)
    assert isinstance(r.tree.parts[3].expr, N.Traversal)


# ------------------------------------------------------------------------------------------
# expressions, unwrapping


def test_parse_expression_static_traversals():
    for src, root, steps in [("aws_instance.web", "aws_instance", ["web"]), ("aws.west", "aws", ["west"]),
                             ("module.m[0].out", "module", ["m", 0, "out"])]:
        f = doc(src)
        r = parse_expression(f.value, f.offsets)
        assert r.diagnostics == ()
        assert isinstance(r.tree, N.Traversal) and r.tree.root == root
        got = [s.name if isinstance(s, N.Attr) else int(s.key.text) for s in r.tree.steps]
        assert got == steps
        assert (r.tree.start, r.tree.end) == (f.content_start, f.content_end)


def test_parse_expression_extra_characters():
    f = doc("aws_instance.web ⟨foo⟩")
    r = parse_expression(f.value, f.offsets)
    assert [(d.summary, d.start, d.end) for d in r.diagnostics] == [("Extra characters after expression", *f.ranges[0])]


def test_unwrap():
    _, r = parse("${var.count}")
    assert isinstance(unwrap(r.tree), N.Traversal)
    for src in ("x${a}", "${a}${b}", " ${a}", "plain", ""):
        _, r = parse(src)
        assert unwrap(r.tree) is r.tree
    _, r = parse("${~ a ~}")
    assert isinstance(unwrap(r.tree), N.Traversal)


def test_plain_text_and_empty():
    f, r = parse("just text, $ and % and {}")
    assert r.diagnostics == () and [type(p) for p in r.tree.parts] == [N.Literal]
    f, r = parse("")
    assert r.tree.parts == () and (r.tree.start, r.tree.end) == (f.content_start, f.content_start)


# ------------------------------------------------------------------------------------------
# fast path == full parser

FAST = [
    "${a}", "${a.b.c}", "arn:${data.aws_partition.current.partition}:rds:${var.r}:*", "${aws_instance.x[0].id}",
    "${local.eks-tokyo}", "x${é.ü}y", "${a}${b}", "${a.b[12].c}",
]


@pytest.mark.parametrize("value", FAST)
def test_fast_path_matches_full_parser(value):
    fast = _fast_template(value)
    assert fast is not None
    assert fast == _slow_template(value)[0]


@pytest.mark.parametrize("value", ["${true}", "$${a}", "${a} %{ if b }x%{ endif }", "${a.0}", "${ a }", "${a} ${b + 1}"])
def test_fast_path_declines(value):
    assert _fast_template(value) is None


ident = st.from_regex(r"[a-z_][a-z0-9_-]{0,6}", fullmatch=True).filter(lambda s: s not in ("true", "false", "null"))
step = st.one_of(ident.map(lambda s: "." + s), st.integers(0, 99).map(lambda i: f"[{i}]"))
interp = st.builds(lambda r, ss: "${" + r + "".join(ss) + "}", ident, st.lists(step, max_size=4))
text = st.text(alphabet="ab :/-*$%{}", max_size=6).filter(lambda s: "{" not in s)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(interp, text), max_size=5))
def test_fast_path_property(pieces):
    value = "".join(pieces)
    fast = _fast_template(value)
    slow = _slow_template(value)
    if fast is not None:
        assert slow[1] == ()
        assert fast == slow[0]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='${}%~ab.,()[]"\\:?!=<>*+-0123456789 \nforinifelse', max_size=30))
def test_never_raises_and_ranges_nest(value):
    offs = range(100, 100 + len(value) + 1)
    r = parse_template(value, offs)
    assert (r.tree.start, r.tree.end) == (100, 100 + len(value))
    for n in walk(r.tree):
        for c in N.children(n):
            assert n.start <= c.start <= c.end <= n.end
    for d in r.diagnostics:
        assert 100 <= d.start <= d.end <= 100 + len(value)
    parse_expression(value, offs)


def test_cache_maps_the_same_content_to_each_place():
    a = parse_template("${x.y}", range(10, 17))
    b = parse_template("${x.y}", range(50, 57))
    assert a.tree.parts[0].expr.start == 12 and b.tree.parts[0].expr.start == 52
    assert parse_template_relative.cache_info().hits > 0


# ------------------------------------------------------------------------------------------
# the real corpus


def _strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def corpus_templates() -> list[str]:
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except ValueError:
            continue  # deliberately invalid JSON files
        out.extend(s for s in _strings(data) if "${" in s)
    return out


@shared_data.requires(CORPUS)
def test_every_corpus_template_parses_without_error():
    templates = corpus_templates()
    bad = []
    for s in templates:
        r = parse_template(s, range(len(s) + 1))
        if r.diagnostics:
            bad.append((s, r.diagnostics[0].message))
    print(f"parsed {len(templates)} corpus templates ({len(set(templates))} distinct), {len(bad)} with errors")
    assert len(templates) > 1000
    assert bad == []


JSON_PIECES = ["${", "}", "\\u0024{", "\\u007D", "a", ".", "b", "\\\"", "\\\\", "é", "😀", "\\ud83d\\ude00", " ", "(",
               ")", ",", "[", "]", "%{", "if ", "endif", "\\n", "1", "+", "$${"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(JSON_PIECES), max_size=14))
def test_ranges_stay_inside_the_json_string(pieces):
    f = doc("".join(pieces).replace("⟨", "").replace("⟩", ""))
    r = parse_template(f.value, f.offsets)
    assert (r.tree.start, r.tree.end) == (f.content_start, f.content_end)
    for n in walk(r.tree):
        assert f.content_start <= n.start <= n.end <= f.content_end
    for d in r.diagnostics:
        assert f.content_start <= d.start <= d.end <= f.content_end
    # every range boundary falls on a decoded-character boundary, never inside an escape
    bounds = set(f.offsets)
    for n in walk(r.tree):
        assert n.start in bounds and n.end in bounds


def test_grammar_files_load():
    from hcljson_ls.template.grammars import grammar_text

    assert "interpolation:" in grammar_text("template.lark")
    assert "type_constraint:" in grammar_text("types.lark")
