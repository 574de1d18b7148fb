"""A deleted closing quote does not cascade (issue 23 "Hangs and blow-ups"): an unclosed string ends
before the line's trailing structure (`: {`, `},`, `,` ...), so the recovering parser keeps every
container's shape and reports the slip alone, on its line. Before, `"out_0000113: {` swallowed the
`{`, the `output` object closed at that block's `}` and every later output became a root member."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import Edit, assert_reparse_equals_full_parse, signature

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.scanner import scan

TINY = json.dumps({"output": {f"out_{i:07d}": {"description": f"d{i}", "value": i} for i in range(300)}}, indent=2)


def _outline(text: str) -> list[tuple[str, list[str]]]:
    """The output names and each block's keys, as the parser's tree has them."""
    result = parse(text)
    root = result.root
    (output,) = root.items
    assert text[root.start + output.key.start + 1:root.start + output.key.end - 1] == "output"
    obase = root.start + output.value.start
    names = []
    for m in output.value.items:
        name = text[obase + m.key.start:obase + m.key.end].strip('"')
        vbase = obase + m.value.start
        keys = [text[vbase + k.key.start:vbase + k.key.end] for k in m.value.items]
        names.append((name, keys))
    return names


def _delete(text: str, needle: str, at: int) -> str:
    i = text.index(needle) + at
    return text[:i] + text[i + 1:]


@pytest.mark.parametrize("needle, at", [
    ('"out_0000150": {', len('"out_0000150')),  # a key's closing quote
    ('"description": "d150"', len('"description": "d150')),  # a value's (the block's first member: `,` follows)
], ids=["key", "value"])
def test_a_deleted_closing_quote_keeps_the_containers(needle, at):
    broken = _delete(TINY, needle, at)
    result = parse(broken)
    slip_line = broken.count("\n", 0, broken.index(needle[:at]))
    assert [d.code for d in result.diagnostics] == ["syntax/unterminated-string"]
    assert all(broken.count("\n", 0, d.start) == slip_line == broken.count("\n", 0, d.end) for d in result.diagnostics)
    outline = _outline(broken)
    assert [name for name, _ in outline] == [f"out_{i:07d}" for i in range(300)]
    assert outline[151] == ("out_0000151", ['"description"', '"value"'])


_CONTENT = st.text(st.characters(blacklist_characters='"\\\n\r', blacklist_categories=["Cs", "Cc"]), max_size=12)


@settings(max_examples=60, deadline=None)
@given(key=_CONTENT, tail=st.sampled_from([": {", ": [", ": 1,", "},", "],", ",", "]},", ": {}", ""]))
def test_an_unclosed_string_stops_before_its_lines_trailing_structure(key, tail):
    line = '"' + key + tail
    toks = scan(line + "\n  x")
    assert "".join(toks) == line + "\n  x"  # lossless
    lexeme = toks[0].rstrip(" \t\n\r")
    # The string is the key with whatever structure is followed by more text on the line; the
    # trailing structure is left out, made of punctuation tokens only.
    assert line.startswith(lexeme) and len(lexeme) >= 1
    rest = line[len(lexeme):]
    assert rest.strip(" \t") == "" or (rest.strip(" \t")[0] in ":,{}[]" and all(t[0] in ":,{}[]" or t[0] in " \t\n" for t in scan(rest)))
    if tail.strip(" :,{}[]") == "" and not key.rstrip(" \t").endswith(tuple(":,{}[]$%")) and "${" not in key and "%{" not in key:
        assert lexeme.rstrip(" \t") == '"' + key.rstrip(" \t")  # the whole tail is structure


# Lines whose unclosed strings are followed by containers and more structure on the same line: where
# such a string ends depends on the rest of its line, so an edit after it (inside a container of
# its tail, in a later block on the line) may move its end.
_LINES = '{\n  "a": {"b": "x, {}, [1, {}]},\n  "c": ["y], [2, {"k": 3}]],\n  "d": {"e": "${z}, {}}, "f": 1},\n  "g": [{}, "w: {\n  }]\n}'


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3),
                          st.lists(st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "\n", "a", "1", "${"]),
                                   max_size=2).map("".join)), min_size=1, max_size=6))
def test_incremental_reparse_around_unclosed_strings_equals_a_full_parse(steps):
    assert_reparse_equals_full_parse(_LINES, steps)


@pytest.mark.parametrize("before, start, old_end, insert", [
    ('{"a": {"b": "x, {}\n}}', 17, 17, "1"),  # the tail's `{}` becomes the string's: `"x, {1`
    ('{"a": {"b": "x"}, 1}', 14, 15, ""),  # a string left open on the container's last line: `"x}, 1`
])
def test_an_edit_that_moves_an_unclosed_strings_end_reparses_to_the_full_parse(before, start, old_end, insert):
    after = before[:start] + insert + before[old_end:]
    result = reparse(parse(before), after, Edit(start, old_end, start + len(insert)))
    assert signature(result) == signature(parse(after))
