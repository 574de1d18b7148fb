"""The versioned language (`terraform.language`): Terraform's constraint syntax, the version chosen per
module, and the newest syntax of both engines judged per engine and version, in a real `Workspace`
module on disk (every file open, as `hcljson-ls check` opens them).

Each case newer than Terraform 1.11, or OpenTofu's, cites the source that makes it valid or invalid.
Cases valid in Terraform 1.11 were run through the real `terraform validate -json` (1.11.4, built-in
provider only, offline) on 2026-11-26; what it said is recorded beside them.
"""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture
from internals import file_diagnostics

from hcljson_ls.features.diagnostics import PROVIDERS, collect
from hcljson_ls.terraform.definition import language as L
from hcljson_ls.terraform.quick import quick_file
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

# ---- versions and constraints ---------------------------------------------------------------------


def V(text: str) -> L.Version:
    v = L.parse_version(text)
    assert v is not None, text
    return v


@pytest.mark.parametrize(
    ("constraint", "version", "ok"),
    [
        # go-version's semantics (github.com/hashicorp/go-version constraint.go), as Terraform uses it.
        (">= 1.5", "1.11.4", True),
        (">= 1.5, < 1.10", "1.11.4", False),
        ("~> 1.11.0", "1.11.4", True),
        ("~> 1.11.0", "1.12.0", False),
        ("~> 1.11", "1.15.9", True),
        ("~> 1.11", "2.0.0", False),
        ("~> 1", "1.15.0", True),
        ("= 1.11.4", "1.11.4", True),
        ("1.11.4", "1.11.4", True),
        ("!= 1.11.4", "1.11.4", False),
        ("> 1.11.4", "1.11.4", False),
        ("<= 1.11", "1.11.0", True),
        ("< 1.11", "1.11.0", False),
        # A prerelease satisfies only constraints naming a prerelease of the same core.
        (">= 1.15", "1.16.0-rc1", False),
        (">= 1.16.0-alpha1", "1.16.0-rc1", True),
        (">= 1.16.0-alpha1", "1.17.0-alpha1", False),
        (">= 1.16.0-alpha1", "1.16.0", True),
        ("v1.2.3", "1.2.3", True),
    ],
)
def test_constraints_follow_go_version(constraint: str, version: str, ok: bool) -> None:
    parsed = L.parse_constraints(constraint)
    assert parsed is not None
    assert L.satisfies(V(version), parsed) is ok


@pytest.mark.parametrize("bad", ["", ">=", "~> x", ">= 1.2.3.4.5", "1.2,", "=> 1.0"])
def test_malformed_constraints_are_none(bad: str) -> None:
    assert L.parse_constraints(bad) is None


# What terraform validate 1.11.4 says of `"required_version": <text>` (go-version's syntax).
@pytest.mark.parametrize(("text", "ok"), [
    ("", False), ("latest", False), (" ", False), ("1.0, ", False), ("> 1.0 < 2", False), ("${var.x}", False),
    ("true", False), ("1", True), ("1.11.4.0", True), (">= 1.0beta", True), ("~>1.0", True), ("v1.0", True),
    ("=v1.11.4", True), (">=1.0,<2.0", True), ("1.11.4+abc", True), ("01.11", True), ("1.11.4-", True),
])
def test_constraint_syntax_is_go_versions(text: str, ok: bool) -> None:
    assert L.constraint_syntax_ok(text) is ok


def test_prereleases_order_before_their_release() -> None:
    assert V("1.16.0-alpha20260715") < V("1.16.0-beta2") < V("1.16.0-rc2") < V("1.16.0") < V("1.16.1")
    assert V("1.16.0-rc.2") < V("1.16.0-rc.10")  # numeric parts by number, as semver (go-version)


