"""The first edit before the tree: the quick result read again in the edited block only
(`terraform.quick_edit`) equals the quick open of the new text, through a real `Workspace`
(references resolved against the module, "Did you mean ...?" included)."""

from __future__ import annotations

import json

import pytest
from documents import edit as _edit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import RANDOM_SCHEMA, require

from hcljson_ls.terraform.quick import QuickResult
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.text.offsets import MAX_MOVES
from hcljson_ls.workspace import DocumentState, Workspace
from hcljson_ls.workspace import document as document_module
from hcljson_ls.workspace.files import uri_of_path

URI = "file:///m/main.tf.json"


def _doc(n: int, misspelt: frozenset[int]) -> str:
    return json.dumps(
        {
            "variable": {"env": {"type": "string"}, "region": {"default": "eu"}},
            "locals": {"prefix": "app-${var.env}", "n": 2},
            "data": {"aws_ami": {"ubuntu": {"owners": ["099720109477"], "name_regex": "^ubuntu-${var.region}"}}},
            "resource": {
                "aws_instance": {
                    f"r{i}": {"ami": "${data.aws_ami.ubuntu.id}" if i % 2 else f"ami-{i}", "count": 2,
                              "tags": {"Name": ("${local.prefx}-" if i in misspelt else "${local.prefix}-") + str(i)},
                              "depends_on": [f"aws_instance.r{max(0, i - 1)}"]}
                    for i in range(n)
                },
            },
            "output": {"ip": {"value": "${aws_instance.r0[0].id}"}, "oops": {"value": "${aws_instance.missing.id}"},
                       "env": {"value": "${var.env}", "description": "the env"}},
        },
        indent=1,
    )


def _opened(text: str) -> DocumentState:
    state = Workspace().open(URI, text, 1, "terraform-json")
    assert state is not None
    return state


def _facts(q: QuickResult | None) -> tuple | None:
    if q is None:
        return None
    keys, place = q.definitions()
    return (q.diagnostics, [d.message for d in q.diagnostics], [d.fixes for d in q.diagnostics], keys,
            [place(i) for i in range(len(keys))], q.spans, q.certified, q.analysed, q.located,
            q.own is None or q.own == frozenset(keys))  # (the set kept, when kept, is the keys')


def _fresh(text: str) -> tuple | None:
    return _facts(_opened(text).quick())


@pytest.fixture
def whole_text_read(monkeypatch):
    """Counts the quick opens of the whole text (`quick_file`) made by documents."""
    calls = []
    real = document_module.quick_file

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(document_module, "quick_file", counted)
    return calls


def test_an_edit_inside_one_block_reads_that_block_only(whole_text_read) -> None:
    text = _doc(8, frozenset({2, 5}))
    state = _opened(text)
    before = state.quick()
    assert before is not None and {d.code for d in before.diagnostics} == {"reference/undeclared"}
    assert len(whole_text_read) == 1
    at = state.text.index("${local.prefx}-5") + len("${local.pref")  # search: _doc is json.dumps output
    _edit(state, at, at, "i")  # the misspelt local of r5 fixed: one diagnostic less
    after = state.quick()
    assert len(whole_text_read) == 1  # not read again
    assert not state.built
    assert len(after.diagnostics) == len(before.diagnostics) - 1
    assert _facts(after) == _fresh(state.text)


def test_an_edit_that_keeps_the_definitions_keeps_their_set() -> None:
    """What the resolution keeps per set of the file's keys (the "Did you mean ...?" candidates:
    `resolve._candidates`) is found again by the set's identity: an edit that defines the same
    keys keeps the same set (building and comparing a new one of 12,000 keys was ~2 ms an edit
    at 5 MB)."""
    state = _opened(_doc(8, frozenset({2, 5})))
    before = state.quick()
    assert before.own == frozenset(before.definitions()[0])
    assert state.declared_keys() is before.own  # what the workspace keeps: the same set, not a second
    at = state.text.index("${local.prefx}-5") + len("${local.pref")  # search: _doc is json.dumps output
    _edit(state, at, at, "i")
    after = state.quick()
    assert after is not before and after.own is before.own
    at = state.text.index('"prefix"') + 1  # search: _doc is json.dumps output
    _edit(state, at, at + 6, "prefx")  # the local renamed: a new set
    renamed = state.quick()
    assert renamed.own == frozenset(renamed.definitions()[0]) != before.own
    assert state.declared_keys() is renamed.own


