"""One deleted closing quote in a large document gives the slip's own diagnostics, not thousands
(issue 23 "Hangs and blow-ups"). Before, deleting the closing quote of an output's name in
100,000 tiny outputs gave 49,894 diagnostics (49,886 `structure/unknown-block-type`) and ~8 s of
CPU: the unclosed string swallowed the line's `{`, and every later output became a root member.
In-process, the full analysis of a real `DocumentState` (2,000 outputs, ~0.1 MB)."""

from __future__ import annotations

import json

import pytest
from internals import file_diagnostics

from hcljson_ls.workspace import DocumentState

DOC = json.dumps({"output": {f"out_{i:07d}": {"description": f"d{i}", "value": i} for i in range(2_000)}}, indent=2)


def _diagnostics(text: str):
    state = DocumentState.open("file:///m/outputs.tf.json", text, 1, "terraform-json")
    state.prepare()
    return file_diagnostics(state)


@pytest.mark.parametrize("needle", [
    '"out_0001013": {',  # the key's closing quote: `"out_0001013: {`
    '"description": "d1013",',  # a value's: `"description": "d1013,`
], ids=["key", "value"])
def test_a_deleted_closing_quote_gives_a_handful_of_diagnostics_on_its_line(needle):
    at = DOC.index(needle) + needle.index('"', needle.index("_") if "out_" in needle else len('"description": "'))
    assert DOC[at] == '"'
    broken = DOC[:at] + DOC[at + 1:]
    line = broken.count("\n", 0, at)
    diags = _diagnostics(broken)
    assert 1 <= len(diags) <= 3, [(d.code, d.start) for d in diags[:5]]
    assert "syntax/unterminated-string" in {d.code for d in diags}
    assert all(broken.count("\n", 0, d.start) == line for d in diags), [(d.code, broken.count("\n", 0, d.start)) for d in diags]


def test_a_cascade_of_unknown_block_types_searches_no_closest_name_until_one_is_read():
    # A deleted `{` still re-nests the later outputs at the root (not recovered: see
    # docs/performance.md); their "Did you mean" searches wait until a diagnostic is read
    # (`diagnostic.Deferred`), and the server reads `diagnostics.maxPerCode` of them.
    at = DOC.index('"out_0001013": {') + len('"out_0001013": ')
    broken = DOC[:at] + DOC[at + 1:]
    unknown = [d for d in _diagnostics(broken) if d.code == "structure/unknown-block-type"]
    assert len(unknown) > 900
    assert all(d.pending for d in unknown)
    assert unknown[0].detail.startswith('There is no block type named "out_0001014" in the file.')
    assert not unknown[0].pending and unknown[1].pending
