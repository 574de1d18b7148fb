"""The oracle itself works: it reproduces what hcl v2.14.1 was observed to report.

The expectations come from tests/data/corpus/hcl-json-cases.jsonl (found by `shared_data`), whose
``observed`` fields were recorded by running hcl v2.14.1 directly; agreeing
with them validates the oracle's plumbing (request decoding, position
conversion, schema translation), not the project under test.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
import shared_data
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .client import OracleError, spans, summaries

CORPUS = shared_data.HCL_JSON_CASES
CORPUS_FILENAME = "test.json"  # the filename the corpus observations were recorded with


@functools.cache
def _load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _cases_with(key: str) -> list[Any]:
    """The corpus cases with an observed `key`; a missing corpus skips (locally) or fails (CI)."""
    return shared_data.params(lambda: _observed(key), CORPUS)


def _observed(key: str) -> list[Any]:
    out = [
        pytest.param(case, id=case["source"].split(" ", 1)[-1])
        for case in _load_cases()
        if key in (case.get("observed") or {})
    ]
    assert out, f"no corpus cases with observed {key}"
    return out


def _recorded(diags: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Recorded (corpus) diagnostics as comparable tuples."""
    return [
        (
            d["severity"],
            d["summary"],
            d["detail"],
            (d["start"]["Line"], d["start"]["Column"], d["start"]["Byte"]),
            (d["end"]["Line"], d["end"]["Column"], d["end"]["Byte"]),
        )
        for d in diags
    ]


