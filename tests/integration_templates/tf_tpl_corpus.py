"""The real-world corpus for the template checks: every valid JSON Terraform/OpenTofu configuration
file of `tests/data/corpus/real` (located by `shared_data`; see its SOURCES.tsv), and the
strings-checked counters that conftest.py prints at the end of the run."""

from __future__ import annotations

import csv

from shared_data import REAL_CORPUS as CORPUS

# Files with a diagnostic Terraform (>= 0.12) also reports, by code.
KNOWN = {
    # TF 0.12-dev fixture using the legacy `ignore_changes = ["*"]`, which Terraform now rejects.
    "hashicorp__terraform__configs__test-fixtures__valid-files__resources-ignorechanges-all-legacy.tf.json":
        ["reference/ignore-changes-wildcard"],
}

# mode -> strings checked over the corpus (filled by the corpus test)
COUNTS: dict[str, int] = {}
FILES: list[int] = [0]


def config_files() -> list[str]:
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [
        r["file"] for r in rows
        if r["valid_json"] == "yes" and r["file"].endswith((".tf.json", ".tofu.json")) and not r["notes"].startswith("NOT ")
    ]