def test_choose_in_order_setting_constraints_newest() -> None:
    assert L.choose("terraform", "1.11", [">= 1.14"]).version == V("1.11")
    assert L.choose("terraform", "1.11", []).chosen_by == "setting"
    got = L.choose("terraform", None, ["~> 1.11.0"])
    assert (got.version, got.chosen_by) == (V("1.11.4"), "required_version")
    assert L.choose("terraform", None, [">= 1.5", "< 1.14"]).version == V("1.13.5")
    assert L.choose("terraform", None, ["= 1.11.2"]).version == V("1.11.2")  # a version the module names
    assert L.choose("terraform", None, []).version == L.NEWEST["terraform"] == V("1.15.9")
    assert L.choose("opentofu", None, []).version == L.NEWEST["opentofu"] == V("1.12.6")
    assert L.choose("terraform", None, [">= 9.0"]).chosen_by == "newest"  # nothing known satisfies it
    assert L.choose("terraform", None, [">= 1.16.0-alpha20260715"]).version.prerelease  # prereleases on request


def test_every_feature_has_a_source_and_a_known_version() -> None:
    for path, f in L.FEATURES.items():
        assert f.source and f.note, path
        assert f.since or path in L.RESERVED_BLOCKS, path  # (no release of either: reserved, `structure/reserved-block`)
        for engine, since in f.since.items():
            assert since == L.EXPERIMENTAL_ONLY or L.parse_version(since) is not None, (path, engine)


# ---- modules on disk ----------------------------------------------------------------------------------


def module_diagnostics(tmp_path, files: dict[str, object], engine: str = "auto", version: str | None = None):
    """(file, code, text of the range) of every diagnostic of every file of a module; each file's
    quick open, where it answers, must equal the full path."""
    ws = Workspace([str(tmp_path)], engine=engine)
    ws.set_engine_version(version)
    uris = {}
    for name, doc in files.items():
        text = doc if isinstance(doc, str) else json.dumps(doc, indent=1)
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)  # a child module's directory
        (tmp_path / name).write_text(text, encoding="utf-8")
        uris[name] = uri_of_path(str(tmp_path / name))
    for name, uri in uris.items():
        ws.open(uri, (tmp_path / name).read_text(encoding="utf-8"), 1, "terraform-json")
    out = []
    for name, uri in uris.items():
        state = ws.get(uri)
        text = state.text
        quick = quick_file(text, str(tmp_path / name), state._scope)
        full = file_diagnostics(state, PROVIDERS)
        if quick is not None:
            assert quick.diagnostics == full, name
        out.extend((name, d.code, text[d.start : d.end]) for d in collect(ws.snapshot(), uri))
    return out


