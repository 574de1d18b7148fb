"""Completion of state backends (`definition.backends`, the packaged `data/backends.json`): the
backend type key of `terraform.backend`, a backend's configuration keys in its body (type and
required as the detail, required first, for the module's engine and version), and the same for
`terraform_remote_state`'s `backend` value and `config` object; each with or without a typed `"`.
Real files in a real `Workspace`; `$0` is the cursor."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import complete
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.terraform.definition.backends import backend_keys
from hcljson_ls.terraform.rules.remote_state import UNKNOWN_CONFIG, backends

S3 = sorted(backend_keys("terraform", None, "s3"))


def _order(items):
    return [i.label for i in sorted(items, key=lambda i: (i.sort, i.label))]


def _complete(tmp_path, doc: str, name: str = "main.tf.json"):
    fw = parse_fixture(f"//- /m/{name}\n" + doc).workspace(tmp_path)
    uri, offset = fw.cursor
    return fw, offset, complete(fw.snapshot(), uri, offset)


@pytest.mark.parametrize("doc, inserted", [
    ('{"terraform": {"backend": {"$0"}}}', '"s3": {$1}'),  # the key being typed: the whole key string
    ('{"terraform": {"backend": {$0}}}', '"s3": {$1}'),  # no quote typed yet
    ('{"terraform": {"backend": {"$0": {}}}}', '"s3"'),  # a colon follows: the name only
])
def test_backend_types_in_the_backend_block(tmp_path, doc, inserted):
    fw, offset, items = _complete(tmp_path, doc)
    labels = [i.label for i in items]
    assert labels == sorted(n for n in backends() if n != "cloud")  # HCP Terraform is the `cloud` block
    s3 = next(i for i in items if i.label == "s3")
    assert (s3.insert_text, s3.detail) == (inserted, "state backend")
    assert "https://developer.hashicorp.com/terraform/language/backend/s3" in s3.documentation


def test_a_typed_prefix_filters_backend_types(tmp_path):
    _, _, items = _complete(tmp_path, '{"terraform": {"backend": {"g$0"}}}')
    assert [i.label for i in items] == ["gcs"]


@pytest.mark.parametrize("doc", [
    '{"terraform": {"backend": {"s3": {"$0"}}}}',
    '{"terraform": {"backend": {"s3": {$0}}}}',
    '{"terraform": {"backend": [{"s3": {$0}}]}}',
])
def test_the_keys_of_a_backend_body(tmp_path, doc):
    fw, offset, items = _complete(tmp_path, doc)
    assert sorted(i.label for i in items) == S3
    assert _order(items)[:2] == ["bucket", "key"]  # the required ones first
    bucket = next(i for i in items if i.label == "bucket")
    assert (bucket.insert_text, bucket.detail) == ('"bucket": "$1"', "string, required")
    assert bucket.documentation.startswith("S3 bucket that holds the state.")
    lockfile, encrypt = (next(i for i in items if i.label == n) for n in ("use_lockfile", "encrypt"))
    assert (lockfile.insert_text, lockfile.detail) == ('"use_lockfile": ${1:false}', "bool")
    endpoint = next(i for i in items if i.label == "endpoint")  # replaced by `endpoints`
    assert (endpoint.detail, endpoint.deprecated, _order(items)[-1] in {i.label for i in items if i.deprecated}) \
        == ("string, deprecated", True, True)
    sse = next(i for i in items if i.label == "sse_customer_key")
    assert sse.detail == "string, sensitive"


def test_each_engine_gets_its_own_backend_keys(tmp_path):
    """OpenTofu's s3 backend still has `assume_role_duration_seconds`; Terraform's dropped it."""
    _, _, tf = _complete(tmp_path / "tf", '{"terraform": {"backend": {"s3": {$0}}}}')
    _, _, tofu = _complete(tmp_path / "tofu", '{"terraform": {"backend": {"s3": {$0}}}}', "main.tofu.json")
    assert "assume_role_duration_seconds" not in {i.label for i in tf}
    assert "assume_role_duration_seconds" in {i.label for i in tofu}
    assert {"bucket", "key", "use_lockfile"} <= {i.label for i in tf} & {i.label for i in tofu}


@pytest.mark.parametrize("version, has_oci", [("~> 1.11.0", False), (">= 1.12", True)])
def test_the_backends_follow_the_terraform_version(tmp_path, version, has_oci):
    """The `oci` backend came with Terraform 1.12: `required_version` picks the release read."""
    doc = '{"terraform": {"required_version": "%s", "backend": {"$0"}}}' % version
    _, _, items = _complete(tmp_path, doc)
    assert ("oci" in {i.label for i in items}) is has_oci
    assert "s3" in {i.label for i in items}


def test_a_nested_object_key_inserts_an_object(tmp_path):
    _, _, items = _complete(tmp_path, '{"terraform": {"backend": {"s3": {$0}}}}')
    assume = next(i for i in items if i.label == "assume_role")
    assert (assume.insert_text, assume.detail) == ('"assume_role": {$1}', "object")


def test_written_keys_are_not_offered_again_and_commas_are_added(tmp_path):
    fw, offset, items = _complete(tmp_path, '{"terraform": {"backend": {"local": {"path": "x", $0}}}}')
    assert sorted(i.label for i in items) == ["workspace_dir"]
    _, _, items = _complete(tmp_path / "b", '{"terraform": {"backend": {"local": {$0 "path": "x"}}}}')
    assert all(i.insert_text.endswith(",") for i in items)


def test_opentofu_links_to_its_own_backend_pages(tmp_path):
    _, _, items = _complete(tmp_path, '{"terraform": {"backend": {"$0"}}}', "main.tofu.json")
    s3 = next(i for i in items if i.label == "s3")
    assert "https://opentofu.org/docs/language/settings/backends/s3/" in s3.documentation


def test_remote_state_backend_value(tmp_path):
    fw, offset, items = _complete(tmp_path, '{"data": {"terraform_remote_state": {"x": {"backend": "lo$0"}}}}')
    assert [(i.label, i.insert_text, i.start, i.end) for i in items] == [("local", "local", offset - 2, offset)]


@pytest.mark.parametrize("doc", [
    '{"data": {"terraform_remote_state": {"x": {"backend": "s3", "config": {"$0"}}}}}',
    '{"data": {"terraform_remote_state": {"x": {"backend": "s3", "config": {$0}}}}}',
    '{"data": {"terraform_remote_state": {"x": {"config": {"$0"}, "backend": "s3"}}}}',
])
def test_remote_state_config_keys(tmp_path, doc):
    _, _, items = _complete(tmp_path, doc)
    assert sorted(i.label for i in items) == S3
    assert _order(items)[:2] == ["bucket", "key"]


def test_no_config_keys_without_a_known_backend(tmp_path):
    _, _, items = _complete(tmp_path, '{"data": {"terraform_remote_state": {"x": {"backend": "${var.b}", "config": {"$0"}}}}}')
    assert [i.label for i in items] == []


def test_every_offered_config_key_is_one_the_backend_check_accepts(tmp_path):
    """What completion offers never draws `remote-state/unknown-config` (one source of facts)."""
    for backend in ("local", "s3", "gcs", "azurerm"):
        root = tmp_path / backend
        _, _, items = _complete(root, '{"data": {"terraform_remote_state": {"x": {"backend": "%s", "config": {$0}}}}}' % backend)
        assert items, backend
        config = ", ".join(f'"{i.label}": null' for i in items)
        doc = '{"data": {"terraform_remote_state": {"x": {"backend": "%s", "config": {%s}}}}}' % (backend, config)
        fw = parse_fixture("//- /m/main.tf.json\n" + doc).workspace(root / "check")
        uri = fw.uri("/m/main.tf.json")
        assert [d for d in collect(fw.snapshot(), uri) if d.code == UNKNOWN_CONFIG] == [], backend
