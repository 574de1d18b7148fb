"""`check_strings` skips expression containers that hold no `${`, `%{` or backslash unless asked
to count strings: with and without counting it must report exactly the same diagnostics, for
any mix of valid and broken templates, escapes and nesting."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from tf_tpl_support import open_state

from hcljson_ls.terraform.expressions.templates import check_strings, new_counts

PIECES = ["plain", "${var.a}", "${", "%{ if x }y%{ endif }", "%{", "${1 +}", "$${x}", "\\u0024{x", "${var.}",
          "}", "${ [for x in y : x] }", "\\n", "${\"a\"}"]
STRINGS = st.lists(st.sampled_from(PIECES), max_size=3).map("".join)
VALUES = st.recursive(
    STRINGS | st.integers(0, 3) | st.booleans(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(STRINGS, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["tags", "ami", "user_data", "count", "for_each", "depends_on"]), VALUES,
                       min_size=1, max_size=4))
def test_counting_does_not_change_the_diagnostics(attrs):
    text = json.dumps({"resource": {"aws_instance": {"web": attrs}}, "locals": {"x": attrs}})
    state = open_state(text)
    body = state.analysis.body
    assert check_strings(state.text, body, new_counts()) == check_strings(state.text, body)