# Valid configurations of the newest syntax: (id, files, engine, engineVersion). Each must give no
# diagnostic at all.
VALID = [
    # terraform validate 1.11.4: valid (check blocks, scoped data, assertions on it).
    ("check-scoped-data", {"main.tf.json": {"check": {"c": {
        "data": {"terraform_remote_state": {"s": {"backend": "local", "config": {"path": "x"}}}},
        "assert": [{"condition": "${data.terraform_remote_state.s.outputs != null}", "error_message": "x"}]}}}},
     "auto", None),
    # terraform validate 1.11.4: valid (moved.to need not be declared: internal/configs/moved.go).
    ("moved-to-undeclared", {"main.tf.json": {"moved": [{"from": "terraform_data.a", "to": "terraform_data.b"}]}},
     "auto", None),
    # terraform validate 1.11.4: valid (import for_each: CHANGELOG 1.7.0).
    ("import-for-each", {"main.tf.json": {
        "import": [{"for_each": "${toset([\"a\"])}", "to": "terraform_data.x[each.key]", "id": "${each.value}"}],
        "resource": {"terraform_data": {"x": {"for_each": "${toset([\"a\"])}"}}}}}, "auto", None),
    # import identity: CHANGELOG 1.12.0 "import blocks: Now support importing a resource via a new identity".
    ("import-identity", {"main.tf.json": {"import": [{"to": "terraform_data.x", "identity": {"id": "a"}}],
                                          "resource": {"terraform_data": {"x": {}}}}}, "auto", None),
    # terraform validate 1.11.4: valid (removed with lifecycle.destroy = false).
    ("removed", {"main.tf.json": {"removed": [{"from": "terraform_data.gone", "lifecycle": {"destroy": False}}]}},
     "auto", None),
    # terraform validate 1.11.4: valid (an ephemeral variable, CHANGELOG 1.10.0). (An ephemeral output is
    # valid only in a child module: in a root module 1.11.4 says "Ephemeral output not allowed".)
    ("ephemeral-values", {"main.tf.json": {"variable": {"v": {"type": "string", "ephemeral": True}},
                                           "locals": {"x": "${var.v}"}}}, "auto", None),
    ("ephemeral-output-in-a-child", {"main.tf.json": {"module": {"c": {"source": "./c"}}},
                                     "c/main.tf.json": {"output": {"o": {"value": "x", "ephemeral": True}}}}, "auto", None),
    # action blocks and action_trigger: CHANGELOG 1.14.0 "New top-level Actions block".
    ("action", {"main.tf.json": {
        "action": {"local_command": {"a": {"config": {"command": "echo"}}}},
        "resource": {"terraform_data": {"r": {"lifecycle": {"action_trigger": [{
            "events": ["before_create", "after_update"], "actions": ["action.local_command.a"], "condition": "${true}"}]}}}}}},
     "auto", None),
    ("action-in-1.14", {"main.tf.json": {"action": {"local_command": {"a": {}}}}}, "terraform", "1.14"),
    # on_failure and before_destroy: CHANGELOG 1.16.0 "Resource action triggers can now use on_failure".
    ("action-trigger-1.16", {"main.tf.json": {
        "action": {"local_command": {"a": {}}},
        "resource": {"terraform_data": {"r": {"lifecycle": {"action_trigger": [{
            "events": ["before_destroy"], "actions": ["action.local_command.a"], "on_failure": "continue"}]}}}}}},
     "terraform", "1.16"),
    # lifecycle.destroy: CHANGELOG 1.16.0 "Resource lifecycle blocks now support destroy = false".
    ("lifecycle-destroy-1.16", {"main.tf.json": {"resource": {"terraform_data": {"r": {"lifecycle": {"destroy": False}}}}}},
     "auto", "1.16.0"),
    # output type: CHANGELOG 1.15.0 "output blocks now can have an explicit type constraints".
    ("output-type", {"main.tf.json": {"output": {"o": {"value": "x", "type": "string"}}}}, "auto", None),
    # convert: CHANGELOG 1.15.0 "`convert` function"; its second argument is a type.
    ("convert", {"main.tf.json": {"locals": {"a": "${convert({a = 1}, object({a = string}))}",
                                             "b": "${convert(\"1\", number)}"}}}, "auto", None),
    # variables and locals in module source/version: CHANGELOG 1.15.0; the variable must be const
    # (v1.15.9 internal/terraform/node_module_install.go:385-391, `module/non-const-source`).
    ("module-source-variables", {"main.tf.json": {
        "variable": {"ver": {"type": "string", "default": "1.0.0", "const": True}}, "locals": {"src": "hashicorp/consul/aws"},
        "module": {"m": {"source": "${local.src}", "version": "${var.ver}"}}}}, "auto", None),
    # deprecated: CHANGELOG 1.15.0 "You can set a deprecated attribute on variable and output blocks".
    ("deprecated", {"main.tf.json": {"variable": {"v": {"type": "string", "default": "a", "deprecated": "use w"}},
                                     "output": {"o": {"value": "${var.v}", "deprecated": "gone"}}}}, "auto", None),
    # const variables: Terraform v1.15.0 internal/configs/named_values.go; OpenTofu 1.12 allows a sensitive one.
    ("const-1.15", {"main.tf.json": {"variable": {"c": {"type": "string", "default": "x", "const": True}}}}, "auto", None),
    ("const-sensitive-opentofu", {"main.tofu.json": {"variable": {"c": {"default": "x", "const": True, "sensitive": True}}}},
     "auto", None),
    # terraform validate 1.11.4: valid (the cloud block).
    ("cloud", {"main.tf.json": {"terraform": {"cloud": {"organization": "o", "workspaces": {"name": "w"}}}}}, "auto", None),
    # state_store: internal/configs/parser_config.go parses it only when experiments are allowed (alphas).
    ("state-store-alpha", {"main.tf.json": {"terraform": {"state_store": {"fs": {"provider": {"fs": {}}}}}}},
     "terraform", "1.16.0-alpha20260715"),
    # terraform validate 1.11.4: valid (a number and a bool where a description string is expected).
    ("description-conversion", {"main.tf.json": {"variable": {"v": {"description": 12, "default": 1}},
                                                 "output": {"o": {"value": 1, "description": True}}}}, "auto", None),
    # required_version picks the version: 1.14 has action blocks.
    ("required-version-1.14", {"main.tf.json": {"terraform": {"required_version": "~> 1.14.0"},
                                                "action": {"local_command": {"a": {}}}}}, "auto", None),
    # OpenTofu 1.8: early evaluation of variables and locals in backend and module source (CHANGELOG 1.8.0).
    ("tofu-early-evaluation", {"main.tofu.json": {
        "variable": {"b": {"type": "string", "default": "x"}}, "terraform": {"backend": {"local": {"path": "${var.b}"}}},
        "module": {"m": {"source": "./${var.b}"}}}}, "auto", None),
    # OpenTofu 1.9: provider for_each and instance keys (internal/configs/provider.go decodeProviderBlock).
    ("tofu-provider-for-each", {"main.tofu.json": {
        "variable": {"regions": {"type": "set(string)", "default": ["a"]}},
        "provider": {"aws": [{"alias": "by_region", "for_each": "${var.regions}", "region": "${each.key}"}]},
        "resource": {"aws_vpc": {"v": {"for_each": "${var.regions}", "provider": "aws.by_region[each.key]"}}},
        "module": {"m": {"source": "./m", "for_each": "${var.regions}", "providers": {"aws": "aws.by_region[each.key]"}}}}},
     "auto", None),
    # OpenTofu 1.11: lifecycle.enabled on resources and module calls (internal/configs/resource.go, module_call.go).
    ("tofu-lifecycle-enabled", {"main.tofu.json": {
        "resource": {"terraform_data": {"r": {"lifecycle": {"enabled": False}}}},
        "module": {"m": {"source": "./m", "lifecycle": {"enabled": True}}}}}, "auto", None),
    # OpenTofu 1.7: terraform.encryption; its key_provider/method references are its own.
    ("tofu-encryption", {"main.tofu.json": {"terraform": {"encryption": {
        "key_provider": {"pbkdf2": {"k": {"passphrase": "0123456789abcdef"}}},
        "method": {"aes_gcm": {"m": {"keys": "${key_provider.pbkdf2.k}"}}},
        "state": {"method": "${method.aes_gcm.m}", "fallback": {"method": "${method.aes_gcm.m}"}},
        "plan": {"method": "method.aes_gcm.m"}}}}}, "auto", None),
    # OpenTofu 1.12: the language block, const, lifecycle.destroy, prevent_destroy from an expression
    # (internal/configs/language.go, named_values.go, resource.go of v1.12).
    ("tofu-1.12", {"main.tofu.json": {
        "language": {"compatible_with": {"opentofu": ">= 1.12"}},
        "variable": {"c": {"type": "string", "default": "x", "const": True}},
        "resource": {"terraform_data": {"r": {"lifecycle": {"destroy": False, "prevent_destroy": "${var.c == \"x\"}"}}}}}},
     "auto", None),
    # Both engines: an error_message template that does not parse is a warning (checked below; terraform
    # validate 1.11.4: warning "Validation error message expression is invalid").
]


