"""Code lens reference counts, unused declarations and value inlay hints through a real `Workspace`
on a real directory (JSON and native files, open or on disk, tfvars files of the module).

Fixtures: `//- /path` starts a file, `⟨⟩` mark ranges (tests/fixture.py).
"""

from __future__ import annotations

from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features import lens as lens_module
from hcljson_ls.features.inlay import shorten, value_hints
from hcljson_ls.features.lens import code_lenses, lens_references, references_title, unused_declarations

MODULE = r"""
//- /m/main.tf.json
{
  "variable": {⟨"region"⟩: {"default": "eu-west-1"}, ⟨"unused"⟩: {}, ⟨"size"⟩: {"default": {"a": 1}}},
  "locals": {⟨"name"⟩: "web", ⟨"made"⟩: "${var.region}-x", ⟨"long"⟩: "abcdefghijklmnopqrstuvwxyz0123456789"},
  "data": {"aws_ami": {⟨"ubuntu"⟩: {}}},
  "resource": {"aws_instance": {⟨"web"⟩: {
    "ami": "${var.region}",
    "tags": {"Name": "${local.name}", "Made": "${local.made}", "Long": "${local.long}"},
    "size": "${var.size}", "zone": "${var.zone}", "count": "${var.count_n}",
    "t": "${local.tier}", "j": "${local.joined}"
  }}},
  "output": {⟨"o"⟩: {"value": "${aws_instance.web.id}"}}
}
//- /m/vars.tf
variable "zone" {
  default = "a"
}
variable "count_n" {}
locals {
  tier   = "gold"
  joined = "${var.zone}-x"
}
output "r" {
  value = var.region
}
"""


def build(tmp_path, extra: str = ""):
    return parse_fixture(MODULE + extra).workspace(tmp_path, open=["/m/main.tf.json"])


def test_a_lens_per_declaration_counts_references_in_every_file(tmp_path) -> None:
    fw = build(tmp_path)
    uri = fw.uri("/m/main.tf.json")
    f = fw.fixture.files["/m/main.tf.json"]
    lenses = code_lenses(fw.snapshot(), uri)
    assert [(lens.start, lens.end) for lens in lenses] == f.ranges
    counts = {f.text[lens.start:lens.end]: len(lens_references(fw.snapshot(), uri, lens.start)) for lens in lenses}
    assert counts == {'"region"': 3, '"unused"': 0, '"size"': 1, '"name"': 1, '"made"': 1, '"long"': 1,
                      '"ubuntu"': 0, '"web"': 1, '"o"': 0}
    assert [references_title(n) for n in (0, 1, 3)] == ["0 references", "1 reference", "3 references"]


def test_unused_variables_locals_and_data_sources_get_a_hint(tmp_path) -> None:
    fw = build(tmp_path)
    uri = fw.uri("/m/main.tf.json")
    text = fw.fixture.files["/m/main.tf.json"].text
    found = [(d.code, d.severity, text[d.start:d.end]) for d in unused_declarations(fw.snapshot(), uri)]
    assert found == [("reference/unused", "hint", '"unused"'), ("reference/unused", "hint", '"ubuntu"')]


def hints(fw, path: str = "/m/main.tf.json"):
    text = fw.fixture.files[path].text
    return [(text[h.offset - 12:h.offset].rsplit("{", 1)[-1], h.label) for h in value_hints(fw.snapshot(), fw.uri(path))]


def test_values_of_variables_default_and_literal_locals(tmp_path) -> None:
    assert hints(build(tmp_path)) == [
        ("var.region", '= "eu-west-1"'),
        ("var.region", '= "eu-west-1"'),
        ("local.name", '= "web"'),
        ("local.long", '= "abcdefghijklmnopqrstuvwxyz01…'),
        ("var.size", '= {"a":1}'),
        ("var.zone", '= "a"'),
        ("local.tier", '= "gold"'),
    ]


def test_tfvars_files_set_values_in_terraform_order(tmp_path) -> None:
    extra = r"""
//- /m/terraform.tfvars
region = "us-east-1"
count_n = 3
//- /m/terraform.tfvars.json
{"region": "eu-central-1"}
//- /m/b.auto.tfvars.json
{"size": {"b": [1, 2]}, "undeclared": 1}
"""
    assert hints(build(tmp_path, extra)) == [
        ("var.region", '= "eu-central-1"'),
        ("var.region", '= "eu-central-1"'),
        ("local.name", '= "web"'),
        ("local.long", '= "abcdefghijklmnopqrstuvwxyz01…'),
        ("var.size", '= {"b":[1,2]}'),
        ("var.zone", '= "a"'),
        ("var.count_n", "= 3"),
        ("local.tier", '= "gold"'),
    ]


