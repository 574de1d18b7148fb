"""`lsp.diagnostic_json.diagnostic_text` and the forms' templates write exactly ``json.dumps`` of
`diagnostic_json`'s data, for any diagnostic (any text in its strings, related locations here and in
other files, quick fixes (which are no part of it), every severity and the tagged codes)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls import diagnostic as core
from hcljson_ls.lsp.diagnostic_forms import _one_line_template, _template
from hcljson_ls.lsp.diagnostic_json import diagnostic_json, diagnostic_text
from hcljson_ls.text.line_index import LineIndex

URI = "file:///text/main.tf.json"
OTHER = "file:///text/other.tf.json"
GONE = "file:///text/unreadable.tf.json"
TEXT = 'x\u00e9\U0001F600 "%d" \n\r\nsecond %s line\n\u00e9\u00e9\nlast'
OTHER_TEXT = "{\n  \U0001F600\n}\n"

# Strings with what JSON escapes, `%` (the templates' conversions), non-ASCII, astral characters, code spans.
_WORDS = st.text(alphabet=st.sampled_from(['a', ' ', '%', 'd', '"', '\\', '\n', '\u00e9', '\U0001F600', '`', '\x00', '/']),
                 max_size=8)
_OFFSETS = st.integers(0, len(TEXT))


@st.composite
def diagnostics(draw: st.DrawFn, one_line: bool = False) -> core.Diagnostic:
    """A diagnostic of TEXT; `one_line`: every offset on its first line (no related in another file)."""
    offsets = st.integers(0, TEXT.index("\n")) if one_line else _OFFSETS

    def span() -> tuple[int, int]:
        a, b = draw(offsets), draw(offsets)
        return min(a, b), max(a, b)

    related = []
    for _ in range(draw(st.integers(0, 2))):
        uri = None if one_line else draw(st.sampled_from([None, URI, OTHER, GONE]))
        a, b = span() if uri != OTHER else (0, len(OTHER_TEXT))
        related.append(core.Related(a, b, draw(_WORDS), uri))
    fixes = [core.Fix(*span(), draw(_WORDS), draw(_WORDS)) for _ in range(draw(st.integers(0, 2)))]
    start, end = span()
    return core.Diagnostic(
        start, end, draw(st.sampled_from([core.ERROR, core.WARNING, core.INFORMATION, core.HINT])),
        draw(st.sampled_from(["", "reference/undeclared", "schema/deprecated", "reference/unused", "x%d`y`"])),
        draw(_WORDS), draw(_WORDS), tuple(related), tuple(fixes))


INDEX = LineIndex(TEXT)
INDEXES = {OTHER: LineIndex(OTHER_TEXT)}
_SETUPS = st.tuples(st.sampled_from(["utf-16", "utf-8", "utf-32"]), st.sampled_from([None, "https://example.org/d%20x.md"]))


@settings(max_examples=150, deadline=None)
@given(diagnostics(), _SETUPS)
def test_the_text_is_json_dumps_of_the_data(d, setup):
    encoding, docs_url = setup
    data = diagnostic_json(d, INDEX, encoding, URI, docs_url, INDEXES.get)
    assert "data" not in data  # its quick fixes are answered on textDocument/codeAction (`convert.to_quick_fixes`)
    expected = json.dumps(data)
    assert diagnostic_text(d, INDEX, encoding, URI, docs_url, INDEXES.get) == expected


@settings(max_examples=100, deadline=None)
@given(diagnostics(one_line=True), _SETUPS, st.integers(0, 10**6))
def test_a_template_filled_in_is_the_text_on_its_line(d, setup, line):
    encoding, docs_url = setup
    template, rel = _template(d, INDEX, encoding, URI, docs_url, 0)
    assert template % rel == json.dumps(diagnostic_json(d, INDEX, encoding, URI, docs_url))
    # A one-line template takes its columns as offsets from the line's start: so they are in utf-32 on
    # TEXT's first line (non-ASCII, astral); filled in with any line, it is there.
    if encoding == "utf-32":
        template, rel = _one_line_template(d, 0, encoding, URI, docs_url)
        data = diagnostic_json(d, INDEX, encoding, URI, docs_url)
        text = json.dumps(data)
        assert template % ((0,) * len(rel)) == text
        moved = json.loads(template % ((line,) * len(rel)))
        assert moved["range"]["start"]["line"] == line and moved["message"] == data["message"]