@pytest.mark.parametrize(("case", "files", "engine", "version"), VALID, ids=[c[0] for c in VALID])
def test_valid_newest_syntax_has_no_diagnostic(tmp_path, case, files, engine, version) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "main.tf.json").write_text('{"variable": {"x": {"default": 1}}}', encoding="utf-8")
    assert module_diagnostics(tmp_path, files, engine, version) == []


# Invalid: (id, files, engine, engineVersion, expected (file, code, range text)).
INVALID = [
    # Older than the feature: the message names the version that brought it.
    ("action-in-1.11", {"main.tf.json": {"action": {"local_command": {"a": {}}}}}, "terraform", "1.11",
     [("main.tf.json", L.NEWER_VERSION, '"action"')]),
    ("on-failure-in-1.15", {"main.tf.json": {"resource": {"terraform_data": {"r": {"lifecycle": {"action_trigger": [{
        "events": ["before_create"], "actions": ["action.local_command.a"], "on_failure": "halt"}]}}}},
        "action": {"local_command": {"a": {}}}}}, "auto", None,
     [("main.tf.json", L.NEWER_VERSION, '"on_failure"')]),
    ("ephemeral-in-1.9", {"main.tf.json": {"variable": {"v": {"ephemeral": True}}}}, "auto", "1.9",
     [("main.tf.json", L.NEWER_VERSION, '"ephemeral"')]),
    ("convert-in-1.14", {"main.tf.json": {"locals": {"a": "${convert(1, string)}"}}}, "auto", "1.14",
     [("main.tf.json", L.NEWER_VERSION, "convert")]),
    ("module-source-template-in-1.14", {"main.tf.json": {"locals": {"s": "./m"}, "module": {"m": {"source": "${local.s}"}}}},
     "auto", "1.14", [("main.tf.json", L.NEWER_VERSION, '"source"')]),
    # OpenTofu syntax read by Terraform: the message names OpenTofu.
    ("provider-for-each-in-terraform", {"main.tf.json": {"provider": {"aws": {"alias": "a", "for_each": "${toset([])}"}}}},
     "auto", None, [("main.tf.json", L.OTHER_ENGINE, '"for_each"')]),
    ("lifecycle-enabled-in-terraform", {"main.tf.json": {"resource": {"terraform_data": {"r": {"lifecycle": {"enabled": False}}}}}},
     "auto", None, [("main.tf.json", L.OTHER_ENGINE, '"enabled"')]),
    ("module-lifecycle-in-terraform", {"main.tf.json": {"module": {"m": {"source": "./m", "lifecycle": {"enabled": True}}}}},
     "auto", None, [("main.tf.json", L.OTHER_ENGINE, '"lifecycle"')]),
    ("encryption-in-terraform", {"main.tf.json": {"terraform": {"encryption": {}}}}, "auto", None,
     [("main.tf.json", L.OTHER_ENGINE, '"encryption"')]),
    # const: Terraform's variable schema has it from v1.15.0 (internal/configs/named_values.go).
    ("const-in-terraform-1.14", {"main.tf.json": {"variable": {"c": {"default": 1, "const": True}}}}, "auto", "1.14",
     [("main.tf.json", L.NEWER_VERSION, '"const"')]),
    # v1.15.0 named_values.go: "Const variable cannot be sensitive", on the variable's declaration range.
    ("const-sensitive-in-terraform", {"main.tf.json": {"variable": {"c": {"default": 1, "const": True, "sensitive": True}}}},
     "auto", None, [("main.tf.json", L.CONST_CONFLICT, "{")]),
    ("const-ephemeral-in-terraform", {"main.tf.json": {"variable": {"c": {"const": True, "ephemeral": True}}}},
     "terraform", "1.15", [("main.tf.json", L.CONST_CONFLICT, "{")]),
    # A module call's lifecycle is reserved in Terraform: nothing in it is checked (module_call.go).
    ("module-lifecycle-content-in-terraform", {"main.tf.json": {"module": {"m": {"source": "./m", "lifecycle": {
        "create_before_destroy": True, "enabled": "${var.nope}"}}}}}, "terraform", "1.11",
     [("main.tf.json", L.OTHER_ENGINE, '"lifecycle"')]),
    # OpenTofu 1.11 reads it, with `enabled` only (module_call.go moduleLifecycleBlockSchema).
    ("module-lifecycle-content-in-opentofu", {"main.tofu.json": {"module": {"m": {"source": "./m", "lifecycle": {
        "create_before_destroy": True}}}}}, "opentofu", "1.11",
     [("main.tofu.json", "structure/unknown-argument", '"create_before_destroy"')]),
    ("language-block-in-terraform", {"main.tf.json": {"language": {}}}, "auto", None,
     [("main.tf.json", L.OTHER_ENGINE, '"language"')]),
    # Terraform syntax read by OpenTofu 1.12: actions and output types (absent from its internal/configs).
    ("action-in-opentofu", {"main.tofu.json": {"action": {"local_command": {"a": {}}}}}, "auto", None,
     [("main.tofu.json", L.OTHER_ENGINE, '"action"')]),
    ("output-type-in-opentofu", {"main.tofu.json": {"output": {"o": {"value": 1, "type": "number"}}}}, "auto", None,
     [("main.tofu.json", L.OTHER_ENGINE, '"type"')]),
    ("tofu-enabled-in-1.10", {"main.tofu.json": {"resource": {"terraform_data": {"r": {"lifecycle": {"enabled": False}}}}}},
     "auto", "1.10", [("main.tofu.json", L.NEWER_VERSION, '"enabled"')]),
    # terraform validate 1.11.4: "Module uses experimental features" on the "experiments" key.
    ("experiments-in-a-release", {"main.tf.json": {"terraform": {"experiments": ["x"]}}}, "auto", None,
     [("main.tf.json", L.EXPERIMENTAL, '"experiments"')]),
    # parser_config.go: "Blocks of type \"state_store\" are not expected here." outside experiments.
    ("state-store-in-a-release", {"main.tf.json": {"terraform": {"state_store": {"fs": {}}}}}, "auto", None,
     [("main.tf.json", L.EXPERIMENTAL, '"state_store"')]),
    # terraform validate 1.11.4 with required_version ">= 1.12": "Unsupported Terraform Core version"
    # on the whole attribute (bytes 14..42 of {"terraform":{"required_version":">= 1.12"}}).
    ("unsatisfied-required-version", {"main.tf.json": '{"terraform":{"required_version":">= 1.12"}}'}, "terraform", "1.11.4",
     [("main.tf.json", L.UNSATISFIED_VERSION, '"required_version":">= 1.12"')]),
    # terraform validate 1.11.4 with a JSON number: cty converts it to the string "1" (= 1.0.0).
    ("required-version-number", {"main.tf.json": '{"terraform":{"required_version":1}}'}, "terraform", "1.11.4",
     [("main.tf.json", L.UNSATISFIED_VERSION, '"required_version":1')]),
    ("required-version-number-fraction", {"main.tf.json": '{"terraform":{"required_version":1.10}}'}, "terraform", "1.11.4",
     [("main.tf.json", L.UNSATISFIED_VERSION, '"required_version":1.10')]),
]


