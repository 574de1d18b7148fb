"""The JSON layer against the shared corpus: 132 real files and HCL's own parser/scanner cases."""

import csv
import json
import random
from dataclasses import dataclass

import pytest
import shared_data

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.scanner import WS, scan
from hcljson_ls.jsonsyntax.tree import snapshot
from hcljson_ls.jsonsyntax.value import Pairs, to_python

shared_data.require(shared_data.REAL_SOURCES, shared_data.HCL_JSON_CASES)

REAL = shared_data.REAL_CORPUS
with open(shared_data.REAL_SOURCES, encoding="utf-8", newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))
with open(shared_data.HCL_JSON_CASES, encoding="utf-8") as _f:
    CASES = [json.loads(line) for line in _f]

# What each deliberately invalid file must report (by the notes in SOURCES.tsv).
EXPECTED_INVALID = {
    "bad_input_128": "syntax/missing-key",
    "bad_input_missing_close": "syntax/unclosed-bracket",
    "bad_input_tf_8110": "syntax/missing-comma",
    "013upgrade-skipped-files": "syntax/missing-comma",
    "native-syntax-as-json": "syntax/invalid-literal",
    "zerolen": "syntax/empty-document",
    "hello.w": "syntax/trailing-comma",
    "resource.w": "syntax/trailing-comma",
    "website_with_api.w": "syntax/trailing-comma",
}


def read(row):
    return (REAL / row["file"]).read_text(encoding="utf-8")


def normalize(v):
    if isinstance(v, Pairs):
        return ("object", [(k, normalize(x)) for k, x in v])
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


@pytest.mark.parametrize("row", [r for r in ROWS if r["valid_json"] == "yes"], ids=lambda r: r["file"][:80])
def test_valid_file_parses_cleanly_to_the_json_value(row):
    text = read(row)
    result = parse(text, require_body=False)
    assert [d for d in result.diagnostics] == []
    assert "".join(scan(text)) == text
    expected = json.loads(text, object_pairs_hook=Pairs)
    assert normalize(to_python(text, result.root)) == normalize(expected)


@pytest.mark.parametrize("row", [r for r in ROWS if r["valid_json"] == "no"], ids=lambda r: r["file"][:80])
def test_invalid_file_reports_the_error_its_notes_name(row):
    text = read(row)
    result = parse(text)
    assert "".join(scan(text)) == text
    (code,) = [c for key, c in EXPECTED_INVALID.items() if key in row["file"]]
    assert code in {d.code for d in result.diagnostics}, [d.code for d in result.diagnostics]


def test_corpus_summary(capsys):
    valid = [r for r in ROWS if r["valid_json"] == "yes"]
    clean = sum(1 for r in valid if not parse(read(r)).diagnostics)
    with capsys.disabled():
        print(f"\n[jsonsyntax] corpus: {clean}/{len(valid)} valid files parse with no syntax error; "
              f"{len(ROWS) - len(valid)} invalid files checked against their notes")
    assert clean == len(valid)


@pytest.mark.parametrize("case", [c for c in CASES if c["stage"] == "parse"], ids=lambda c: c["source"] + " " + repr(c["input"])[:30])
def test_hcl_parse_cases_agree_on_validity(case):
    # Inputs of HCL's value parser: any JSON value may be the root.
    result = parse(case["input"], require_body=False)
    assert bool(result.diagnostics) == case["expect_errors"], [d.message for d in result.diagnostics]


_KIND = {"{": "tokenBraceO", "}": "tokenBraceC", "[": "tokenBrackO", "]": "tokenBrackC", ":": "tokenColon",
         ",": "tokenComma", '"': "tokenString"}


def _token_kind(tok):
    c = tok[0]
    if c in _KIND:
        return _KIND[c]
    if c.isdigit() or c == "-":
        return "tokenNumber"
    if c.isalpha():
        return "tokenKeyword"
    return "tokenInvalid"


@pytest.mark.parametrize("case", [c for c in CASES if c["stage"] == "scan"], ids=lambda c: repr(c["input"])[:30])
def test_hcl_scan_cases_give_the_same_tokens(case):
    toks = [t for t in scan(case["input"]) if t[0] not in WS]
    want = case["want_tokens"]
    want = want.split() if isinstance(want, str) else list(want)
    assert [_token_kind(t) for t in toks] + ["tokenEOF"] == want


@dataclass
class Edit:
    start: int
    old_end: int
    new_end: int


@pytest.mark.parametrize("row", ROWS[::4], ids=lambda r: r["file"][:60])
def test_random_edits_on_corpus_files_match_a_full_parse(row):
    rnd = random.Random(row["file"])
    text = read(row)
    current = parse(text)
    alphabet = ['"', "{", "}", "[", "]", ",", ":", " ", "\n", "\\", "x", "1", "${", "//", "é"]
    for _ in range(25):
        start = rnd.randrange(len(text) + 1)
        end = min(len(text), start + rnd.choice([0, 0, 1, 3]))
        insert = "".join(rnd.choice(alphabet) for _ in range(rnd.choice([0, 1, 1, 2])))
        new_text = text[:start] + insert + text[end:]
        current = reparse(current, new_text, Edit(start, end, start + len(insert)))
        text = new_text
        full = parse(text)
        assert snapshot(current.root) == snapshot(full.root)
        assert current.diagnostics == full.diagnostics
