"""The real corpus against the real provider schemas: every resource and data source of a provider
whose schema is loaded (AWS 4.13, null, random, local), in every file Terraform accepts, is checked
with `validate_block` (tests/internals.py). The only `schema/unknown-argument` reports are arguments AWS
4.13 genuinely lacks (listed below with the version that added them) or that are invalid in every
version; every other error is listed too, with why it is right. So the schemas and the checks are
real: nothing else in hundreds of real resources is flagged."""

from __future__ import annotations

import json
from pathlib import Path

import shared_data
from internals import materialize, validate_block
from tf_corpus import classify, read, rows

from hcljson_ls.features import diagnostics
from hcljson_ls.hcljson.model import Body
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.rules import provider_rules as pr
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

FILES = [shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA, shared_data.LOCAL_SCHEMA]
shared_data.require(shared_data.REAL_SOURCES, *FILES)

# (resource or data source type, argument) -> why AWS 4.13 has no such argument. (The S3 and
# CloudFront ones are in the generated stand-in of a CDKTF stack for AWS provider 6.)
NOT_IN_AWS_4_13 = {
    # AWS provider 6.0.0 ("enhanced region support") added `region` to every regional resource.
    ("aws_s3_bucket_object", "region"): "added in AWS provider 6.0.0",
    ("aws_s3_bucket_ownership_controls", "region"): "added in AWS provider 6.0.0",
    ("aws_s3_bucket_policy", "region"): "added in AWS provider 6.0.0",
    ("aws_s3_bucket_public_access_block", "region"): "added in AWS provider 6.0.0",
    # origin.origin_access_control_id came with aws_cloudfront_origin_access_control (4.29.0).
    ("aws_cloudfront_distribution", "origin_access_control_id"): "added in AWS provider 4.29.0",
}
# Invalid in every version: tflint's plugin integration fixture puts a made-up `foo` block into
# ebs_block_device for its rules to flag.
INVALID_ANYWHERE = {("aws_instance", "foo")}

# Every other error the corpus produces: (code, type, text of the range) -> why it is right.
OTHER_ERRORS = {
    ("schema/unknown-resource-type", "aws_cloudfront_origin_access_control", '"aws_cloudfront_origin_access_control"'):
        "the resource type was added in AWS provider 4.29.0",
    ("schema/unknown-resource-type", "aws_servicecatalog_provisioning_artifacts", '"aws_servicecatalog_provisioning_artifacts"'):
        "the data source was added after AWS provider 4.13",
    ("schema/computed-only", "aws_s3_bucket", '"region"'):
        "aws_s3_bucket.region is computed only before AWS provider 6.0.0 made it configurable",
    ("schema/missing-argument", "aws_acm_certificate", "}"):  # the body's closing brace: Terraform's range
        "data aws_acm_certificate requires `domain` in 4.13 (later versions made it optional)",
    ("schema/missing-argument", "aws_route53_record", "}"):
        "aws_route53_record requires `name` in every version; the CDKTF stack omits it",
}


def _required_providers(text: str, body: Body) -> dict[str, object]:
    out: dict[str, object] = {}
    for tf in body.blocks_of("terraform"):
        for rp in tf.body.blocks_of("required_providers"):
            for a in rp.body.attributes:
                if a.expr is not None:
                    try:
                        out[a.name] = json.loads(text[a.expr.start : a.expr.end])
                    except ValueError:
                        pass
    return out


def _results():
    schemas = ps.combine(*(ps.load(f) for f in FILES))
    checked = 0
    found: list[tuple[str, str, str, str, str]] = []  # (file, code, type, text, detail)
    for row in rows():
        if classify(row) != "ACCEPTED":
            continue
        name = row["file"]
        text = read(name)
        body = materialize(analyze_file(text, parse(text).root, name).body)
        rp = _required_providers(text, body)
        engine = ps.OPENTOFU if ".tofu." in name else ps.TERRAFORM
        for block in body.blocks:
            if block.type_name not in ("resource", "data") or len(block.labels) < 2:
                continue
            if schemas.has_provider(ps.provider_for(block.labels[0].value, None, rp, engine)):
                checked += 1
            for d in validate_block(block, schemas, text, rp, engine):
                found.append((name, d.code, block.labels[0].value, text[d.start : d.end], d.detail))
    return checked, found


