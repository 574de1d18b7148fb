"""The provider configurations a module call passes, checked as `terraform validate` checks them
(`terraform.resolution.provider_passing`), through a real `Workspace` on a temporary directory:
every rule at the call, in the calling file, with Terraform 1.11.4's ranges (its verdicts of the
same cases are in tests/conformance, `module-calls/providers-*`); child modules in JSON and native
files; and the call's diagnostics following the child as it changes on disk.

A key's, a value's or an address's range is the name inside its quotes, where the text is;
Terraform's starts one column left, at the quote (docs/conformance.md, "same range")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import FixtureWorkspace, parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.diagnostic import ERROR, WARNING
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED, Workspace
from hcljson_ls.workspace.files import uri_of_path

BUILTIN = '"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}}'
ALIASES = ('"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform", '
           '"configuration_aliases": ["terraform.y"]}}}')


def found(src: str, tmp_path: Path) -> tuple[FixtureWorkspace, list[tuple[str, str, int, int]]]:
    fw = parse_fixture(src).workspace(tmp_path, open=["/app/main.tf.json"])
    got = [(d.code, d.severity, d.start, d.end) for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json"))]
    return fw, got


def marked(fw: FixtureWorkspace) -> list[tuple[int, int]]:
    return fw.fixture.files["/app/main.tf.json"].ranges


@pytest.mark.parametrize("call", ['"count": ⟨1⟩', '"for_each": ⟨{"a": "b"}⟩', '"depends_on": ["⟨terraform_data.r⟩"]'],
                         ids=["count", "for_each", "depends_on"])
def test_a_module_holding_a_configuration_cannot_be_called_with_count_for_each_or_depends_on(tmp_path, call):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", {call}}}}}, "resource": {{"terraform_data": {{"r": {{}}}}}}}}
//- /app/child/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}
""", tmp_path)
    assert got == [("module/legacy-provider-configuration", ERROR, *marked(fw)[0])]


def test_a_module_below_holding_a_configuration_counts_and_empty_blocks_do_not(tmp_path):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", "count": ⟨1⟩}}, "e": {{"source": "./empty", "count": 1}}}}}}
//- /app/child/main.tf.json
{{"module": {{"g": {{"source": "./g"}}}}}}
//- /app/child/g/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}
//- /app/empty/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": [{{}}, {{"alias": "a"}}]}}}}
""", tmp_path)
    assert got == [("module/legacy-provider-configuration", ERROR, *marked(fw)[0])]
    [d] = collect(fw.snapshot(), fw.uri("/app/main.tf.json"))
    assert "module.g below the call \"m\"" in d.detail and '"./g"' in d.detail


def test_a_module_below_a_counted_call_of_the_child_is_that_calls_to_report(tmp_path):
    """Terraform reports a legacy module at the nearest call with count or for_each above it: the
    child's own call of it, in the child's file, not the root's."""
    fw = parse_fixture(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", "count": 1}}}}}}
//- /app/child/main.tf.json
{{"module": {{"g": {{"source": "./g", "count": ⟨2⟩}}}}}}
//- /app/child/g/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}
""").workspace(tmp_path, open=["/app/main.tf.json", "/app/child/main.tf.json"])
    assert [d.code for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json"))] == []
    [at] = fw.fixture.files["/app/child/main.tf.json"].ranges
    assert [(d.code, d.start, d.end) for d in collect(fw.snapshot(), fw.uri("/app/child/main.tf.json"))] == [
        ("module/legacy-provider-configuration", *at)]


def test_a_passed_configuration_the_child_holds_itself_and_an_alias_not_passed(tmp_path):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": [{{"alias": "x"}}]}},
 "module": {{"o": {{"source": "./own", "providers": {{"⟨terraform⟩": "terraform.x"}}}},
            "a": ⟨{{⟩"source": "./aliases"}},
            "p": {{"source": "./aliases", "providers": {{"terraform.y": "terraform.x"}}}},
            "c": {{"source": "./configures-y"}}}}}}
//- /app/own/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}
//- /app/aliases/main.tf.json
{{{ALIASES}}}
//- /app/configures-y/main.tf.json
{{{ALIASES}, "provider": {{"terraform": {{"alias": "y", "region": "x"}}}}}}
""", tmp_path)
    override, missing = marked(fw)
    assert got == [("module/provider-override", ERROR, *override), ("module/missing-provider-configuration", ERROR, *missing)]
    # The quick fix passes this module's default configuration, in a "providers" argument it adds.
    main = fw.uri("/app/main.tf.json")
    [d] = [d for d in collect(fw.snapshot(), main) if d.code == "module/missing-provider-configuration"]
    [fix] = d.fixes
    text = fw.workspace.get(main).text
    fixed = json.loads(text[: fix.start] + fix.new_text + text[fix.end:])
    assert fixed["module"]["a"] == {"providers": {"terraform.y": "terraform"}, "source": "./aliases"}
    assert fix.title == 'Pass "terraform.y" this module\'s "terraform"'


