"""`encodings.stored_width` bounds the widest character of a text from its object's size, and what
is read from it is exact: a long text's astral count (`LineIndex.astral_count`) without encoding it."""

from __future__ import annotations

import ctypes

import pytest

from hcljson_ls.text.encodings import stored_width
from hcljson_ls.text.line_index import LineIndex

#: A character of each storage width: 1 (ASCII, then Latin-1), 2 (then a lone surrogate), 4.
WIDTHS = {"a": 1, "\u00e9": 1, "\u0101": 2, "\u20ac": 2, "\ud800": 2, "\U0001f600": 4}


def _keep_utf8(text: str) -> None:
    """Make CPython keep the UTF-8 of `text` with it (`PyUnicode_AsUTF8AndSize`): a larger object."""
    as_utf8 = ctypes.pythonapi.PyUnicode_AsUTF8AndSize
    as_utf8.restype, as_utf8.argtypes = ctypes.c_char_p, [ctypes.py_object, ctypes.c_void_p]
    as_utf8(text, None)


@pytest.mark.parametrize("n", [1, 4095, 4096, 20_000])
@pytest.mark.parametrize("wide", list(WIDTHS))
def test_the_stored_width_is_never_below_the_widest_character(n, wide):
    for text in (wide * n, "a" * (n - 1) + wide):
        width = stored_width(text)
        assert WIDTHS[wide] <= width <= 4
        assert width == (WIDTHS[wide] if n >= 4096 else 4)  # exact for a long text, else no bound
        if wide != "\ud800":  # (a lone surrogate has no UTF-8 of its own)
            _keep_utf8(text)
            assert WIDTHS[wide] <= stored_width(text) <= 4


@pytest.mark.parametrize("n", [1, 4095, 4096, 20_000])
@pytest.mark.parametrize("wide", list(WIDTHS))
def test_the_astral_count_of_a_long_text_is_exact(n, wide):
    """Counted or read from the width, with the UTF-8 kept or not, after an edit that adds one."""
    for text in (wide * n, "a" * (n - 1) + wide, wide * (n - 1) + "\U0001f600"):
        if wide != "\ud800":
            _keep_utf8(text)
        index = LineIndex(text)
        assert index.astral_count() == sum(ord(c) > 0xFFFF for c in text), (wide, n)
        index.update(0, 0, "\U0001f600")
        assert index.astral_count() == sum(ord(c) > 0xFFFF for c in text) + 1