@pytest.mark.parametrize(("case", "files", "engine", "version", "expected"), INVALID, ids=[c[0] for c in INVALID])
def test_syntax_of_another_engine_or_version_is_an_error(tmp_path, case, files, engine, version, expected) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "main.tf.json").write_text('{"variable": {"x": {"default": 1}}}', encoding="utf-8")
    assert module_diagnostics(tmp_path, files, engine, version) == expected


def test_messages_name_the_engine_and_the_version(tmp_path) -> None:
    ws = Workspace([str(tmp_path)])
    path = tmp_path / "main.tf.json"
    path.write_text('{"provider": {"aws": {"alias": "a", "for_each": "${toset([])}"}}, "action": {"x": {"a": {}}}}')
    uri = uri_of_path(str(path))
    ws.open(uri, path.read_text(), 1, "terraform-json")
    ws.set_engine_version("1.12")
    messages = {d.code: d.message for d in collect(ws.snapshot(), uri)}
    assert "OpenTofu" in messages[L.OTHER_ENGINE]
    assert "Terraform 1.14" in messages[L.NEWER_VERSION] and "Terraform 1.12" in messages[L.NEWER_VERSION]


def test_validation_error_message_template_is_a_warning(tmp_path) -> None:
    files = {"main.tf.json": {"variable": {"v": {"type": "string", "validation": [
        {"condition": "${length(var.v) > 0}", "error_message": "bad ${ template"}]}}}}
    ws = Workspace([str(tmp_path)])
    (tmp_path / "main.tf.json").write_text(json.dumps(files["main.tf.json"]))
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    ws.open(uri, (tmp_path / "main.tf.json").read_text(), 1, "terraform-json")
    found = collect(ws.snapshot(), uri)
    assert [d.severity for d in found] == ["warning"] and found[0].code.startswith("template/")


