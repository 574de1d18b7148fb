"""Reference rules that `terraform validate` checks from the configuration alone: instance keys,
`depends_on` elements, references the parser rejects, what conditions refer to, provider names
that are keywords, and Terraform's ranges.

Each fixture is a module on disk with a real `Workspace` over it (the file holding the expected
ranges open, the others read from disk). What Terraform says was recorded by running Terraform
1.11.4 (`terraform init -backend=false && terraform validate -json`, built-in provider only) on the
same files without the markers, so the comparison runs without Terraform: `TERRAFORM[case]` lists
its diagnostics' summaries in the order of their ranges, one per `⟨⟩` marker, marked where
Terraform's range is. Terraform reports every one of them and
nothing else for these rules; the valid variants beside them (splats, `[count.index]`,
`[each.key]`, computed keys, `depends_on` on modules and outputs, conditions that refer to
something) get nothing from either.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import FixtureWorkspace, parse_fixture

from hcljson_ls.features import diagnostics

#: Codes of the rules this file is about (and the undeclared ones, for their ranges).
CODES = (
    "reference/unexpected-instance-key", "reference/missing-instance-key", "reference/depends-on-attribute",
    "reference/invalid", "reference/constant-condition", "reference/validation-without-variable",
    "reference/undeclared", "reference/undeclared-output", "reference/unknown-attribute",
    "reference/unknown-provider",
)

INSTANCE_KEYS = r"""
//- /m/main.tf.json
{"resource": {"terraform_data": {
  "single": {"input": 1},
  "u1": {"input": "${⟨terraform_data.single[0]⟩.output}"},
  "u2": {"input": "${⟨terraform_data.single[\"k\"]⟩}"},
  "u3": {"input": "${⟨terraform_data.single.0⟩.output}"},
  "u4": {"input": "${⟨terraform_data.counted⟩.output}"},
  "u5": {"input": "${⟨terraform_data.keyed⟩.output}"},
  "u6": {"input": "${⟨data.terraform_remote_state.one[0]⟩.outputs}"},
  "u7": {"input": "${⟨data.terraform_remote_state.many⟩.outputs}"},
  "u8": {"input": "${module.counted⟨.out⟩}"},
  "u9": {"input": "${module.single[0].nope}"},
  "u10": {"input": "${module.counted[1]⟨.nope⟩}"},
  "ok1": {"input": "${terraform_data.single[*].output} ${terraform_data.counted[*].output} ${terraform_data.counted[0].output} ${terraform_data.keyed[\"a\"].output} ${terraform_data.single.output} ${terraform_data.counted} ${terraform_data.keyed} ${terraform_data.single[var.k]} ${terraform_data.counted.*.id} ${length(terraform_data.counted)} ${[for x in terraform_data.counted : x.id]}"},
  "ok2": {"count": 2, "input": "${terraform_data.counted[count.index].output} ${module.counted[count.index].out} ${module.counted[0].out} ${module.keyed[\"a\"].out} ${module.single.out} ${module.counted[*].out}"},
  "ok3": {"for_each": {"a": 1}, "input": "${terraform_data.keyed[each.key].output} ${data.terraform_remote_state.many[0].outputs}"},
  "d1": {"depends_on": ["terraform_data.single", "terraform_data.counted[0]", "terraform_data.keyed[\"a\"]", "module.single", "module.single.out", "var.k", "data.terraform_remote_state.one"]},
  "d2": {"depends_on": ["⟨terraform_data.single[0]⟩", "terraform_data.single⟨.output⟩", "data.terraform_remote_state.one⟨.outputs⟩", "var.k⟨.x⟩", "module.single.out⟨.x⟩"]}
}}}
//- /m/other.tf.json
{"variable": {"k": {"type": "number", "default": 0}},
 "resource": {"terraform_data": {"counted": {"count": 2}, "keyed": {"for_each": {"a": 1}}}},
 "data": {"terraform_remote_state": {"one": {"backend": "local"}, "many": {"backend": "local", "count": 1}}},
 "module": {"single": {"source": "./child"}, "counted": {"source": "./child", "count": 2}, "keyed": {"source": "./child", "for_each": {"a": 1}}}}
//- /m/child/main.tf.json
{"output": {"out": {"value": 1}}}
"""

INVALID_REFERENCES = r"""
//- /m/main.tf.json
{"variable": {"v": {"default": "x"}},
 "resource": {"terraform_data": {"r": {}}},
 "output": {
  "o1": {"value": "${⟨foo⟩}"},
  "o2": {"value": "${⟨var⟩} ${⟨local⟩} ${⟨module⟩} ${⟨path⟩} ${⟨terraform⟩}"},
  "o3": {"value": "${⟨data.x⟩} ${⟨ephemeral⟩} ${⟨resource⟩}"},
  "o4": {"value": "${var⟨[\"v\"]⟩}"},
  "o5": {"value": "${⟨var.nope⟩.attr}"},
  "o6": {"value": "${⟨local.nope⟩}"},
  "o7": {"value": "${⟨terraform_data.nope[0]⟩.x}"},
  "o8": {"value": "${⟨module.nope[0].x⟩}"},
  "o9": {"value": "${⟨path.nope⟩}"},
  "o10": {"value": "${⟨terraform.nope⟩}"},
  "ok1": {"value": "${ {foo = var.v} }"},
  "ok2": {"value": "${[for x in [1] : x]}"},
  "ok3": {"value": "${terraform_data.r.id} ${path.module} ${terraform.workspace} ${true}"},
  "ok4": {"value": "${null}"}
 }}
