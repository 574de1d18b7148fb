"""Document symbols: Terraform names, kinds, ranges, children; no cap; array forms."""

from __future__ import annotations

import json

from feat_support import decoded
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.features.symbols import DocumentSymbol, symbols_in


def symbols(text: str, path: str | None = None) -> tuple[DocumentSymbol, ...]:
    _, body = decoded(text, path)
    return symbols_in(body)


def outline(syms, depth: int = 0) -> list[str]:
    out = []
    for s in syms:
        out.append("  " * depth + f"{s.name} [{s.kind}]")
        out.extend(outline(s.children, depth + 1))
    return out


DOC = """{
  "//": "generated",
  "terraform": {"required_version": ">= 1.5", "backend": {"s3": {"bucket": "b"}}},
  "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "us-west-2"}]},
  "variable": {"region": {"type": "string"}},
  "locals": {"name": "x", "tags": {"a": "b"}},
  "resource": {
    "aws_instance": {
      "web": {
        "ami": "abc",
        "lifecycle": {"create_before_destroy": true},
        "provisioner": [{"local-exec": {"command": "echo"}}],
        "dynamic": {"ebs": {"for_each": [], "content": {"size": 1}}}
      }
    }
  },
  "data": {"aws_ami": {"ubuntu": {}}},
  "module": {"net": {"source": "./net"}},
  "output": {"id": {"value": "${aws_instance.web.id}"}},
  "moved": {"from": "a.b", "to": "a.c"},
  "check": {"up": {"assert": {"condition": true, "error_message": "x"}}}
}"""


def test_symbols_are_named_as_terraform_names_them() -> None:
    assert outline(symbols(DOC)) == [
        "terraform [Namespace]",
        "  required_version [Field]",
        '  backend "s3" [Struct]',
        "    bucket [Field]",
        'provider "aws" [Package]',
        "  region [Field]",
        'provider "aws" [Package]',
        "  alias [Field]",
        "  region [Field]",
        'variable "region" [Variable]',
        "  type [Field]",
        "locals [Namespace]",
        "  name [Constant]",
        "  tags [Constant]",
        'resource "aws_instance" "web" [Class]',
        "  ami [Field]",
        "  lifecycle [Struct]",
        "    create_before_destroy [Field]",
        '  provisioner "local-exec" [Struct]',
        "    command [Field]",
        '  dynamic "ebs" [Struct]',
        "    for_each [Field]",
        "    content [Struct]",
        "      size [Field]",
        'data "aws_ami" "ubuntu" [Struct]',
        'module "net" [Module]',
        "  source [Field]",
        'output "id" [Property]',
        "  value [Field]",
        "moved [Event]",
        "  from [Field]",
        "  to [Field]",
        'check "up" [Interface]',
        "  assert [Struct]",
        "    condition [Field]",
        "    error_message [Field]",
    ]


def test_selection_is_the_naming_key_and_ranges_nest() -> None:
    syms = symbols(DOC)
    web = next(s for s in syms if s.name.endswith('"web"'))
    assert DOC[web.selection_start : web.selection_end] == '"web"'
    assert DOC[web.start : web.end].startswith('"web": {') and DOC[web.start : web.end].endswith("}")
    lifecycle = next(c for c in web.children if c.name == "lifecycle")
    assert DOC[lifecycle.selection_start : lifecycle.selection_end] == '"lifecycle"'
    ami = web.children[0]
    assert (DOC[ami.selection_start : ami.selection_end], DOC[ami.start : ami.end]) == ('"ami"', '"ami": "abc"')
    check_invariants(syms)


def test_bodies_sharing_one_key_get_separate_ranges() -> None:
    aws1, aws2 = [s for s in symbols(DOC) if s.name == 'provider "aws"']
    assert DOC[aws1.selection_start : aws1.selection_end] == '"aws"'
    assert DOC[aws2.selection_start : aws2.selection_end] == "{"
    assert DOC[aws2.start : aws2.end] == '{"alias": "west", "region": "us-west-2"}'
    assert aws1.end <= aws2.start


def test_labels_are_quoted_like_the_native_syntax() -> None:
    (s,) = symbols('{"variable": {"say \\"hi\\"": {}}}')
    assert s.name == 'variable "say \\"hi\\""'


def test_there_is_no_cap_on_the_number_of_symbols() -> None:
    n = 6000
    doc = json.dumps({"resource": {"null_resource": {f"r{i}": {"triggers": {}} for i in range(n)}}})
    syms = symbols(doc)
    assert len(syms) == n and syms[-1].name == f'resource "null_resource" "r{n - 1}"'


def test_an_empty_or_broken_document_has_no_or_partial_symbols() -> None:
    assert symbols("") == ()
    assert symbols("{}") == ()
    assert [s.name for s in symbols('{"variable": {"a": {}, "b": ')] == ['variable "a"']


def check_invariants(syms, parent: DocumentSymbol | None = None) -> None:
    prev_end = parent.start if parent else 0
    for s in syms:
        assert s.start <= s.selection_start <= s.selection_end <= s.end, s
        if parent is not None:
            assert parent.start <= s.start and s.end <= parent.end, (parent, s)
        assert s.start >= prev_end, "siblings do not overlap and come in order"
        prev_end = s.end
        check_invariants(s.children, s)


# Terraform-shaped documents in random object/array forms.
_name = st.sampled_from(["a", "b", "web", "x-1", "_y"])


def _maybe_array(draw, value, allow):
    return [value] if allow and draw(st.booleans()) else value


@st.composite
def documents(draw):
    doc: list[tuple[str, object]] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["resource", "variable", "locals", "provider", "module"]))
        body = {"count": 1} if draw(st.booleans()) else {}
        if kind == "resource":
            if draw(st.booleans()):
                body["lifecycle"] = _maybe_array(draw, {"prevent_destroy": True}, True)
            bodies = draw(st.lists(st.just(body), min_size=1, max_size=2))
            value = {draw(_name): {draw(_name): bodies if len(bodies) > 1 else _maybe_array(draw, body, True)}}
        elif kind == "locals":
            value = {draw(_name): 1}
        elif kind == "module":
            value = {draw(_name): {"source": "./m"}}
        else:
            bodies = draw(st.lists(st.just({}), min_size=1, max_size=3))
            value = {draw(_name): bodies}
        doc.append((kind, _maybe_array(draw, value, kind != "locals")))
    # Duplicate top-level keys are allowed in HCL JSON: write the object by hand.
    return "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in doc) + "}"


@settings(max_examples=80, deadline=None)
@given(documents())
def test_symbol_ranges_nest_and_never_overlap(text: str) -> None:
    _, body = decoded(text)
    syms = symbols_in(body)
    check_invariants(syms)
    assert len(syms) == len(body.blocks)