def _broken(text: str) -> str:
    """`text` (a `_doc`) with a syntax error in its last block (the output's `description` lacks its
    `:`): the skim reads the blocks before it, and the rest as one broken piece."""
    at = text.index('"description": ') + len('"description"')  # search: _doc is json.dumps output
    return text[:at] + text[at + 1 :]


def test_an_edit_before_a_syntax_error_reads_that_block_only(whole_text_read) -> None:
    # A user typing in a file that does not parse yet: the broken rest is not read again.
    state = _opened(_broken(_doc(8, frozenset({2, 5}))))
    before = state.quick()
    assert before is not None and before.spans is not None and before.spans.tail >= 0
    assert "syntax/missing-colon" in {d.code for d in before.diagnostics}
    at = state.text.index("${local.prefx}-5") + len("${local.pref")  # search: _doc is json.dumps output
    _edit(state, at, at, "i")
    after = state.quick()
    assert len(whole_text_read) == 1  # not read again
    assert not state.built
    assert len(after.diagnostics) == len(before.diagnostics) - 1  # the misspelt local of r5 fixed
    assert after.spans.tail == before.spans.tail + 1
    assert _facts(after) == _fresh(state.text)
    # An edit in the broken rest reads the whole text again.
    read = len(whole_text_read)  # (with the fresh open `_fresh` made)
    at = state.text.index('"the env"') + 1  # search: _doc is json.dumps output
    _edit(state, at, at, "x")
    again = _facts(state.quick())
    assert len(whole_text_read) == read + 1
    assert again == _fresh(state.text)


def test_a_document_with_a_syntax_error_has_windows_away_from_it() -> None:
    # `around` answers from the blocks around an offset unless they would include the broken one.
    state = _opened(_broken(_doc(3, frozenset())))
    assert state.quick() is not None and state.quick().spans.tail >= 0
    assert state.around(state.text.index('"ami-0"') + 2) is not None  # search: _doc is json.dumps output
    # In the last block before the broken one (`blocks_at` would look at it), and in the broken rest:
    assert state.around(state.text.index('"${aws_instance.missing.id}"') + 2) is None  # search: as above
    assert state.around(state.text.index('"the env"') + 2) is None  # search: as above
    assert not state.built


def test_an_edit_changing_what_the_file_defines_reads_the_whole_text(whole_text_read) -> None:
    state = _opened(_doc(4, frozenset()))
    state.quick()
    at = state.text.index('"prefix"') + 1  # search: _doc is json.dumps output
    _edit(state, at, at + 6, "prefx")  # the local renamed: every use of it now undeclared
    after = state.quick()
    assert len(whole_text_read) == 2
    assert _facts(after) == _fresh(state.text)
    assert sum(d.code == "reference/undeclared" for d in after.diagnostics) == 5


_PIECES = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "x", "r1", "${", "}", "var.env", "var.nope",
                           "local.prefix", "local.prefx", "é😀", '"a": 1, ', '"count": 1, ', '"for_each": {}, ',
                           '"r99": {}, ', "null", "\\n"])
# What stays a valid string: the edits the localised path answers.
_TEXT = st.sampled_from(["x", "${var.nope}", "${local.prefix}", "${local.prefx}", "é😀", "${aws_instance.r0[0].id}",
                         "${aws_instance.r9.id}", "%{ if true }a%{ endif }", "${", "${var.env", ""])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 6), misspelt=st.frozensets(st.integers(0, 5), max_size=3),
       where=st.floats(0, 1), inside=st.booleans(), cut=st.integers(0, 6),
       new=st.one_of(_TEXT, st.lists(_PIECES, max_size=3).map("".join)), broken=st.booleans())
def test_an_edit_anywhere_gives_what_a_quick_open_of_the_new_text_gives(n, misspelt, where, inside, cut, new,
                                                                          broken) -> None:
    text = _broken(_doc(n, misspelt)) if broken else _doc(n, misspelt)  # (broken: a syntax error at the end)
    state = _opened(text)
    state.quick()
    if inside:  # in a string value of a block, where most edits are
        strings = [i + 1 for i, c in enumerate(text) if c == '"' and (text[i - 2 : i] == ": " or text[i - 1] == "[")]
        at = strings[int(where * (len(strings) - 1))]
        end = min(text.index('"', at), at + cut)
    else:
        at = int(where * len(text))
        end = min(len(text), at + cut)
    _edit(state, at, end, new)
    assert _facts(state.quick()) == _fresh(state.text)