"""

CONDITIONS = r"""
//- /m/main.tf.json
{"variable": {
   "a": {"type": "string", "validation": {"condition": ⟨⟨"${length(\"x\") > 0}"⟩⟩, "error_message": "bad."}},
   "b": {"type": "string", "validation": {"condition": ⟨"${var.a != \"\"}"⟩, "error_message": "bad."}},
   "c": {"type": "string", "validation": {"condition": "${var.c != var.a}", "error_message": "ok."}},
   "d": {"type": "string", "validation": {"condition": "${local.x == var.d}", "error_message": "ok."}},
   "e": {"type": "string", "validation": [{"condition": ⟨⟨true⟩⟩, "error_message": "bad."}]}},
 "locals": {"x": "y"},
 "resource": {"terraform_data": {"r": {"lifecycle": {
   "precondition": [{"condition": ⟨true⟩, "error_message": "x"}, {"condition": "${var.a != \"\"}", "error_message": "ok"}],
   "postcondition": [{"condition": ⟨"${1 == 1}"⟩, "error_message": "x"}, {"condition": "${self.id != \"\"}", "error_message": "ok"}]}}}},
 "output": {"o": {"value": 1, "precondition": [{"condition": ⟨"ok"⟩, "error_message": "x"}]}},
 "check": {"c": {"assert": [{"condition": "${terraform_data.r.id != \"\"}", "error_message": "ok"}]}}}
"""

#: What Terraform 1.11.4 said for each fixture (`terraform validate -json`, recorded on
#: 2026-11-26): its summaries, in the order of the markers, each at the marked range. Terraform's
#: JSON ranges inside a string holding escapes (`\"k\"`) or in `depends_on` elements are shifted by
#: a character or two (it counts from the string's start); the markers put them where the same
#: text is. Terraform reports `module.single[0].nope` (a call without count/for_each, indexed)
#: nothing at validate time, and neither do we.
TERRAFORM = {
    "instance-keys": [
        "Unexpected resource instance key",  # terraform_data.single[0]
        "Unexpected resource instance key",  # terraform_data.single["k"]
        "Unexpected resource instance key",  # terraform_data.single.0
        "Missing resource instance key",  # terraform_data.counted (count)
        "Missing resource instance key",  # terraform_data.keyed (for_each)
        "Unexpected resource instance key",  # data.terraform_remote_state.one[0]
        "Missing resource instance key",  # data.terraform_remote_state.many (count)
        "Unsupported attribute",  # module.counted.out: "Can't access attributes on a list of objects"
        "Unsupported attribute",  # module.counted[1].nope
        "Unexpected resource instance key",  # depends_on terraform_data.single[0]
        "Invalid depends_on reference",  # .output
        "Invalid depends_on reference",  # .outputs
        "Invalid depends_on reference",  # var.k.x
        "Invalid depends_on reference",  # module.single.out.x
    ],
    "invalid-references": [
        *["Invalid reference"] * 6,  # foo; var, local, module, path, terraform alone
        *["Invalid reference"] * 3,  # data.x, ephemeral, resource
        "Invalid reference",  # var["v"]: 'The "var" object does not support this operation.'
        "Reference to undeclared input variable",
        "Reference to undeclared local value",
        "Reference to undeclared resource",
        "Reference to undeclared module",
        'Invalid "path" attribute',
        'Invalid "terraform" attribute',
    ],
    "conditions": [
        "Invalid validation expression", "Invalid variable validation condition",  # a: refers to nothing
        "Invalid variable validation condition",  # b: refers to var.a only
        "Invalid validation expression", "Invalid variable validation condition",  # e: true
        "Invalid precondition expression",
        "Invalid postcondition expression",
        "Invalid precondition expression",  # an output's, "ok"
    ],
}

FIXTURES = {"instance-keys": INSTANCE_KEYS, "invalid-references": INVALID_REFERENCES, "conditions": CONDITIONS}


def _found(fw: FixtureWorkspace, path: str) -> list[tuple[str, int, int]]:
    return [(d.summary, d.start, d.end) for d in diagnostics.collect(fw.snapshot(), fw.uri(path)) if d.code in CODES]


@pytest.mark.parametrize("case", list(FIXTURES))
def test_what_terraform_reports_and_where(tmp_path: Path, case: str) -> None:
    fw = parse_fixture(FIXTURES[case]).workspace(tmp_path, open=["/m/main.tf.json"])
    got = _found(fw, "/m/main.tf.json")
    ranges = fw.fixture.files["/m/main.tf.json"].ranges
    assert len(ranges) == len(TERRAFORM[case])
    want = sorted(zip(TERRAFORM[case], *zip(*ranges)), key=lambda d: (d[1], d[2], d[0]))
    assert sorted(got, key=lambda d: (d[1], d[2], d[0])) == want


def test_the_check_command_reports_them_with_their_codes(cli, tmp_path: Path) -> None:
    """The real `hcljson-ls check` on the instance-key module: the same diagnostics, by code."""
    fixture = parse_fixture(INSTANCE_KEYS)
    fixture.write(tmp_path)
    result = cli("check", tmp_path / "m", "--format", "json")
    codes = sorted(r["code"] for r in json.loads(result.stdout) if r["file"].endswith("main.tf.json")
                   and "/child/" not in r["file"])
    assert codes == sorted(
        ["reference/unexpected-instance-key"] * 5 + ["reference/missing-instance-key"] * 4
        + ["reference/undeclared-output"] + ["reference/depends-on-attribute"] * 4
    ), result.stdout
    assert result.returncode == 1


def test_count_declared_in_a_native_file_or_added_later_is_seen(tmp_path: Path) -> None:
    """Whether a resource has `count` comes from the file that declares it (native here, never
    opened), and adding or removing `count` there re-checks the references in the open file."""
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"output": {"a": {"value": "${aws_instance.web.id}"}, "b": {"value": "${aws_instance.db[0].id}"}}}
//- /m/infra.tf
resource "aws_instance" "web" {
  count = 2
}
resource "aws_instance" "db" {}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    main = fw.uri("/m/main.tf.json")
    text = fw.fixture.files["/m/main.tf.json"].text

    def found() -> list[tuple[str, str]]:
        return [(d.code, text[d.start : d.end]) for d in diagnostics.collect(fw.snapshot(), main) if d.code in CODES]

    assert found() == [
        ("reference/missing-instance-key", "aws_instance.web"),
        ("reference/unexpected-instance-key", "aws_instance.db[0]"),
    ]
    infra = tmp_path / "m" / "infra.tf"
    infra.write_text('resource "aws_instance" "web" {}\nresource "aws_instance" "db" {\n  for_each = {}\n}\n')
    fw.workspace.file_changed(fw.uri("/m/infra.tf"), 2)
    assert found() == []


def test_an_edit_that_adds_count_re_checks_the_other_open_file(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"output": {"a": {"value": "${aws_instance.web[0].id}"}}}
//- /m/infra.tf.json
{"resource": {"aws_instance": {"web": {$[ami]"ami": "x"}}}}
""").workspace(tmp_path)
    main, infra = fw.uri("/m/main.tf.json"), fw.uri("/m/infra.tf.json")
    assert [d.code for d in diagnostics.collect(fw.snapshot(), main)] == ["reference/unexpected-instance-key"]
    at = fw.fixture.mark("ami")[1]
    fw.workspace.change(infra, 2, [{"range": {"start": {"line": 0, "character": at}, "end": {"line": 0, "character": at}},
                                    "text": '"count": 1, '}], "utf-16")
    diagnostics.collect(fw.snapshot(), infra)
    assert [d.code for d in diagnostics.collect(fw.snapshot(), main)] == []


