"""The body-stage cases of tests/data/corpus/hcl-json-cases.jsonl (hashicorp/hcl's own tests:
Body.PartialContent, Body.Content, Body.JustAttributes, with their schemas) agree with the expected
diagnostic counts; and every real corpus file that is valid JSON decodes (with a fully open
schema) without exceptions and with consistent ranges. Pass rates are printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shared_data
from hcljson_fixtures import check_invariants, outline

from hcljson_ls.hcljson.decode import decode_body, decode_file
from hcljson_ls.hcljson.schema import DYNAMIC_BODY, OPEN_BODY, AttributeSchema, BlockSchema, BodySchema
from hcljson_ls.jsonsyntax import parse

CASES_FILE = shared_data.HCL_JSON_CASES
STAGES = ("Body.PartialContent", "Body.Content", "Body.JustAttributes")

shared_data.require(CASES_FILE, shared_data.REAL_CORPUS)


def _body_cases() -> list[dict]:
    cases = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [c for c in cases if c.get("stage") in STAGES]


def schema_for(case: dict) -> BodySchema:
    """hcl's schema of a case as a BodySchema. PartialContent ignores names the schema does not
    list: an open body accepts them without error, which is the same contract."""
    if case["stage"] == "Body.JustAttributes":
        return DYNAMIC_BODY
    raw = case.get("schema") or {}
    attrs = [AttributeSchema(a["Name"], required=bool(a.get("Required"))) for a in raw.get("attributes") or []]
    blocks = [BlockSchema(b["Type"], tuple(b.get("LabelNames") or ())) for b in raw.get("blocks") or []]
    return BodySchema.of(attrs, blocks, open_attributes=case["stage"] == "Body.PartialContent")


def run_case(case: dict) -> tuple[int, list[str], str]:
    text = case["input"]
    tree = parse(text, require_body=False)
    assert tree.diagnostics == [], "the corpus promises json.Parse has no diagnostics for these"
    body, diags = decode_body(text, tree.root, 0, schema_for(case))
    check_invariants(text, body)
    return len(diags), [d.summary for d in diags], outline(body)


BODY_CASES = _body_cases()


def test_body_stage_pass_rate(capsys):
    passed = 0
    failures = []
    for case in BODY_CASES:
        count, summaries, _ = run_case(case)
        if count == case["diag_count"]:
            passed += 1
        else:
            failures.append((case["source"], case["input"], case["diag_count"], summaries))
    with capsys.disabled():
        print(f"\nhcl-json-cases body stages: {passed}/{len(BODY_CASES)} agree with hcl's diagnostic count")
    assert len(BODY_CASES) >= 20
    assert not failures, failures


@pytest.mark.parametrize("case", BODY_CASES, ids=[c["source"].rsplit(":", 1)[-1] + "-" + c["stage"] for c in BODY_CASES])
def test_body_stage_case(case):
    count, summaries, decoded = run_case(case)
    assert count == case["diag_count"], summaries
    want = case.get("want_content") or {}
    if "blocks" in want:
        expected = [(b["Type"], tuple(b["Labels"])) for b in want["blocks"]]
        tree = parse(case["input"], require_body=False)
        body, _ = decode_body(case["input"], tree.root, 0, schema_for(case))
        assert [(b.type_name, b.label_values) for b in body.blocks] == expected
    if "attributes" in want and case["stage"] != "Body.PartialContent":
        tree = parse(case["input"], require_body=False)
        body, _ = decode_body(case["input"], tree.root, 0, schema_for(case))
        assert sorted({a.name for a in body.attributes}) == sorted(want["attributes"])
    if "want_attributes" in case:
        tree = parse(case["input"], require_body=False)
        body, _ = decode_body(case["input"], tree.root, 0, schema_for(case))
        assert sorted({a.name for a in body.attributes}) == sorted(case["want_attributes"])


def _real_files() -> list[Path]:
    return sorted(p for p in shared_data.REAL_CORPUS.iterdir() if p.name.endswith(".json"))


def test_real_corpus_decodes_with_open_schema(capsys):
    files = _real_files()
    ok = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        tree = parse(text)
        body, diags = decode_file(text, tree.root, OPEN_BODY)
        check_invariants(text, body)
        # An open body accepts every name; only expression-level problems can remain.
        assert all(d.code == "structure/duplicate-key" for d in diags), (path.name, diags[:3])
        ok += 1
    with capsys.disabled():
        print(f"\nreal corpus: {ok}/{len(files)} files decode with the open schema")
    assert ok == len(files)
