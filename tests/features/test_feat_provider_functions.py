"""Provider-defined functions (`provider::NAME::FUNCTION`): the rule `reference/unknown-provider-function`,
argument counts, and what completion, hover and signature help say, on a real `Workspace`.

What Terraform says was recorded by running Terraform 1.11.4 (`terraform init -backend=false &&
terraform validate -json`, built-in provider only) on the same modules without the markers:

* no `required_providers` entry for NAME: "Unknown provider function" on the function's name, also
  for the built-in `terraform` provider that `terraform_data` uses without declaring it;
* `terraform = {}` (source implied), `terraform = { source = "terraform.io/builtin/terraform" }` and
  another local name for that source (`tf`) make `encode_tfvars`, `decode_tfvars`, `encode_expr`
  callable under that name only; a requirement in a native `.tf` file counts;
* a function the provider lacks: "Unknown provider function" ("not available from the provider");
  `provider::terraform::x::encode_expr`: the same ("There is no function named ...");
* `encode_expr(1, 2)`: "Too many function arguments"; `encode_tfvars()`: "Not enough function
  arguments"; `encode_expr(var.list...)`: valid.

OpenTofu (read from its source, internal/tofu/transform_provider.go and
internal/providers/functions.go): NAME must be in `required_providers` too ("Unknown function
provider"), but a function the schema lacks is not an error at validate (a configured provider may
offer more): we say nothing there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture

from hcljson_ls.features import completion, diagnostics, hover, signature_help
from hcljson_ls.terraform.schemas import provider_schema

CODES = ("reference/unknown-provider-function", "reference/argument-count", "reference/unknown-function")
BUILTIN = '"terraform": {"source": "terraform.io/builtin/terraform"}'


def _found(fw, path: str = "/m/main.tf.json") -> list[tuple[str, str]]:
    text = fw.snapshot().document(fw.uri(path)).text
    return [(d.code, text[d.start:d.end]) for d in diagnostics.collect(fw.snapshot(), fw.uri(path)) if d.code in CODES]


def _expected(fw, path: str = "/m/main.tf.json") -> list[str]:
    f = fw.fixture.files[path]
    return [f.text[s:e] for s, e in f.ranges]


def test_a_provider_the_module_does_not_require_has_no_functions(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"resource": {"terraform_data": {"r": {}}},
 "locals": {"a": "${⟨provider::terraform::encode_tfvars⟩({a = 1})}", "b": "x-${⟨provider::nope::f⟩(1)}"}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    found = _found(fw)
    assert found == [("reference/unknown-provider-function", t) for t in _expected(fw)]
    summaries = [d.summary for d in diagnostics.collect(fw.snapshot(), fw.uri("/m/main.tf.json"))]
    assert summaries == ["Unknown provider function"] * 2


@pytest.mark.parametrize("requirement, call", [
    (BUILTIN, "provider::terraform::encode_tfvars({a = 1})"),
    ('"terraform": {}', "provider::terraform::encode_expr(var.list...)"),
    ('"terraform": ">= 1.0"', "provider::terraform::decode_tfvars(\\\"a = 1\\\")"),
    ('"tf": {"source": "terraform.io/builtin/terraform"}', "provider::tf::encode_expr(1)"),
])
def test_a_required_provider_s_functions_are_callable(tmp_path: Path, requirement: str, call: str) -> None:
    fw = parse_fixture(f"""