def _answered(answer: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Oracle diagnostics in the same shape as :func:`_recorded`."""
    out = []
    for d in answer["diagnostics"]:
        r = d["range"]
        assert r is not None, d
        out.append(
            (
                d["severity"],
                d["summary"],
                d["detail"],
                (r["start"]["line"], r["start"]["column"], r["start"]["byte"]),
                (r["end"]["line"], r["end"]["column"], r["end"]["byte"]),
            )
        )
    return out


def _char_of_byte(src: str, byte: int) -> int:
    """Code point index of the character containing UTF-8 byte offset ``byte``."""
    encoded = src.encode("utf-8", "surrogatepass")
    if byte > len(encoded):
        return len(src) + byte - len(encoded)
    return len(encoded[:byte].decode("utf-8", "ignore"))


def _positions(answer: Any) -> list[dict[str, int]]:
    """Every position object (a dict with byte and char) anywhere in an answer."""
    found: list[dict[str, int]] = []
    if isinstance(answer, dict):
        if "byte" in answer and "char" in answer:
            found.append(answer)
        for v in answer.values():
            found.extend(_positions(v))
    elif isinstance(answer, list):
        for v in answer:
            found.extend(_positions(v))
    return found


@pytest.mark.parametrize("case", _cases_with("json_Parse"))
def test_json_parse_reproduces_corpus(hcl_oracle, case):
    answer = hcl_oracle.json_parse(case["input"], filename=CORPUS_FILENAME)
    recorded = case["observed"]["json_Parse"]
    assert summaries(answer) == [d["summary"] for d in recorded]
    assert _answered(answer) == _recorded(recorded)


@pytest.mark.parametrize("case", _cases_with("json_ParseExpression"))
def test_json_expression_reproduces_corpus(hcl_oracle, case):
    answer = hcl_oracle.json_expression(case["input"], filename=CORPUS_FILENAME)
    assert _answered(answer) == _recorded(case["observed"]["json_ParseExpression"])


_MODES = {"Body.Content": "content", "Body.PartialContent": "partial", "Body.JustAttributes": "just_attributes"}


def _schema(go_schema: dict[str, Any] | None) -> dict[str, Any]:
    """Corpus schemas use hcl's Go field names; translate to the oracle's."""
    go_schema = go_schema or {}
    return {
        "attributes": [
            {"name": a["Name"], "required": bool(a.get("Required"))} for a in go_schema.get("attributes") or []
        ],
        "blocks": [{"type": b["Type"], "labels": b.get("LabelNames") or []} for b in go_schema.get("blocks") or []],
    }


@pytest.mark.parametrize(
    "case", [p for p in _cases_with("stage_diags") if p.values[0] is None or p.values[0]["stage"] in _MODES]
)
def test_json_body_reproduces_corpus(hcl_oracle, case):
    answer = hcl_oracle.json_body(
        case["input"], _schema(case.get("schema")), _MODES[case["stage"]], filename=CORPUS_FILENAME
    )
    observed = case["observed"]
    assert _answered(answer) == _recorded(observed["json_Parse"] + observed["stage_diags"])


@pytest.mark.parametrize(
    "case", [p for p in _cases_with("stage_diags") if p.values[0] is None or p.values[0]["stage"] == "Expression.Value"]
)
def test_json_eval_reproduces_corpus(hcl_oracle, case):
    answer = hcl_oracle.json_expression(case["input"], eval=True, vars=case["eval_vars"], filename=CORPUS_FILENAME)
    assert _answered(answer) == _recorded(case["observed"]["stage_diags"])
    if not answer["diagnostics"]:
        assert answer["value_known"] is True
        assert "case" in json.dumps(answer["value"])


def test_body_decode_reports_blocks_labels_and_attributes(hcl_oracle):
    marked = parse_fixture('{"resource": {⟨"aws_instance"⟩: {⟨"web"⟩: {"ami": "${var.ami}", ⟨"count"⟩: 2}}}, "locals": {"é": 1}}').only
    src, (type_label, name_label, count) = marked.text, marked.ranges
    schema = {
        "blocks": [
            {"type": "resource", "labels": ["type", "name"], "body": {"attributes": [{"name": "ami", "required": True}]}},
            {"type": "locals", "labels": []},
        ]
    }
    answer = hcl_oracle.json_body(src, schema, "content")
    # "count" is not in the nested schema -> Content reports it as extraneous.
    assert spans(answer) == [("Extraneous JSON object property", *count)]
    resource, locals_ = answer["blocks"]
    assert (resource["type"], resource["labels"]) == ("resource", ["aws_instance", "web"])
    label_spans = [(r["start"]["char"], r["end"]["char"]) for r in resource["label_ranges"]]
    assert label_spans == [type_label, name_label]
    (ami,) = resource["body"]["attributes"]
    assert ami["name"] == "ami"
    assert [v["root"] for v in ami["variables"]] == ["var"]
    var_step = ami["variables"][0]["steps"][0]
    assert src[var_step["range"]["start"]["char"] : var_step["range"]["end"]["char"]] == "var"
    assert locals_["labels"] == [] and "body" not in locals_


def test_just_attributes_and_multibyte_offsets(hcl_oracle):
    marked = parse_fixture('{"ключ": "значение", ⟨"b"⟩: true}').only
    src, (b,) = marked.text, marked.ranges
    answer = hcl_oracle.json_body(src, None, "just_attributes")
    assert answer["diagnostics"] == []
    names = [(a["name"], a["name_range"]["start"]["char"], a["name_range"]["end"]["char"]) for a in answer["attributes"]]
    assert names == [("ключ", 1, 7), ("b", *b)]
    first = answer["attributes"][0]["name_range"]
    assert first["start"]["byte"] == 1 and first["end"]["byte"] == 1 + len('"ключ"'.encode())


def test_native_syntax_ops(hcl_oracle):
    tmpl = hcl_oracle.template("hello ${name")
    assert summaries(tmpl) == ["Unclosed template interpolation sequence"]
    assert [v["root"] for v in tmpl["variables"]] == ["name"]

    assert hcl_oracle.expression("a.b + 1")["diagnostics"] == []
    assert hcl_oracle.expression("a +")["diagnostics"][0]["severity"] == "error"

    trav = hcl_oracle.traversal('aws_instance.web[0]["k"]')
    assert trav["diagnostics"] == []
    steps = trav["traversal"]["steps"]
    assert [(s["kind"], s.get("name"), s.get("key")) for s in steps] == [
        ("root", "aws_instance", None),
        ("attr", "web", None),
        ("index", None, 0),
        ("index", None, "k"),
    ]
    bad = hcl_oracle.traversal('"aws_instance.*"', syntax="json")
    assert bad["traversal"] is None and bad["diagnostics"]

    ty = hcl_oracle.type_constraint('"map(list(string))"', syntax="json")
    assert (ty["diagnostics"], ty["type"]) == ([], "map(list(string))")
    bad_ty = hcl_oracle.type("lisst(string)")
    assert bad_ty["type"] is None
    assert summaries(bad_ty) == ["Invalid type specification"]
    opt = hcl_oracle.type_constraint('object({a = optional(string, "x")})')
    assert opt["has_defaults"] is True and opt["type_json"] == ["object", {"a": "string"}, ["a"]]


def test_bad_requests_raise_and_process_survives(hcl_oracle):
    with pytest.raises(OracleError, match="unknown op"):
        hcl_oracle.request({"op": "nope", "src": ""})
    with pytest.raises(OracleError, match="unknown mode"):
        hcl_oracle.json_body("{}", {}, "whatever")
    with pytest.raises(OracleError, match="missing"):
        hcl_oracle.request({"op": "json_parse"})
    assert hcl_oracle.json_parse("{}")["diagnostics"] == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(
            st.sampled_from(['{', '}', '[', ']', ',', ':', '"', '"a"', 'true', '1e5', '\n', ' ', '"${x}"', '/*']),
            st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=3),
        ),
        max_size=12,
    ).map("".join)
)
def test_char_offsets_match_python_indices(hcl_oracle, src):
    for op in (hcl_oracle.json_parse, hcl_oracle.template, hcl_oracle.json_expression):
        try:
            answer = op(src)
        except OracleError as e:
            if e.panic:  # a crash inside hcl is the reference's problem, not the plumbing's
                continue
            raise
        for pos in _positions(answer):
            assert pos["char"] == _char_of_byte(src, pos["byte"]), (src, pos)
