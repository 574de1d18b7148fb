"""Native-syntax files (`.tf`, `.tofu`) read with tree-sitter: what they declare (the JSON side's
keys, character ranges), every reference and call with its static steps and context, broken input,
and the workspace seeing a native file's declarations.

`⟨...⟩` marks (tests/fixture.py) are the expected ranges: a declaration's range, or a reference's
whole range (root to last static step), or a call's name.
"""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.nativehcl import native
from hcljson_ls.terraform.nativehcl.native import NativeFile, parse_native
from hcljson_ls.terraform.resolution.references import (
    IN_COUNT,
    IN_FOR_EACH,
    IN_SELF,
    PROVIDER,
    STATIC,
    Call,
    Reference,
    subject,
)
from hcljson_ls.workspace.files import uri_of_path
from hcljson_ls.workspace.module import summarize


def native_fixture(src: str):
    return parse_fixture(src).only


def ranges(items) -> list[tuple[int, int]]:
    return [i.range if isinstance(i, Reference) else (i.start, i.end) for i in items]


def read(text: str) -> NativeFile:
    """`parse_native` without its safety net: a bug raises here instead of giving an empty file."""
    return native._read(text)


# ---- declarations ------------------------------------------------------------------------------

DECLARATIONS = """
//- /main.tf
# ünïcödé 🎉 before everything: the ranges are character offsets, not bytes
variable ⟨⟨"région"⟩⟩ {
  description = "日本語 ${"é"}"
}
locals {
  ⟨a⟩ = "é"
  ⟨b⟩ = 2
}
locals { ⟨c⟩ = 3 }
output ⟨"o"⟩ { value = 1 }
module ⟨"m"⟩ { source = ⟨"./m"⟩ }
module ⟨"n"⟩ { source = "${var.dir}/n" }
resource "aws_instance" ⟨⟨"web"⟩⟩ {}
data "aws_ami" ⟨⟨"ubuntu"⟩⟩ { provider = aws.west }
ephemeral "random_password" ⟨⟨"p"⟩⟩ {}
action "aws_lambda_invoke" ⟨"go"⟩ {}
check ⟨"health"⟩ {
  data "http" "nested" {}
}
provider ⟨"aws"⟩ {}
provider ⟨"aws"⟩ { alias = "west" }
provider "aws" { alias = var.a }
provider "aws" { alias = "${var.a}" }
provider ⟨⟨"google"⟩⟩ {
  for_each = var.regions
  alias    = "x"
}
provider "google" {
  for_each = var.regions
  alias    = var.alias
}
terraform {
  required_version = ⟨">= 1.5"⟩
  ⟨required_providers⟩ {
    ⟨aws⟩    = { source = "hashicorp/aws", configuration_aliases = [⟨aws.east⟩, aws, aws.a.b, ⟨aws.wést⟩] }
    ⟨google⟩ = "~> 5.0"
  }
}
moved {
  from = aws_instance.a
  to   = aws_instance.b
}
import {
  to = ⟨aws_instance.b⟩
  id = "i-123"
}
import {
  to = aws_instance.b[each.key]
  id = "i-123"
}
removed { from = aws_instance.c }
resource "only_one_label" {}
variable "a" "b" {}
variable "${x}" {}
"""


def test_every_block_kind_declares_what_the_json_side_declares_at_character_offsets():
    f = native_fixture(DECLARATIONS)
    assert "é" in f.text[: f.ranges[0][0]] and len(f.text.encode()) > len(f.text)
    got = read(f.text).declarations
    assert [d.key for d in got] == [
        ("variable", "région"),
        ("variable-input", "région", "", True),  # its facts for callers: no type, no default
        ("local", "a"),
        ("local", "b"),
        ("local", "c"),
        ("output", "o"),
        ("module", "m"),
        ("module-source", "m", "./m"),
        ("module", "n"),
        ("resource", "aws_instance", "web"),
        ("provider-use", "aws", None),  # the provider configuration it uses: its type's prefix
        ("data", "aws_ami", "ubuntu"),
        ("provider-use", "aws", "west"),  # its `provider`
        ("ephemeral", "random_password", "p"),
        ("provider-use", "random", None),
        ("action", "aws_lambda_invoke", "go"),
        ("check", "health"),
        ("provider", "aws", None),
        ("provider", "aws", "west"),
        ("provider-alias", "google", "x"),
        ("provider-configured", "google", "x"),  # instances configured there (`provider_passing`)
        ("version-constraint", "terraform", ">= 1.5"),
        ("required-providers",),  # the block (a module has one), at its type name
        ("provider-requirement", "aws", "hashicorp/aws"),
        ("provider-alias", "aws", "east"),
        ("provider-alias", "aws", "wést"),
        ("provider-requirement", "google", None),
        ("import", "aws_instance.b", "aws_instance.b"),  # a static `to` (one with a reference is none)
    ]
    assert [(d.start, d.end) for d in got] == f.ranges