//- /m/main.tf.json
{{"terraform": {{"required_providers": {{{requirement}}}}},
 "variable": {{"list": {{"default": []}}}},
 "output": {{"o": {{"value": "${{{call}}}"}}}}}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    assert _found(fw) == []


def test_a_function_the_provider_lacks_a_misshapen_name_and_argument_counts(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"terraform": {"required_providers": {"tf": {"source": "terraform.io/builtin/terraform"}}},
 "locals": {
   "a": "${⟨provider::tf::encode_tfvar⟩({})}",
   "b": "${⟨provider::tf::x::encode_expr⟩(1)}",
   "c": "${provider::tf::encode_expr(1, ⟨2⟩)}",
   "d": "${provider::tf::encode_tfvars(⟨)⟩}",
   "e": "${⟨provider::tff::encode_expr⟩(1)}"
 }}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    # A wrong count where Terraform 1.11.4 reports it: the first argument too many, a missing one's `)`.
    codes = ["reference/unknown-provider-function", "reference/unknown-provider-function", "reference/argument-count",
             "reference/argument-count", "reference/unknown-provider-function"]
    assert _found(fw) == list(zip(codes, _expected(fw)))
    first = diagnostics.collect(fw.snapshot(), fw.uri("/m/main.tf.json"))[0]
    assert "Did you mean" in first.detail and first.fixes[0].new_text == "provider::tf::encode_tfvars"
    last = [d for d in diagnostics.collect(fw.snapshot(), fw.uri("/m/main.tf.json"))][-1]
    assert last.fixes and last.fixes[0].new_text == "provider::tf::encode_expr"  # did you mean the declared name


def test_opentofu_reports_only_a_provider_it_does_not_require(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tofu.json
{"terraform": {"required_providers": {"terraform": {}}},
 "locals": {"a": "${provider::terraform::not_in_the_schema(1)}", "b": "${provider::terraform::alias::encode_expr(1)}",
            "c": "${⟨provider::nope::f⟩(1)}", "d": "${provider::terraform::encode_expr(1, ⟨2⟩)}"}}
""").workspace(tmp_path, open=["/m/main.tofu.json"])
    assert _found(fw, "/m/main.tofu.json") == list(zip(
        ["reference/unknown-provider-function", "reference/argument-count"], _expected(fw, "/m/main.tofu.json")))


def test_a_provider_required_without_a_loaded_schema_is_taken_on_trust(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}, "example": {"source": "hashicorp/example"}}},
 "locals": {"a": "${provider::aws::arn_parse(\"x\")}", "b": "${provider::example::anything(1, 2, 3)}"}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    assert _found(fw) == []
    # The AWS 4.13 schema has no `functions` section (written before Terraform 1.8): still nothing known.
    shared_data.require(shared_data.AWS_SCHEMA)
    fw.workspace.set_schema_files([str(shared_data.AWS_SCHEMA)])
    assert _found(fw) == []


def test_requirements_in_other_files_count_and_their_changes_re_check(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"locals": {"a": "${provider::terraform::encode_expr(1)}", "b": "${provider::tf::encode_expr(1)}"}}
//- /m/versions.tf
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
//- /m/other.tf.json
{"terraform": {"required_providers": {"$[tf]tf": {"source": "terraform.io/builtin/terraform"}}}}
""").workspace(tmp_path, open=["/m/main.tf.json", "/m/other.tf.json"])
    assert _found(fw) == []
    other = fw.uri("/m/other.tf.json")
    _, at = fw.mark("tf")  # on line 0
    fw.workspace.change(other, 2, [{"range": {"start": {"line": 0, "character": at}, "end": {"line": 0, "character": at + 2}},
                                    "text": "tt"}], "utf-16")
    assert _found(fw) == [("reference/unknown-provider-function", "provider::tf::encode_expr")]
    (tmp_path / "m" / "versions.tf").write_text("")
    fw.workspace.file_changed(fw.uri("/m/versions.tf"), 2)
    assert [c for c, _ in _found(fw)] == ["reference/unknown-provider-function"] * 2


def test_the_check_command_reports_them(cli, tmp_path: Path) -> None:
    module = tmp_path / "m"
    module.mkdir()
    (module / "main.tf.json").write_text('{"locals": {"a": "${provider::nope::f(1)}"}}\n')
    result = cli("check", str(module))
    assert result.returncode == 1
    assert "Unknown provider function" in result.stdout and "[reference/unknown-provider-function]" in result.stdout


EXAMPLE = shared_data.PROVIDER_SCHEMAS / "example-functions.terraform-1.8.schemas.json"
TOFU_TEST = shared_data.PROVIDER_SCHEMAS / "test-provider.opentofu.schemas.json"
WRITE_ONLY = shared_data.PROVIDER_SCHEMAS / "write-only.terraform-1.11.schemas.json"


def test_functions_are_read_from_a_schema_file() -> None:
    example = provider_schema.load(EXAMPLE).functions("hashicorp/example")
    assert example is not None and list(example) == ["example"]
    fn = example["example"]
    assert [(p.name, p.type) for p in fn.parameters] == [("input", "string")] and fn.variadic is None
    assert fn.return_type == "string" and fn.description == "Echoes given argument as result"
    test = provider_schema.load(TOFU_TEST).functions("registry.opentofu.org/hashicorp/test")
    assert test is not None and test["test_func"].variadic is not None
    assert test["test_func"].variadic.type == "list(bool)" and test["test_func"].min_args == 1
    assert test["test_func"].max_args is None
    # No `functions` section (a schema written before Terraform 1.8), or one of the wrong shape: unknown.
    assert provider_schema.load(WRITE_ONLY).functions("terraform") is None
    assert provider_schema.loads('{"format_version": "1.0", "provider_schemas": {"x/y": {"functions": []}}}').functions("x/y") is None
    odd = provider_schema.loads('{"format_version": "1.0", "provider_schemas": {"x/y": {"functions": {"f": 1, "g": {"parameters": []}}}}}')
    assert list(odd.functions("x/y")) == ["g"]  # type: ignore[arg-type]


def test_a_loaded_schema_s_functions_are_checked_completed_hovered_and_signed(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"terraform": {"required_providers": {"ex": {"source": "hashicorp/example"}}},
 "locals": {"a": "${provider::$[namespace]ex::$[name]ex$[hover]ample($[first]\"x\", $0)}", "b": "${⟨provider::ex::exampel⟩(1)}"}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    fw.workspace.set_schema_files([str(EXAMPLE)])
    snapshot = fw.snapshot()
    uri, offset = fw.cursor
    text = snapshot.document(uri).text
    found = [d for d in diagnostics.collect(snapshot, uri) if d.code in CODES]
    assert [(d.code, text[d.start:d.end]) for d in found] == [
        ("reference/unknown-provider-function", t) for t in _expected(fw)]
    assert found[0].fixes[0].new_text == "provider::ex::example"

    help_ = signature_help.signature_help(snapshot, uri, offset)
    assert help_ is not None and help_.label == "provider::ex::example(input string) string"
    assert help_.documentation == "Echoes given argument as result" and help_.active_parameter is None
    marks = fw.fixture.files["/m/main.tf.json"].marks
    first = signature_help.signature_help(snapshot, uri, marks["first"])
    assert first is not None and first.active_parameter == 0

    shown = hover.hover(snapshot, uri, marks["hover"])
    assert shown is not None and shown.markdown.startswith("```hcl\nprovider::ex::example(input string) string\n```")
    assert "Echoes given argument as result" in shown.markdown

    names = completion.complete(snapshot, uri, marks["namespace"])
    assert [(i.label, i.insert_text) for i in names if i.label in ("ex", "terraform")] == [("ex", "ex::")]
    items = completion.complete(snapshot, uri, marks["name"])
    assert [(i.label, i.detail, i.documentation) for i in items] == [
        ("example", "provider::ex::example(input string) string", "Echoes given argument as result")]


def test_hover_says_write_only(tmp_path: Path) -> None:
    fw = parse_fixture(r"""
//- /m/main.tf.json
{"resource": {"terraform_example": {"x": {"$[foo]foo": "a", "wo_$0attr": "secret"}}}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    fw.workspace.set_schema_files([str(WRITE_ONLY)])
    uri, offset = fw.cursor
    shown = hover.hover(fw.snapshot(), uri, offset)
    assert shown is not None and "write-only" in shown.markdown
    plain = hover.hover(fw.snapshot(), *fw.mark("foo"))
    assert plain is not None and "write-only" not in plain.markdown
