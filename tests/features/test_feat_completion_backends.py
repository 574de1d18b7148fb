"""Completion of state backends (`remote_state.backends`, the packaged `data/backends.json`): the
backend type key of `terraform.backend`, a backend's configuration keys in its body, and the same
for `terraform_remote_state`'s `backend` value and `config` object; each with or without a typed
`"`. Real files in a real `Workspace`; `$0` is the cursor."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import complete
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.terraform.rules.remote_state import UNKNOWN_CONFIG, backends

S3 = sorted(backends()["s3"])


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
    assert [i.label for i in items] == S3
    bucket = next(i for i in items if i.label == "bucket")
    assert (bucket.insert_text, bucket.detail) == ('"bucket": "$1"', "s3 backend setting")


def test_written_keys_are_not_offered_again_and_commas_are_added(tmp_path):
    fw, offset, items = _complete(tmp_path, '{"terraform": {"backend": {"local": {"path": "x", $0}}}}')
    assert [i.label for i in items] == sorted(backends()["local"] - {"path"})
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
    assert [i.label for i in items] == S3


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
