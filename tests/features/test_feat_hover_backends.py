"""Hover on a state backend's setting (`features.hover.backend_hover`, `definition.backends`): in a
`terraform.backend.<type>` body and in `terraform_remote_state`'s `config` object, nested objects
included: the key's type, required / sensitive / deprecated, and our one-line description, for the
module's engine and version; the exact key range. Real files in a real `Workspace`; `$0` is the
cursor, `⟨...⟩` the range the hover must cover."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features.hover import hover


def _hover(tmp_path, doc: str, name: str = "main.tf.json"):
    fixture = parse_fixture(f"//- /m/{name}\n" + doc)
    fw = fixture.workspace(tmp_path)
    uri, offset = fw.cursor
    return fixture.files[f"/m/{name}"], hover(fw.snapshot(), uri, offset)


@pytest.mark.parametrize("doc, expected", [
    ('{"terraform": {"backend": {"s3": {⟨"buc$0ket"⟩: "b", "key": "k"}}}}',
     ["**bucket** (string, required): `s3` backend setting", "S3 bucket that holds the state."]),
    ('{"terraform": [{"backend": [{"s3": {⟨"sse_$0customer_key"⟩: "x"}}]}]}',
     ["(string, sensitive)", "SSE-C"]),
    ('{"terraform": {"backend": {"s3": {⟨"end$0point"⟩: "x"}}}}', ["(string, deprecated)"]),
    ('{"terraform": {"backend": {"s3": {"assume_role": {⟨"role$0_arn"⟩: "a"}}}}}',
     ["**role_arn** (string, required)", "ARN of the role to assume."]),
    ('{"terraform": {"backend": {"local": {⟨"pa$0th"⟩: "s.tfstate"}}}}', ["**path** (string): `local` backend setting"]),
    ('{"data": {"terraform_remote_state": {"r": {"backend": "gcs", "config": {⟨"pre$0fix"⟩: "p"}}}}}',
     ["**prefix** (string): `gcs` backend setting", "Directory in the bucket"]),
])
def test_a_backend_setting_says_its_type_flags_and_meaning(tmp_path, doc, expected):
    f, got = _hover(tmp_path, doc)
    assert got is not None
    assert (got.start, got.end) == f.ranges[0]
    for part in expected:
        assert part in got.markdown


@pytest.mark.parametrize("doc", [
    '{"terraform": {"backend": {"s3": {"nosuch$0key": "b"}}}}',  # the backend has no such key
    '{"terraform": {"backend": {"s3": {"bucket": "b$0"}}}}',  # a value
    '{"data": {"terraform_remote_state": {"r": {"backend": "${var.b}", "config": {"pre$0fix": "p"}}}}}',  # unknown backend
    '{"data": {"terraform_remote_state": {"r": {"backend": "gcs", "other": {"pre$0fix": "p"}}}}}',  # not `config`
])
def test_no_backend_hover_elsewhere(tmp_path, doc):
    _, got = _hover(tmp_path, doc)
    assert got is None or "backend setting" not in got.markdown


def test_the_engine_decides(tmp_path):
    """OpenTofu's s3 backend has `assume_role_duration_seconds` (deprecated); Terraform's has not."""
    doc = '{"terraform": {"backend": {"s3": {"assume_role_dur$0ation_seconds": 3600}}}}'
    _, tf = _hover(tmp_path / "tf", doc)
    _, tofu = _hover(tmp_path / "tofu", doc, "main.tofu.json")
    assert tf is None or "backend setting" not in tf.markdown
    assert tofu is not None and "(number, deprecated)" in tofu.markdown
