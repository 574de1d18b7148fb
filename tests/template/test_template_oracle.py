"""Differential checks against hclsyntax / typeexpr (hashicorp/hcl v2.14.1, test-only oracle).

Verdicts (has errors or not) must agree on seeded random templates and type constraints built from
the tokens that matter; for the hand-written error fixtures, hcl must also reject the input.
Known, intended differences: `provider::ns::f()` calls (newer than hcl 2.14), Terraform's bare
`list`/`map` type shorthand, and default-value compatibility in `optional(T, default)` (not checked).
"""

from __future__ import annotations

import random

import pytest
from oracle.fixtures import hcl_oracle  # noqa: F401 - pytest fixture
from test_template_parse import CONSTRUCTS, ERRORS
from tpl_support import doc

from hcljson_ls.template.parse import parse_template_relative
from hcljson_ls.template.types import parse_type_relative

TEMPLATE_PIECES = [
    "${", "}", "%{", "a", "b.c", ".", "(", ")", "[", "]", '"', ",", " ", "1", "0.1", "?", ":", "for ", "in ", "if ",
    "else", "endif", "endfor", "=", "{", "*", "!", "-", "+", "&&", "||", "~", "...", "=>", "\n", '\\"', "\\\\",
    "\\q", "#c", "/*x*/", "$${", "%%{", "\t", "é", "f(", "[*]", ".*", "x y", "<=", "%", "/", "$", "@", "null",
]
TYPE_PIECES = [
    "string", "number", "bool", "any", "list", "set", "map", "tuple", "object", "optional", "(", ")", "[", "]", "{",
    "}", ",", "=", " a ", '"x"', "1", "\n", "strin", "foo", " ", ":",
]


def _has_error(answer) -> bool:
    return any(d["severity"] == "error" for d in answer["diagnostics"])


def _random_strings(pieces, n, seed, max_len):
    rnd = random.Random(seed)
    return ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, max_len))) for _ in range(n)]


def test_template_verdicts_match_hcl_on_random_input(hcl_oracle):
    mismatches = []
    for s in _random_strings(TEMPLATE_PIECES, 2500, 7, 12):
        ours = bool(parse_template_relative(s)[1])
        if ours != _has_error(hcl_oracle.template(s)):
            mismatches.append(s)
    assert mismatches == []


def test_type_verdicts_match_typeexpr_on_random_input(hcl_oracle):
    mismatches = []
    for s in _random_strings(TYPE_PIECES, 2500, 3, 9):
        if s.strip() in ("list", "map"):
            continue  # Terraform's shorthand for list(any) / map(any)
        ours = bool(parse_type_relative(s)[1])
        if ours != _has_error(hcl_oracle.type_constraint(s)):
            mismatches.append(s)
    assert mismatches == []


@pytest.mark.parametrize("src", [c[0] for c in CONSTRUCTS if "::" not in c[0]])
def test_constructs_are_valid_for_hcl(hcl_oracle, src):
    f = doc(src)
    assert not _has_error(hcl_oracle.template(f.value))


@pytest.mark.parametrize("src", [e[0] for e in ERRORS])
def test_error_fixtures_are_errors_for_hcl(hcl_oracle, src):
    f = doc(src)
    assert _has_error(hcl_oracle.template(f.value))


@pytest.mark.parametrize("src,start", [
    ("${a.}", 4), ("${f(a b)}", 6), ("${[a b]}", 5), ("${{a = 1 b = 2}}", 9), ("${a ? b }", 8),
    ("${(a b)}", 5), ("%{ iff }", 3), ("${a.0.1}", 4), ("${f(a..., b)}", 5),
])
def test_error_positions_match_hcl(hcl_oracle, src, start):
    ref = [d for d in hcl_oracle.template(src)["diagnostics"] if d["severity"] == "error"]
    ours = parse_template_relative(src)[1]
    assert ref[0]["range"]["start"]["char"] == start == ours[0].start
    assert ours[0].summary == ref[0]["summary"]
