"""Hover on block type keys, label keys and core arguments: what they are, and the exact key range."""

from __future__ import annotations

import pytest
from feat_support import decoded
from fixture import parse_fixture

from hcljson_ls.features.hover import hover_in

DOC = """$[root]{
  "terraform": {"r$[required_version]equired_version": ">= 1.5", "backend": {"s$[s3]3": {"b$[bucket_key]ucket": "b"}}},
  "provider": {"a$[aws]ws": [{"a$[alias]lias": "west", "r$[region_value]egion": "us-west-2"}]},
  "v$[variable]ariable": {"r$[region]egion": {"t$[type]ype": "string", "d$[default]efault": "x", "v$[validation]alidation": {"c$[condition]ondition": true, "error_message": "m"}}},
  "locals": {"n$[name]ame": "x"},
 $[before_resource] ⟨"r$[resource]esource"⟩$[after_resource]: {"a$[aws_instance]ws_instance": {"w$[web]eb": {"a$[ami_key]mi": "a$[abc_value]bc", "c$[count]ount": 2, "d$[depends_on]epends_on": [],
      "l$[lifecycle]ifecycle": {"i$[ignore_changes]gnore_changes": "all"}, "provisioner": {"l$[local_exec]ocal-exec": {"w$[when]hen": "destroy"}},
      "dynamic": {"e$[ebs]bs": {"for_each": [], "c$[content]ontent": {"s$[size_key]ize": 1}}}}}},
  "module": {"net": {"s$[source]ource": "./net", "c$[cidr]idr": "10.0.0.0/8"}},
  "moved": {"f$[from]rom": "a.b", "to": "a.c"}
}"""
FILE = parse_fixture(DOC).only
TEXT = FILE.text


CASES = [
    # (mark in DOC, expected hovered text, substrings of the markdown)
    ("resource", '"resource"', ['resource "<type>" "<name>"', "**resource** block", "managed infrastructure object"]),
    ("aws_instance", '"aws_instance"', ["**resource type**", 'resource "aws_instance" "<name>"', "defined by a provider"]),
    ("web", '"web"', ["**resource name**", 'resource "aws_instance" "web"']),
    ("variable", '"variable"', ['variable "<name>"', "`var.<name>`"]),
    ("region", '"region"', ["**variable name**", 'variable "region"']),
    ("type", '"type"', ["**type** — optional argument of `variable \"region\"`", "type constraint"]),
    ("default", '"default"', ["taken literally", "Taken literally"]),
    ("validation", '"validation"', ["**validation** block in `variable \"region\"`"]),
    ("condition", '"condition"', ["**condition** — required argument of `validation`", "An expression"]),
    ("count", '"count"', ["**count** — optional meta-argument of `resource \"aws_instance\" \"web\"`", "Conflicts with `for_each`"]),
    ("depends_on", '"depends_on"', ["meta-argument", "without `${}`"]),
    ("ignore_changes", '"ignore_changes"', ['The keyword `"all"`']),
    ("lifecycle", '"lifecycle"', ["**lifecycle** block in `resource \"aws_instance\" \"web\"`"]),
    ("local_exec", '"local-exec"', ["**provisioner type**", 'provisioner "local-exec"']),
    ("when", '"when"', ['`"destroy"`', "reference written as a plain string"]),
    ("ebs", '"ebs"', ["**dynamic block type**", 'dynamic "ebs"']),
    ("content", '"content"', ["**content** block in `dynamic \"ebs\"`"]),
    ("name", '"name"', ["**name** — local value", "`local.name`"]),
    ("source", '"source"', ["**source** — required meta-argument of `module \"net\"`", "variables and locals are allowed"]),
    ("cidr", '"cidr"', ["input of `module \"net\"`", 'variable "cidr"']),
    ("alias", '"alias"', ["**alias** — optional argument of `provider \"aws\"`"]),
    ("aws", '"aws"', ["**provider name**", "required_providers"]),
    ("s3", '"s3"', ["**backend type**"]),
    ("required_version", '"required_version"', ["of `terraform`"]),
    ("from", '"from"', ["**from** — required argument of `moved`", "plain string"]),
]


@pytest.mark.parametrize(("mark", "hovered", "parts"), CASES, ids=[c[0] for c in CASES])
def test_hover(mark: str, hovered: str, parts: list[str]) -> None:
    _, body = decoded(TEXT)
    h = hover_in(body, TEXT, FILE.marks[mark])
    assert h is not None
    assert TEXT[h.start : h.end] == hovered
    for p in parts:
        assert p in h.markdown, (p, h.markdown)


@pytest.mark.parametrize(
    "offset",
    [
        FILE.marks["ami_key"],  # provider-defined argument: needs the provider's schema
        FILE.marks["abc_value"],  # a value
        FILE.marks["region_value"],  # provider-defined
        FILE.marks["bucket_key"],  # backend-defined
        FILE.marks["size_key"],  # inside dynamic content
        FILE.marks["root"],  # the root bracket
        FILE.marks["before_resource"],  # whitespace before a key
        FILE.marks["after_resource"],  # just after the key: the colon
        len(TEXT) + 5,
    ],
)
def test_no_hover(offset: int) -> None:
    _, body = decoded(TEXT)
    assert hover_in(body, TEXT, offset) is None


def test_the_hovered_range_is_the_key_from_its_first_to_its_last_character() -> None:
    _, body = decoded(TEXT)
    (key,) = FILE.ranges  # "resource"
    start, end = key
    for o in (start, start + 5, end - 1):
        h = hover_in(body, TEXT, o)
        assert h is not None and (h.start, h.end) == key


def test_hover_works_mid_edit() -> None:
    f = parse_fixture('{"resource": {"aws_instance": {"web": {"cou$0nt": 2, "ami": ').only
    text, offset = f.text, f.cursor
    _, body = decoded(text)
    h = hover_in(body, text, offset)
    assert h is not None and "**count**" in h.markdown
    assert hover_in(None, "", 0) is None