def test_the_quick_fix_adds_an_entry_to_a_providers_map(tmp_path):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"a": {{"source": "./aliases", "providers": {{}}}}, "b": {{"source": "./aliases", "providers": {{"terraform": "terraform"}}}}}}}}
//- /app/aliases/main.tf.json
{{{ALIASES}}}
""", tmp_path)
    main = fw.uri("/app/main.tf.json")
    text = fw.workspace.get(main).text
    for d in collect(fw.snapshot(), main):
        if d.code == "module/missing-provider-configuration":
            [fix] = d.fixes
            fixed = json.loads(text[: fix.start] + fix.new_text + text[fix.end:])
            call = "a" if fix.start < text.index('"b"') else "b"  # search: which call the fix is in
            assert fixed["module"][call]["providers"]["terraform.y"] == "terraform"
    assert [c[0] for c in got].count("module/missing-provider-configuration") == 2


def test_names_neither_side_declares_and_a_provider_type_mismatch(tmp_path):
    # terraform 1.11.4 (module-calls/providers-type-mismatch): a warning on the key (the child requires
    # nothing named "terraform", so hashicorp/terraform is assumed), and the mismatch on the value
    # (this module's "terraform" is the built-in provider).
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", "providers": {{"⟨terraform⟩": "⟨terraform⟩"}}}}}}}}
//- /app/child/main.tf.json
{{"locals": {{"a": 1}}}}
""", tmp_path)
    key, value = marked(fw)
    assert got == [("module/undeclared-provider-name", WARNING, *key), ("module/provider-type-mismatch", ERROR, *value)]
    fw, got = found("""
//- /app/main.tf.json
{"provider": {"aws": {}}, "module": {"m": {"source": "./child", "providers": {"aws": "⟨aws⟩"}}}}
//- /app/child/main.tf.json
{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}}}}
""", tmp_path / "second")
    assert got == [("module/undeclared-provider-name", WARNING, *marked(fw)[0])]  # an empty block declares nothing here


def test_the_same_provider_on_either_public_registry_is_no_mismatch(tmp_path):
    """An OpenTofu module may require a provider by its registry.terraform.io address while its
    caller implies registry.opentofu.org's: not reported (a mismatch we cannot be sure of)."""
    _, got = found("""
//- /app/main.tf.json
{"provider": {"aws": {"region": "x"}}, "module": {"m": {"source": "./child", "providers": {"aws": "aws"}}}}
//- /app/child/main.tofu.json
{"terraform": {"required_providers": {"aws": {"source": "registry.terraform.io/hashicorp/aws"}}}}
//- /app/child/versions.tofu.json
{"locals": {"a": 1}}
//- /app/versions.tofu.json
{"locals": {"b": 1}}
""", tmp_path)
    assert [c for c in got if c[0].startswith("module/")] == []


def test_valid_passing_says_nothing(tmp_path):
    _, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": [{{}}, {{"alias": "x"}}]}},
 "module": {{"a": {{"source": "./aliases", "providers": {{"terraform.y": "terraform.x", "terraform": "terraform"}}}},
            "n": {{"source": "./plain", "count": 2}}, "d": {{"source": "./plain", "depends_on": []}}}}}}
//- /app/aliases/main.tf.json
{{{ALIASES}, "resource": {{"terraform_data": {{"t": {{"provider": "terraform.y"}}}}}}}}
//- /app/plain/main.tf.json
{{{BUILTIN}, "provider": {{"terraform": {{"alias": "p"}}}}, "resource": {{"terraform_data": {{"t": {{}}}}}}}}
""", tmp_path)
    assert got == []


def test_an_opentofu_child_configuring_instances_with_for_each_needs_nothing_passed(tmp_path):
    """OpenTofu's `for_each` on a provider block declares its alias (`provider-alias`, as
    `configuration_aliases` do) and configures its instances there: no caller must pass them."""
    _, got = found("""
//- /app/main.tf.json
{"module": {"m": {"source": "./child"}}}
//- /app/child/main.tofu.json
{"variable": {"regions": {"default": {"a": "x"}}},
 "provider": {"aws": {"alias": "by_region", "for_each": "${var.regions}", "region": "${each.value}"}}}
