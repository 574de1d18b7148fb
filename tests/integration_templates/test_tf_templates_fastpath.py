"""The fast paths of `terraform.templates` (a regular expression that recognises the commonest
valid templates and references without parsing) never hide a diagnostic the parsers report."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from hcljson_ls.template import template_diagnostics
from hcljson_ls.template.parse import parse_template_relative
from hcljson_ls.terraform.expressions import templates as T
from hcljson_ls.terraform.expressions.evaluate import constant_problems

_PIECES = st.sampled_from(["${", "}", "$", "%", "%{", "{", "$$", "a", "b_c", "d-e", "é", "²", "9", ".", "[", "]", "0",
                           "[0]", "~", " ", "\\", "\\u0024", "for", "in", "if", "true", "null", "*", "(", ")", "\"", "x.y"])
_TEXT = st.lists(_PIECES, max_size=10).map("".join)


@settings(max_examples=600, deadline=None)
@given(_TEXT)
@example("${a.b[0].c}-x")
@example("$${a}")
@example("${a²}")
@example("${for}")
@example("a${null}")
@example("${null}")
def test_a_fast_template_has_no_diagnostics(raw: str) -> None:
    T._template_raw.cache_clear()
    seq, diags = T._template_raw(raw)
    if T._SIMPLE_TEMPLATE.fullmatch(raw) is not None:
        assert diags == ()
        assert template_diagnostics(raw, range(len(raw) + 1)) == ()
    if "\\" not in raw:
        assert seq == ("${" in raw or "%{" in raw)
        # its syntax errors, else what its constants say: `_CHECKABLE` never hides one of those
        syntax = template_diagnostics(raw, range(len(raw) + 1))
        assert diags == (syntax or (constant_problems(parse_template_relative(raw)[0]) if seq else ()))


@settings(max_examples=600, deadline=None)
@given(_TEXT, st.sampled_from(["traversal", "native"]))
@example("aws_instance.web[0].id", "traversal")
@example("true", "traversal")
@example("for.x", "traversal")
def test_a_fast_reference_has_no_diagnostics(raw: str, mode: str) -> None:
    if T._STATIC_REFERENCE.fullmatch(raw) is not None:
        T._reference_relative.cache_clear()
        assert T._reference_relative(raw, mode, "depends_on") == ()


def test_the_fast_paths_are_taken() -> None:
    assert T._SIMPLE_TEMPLATE.fullmatch("${local.name_prefix}-r1 and ${aws_instance.web[0].id}")
    assert T._STATIC_REFERENCE.fullmatch('aws_security_group.r12')
    assert not T._SIMPLE_TEMPLATE.fullmatch("${var.}")
    assert not T._SIMPLE_TEMPLATE.fullmatch("x-${null}")  # (a null among other parts: an error)
    assert not T._STATIC_REFERENCE.fullmatch("aws_instance.x.0")
