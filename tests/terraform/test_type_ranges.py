"""A variable's type is reported where Terraform reports it (1.11.4, `typeexpr` over HCL's JSON
expression): a whole specification that is no type (an unknown keyword, no keyword and no call, a
call of no type constructor) over the JSON string, quotes included, as the expression's range; what
a call holds, inside it."""

from __future__ import annotations

import pytest
from tf_support import assert_both_paths_report

CASES = [
    r'{"variable": {"v": {"type": ⟨"strin"⟩}}}',
    r'{"variable": {"v": {"type": ⟨"strin "⟩}}}',  # Terraform: the whole, spaces and quotes included
    r'{"variable": {"v": {"type": ⟨"1"⟩}}}',
    r'{"variable": {"v": {"type": ⟨"[string]"⟩}}}',
    r'{"variable": {"v": {"type": ⟨"\"string\""⟩}}}',  # the legacy quoted type
    r'{"variable": {"v": {"type": ⟨"strin(string)"⟩}}}',
    r'{"variable": {"v": {"type": "list(⟨strin⟩)"}}}',  # inside a call: the part that is wrong
    r'{"variable": {"v": {"type": "map⟨()⟩"}}}',
    r'{"variable": {"v": {"type": "⟨optional⟩(string)"}}}',
]


@pytest.mark.parametrize("src", CASES)
def test_a_wrong_type_is_reported_where_terraform_reports_it(src: str) -> None:
    assert_both_paths_report(src, "type/invalid-type")
