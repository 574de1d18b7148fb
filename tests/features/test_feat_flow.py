"""Sensitive and ephemeral values through a module (issue 19, section 3, `terraform.flow`): root
outputs holding sensitive values, ephemeral root outputs, ephemeral values in outputs, in resource
and data source arguments, in `count`/`for_each` and in child module inputs. Through a real
`Workspace` over a temporary directory, edits across files, and the real `hcljson-ls check`.

Each case notes what `terraform validate -json` (Terraform 1.11.4, `init -backend=false`) says for
the same module, so the tests run without Terraform; the valid neighbours are valid for Terraform too.

Fixtures (tests/fixture.py): `⟨⟩` marks the range each diagnostic must cover, in order.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fixture import FixtureWorkspace, lsp_range, parse_fixture
from hypothesis import assume, given
from hypothesis import strategies as st

from hcljson_ls.cli import run_check
from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.terraform.rules.flow import may_mark, may_mark_changed
from hcljson_ls.workspace import flow_facts as flow_facts_module

VARS = """
//- /app/variables.tf.json
{"variable": {"s": {"type": "string", "default": "x", "sensitive": true},
              "e": {"type": "string", "default": "x", "ephemeral": true},
              "p": {"type": "string", "default": "x"}}}
"""


def build(tmp_path: Path, src: str, open: list[str] | None = None, engine: str = "auto") -> FixtureWorkspace:
    return parse_fixture(src).workspace(tmp_path, open=open if open is not None else ["/app/main.tf.json"], engine=engine)


def flow(fw: FixtureWorkspace, path: str = "/app/main.tf.json"):
    return [d for d in collect(fw.snapshot(), fw.uri(path)) if d.code.startswith("flow/")]


def expect(fw: FixtureWorkspace, codes: list[str], path: str = "/app/main.tf.json") -> list:
    found = flow(fw, path)
    assert [(d.code, d.start, d.end) for d in found] == [
        (code, *r) for code, r in zip(codes, fw.fixture.files[path].ranges, strict=True)
    ]
    assert all(d.severity == ERROR for d in found)
    return found


def test_root_outputs_holding_sensitive_values(tmp_path: Path) -> None:
    fw = build(tmp_path, VARS + """
//- /app/main.tf.json
{"locals": {"x": "${var.s}", "obj": {"a": "plain", "b": "${var.s}"}},
 "output": {
  "direct": ⟨{⟩"value": "${var.s}"},
  "via_local": ⟨{⟩"value": "${local.x}"},
  "template": ⟨{⟩"value": "a-${var.s}"},
  "length": ⟨{⟩"value": "${length(var.s)}"},
  "function": ⟨{⟩"value": "${sensitive(1)}"},
  "tuple": ⟨{⟩"value": ["${var.s}"]},
  "conditional": ⟨{⟩"value": "${var.p == \\"\\" ? \\"a\\" : var.s}"},
  "mixed": ⟨{⟩"value": "${nonsensitive(var.s)}-${var.s}"},
  "marked": {"value": "${var.s}", "sensitive": true},
  "marked_string": {"value": "${var.s}", "sensitive": "true"},
  "nonsensitive": {"value": "${nonsensitive(var.s)}"},
  "plain": {"value": "${var.p}"},
  "attribute": {"value": "${local.obj.a}"},
  "merge": ⟨{⟩"value": "${merge({a = var.s}, {})}"},
  "try": {"value": "${try(var.s, \\"\\")}"},
  "length_of_tuple": {"value": "${length([var.s])}"},
  "not": {"value": "${!(var.s == \\"\\")}"}
 }}
""")
    found = expect(fw, ["flow/sensitive-output"] * 9)
    # terraform: error "Output refers to sensitive values" on the output's declaration range (the `{`)
    assert {d.summary for d in found} == {"Output refers to sensitive values"}
    assert '"sensitive": true' in found[0].detail


def test_ephemeral_values(tmp_path: Path) -> None:
    fw = build(tmp_path, VARS + """
//- /app/child/main.tf.json
{"variable": {"name": {"type": "string"}, "eph": {"type": "string", "ephemeral": true}}}
//- /app/main.tf.json
{"locals": {"x": "${upper(var.e)}"},
 "output": {
  "root_ephemeral": ⟨{⟩"value": "${var.e}", "ephemeral": true},
  "ephemeral_value": {"value": ⟨"${var.e}"⟩},
  "applying": {"value": ⟨"${terraform.applying}"⟩},
  "both": ⟨{⟩"value": "${var.e}${var.s}"},
  "dropped": {"value": "${ephemeralasnull(var.e)}"}
 },
 "resource": {"terraform_data": {
  "input": {"input": ⟨"${local.x}"⟩},
  "triggers": {"triggers_replace": ⟨["${var.e}"]⟩},
  "counted": {"count": ⟨"${length(var.e)}"⟩},
  "dropped": {"input": "${ephemeralasnull(var.e)}"},
  "provisioned": {"connection": {"host": "${var.e}"},
                  "provisioner": {"local-exec": {"command": "echo ${var.e}"}},
                  "lifecycle": {"precondition": {"condition": "${var.e == \\"\\"}", "error_message": "x"}}}
 }},
 "data": {"terraform_remote_state": {"state": {"backend": "local", "config": ⟨{"path": "${var.e}"}⟩}}},
 "module": {
  "plain_input": {"source": "./child", "name": ⟨"${var.e}"⟩, "eph": "x"},
  "ephemeral_input": {"source": "./child", "name": "x", "eph": "${var.e}"},
  "repeated": {"source": "./child", "name": "x", "eph": "x", "for_each": ⟨"${toset(split(\\",\\", var.e))}"⟩}
 }}