# ---- incremental: the version is a module's, and follows its files and the setting ---------------------


def _codes(ws: Workspace, uri: str) -> list[str]:
    return [d.code for d in collect(ws.snapshot(), uri)]


def test_required_version_in_another_file_and_the_setting_change_the_diagnostics(tmp_path) -> None:
    main, versions = tmp_path / "main.tf.json", tmp_path / "versions.tf.json"
    main.write_text('{"action": {"local_command": {"a": {}}}}')
    versions.write_text('{"terraform": {"required_version": "~> 1.11.0"}}')
    ws = Workspace([str(tmp_path)])
    main_uri, versions_uri = uri_of_path(str(main)), uri_of_path(str(versions))
    ws.open(main_uri, main.read_text(), 1, "terraform-json")
    assert _codes(ws, main_uri) == [L.NEWER_VERSION]  # 1.11.4: no action blocks
    # The other file is opened and edited: the constraint now allows 1.14.
    ws.open(versions_uri, versions.read_text(), 1, "terraform-json")
    ws.change(versions_uri, 2, [{"text": '{"terraform": {"required_version": ">= 1.14"}}'}], "utf-16")
    ws.declarations.sync(versions_uri)
    assert _codes(ws, main_uri) == []
    assert main_uri in ws.take_stale()
    # The setting wins over the constraint; the constraint is then unsatisfied, at the constraint.
    ws.set_engine_version("1.13")
    assert _codes(ws, main_uri) == [L.NEWER_VERSION]
    assert _codes(ws, versions_uri) == [L.UNSATISFIED_VERSION]
    ws.set_engine_version(None)
    assert _codes(ws, main_uri) == [] and _codes(ws, versions_uri) == []
    # The same answers as a workspace that starts from these files.
    fresh = Workspace([str(tmp_path)])
    fresh.open(main_uri, main.read_text(), 1, "terraform-json")
    versions.write_text('{"terraform": {"required_version": ">= 1.14"}}')
    fresh.open(versions_uri, versions.read_text(), 1, "terraform-json")
    assert _codes(fresh, main_uri) == []