//- /app/child/native.tofu
provider "google" {
  alias    = "by_zone"
  for_each = var.regions
}
""", tmp_path)
    assert [c for c in got if c[0].startswith("module/")] == []


def test_a_native_child_declares_what_a_json_child_does(tmp_path):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", "count": ⟨1⟩}}, "a": ⟨{{⟩"source": "./aliases"}}}}}}
//- /app/child/main.tf
provider "terraform" {{
  region = "x"
}}
//- /app/aliases/main.tf
terraform {{
  required_providers {{
    terraform = {{
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [terraform.y]
    }}
  }}
}}
""", tmp_path)
    legacy, missing = marked(fw)
    assert got == [("module/legacy-provider-configuration", ERROR, *legacy),
                   ("module/missing-provider-configuration", ERROR, *missing)]


def test_the_call_follows_its_child_on_disk(tmp_path):
    fw, got = found(f"""
//- /app/main.tf.json
{{{BUILTIN}, "module": {{"m": {{"source": "./child", "count": ⟨1⟩}}}}}}
//- /app/child/main.tf.json
{{{BUILTIN}}}
//- /app/child/g/main.tf.json
{{{BUILTIN}}}
""", tmp_path)
    assert got == []
    main = fw.uri("/app/main.tf.json")
    ws = fw.workspace
    legacy = ("module/legacy-provider-configuration", *marked(fw)[0])
    child, grandchild = tmp_path / "app" / "child" / "main.tf.json", tmp_path / "app" / "child" / "g" / "main.tf.json"
    for path, text, expected in [
        (child, f'{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}', [legacy]),
        (child, f'{{{BUILTIN}, "provider": {{"terraform": {{}}}}}}', []),  # an empty block holds nothing
        (child, f'{{{BUILTIN}, "provider": {{"terraform": {{"version": ">= 1"}}}}}}', [legacy]),  # a version does
        (child, f'{{{BUILTIN}, "module": {{"g": {{"source": "./g"}}}}}}', []),
        (grandchild, f'{{{BUILTIN}, "provider": {{"terraform": {{"region": "x"}}}}}}', [legacy]),  # below the child
        (grandchild, f'{{{BUILTIN}}}', []),
    ]:
        ws.take_stale()
        path.write_text(text)
        ws.file_changed(uri_of_path(str(path)), CHANGED)
        assert main in ws.take_stale(), text
        assert [(d.code, d.start, d.end) for d in collect(fw.snapshot(), main)] == expected, text


def test_a_requirement_with_a_source_wins_over_one_without():
    """Two files giving one name a requirement (Terraform's duplicate, reported elsewhere): the one
    with a source says which provider it is, whatever order the keys come in."""
    from hcljson_ls.terraform.resolution.provider_passing import addresses
    from hcljson_ls.terraform.resolution.resolve import provider_sources

    keys = [("provider-requirement", "gh", None), ("provider-requirement", "gh", "integrations/github")]
    for order in (keys, keys[::-1]):
        assert addresses({"gh"}, provider_sources(order)) == {"gh": "registry.terraform.io/integrations/github"}
    assert addresses({"gh"}, provider_sources(keys[:1])) == {"gh": "registry.terraform.io/hashicorp/gh"}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["terraform", "terraform.x", "a.b.c", "", "${x}", "aws"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["terraform", "terraform.y", "aws", "a-b", "1", ""]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(providers=_JSON, meta=st.sampled_from(["count", "for_each", "depends_on", "version"]), value=_JSON,
       child_blocks=_JSON)
def test_any_providers_argument_and_child_blocks_never_break_the_check(tmp_path_factory, providers, meta, value, child_blocks):
    """Whatever a call's `providers` and repetition hold, and whatever the child's provider blocks are
    (any JSON), the diagnostics are computed without an exception, each inside the document."""
    root = tmp_path_factory.mktemp("p")
    (root / "child").mkdir()
    (root / "child" / "main.tf.json").write_text(json.dumps({"provider": {"terraform": child_blocks}}))
    text = json.dumps({"module": {"m": {"source": "./child", "providers": providers, meta: value}}})
    (root / "main.tf.json").write_text(text)
    ws = Workspace()
    uri = uri_of_path(str(root / "main.tf.json"))
    ws.open(uri, text, 1, "terraform-json")
    for d in collect(ws.snapshot(), uri):
        assert 0 <= d.start <= d.end <= len(text), d
