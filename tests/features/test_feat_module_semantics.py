"""Module semantics: every reference of a JSON file resolved against every file of its module (JSON
and native, open or not), and the requests that follow references across those files.

Every fixture is a real directory with a real `Workspace` over it (`fixture.parse_fixture(...)
.workspace(tmp_path, open=[...])`); expected ranges are `⟨⟩` markers, the cursor is `$0`.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from feat_support import apply_edits
from fixture import FixtureWorkspace, parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features import diagnostics, navigation
from hcljson_ls.features.hover import hover
from hcljson_ls.features.navigation import Highlight, RenameError

# ---- helpers ------------------------------------------------------------------------------------


def build(tmp_path: Path, src: str, open: list[str] | None = None) -> FixtureWorkspace:
    return parse_fixture(src).workspace(tmp_path, open=open)


def text(fw: FixtureWorkspace, path: str) -> str:
    return fw.fixture.files[path].text


def ranges(fw: FixtureWorkspace, path: str) -> list[tuple[int, int]]:
    return fw.fixture.files[path].ranges


def diags(fw: FixtureWorkspace, path: str, prefix: str = "reference/"):
    return [d for d in diagnostics.collect(fw.snapshot(), fw.uri(path)) if d.code.startswith(prefix)]


def spans(fw: FixtureWorkspace, path: str, prefix: str = "reference/") -> list[tuple[str, int, int]]:
    return [(d.code, d.start, d.end) for d in diags(fw, path, prefix)]


def located(fw: FixtureWorkspace, locations) -> list[tuple[str, int, int]]:
    """Locations as (fixture path, start, end)."""
    path_of = {u: p for p, u in fw.uris.items()}
    return [(path_of[loc.uri], loc.start, loc.end) for loc in locations]


def marked(fw: FixtureWorkspace, *paths: str) -> list[tuple[str, int, int]]:
    """Every `⟨⟩` range of the files `paths`, as (path, start, end)."""
    return [(p, s, e) for p in paths for s, e in ranges(fw, p)]


# ---- reference/undeclared -----------------------------------------------------------------------

UNDECLARED = r"""
//- /stack/main.tf.json
{
  "locals": {"label": "Ünïcødé 🚀 ${var.region} ${⟨var.regoin⟩}"},
  "resource": {"aws_instance": {"web": {
    "ami": "${data.aws_ami.ubuntu.id} ${⟨data.aws_ami.ubunt⟩.id}",
    "tags": {"Name": "${local.name} ${⟨local.nmae⟩} ${module.network.id} ${⟨module.netwrk.id⟩}"},
    "user_data": "${ephemeral.random_password.pw.result} ${⟨ephemeral.random_password.pwd⟩.result}",
    "subnet_id": "${aws_subnet.main.id} ${⟨aws_subnet.mian⟩.id} ${⟨aws_subnt.main⟩.id} ${⟨aws_vpc.main⟩.id}",
    "key_name": "${⟨var.zzz⟩} ${⟨local.qqq⟩}"
  }}}
}
//- /stack/variables.tf
# Native: declared here, referred to from JSON.
variable "region" {
  type = string
}
//- /stack/locals.tf.json
{"locals": {"name": "x"}}
//- /stack/data.tf.json
{"data": {"aws_ami": {"ubuntu": {}}}, "ephemeral": {"random_password": {"pw": {"length": 8}}}}
//- /stack/network.tf
module "network" { source = "terraform-aws-modules/vpc/aws" }
resource "aws_subnet" "main" {}
"""


def test_undeclared_in_every_namespace_against_files_never_opened(tmp_path):
    fw = build(tmp_path, UNDECLARED, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    found = diags(fw, main)
    assert [(d.code, d.start, d.end) for d in found] == [("reference/undeclared", s, e) for s, e in ranges(fw, main)]
    t = text(fw, main)
    fixes = {t[d.start : d.end]: [(f.start, f.end, t[f.start : f.end], f.new_text) for f in d.fixes] for d in found}
    quick = {written: [(old, new) for _, _, old, new in f] for written, f in fixes.items()}
    assert quick == {
        "var.regoin": [("regoin", "region")],
        "data.aws_ami.ubunt": [("ubunt", "ubuntu")],
        "local.nmae": [("nmae", "name")],
        "module.netwrk.id": [("netwrk", "network")],
        "ephemeral.random_password.pwd": [("pwd", "pw")],
        "aws_subnet.mian": [("mian", "main")],
        "aws_subnt.main": [("aws_subnt", "aws_subnet")],
        "aws_vpc.main": [],
        "var.zzz": [],
        "local.qqq": [],
    }
    by_text = {t[d.start : d.end]: d for d in found}
    assert "Did you mean \"var.region\"?" in by_text["var.regoin"].message
    assert "Did you mean \"data.aws_ami.ubuntu\"?" in by_text["data.aws_ami.ubunt"].message
    assert "Did you mean \"local.name\"?" in by_text["local.nmae"].message
    assert "Did you mean \"module.network\"?" in by_text["module.netwrk.id"].message
    assert "Did you mean \"ephemeral.random_password.pw\"?" in by_text["ephemeral.random_password.pwd"].message
    assert "Did you mean \"aws_subnet.main\"?" in by_text["aws_subnet.mian"].message
    assert "Did you mean \"aws_subnet.main\"?" in by_text["aws_subnt.main"].message
    assert "Did you mean" not in by_text["var.zzz"].message
    assert by_text["var.zzz"].summary == "Reference to undeclared input variable"
    assert by_text["local.qqq"].summary == "Reference to undeclared local value"
    assert by_text["aws_vpc.main"].summary == "Reference to undeclared resource"
    assert by_text["ephemeral.random_password.pwd"].summary == "Reference to undeclared resource"  # Terraform's words
    assert 'the ephemeral resource "ephemeral.random_password.pwd"' in by_text["ephemeral.random_password.pwd"].message
    # The other files are complete: nothing of theirs is reported when they are opened.
    fw2 = build(tmp_path / "again", UNDECLARED, open=["/stack/main.tf.json", "/stack/locals.tf.json", "/stack/data.tf.json"])
    assert spans(fw2, "/stack/locals.tf.json", "") == spans(fw2, "/stack/data.tf.json", "") == []


def test_open_or_not_the_module_answers_the_same(tmp_path):
    every = ["/stack/main.tf.json", "/stack/locals.tf.json", "/stack/data.tf.json"]
    alone = spans(build(tmp_path / "a", UNDECLARED, open=["/stack/main.tf.json"]), "/stack/main.tf.json")
    all_open = spans(build(tmp_path / "b", UNDECLARED, open=every), "/stack/main.tf.json")
    assert alone == all_open and len(alone) == 10


def test_a_declaration_removed_from_a_file_not_open_is_seen(tmp_path):
    fw = build(tmp_path, UNDECLARED.replace('{"locals": {"name": "x"}}', "{}"), open=["/stack/main.tf.json"])
    t = text(fw, "/stack/main.tf.json")
    found = {t[s:e] for _, s, e in spans(fw, "/stack/main.tf.json")}
    assert "local.name" in found and "local.nmae" in found


ESCAPES = r"""
//- /m/main.tf.json
{
  "variable": {"re\u0067ion": {"description": "Région — “quoted” ☃"}, "zone": {}, "r\u00e9sum\u00e9": {}},
  "locals": {
    "a": "ÅÄÖ 𝄞 ${⟨var.\u0072egoin⟩} ${var.résumé} ${var.r\u00e9sum\u00e9} ${var.\u0072\u0065gion} ${var.region}",
    "b": "${lookup({\"k\" = ⟨var.zne⟩}, \"k\")} ${local.a} ${⟨local.n\u006fpe⟩}",
    "c": "\u0024{⟨var.missing⟩}",
    "d": "${⟨var.résume⟩}"
  }
}
"""


def test_ranges_through_json_escapes_and_non_ascii_text(tmp_path):
    fw = build(tmp_path, ESCAPES)
    main = "/m/main.tf.json"
    t = text(fw, main)
    found = diags(fw, main)
    # Terraform's range: the whole address (`var.regoin`), escapes included.
    assert [(d.code, d.start, d.end) for d in found] == [("reference/undeclared", s, e) for s, e in ranges(fw, main)]
    assert [t[s:e] for s, e in ranges(fw, main)] == ["var.\\u0072egoin", "var.zne", "local.n\\u006fpe", "var.missing", "var.résume"]
    assert [d.summary for d in found] == [
        "Reference to undeclared input variable", "Reference to undeclared input variable",
        "Reference to undeclared local value", "Reference to undeclared input variable",
        "Reference to undeclared input variable",
    ]
    # The names as Terraform decodes them (escapes read).
    for d, name in zip(found, ["var.regoin", "var.zne", "local.nope", "var.missing", "var.résume"]):
        assert f'"{name}"' in d.message, d.message
    # Quick fixes replace exactly the written name (escapes included) with the declared one.
    names = [(s + len("var."), e) for s, e in ranges(fw, main)]
    assert [[(f.start, f.end, f.new_text) for f in d.fixes] for d in found] == [
        [(*names[0], "region")], [(*names[1], "zone")], [], [], [(*names[4], "résumé")],
    ]


# ---- reference/undeclared-output -----------------------------------------------------------------

OUTPUTS = r"""
//- /app/main.tf.json
{
  "module": {"net": {"source": "./net"}, "reg": {"source": "hashicorp/consul/aws"}, "up": {"source": "../shared"}},
  "output": {
    "a": {"value": "${module.net.vpc_id} ${module.net⟨.vpc_ix⟩} ${module.net.subnet_ids[0]}"},
    "b": {"value": "${module.reg.anything} ${module.up.shared} ${module.up⟨.shraed⟩}"},
    "c": {"value": "${module.net} ${⟨module.nte.vpc_id⟩}"}
  }
}
//- /app/net/outputs.tf.json
{"output": {"vpc_id": {"value": 1, "description": "The VPC"}}}
//- /app/net/more.tf
output "subnet_ids" {
  value = []
}
//- /shared/main.tf.json
{"output": {"shared": {"value": 1}}}
"""


def test_undeclared_output_of_a_local_child_module(tmp_path):
    fw = build(tmp_path, OUTPUTS, open=["/app/main.tf.json"])
    main = "/app/main.tf.json"
    found = diags(fw, main)
    assert [(d.code, d.start, d.end) for d in found] == [
        ("reference/undeclared-output", *ranges(fw, main)[0]),
        ("reference/undeclared-output", *ranges(fw, main)[1]),
        ("reference/undeclared", *ranges(fw, main)[2]),
    ]
    vpc_ix, shraed, _ = found
    assert vpc_ix.summary == "Unsupported attribute"  # Terraform's words
    assert 'Module "net" has no output "vpc_ix"' in vpc_ix.message
    assert '"subnet_ids", "vpc_id"' in vpc_ix.message and 'Did you mean "vpc_id"?' in vpc_ix.message
    # Terraform's range has the dot (`.vpc_ix`); the fix replaces the name.
    start, end = ranges(fw, main)[0]
    assert [(f.start, f.end, f.new_text) for f in vpc_ix.fixes] == [(start + 1, end, "vpc_id")]
    assert [f.new_text for f in shraed.fixes] == ["shared"]


# ---- reference/out-of-context and reference/unknown-attribute --------------------------------------

CONTEXTS = r"""
//- /m/main.tf.json
{
  "resource": {"aws_instance": {
    "counted": {"count": 2, "ami": "${count.index} ${⟨count.idx⟩} ${⟨each.key⟩} ${⟨self⟩.id}",
      "provisioner": [{"local-exec": {"command": "${self.private_ip} ${count.index}",
        "connection": {"host": "${self.public_ip}"}}}],
      "lifecycle": {"postcondition": [{"condition": "${self.id != \"\"}", "error_message": "x"}],
                    "precondition": [{"condition": "${⟨self⟩.id != \"\"}", "error_message": "x"}]}},
    "keyed": {"for_each": {"a": 1}, "ami": "${each.key} ${each.value} ${⟨each.kye⟩} ${⟨count.index⟩}"},
    "plain": {"ami": "${path.module} ${path.root} ${path.cwd} ${⟨path.modul⟩} ${terraform.workspace} ${⟨terraform.wrkspace⟩}"}
  }},
  "module": {"m": {"source": "./m", "count": 1, "n": "${count.index}"},
             "f": {"source": "./m", "for_each": [], "n": "${each.value}"}},
  "data": {"aws_ami": {"d": {"for_each": [], "owners": ["${each.key}"], "name_regex": "${⟨count.index⟩}"}}},
  "output": {"o": {"value": "${⟨each.key⟩} ${⟨count.index⟩} ${⟨self⟩.x} ${⟨path.x⟩}"}}
}
"""


def test_count_each_self_only_where_they_exist_and_builtin_attributes(tmp_path):
    fw = build(tmp_path, CONTEXTS)
    main = "/m/main.tf.json"
    t = text(fw, main)
    found = spans(fw, main)
    kinds = {
        "count.idx": "reference/unknown-attribute", "each.kye": "reference/unknown-attribute",
        "path.modul": "reference/unknown-attribute", "terraform.wrkspace": "reference/unknown-attribute",
        "path.x": "reference/unknown-attribute",
        "each.key": "reference/out-of-context", "self": "reference/out-of-context", "count.index": "reference/out-of-context",
    }
    assert found == [(kinds[t[s:e]], s, e) for s, e in ranges(fw, main)]
    fixes = {t[d.start : d.end]: [f.new_text for f in d.fixes] for d in diags(fw, main) if d.code.endswith("attribute")}
    assert fixes == {"count.idx": ["index"], "each.kye": [], "path.modul": ["module"], "terraform.wrkspace": ["workspace"], "path.x": []}


def test_count_and_for_each_cannot_use_themselves(tmp_path):
    """`count.index` inside the `count` expression itself (and `each.*` inside `for_each`) is not
    available: the instances are not known yet (as `terraform.native` says for native files)."""
    fw = build(tmp_path, r"""
