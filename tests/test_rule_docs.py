"""The packaged table of diagnostic codes (`hcljson_ls.rule_docs`, what SARIF rules say) is the one
`tools/build_rule_docs.py` builds from docs/diagnostics.md, and it covers every code the package reports."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from test_diagnostic_codes import _codes

from hcljson_ls.rule_docs import RULES

REPO = Path(__file__).resolve().parents[1]
DOCS = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")

_spec = importlib.util.spec_from_file_location("build_rule_docs", REPO / "tools" / "build_rule_docs.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)  # type: ignore[union-attr]


def test_the_packaged_table_is_current():
    built = build.render(build.rules_from_markdown(DOCS))
    assert (REPO / "server" / "hcljson_ls" / "rule_docs.py").read_text(encoding="utf-8") == built, (
        "server/hcljson_ls/rule_docs.py is out of date: run python tools/build_rule_docs.py"
    )


def test_every_code_the_package_reports_has_a_rule():
    assert sorted(_codes() - set(RULES)) == []


def test_each_rule_links_to_a_heading_of_the_page_and_says_what_it_is():
    headings = {build.anchor(h) for h in re.findall(r"^#{2,3} (.*)$", DOCS, flags=re.M)}
    for code, (section, short, full) in RULES.items():
        assert section in headings, code
        assert short and short != code and short.endswith(".") and "`" not in short, (code, short)
        assert full.startswith(short[:-1]), code


def test_the_reader_of_the_tables():
    markdown = "\n".join([
        "# Title",
        "## Odd `Section`: names",
        "| code | severity | when |",
        "|---|---|---|",
        "| `a/one`, `a/two` | error | Uses `&` or `\\|` (e.g. `x`). See [the rest](other.md). More text. |",
        "| `a/one` | error | A second row for the same code is ignored. |",
        "",
        "| code | meaning |",
        "|---|---|",
        "| `b/not-a-rule` | a table without a \"when\" column |",
    ])
    assert build.rules_from_markdown(markdown) == {
        "a/one": ("odd-section-names", 'Uses "&" or "|" (e.g. "x").', 'Uses "&" or "|" (e.g. "x"). See the rest. More text.'),
        "a/two": ("odd-section-names", 'Uses "&" or "|" (e.g. "x").', 'Uses "&" or "|" (e.g. "x"). See the rest. More text.'),
    }