""")
    found = expect(fw, [
        "flow/ephemeral-root-output", "flow/ephemeral-output", "flow/ephemeral-output", "flow/sensitive-output",
        "flow/ephemeral-argument", "flow/ephemeral-argument", "flow/ephemeral-repetition", "flow/ephemeral-argument",
        "flow/ephemeral-input", "flow/ephemeral-repetition",
    ])
    # terraform: "Ephemeral output not allowed", "Ephemeral value not allowed" (on the value), the
    # sensitive error alone when a value is both, "Invalid use of ephemeral value" (input,
    # triggers_replace, config), "Invalid count argument", "Ephemeral value not allowed" (a child
    # input), "Invalid for_each argument"
    assert [d.summary for d in found] == [
        "Ephemeral output not allowed", "Ephemeral value not allowed", "Ephemeral value not allowed",
        "Output refers to sensitive values", "Invalid use of ephemeral value", "Invalid use of ephemeral value",
        "Invalid count argument", "Invalid use of ephemeral value", "Ephemeral value not allowed",
        "Invalid for_each argument",
    ]
    assert flow(fw, "/app/child/main.tf.json") == []


def test_a_called_module_may_have_ephemeral_outputs(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /app/main.tf.json
{"module": {"m": {"source": "./child", "x": "y"}}}
//- /app/child/main.tf.json
{"variable": {"x": {"type": "string", "ephemeral": true}},
 "output": {"o": {"value": "${var.x}", "ephemeral": true}, "p": {"value": ⟨"${var.x}"⟩}}}
""", open=["/app/main.tf.json", "/app/child/main.tf.json"])
    # terraform (validate in /app): only the output that is not declared ephemeral
    expect(fw, ["flow/ephemeral-output"], "/app/child/main.tf.json")


def test_modules_that_cannot_be_judged(tmp_path: Path) -> None:
    src = VARS + """
//- /app/main.tf.json
{"output": {"o": {"value": "${var.s}"}}, "resource": {"terraform_data": {"t": {"input": "${var.e}"}}}}
"""
    # An override file may declare the output sensitive: nothing is said.
    fw = build(tmp_path / "a", src + '//- /app/override.tf.json\n{"output": {"o": {"sensitive": true}}}\n')
    assert flow(fw) == []
    # OpenTofu: the sensitive output rule only.
    fw = build(tmp_path / "b", src, engine="opentofu")
    assert [d.code for d in flow(fw)] == ["flow/sensitive-output"]
    # A resource of a provider whose schema is not known: whether its argument is write-only is not known.
    fw = build(tmp_path / "c", VARS + '//- /app/main.tf.json\n{"resource": {"aws_db_instance": {"d": {"password_wo": "${var.e}"}}}}\n')
    assert flow(fw) == []


def test_edits_in_another_file_reach_the_output(tmp_path: Path) -> None:
    fw = build(tmp_path, VARS + """
//- /app/locals.tf.json
{"locals": {"x": "${var.$[p]p}"}}
//- /app/main.tf.json
{"output": {"o": {"value": "${local.x}"}}}
""", open=["/app/main.tf.json", "/app/locals.tf.json"])
    main, locals_ = fw.uri("/app/main.tf.json"), fw.uri("/app/locals.tf.json")
    assert flow(fw) == []
    fw.workspace.take_stale()
    text = fw.fixture.files["/app/locals.tf.json"].text
    at = fw.fixture.mark("p")[1]
    fw.workspace.change(locals_, 2, [{"range": lsp_range(text, at, at + 1), "text": "s"}], "utf-32")
    collect(fw.snapshot(), locals_)
    assert main in fw.workspace.take_stale()  # published again
    assert [d.code for d in flow(fw)] == ["flow/sensitive-output"]
    text = text[:at] + "s" + text[at + 1 :]
    fw.workspace.change(locals_, 3, [{"range": lsp_range(text, at, at + 1), "text": "p"}], "utf-32")
    assert main in fw.workspace.take_stale()
    assert flow(fw) == []


