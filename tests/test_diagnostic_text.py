"""Diagnostic messages are plain text where they are shown (LSP messages, `check`): no Markdown code
spans; and an invisible byte order mark is named, with a quick fix that removes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hcljson_ls.diagnostic import plain
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.workspace import Workspace


@pytest.mark.parametrize(
    "text, shown",
    [
        ("Expected `,` here.", 'Expected "," here.'),
        ('put the text in a `"//"` property', 'put the text in a "//" property'),
        ("escapes `\\t` and `\\u00e9`", 'escapes "\\t" and "\\u00e9"'),
        ("no span at all", "no span at all"),
        ("an odd ` backtick", "an odd ` backtick"),
    ],
)
def test_plain_writes_code_spans_as_quotes(text: str, shown: str) -> None:
    assert plain(text) == shown


BROKEN = [
    '{"a": 1 "b": 2}', "{'a': 1}", '{"a": [1,]}', "{a: 1}", '{"a": True}', '{"a": 01}', '{"a" = 1}',
    '{"a": "x\\q"}', '{"resource": {"aws_instance": {"web": {"ami": "${var."}}}}', '{"variable": {"1x": {}}}',
    '{"locals": {"a": "${upper(}"}}', '{"variable": {"v": {"type": "map(strin)"}}}', "[1, 2]", "", "{",
]


@pytest.mark.parametrize("text", BROKEN)
def test_no_message_shown_has_a_code_span(text: str) -> None:
    workspace = Workspace()
    uri = "file:///nowhere/main.tf.json"
    workspace.open(uri, text, 1, "terraform-json")
    found = collect(workspace.snapshot(), uri)
    assert found or text in ("[1, 2]",)
    for d in found:
        assert "`" not in d.plain_message, d.plain_message
        assert all("`" not in plain(r.message) for r in d.related)


@given(st.text(alphabet='{}[]":,` \\abtn0123456789\ufeff', max_size=30))
def test_plain_never_leaves_a_pair_of_backticks(text: str) -> None:
    assert plain(text).count("`") <= 1 or "\n" in text


def test_a_byte_order_mark_is_named_and_removable() -> None:
    text = '\ufeff{"variable": {}}'
    [d] = parse(text).diagnostics
    assert d.code == "syntax/byte-order-mark" and (d.start, d.end) == (0, 1)
    assert "byte order mark (U+FEFF)" in d.message and "\ufeff" not in d.message
    [fix] = d.fixes
    assert text[: fix.start] + fix.new_text + text[fix.end :] == '{"variable": {}}'
    assert parse('{"variable": {}}').diagnostics == []
