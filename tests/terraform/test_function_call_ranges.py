"""A call with a wrong number of arguments is reported where Terraform reports it (HCL's
`FunctionCallExpr`): a missing argument at the `)` ("Not enough function arguments"), the first
argument too many at where it starts (its `StartRange`: "Too many function arguments"), a count
only the function's own code rejects at the name through the `(` ("Error in function call").
Checked with Terraform 1.11.4 (`tests/conformance`: `functions/too-few-args`, `too-many-args`,
`join-one-arg`). Inside a JSON string, the range is where the text is (an escaped quote is two
characters of it).
"""

from __future__ import annotations

import pytest
from tf_support import assert_both_paths_report

CASES = [
    r'{"locals": {"x": "${upper(⟨)⟩}"}}',  # one missing: the `)`
    r'{"locals": {"x": "${lookup({}⟨)⟩}"}}',
    r'{"locals": {"x": "${upper(\"a\", \"⟨b⟩\")}"}}',  # a string: its first character, inside the quotes
    r'{"locals": {"x": "${upper(\"a\", \"⟨\u0062c⟩\")}"}}',
    r'{"locals": {"x": "${upper(\"a\", ⟨\"\"⟩)}"}}',  # an empty string: its quotes
    r'{"locals": {"x": "${upper(\"a\", ⟨1⟩ + 2)}"}}',  # an operation: its left side's start
    r'{"locals": {"x": "${upper(\"a\", ⟨[⟩1])}"}}',  # a collection: its bracket
    r'{"locals": {"x": "${upper(\"a\", ⟨lower(⟩\"x\"))}"}}',  # a call: its name through the `(`
    r'{"locals": {"x": "${upper(\"a\", ⟨local.y[0]⟩)}", "y": [1]}}',  # a traversal (a literal index too): whole
    r'{"locals": {"x": "${upper(\"a\", ⟨true⟩ ? 1 : 2)}"}}',  # a conditional: its condition
    r'{"locals": {"x": "${upper(\"a\", ⟨local.y⟩[var.i])}", "y": [1]}}',  # an index: its collection
    r'{"locals": {"x": "${upper(\"a\", \"${⟨1⟩}x\")}"}}',  # a template: its first part's start
    r'{"locals": {"x": "${upper(\"a\", \"⟨b⟩\", [\"c\"]...)}"}}',  # expanded: still one too many
    r'{"locals": {"x": "${⟨join(⟩\",\")}"}}',  # `join` takes at least 2 by its own code: the name and `(`
    r'{"locals": {"x": "${⟨range(⟩1, 2, 3, 4)}"}}',
]


@pytest.mark.parametrize("src", CASES)
def test_a_wrong_count_is_reported_where_terraform_reports_it(src: str) -> None:
    assert_both_paths_report(src, "reference/argument-count")