def test_check_judges_a_module_as_terraform_validate_in_its_directory(tmp_path: Path, cli) -> None:
    parse_fixture("""
//- /app/main.tf.json
{"module": {"m": {"source": "./child", "x": "y"}}}
//- /app/child/main.tf.json
{"variable": {"x": {"type": "string", "ephemeral": true}},
 "output": {"o": {"value": "${var.x}", "ephemeral": true}}}
""").write(tmp_path)
    # The whole tree: the child is called, so its ephemeral output is allowed.
    whole = cli("check", tmp_path / "app")
    assert whole.returncode == 0, whole.stdout + whole.stderr
    # The child alone is a root module, as for `terraform validate` there (in process: one
    # subprocess is enough to show the command's wiring).
    out, err = io.StringIO(), io.StringIO()
    assert run_check([str(tmp_path / "app" / "child")], out=out, err=err) == 1
    assert "Ephemeral output not allowed" in out.getvalue() and "[flow/ephemeral-root-output]" in out.getvalue()


@pytest.mark.parametrize("value", ["${upper(var.s)}", "${jsonencode(var.s)}", "${var.s == \\\"x\\\"}"])
def test_marks_flow_through_functions_and_operators(tmp_path: Path, value: str) -> None:
    fw = build(tmp_path, VARS + '//- /app/main.tf.json\n{"output": {"o": {"value": "' + value + '"}}}\n')
    assert [d.code for d in flow(fw)] == ["flow/sensitive-output"]


def test_escaped_non_ascii_text_keeps_the_quick_open_and_an_escaped_mark_still_counts(tmp_path: Path) -> None:
    # `json.dumps` (ensure_ascii) writes "café" as "caf\u00e9": no letter escape, so no mark can be
    # spelt, and the open is answered without building the analysis (it was built for any `\u`).
    fw = build(tmp_path, """
//- /app/main.tf.json
{"variable": {"p": {"type": "string", "default": "caf\\u00e9"}},
 "output": {"plain": {"value": "${var.p}"}}}
""")
    state = fw.snapshot().document(fw.uri("/app/main.tf.json"))
    assert flow(fw) == []
    assert state.quick(compute=False) is not None  # its diagnostics came from the quick open

    # "sen\u0073itive" is "sensitive": a letter escape still makes the facts computed.
    fw = build(tmp_path / "escaped", """
//- /app/main.tf.json
{"variable": {"s": {"type": "string", "default": "x", "sen\\u0073itive": true}},
 "output": {"direct": ⟨{⟩"value": "${var.s}"}}}
""")
    expect(fw, ["flow/sensitive-output"])


# ---- whether a file may mark, after edits (`flow.may_mark_changed`) ---------------------------------

#: Pieces of the words and escapes `may_mark` looks for, so that edits can make and unmake them.
_PIECES = st.sampled_from(["sen", "sitive", "ephe", "meral", "apply", "ing", "\\", "u", "00", "73", "7", "3", "a", " ", '"'])


@given(st.lists(_PIECES, max_size=12).map("".join), st.data())
def test_a_change_is_searched_around_it_as_the_whole_text_would_be(before: str, data) -> None:
    assume(not may_mark(before))
    start = data.draw(st.integers(0, len(before)))
    end = data.draw(st.integers(start, len(before)))
    new = data.draw(st.lists(_PIECES, max_size=4).map("".join))
    after = before[:start] + new + before[end:]
    assert may_mark_changed(after, start, start + len(new)) == may_mark(after)


def test_typing_a_mark_in_an_open_document_is_seen_without_searching_it_whole(tmp_path: Path, monkeypatch) -> None:
    fw = build(tmp_path, """
//- /app/main.tf.json
{"variable": {"s": {"type": "string", "default": "x"$0}},
 "output": {"direct": {"value": "${var.s}"}}}
""")
    uri = fw.uri("/app/main.tf.json")
    assert flow(fw) == []
    searched: list[int] = []
    real = flow_facts_module.may_mark
    monkeypatch.setattr(flow_facts_module, "may_mark", lambda text: searched.append(len(text)) or real(text))
    text, at = fw.fixture.only.text, fw.cursor[1]
    lengths = []
    for version, typed in enumerate([", ", '"sen', "si", 'tive"', ": ", "true"], start=2):
        fw.workspace.change(uri, version, [{"range": lsp_range(text, at, at), "text": typed}], "utf-32")
        text, at = text[:at] + typed + text[at:], at + len(typed)
        lengths.append(len(text))
        found = flow(fw)  # each version judged
    assert [d.code for d in found] == ["flow/sensitive-output"]
    # Searched whole only once the file may mark (the word is complete at version 5): versions 6 and
    # 7; before, only around each change.
    assert searched == lengths[-2:]
    # Deleting the word is seen too (a file that may mark is searched whole).
    fw.workspace.change(uri, 8, [{"range": lsp_range(text, at - len('"sensitive": true'), at), "text": '"x": 1'}], "utf-32")
    assert flow(fw) == [] and searched[-1] == len(text) - len('"sensitive": true') + len('"x": 1')
