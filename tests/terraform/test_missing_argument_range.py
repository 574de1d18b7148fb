"""A missing required argument (or block) is reported where Terraform reports it.

The expected positions below are what Terraform 1.11.4's `terraform validate -json` printed for
this very file (`terraform init -backend=false` first; run by hand on 2026-11-26): the closing
brace of the body that lacks the argument, the element's own brace for a block given as an array
of objects, and the check body's opening brace for "Zero assert blocks" (a check of Terraform's
own, at the block's definition). `terraform_remote_state`'s `backend` was not reported by that
run (Terraform validates data sources' schemas later); its position is the same rule's.
"""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture

from hcljson_ls.features.diagnostics import collect

MAIN = """\
{
  "output": {
    "o": {
      "description": "x"
    }
  },
  "variable": {
    "v": {
      "validation": [{
        "condition": "${var.v != \\"\\"}"
      }]
    }
  },
  "moved": [{"from": "terraform_data.a"}],
  "import": {"to": "terraform_data.a"},
  "resource": {
    "terraform_data": {
      "a": {
        "lifecycle": {
          "precondition": {"error_message": "x"}
        }
      }
    }
  },
  "module": {"m": {}},
  "data": {"terraform_remote_state": {"r": {}}},
  "check": {"c": {}}
}
"""

# (line, column) of Terraform's subject range start, and our code there.
EXPECTED = [
    ("5:5", "structure/missing-argument"),  # output "o": value
    ("11:7", "structure/missing-argument"),  # validation (array element): error_message
    ("14:40", "structure/missing-argument"),  # moved (array element): to
    ("15:38", "structure/missing-argument"),  # import: id
    ("20:48", "structure/missing-argument"),  # precondition: condition
    ("25:20", "structure/missing-argument"),  # module "m": source
    ("26:45", "schema/missing-argument"),  # terraform_remote_state "r": backend
    ("27:18", "structure/too-few-blocks"),  # check "c": Zero assert blocks (at its `{`)
]


def test_missing_arguments_are_reported_at_terraforms_ranges(tmp_path: Path, cli) -> None:
    (tmp_path / "main.tf.json").write_text(MAIN, encoding="utf-8")
    result = cli("check", tmp_path)
    assert result.returncode == 1, result.stderr
    got = []
    for line in result.stdout.splitlines():
        if ": error: " not in line:
            continue
        place = line.split(": error: ", 1)[0].rsplit("main.tf.json:", 1)[1]
        got.append((place, line.rsplit("[", 1)[1].rstrip("]")))
    assert got == EXPECTED, result.stdout


def test_the_quick_fix_still_inserts_after_the_opening_brace(tmp_path: Path) -> None:
    fixture = parse_fixture('//- /main.tf.json\n{"output": {"o": ⟨{⟩"description": "x"⟨}⟩}}\n')
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"])
    [d] = [d for d in collect(ws.snapshot(), ws.uri("/main.tf.json")) if d.code == "structure/missing-argument"]
    (brace_open, brace_close) = fixture.files["/main.tf.json"].ranges
    assert (d.start, d.end) == brace_close
    [fix] = d.fixes
    assert (fix.start, fix.end) == (brace_open[1], brace_open[1])
    text = fixture.files["/main.tf.json"].text
    assert text[: fix.start] + fix.new_text + text[fix.end :] == '{"output": {"o": {"value": "", "description": "x"}}}\n'