def test_a_module_calls_providers_map_states_what_it_passes_as_the_json_side_does():
    """Each entry of a call's `providers` map is a fact (`provider_lookup.configuration_passed`): the
    child's configuration it sets and the caller's it gives, at the entry's key, the same keys as a
    JSON file's (`validate.definitions`); an entry naming no configuration states nothing."""
    f = native_fixture("""
module "m" {
  source    = "./m"
  providers = {
    ⟨aws⟩        = aws.west
    ⟨aws.east⟩   = aws
    ⟨"google"⟩   = google.x
    aws.a.b    = aws
  }
}
""")
    got = [d for d in read(f.text).declarations if d.key[0] == "module-providers"]
    assert [d.key for d in got] == [
        ("module-providers", "m", "aws", None, "aws", "west"),
        ("module-providers", "m", "aws", "east", "aws", None),
        ("module-providers", "m", "google", None, "google", "x"),
    ]
    assert [(d.start, d.end) for d in got] == f.ranges
    text = '{"module": {"m": {"source": "./m", "providers": {"aws": "aws.west", "aws.east": "aws", "google": "google.x", "a.b.c": "aws"}}}}'
    json_keys = [k for k in analyze_file(text, parse(text).root, "/m/main.tf.json").definitions()[0]
                 if k[0] == "module-providers"]
    assert json_keys == [d.key for d in got]


def test_labels_are_decoded_and_bare_identifier_labels_declare_too():
    f = native_fixture(r"""
//- /main.tf
variable ⟨⟨"a\"b\u00e9\\"⟩⟩ {}
resource aws_instance ⟨⟨web⟩⟩ {}
output ⟨"$${literal}"⟩ {}
""")
    got = read(f.text).declarations
    assert [d.key for d in got] == [("variable", 'a"bé\\'), ("variable-input", 'a"bé\\', "", True), ("resource", "aws_instance", "web"),
                                    ("provider-use", "aws", None), ("output", "${literal}")]
    assert [(d.start, d.end) for d in got] == f.ranges


def test_summaries_of_native_files_hold_their_declarations_and_override_files_declare_nothing():
    text = 'variable "region" {}\nlocals { x = 1 }\n'
    assert summarize("/m/variables.tf", text).keys == (("variable", "region"), ("variable-input", "region", "", True), ("local", "x"))
    assert summarize("/m/variables.tofu", text, (1, 2)).stamp == (1, 2)
    assert summarize("/m/override.tf", text).keys == ()
    assert summarize("/m/x_override.tofu", text).keys == ()


# ---- references --------------------------------------------------------------------------------


def test_references_with_their_static_steps():
    f = native_fixture("""
//- /main.tf
# é 🎉
locals {
  a = ⟨var.region⟩
  b = ⟨local.a⟩
  c = ⟨module.net.vpc_id⟩
  d = ⟨data.aws_ami.ubuntu.id⟩
  e = ⟨aws_instance.web["key"].private_ip⟩
  f = ⟨aws_instance.web⟩[0].id
  g = ⟨aws_instance.many⟩[*].id
  h = ⟨aws_instance.many⟩.*.id
  i = ⟨aws_instance.web⟩[⟨var.i⟩].id
  j = ⟨path.module⟩
  k = ⟨aws_instance.legacy⟩.0.id
  l = ⟨ephemeral.random_password.p.result⟩
  m = (⟨var.x⟩).y
  n = ⟨var.a⟩ ? -⟨var.b⟩ : ⟨var.c⟩ + 1
  o = { key = ⟨var.k⟩, (⟨var.name⟩) = 1, "quoted" = 2, ⟨var.dotted⟩ = 3 }
  p = ⟨var.m["a\\"é"⟩]
}
""")
    refs = read(f.text).references
    assert all(isinstance(r, Reference) for r in refs)
    assert ranges(refs) == f.ranges
    expected = [
        ("var", ["region"]),
        ("local", ["a"]),
        ("module", ["net", "vpc_id"]),
        ("data", ["aws_ami", "ubuntu", "id"]),
        ("aws_instance", ["web", "key", "private_ip"]),
        ("aws_instance", ["web"]),
        ("aws_instance", ["many"]),
        ("aws_instance", ["many"]),
        ("aws_instance", ["web"]),
        ("var", ["i"]),
        ("path", ["module"]),
        ("aws_instance", ["legacy"]),
        ("ephemeral", ["random_password", "p", "result"]),
        ("var", ["x"]),
        ("var", ["a"]),
        ("var", ["b"]),
        ("var", ["c"]),
        ("var", ["k"]),
        ("var", ["name"]),
        ("var", ["dotted"]),
        ("var", ["m", 'a"é']),
    ]
    assert [(r.root, [s.name for s in r.steps]) for r in refs] == expected
    assert all(r.context == 0 for r in refs)