def test_a_constraint_on_disk_counts_and_opentofu_reads_only_tofu_files(tmp_path) -> None:
    (tmp_path / "versions.tf.json").write_text('{"terraform": {"required_version": "~> 1.11.0"}}')
    main = tmp_path / "main.tofu.json"
    main.write_text('{"resource": {"terraform_data": {"r": {"lifecycle": {"destroy": false}}}}}')
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    ws.open(uri, main.read_text(), 1, "terraform-json")
    # OpenTofu 1.12 ignores required_version outside .tofu files (internal/configs/parser_config.go
    # terraformBlockSchema), so the newest OpenTofu is chosen: it has lifecycle.destroy.
    assert _codes(ws, uri) == []
    (tmp_path / "versions.tofu.json").write_text('{"terraform": {"required_version": "~> 1.11.0"}}')
    ws.file_changed(uri_of_path(str(tmp_path / "versions.tofu.json")), 1)
    assert _codes(ws, uri) == [L.NEWER_VERSION]


def test_a_native_files_required_version_counts(tmp_path) -> None:
    (tmp_path / "versions.tf").write_text('terraform {\n  required_version = "~> 1.11.0"\n}\n')
    main = tmp_path / "main.tf.json"
    main.write_text('{"action": {"local_command": {"a": {}}}}')
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    ws.open(uri, main.read_text(), 1, "terraform-json")
    assert _codes(ws, uri) == [L.NEWER_VERSION]
    (tmp_path / "versions.tf").write_text('terraform {\n  required_version = ">= 1.14"\n}\n')
    ws.file_changed(uri_of_path(str(tmp_path / "versions.tf")), 2)
    assert _codes(ws, uri) == []


