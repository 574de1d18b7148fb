"""The quick open places the references of a certified block that resolve with a diagnostic in the raw
text (`quick._locate`) instead of analysing the block, and gives exactly the full path's diagnostics; where a
place is not certain (the string in the `"//"` metadata, written with other escapes, after an escaped quote,
in two contexts), it analyses the block as before. A located block's diagnostics are placed when first read
(`diagnostic.Piece`): the analysis, where a place is not certain, runs then."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from internals import file_diagnostics

from hcljson_ls.features import diagnostics as diagnostics_module
from hcljson_ls.features.diagnostics import gathered, placing_steps, prepare_steps
from hcljson_ls.hcljson.schema import STRING_TRAVERSAL
from hcljson_ls.terraform import quick as quick_module
from hcljson_ls.terraform.resolution.reference_walk import string_refs
from hcljson_ls.terraform.resolution.references import DEPENDS_ON, IN_COUNT, IN_FOR_EACH, Reference
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

MODULE = ('{"variable": {"x": {}, "names": {"type": "list(string)"}, "on": {"type": "bool"}}, "locals": {"l": 1}, '
          '"resource": {"aws_vpc": {"main": {}}}}')


@pytest.fixture
def analyses(monkeypatch) -> list:
    """The blocks the quick open analyses alone (`_Quick.analyse`), as it analyses them."""
    seen: list = []
    real = quick_module._Quick.analyse

    def spy(self, b, openers=()):
        seen.append(b)
        return real(self, b, openers)

    monkeypatch.setattr(quick_module._Quick, "analyse", spy)
    return seen


def _both(tmp_path, text: str):
    (tmp_path / "other.tf.json").write_text(MODULE, encoding="utf-8")
    path = tmp_path / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    uri = uri_of_path(str(path))
    quick = Workspace([str(tmp_path)]).open(uri, text, 1, "terraform-json").quick()
    state = Workspace([str(tmp_path)]).open(uri, text, 1, "terraform-json")
    state.prepare()
    return quick, file_diagnostics(state)


def _resource(body: dict) -> str:
    return json.dumps({"resource": {"aws_instance": {"a": body}}}, indent=2, ensure_ascii=False)


PLACED = {
    "one misspelt variable": {"ami": "${var.y}"},
    "twice, in two arguments": {"ami": "${var.y}", "tags": {"A": "${var.y}", "B": ["x", "${var.y}"]}},
    "with others in one template": {"ami": "${var.x}-${var.nope}-${local.l}-${aws_vpc.mian.id}"},
    "a template with a function call": {"ami": "${uper(var.x)}", "user_data": "%{ if var.x }${local.m}%{ endif }"},
    "with count, inside and outside it": {"count": "${local.n}", "ami": "${count.index}-${var.z}"},
    "with for_each": {"for_each": "${var.x}", "ami": "${each.key}${aws_vpc.nope.id}"},
    "metadata without the string": {"//": {"metadata": {"path": "x/${var.x}"}}, "ami": "${var.y}"},
    "non-ASCII text around": {"ami": "é ${var.y} ü"},
    "a list variable as for_each": {"for_each": "${var.names}", "ami": "${each.key}"},
    "a bool variable as count, and a misspelt one": {"count": "${var.on}", "ami": "${var.y}"},
    "a list variable given to upper()": {"ami": "${upper(var.names)}", "tags": {"a": "x-${!var.names}"}},
}

ANALYSED = {
    "the string also in the metadata": {"//": {"note": "${var.y}"}, "ami": "${var.y}"},
    "written with a unicode escape": "\\u0024{var.y}",
    "non-ASCII text written as escapes": "\\u00e9 ${var.y}",
    "the same string in count and outside": {"count": "${var.y}", "ami": "${var.y}"},
    "a list variable in for_each and outside": {"for_each": "${var.names}", "ami": "${var.names}"},
    "a typed template written with an escape": "\\u0024{upper(var.names)}",
}


@pytest.mark.parametrize("body", PLACED.values(), ids=PLACED.keys())
def test_references_are_placed_in_the_raw_text_as_the_full_path_places_them(tmp_path, body, analyses) -> None:
    quick, full = _both(tmp_path, _resource(body))
    assert quick is not None and full
    assert quick.diagnostics == full
    assert (quick.located, quick.analysed) == (1, 0)
    assert analyses == []


@pytest.mark.parametrize("body", ANALYSED.values(), ids=ANALYSED.keys())
def test_uncertain_places_send_the_block_to_the_full_analysis(tmp_path, body, analyses) -> None:
    if isinstance(body, str):  # raw JSON for the string's value, escapes as written
        text = '{"resource": {"aws_instance": {"a": {"ami": "' + body + '"}}}}'
    else:
        text = _resource(body)
    quick, full = _both(tmp_path, text)
    assert quick is not None and full
    assert (quick.located, quick.analysed) == (1, 0)
    assert analyses == []  # (placed when read)
    assert quick.diagnostics == full
    assert [b.start for b in analyses] == [text.index("{", text.index('"a"'))]  # search: the block's value


def test_an_escaped_quote_before_the_same_text_is_not_taken_for_the_string(tmp_path) -> None:
    # `"${var.y}"` is also written inside another string, after `\"`: that place is not the string's.
    text = '{"resource": {"aws_instance": {"a": {"ami": "${var.y}", "tags": {"T": "say \\"${var.y}"}}}}}'
    quick, full = _both(tmp_path, text)
    assert quick is not None
    assert quick.diagnostics == full
    assert len(full) == 2


def test_a_key_resolved_once_is_placed_in_every_block_and_string_that_writes_it(tmp_path) -> None:
    # One misspelt reference written by three resources, twice in one string, and as a whole template
    # (`_TEMPLATE_KEY`) in two: each key is resolved once and its diagnostics moved to every place.
    bodies = {f"r{n}": {"ami": "${var.y}-${var.y}", "user_data": "${uper(var.x)} ${var.y}", "tags": {"N": f"${{var.y{n}}}"}}
              for n in range(3)}
    text = json.dumps({"resource": {"aws_instance": bodies}}, indent=2, ensure_ascii=False)
    quick, full = _both(tmp_path, text)
    assert quick is not None
    assert quick.diagnostics == full
    assert [d.code for d in full].count("reference/undeclared") == 3 * 4
    assert (quick.located, quick.analysed) == (3, 0)
    assert [d.message for d in quick.diagnostics] == [d.message for d in full]


_NAMES = st.sampled_from(["x", "var", "null", "true", "false", "null-x", "truex", "count", "é_1", "a-b", "_"])
_STEPS = st.lists(st.one_of(_NAMES.map(lambda n: "." + n), st.integers(0, 120).map(lambda i: f"[{i}]")), max_size=4)


@settings(max_examples=100, deadline=None)
@given(root=_NAMES, steps=_STEPS, flags=st.sampled_from([0, IN_COUNT, IN_FOR_EACH | IN_COUNT]), at=st.integers(0, 50))
def test_a_traversal_key_has_the_refs_the_template_parser_gives_its_interpolation(root, steps, flags, at) -> None:
    # The by-key refs carry the positions the template parser gives (`_refs_of` reads them with a regex):
    # the diagnostics of the by-key resolution are moved to the places as they are, so they must be equal.
    traversal = root + "".join(steps)
    template = "${" + traversal + "}"
    assert quick_module._INTERPOLATION.fullmatch(template)
    refs = quick_module._template_refs(template)
    if refs is None:  # (`${null.x}`: an error of its own, so the quick open makes no key of it)
        assert quick_module._SIMPLE.fullmatch(template) is None
        return
    expected = [r.shifted(at - 2, flags) for r in refs]
    assert quick_module._refs_of((quick_module._TRAVERSAL_KEY, traversal, flags), at) == expected


@settings(max_examples=100, deadline=None)
@given(root=_NAMES, names=st.lists(_NAMES, max_size=3), flags=st.sampled_from([0, DEPENDS_ON, IN_COUNT]), at=st.integers(0, 50))
def test_an_address_key_of_names_has_the_refs_the_traversal_reader_gives(root, names, flags, at) -> None:
    # A `depends_on` address of names only is read without parsing it (`_refs_of`): the refs must be the
    # ones `string_refs` gives in traversal mode, which the other address keys still use.
    address = ".".join([root, *names])
    expected = [r.shifted(at, flags) if type(r) is Reference else r.shifted(at)
                for r in string_refs(address, STRING_TRAVERSAL, False)]
    assert quick_module._refs_of((quick_module._ADDRESS_KEY, address, flags), at) == expected


@pytest.fixture
def placements(monkeypatch) -> list:
    """The value starts of the blocks the quick open places (`quick._locate`), as it places them."""
    placed: list = []
    real = quick_module._locate

    def spy(text, b, by_key, strings, *rest):
        placed.append(b.start)
        return real(text, b, by_key, strings, *rest)

    monkeypatch.setattr(quick_module, "_locate", spy)
    return placed


#: 300 resources with 4 misspelt references each (`var.y<n>_<k>`: 1,200 undeclared).
MANY = json.dumps({"resource": {"aws_instance": {f"r{n}": {"ami": "-".join(f"${{var.y{n}_{k}}}" for k in range(4))}
                                                 for n in range(300)}}}, indent=2)


def _opened(tmp_path, text: str):
    """A workspace of `text` (main.tf.json) and `MODULE` (other.tf.json), with `text` open: (workspace, uri, state)."""
    (tmp_path / "other.tf.json").write_text(MODULE, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    workspace = Workspace([str(tmp_path)])
    return workspace, uri, workspace.open(uri, text, 1, "terraform-json")


def test_the_first_of_many_undeclared_references_are_placed_and_the_others_when_read(tmp_path, monkeypatch,
                                                                                    placements) -> None:
    # A client shown 100 of a code (and a summary at the 101st) has the blocks of those placed
    # (`diagnostic.Piece`), the others when read: in the background.
    workspace, uri, state = _opened(tmp_path, MANY)
    shown = list(gathered(workspace.snapshot(), uri, max_per_code=100))
    assert state.quick().located == 300
    starts = sorted(MANY.index("{", MANY.index(f'"r{n}"')) for n in range(300))  # search: each block's value
    # The 25 blocks of 4 shown, the block of the first one hidden, and a few a binary search read.
    assert set(starts[:26]) <= set(placements) and len(placements) < 40 and len(set(placements)) == len(placements)
    left = 300 - len(placements)
    assert len(list(placing_steps(state))) == left and sorted(placements) == starts
    full = Workspace([str(tmp_path)])
    full.open(uri, MANY, 1, "terraform-json").prepare()
    assert shown == gathered(full.snapshot(), uri, max_per_code=100)
    assert len(shown) == 101 and shown[-1].code == "limit/too-many"
    # The build's end compares the 1,200 with the analysis's a part a step (`_COMPARED`: 100 here).
    monkeypatch.setattr(diagnostics_module, "_COMPARED", 100)
    checking = prepare_steps(state)
    steps = 0
    with pytest.raises(StopIteration) as done:
        while True:
            next(checking)
            steps += 1
    assert done.value.value is False and state.built and steps == 12 + 1  # (and the runs kept for the next edit)


def test_a_declaration_elsewhere_during_the_background_placing_reaches_the_next_diagnostics(tmp_path, placements) -> None:
    # Another file declares a name while the pieces are made in the background: those made go on
    # with the keys as they were resolved (one snapshot: no piece's count changes), and the next
    # diagnostics, which bring the module's declarations up to date first, are a new result's.
    workspace, uri, state = _opened(tmp_path, MANY)
    before = state.quick()
    list(gathered(workspace.snapshot(), uri, max_per_code=100))
    steps = placing_steps(state)
    for _ in range(5):
        next(steps)
    other = '{"variable": {"x": {}, "y7_0": {}}, "locals": {"l": 1}, "resource": {"aws_vpc": {"main": {}}}}'
    workspace.open(uri_of_path(str(tmp_path / "other.tf.json")), other, 1, "terraform-json")
    list(steps)
    assert len(placements) == 300 and len(before.diagnostics) == 300 * 4
    assert len(list(gathered(workspace.snapshot(), uri))) == 300 * 4 - 1  # (`var.y7_0` declared now)
