"""Checking helpers for the Terraform template/reference/type checks and semantic tokens.

A fixture is `.tf.json` text in which `⟨` ... `⟩` mark expected ranges (tests/fixture.py: in the
order of their opening marker; the markers are not part of the document). `check(src, codes)`
reads the document as the Terraform analysis does (`terraform.analysis.analyze_file`) and asserts that its string diagnostics
are exactly one per marked range, with the given codes, and nothing else.
"""

from __future__ import annotations

from fixture import parse_fixture

from hcljson_ls.diagnostic import Diagnostic
from hcljson_ls.features.semantic_tokens import Token, tokens_for_body
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.workspace import DocumentState


def open_state(text: str, name: str = "main.tf.json") -> DocumentState:
    return DocumentState.open(f"file:///nonexistent-hcljson-test/{name}", text, 1, "terraform-json")


def template_diags(text: str, name: str = "main.tf.json") -> list[Diagnostic]:
    return list(analyze_file(text, parse(text).root, f"/nonexistent-hcljson-test/{name}").strings)


def check(src: str, codes: list[str], name: str = "main.tf.json") -> list[Diagnostic]:
    fixture = parse_fixture(src).only
    text, ranges = fixture.text, fixture.ranges
    assert len(ranges) == len(codes), "one code per marked range"
    diags = template_diags(text, name)
    got = [(d.start, d.end, d.code) for d in diags]
    want = [(s, e, c) for (s, e), c in zip(ranges, codes)]
    assert got == want, [(d.code, text[d.start : d.end], d.message) for d in diags]
    for d in diags:
        assert d.summary and d.detail and d.severity == "error"
    return diags


def semantic_tokens(state: DocumentState, start: int | None = None, end: int | None = None) -> list[Token]:
    """The semantic tokens of the state's current version, all or those meeting [start, end), from
    its analysis (what `features.semantic_tokens.semantic_tokens` answers for an open document)."""
    return tokens_for_body(state.text, state.analysis.body, start, end)
