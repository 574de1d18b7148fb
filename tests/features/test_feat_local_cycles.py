"""Local values that refer to one another in a cycle (`resolution.local_cycles`), through a real
`Workspace` on a temporary directory.

Terraform 1.11.4 (`validate -json`, the cases `references/local-cycle-*` of tests/conformance)
reports "Cycle: local.b (expand), local.a (expand)" without a range; we report it on the name of
each local value of the cycle, in its own file.
"""

from __future__ import annotations

import json
from pathlib import Path

from fixture import lsp_range, parse_fixture
from internals import found_in, quick_and_full

from hcljson_ls.features.diagnostics import collect

CYCLE = "reference/cycle"


def test_a_cycle_is_reported_on_each_local_of_it(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/main.tf.json
{"variable": {"on": {"type": "bool"}},
 "locals": {⟨"a"⟩: "${var.on ? local.b : 1}", ⟨"b"⟩: ["${try(local.c, 2)}"], ⟨"c"⟩: {"k": "${local.a}"},
            "d": "${local.a}", "e": "${local.e}", "f": "${local.d}"}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code == CYCLE]
    assert [(d.start, d.end) for d in found] == fw.fixture.files["/app/main.tf.json"].ranges


def test_a_cycle_across_files_goes_when_one_local_stops_it(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/a.tf.json
{"locals": {"a": "${[for x in local.b : x]}"}}
//- /app/b.tf.json
{"locals": {"b": "${local.$[name]a}"}}
""").workspace(tmp_path, open=["/app/a.tf.json", "/app/b.tf.json"])
    assert found_in(fw, [CYCLE], "/app/a.tf.json") == [(CYCLE, '"a"')]
    assert found_in(fw, [CYCLE], "/app/b.tf.json") == [(CYCLE, '"b"')]
    text = fw.fixture.files["/app/b.tf.json"].text
    at = fw.fixture.mark("name", "/app/b.tf.json")[1]
    fw.workspace.change(fw.uri("/app/b.tf.json"), 2, [{"range": lsp_range(text, at, at + 1), "text": "z"}], "utf-32")
    assert found_in(fw, [CYCLE], "/app/a.tf.json") == []
    assert found_in(fw, [CYCLE], "/app/b.tf.json") == []


def test_the_message_lists_the_cycle_from_the_local(tmp_path: Path) -> None:
    fw = parse_fixture('//- /app/main.tf.json\n{"locals": {"a": "${local.b}", "b": "${local.c}", "c": "${local.a}"}}\n'
                       ).workspace(tmp_path, open=["/app/main.tf.json"])
    diags = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code == CYCLE]
    assert [d.summary for d in diags] == ["Cycle: local.a, local.b, local.c", "Cycle: local.b, local.c, local.a",
                                          "Cycle: local.c, local.a, local.b"]
    assert diags[0].detail.startswith('The local value "a" refers to local.b -> local.c, which refers back to local.a')


def test_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    (tmp_path / "locals.tf.json").write_text(json.dumps({"locals": {"b": "${local.a}"}}))
    text = json.dumps({"locals": {"a": "${local.b}-x"},
                       "resource": {"terraform_data": {"t": {"input": "${local.a}"}}}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [CYCLE]


def test_check_reports_them(tmp_path: Path, cli) -> None:
    parse_fixture('//- /app/a.tf.json\n{"locals": {"a": "${local.b}"}}\n//- /app/b.tf.json\n{"locals": {"b": "${local.a}"}}\n'
                  ).write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    assert "a.tf.json:1:13: error: Cycle: local.a, local.b: " in result.stdout
    assert "b.tf.json:1:13: error: Cycle: local.b, local.a: " in result.stdout and f"[{CYCLE}]" in result.stdout
