"""Every real corpus file: Terraform-accepted configuration decodes with no `structure/` error;
files Terraform rejects (including its `invalid-files` fixtures) report the error their notes name.
Pass rates are printed at the end of the run (see conftest.py)."""

from __future__ import annotations

import pytest
import shared_data
from tf_corpus import REJECTED, REJECTED_AT, classify, read, record, rows
from tf_support import diagnostics

shared_data.require(shared_data.REAL_SOURCES)

ROWS = rows()
BY_CLASS = {k: [r["file"] for r in ROWS if classify(r) == k] for k in ("ACCEPTED", "REJECTED", "SYNTAX", "NOT_CONFIG")}


def test_the_corpus_is_classified() -> None:
    assert len(ROWS) == 108  # tests/data/README.md: 101 copied files, 7 generated stand-ins
    assert len(BY_CLASS["ACCEPTED"]) >= 75
    assert set(BY_CLASS["REJECTED"]) == set(REJECTED)


@pytest.mark.parametrize("name", BY_CLASS["ACCEPTED"])
def test_accepted_file_has_no_structure_error(name: str) -> None:
    text = read(name)
    body, diags = diagnostics(text, name)
    errors = [d for d in diags if d.severity == "error"]
    record("ACCEPTED", not errors)
    assert not errors, [(d.code, d.summary, text[d.start : d.end][:60]) for d in errors]
    assert body.blocks or text.strip() in ("{}",) or '"//"' in text


@pytest.mark.parametrize("name", BY_CLASS["REJECTED"])
def test_rejected_file_reports_the_named_error(name: str) -> None:
    text = read(name)
    _, diags = diagnostics(text, name)
    hits = [d for d in diags if d.code == REJECTED[name] and d.severity == "error"]
    at = REJECTED_AT.get(name)
    ok = bool(hits) and (at is None or any(text[d.start : d.end] == at for d in hits))
    record("REJECTED", ok)
    assert ok, [(d.code, d.summary, text[d.start : d.end][:60]) for d in diags]


@pytest.mark.parametrize("name", BY_CLASS["SYNTAX"])
def test_invalid_json_reports_a_syntax_error(name: str) -> None:
    text = read(name)
    _, diags = diagnostics(text, name)
    ok = any(d.code.startswith("syntax/") and d.severity == "error" for d in diags)
    record("SYNTAX", ok)
    assert ok


def test_terraform_invalid_files_fixtures_are_all_covered() -> None:
    invalid = [r["file"] for r in ROWS if "invalid-files" in r["file"]]
    assert len(invalid) == 4
    for name in invalid:
        assert name in REJECTED or name in BY_CLASS["SYNTAX"], name
