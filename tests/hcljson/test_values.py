"""`hcljson.values.value_end`: where an attribute's value ends (the range Terraform reports a
duplicate local value at: its whole attribute)."""

from __future__ import annotations

import json
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

from hcljson_ls.hcljson import values
from hcljson_ls.hcljson.values import value_end
from hcljson_ls.text.buffer import TextBuffer

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
_SPACE = st.text(alphabet=" \t\r\n", max_size=3)


class _Read:
    """A text that remembers how far it was read (the furthest slice's end)."""

    def __init__(self, text: str) -> None:
        self.text, self.furthest = text, 0

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, key):
        if isinstance(key, slice):
            self.furthest = max(self.furthest, min(key.stop, len(self.text)))
        else:
            self.furthest = max(self.furthest, key + 1)
        return self.text[key]


@given(_JSON, _SPACE, _SPACE, st.sampled_from(["}", ', "b": 1}', "]", " ,", ""]), st.booleans(), st.booleans(),
       st.integers(1, 300))
def test_the_end_of_any_json_value_after_its_key(value, before, after, rest, ascii_only, chunked, stretch) -> None:
    # (`stretch`: the first stretch read, so that its cut falls anywhere: in an escape, a number...)
    written = json.dumps(value, ensure_ascii=ascii_only)
    head = '{"locals": {"k"'
    text = f"{head}{before}:{after}{written}{rest}"
    source: str | TextBuffer = text
    if chunked:  # (a buffer edited once is read through its chunks)
        source = TextBuffer(text + " ", chunk=7)
        source.splice(len(text), len(text) + 1, "")
    with patch.object(values, "_FIRST_STRETCH", stretch):
        assert value_end(source, len(head)) == len(text) - len(rest)


def test_a_long_value_is_read_whole() -> None:
    written = json.dumps({"xs": list(range(5_000)), "s": "a\\\"b" * 300})
    text = f'{{"k": {written}, "b": 1}}'
    assert value_end(text, 4) == 6 + len(written)


def test_no_end_without_a_colon_or_a_whole_value() -> None:
    assert value_end('{"k" 1}', 4) is None
    assert value_end('{"k": }', 4) is None
    assert value_end('{"k": tru, "b": 1}', 4) is None
    assert value_end('{"k": "abc\n", "b": 1}', 4) is None  # a line break ends a JSON string: an error
    assert value_end('{"k": {"x": 1', 4) is None  # open at the end of the text
    assert value_end('{"k":', 4) is None
    assert value_end('{"k": ' + "[" * 100_000 + "]" * 100_000 + "}", 4) is None  # deeper than the decoder goes


def test_a_broken_value_is_not_read_to_the_end_of_the_text() -> None:
    tail = ', "b": "' + "x" * 100 + '"' * 1 + "}" * 1
    text = _Read('{"k": {"x": tru, "y": 2}' + tail * 10_000)
    assert value_end(text, 4) is None
    assert text.furthest <= 4 + 2 + 256
