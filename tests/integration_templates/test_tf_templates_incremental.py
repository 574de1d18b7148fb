"""After an edit only the top-level blocks whose text changed are walked again, and the result is
always the one a fresh document gives (fixtures and hypothesis)."""

from __future__ import annotations

import json

from documents import edit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tf_tpl_support import open_state, semantic_tokens

from hcljson_ls.features import semantic_tokens as tokens_module
from hcljson_ls.workspace import DocumentState


def fresh(state: DocumentState) -> DocumentState:
    return open_state(state.text)


def document(n: int) -> str:
    doc = {
        "variable": {"env": {"type": "string", "description": "${literal}"}},
        "resource": {
            "aws_instance": {
                f"r{i}": {"ami": f"${{var.env}}-{i}", "tags": {"N\u00e4me": f"caf\u00e9 ${{local.p}}-{i}"},
                          "depends_on": [f"aws_instance.r{max(0, i - 1)}"]}
                for i in range(n)
            }
        },
        "output": {f"o{i}": {"value": f"${{aws_instance.r{i}.id}}"} for i in range(n)},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def test_the_analysis_is_shared_by_every_diagnostics_provider() -> None:
    from hcljson_ls.features import diagnostics

    state = open_state(document(2))
    result = state.analysis
    assert state.analysis is result  # once per version
    assert diagnostics.strings(state) is result.strings
    assert diagnostics.structure(state) is result.structure


def counting_tokens(monkeypatch) -> list[int]:
    """Count the top-level blocks whose semantic tokens are computed (not reused)."""
    calls = [0]
    real = tokens_module._block_tokens

    def counted(*args):
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(tokens_module, "_block_tokens", counted)
    return calls


def test_only_the_edited_block_is_walked_again(monkeypatch) -> None:
    calls = counting_tokens(monkeypatch)
    state = open_state(document(20))  # 41 top-level blocks: 1 variable, 20 resources, 20 outputs
    assert state.analysis.strings == []
    semantic_tokens(state)
    engine = state._engine
    assert (engine.misses, engine.hits, calls[0]) == (41, 0, 41)

    # Break the template of one resource: that block alone is walked again.
    at = state.text.index('"${var.env}-7"') + len('"${var.')  # search: a generated document
    edit(state, at, at + 3, "")
    diags = state.analysis.strings
    assert [(d.code, state.text[d.start : d.end]) for d in diags] == [("template/invalid-attribute-name", "}")]
    assert (engine.misses, engine.fast, engine.walks) == (42, 1, 1)
    assert semantic_tokens(state) == semantic_tokens(fresh(state))
    assert calls[0] == 42 + 41  # one block again here, all of them for the fresh document

    # Text inserted in the first block moves every later one: their results are moved, not redone.
    at = state.text.index("${literal}")  # search: a generated document
    edit(state, at, at, "é😀 more text ")
    diags = state.analysis.strings
    assert diags == fresh(state).analysis.strings
    assert [(d.code, state.text[d.start : d.end]) for d in diags] == [("template/invalid-attribute-name", "}")]
    assert (engine.misses, engine.fast, engine.walks) == (43, 2, 1)
    calls[0] = 0
    assert semantic_tokens(state) == semantic_tokens(fresh(state))
    assert calls[0] == 1 + 41


def test_a_range_request_keeps_the_other_blocks(monkeypatch) -> None:
    calls = counting_tokens(monkeypatch)
    state = open_state(document(5))
    full = semantic_tokens(state)
    assert calls[0] == 11
    mid = state.text.index('"r3"')  # search: a generated document
    part = semantic_tokens(state, mid, mid + 200)
    assert part == [t for t in full if t[0] < mid + 200 and t[1] > mid]
    assert calls[0] == 11  # the blocks in range were reused, the others kept
    at = state.text.index("${literal}")  # search: a generated document
    edit(state, at, at, " ")  # in the first block: every later block moves by one
    moved = semantic_tokens(state)
    assert moved == [(s + 1 if s > at else s, e + 1 if e > at else e, k, m) for s, e, k, m in full]
    assert calls[0] == 12
    assert moved == semantic_tokens(fresh(state))


_PIECES = st.sampled_from(['"', "${", "}", "%{", "\\", "\u0024", "var.", ".", " ", "x", "é", "😀",
                           "[", "]", "{", ",", ":", "\n", "\\\""])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.lists(_PIECES, max_size=3).map("".join)),
                min_size=1, max_size=6))
def test_incremental_results_equal_a_fresh_document(edits) -> None:
    state = open_state(document(4))
    state.analysis.strings
    semantic_tokens(state)
    for where, length, new in edits:
        start = int(where * len(state.text))
        end = min(len(state.text), start + length)
        edit(state, start, end, new)
        again = fresh(state)
        assert state.analysis.strings == again.analysis.strings
        assert semantic_tokens(state) == semantic_tokens(again)


_TEMPLATE_TEXT = st.lists(st.sampled_from(["${", "}", "%{", "if ", "endif", "var.", "x", "(", ")", "\"", "\\", "é",
                                           "\U0001F600", " ", "+", "\n", "\u0000", "$${", "~"]), max_size=8).map("".join)


@settings(max_examples=150, deadline=None)
@given(_TEMPLATE_TEXT, st.booleans())
def test_ranges_are_the_same_decoded_characters_however_the_string_is_escaped(value: str, ascii_only: bool) -> None:
    from hcljson_ls.jsonsyntax.strings import decode_raw
    from hcljson_ls.template import template_diagnostics

    def decoded_ranges(text: str) -> list[tuple[int, int, str]]:
        content_start = text.index('"a": "') + len('"a": "')
        content = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
        offsets = list(decode_raw(content, content_start).offsets)
        back = {o: i for i, o in reversed(list(enumerate(offsets)))}
        return [(back[d.start], back[d.end], d.code) for d in open_state(text).analysis.strings]

    plain = '{"locals": {"a": %s}}' % json.dumps(value, ensure_ascii=ascii_only)
    shifted = '{"locals": {"z\u00e9\U0001F600": "${var.ok}", "a": %s}}' % json.dumps(value, ensure_ascii=ascii_only)
    expected = [(d.start, d.end, d.code) for d in template_diagnostics(value, range(len(value) + 1))]
    assert decoded_ranges(plain) == decoded_ranges(shifted) == expected