def test_reference_and_step_ranges_are_the_names_and_string_literals():
    f = native_fixture("""
//- /main.tf
# ü
output "x" { value = ⟨data⟩.⟨t⟩.⟨n⟩[⟨"ké"⟩].⟨attr⟩[0].after }
""")
    [ref] = read(f.text).references
    assert [(ref.start, ref.end), *((s.start, s.end) for s in ref.steps)] == f.ranges
    assert subject(ref) == (("data", "t", "n"), 2)


def test_for_expression_temporaries_and_template_for_variables_are_not_references():
    f = native_fixture("""
//- /main.tf
locals {
  list = [for x in ⟨var.xs⟩ : x.name if x.enabled && ⟨var.flag⟩]
  map  = { for k, v in ⟨local.m⟩ : k => ⟨upper⟩(v) }
  nest = [for a in ⟨var.as⟩ : [for b in a.bs : [a, b, ⟨var.c⟩]]]
  outer = [for x in [⟨x⟩] : x]
  text = "%{ for i, s in ⟨var.items⟩ }${i}: ${s} ${⟨var.sep⟩}%{ endfor }"
  after = ⟨x⟩
}
""")
    refs = read(f.text).references
    assert ranges(refs) == f.ranges  # a for's collection is outside its scope: `[for x in [x] : x]`
    assert [r.root if isinstance(r, Reference) else r.name for r in refs] == [
        "var", "var", "local", "upper", "var", "var", "x", "var", "var", "x",
    ]


def test_the_collection_of_a_for_is_outside_its_scope():
    refs = read("locals {\n  a = [for x in x.items : x]\n}\n").references
    assert [(r.root, [s.name for s in r.steps]) for r in refs] == [("x", ["items"])]


def test_dynamic_block_iterators_are_bound_in_the_block_but_not_in_its_for_each():
    f = native_fixture("""
//- /main.tf
resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_each = ⟨ingress.outer⟩
    content {
      from_port = ingress.value.from
      to_port   = ⟨var.to⟩
    }
  }
  dynamic "egress" {
    for_each = ⟨var.rules⟩
    iterator = rule
    labels   = [rule.key]
    content {
      cidr = rule.value
      name = ⟨egress.value⟩
      dynamic "inner" {
        for_each = rule.value.inner
        content { x = [inner.value, rule.key] }
      }
    }
  }
}
""")
    assert ranges(read(f.text).references) == f.ranges


def test_references_inside_templates_and_heredocs():
    f = native_fixture("""
//- /main.tf
# ☃
resource "null_resource" "n" {
  triggers = {
    quoted = "a-${⟨var.a⟩}-%{ if ⟨local.on⟩ }on%{ else }${⟨upper⟩(⟨var.b⟩)}%{ endif }-$${not.a.ref}"
    nested = "${"${⟨var.inner⟩}"}"
  }
  provisioner "local-exec" {
    command = <<-EOT
      echo ${⟨self.id⟩} ü ${⟨path.module⟩}
    EOT
  }
  user_data = <<EOF
${⟨var.script⟩}
EOF
}
""")
    refs = read(f.text).references
    assert ranges(refs) == f.ranges
    self_ref = next(r for r in refs if isinstance(r, Reference) and r.root == "self")
    assert self_ref.context == IN_SELF


def test_function_calls_with_argument_counts_and_expansion():
    f = native_fixture("""
//- /main.tf
locals {
  a = ⟨provider::aws::arn_parse⟩(⟨var.arn⟩)
  b = ⟨f⟩(⟨local.xs⟩...)
  c = ⟨max⟩(1, 2, ⟨length⟩(⟨var.l⟩))
  d = ⟨timestamp⟩()
  e = ⟨jsonencode⟩({ a = 1 }).a
}
""")
    items = read(f.text).references
    assert ranges(items) == f.ranges
    calls = [(c.name, c.args, c.expands) for c in items if isinstance(c, Call)]
    assert calls == [
        ("provider::aws::arn_parse", 1, False),
        ("f", 1, True),
        ("max", 3, False),
        ("length", 1, False),
        ("timestamp", 0, False),
        ("jsonencode", 1, False),
    ]