def test_shorten_elides_long_values() -> None:
    assert shorten("x" * 30) == "x" * 30
    assert shorten("x" * 31) == "x" * 29 + "…"
    assert shorten("a\n   b") == "a b"


# -- the hints equal the straightforward search, across edits ------------------------------------

EDITED = r"""
//- /e/main.tf.json
{
  "variable": {"a": {}, "b": {}, "c": {}},
  "locals": {"x": "${var.a}", "y": "${local.x}"},
  "data": {"terraform_remote_state": {"s": {"backend": "local"}}},
  "resource": {"terraform_data": {"t": {"input": "${var.b}"}}}
}
//- /e/other.tf.json
{"output": {"o": {"value": "${local.y}"}}}
//- /e/on_disk.tf.json
{"output": {"p": {"value": "${var.c}"}}}
"""

_EDIT_TEXTS = st.sampled_from([
    "${var.a}", "${var.b}", "${var.c}", "${local.x}", "${local.y}", "${data.terraform_remote_state.s.outputs}",
    '"variable": {"a": {}}, ', '"locals": {"x": 1}, ', "x", "", '"', "}", ', "z": "${var.c}"',
])


def _straightforward(snapshot, uri) -> list[tuple[int, int, str]]:
    """Every declaration of the kinds that can be unused, asked one by one where it is declared and
    referred to (`declaration_sites`, `reference_sites`: what the hints meant before they were
    counted per block)."""
    from hcljson_ls.features.lens import UNUSED_KINDS

    out = []
    for lens in code_lenses(snapshot, uri):
        key = lens.key
        if key[0] in UNUSED_KINDS and len(snapshot.declaration_sites(uri, key)) == 1 \
                and not snapshot.reference_sites(uri, key):
            out.append((lens.start, lens.end, key))
    return sorted(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["/e/main.tf.json", "/e/other.tf.json"]), st.floats(0, 1),
                          st.integers(0, 6), _EDIT_TEXTS), min_size=1, max_size=6))
def test_hints_after_edits_in_any_open_file_equal_the_straightforward_search(tmp_path_factory, edits) -> None:
    fw = parse_fixture(EDITED).workspace(tmp_path_factory.mktemp("e"), open=["/e/main.tf.json", "/e/other.tf.json"])
    workspace, main = fw.workspace, fw.uri("/e/main.tf.json")
    for n, (path, where, length, new) in enumerate(edits, 2):
        uri = fw.uri(path)
        state = workspace.get(uri)
        start = int(where * len(state.text))
        end = min(len(state.text), start + length)
        rng = {"start": dict(zip(("line", "character"), state.line_index.position(start, "utf-32"))),
               "end": dict(zip(("line", "character"), state.line_index.position(end, "utf-32")))}
        workspace.change(uri, n, [{"range": rng, "text": new}], "utf-32")
        for u in (main, fw.uri("/e/other.tf.json")):
            workspace.declarations.sync(u)
        got = [(d.start, d.end, d.message) for d in unused_declarations(fw.snapshot(), main)]
        expected = _straightforward(fw.snapshot(), main)
        assert [(s, e) for s, e, _ in got] == [(s, e) for s, e, _ in expected], workspace.get(main).text


def test_an_edit_that_declares_nothing_reuses_the_candidates_and_a_new_declaration_gets_its_hint(tmp_path) -> None:
    fw = parse_fixture('//- /m/main.tf.json\n{"variable": {"a": {}}, "locals": {"x": "v$0"}}\n').workspace(tmp_path)
    uri = fw.uri("/m/main.tf.json")
    state = fw.workspace.get(uri)
    at = [fw.cursor[1]]  # where the next character is typed

    def typed(version: int, new: str) -> list[str]:
        position = dict(zip(("line", "character"), state.line_index.position(at[0], "utf-32")))
        at[0] += len(new)
        fw.workspace.change(uri, version, [{"range": {"start": position, "end": position}, "text": new}], "utf-32")
        return [state.text[d.start:d.end] for d in unused_declarations(fw.snapshot(), uri)]

    assert [state.text[d.start:d.end] for d in unused_declarations(fw.snapshot(), uri)] == ['"a"', '"x"']
    kept = lens_module._candidates(state)
    assert typed(2, "w") == ['"a"', '"x"']
    assert lens_module._candidates(state) is kept  # the same declarations: not scanned again
    assert typed(3, '", "y": "') == ['"a"', '"x"', '"y"']  # a local more: scanned again, and hinted
    assert lens_module._candidates(state) is not kept
