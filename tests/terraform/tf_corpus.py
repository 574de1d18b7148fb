"""The real-world corpus (`tests/data/corpus/real`, located by `shared_data`), classified for the
Terraform structure tests.

Classes, from SOURCES.tsv (`valid_json`, `notes`) and the file name:
* ACCEPTED      valid JSON Terraform/OpenTofu configuration that Terraform accepts: no `structure/` error.
* REJECTED      valid JSON configuration that Terraform rejects: the named `structure/` error.
* SYNTAX        not JSON: a `syntax/` error (and the Terraform `invalid-files` among them).
* NOT_CONFIG    not a Terraform configuration file (HCL v1 / fuzz fixtures, Terragrunt, `.tftest.json`).

`RESULTS` collects per-class outcomes; tests/terraform/conftest.py prints the pass rates.
"""

from __future__ import annotations

import csv

from shared_data import REAL_CORPUS as CORPUS

# Valid JSON that Terraform (>= 0.12 / OpenTofu) rejects, with the structure error we must report.
REJECTED = {
    # "Missing block label" for an empty object at a label level (notes: Terraform rejects this file).
    "kapicorp__kapitan__examples__terraform__compiled__project2__terraform__storage.tf.json": "structure/missing-label",
    "kapicorp__kapitan__examples__terraform__compiled__project3__terraform__iam_service_account.tf.json": "structure/missing-label",
    # HCL1-era fixture with an `atlas` block, which Terraform 0.12 removed.
    "hashicorp__terraform__config__test-fixtures__basic.tf.json": "structure/unknown-block-type",
    # `"alias": ""`: Terraform requires a provider alias to be a valid identifier.
    "hashicorp__terraform-config-inspect__tfconfig__testdata__provider-aliases-json__provider-aliases-json.tf.json": "structure/invalid-name",
    # Stand-ins of the shape of Terraform's invalid-files fixtures (TestParserLoadConfigFileFailure).
    "generated__configs__invalid-files__import-to-array.tf.json": "structure/value-type",
    "generated__configs__invalid-files__replace-triggered-by-object.tf.json": "structure/value-type",
}

# Where in the invalid-files fixtures the error must be (the text of its range).
REJECTED_AT = {
    "generated__configs__invalid-files__import-to-array.tf.json": '[\n      "aws_s3_bucket.pool[oops]"\n    ]',
    "generated__configs__invalid-files__replace-triggered-by-object.tf.json": '{\n              "terraform_data.source[count.index].input": "no"\n            }',
    "hashicorp__terraform-config-inspect__tfconfig__testdata__provider-aliases-json__provider-aliases-json.tf.json": '""',
}


def rows() -> list[dict[str, str]]:
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def classify(row: dict[str, str]) -> str:
    name, notes = row["file"], row["notes"]
    if row["valid_json"] != "yes":
        return "SYNTAX"
    if not name.endswith((".tf.json", ".tofu.json")) or notes.startswith("NOT "):
        return "NOT_CONFIG"
    if name in REJECTED:
        return "REJECTED"
    assert "expected to error" not in notes and "rejects" not in notes, f"unclassified rejected file {name}"
    return "ACCEPTED"


def read(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


# class -> [passed, total]
RESULTS: dict[str, list[int]] = {}


def record(kind: str, ok: bool) -> None:
    r = RESULTS.setdefault(kind, [0, 0])
    r[0] += ok
    r[1] += 1