def test_context_flags_count_for_each_and_self():
    src = """
resource "aws_instance" "counted" {
  count = length(var.a)
  ami   = var.amis[count.index]
  lifecycle {
    postcondition {
      condition = self.ami != ""
      error_message = "x"
    }
  }
}
module "each" {
  for_each = var.m
  source   = "./m"
  name     = each.key
}
data "http" "both" {
  count    = 1
  for_each = {}
  url      = each.value
}
resource "null_resource" "plain" {
  provisioner "remote-exec" {
    connection { host = self.public_ip }
    inline = [count.index]
  }
}
check "c" {
  data "http" "scoped" {
    count = 2
    url   = count.index
  }
}
output "o" { value = each.key }
"""
    got = [(r.root, r.steps[0].name if r.steps else None, r.context) for r in read(src).references if isinstance(r, Reference)]
    assert got == [
        ("var", "a", 0),  # the count expression itself: the instances are not known there yet
        ("var", "amis", IN_COUNT),
        ("count", "index", IN_COUNT),
        ("self", "ami", IN_COUNT | IN_SELF),
        ("var", "m", 0),
        ("each", "key", IN_FOR_EACH),
        ("each", "value", IN_COUNT | IN_FOR_EACH),
        ("self", "public_ip", IN_SELF),
        ("count", "index", IN_SELF),
        ("count", "index", IN_COUNT),
        ("each", "key", 0),
    ]


def test_addresses_and_provider_references():
    src = """
resource "aws_instance" "a" {
  provider   = aws.west
  depends_on = [aws_instance.b, module.m]
  lifecycle {
    ignore_changes       = [tags, ami]
    replace_triggered_by = [aws_instance.b.id]
  }
}
module "m" {
  source    = "./m"
  providers = { aws = aws.west, aws.east = aws }
}
moved {
  from = aws_instance.old
  to   = aws_instance.a
}
import {
  to       = aws_instance.a
  id       = var.id
  provider = aws.west
}
removed { from = aws_instance.gone }
"""
    refs = [r for r in read(src).references if isinstance(r, Reference)]
    got = [(r.root, tuple(s.name for s in r.steps), r.context) for r in refs]
    assert got == [
        ("aws", ("west",), PROVIDER),
        ("aws_instance", ("b",), 0),
        ("module", ("m",), 0),
        ("aws_instance", ("b", "id"), 0),
        ("aws", ("west",), PROVIDER),
        ("aws", (), PROVIDER),
        ("aws_instance", ("a",), STATIC),
        ("aws_instance", ("a",), STATIC),
        ("var", ("id",), 0),
        ("aws", ("west",), PROVIDER),
    ]
    assert subject(refs[0]) == (("provider", "aws", "west"), 1)
    assert subject(refs[5]) == (("provider", "aws", None), 0)


def test_what_is_not_an_expression_holds_no_references():
    src = """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", configuration_aliases = [aws.west] }
  }
  experiments = [some_experiment]
}
variable "v" {
  type = map(object({ a = optional(string, "x") }))
  validation {
    condition     = length(var.v) > 0
    error_message = "x"
  }
}
resource "aws_instance" "a" {
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "x"
  }
  lifecycle {
    action_trigger {
      events  = [before_create]
      actions = [action.aws_lambda_invoke.go]
    }
  }
}
"""
    items = read(src).references
    assert [(i.name if isinstance(i, Call) else i.root) for i in items] == ["length", "var", "action"]


# ---- broken input ------------------------------------------------------------------------------

VALID = """
# é 🎉 ☃
terraform { required_version = ">= 1.5" }
variable "région" { type = string }
locals {
  names = [for s in var.subnets : s.name if s.public]
  text  = "x-${var.région}-%{ for n in local.names }${n}%{ endfor }"
}
resource "aws_instance" "web" {
  count = length(var.subnets)
  ami   = data.aws_ami.ubuntu["k"].id
  dynamic "ebs_block_device" {
    for_each = var.volumes
    content { size = ebs_block_device.value.size }
  }
  user_data = <<-EOT
    echo ${self.id} ü
  EOT
}
provider "aws" { alias = "west" }
output "ip" { value = provider::aws::arn_parse(aws_instance.web[0].arn).region }
"""


def _check_ranges(text: str, got: NativeFile) -> None:
    n = len(text)
    for d in got.declarations:
        assert 0 <= d.start <= d.end <= n
    for r in got.references:
        assert 0 <= r.start <= r.end <= n
        if isinstance(r, Reference):
            for s in r.steps:
                assert r.end <= s.start <= s.end <= n
            assert text[r.start : r.end] == r.root
        else:
            assert text[r.start : r.end] == r.name