def test_a_provider_named_null_is_an_address_not_the_null_literal(tmp_path: Path) -> None:
    """`"provider": "null.x"` names the configuration `x` of the provider `null` (hashicorp/null), as
    Terraform reads the address; before, it was parsed as the literal null and never checked. (Not
    recorded with Terraform: validating needs the null provider installed, which is not offline.)"""
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"provider": {"null": {"alias": "x"}},
 "resource": {"null_resource": {"a": {"provider": "null.x"}, "b": {"provider": "⟨null.y⟩"}, "c": {"provider": "null"}}}}
""").workspace(tmp_path)
    main = fw.uri("/m/main.tf.json")
    got = [(d.code, d.start, d.end) for d in diagnostics.collect(fw.snapshot(), main) if d.code in CODES]
    assert got == [("reference/unknown-provider", *fw.fixture.files["/m/main.tf.json"].ranges[0])]


def test_addresses_with_rules_of_their_own_get_no_instance_key_rule(tmp_path: Path) -> None:
    """`replace_triggered_by`, `moved.to` and `import.to` name instances by rules of their own.
    Terraform 1.11.4 on these files said only, for the import: "Invalid import 'to' expression: The
    target resource does not use count." (not a reference rule; not reported here), and nothing
    for `replace_triggered_by` and `moved`."""
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"resource": {"terraform_data": {"a": {}, "c": {"count": 2}, "r": {"lifecycle": {"replace_triggered_by": ["terraform_data.a[0]", "terraform_data.c.id", "terraform_data.c[0].id", "terraform_data.a.id"]}}}},
 "moved": [{"from": "terraform_data.old", "to": "terraform_data.a[0]"}, {"from": "terraform_data.old2", "to": "terraform_data.c"}],
 "import": [{"to": "terraform_data.a[0]", "id": "x"}]}
""").workspace(tmp_path)
    assert _found(fw, "/m/main.tf.json") == []
