"""A `terraform_remote_state`'s `config` against its backend's schema, and the shapes of `config`
and `defaults` (`terraform.rules.remote_state`, session 10).

Every case was run through `terraform validate -json` (1.11.4, `init -backend=false`): the invalid
ones are errors there ("Invalid backend configuration": Terraform marks the whole `config` value,
or the block's closing brace without one; we mark the same for a missing key, the key for an
unknown one and the value for a wrong type), the valid ones are accepted. The differential corpus
has the same cases (`builtin-schemas/remote-state-config-*`, tests/conformance/generator.py).
Fixtures (tests/fixture.py): `⟨⟩` marks each expected range, in order.
"""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from internals import file_diagnostics
from tf_support import check, diagnostics

from hcljson_ls.features.diagnostics import PROVIDERS, collect
from hcljson_ls.terraform.definition.backends import common_config
from hcljson_ls.terraform.quick import quick_file

NOT_OBJECT = "remote-state/config-not-object"
MISSING = "remote-state/missing-config"
TYPE = "remote-state/config-type"
UNKNOWN = "remote-state/unknown-config"


def _rs(body: str) -> str:
    return '{"data": {"terraform_remote_state": {"s": ' + body + "}}}"


S3 = '"bucket": "b", "key": "k", "region": "r"'

