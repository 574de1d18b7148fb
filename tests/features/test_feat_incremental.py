"""After any sequence of edits an open document answers exactly like a fresh one of the same text:
all diagnostics, document symbols, hover and `locate` at every key and value, semantic tokens. Fixtures for the
edits that matter (renaming a block, adding and removing blocks, a duplicate appearing and going,
breaking and fixing the JSON) and hypothesis for random ones, with and without an analysis between
edits."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from documents import edit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from internals import file_diagnostics as collect
from internals import materialize

from hcljson_ls.features.hover import hover_in as hover
from hcljson_ls.features.semantic_tokens import tokens_for_body
from hcljson_ls.features.symbols import symbols_in as document_symbols
from hcljson_ls.hcljson.locate import locate
from hcljson_ls.workspace import DocumentState

URI = "file:///m/main.tf.json"

DOC = json.dumps(
    {
        "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws", "version": "~> 5.0"}},
                      "backend": {"s3": {"bucket": "b-${x}"}}},
        "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "use1", "region": "us-east-1"}]},
        "variable": {"env": {"type": "string", "default": "dev"}, "count": {"type": "number"}},
        "locals": {"prefix": "app-${var.env}", "n": 2},
        "resource": {
            "aws_instance": {
                "web": {"ami": "ami-1", "count": 2, "for_each": {}, "tags": {"Name": "${local.prefix}-web"},
                        "lifecycle": {"ignore_changes": ["tags"], "prevent_destroy": "yes"}},
                "db": {"ami": "${var.nope", "depends_on": ["aws_instance.web"]},
            },
            "aws_s3_bucket": {"logs": [{"bucket": "l"}, {"bucket": "m"}]},
        },
        "locals ": {"x": 1},
        "output": {"ip": {"value": "${aws_instance.web[0].public_ip}"}, "ip ": {}},
    },
    indent=2,
    ensure_ascii=False,
)


def assert_like_fresh(state: DocumentState, offsets=None) -> None:
    again = DocumentState.open(URI, state.text, 1, "terraform-json")
    assert collect(state) == collect(again)
    view = state.analysis.body
    fresh_view = again.analysis.body
    body = materialize(fresh_view)
    assert document_symbols(view) == document_symbols(body) == document_symbols(fresh_view)
    text = state.text
    own = materialize(view)  # the same tree as the view (contexts hold nodes, compared by identity)
    for offset in offsets if offsets is not None else range(0, len(text) + 1, 3):
        assert hover(view, text, offset) == hover(body, text, offset), offset
        assert _root_free(locate(text, view, offset), view) == _root_free(locate(text, own, offset), own), offset
    tokens = tokens_for_body(text, view)
    assert tokens == tokens_for_body(text, fresh_view) == tokens_for_body(text, body)  # kept per block == one walk
    assert materialize(view) == materialize(view)  # re-based bodies are stable


def _root_free(context, root):
    """A `Context` with the root body left out (a view there, a plain body for the fresh one)."""
    return replace(context, body=None) if context.body is root else context


def occurrence(text: str, needle: str, which: int = 0) -> int:
    found = [i for i in range(len(text)) if text.startswith(needle, i)]
    return found[which]


@pytest.mark.parametrize(
    "edits",
    [
        [('"web"', 1, 4, "app")],  # rename a resource: a label edit
        [('"db"', 1, 3, "web")],  # a duplicate appears ...
        [('"db"', 1, 3, "web"), ('"web"', 1, 4, "db")],  # ... and goes again
        [('"n": 2', 1, 2, "prefix")],  # a duplicate local value inside one block
        # a duplicate local value is reported over its whole attribute: its value edited, broken, mended
        [('"resource"', 0, 0, '"locals": {"prefix": {"k": [1]}}, '), ('"k": [1]', 7, 7, ", 2, {}"),
         ('"k": [1', 5, 6, ""), ('"k": 1', 5, 5, "[")],
        [('"alias"', 10, 14, "us")],  # a provider alias: definitions change inside a body
        [('"ami-1"', 1, 6, "${var.env")],  # a broken template, fixed next
        [('"ami-1"', 1, 6, "${var.env"), ('"${var.env"', 1, 10, "${var.env}")],
        [('"logs"', 0, 0, '"more": {"bucket": "k"}, ')],  # add a block beside others
        [('"aws_s3_bucket"', 0, 0, '"aws_vpc": {"v": {}}, ')],  # add a block type level
        [('"db": {', 7, 7, '"x": 1, ')],  # an argument added to one body
        [('"resource"', 0, 0, '"check": {"c": {"assert": {"condition": true, "error_message": "m"}}}, ')],
        [("{", 0, 1, "")],  # the root bracket gone: everything reparsed
        [('"tags"', 0, 0, "[")],  # an unclosed bracket inside a body, then closed again
        [('"tags"', 0, 0, "["), ('"tags"', 0, 0, "], ")],
        [('"for_each": {}', 0, 14, "")],  # a conflict removed
        [('"ip"', 0, 0, '"dup": {"value": 1}, "dup": {"value": 2}, ')],
    ],
)
def test_edits_give_what_a_fresh_document_gives(edits) -> None:
    state = DocumentState.open(URI, DOC, 1, "terraform-json")
    assert_like_fresh(state)
    for needle, a, b, new in edits:
        at = occurrence(state.text, needle)
        edit(state, at + a, at + b, new)
        assert_like_fresh(state)


@pytest.mark.parametrize("provider", ['"aws.west"', '"aws.by[each.key]"'])
def test_an_edit_of_a_block_read_for_its_provider_instance(provider: str) -> None:
    """The fast path gives the checks the document's `TextBuffer`, which a regex cannot read: a module
    call's `providers` and a resource's `provider` looked for an instance key raised TypeError there
    (found by bench/fuzz/fuzz_parse.py)."""
    text = json.dumps({
        "module": {"m": {"source": "./m", "providers": {"aws": "PROVIDER"}}},
        "resource": {"aws_instance": {"a": {"provider": "PROVIDER", "ami": "x"}}},
    }, indent=2).replace('"PROVIDER"', provider)
    state = DocumentState.open(URI, text, 1, "terraform-json")
    state.prepare()  # (the tree: an edit is then the incremental engine's)
    engine = state._engine
    for needle in ('"./m"', '"x"'):  # inside the module call, then inside the resource
        at = occurrence(state.text, needle) + 1
        edit(state, at, at, "y")
        collect(state)
    assert engine.fast == 2
    assert_like_fresh(state)


def test_a_value_edit_is_taken_by_the_fast_path() -> None:
    state = DocumentState.open(URI, DOC, 1, "terraform-json")
    collect(state)
    engine = state._engine
    at = state.text.index('"ami-1"') + 3  # search: DOC is json.dumps output
    edit(state, at, at + 1, "x")
    edit(state, at, at + 1, "yy")  # two edits, one analysis
    assert_like_fresh(state)
    assert (engine.fast, engine.walks) == (1, 1)


_PIECES = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "\n", "x", "web", "${", "}", "var.env", "é😀",
                           '"a": 1, ', '"count": 1, ', '"for_each": {}, ', '"n": 3, ', '"alias": "z", ',
                           '"r": {}, ', '"aws_x": {"r": {}}, ', "\\u0041", "null"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 6), st.lists(_PIECES, max_size=3).map("".join), st.booleans()),
                min_size=1, max_size=6))
def test_random_edits_give_what_a_fresh_document_gives(edits) -> None:
    state = DocumentState.open(URI, DOC, 1, "terraform-json")
    collect(state)
    touched = []
    for where, length, new, analyse in edits:
        start = int(where * len(state.text))
        end = min(len(state.text), start + length)
        edit(state, start, end, new)
        touched.append(start)
        if analyse:
            collect(state)
    text = state.text
    offsets = sorted({max(0, min(len(text), t + d)) for t in touched for d in range(-12, 13, 2)} | set(range(0, len(text), 17)))
    assert_like_fresh(state, offsets)


WIDE_DOC = json.dumps(
    {"resource": {"aws_instance": {f"i{n}": {"ami": f"ami-{n}", "tags": {"Name": "${var.env}-" + str(n)}} for n in range(30)}},
     "variable": {"env": {}}},
    indent=2,
)


def _wide_container(state: DocumentState):
    resource = state.syntax.root.raw_items[0].value
    return resource.raw_items[0].value  # the aws_instance object: 30 members


def test_an_edit_and_its_analysis_leave_the_wide_container_unshifted() -> None:
    state = DocumentState.open(URI, WIDE_DOC, 1, "terraform-json")
    collect(state)
    state.prepare()  # what the server does once the open's diagnostics are answered
    at = state.text.index('"ami-3"') + 4  # search: WIDE_DOC is json.dumps output
    edit(state, at, at, "x")
    collect(state)
    # The 26 later instances still wait for their shift: neither the reparse nor the analysis
    # (fast path, live positions read through the pending shift) rewrote them.
    assert _wide_container(state).pending == (4, 1)
    edit(state, at, at + 1, "")
    assert _wide_container(state).pending is None
    edit(state, at, at, "yz")
    collect(state)
    assert_like_fresh(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 29), st.sampled_from(['"ami-', '"Name": "']), st.sampled_from(["", "q", "${", "é😀"]),
                          st.integers(0, 2), st.booleans()), min_size=1, max_size=8))
def test_random_edits_in_a_wide_block_type_give_what_a_fresh_document_gives(edits) -> None:
    state = DocumentState.open(URI, WIDE_DOC, 1, "terraform-json")
    collect(state)
    touched = []
    for n, needle, new, cut, analyse in edits:
        text = state.text
        at = text.index(needle, text.index(f'"i{n}"')) + len(needle)  # search: the text hypothesis edits
        edit(state, at, at + cut, new)
        touched.append(at)
        if analyse:
            collect(state)
    text = state.text
    offsets = sorted({max(0, min(len(text), t + d)) for t in touched for d in range(-12, 13, 3)})
    assert_like_fresh(state, offsets)


BIG_DOC = json.dumps(
    {"resource": {"aws_instance": {f"i{n}": {"ami": f"ami-{n}é", "tags": {"Name": "${var.env}-" + str(n)}, "count": n % 3}
                                   for n in range(900)}},
     "variable": {"env": {}}},
    indent=2,
    ensure_ascii=False,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(-40, 40), st.integers(0, 60), st.sampled_from(["", "x", '"', "}", "\n", "é😀"])),
                min_size=1, max_size=5))
def test_edits_across_text_chunks_give_what_a_fresh_document_gives(edits) -> None:
    """The document text is a chunked `TextBuffer` (32 K characters a chunk): edits at and across
    chunk boundaries, with the reparse and the analysis reading slices of it."""
    assert len(BIG_DOC) > 3 * 32768
    state = DocumentState.open(URI, BIG_DOC, 1, "terraform-json")
    collect(state)
    state.prepare()  # what the server does once the open's diagnostics are answered
    for boundary, offset, length, new in edits:
        n = len(state.document.buffer)
        start = max(0, min(n, boundary * 32768 + offset))
        edit(state, start, min(n, start + length), new)
        got = collect(state)
        # Nothing in the edit or its diagnostics joined the chunks into one str (unless it had to
        # parse everything again): they read slices of the buffer.
        full_reparse = state._engine.walks > 1
        changed = (length > 0 and start < n) or new
        assert full_reparse or not changed or state.document.buffer._joined is None
        assert got == collect(DocumentState.open(URI, state.text, 1, "terraform-json"))