def test_edits_before_the_tree_each_read_their_block_only(whole_text_read) -> None:
    # A user typing right after the open: each key is answered from the previous quick result.
    state = _opened(_doc(8, frozenset({2, 5})))
    state.quick()
    at = state.text.index('"ami-4"') + 5  # search: _doc is json.dumps output
    answers = []
    for n, key in enumerate("abc"):
        _edit(state, at + n, at + n, key)
        answers.append((_facts(state.quick()), state.text))
    at = state.text.index('"prefix"') + 1  # search: _doc is json.dumps output
    _edit(state, at, at + 6, "prefx")  # then one that changes the definitions: the whole text, once
    answers.append((_facts(state.quick()), state.text))
    at = state.text.index('"prefx"') + 1  # search: _doc is json.dumps output
    _edit(state, at, at + 5, "prefix")  # and again: the quick result ends, the tree answers
    assert state.quick() is None
    assert len(whole_text_read) == 2  # the open, then the edit of the definitions
    assert '"ami-abc4"' in state.text
    for got, text in answers:
        assert got == _fresh(text)


def test_many_edits_before_the_tree_each_give_a_quick_open_s_answer(whole_text_read) -> None:
    # More edits than `text.offsets.MAX_MOVES`: the places after each edited block are noted moved,
    # then written into new arrays, and read the same as a quick open of the text at every step.
    state = _opened(_doc(8, frozenset({3})))
    state.quick()
    answers = []
    for n in range(2 * MAX_MOVES + 5):
        at = -1
        for _ in range(n * 5 % 8 + 1):  # the tag value of a block, another one each time
            at = state.text.index('"Name": "', at + 1)  # search: _doc is json.dumps output
        at += len('"Name": "')
        if n % 3 == 2:
            _edit(state, at, at + 1, "")  # a deletion
        else:
            _edit(state, at, at, "xy"[: n % 2 + 1])  # an insertion of one or two characters
        answers.append((_facts(state.quick()), state.text))
    assert len(whole_text_read) == 1  # the open: every edit read its block only
    for got, text in answers:
        assert got is not None and got == _fresh(text)


def test_an_edit_inside_a_block_moves_its_own_definitions_past_its_old_end() -> None:
    # `locals` is analysed, its definitions are its names inside its value: text inserted before
    # the last one moves it past where the value used to end, and it is not moved again.
    state = _opened(_doc(3, frozenset()))
    state.quick()
    at = state.text.index('"app-') + 1  # search: _doc is json.dumps output
    _edit(state, at, at, "a-much-longer-prefix-than-the-rest-of-the-block-")
    after = _facts(state.quick())
    assert after is not None and after == _fresh(state.text)


def test_an_edit_of_a_resource_checked_against_its_provider_schema(tmp_path, whole_text_read) -> None:
    # With the module's provider schemas, the edited resource is checked against them as the quick
    # open checks it (`quick._check_schema`, the file's `required_providers` kept).
    require(RANDOM_SCHEMA)
    text = json.dumps({"resource": {"random_string": {f"s{i}": {"length": 8 + i, "special": False} for i in range(6)}},
                       "output": {"o": {"value": "${random_string.s3.result}"}}}, indent=1)
    (tmp_path / "main.tf.json").write_text(text, encoding="utf-8")
    ws = Workspace([str(tmp_path)])
    ws.set_module_schemas(str(tmp_path), ps.load(RANDOM_SCHEMA))
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    state = ws.open(uri, text, 1, "terraform-json")
    assert state.quick() is not None
    at = text.index('"special"', text.index('"s4"')) + 1
    _edit(state, at, at + 7, "specal")  # the schema's diagnostic appears
    after = state.quick()
    assert len(whole_text_read) == 1 and not state.built
    assert [d.code for d in after.diagnostics] == ["schema/unknown-argument"]
    fresh = Workspace([str(tmp_path)])
    fresh.set_module_schemas(str(tmp_path), ps.load(RANDOM_SCHEMA))
    assert _facts(after) == _facts(fresh.open(uri, state.text, 1, "terraform-json").quick())