CASES = [
    # ---- required keys: on `config`, or on the block's closing brace without one (Terraform's ranges)
    (_rs('{"backend": "s3", "config": ⟨{"key": "k", "region": "r"}⟩}'), [MISSING]),
    (_rs('{"backend": "s3"⟨}⟩'), [(MISSING, MISSING)]),  # bucket and key
    (_rs('{"backend": "s3", "config": ⟨null⟩}'), [(MISSING, MISSING)]),
    (_rs('{"backend": "remote", "config": ⟨{"workspaces": {"name": "w"}}⟩}'), [MISSING]),
    (_rs('{"backend": "gcs", "config": ⟨{}⟩}'), [MISSING]),
    (_rs('{"backend": "azurerm", "config": ⟨{"storage_account_name": "a", "key": "k"}⟩}'), [MISSING]),
    (_rs('{"backend": "kubernetes", "config": ⟨{"namespace": "n"}⟩}'), [MISSING]),
    # nested: on the nested object
    (_rs('{"backend": "s3", "config": {' + S3 + ', "assume_role": ⟨{"duration": "1h"}⟩}}'), [MISSING]),
    # required only while the environment gives nothing (cos region, its assume_role keys): never
    (_rs('{"backend": "cos", "config": {"bucket": "b", "assume_role": [{"policy": "p"}]}}'), []),
    # ---- literals of the wrong type (cty converts numbers and bools to strings, "true"/"1" to bools)
    (_rs('{"backend": "s3", "config": {' + S3 + ', "encrypt": ⟨"yes"⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "encrypt": ⟨1⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "encrypt": ⟨"True"⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "max_retries": ⟨"x"⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "max_retries": ⟨true⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {"bucket": ⟨["b"]⟩, "key": "k"}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "allowed_account_ids": ⟨"x"⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "allowed_account_ids": [⟨{"a": 1}⟩]}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "assume_role": {"role_arn": "a", "tags": ⟨["a"]⟩}}}'), [TYPE]),
    (_rs('{"backend": "local", "config": {"path": ⟨{}⟩}}'), [TYPE]),
    (_rs('{"backend": "kubernetes", "config": {"secret_suffix": "s", "config_paths": ⟨{"a": "b"}⟩}}'), [TYPE]),
    (_rs('{"backend": "s3", "config": {"bucket": 1, "key": true, "region": "r", "encrypt": "true", "max_retries": "3", '
         '"allowed_account_ids": [1, 2], "assume_role": {"role_arn": "a", "tags": {"a": 1}}}}'), []),
    (_rs('{"backend": "local", "config": {"path": 1, "workspace_dir": false}}'), []),
    # ---- unknown keys: at the top and in nested blocks (not in nested objects: cty drops them)
    (_rs('{"backend": "s3", "config": {⟨"//"⟩: "c", ' + S3 + '}}'), [UNKNOWN]),
    (_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": {⟨"nam"⟩: "w"}}}'), [UNKNOWN]),
    (_rs('{"backend": "cos", "config": {"bucket": "b", "assume_role": [{"role_arn": "a", ⟨"nope"⟩: 1}]}}'), [UNKNOWN]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "assume_role": {"role_arn": "a", "nope": 1}}}'), []),
    # ---- objects where objects are wanted
    (_rs('{"backend": "local", "config": ⟨"x"⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "config": ⟨1⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "config": ⟨[{"path": "x"}]⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "config": ⟨"a${var.v}"⟩}'), [NOT_OBJECT]),  # a template with text: a string
    (_rs('{"backend": "local", "config": ⟨["${var.v}"]⟩}'), [NOT_OBJECT]),  # not known, still a tuple
    (_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": ⟨[{"name": "w"}]⟩}}'), [NOT_OBJECT]),
    (_rs('{"backend": "s3", "config": {' + S3 + ', "assume_role": ⟨"x"⟩}}'), [NOT_OBJECT]),
    (_rs('{"backend": "cos", "config": {"bucket": "b", "assume_role": ⟨"x"⟩}}'), [NOT_OBJECT]),
    (_rs('{"backend": "cos", "config": {"bucket": "b", "assume_role": {"role_arn": ⟨"x"⟩}}}'), [NOT_OBJECT]),  # a set's elements
    (_rs('{"backend": "local", "defaults": ⟨"x"⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "defaults": ⟨["x"]⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "defaults": ⟨"a${var.v}"⟩}'), [NOT_OBJECT]),
    (_rs('{"backend": "local", "defaults": null}'), []),
    (_rs('{"backend": "local", "defaults": "${var.v}"}'), []),
    # ---- not known during validate: only the shape is judged
    (_rs('{"backend": "local", "config": "${var.v}"}'), []),
    (_rs('{"backend": "s3", "config": {"bucket": "${var.v}"}}'), []),
    (_rs('{"backend": "${var.v}", "config": {"nope": 1}}'), []),
    # ---- the backend's own validation once the schema accepts it (on the block's closing brace, Terraform's)
    (_rs('{"backend": "local", "config": {"path": ""}⟨}⟩'), ["remote-state/invalid-config"]),
    (_rs('{"backend": "local", "config": {"workspace_dir": ""}⟨}⟩'), ["remote-state/invalid-config"]),
    (_rs('{"backend": "local", "config": {"path": null}}'), []),
    (_rs('{"backend": "remote", "config": {"organization": null, "workspaces": {"name": "w"}}⟨}⟩'), ["remote-state/invalid-config"]),
    (_rs('{"backend": "remote", "config": {"organization": "o"}⟨}⟩'), ["remote-state/invalid-config"]),
    (_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": {"name": "w", "prefix": "p"}}⟨}⟩'),
     ["remote-state/invalid-config"]),
    (_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": {"name": "", "prefix": "p"}}}'), []),
    (_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": {"name": 1}}}'), []),
    (_rs('{"backend": "remote", "config": ⟨{}⟩}'), [MISSING]),  # the schema first: its own validation not run
    # an unknown backend: that alone
    (_rs('{"backend": ⟨"nope"⟩, "config": "x"}'), ["remote-state/unknown-backend"]),
]


@pytest.mark.parametrize(("fixture", "codes"), CASES, ids=[f"{i}:{c[0][42:110]}" for i, c in enumerate(CASES)])
def test_rule(fixture: str, codes: list) -> None:
    check(fixture, codes)


def test_messages_say_what_is_missing_and_what_is_wrong() -> None:
    def details(text: str) -> list[str]:
        return [d.detail for d in diagnostics(text)[1]]

    assert details(_rs('{"backend": "gcs"}')) == ['The configuration of backend "gcs" needs the argument "bucket".']
    assert details(_rs('{"backend": "s3", "config": {' + S3 + ', "assume_role": {}}}')) == [
        'Its "assume_role" object needs the argument "role_arn".']
    [d] = diagnostics(_rs('{"backend": "remote", "config": {"organization": "o", "workspaces": {"nam": "w"}}}'))[1]
    assert 'Did you mean "name"?' in d.detail and d.fixes and d.fixes[0].new_text == '"name"'
    [detail] = details(_rs('{"backend": "s3", "config": {' + S3 + ', "encrypt": "yes"}}'))
    assert '"encrypt" needs a bool' in detail and "string" in detail


def test_only_what_every_engine_and_release_agrees_on_is_checked() -> None:
    # OpenTofu's http backend requires `address` unless TF_HTTP_ADDRESS is set; Terraform's does not
    # require it: never reported. cos `region` comes from the environment when unset.
    assert not common_config("http")["address"].required
    assert not common_config("cos")["region"].required
    # kubernetes `exec` is one block in Terraform, a list of blocks in OpenTofu: its shape is left alone.
    assert common_config("kubernetes")["exec"].nesting is None
    check(_rs('{"backend": "kubernetes", "config": {"secret_suffix": "s", "exec": [{"api_version": "a", "command": "c"}]}}'))
    # `headers` is OpenTofu's only: known to the union, so not an unknown key in any version here.
    check(_rs('{"backend": "http", "config": {"headers": {"a": "b"}}}'))


# ---- per engine and version: what only some have is judged by the module's language ----------------

VERSIONED = [
    # (config's backend body, engine, version setting or None (required_version ~> 1.11.0 decides), errors)
    # Terraform 1.11.4 (checked): http has no `headers` (OpenTofu's), oss no `tablestore_instance_name`
    # before 1.12, s3 no `assume_role_duration_seconds` (OpenTofu's), no `oci` backend before 1.12.
    ('{"backend": "http", "config": {⟨"headers"⟩: {"a": "b"}}}', "terraform", None, ["remote-state/unknown-config"]),
    ('{"backend": "http", "config": {"headers": {"a": "b"}}}', "opentofu", "1.10", []),
    ('{"backend": "oss", "config": {"bucket": "b", ⟨"tablestore_instance_name"⟩: "t"}}', "terraform", None,
     ["remote-state/unknown-config"]),
    ('{"backend": "oss", "config": {"bucket": "b", "tablestore_instance_name": "t"}}', "terraform", "1.13", []),
    ('{"backend": "s3", "config": {' + S3 + ', ⟨"assume_role_duration_seconds"⟩: 1}}', "terraform", "1.14",
     ["remote-state/unknown-config"]),
    ('{"backend": ⟨"oci"⟩, "config": {"bucket": "b", "namespace": "n"}}', "terraform", None, ["remote-state/unknown-backend"]),
    ('{"backend": "oci", "config": {"bucket": "b", "namespace": "n"}}', "terraform", "1.12", []),
    # a nested block's key: cos `assume_role.external_id` is Terraform's, not OpenTofu's
    ('{"backend": "cos", "config": {"bucket": "b", "assume_role": [{⟨"external_id"⟩: "x"}]}}', "opentofu", "1.12",
     ["remote-state/unknown-config"]),
    ('{"backend": "cos", "config": {"bucket": "b", "assume_role": [{"external_id": "x"}]}}', "terraform", None, []),
]


@pytest.mark.parametrize(("body", "engine", "version", "codes"), VERSIONED,
                         ids=[f"{i}:{v[1]}-{v[2]}" for i, v in enumerate(VERSIONED)])
def test_the_module_language_decides_what_some_releases_have(tmp_path, body, engine, version, codes) -> None:
    constraint = '"terraform": {"required_version": "~> 1.11.0"}, ' if version is None else ""
    source = '{' + constraint + '"data": {"terraform_remote_state": {"s": ' + body + "}}}"
    fw = parse_fixture(source).workspace(tmp_path, engine=engine)
    fw.workspace.set_engine_version(version)
    uri, f = fw.uri("/main.tf.json"), fw.fixture.only
    found = [(d.start, d.end, d.code) for d in collect(fw.snapshot(), uri)]
    assert found == [(s, e, c) for (s, e), c in zip(f.ranges, codes)]
    if codes:  # the message names the version that lacks it
        [d] = collect(fw.snapshot(), uri)
        assert ("Terraform" if engine == "terraform" else "OpenTofu") in d.message
    # The quick open agrees (it sends these blocks to the full analysis of their small document).
    state = fw.workspace.get(uri)
    quick = quick_file(state.text, str(fw.paths["/main.tf.json"]), state._scope)
    assert quick is not None and quick.diagnostics == file_diagnostics(state, PROVIDERS)


def test_a_version_change_judges_the_keys_again(tmp_path) -> None:
    fw = parse_fixture(_rs('{"backend": "oss", "config": {"bucket": "b", "tablestore_instance_name": "t"}}')).workspace(
        tmp_path, engine="terraform")
    uri = fw.uri("/main.tf.json")

    def codes() -> list[str]:
        return [d.code for d in collect(fw.snapshot(), uri)]

    assert codes() == []  # the newest Terraform has it
    fw.workspace.set_engine_version("1.11")
    assert codes() == [UNKNOWN]
    fw.workspace.set_engine_version(None)
    assert codes() == []


def test_a_missing_key_has_a_quick_fix_that_adds_it() -> None:
    text = _rs('{"backend": "s3", "config": {"key": "k"}}')
    [d] = diagnostics(text)[1]
    [fix] = d.fixes
    fixed = text[: fix.start] + fix.new_text + text[fix.end :]
    assert fixed == _rs('{"backend": "s3", "config": {"bucket": "", "key": "k"}}')
    assert diagnostics(fixed)[1] == []
    text = _rs('{"backend": "remote", "config": {}}')
    [d] = diagnostics(text)[1]
    assert d.fixes[0].new_text == '"organization": ""'


def test_an_override_file_without_config_leaves_the_merged_one_alone() -> None:
    # Its `backend` is merged with another file's `config`: no key is known missing here.
    assert diagnostics(_rs('{"backend": "s3"}'), "main_override.tf.json")[1] == []
    # With its own `config`, that is the merged block's configuration (an override replaces the attribute).
    [d] = diagnostics(_rs('{"backend": "gcs", "config": {}}'), "main_override.tf.json")[1]
    assert d.code == MISSING


def test_a_half_typed_config_never_breaks_the_rule() -> None:
    # A key written without its value (mid-edit) and broken nesting reach the rule: it says what it
    # can and never raises (a key without a value once raised in the backend's own checks).
    for config in ('{"organization": }', '{"organization": "o", "workspaces": }', '{"organization": "o", "workspaces": {"name": }}',
                   '{"organization": "o", "workspaces": {"name": 1, "prefix": ', '{"organization": [}', '{"organization": "o", '):
        found = diagnostics(_rs('{"backend": "remote", "config": ' + config + "}"))[1]
        assert found and all(d.code.startswith(("syntax/", "structure/", "remote-state/")) for d in found), config
    for config in ('{"path": }', '{"bucket": , "assume_role": [{"role_arn": }]}', '{"assume_role": {"tags": {"a": }}}'):
        diagnostics(_rs('{"backend": "local", "config": ' + config + "}"))
        diagnostics(_rs('{"backend": "cos", "config": ' + config + "}"))
        diagnostics(_rs('{"backend": "s3", "config": ' + config + "}"))