CHECKED, FOUND = _results() if shared_data.missing_reason(shared_data.REAL_SOURCES, *FILES) is None else (0, [])


def test_many_real_resources_are_checked() -> None:
    assert CHECKED >= 400


def test_unknown_arguments_are_only_those_aws_4_13_lacks() -> None:
    unknown = {(t, json.loads(s)) for _, code, t, s, _d in FOUND if code == pr.UNKNOWN_ARGUMENT}
    assert unknown == set(NOT_IN_AWS_4_13) | INVALID_ANYWHERE


def test_names_of_newer_versions_are_reported_as_unknown_to_the_schema_not_as_typos() -> None:
    # No "Did you mean" (and no quick fix renaming them into something else): the detail says the
    # schema in use lacks the name and that another version of the provider may have it.
    found = [(t, s, detail) for _, code, t, s, detail in FOUND if code == pr.UNKNOWN_ARGUMENT]
    assert found
    for t, s, detail in found:
        assert "Did you mean" not in detail, (t, s)
        assert detail.endswith(pr.NOT_IN_THIS_VERSION), (t, s)


def test_every_other_error_is_a_real_one() -> None:
    errors = {(code, t, s) for _, code, t, s, _d in FOUND if code not in (pr.UNKNOWN_ARGUMENT, pr.DEPRECATED)}
    assert errors == set(OTHER_ERRORS)


def test_deprecations_are_real_aws_4_13_deprecations() -> None:
    # In the corpus: aws_s3_bucket_object's bucket and key, which AWS 4.x deprecates (the
    # resource was superseded by aws_s3_object); each one is checked against the schema's flag.
    deprecated = {(t, json.loads(s)) for _, code, t, s, _d in FOUND if code == pr.DEPRECATED}
    assert deprecated, "the corpus uses deprecated AWS 4.x arguments"
    schemas = ps.combine(*(ps.load(f) for f in FILES))
    for t, arg in deprecated:
        s = schemas.resource("aws", t) or schemas.data_source("aws", t)
        assert s is not None
        flagged = s.attributes[arg].deprecated if arg in s.attributes else s.block_types[arg].block.deprecated
        assert flagged, (t, arg)


def test_the_corpus_through_the_workspace_reports_what_the_rules_report(tmp_path: Path) -> None:
    """Each accepted corpus file alone in a module with the AWS, random and local schemas: the
    workspace's `schema/` diagnostics equal `validate_block` (tests/internals.py) over its blocks with the
    file's own `required_providers` (so the wiring finds providers as the rules' own test does)."""
    files = FILES
    schemas = ps.combine(*(ps.load(f) for f in files))
    checked = 0
    corpus = [(row["file"], read(row["file"])) for row in rows() if classify(row) == "ACCEPTED"]
    for n, (name, text) in enumerate(corpus):
        folder = tmp_path / f"m{n}"
        folder.mkdir()
        file_name = "main.tofu.json" if ".tofu." in name else "main.tf.json"
        (folder / file_name).write_text(text, encoding="utf-8")
        ws = Workspace([str(folder)])
        ws.set_schema_files([str(f) for f in files])
        uri = uri_of_path(str(folder / file_name))
        ws.open(uri, text, 1, "terraform-json")
        got = sorted((d.code, d.start, d.end) for d in diagnostics.collect(ws.snapshot(), uri) if d.code.startswith("schema/"))
        body = materialize(analyze_file(text, parse(text).root, file_name).body)
        required = ws.snapshot().required_providers(uri)
        engine = ps.OPENTOFU if file_name.endswith(".tofu.json") else ps.TERRAFORM
        want = sorted((d.code, d.start, d.end) for b in body.blocks for d in validate_block(b, schemas, text, required, engine))
        assert got == want, name
        checked += bool(want) or any(b.type_name == "resource" for b in body.blocks)
    assert checked >= 40
