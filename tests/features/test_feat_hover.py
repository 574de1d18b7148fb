"""Hover on block type keys, label keys and core arguments: what they are, and the exact key range."""

from __future__ import annotations

import pytest
from feat_support import decoded
from fixture import parse_fixture

from hcljson_ls.features.hover import hover_in

DOC = """{
  "terraform": {"required_version": ">= 1.5", "backend": {"s3": {"bucket": "b"}}},
  "provider": {"aws": [{"alias": "west", "region": "us-west-2"}]},
  "variable": {"region": {"type": "string", "default": "x", "validation": {"condition": true, "error_message": "m"}}},
  "locals": {"name": "x"},
  "resource": {"aws_instance": {"web": {"ami": "abc", "count": 2, "depends_on": [],
      "lifecycle": {"ignore_changes": "all"}, "provisioner": {"local-exec": {"when": "destroy"}},
      "dynamic": {"ebs": {"for_each": [], "content": {"size": 1}}}}}},
  "module": {"net": {"source": "./net", "cidr": "10.0.0.0/8"}},
  "moved": {"from": "a.b", "to": "a.c"}
}"""


def at(needle: str, nth: int = 0, inside: int = 2) -> int:
    i = -1
    for _ in range(nth + 1):
        i = DOC.index(needle, i + 1)
    return i + inside


CASES = [
    # (needle, expected hovered text, substrings of the markdown)
    ('"resource"', '"resource"', ['resource "<type>" "<name>"', "**resource** block", "managed infrastructure object"]),
    ('"aws_instance"', '"aws_instance"', ["**resource type**", 'resource "aws_instance" "<name>"', "defined by a provider"]),
    ('"web"', '"web"', ["**resource name**", 'resource "aws_instance" "web"']),
    ('"variable"', '"variable"', ['variable "<name>"', "`var.<name>`"]),
    ('"region": {', '"region"', ["**variable name**", 'variable "region"']),
    ('"type"', '"type"', ["**type** — optional argument of `variable \"region\"`", "type constraint"]),
    ('"default"', '"default"', ["taken literally", "Taken literally"]),
    ('"validation"', '"validation"', ["**validation** block in `variable \"region\"`"]),
    ('"condition"', '"condition"', ["**condition** — required argument of `validation`", "An expression"]),
    ('"count"', '"count"', ["**count** — optional meta-argument of `resource \"aws_instance\" \"web\"`", "Conflicts with `for_each`"]),
    ('"depends_on"', '"depends_on"', ["meta-argument", "without `${}`"]),
    ('"ignore_changes"', '"ignore_changes"', ['The keyword `"all"`']),
    ('"lifecycle"', '"lifecycle"', ["**lifecycle** block in `resource \"aws_instance\" \"web\"`"]),
    ('"local-exec"', '"local-exec"', ["**provisioner type**", 'provisioner "local-exec"']),
    ('"when"', '"when"', ['`"destroy"`', "reference written as a plain string"]),
    ('"ebs"', '"ebs"', ["**dynamic block type**", 'dynamic "ebs"']),
    ('"content"', '"content"', ["**content** block in `dynamic \"ebs\"`"]),
    ('"name"', '"name"', ["**name** — local value", "`local.name`"]),
    ('"source"', '"source"', ["**source** — required meta-argument of `module \"net\"`", "variables and locals are allowed"]),
    ('"cidr"', '"cidr"', ["input of `module \"net\"`", 'variable "cidr"']),
    ('"alias"', '"alias"', ["**alias** — optional argument of `provider \"aws\"`"]),
    ('"aws"', '"aws"', ["**provider name**", "required_providers"]),
    ('"s3"', '"s3"', ["**backend type**"]),
    ('"required_version"', '"required_version"', ["of `terraform`"]),
    ('"from"', '"from"', ["**from** — required argument of `moved`", "plain string"]),
]


@pytest.mark.parametrize(("needle", "hovered", "parts"), CASES, ids=[c[0] for c in CASES])
def test_hover(needle: str, hovered: str, parts: list[str]) -> None:
    _, body = decoded(DOC)
    h = hover_in(body, DOC, at(needle))
    assert h is not None
    assert DOC[h.start : h.end] == hovered
    for p in parts:
        assert p in h.markdown, (p, h.markdown)


@pytest.mark.parametrize(
    "offset",
    [
        at('"ami"'),  # provider-defined argument: needs the provider's schema
        at('"abc"'),  # a value
        at('"region": "us-west-2"'),  # provider-defined
        at('"bucket"'),  # backend-defined
        at('"size"'),  # inside dynamic content
        0,  # the root bracket
        at('"resource"', inside=-1),  # whitespace before a key
        at('"resource"', inside=len('"resource"')),  # just after the key: the colon
        len(DOC) + 5,
    ],
)
def test_no_hover(offset: int) -> None:
    _, body = decoded(DOC)
    assert hover_in(body, DOC, offset) is None


def test_the_hovered_range_is_the_key_from_its_first_to_its_last_character() -> None:
    _, body = decoded(DOC)
    start = DOC.index('"resource"')
    for o in (start, start + 5, start + len('"resource"') - 1):
        h = hover_in(body, DOC, o)
        assert h is not None and (h.start, h.end) == (start, start + len('"resource"'))


def test_hover_works_mid_edit() -> None:
    f = parse_fixture('{"resource": {"aws_instance": {"web": {"cou$0nt": 2, "ami": ').only
    text, offset = f.text, f.cursor
    _, body = decoded(text)
    h = hover_in(body, text, offset)
    assert h is not None and "**count**" in h.markdown
    assert hover_in(None, "", 0) is None
