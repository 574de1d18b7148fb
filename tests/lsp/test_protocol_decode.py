"""`lsp.protocol.decode_body`: every body reads as `json.loads` reads it, value or error. msgspec
reads what it can (a `didOpen`'s long string ~2x faster), and `json` the rest: NaN, numbers past a
float's range, lone surrogates, UTF-16 bodies, repeated keys, integers past 64 bits."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hcljson_ls.lsp.protocol import decode_body

_MISSING = object()


def _read(reader, body: bytes):
    """What `reader` gives for `body`: ("value", its JSON text, NaN written out) or the error's type."""
    try:
        value = reader(body)
    except RecursionError:
        return ("error", RecursionError)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
        return ("error", type(error), str(error))
    return ("value", json.dumps(value), _kinds(value))


def _kinds(value) -> object:
    """The Python types throughout `value` (an int read as a float shows here)."""
    if isinstance(value, list):
        return [_kinds(x) for x in value]
    if isinstance(value, dict):
        return {k: _kinds(x) for k, x in value.items()}
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return type(value).__name__


#: Surrogates (lone ones are valid in `json.dumps` output) and astral characters among the rest.
_characters = st.characters(codec=None, exclude_categories=()) | st.sampled_from(["\ud800", "\udfff", "😀", "\x00"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(_characters, max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(_characters, max_size=6), inner, max_size=4),
    max_leaves=16,
)


@given(json_values, st.booleans(), st.sampled_from([None, 0, 2]), st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_a_written_value_reads_as_json_reads_it(value, ascii_only, indent, encoding):
    # (A lone surrogate written raw cannot be encoded: `surrogatepass`, as `json.loads` reads it.)
    body = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode(encoding, "surrogatepass")
    assert _read(decode_body, body) == _read(json.loads, body)


@given(st.binary(max_size=40) | st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_read_or_fail_as_json_reads_them(body):
    assert _read(decode_body, body) == _read(json.loads, body)


@pytest.mark.parametrize("body", [
    b'{"a": 1, "a": 2}',
    b"[18446744073709551616, -9223372036854775809, 1" + b"0" * 60 + b"]",
    b"[NaN, Infinity, -Infinity, 1e400, 1.7976931348623157e309]",
    b'["\\ud800", "\\udc00\\ud800", "\\ud83d\\ude00"]',
    b'["\xed\xa0\x80"]',
    b"\xef\xbb\xbf{}",
    '{"method": "x"}'.encode("utf-16"),
    b'["a\x00b"]',
    b"[1,]",
    b"[1]\x00",
    b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"text": "{\\n  \\"a\\": \\"\\u00e9\\"\\n}"}}}',
])
def test_where_the_two_readers_differ_json_decides(body):
    assert _read(decode_body, body) == _read(json.loads, body)


def test_a_message_nested_past_the_limit_is_a_recursion_error():
    body = b"[" * 100_000 + b"]" * 100_000
    assert _read(decode_body, body) == ("error", RecursionError)