//- /m/main.tf.json
{"resource": {"aws_instance": {
  "a": {"count": "${⟨count.index⟩ + 1}", "ami": "${count.index}"},
  "b": {"for_each": "${⟨each.key⟩}", "ami": "${each.key}"}
}}}
""")
    main = "/m/main.tf.json"
    assert spans(fw, main) == [("reference/out-of-context", s, e) for s, e in ranges(fw, main)]


def test_an_instance_key_of_a_module_call_is_not_an_output(tmp_path):
    """`module.net["a"].vpc_id` (a module call with `for_each`): `"a"` is the instance key, `vpc_id`
    the output."""
    fw = build(tmp_path, r"""
//- /m/main.tf.json
{"module": {"net": {"source": "./net", "for_each": {"a": 1}}},
 "output": {"o": {"value": "${module.net[\"a\"].vpc_id} ${module.net[\"a\"]⟨.vpc_ix⟩} ${module.net[0]⟨.vpc_ix⟩}"}}}
//- /m/net/outputs.tf.json
{"output": {"vpc_id": {"value": 1}}}
""", open=["/m/main.tf.json"])
    main = "/m/main.tf.json"
    assert spans(fw, main) == [("reference/undeclared-output", s, e) for s, e in ranges(fw, main)]


def test_a_resource_reference_written_with_the_resource_prefix(tmp_path):
    """`resource.aws_instance.x` (Terraform's escape for a type that clashes with a prefix): the
    message names `aws_instance.x`, and the fix of a misspelled type replaces the type, not `resource`."""
    fw = build(tmp_path, r"""
//- /m/main.tf.json
{"resource": {"aws_instance": {"web": {"ami": "${resource.aws_instance.web.id} ${⟨resource.aws_instanc.web⟩.id} ${⟨resource.aws_instance.webb⟩.id}"}}}}
""")
    main = "/m/main.tf.json"
    t = text(fw, main)
    found = diags(fw, main)
    assert [(d.code, d.start, d.end) for d in found] == [("reference/undeclared", s, e) for s, e in ranges(fw, main)]
    typo, name = found
    assert typo.summary == name.summary == "Reference to undeclared resource"
    assert 'the resource "aws_instanc.web"' in typo.message and 'the resource "aws_instance.webb"' in name.message
    assert [(t[f.start : f.end], f.new_text) for f in typo.fixes] == [("aws_instanc", "aws_instance")]
    assert [(t[f.start : f.end], f.new_text) for f in name.fixes] == [("webb", "web")]


# ---- reference/unknown-provider ------------------------------------------------------------------

PROVIDERS = r"""
//- /m/main.tf.json
{
  "resource": {"aws_instance": {
    "a": {"provider": "aws.west"},
    "b": {"provider": "aws.east"},
    "c": {"provider": "⟨aws.north⟩"},
    "d": {"provider": "aws"},
    "e": {"provider": "⟨google.west⟩"}
  }},
  "data": {"aws_ami": {"x": {"provider": "⟨aws.south⟩"}}},
  "module": {"child": {"source": "./child", "providers": {"aws": "aws.east", "aws.other": "⟨aws.nowhere⟩"}}},
  "import": [{"to": "aws_instance.a", "id": "i-1", "provider": "⟨aws.imp⟩"}]
}
//- /m/providers.tf.json
{"provider": {"aws": [{"alias": "west", "region": "us-west-2"}, {"region": "eu-west-1"}]}}
//- /m/versions.tf
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.east]
    }
  }
}
"""


def test_provider_references_need_an_alias_declared_somewhere(tmp_path):
    fw = build(tmp_path, PROVIDERS, open=["/m/main.tf.json"])
    main = "/m/main.tf.json"
    assert spans(fw, main) == [("reference/unknown-provider", s, e) for s, e in ranges(fw, main)]
    d = diags(fw, main)[0]
    assert d.summary == 'Reference to undeclared provider configuration "aws.north"'


# ---- structure/duplicate-block across files ------------------------------------------------------

#: In a.tf.json and b.tf.json: the variable's key and its body's `{` (where a duplicate is reported,
#: as Terraform reports the later one), the local value's name (both).
DUPLICATES = r"""
//- /m/a.tf.json
{"variable": {⟨"region"⟩: ⟨{⟩}, "only_a": {}}, "locals": {⟨"name": 1⟩}}
//- /m/b.tf.json
{"variable": {⟨"region"⟩: ⟨{⟩"default": "x"}}, "locals": {⟨"name": 2⟩}}
//- /m/c.tf
resource "aws_instance" "web" {}
//- /m/d.tf.json
{"resource": {"aws_instance": {"web": ⟨{⟩}}}}
//- /m/a_override.tf.json
{"variable": {"region": {"default": "y"}}, "resource": {"aws_instance": {"web": {"ami": "z"}}}}
"""


def _reported(fw, path):
    """Where `DUPLICATES` file `path`'s duplicates are reported (a variable's body `{`, a local
    value's whole attribute), and its declarations' keys (a local value's name)."""
    region_key, region_body, local = ranges(fw, path)
    name = (local[0], local[0] + len('"name"'))
    return [region_body, local], [region_key, name]


def test_duplicate_declarations_across_files_reported_in_both_places(tmp_path):
    fw = build(tmp_path, DUPLICATES, open=["/m/a.tf.json", "/m/b.tf.json", "/m/d.tf.json", "/m/a_override.tf.json"])
    a, b, d = "/m/a.tf.json", "/m/b.tf.json", "/m/d.tf.json"
    for here, there in ((a, b), (b, a)):
        found = diags(fw, here, "structure/duplicate-block")
        assert [(x.start, x.end) for x in found] == _reported(fw, here)[0]
        for x, (s, e) in zip(found, _reported(fw, there)[1]):
            [rel] = x.related
            assert (rel.uri, rel.start, rel.end) == (fw.uri(there), s, e)
            assert f"also defined in {there.rsplit('/', 1)[1]}" in x.message
    [web] = diags(fw, d, "structure/duplicate-block")
    assert (web.start, web.end) == ranges(fw, d)[0]
    c_text = text(fw, "/m/c.tf")
    [rel] = web.related
    assert (rel.uri, c_text[rel.start : rel.end]) == (fw.uri("/m/c.tf"), '"web"')
    # An override file declares nothing: it is no duplicate, and nothing is a duplicate of it.
    assert diags(fw, "/m/a_override.tf.json", "") == []


NATIVE_DUPLICATES = r"""
//- /m/main.tf.json
{
  "terraform": {"c$[cloud]loud": ⟨{⟩"organization": "o"}, "required_providers": ⟨{⟩}},
  "locals": {⟨"name": 1⟩},
  "output": {"o": ⟨{⟩"value": 1}},
  "module": {"net": ⟨{⟩"source": "./net"}},
  "data": {"terraform_remote_state": {"s": ⟨{⟩"backend": "local"}}},
  "provider": {"aws": ⟨{⟩"alias": "west"}},
  "check": {"c": ⟨{⟩"assert": {"condition": "${local.name == 1}", "error_message": "x"}}},
  "variable": {"only_json": {}}
}
//- /m/other.tf
terraform {
  backend "local" {}
  required_providers {}
}
locals {
  name = 2
}
output "o" {
  value = 2
}
module "net" {
  source = "./net"
}
data "terraform_remote_state" "s" {
  backend = "local"
}
provider "aws" {
  alias = "west"
}
provider "aws" {
  alias = "east"
}
check "c" {
  assert {
    condition     = local.name == 2
    error_message = "y"
  }
}
"""


def test_duplicates_between_json_and_native_files_of_every_kind(tmp_path):
    # Terraform 1.11 reports each of these ("Duplicate ... declaration", "Both a backend and cloud
    # configuration are present", "Duplicate required providers configuration"); the native side is
    # read with tree-sitter-hcl.
    fw = build(tmp_path, NATIVE_DUPLICATES, open=["/m/main.tf.json"])
    main = "/m/main.tf.json"
    found = diags(fw, main, "structure/duplicate-block")
    assert [(x.start, x.end) for x in found] == ranges(fw, main)
    assert all(r.uri == fw.uri("/m/other.tf") for x in found for r in x.related)
    assert found[0].summary == "Duplicate backend or cloud configuration"


def test_a_backend_or_cloud_block_is_no_declaration_to_navigate_to(tmp_path):
    # The one-per-module marker of state storage names nothing: no target, no rename, no symbol.
    fw = build(tmp_path, NATIVE_DUPLICATES, open=["/m/main.tf.json"])
    uri, offset = fw.mark("cloud")
    snapshot = fw.snapshot()
    assert navigation.target_at(snapshot, uri, offset) is None
    assert navigation.prepare_rename(snapshot, uri, offset) is None
    symbols = navigation.workspace_symbols(snapshot, "")
    assert symbols and not [s for s in symbols if s.uri == uri and s.start <= offset < s.end]
    assert not [s for s in symbols if "storage" in s.name]


OVERRIDES = r"""
//- /m/main.tf.json
{"variable": {"region": {}}, "resource": {"aws_instance": {"web": {}}}, "provider": {"aws": {"alias": "west"}}}
//- /m/other.tf
locals {
  name = "x"
}
//- /m/main_override.tf.json
{
  "variable": {"region": {"default": "y"}, "regoin": ⟨{⟩}},
  "locals": {"name": "z", ⟨"nmae": 1⟩},
  "resource": {"aws_instance": {"web": {"ami": "a"}, "wbe": ⟨{⟩}}},
  "data": {"aws_ami": {"a": ⟨{⟩}}},
  "output": {"o": ⟨{⟩"value": 1}},
  "module": {"m": ⟨{⟩"source": "./m"}},
  "provider": {"aws": [{"alias": "west"}, {"region": "default configurations need no base"}, {"alias": "east"}]}
}
"""


def test_an_override_file_overrides_only_what_a_primary_file_declares(tmp_path):
    # Terraform 1.11 (module.go mergeFile): "Missing resource to override", "Missing base variable
    # declaration to override", ... at each override that no primary file (JSON or native) declares,
    # at its DeclRange: a block's body `{` (of an array of bodies, the `[`), a local value's whole
    # attribute (`hcl.Attribute.Range`: its name to the end of its value).
    fw = build(tmp_path, OVERRIDES, open=["/m/main_override.tf.json"])
    over = "/m/main_override.tf.json"
    found = diags(fw, over, "structure/override-without-base")
    assert [(x.start, x.end) for x in found][:6] == ranges(fw, over)  # the provider's at the `[` of its bodies
    assert [x.summary for x in found] == [
        "Missing variable declaration to override", "Missing local value definition to override", "Missing resource to override",
        "Missing data resource to override", "Missing output definition to override", "Missing module call to override",
        "Missing provider configuration to override",
    ]
    assert diags(fw, over, "") == found  # and nothing else


def test_duplicates_with_the_other_file_not_open(tmp_path):
    fw = build(tmp_path, DUPLICATES, open=["/m/a.tf.json"])
    found = diags(fw, "/m/a.tf.json", "structure/duplicate-block")
    assert [(x.start, x.end) for x in found] == _reported(fw, "/m/a.tf.json")[0]
    assert [(r.uri, r.start, r.end) for x in found for r in x.related] == [
        (fw.uri("/m/b.tf.json"), s, e) for s, e in _reported(fw, "/m/b.tf.json")[1]
    ]


# ---- where references are and are not -----------------------------------------------------------

PLACES = r"""
//- /m/main.tf.json
{
  "resource": {"aws_instance": {
    "web": {
      "dynamic": {"ebs_block_device": {"for_each": "${var.disks}", "iterator": "disk",
        "content": {"device_name": "${disk.value} ${disk.key} ${⟨ebs_block_device.value⟩}",
          "dynamic": {"inner": {"for_each": "${disk.value}", "content": {"x": "${inner.value} ${disk.key}"}}}}},
               "setting": {"for_each": "${var.disks}", "content": {"name": "${setting.key}"}}},
      "user_data": "${[for d in var.disks : d.name]} ${{for k, v in var.disks : k => v}} %{ for s in var.disks }${s}%{ endfor } ${⟨provider::aws::arn_parse⟩(\"x\")} ${⟨provider::nowhere::f⟩(var.disks)}",
      "tags": "${[for d in var.disks : ⟨q⟩.name]}",
      "depends_on": ["aws_instance.db", "⟨aws_instance.nope⟩", "data.aws_ami.img", "⟨data.aws_ami.imgg⟩", "module.child"],
      "lifecycle": {"ignore_changes": ["tags", "not_a_reference"],
                    "replace_triggered_by": ["aws_instance.db.id", "⟨aws_instance.gone⟩.id"]}
    },
    "db": {"ami": "x"}
  }},
  "data": {"aws_ami": {"img": {}}},
  "module": {"child": {"source": "./child"}},
  "moved": [{"from": "aws_instance.was_here", "to": "aws_instance.db"},
            {"from": "module.old", "to": "module.new"}],  # moved.to need not be declared (terraform validate 1.11.4)
  "removed": [{"from": "aws_instance.removed_long_ago", "lifecycle": {"destroy": false}}],
  "import": [{"to": "aws_instance.db", "id": "i-1"}, {"to": "⟨aws_instance.imported⟩", "id": "i-2"}]
}
//- /m/variables.tf.json
{"variable": {"disks": {"type": "map(any)"}}}
"""


def test_static_references_dynamic_iterators_for_temporaries_and_provider_functions(tmp_path):
    fw = build(tmp_path, PLACES, open=["/m/main.tf.json"])
    main = "/m/main.tf.json"
    t = text(fw, main)
    found = spans(fw, main)
    want = []
    for s, e in ranges(fw, main):
        if t[s:e] == "q":
            want.append(("reference/undeclared", s, e + len(".name")))  # `q.name`: a resource type `q`
        elif t[s:e].startswith("provider::"):
            # The module requires no provider: Terraform 1.11.4 says "Unknown provider function".
            want.append(("reference/unknown-provider-function", s, e))
        else:
            want.append(("reference/undeclared", s, e))
    assert found == sorted(want, key=lambda x: (x[1], x[2]))
    # A provider function call is never a reference, even in a namespace nobody declares.
    assert not any("arn_parse" in d.message for d in diags(fw, main, "") if d.code != "reference/unknown-provider-function")


def test_references_inside_a_dynamic_block_still_resolve_outside_names(tmp_path):
    fw = build(tmp_path, r"""
//- /m/main.tf.json
{"resource": {"aws_instance": {"web": {"dynamic": {"ebs": {"for_each": "${⟨var.nope⟩}",
  "content": {"device_name": "${ebs.value} ${⟨var.gone⟩} ${⟨local.x⟩}"}}}}}}}
""")
    assert spans(fw, "/m/main.tf.json") == [("reference/undeclared", s, e) for s, e in ranges(fw, "/m/main.tf.json")]


# ---- override files and files the engine leaves out ------------------------------------------------

OVERRIDE = r"""
//- /m/main.tf.json
{"resource": {"aws_instance": {"web": {"ami": "${var.r$[var.region]egion} ${⟨var.only_in_override⟩}"}}}}
//- /m/variables.tf
variable "region" {}
//- /m/main_override.tf.json
{"variable": {"region": {"default": "us-east-1"}, "only_in_override": {}},
 "resource": {"aws_instance": {"web": {"ami": "${var.region}"}}}}
//- /m/override.tf
resource "aws_instance" "web" {
  tags = { Region = var.region }
}
"""


def test_an_override_file_declares_nothing_but_refers(tmp_path):
    fw = build(tmp_path, OVERRIDE, open=["/m/main.tf.json"])
    main = "/m/main.tf.json"
    assert spans(fw, main, "") == [("reference/undeclared", *ranges(fw, main)[0])]
    # `references` of var.region reaches the override files (JSON and native), open or not.
    uri, offset = fw.mark("var.region")
    refs = located(fw, navigation.references(fw.snapshot(), uri, offset, include_declaration=False))
    assert sorted(p for p, _, _ in refs) == ["/m/main.tf.json", "/m/main_override.tf.json", "/m/override.tf"]


# ---- target_at, definition -----------------------------------------------------------------------

NAV = r"""
//- /stack/main.tf.json
{
  "locals": {$[greeting.0]⟨"g$[greeting.2]r$[greeting.3]e$[greeting.4]eting"⟩: "G$[plain_text]rüße 🌍 ${$[var.region.0]var.r$[var.region.5]e$[var.region.6]gion}", "twice": "${local.g$[ref.0]reeting}${local.g$[ref.1]r$[local.greeting]eeting}"},
  "module": {⟨"net"⟩: {"source": "./net", "cidr": "${var.ci$[var.cidr]dr}"}},
  "resource": {"aws_instance": {"$[web]web": {
    "$[ami]ami": "${da$[data.aws_ami.ubuntu.2]ta.aws_ami.ub$[data.aws_ami.ubuntu.15]u$[data.aws_ami.ubuntu.16]ntu.id}",
    "subnet_id": "${module.n$[module.net.vpc_id.8]et.v$[module.net.vpc_id.12]p$[module.net.vpc_id.13]c_id}",
    "provider": "a$[aws.west.1]ws.w$[aws.west.5]est",
    "tags": {"Name": "${local.g$[ref.2]reeting} ${var[\"$[var.index]region\"]} ${u$[upper.1]p$[upper.2]per(var.region)}"},
    "depends_on": ["aw$[aws_instance.db.3]s_instance.d$[aws_instance.db.15]b"]
  }, ⟨"db"⟩: {"ami": "${var.\u$[var.escaped.6]00$[var.escaped.8]72egion}"}}},
  "moved": [{"from": "aws_instance.o$[aws_instance.old]ld", "to": "aws_instance.$[to_aws_instance.db]db"}]
}
//- /stack/variables.tf
variable ⟨"region"⟩ {
  description = "Where it runs"
  default     = "eu-west-1"
}
variable ⟨"cidr"⟩ {}
//- /stack/data.tf.json
{"data": {"aws_ami": {⟨"ubuntu"⟩: {"most_recent": true}}},
 "provider": {⟨"aws"⟩: [{"alias": "west"}]},
 "output": {"region": {"value": "${var.region}"}}}
//- /stack/net/outputs.tf.json
{"output": {⟨"vpc_id"⟩: {"value": "vpc-1", "description": "The VPC's id"}}}
"""
# ⟨⟩ in NAV: main's local "greeting", module "net" and resource "db"; the declarations the
# definitions land on in the other files.


def _definition(fw, mark):
    uri, offset = fw.mark(mark)
    return located(fw, navigation.definition(fw.snapshot(), uri, offset))


def test_definition_into_files_not_open_json_and_native(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    region, cidr = ranges(fw, "/stack/variables.tf")
    ubuntu, aws = ranges(fw, "/stack/data.tf.json")
    assert _definition(fw, "var.region.5") == [("/stack/variables.tf", *region)]
    assert _definition(fw, "var.region.0") == [("/stack/variables.tf", *region)]  # on `var`
    assert _definition(fw, "var.index") == [("/stack/variables.tf", *region)]
    assert _definition(fw, "var.escaped.8") == [("/stack/variables.tf", *region)]
    assert _definition(fw, "var.cidr") == [("/stack/variables.tf", *cidr)]
    assert _definition(fw, "data.aws_ami.ubuntu.15") == [("/stack/data.tf.json", *ubuntu)]
    assert _definition(fw, "aws.west.5") == [("/stack/data.tf.json", *aws)]
    # The local value in the same file, from each of its references.
    greeting, net, db = ranges(fw, main)
    for nth in range(3):
        assert _definition(fw, f"ref.{nth}") == [(main, *greeting)]
    # Static references: depends_on and moved.to; moved.from names nothing.
    assert _definition(fw, "aws_instance.db.15") == [(main, *db)]
    assert _definition(fw, "to_aws_instance.db") == [(main, *db)]
    assert _definition(fw, "aws_instance.old") == []
    # The module call, and a step into its child module's output.
    assert _definition(fw, "module.net.vpc_id.8") == [(main, *net)]
    [vpc] = ranges(fw, "/stack/net/outputs.tf.json")
    assert _definition(fw, "module.net.vpc_id.12") == [("/stack/net/outputs.tf.json", *vpc)]
    # Functions and built-ins have no definition; nor has plain text.
    assert _definition(fw, "upper.1") == []
    assert _definition(fw, "plain_text") == []


def test_target_at_kinds_and_name_ranges(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    t = text(fw, main)
    snap = fw.snapshot()

    def target(mark):
        uri, offset = fw.mark(mark)
        got = navigation.target_at(snap, uri, offset)
        return None if got is None else (got.kind, got.key, t[got.start : got.end], t[got.name_start : got.name_end])

    assert target("var.region.5") == ("reference", ("variable", "region"), "var.region", "region")
    assert target("var.index") == ("reference", ("variable", "region"), 'var[\\"region\\"]'[:-1], '\\"region\\"')
    assert target("var.escaped.6") == ("reference", ("variable", "region"), "var.\\u0072egion", "\\u0072egion")
    assert target("data.aws_ami.ubuntu.2") == ("reference", ("data", "aws_ami", "ubuntu"), "data.aws_ami.ubuntu.id", "ubuntu")
    assert target("module.net.vpc_id.13") == ("output", ("module", "net"), "module.net.vpc_id", "vpc_id")
    assert target("aws.west.1") == ("reference", ("provider", "aws", "west"), "aws.west", "west")
    assert target("greeting.3") == ("declaration", ("local", "greeting"), '"greeting"', "greeting")
    assert target("web") == ("declaration", ("resource", "aws_instance", "web"), '"web"', "web")
    assert target("upper.2")[0:1] == ("call",)
    assert target("plain_text") is None


# ---- references, highlights ----------------------------------------------------------------------


def test_references_across_files_with_and_without_the_declaration(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    snap = fw.snapshot()
    uri, offset = fw.mark("var.region.6")
    without = located(fw, navigation.references(snap, uri, offset, include_declaration=False))
    withd = located(fw, navigation.references(snap, uri, offset, include_declaration=True))
    decl = ("/stack/variables.tf", *ranges(fw, "/stack/variables.tf")[0])
    assert withd == [decl] + without
    t = text(fw, main)
    dt = text(fw, "/stack/data.tf.json")
    texts = sorted((p, (t if p == main else dt)[s:e]) for p, s, e in without)
    assert texts == sorted([
        (main, "var.region"), (main, 'var[\\"region\\"'), (main, "var.region"), (main, "var.\\u0072egion"),
        ("/stack/data.tf.json", "var.region"),
    ])
    # From the declaration in a native file that is not open: `references` asks the module.
    # (The cursor must be in an open document; the declaration key of a local in JSON works the same.)
    uri, offset = fw.mark("greeting.2")
    refs = located(fw, navigation.references(snap, uri, offset, include_declaration=False))
    assert [t[s:e] for _, s, e in refs] == ["local.greeting"] * 3
    assert located(fw, navigation.references(snap, uri, offset, include_declaration=True))[0] == (main, *ranges(fw, main)[0])


def test_references_of_a_module_and_of_a_static_reference(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    t = text(fw, main)
    snap = fw.snapshot()
    uri, offset = fw.mark("aws_instance.db.3")
    refs = located(fw, navigation.references(snap, uri, offset, include_declaration=True))
    assert [t[s:e] for _, s, e in refs] == ['"db"', "aws_instance.db", "aws_instance.db"]
    # The output step of `module.net.vpc_id`: the child's output declaration, then the callers' references.
    uri, offset = fw.mark("module.net.vpc_id.13")
    found = located(fw, navigation.references(snap, uri, offset))
    assert found[0][0] == "/stack/net/outputs.tf.json" and text(fw, found[0][0])[found[0][1]:found[0][2]] == '"vpc_id"'
    assert [t[s:e] for p, s, e in found[1:]] == ["module.net.vpc_id"] * (len(found) - 1) and len(found) > 1


def test_highlights_in_the_document_reads_and_writes(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    t = text(fw, main)
    uri, offset = fw.mark("local.greeting")
    got = navigation.highlights(fw.snapshot(), uri, offset)
    starts = [m.start() + len("local.") for m in re.finditer(r"local\.greeting", t)]
    s, e = ranges(fw, main)[0]  # "greeting"
    assert got == sorted([Highlight(s, e, True)] + [Highlight(x, x + len("greeting"), False) for x in starts], key=lambda h: h.start)
    # A variable declared in another file: only the reads of this document.
    uri, offset = fw.mark("var.region.5")
    got = navigation.highlights(fw.snapshot(), uri, offset)
    assert all(not h.write for h in got)
    assert [t[h.start : h.end] for h in got] == ["region", '\\"region\\"', "region", "\\u0072egion"]


# ---- prepare_rename, rename ----------------------------------------------------------------------


def test_prepare_rename_gives_the_name_part_or_none(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    t = text(fw, main)
    snap = fw.snapshot()

    def prepared(mark):
        uri, offset = fw.mark(mark)
        got = navigation.prepare_rename(snap, uri, offset)
        return None if got is None else t[got.start : got.end]

    assert prepared("var.region.6") == "region"
    assert prepared("var.index") == '\\"region\\"'
    assert prepared("var.escaped.6") == "\\u0072egion"
    assert prepared("greeting.0") == "greeting"
    assert prepared("data.aws_ami.ubuntu.16") == "ubuntu"
    assert prepared("module.net.vpc_id.8") == "net"
    assert prepared("aws_instance.db.15") == "db"
    # An output of a child module renames its declaration there and every caller's reference.
    assert prepared("module.net.vpc_id.13") == "vpc_id"
    # Not renameable: a provider configuration, a function, a built-in argument, plain text.
    assert prepared("aws.west.5") is None
    assert prepared("upper.1") is None
    assert prepared("ami") is None
    assert prepared("plain_text") is None


def test_prepare_rename_refuses_an_undeclared_name(tmp_path):
    fw = build(tmp_path, '{"locals": {"a": "${var.n$0owhere}"}}')
    uri, offset = fw.cursor
    assert navigation.prepare_rename(fw.snapshot(), uri, offset) is None
    assert isinstance(navigation.rename(fw.snapshot(), uri, offset, "x"), RenameError)


@pytest.mark.parametrize("bad", ["", "1abc", "a b", "a.b", 'a"b', "a\\b", "${x}"])
def test_rename_refuses_names_that_are_not_identifiers(tmp_path, bad):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    uri, offset = fw.mark("var.region.5")
    got = navigation.rename(fw.snapshot(), uri, offset, bad)
    assert isinstance(got, RenameError) and got.message


def test_rename_edits_every_file_and_keeps_string_steps_quoted(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    uri, offset = fw.mark("var.region.5")
    edits = navigation.rename(fw.snapshot(), uri, offset, "area")
    assert not isinstance(edits, RenameError)
    path_of = {u: p for p, u in fw.uris.items()}
    by_path = {path_of[u]: e for u, e in edits.items()}
    assert sorted(by_path) == ["/stack/data.tf.json", main, "/stack/variables.tf"]
    t = text(fw, main)
    assert [(t[e.start : e.end], e.new_text) for e in by_path[main]] == [
        ("region", "area"), ('\\"region\\"', '\\"area\\"'), ("region", "area"), ("\\u0072egion", "area"),
    ]
    vt = text(fw, "/stack/variables.tf")
    assert [(vt[e.start : e.end], e.new_text) for e in by_path["/stack/variables.tf"]] == [("region", "area")]
    new_main = apply_edits(t, by_path[main])
    json.loads(new_main)
    assert '${var[\\"area\\"]}' in new_main and "${var.area}" in new_main


def test_rename_from_the_declaration_key(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    main = "/stack/main.tf.json"
    uri, offset = fw.mark("greeting.4")
    edits = navigation.rename(fw.snapshot(), uri, offset, "salutation")
    assert list(edits) == [fw.uri(main)]
    new = apply_edits(text(fw, main), edits[fw.uri(main)])
    assert json.loads(new)["locals"]["twice"] == "${local.salutation}${local.salutation}"
    assert "salutation" in json.loads(new)["locals"]


def test_rename_also_renames_the_override_of_a_declaration(tmp_path):
    """An override file refers to its base declaration by name: renaming `var.region` must rename
    the override too (Terraform rejects an override of a variable that is not declared)."""
    fw = build(tmp_path, OVERRIDE, open=["/m/main.tf.json"])
    uri, offset = fw.mark("var.region")
    edits = navigation.rename(fw.snapshot(), uri, offset, "area")
    assert not isinstance(edits, RenameError)
    override = fw.uri("/m/main_override.tf.json")
    new = apply_edits(text(fw, "/m/main_override.tf.json"), edits.get(override, []))
    assert set(json.loads(new)["variable"]) == {"area", "only_in_override"}


# ---- workspace symbols ---------------------------------------------------------------------------


def test_workspace_symbols_from_every_module_and_file(tmp_path):
    fw = build(tmp_path, NAV, open=["/stack/main.tf.json"])
    snap = fw.snapshot()
    got = navigation.workspace_symbols(snap, "region")
    path_of = {u: p for p, u in fw.uris.items()}
    assert [(s.name, s.kind, path_of[s.uri]) for s in got] == [
        ("var.region", "Variable", "/stack/variables.tf"),
        ("output.region", "Property", "/stack/data.tf.json"),
    ]
    vt = text(fw, "/stack/variables.tf")
    assert vt[got[0].start : got[0].end] == '"region"'
    assert got[0].container == str(tmp_path / "stack")
    vpc = navigation.workspace_symbols(snap, "vpc")
    assert [(s.name, path_of[s.uri], s.container) for s in vpc] == [
        ("output.vpc_id", "/stack/net/outputs.tf.json", str(tmp_path / "stack" / "net"))
    ]
    fuzzy = [s.name for s in navigation.workspace_symbols(snap, "awsub")]
    assert fuzzy == ["data.aws_ami.ubuntu"]
    everything = {s.name for s in navigation.workspace_symbols(snap, "")}
    assert everything == {
        "local.greeting", "local.twice", "module.net", "aws_instance.web", "aws_instance.db", "var.region",
        "var.cidr", "data.aws_ami.ubuntu", "provider.aws.west", "output.region", "output.vpc_id",
    }


# ---- hover ---------------------------------------------------------------------------------------

HOVER = r"""
//- /stack/main.tf.json
{
  "locals": {"name": "${up$[upper]per(var.r$[var.region]egion)}-${var.s$[var.size]ize}", "n": "${local.n$[local.name]ame}"},
  "module": {"net": {"source": "./net"}},
  "resource": {"aws_instance": {"web": {"count": 2, "ami": "${data.aws_ami.u$[data.aws_ami.ubuntu]buntu.id} ${module.n$[module.net.vpc_id.8]et.v$[module.net.vpc_id.12]pc_id} ${co$[count.index]unt.index} ${pa$[path.module]th.module}"}}},
  "output": {"o": {"value": "${aws_instance.w$[aws_instance.web]eb[0].id} ${var.n$[var.native]ative} ${module.net.s$[module.net.subnet]ubnet}"}}
}
//- /stack/variables.tf.json
{"variable": {"region": {"type": "string", "default": "eu-west-1", "description": "Where it runs — région"},
              "size": {"type": "number"}}}
//- /stack/native.tf
variable "native" {
  type        = string
  description = "Declared natively"
}
//- /stack/data.tf.json
{"data": {"aws_ami": {"ubuntu": {"most_recent": true}}}}
//- /stack/net/outputs.tf.json
{"output": {"vpc_id": {"value": "vpc-1", "description": "The VPC's id"}}}
//- /stack/net/more.tf
output "subnet" {
  value       = 1
  description = "A native output"
}
"""


def _hover(fw, mark):
    path, _ = fw.fixture.mark(mark)
    uri, offset = fw.mark(mark)
    got = hover(fw.snapshot(), uri, offset)
    return None if got is None else (got.markdown, text(fw, path)[got.start : got.end])


def test_hover_on_references_reads_files_not_open(tmp_path):
    fw = build(tmp_path, HOVER, open=["/stack/main.tf.json"])
    md, hovered = _hover(fw, "var.region")
    assert hovered == "var.region"
    for part in ('variable "region"', "type: `string`", "default: `\"eu-west-1\"`", "Where it runs — région", "variables.tf.json"):
        assert part in md
    md, _ = _hover(fw, "var.size")
    assert 'variable "size"' in md and "type: `number`" in md and "default" not in md
    md, hovered = _hover(fw, "local.name")
    assert hovered == "local.name" and "local.name" in md and "${upper(var.region)}-${var.size}" in md
    md, hovered = _hover(fw, "module.net.vpc_id.8")
    assert 'module "net"' in md and "source: `\"./net\"`" in md
    md, hovered = _hover(fw, "module.net.vpc_id.12")
    assert 'output "vpc_id"' in md and "The VPC's id" in md and 'module called "net"' in md
    md, hovered = _hover(fw, "data.aws_ami.ubuntu")
    assert hovered == "data.aws_ami.ubuntu.id" and 'data "aws_ami" "ubuntu"' in md and "data.tf.json" in md
    md, hovered = _hover(fw, "aws_instance.web")
    assert 'resource "aws_instance" "web"' in md and "`count`" in md
    md, hovered = _hover(fw, "upper")
    assert hovered == "upper" and "upper(" in md and "string" in md
    md, hovered = _hover(fw, "count.index")
    assert md.startswith("**count**")
    md, hovered = _hover(fw, "path.module")
    assert md.startswith("**path**")


def test_hover_names_the_declaring_file_by_its_path_in_the_workspace(tmp_path):
    """In a monorepo `variables.tf.json` says little: the path from the workspace folder says which."""
    fw = build(tmp_path, HOVER, open=["/stack/main.tf.json"])
    md, _ = _hover(fw, "var.region")
    assert "Declared in `stack/variables.tf.json`." in md
    md, _ = _hover(fw, "data.aws_ami.ubuntu")
    assert "`stack/data.tf.json`" in md
    md, _ = _hover(fw, "module.net.vpc_id.12")
    assert "`stack/net/outputs.tf.json`" in md


def test_a_file_outside_every_workspace_folder_is_named_by_its_bare_name(tmp_path):
    from hcljson_ls.workspace.files import relative_name, uri_of_path

    inside = tmp_path / "envs" / "prod" / "variables.tf.json"
    assert relative_name(uri_of_path(str(inside)), (str(tmp_path),)) == "envs/prod/variables.tf.json"
    assert relative_name(uri_of_path(str(inside)), (str(tmp_path), str(tmp_path / "envs"))) == "prod/variables.tf.json"
    assert relative_name(uri_of_path(str(inside)), (str(tmp_path / "other"),)) == "variables.tf.json"
    assert relative_name(uri_of_path(str(tmp_path / "envsx" / "a.tf.json")), (str(tmp_path / "envs"),)) == "a.tf.json"
    assert relative_name("untitled:Untitled-1", (str(tmp_path),)) == "Untitled-1"


def test_hover_on_a_variable_declared_in_a_native_file_shows_its_description(tmp_path):
    fw = build(tmp_path, HOVER, open=["/stack/main.tf.json"])
    md, hovered = _hover(fw, "var.native")
    assert hovered == "var.native" and 'variable "native"' in md
    assert "Declared natively" in md
    assert "type:" in md and "string" in md.split("```", 2)[2]


def test_hover_on_an_output_declared_in_a_native_child_shows_its_description(tmp_path):
    fw = build(tmp_path, HOVER, open=["/stack/main.tf.json"])
    md, _ = _hover(fw, "module.net.subnet")
    assert 'output "subnet"' in md and "A native output" in md


# ---- incremental == full ---------------------------------------------------------------------------

EDITED = r"""
//- /m/a.tf.json
{"variable": {"région_x": {"description": "ünï"}, "$[zone]zone": {}}, "locals": {"l1": "${var.zone}"}}
//- /m/b.tf.json
{"output": {"o": {"value": "Ω ${var.zone} ${local.l1} ${var.zoen} ${var.area} ${local.l2}"}}}
//- /m/c.tf
locals { l2 = var.zone }
"""


def _rename_zone_in_a(fw):
    """Rename the declaration of `zone` to `area` in a.tf.json by an incremental change."""
    a, i = fw.mark("zone")
    t = text(fw, "/m/a.tf.json")
    change = {"range": {"start": {"line": 0, "character": i}, "end": {"line": 0, "character": i + 4}}, "text": "area"}
    fw.workspace.change(a, 2, [change], "utf-32")
    return t[:i] + "area" + t[i + 4 :]


def _fresh(tmp_path, a_text, b_text, c_text):
    fresh = tmp_path / "fresh"
    (fresh / "m").mkdir(parents=True)
    (fresh / "m" / "a.tf.json").write_text(a_text, encoding="utf-8")
    (fresh / "m" / "b.tf.json").write_text(b_text, encoding="utf-8")
    (fresh / "m" / "c.tf").write_text(c_text, encoding="utf-8")
    from hcljson_ls.workspace import Workspace
    from hcljson_ls.workspace.files import uri_of_path

    ws = Workspace([str(fresh)])
    uris = {n: uri_of_path(str(fresh / "m" / n)) for n in ("a.tf.json", "b.tf.json")}
    ws.open(uris["a.tf.json"], a_text, 1, "terraform-json")
    ws.open(uris["b.tf.json"], b_text, 1, "terraform-json")
    return ws, uris


def _summary(found):
    return [(d.code, d.start, d.end, d.message, d.fixes, d.related) for d in found]


def test_incremental_rename_of_a_declaration_equals_a_fresh_workspace_changed_file_first(tmp_path):
    fw = build(tmp_path / "inc", EDITED, open=["/m/a.tf.json", "/m/b.tf.json"])
    b = fw.uri("/m/b.tf.json")
    before = diagnostics.collect(fw.snapshot(), b)
    bt = text(fw, "/m/b.tf.json")
    assert [bt[d.start : d.end] for d in before] == ["var.zoen", "var.area"]
    new_a = _rename_zone_in_a(fw)
    after_a = diagnostics.collect(fw.snapshot(), fw.uri("/m/a.tf.json"))
    after_b = diagnostics.collect(fw.snapshot(), b)
    assert [bt[d.start : d.end] for d in after_b] == ["var.zone", "var.zoen"]
    ws, uris = _fresh(tmp_path, new_a, bt, text(fw, "/m/c.tf"))
    assert _summary(after_b) == _summary(diagnostics.collect(ws.snapshot(), uris["b.tf.json"]))
    assert _summary(after_a) == _summary(diagnostics.collect(ws.snapshot(), uris["a.tf.json"]))
    # Renamed back: the first state again, with the suggestion.
    a, i = fw.mark("zone")  # where "area" now is: the same length as "zone"
    fw.workspace.change(a, 3, [{"range": {"start": {"line": 0, "character": i}, "end": {"line": 0, "character": i + 4}}, "text": "zone"}], "utf-32")
    diagnostics.collect(fw.snapshot(), a)
    assert _summary(diagnostics.collect(fw.snapshot(), b)) == _summary(before)


def test_incremental_rename_of_a_declaration_seen_by_the_other_document_first(tmp_path):
    """The other open document is diagnosed first after the edit (as a pull client may ask): it must
    already see the new declarations, not the ones before the edit."""
    fw = build(tmp_path / "inc", EDITED, open=["/m/a.tf.json", "/m/b.tf.json"])
    b = fw.uri("/m/b.tf.json")
    bt = text(fw, "/m/b.tf.json")
    diagnostics.collect(fw.snapshot(), b)
    new_a = _rename_zone_in_a(fw)
    after_b = diagnostics.collect(fw.snapshot(), b)
    ws, uris = _fresh(tmp_path, new_a, bt, text(fw, "/m/c.tf"))
    assert _summary(after_b) == _summary(diagnostics.collect(ws.snapshot(), uris["b.tf.json"]))


def test_a_new_fixture_with_the_renamed_text_agrees(tmp_path):
    renamed = EDITED.replace('"$[zone]zone": {}', '"area": {}')
    fw = build(tmp_path, renamed, open=["/m/a.tf.json", "/m/b.tf.json"])
    bt = text(fw, "/m/b.tf.json")
    assert [bt[d.start : d.end] for d in diags(fw, "/m/b.tf.json")] == ["var.zone", "var.zoen"]
    at_ = text(fw, "/m/a.tf.json")
    assert [at_[d.start : d.end] for d in diags(fw, "/m/a.tf.json")] == ["var.zone"]


# ---- rename round trip -----------------------------------------------------------------------------

ROUND_TRIP = r"""
//- /app/main.tf.json
{
  "locals": {"p$[to-head]refix": "Ünï 🚀 ${var.e$[to-stage]nv}-${var.\u0065nv}", "tags": {"Env": "${local.prefix} ${var[\"env\"]}"}},
  "module": {"net": {"source": "./net", "env": "${var.env}"}},
  "resource": {"aws_instance": {"w$[to-server]eb": {"count": 2, "ami": "${data.aws_ami.u$[to-image]buntu.id}",
    "subnet_id": "${module.n$[to-network]et.vpc_id}", "tags": "${local.t$[to-labels]ags}",
    "depends_on": ["aws_security_group.s$[to-firewall]g", "module.net"],
    "lifecycle": {"replace_triggered_by": ["aws_security_group.sg.id"]}}}},
  "moved": [{"from": "aws_instance.old", "to": "aws_instance.web"}],
  "output": {"ip": {"value": "${aws_instance.web[0].private_ip}"}}
}
//- /app/variables.tf
variable "env" {
  default = "dev"
}
//- /app/sg.tf.json
{"resource": {"aws_security_group": {"$[to-group-1]sg": {"name": "Ω ${var.env}-${local.prefix} ${var.\u0065nv} ${var[\"env\"]}"}}},
 "data": {"aws_ami": {"ubuntu": {"owners": ["${var.env}"]}}}}
//- /app/refs.tf
locals {
  all = [aws_instance.web[0].id, aws_security_group.sg.id, data.aws_ami.ubuntu.id, module.net.vpc_id, local.tags]
}
//- /app/net/main.tf.json
{"variable": {"env": {}}, "output": {"v$[to-id]pc_id": {"value": "vpc-${var.env}"}}}
"""

RENAMES = [
    # (mark `$[to-<new name>]` in ROUND_TRIP, new name)
    ("to-stage", "stage"),
    ("to-head", "head"),
    ("to-labels", "labels"),
    ("to-network", "network"),
    ("to-server", "server"),
    ("to-image", "image"),
    ("to-firewall", "firewall"),
    ("to-group-1", "group-1"),
    ("to-id", "id"),
]


def _reference_diagnostics(ws, uris):
    # `var["env"]` is in the fixture for rename to reach; Terraform rejects that form
    # (`reference/invalid`, the same before and after a rename): only the other codes count here.
    return {u: [d for d in diagnostics.collect(ws.snapshot(), u)
                if d.code.startswith("reference/") and d.code != "reference/invalid"] for u in uris}


@pytest.mark.parametrize("mark,new_name", RENAMES, ids=[r[1] for r in RENAMES])
def test_rename_round_trip(tmp_path, mark, new_name):
    path, _ = parse_fixture(ROUND_TRIP).mark(mark)
    json_files = [p for p in parse_fixture(ROUND_TRIP).files if p.endswith(".tf.json")]
    opened = ["/app/main.tf.json", path] if path != "/app/main.tf.json" else [path]
    fw = build(tmp_path / "before", ROUND_TRIP, open=opened)
    assert all(v == [] for v in _reference_diagnostics(fw.workspace, [fw.uri(p) for p in json_files if p in opened]).values())
    uri, offset = fw.mark(mark)
    snap = fw.snapshot()
    before = navigation.references(snap, uri, offset, include_declaration=True)
    edits = navigation.rename(snap, uri, offset, new_name)
    assert not isinstance(edits, RenameError), edits
    # Apply to every file (open documents and files on disk alike), then start afresh.
    path_of = {u: p for p, u in fw.uris.items()}
    after_root = tmp_path / "after"
    for p, f in fw.fixture.files.items():
        new = apply_edits(f.text, edits.get(fw.uri(p), []))
        target = Path(after_root, *p.lstrip("/").split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(new, encoding="utf-8")
        if p.endswith(".json"):
            json.loads(new)
    assert {path_of[u] for u in edits} <= set(fw.fixture.files)
    from hcljson_ls.workspace import Workspace
    from hcljson_ls.workspace.files import uri_of_path

    ws = Workspace([str(after_root)])
    new_uris = {p: uri_of_path(str(Path(after_root, *p.lstrip("/").split("/")))) for p in fw.fixture.files}
    new_texts = {p: Path(after_root, *p.lstrip("/").split("/")).read_text(encoding="utf-8") for p in fw.fixture.files}
    for p in json_files:
        ws.open(new_uris[p], new_texts[p], 1, "terraform-json")
    # No reference problem appeared anywhere (every JSON file of both modules open).
    problems = _reference_diagnostics(ws, [new_uris[p] for p in json_files])
    assert {p: [(d.code, new_texts[p][d.start : d.end]) for d in problems[new_uris[p]]] for p in json_files} == {
        p: [] for p in json_files
    }
    # The new name is found as often as the old one was, from the same place.
    new_offset = offset
    for e in sorted(edits.get(uri, []), key=lambda e: e.start, reverse=True):
        if e.end <= offset:
            new_offset += len(e.new_text) - (e.end - e.start)
        elif e.start <= offset:
            new_offset = e.start + (new_offset - offset)
    after = navigation.references(ws.snapshot(), new_uris[path], new_offset, include_declaration=True)
    assert len(after) == len(before)
    target = navigation.target_at(ws.snapshot(), new_uris[path], new_offset)
    assert target is not None and target.key is not None and new_name in target.key


# ---- property: undeclared == declared set vs referenced set ----------------------------------------

_NAMES = st.sampled_from(["a", "b", "c", "net", "web", "db", "x1", "y_2", "zz", "région"])
_TYPES = st.sampled_from(["t_one", "t_two", "aws_thing"])


@st.composite
def modules(draw):
    variables = draw(st.sets(_NAMES, max_size=4))
    locals_ = draw(st.sets(_NAMES, max_size=4))
    resources = draw(st.sets(st.tuples(_TYPES, _NAMES), max_size=4))
    refs = draw(st.lists(st.one_of(
        st.tuples(st.just("var"), _NAMES), st.tuples(st.just("local"), _NAMES),
        st.tuples(st.just("res"), st.tuples(_TYPES, _NAMES)),
    ), max_size=10))
    # Which file each kind of declaration goes to, which files refer, and whether variables are native.
    native = draw(st.booleans())
    split = draw(st.lists(st.integers(0, 2), min_size=len(refs), max_size=len(refs)))
    opened = draw(st.sets(st.integers(0, 2), min_size=1))
    return variables, locals_, resources, refs, native, split, opened


def _reference_text(ref) -> str:
    kind, what = ref
    if kind == "var":
        return f"var.{what}"
    if kind == "local":
        return f"local.{what}"
    return f"{what[0]}.{what[1]}.id"


def _write_module(root: Path, module):
    variables, locals_, resources, refs, native, split, _ = module
    by_file: list[list] = [[], [], []]
    for ref, n in zip(refs, split):
        by_file[n].append(ref)
    files: dict[str, str] = {}
    expected: dict[str, list[tuple[int, int]]] = {}
    for n in range(3):
        name = f"f{n}.tf.json"
        head = '{"locals": {"p' + str(n) + '": "Ω '
        parts, want, pos = [], [], len(head)
        for ref in by_file[n]:
            written = _reference_text(ref)
            piece = "${" + written + "} "
            kind, what = ref
            declared = (what in variables) if kind == "var" else (what in locals_) if kind == "local" else (what in resources)
            if not declared:
                start = pos + 2  # Terraform's range: the whole address
                end = pos + 2 + (len(written) if kind != "res" else len(written) - len(".id"))
                want.append((start, end))
            parts.append(piece)
            pos += len(piece)
        body = head + "".join(parts) + '"'
        decls = []
        if n == 0 and locals_:
            body += ", " + ", ".join(f'"{name}": 1' for name in sorted(locals_))
        body += "}"
        if n == 1 and resources:
            types: dict[str, list[str]] = {}
            for t, nm in sorted(resources):
                types.setdefault(t, []).append(nm)
            decls.append('"resource": {' + ", ".join(
                f'"{t}": {{' + ", ".join(f'"{nm}": {{}}' for nm in nms) + "}" for t, nms in types.items()) + "}")
        if n == 2 and variables and not native:
            decls.append('"variable": {' + ", ".join(f'"{v}": {{}}' for v in sorted(variables)) + "}")
        files[name] = body + "".join(", " + d for d in decls) + "}"
        expected[name] = want
    if native:
        files["variables.tf"] = "".join(f'variable "{v}" {{}}\n' for v in sorted(variables))
    for name, content in files.items():
        (root / name).write_text(content, encoding="utf-8")
    return files, expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(modules())
def test_undeclared_references_match_a_simple_model(module):
    from hcljson_ls.workspace import Workspace
    from hcljson_ls.workspace.files import uri_of_path

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "mod"
        root.mkdir()
        files, expected = _write_module(root, module)
        for t in files.values():
            if t.startswith("{"):
                json.loads(t)
        ws = Workspace([tmp])
        opened = sorted(module[-1])
        for n in opened:
            name = f"f{n}.tf.json"
            ws.open(uri_of_path(os.path.join(root, name)), files[name], 1, "terraform-json")
        for n in opened:
            name = f"f{n}.tf.json"
            found = [d for d in diagnostics.collect(ws.snapshot(), uri_of_path(os.path.join(root, name)))
                     if d.code.startswith("reference/")]
            assert {(d.code, d.start, d.end) for d in found} == {("reference/undeclared", s, e) for s, e in expected[name]}, (
                files, name, [(d.code, files[name][d.start : d.end]) for d in found])