def test_a_deprecated_output_of_a_child_module_warns_where_it_is_used(tmp_path) -> None:
    # Terraform 1.15 internal/deprecation/deprecation.go: "Deprecated value used", the output's message.
    (tmp_path / "child").mkdir()
    child = tmp_path / "child" / "outputs.tf.json"
    child.write_text('{"output": {"old": {"value": 1, "deprecated": "Use new instead."}, "new": {"value": 2}}}')
    main = tmp_path / "main.tf.json"
    main.write_text('{"module": {"c": {"source": "./child"}}, "output": {"a": {"value": "${module.c.old}"}, '
                    '"b": {"value": "${module.c.new}"}}}')
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    ws.open(uri, main.read_text(), 1, "terraform-json")
    found = collect(ws.snapshot(), uri)
    text = main.read_text()
    assert [(d.code, d.severity, d.summary, d.detail, text[d.start : d.end]) for d in found] == [
        ("reference/deprecated-output", "warning", "Deprecated value used", "Use new instead.", "module.c.old")
    ]
    # The child's output stops being deprecated: the caller's warning goes (its open document is rescoped).
    child_uri = uri_of_path(str(child))
    ws.open(child_uri, child.read_text(), 1, "terraform-json")
    ws.change(child_uri, 2, [{"text": '{"output": {"old": {"value": 1}, "new": {"value": 2}}}'}], "utf-16")
    ws.declarations.sync(child_uri)
    assert collect(ws.snapshot(), uri) == []


def test_hover_says_which_versions_have_a_block_or_argument(tmp_path) -> None:
    from hcljson_ls.features.hover import hover

    main = tmp_path / "main.tf.json"
    f = parse_fixture('{"a$[action]ction": {"local_command": {"a": {}}}, "output": {"o": {"v$[value]alue": 1, "d$[deprecated]eprecated": "x"}}}').only
    text = f.text
    main.write_text(text)
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    ws.open(uri, text, 1, "terraform-json")
    on_action = hover(ws.snapshot(), uri, f.marks["action"])
    assert on_action is not None and "Terraform 1.14+; not in OpenTofu" in on_action.markdown
    on_deprecated = hover(ws.snapshot(), uri, f.marks["deprecated"])
    assert on_deprecated is not None and "Terraform 1.15+; OpenTofu 1.10+" in on_deprecated.markdown
    on_value = hover(ws.snapshot(), uri, f.marks["value"])
    assert on_value is not None and "Available in" not in on_value.markdown


@pytest.mark.parametrize(
    ("engine", "version", "call", "newer"),
    [
        ("terraform", "1.8", "templatestring(\"x\", {})", True),  # CHANGELOG 1.9.0
        ("terraform", "1.9", "templatestring(\"x\", {})", False),
        ("terraform", "1.4", "strcontains(\"ab\", \"a\")", True),  # CHANGELOG 1.5.0
        ("terraform", "1.9", "ephemeralasnull(1)", True),  # CHANGELOG 1.10.0
        ("opentofu", "1.6", "urldecode(\"a\")", True),  # opentofu CHANGELOG 1.7.0
        ("opentofu", "1.7", "urldecode(\"a\")", False),
    ],
)
def test_functions_newer_than_the_version(tmp_path, engine, version, call, newer) -> None:
    files = {"main.tf.json": {"locals": {"a": "${" + call + "}"}}}
    got = module_diagnostics(tmp_path, files, engine, version)
    assert got == ([("main.tf.json", L.NEWER_VERSION, call.split("(")[0])] if newer else [])
