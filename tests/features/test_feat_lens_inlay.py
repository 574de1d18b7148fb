"""Code lens reference counts, unused declarations and value inlay hints through a real `Workspace`
on a real directory (JSON and native files, open or on disk, tfvars files of the module).

Fixtures: `//- /path` starts a file, `⟨⟩` mark ranges (tests/fixture.py).
"""

from __future__ import annotations

from fixture import parse_fixture

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
