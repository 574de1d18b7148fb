"""Requests answered before a quick-opened document's tree is built (`features.around`): from the
top-level blocks around the offset alone (`DocumentState.around`, `terraform.around`,
`jsonsyntax.window`), the answer is exactly the one the whole tree gives, or none is given there
(`NeedsTree`) and the whole tree answers.

Compared at random offsets of generated documents (hypothesis: every kind of top-level block,
repeated keys, arrays of blocks, root comments, references within the file and to another file of
the module, every layout) and of the real corpus, for hover, completion, definition and signature
help; then the answers that matter for the first request after an open are shown to come from the
blocks around the cursor, without building the tree (fixtures: tests/fixture.py).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import REAL_CORPUS, require

from hcljson_ls.features import around, completion, hover, navigation, signature_help
from hcljson_ls.hcljson.window import NeedsTree
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

FEATURES = {
    "hover": (hover.hover, ()),
    "completion": (completion.complete, (True, True)),
    "definition": (navigation.definition, ()),
    "signature help": (signature_help.signature_help, ()),
}

#: Another file of the module: what references to `var.other`, `local.shared`, `module.net` find.
OTHER = json.dumps({"variable": {"other": {"type": "string", "description": "elsewhere"}},
                    "locals": {"shared": "${var.other}-x"},
                    "module": {"net": {"source": "./net"}}}, indent=2)


def _answers(workspace: Workspace, uri: str, offsets: list[int]) -> tuple[dict, dict]:
    """(the answers from the blocks around each offset, where there was one; the whole tree's
    answers at the same offsets), computed in that order: the second builds the tree."""
    state = workspace.get(uri)
    assert state is not None and not state.built
    local: dict = {}
    for offset in offsets:
        snapshot = workspace.snapshot().around(uri, offset)
        if snapshot is None:
            continue
        for name, (feature, args) in FEATURES.items():
            try:
                local[name, offset] = feature(snapshot, uri, offset, *args)
            except NeedsTree:
                pass
    assert not state.built, "answering around an offset built the tree"
    state.prepare()
    full = {(name, offset): FEATURES[name][0](workspace.snapshot(), uri, offset, *FEATURES[name][1])
            for name, offset in local}
    return local, full


def _check(text: str, offsets: list[int], name: str = "main.tf.json") -> dict:
    # In a directory of its own inside a temporary one: path completion (a module's `source`) lists
    # the module's parent, which must not be the system's temporary directory that other tests (and
    # the other xdist worker) fill and empty meanwhile.
    with tempfile.TemporaryDirectory() as parent:
        directory = str(Path(parent, "module"))
        Path(directory).mkdir()
        Path(directory, "other.tf.json").write_text(OTHER, encoding="utf-8")
        uri = uri_of_path(str(Path(directory, name)))
        workspace = Workspace([directory])
        workspace.open(uri, text, 1, "terraform-json")
        local, full = _answers(workspace, uri, offsets)
    for key, answer in local.items():
        assert answer == full[key], (key, text[max(0, key[1] - 30):key[1]] + "|" + text[key[1]:key[1] + 30])
    return local


# ---- generated documents -------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "web", "r1", "my-res", "x_y"])
TEMPLATES = st.sampled_from([
    "plain", "${var.env}", "${var.other}", "${var.nope}", "${local.p}-${local.shared}", "${aws_instance.a.id}",
    "${aws_instance.web[0].id}", "${upper(var.env)}", "${join(\"-\", [var.env, local.p])}", "${module.net.out}",
    "${data.aws_ami.base.id}", "%{if var.env == \"x\"}y%{endif}", "${each.key}", "${count.index}", "${path.module}",
    "${lookup(local.m, \"k\", \"d\")}", "x-${", "${provider::aws::arn_parse(\"x\")}",
])
VALUES = st.recursive(
    TEMPLATES | st.integers(-3, 3) | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=8,
)
RESOURCE = st.fixed_dictionaries({}, optional={
    "ami": VALUES, "count": st.sampled_from([2, "${var.n}", "x"]), "for_each": st.just("${local.m}"),
    "tags": st.dictionaries(NAMES, TEMPLATES, max_size=3), "depends_on": st.just(["aws_instance.a", "nope.x"]),
    "provider": st.sampled_from(["aws.west", "aws", "${aws}"]),
    "lifecycle": st.just({"ignore_changes": ["tags"], "create_before_destroy": True}),
    "ebs_block_device": st.just([{"device_name": "/dev/sdb", "volume_size": 8}]),
    "provisioner": st.just({"local-exec": {"command": "echo ${self.id}"}}),
    "unknown_thing": VALUES,
})
TOP = st.one_of(
    st.tuples(st.just("resource"), st.dictionaries(st.sampled_from(["aws_instance", "aws_s3_bucket", "terraform_data"]),
                                                    st.dictionaries(NAMES, RESOURCE | st.lists(RESOURCE, max_size=2), min_size=1, max_size=3),
                                                    min_size=1, max_size=2)),
    st.tuples(st.just("data"), st.just({"aws_ami": {"base": {"most_recent": True}}})),
    st.tuples(st.just("variable"), st.dictionaries(st.sampled_from(["env", "n", "dup"]),
                                                   st.fixed_dictionaries({}, optional={"type": st.sampled_from(["string", "number", "map(string)"]),
                                                                                       "default": VALUES, "description": st.just("d")}),
                                                   min_size=1, max_size=2)),
    st.tuples(st.just("locals"), st.dictionaries(st.sampled_from(["p", "m", "dup"]), VALUES, min_size=1, max_size=3)),
    st.tuples(st.just("output"), st.dictionaries(NAMES, st.fixed_dictionaries({"value": VALUES}, optional={"sensitive": st.booleans()}),
                                                 min_size=1, max_size=2)),
    st.tuples(st.just("module"), st.just({"child": {"source": "./child", "count": 1, "in": "${var.env}"}})),
    st.tuples(st.just("provider"), st.just({"aws": [{"region": "${var.env}"}, {"alias": "west"}]})),
    st.tuples(st.just("terraform"), st.just({"required_version": ">= 1.0", "required_providers": {"aws": {"source": "hashicorp/aws"}}})),
    st.tuples(st.just("//"), st.just("a comment")),
    st.tuples(st.just("moved"), st.just({"from": "aws_instance.a", "to": "aws_instance.b"})),
)


@st.composite
def documents(draw) -> str:
    """A document written member by member (a key may repeat), laid out as `json.dumps` would."""
    members = draw(st.lists(TOP, min_size=1, max_size=6))
    indent = draw(st.sampled_from([None, 0, 1, 2, "\t"]))
    ensure_ascii = draw(st.booleans())
    dumped = [json.dumps({k: v}, indent=indent, ensure_ascii=ensure_ascii) for k, v in members]
    inner = [d[1:-1].strip("\n") for d in dumped]  # each `"key": value`, as the layout writes it
    sep = ",\n" if indent is not None else ", "
    return "{" + ("\n" if indent is not None else "") + sep.join(inner) + ("\n" if indent is not None else "") + "}"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents(), st.data())
def test_the_blocks_around_an_offset_answer_what_the_whole_tree_answers(text, data) -> None:
    offsets = data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=25))
    _check(text, offsets)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_the_same_in_a_cdktf_output_file(text, data) -> None:
    offsets = data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=25))
    _check(text, offsets, "cdk.tf.json")


def _broken(text: str) -> str:
    """`text` without the `:` of its last member written `"key": ...` (a syntax error in the last
    block, most often: the blocks before it are read, the rest analysed as one broken piece)."""
    at = text.rfind('": ')
    return text if at < 0 else text[: at + 1] + text[at + 2 :]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents(), st.data())
def test_the_same_in_a_document_with_a_syntax_error(text, data) -> None:
    text = _broken(text)
    offsets = data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=25))
    _check(text, offsets)


def test_a_document_with_a_syntax_error_is_mostly_answered_around_the_offset() -> None:
    """Not vacuous: the blocks before a syntax error answer around their offsets."""
    text = _broken(json.dumps({"variable": {"env": {"type": "string"}},
                               "resource": {"aws_instance": {f"r{i}": {"ami": "${var.env}", "tags": {"n": f"${{local.p}}-{i}"}}
                                                             for i in range(20)}},
                               "locals": {"p": "${upper(var.other)}"}}, indent=2))
    first, last = text.index('"r1"'), text.index('"r17"')  # search: the json.dumps document above
    offsets = list(range(first, last, 23))
    local = _check(text, offsets)
    answered = {offset for _, offset in local}
    assert len(answered) > 0.9 * len(offsets), (len(answered), len(offsets))


def test_generated_documents_are_mostly_answered_around_the_offset() -> None:
    """Not vacuous: inside the blocks of a generated document, most offsets get their answers from
    the blocks around them."""
    text = json.dumps({"variable": {"env": {"type": "string"}},
                       "resource": {"aws_instance": {f"r{i}": {"ami": "${var.env}", "count": 2, "tags": {"n": f"${{local.p}}-{i}"},
                                                               "depends_on": [f"aws_instance.r{max(0, i - 1)}"]}
                                                     for i in range(40)}},
                       "locals": {"p": "${upper(var.other)}"}}, indent=2)
    first, last = text.index('"r1"'), text.index('"locals"')  # search: the json.dumps document above
    offsets = list(range(first, last, 29))
    local = _check(text, offsets)
    answered = {offset for _, offset in local}
    assert len(answered) > 0.9 * len(offsets), (len(answered), len(offsets))


# ---- the real corpus -----------------------------------------------------------------------------


def test_real_files_answer_around_the_offset_what_the_whole_tree_answers() -> None:
    require(REAL_CORPUS)
    answered = 0
    for path in sorted(p for p in REAL_CORPUS.iterdir() if p.name.endswith(".json")):
        text = path.read_text(encoding="utf-8", errors="surrogatepass")
        rng = random.Random(path.name)
        offsets = [rng.randrange(len(text) + 1) for _ in range(8)]
        name = "cdk.tf.json" if "cdk.tf.json" in path.name else "main.tf.json" if path.name.endswith(".tf.json") else path.name
        answered += len(_check(text, offsets, name))
    assert answered > 1000, answered  # most real files are quick-opened: they are answered around the offset


# ---- what the first request after an open gets -----------------------------------------------------

FIXTURE = """
//- /main.tf.json
{
  "variable": {"region": {"type": "string", "default": "eu-west-1", "description": "Where"}},
  "resource": {
    "aws_instance": {
      "web": {"ami": "$[ami]ami-1", "c$[c]o$[count]unt": 2, "availability_zone": "${var.re$[region]gion}a"},
      "api": {"ami": "${up$[upper]per(aw$[upper-arg]s_instance.w$[web]eb[0].ami)}", "count": 1, "subnet_id": "${var.o$[o]t$[other]her}"}
    }
  },
  "output": {"zone": {"value": "${aws_instance.api.availability_zone}"}}
}
//- /other.tf.json
{"variable": {"other": {"type": "string"}}}
"""


@pytest.mark.parametrize(("needle", "feature", "expected"), [
    ("count", "hover", "**count** — optional meta-argument"),
    ("region", "hover", '```hcl\nvariable "region"\n```'),  # declared in another block: a second window
    ("other", "hover", '```hcl\nvariable "other"\n```'),  # declared in another file
    ("upper", "hover", "```hcl\nupper("),
    ("web", "definition", None),
    ("region", "completion", None),
    ("upper-arg", "signature help", None),
])
def test_the_first_request_after_an_open_is_answered_around_its_offset(tmp_path, needle, feature, expected) -> None:
    fixture = parse_fixture(FIXTURE)
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"])
    uri = ws.uri("/main.tf.json")
    offset = fixture.files["/main.tf.json"].marks[needle]
    snapshot = ws.snapshot()
    state = snapshot.document(uri)
    assert state is not None and not state.built
    local = snapshot.around(uri, offset)
    assert local is not None
    function, args = FEATURES[feature]
    got = function(local, uri, offset, *args)  # no NeedsTree: answered from the blocks around
    assert not state.built
    assert got, f"{feature} gave nothing at {needle!r}"
    if expected is not None:
        assert got.markdown.startswith(expected) or expected in got.markdown, got.markdown
    assert around.answer(function, ws.snapshot(), uri, offset, *args) == got
    assert not state.built
    state.prepare()
    assert function(ws.snapshot(), uri, offset, *args) == got


def test_what_needs_every_block_is_answered_from_the_whole_tree(tmp_path) -> None:
    """Completing a new top-level block type (at the root: the names it has already) needs every
    block: refused around the offset, answered by the whole tree (built for it)."""
    text = '{"variable": {"a": {}}, "": 1, "output": {"o": {"value": 1}}}'
    fixture = parse_fixture(text.replace('"": 1', '"$0": 1'))
    ws = fixture.workspace(tmp_path)
    uri, offset = ws.cursor
    state = ws.snapshot().document(uri)
    assert state is not None and not state.built
    assert ws.snapshot().around(uri, offset) is None  # a member of the root that is no block: no window
    items = around.answer(completion.complete, ws.snapshot(), uri, offset, True, True)
    assert state.built
    assert "resource" in {i.label for i in items}


def test_a_bug_of_the_early_path_is_logged_and_the_whole_tree_answers(tmp_path, monkeypatch, caplog) -> None:
    from hcljson_ls.workspace import document

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the window")

    monkeypatch.setattr(document, "window_view", broken)
    fixture = parse_fixture(FIXTURE)
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"])
    uri = ws.uri("/main.tf.json")
    offset = fixture.files["/main.tf.json"].marks["count"]
    found = around.answer(hover.hover, ws.snapshot(), uri, offset)
    assert found is not None and found.markdown.startswith("**count** — optional meta-argument")
    assert ws.snapshot().document(uri).built  # answered by the whole tree
    assert "a bug in the window" in caplog.text


def test_after_the_first_edit_the_blocks_around_are_those_of_the_new_text(tmp_path) -> None:
    """The first edit before the tree has the quick result computed again for the new text (the
    tree is not built): the windows are cut from the new text, and answer what its tree answers."""
    fixture = parse_fixture(FIXTURE)
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"])
    uri = ws.uri("/main.tf.json")
    text = fixture.files["/main.tf.json"].text
    marks = fixture.files["/main.tf.json"].marks
    at, inserted = marks["ami"], "${var.region}-"
    ws.workspace.change(uri, 2, [{"range": {"start": _position(text, at), "end": _position(text, at)},
                                  "text": inserted}], "utf-16")
    state = ws.snapshot().document(uri)
    assert state is not None and not state.built and state.quick() is not None
    # in the inserted `${var.r|egion}`, and at the marks after it (moved by the insertion)
    offsets = [at + len("${var.r"), marks["c"] + len(inserted), marks["o"] + len(inserted)]
    local, full = _answers(ws.workspace, uri, offsets)
    assert len({o for _, o in local}) == len(offsets)
    assert local == full


def _position(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


# ---- between the blocks of one label level (issue 23: the 39 MB document of tiny outputs) -----------

#: Tiny outputs, one after the other under one `output` key, as `json.dumps(indent=2)` lays them out
#: (bench/bench_memory.py's tiny-block document): a cursor at a line's end is between two of them.
TINY = """
//- /main.tf.json
{
  "output": {
    "out_1": {
      "value": 1
    }$[after-value],$[after-comma]
$[line-start]    "out_2":$[after-colon] {
      "value": 2
    },
    "out_3": {
      "value": "${output.out_2}"
    }
  },
  "resource": {
    "terraform_data": {
      "a": {"input": 1},$[between-resources] "b": {"input": 2}
    }
  }
}
"""


@pytest.mark.parametrize("needle", ["after-value", "after-comma", "line-start", "after-colon", "between-resources"])
def test_between_two_blocks_of_one_label_level_the_blocks_around_answer(tmp_path, needle) -> None:
    """Before session 11 an offset between two blocks (the end of a `},` line, where bench_memory's
    hover landed) had no window: the request built the tree of the whole document (61 s at 39 MB
    of tiny outputs). It is in the same object as in the whole tree, among the window's members."""
    fixture = parse_fixture(TINY)
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"])
    uri = ws.uri("/main.tf.json")
    offset = fixture.files["/main.tf.json"].marks[needle]
    state = ws.snapshot().document(uri)
    assert state is not None and not state.built
    assert ws.snapshot().around(uri, offset) is not None
    local, full = _answers(ws.workspace, uri, [offset])
    assert {name for name, _ in local} == set(FEATURES)  # every feature answered around the offset
    assert local == full


def test_between_blocks_of_different_types_the_whole_tree_answers(tmp_path) -> None:
    """Between the last output and the `resource` key, the offset is at the root (completion there
    reads every block type the document has): no window."""
    fixture = parse_fixture(TINY.replace('  },\n  "resource"', '  },$0\n  "resource"'))
    ws = fixture.workspace(tmp_path)
    uri, offset = ws.cursor
    assert ws.snapshot().around(uri, offset) is None