def test_the_valid_sample_reads_fully():
    got = read(VALID)
    assert [d.key for d in got.declarations] == [
        ("version-constraint", "terraform", ">= 1.5"),
        ("variable", "région"), ("variable-input", "région", "string", True), ("local", "names"), ("local", "text"),
        ("resource", "aws_instance", "web"), ("repetition", "count", "resource", "aws_instance", "web"),
        ("provider-use", "aws", None), ("provider", "aws", "west"), ("output", "ip"),
    ]
    _check_ranges(VALID, got)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=len(VALID)), st.integers(min_value=0, max_value=len(VALID)))
def test_truncations_and_cuts_of_a_valid_file_never_raise(a, b):
    for text in (VALID[:a], VALID[:a] + VALID[b:], VALID[a:]):
        _check_ranges(text, read(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*'{}[]()"$%~=.,:?!*<>\n \\#/abcxé🎉', "var", "for", "in", "EOT", "<<", "<<-", "${", "%{",
                                  "resource ", "locals", "dynamic", "content", "iterator", "provider::a::f", "..."])).map("".join))
def test_random_text_never_raises_and_ranges_stay_in_the_text(text):
    _check_ranges(text, read(text))


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_never_raises(text):
    _check_ranges(text, read(text))


def test_lone_surrogates_and_deep_nesting_never_raise():
    for text in ('variable "\ud800" {}\nlocals { a = var.x }\n', "a = " + "[" * 50000, "a = " + "[" * 5000 + "]" * 5000):
        got = read(text)
        _check_ranges(text, got)
    assert read('variable "\ud800" {}\nlocals { a = var.x }\n').declarations[-1].key == ("local", "a")


def test_parse_native_never_raises_even_on_a_bug(monkeypatch, caplog):
    def broken(text):
        raise RuntimeError("boom")

    monkeypatch.setattr(native, "_read", broken)
    assert parse_native("variable \"x\" {}") == NativeFile()
    assert "reading a native file failed" in caplog.text


def test_an_error_swallowing_a_block_keeps_the_blocks_that_parsed():
    text = 'variable "é" {}\nlocals {\n  a = [\n'
    assert [d.key for d in read(text).declarations][:1] == [("variable", "é")]


# ---- the workspace -----------------------------------------------------------------------------


@pytest.mark.parametrize("native_name", ["variables.tf", "variables.tofu"])
def test_a_json_file_duplicating_a_native_declaration_reports_it_with_the_native_place(tmp_path, native_name):
    ws = parse_fixture(f"""
//- /app/{native_name}
# ünïcödé first, so the related range is in characters
variable ⟨"region"⟩ {{}}
//- /app/main.tf.json
{{"variable": {{"region": ⟨{{⟩}}}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    assert ws.uri(f"/app/{native_name}") == uri_of_path(str(tmp_path / "app" / native_name))
    [d] = collect(ws.snapshot(), main)
    assert d.code == "structure/duplicate-block"
    assert (d.start, d.end) == ws.fixture.files["/app/main.tf.json"].ranges[0]
    assert native_name in d.message
    [related] = d.related
    assert related.uri == uri_of_path(str(tmp_path / "app" / native_name))
    assert (related.start, related.end) == ws.fixture.files[f"/app/{native_name}"].ranges[0]


def test_a_native_override_file_causes_no_duplicate(tmp_path):
    ws = parse_fixture("""
//- /app/override.tf
variable "region" { default = "x" }
//- /app/main.tf.json
{"variable": {"region": {}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    assert collect(ws.snapshot(), ws.uri("/app/main.tf.json")) == []


def test_references_of_a_json_file_resolve_to_what_native_files_declare(tmp_path):
    ws = parse_fixture("""
//- /app/main.tf
# ünïcödé
variable "region" {}
locals { prefix = "x" }
provider "aws" { alias = "west" }
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", configuration_aliases = [aws.east] }
  }
}
resource "aws_instance" "web" {}
//- /app/main.tf.json
{"resource": {"aws_eip": {"ip": {
  "instance": "${aws_instance.web.id}",
  "tags": {"a": "${var.region}-${local.prefix}", "b": "${⟨var.nope⟩}"},
  "provider": "aws.west"
}}, "aws_eip_association": {"east": {"provider": "aws.east", "allocation_id": "x"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    diagnostics = collect(ws.snapshot(), main)
    assert [(d.code, d.start, d.end) for d in diagnostics] == [
        ("reference/undeclared", *ws.fixture.files["/app/main.tf.json"].ranges[0]),
    ]
