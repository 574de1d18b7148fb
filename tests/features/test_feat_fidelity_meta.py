"""A module call whose local source names no directory: Terraform's "Module not installed"
(`module/missing-directory`), through a real `Workspace` over a temporary directory (the caller
learns when the directory appears or goes) and the real `hcljson-ls check`; and a resource's
`ignore_changes` names and `self.<name>` in its provisioners and postconditions checked against
its (built-in) schema by `check`.

Terraform 1.11.4 (`init -backend=false`, then `validate -json`) on the same layouts: `./nowhere` and
`./afile` (a file) fail with "Module not installed" on the call; an empty directory is a module
without configuration and is accepted; a registry source is not judged (no `.terraform`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from fixture import parse_fixture

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CREATED, DELETED
from hcljson_ls.workspace.files import uri_of_path

MISSING = "module/missing-directory"


def _codes(fw, path: str = "/app/main.tf.json") -> list[tuple[str, str]]:
    text = fw.fixture.files[path].text
    return [(d.code, text[d.start:d.end]) for d in collect(fw.snapshot(), fw.uri(path)) if d.code.startswith("module/")]


def test_a_local_source_without_a_directory(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/empty/.keep
//- /app/afile
x
//- /app/main.tf.json
{"module": {
  "gone": ⟨{⟩"source": "./nowhere"},
  "file": ⟨{⟩"source": "./afile"},
  "empty": {"source": "./empty"},
  "up": {"source": "../app/empty"},
  "registry": {"source": "hashicorp/consul/aws", "version": "1.0.0"},
  "git": {"source": "git::https://example.com/x.git"}
}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code == MISSING]
    # Terraform 1.11.4: "Module not installed" at the call's body `{`
    assert [(d.start, d.end) for d in found] == fw.fixture.files["/app/main.tf.json"].ranges
    assert found[0].summary == "Module not installed" and '"./nowhere"' in found[0].detail
    assert all(d.severity == "error" for d in found)


def test_the_caller_learns_when_the_directory_appears_and_goes(tmp_path: Path) -> None:
    fw = parse_fixture('//- /app/main.tf.json\n{"module": {"m": {"source": "./child"}}}\n').workspace(tmp_path)
    assert _codes(fw) == [(MISSING, "{")]
    child = tmp_path / "app" / "child"
    child.mkdir()
    (child / "main.tf.json").write_text('{"output": {"o": {"value": 1}}}')
    fw.workspace.file_changed(uri_of_path(str(child / "main.tf.json")), CREATED)
    assert fw.uri("/app/main.tf.json") in fw.workspace.take_stale()
    assert _codes(fw) == []
    shutil.rmtree(child)
    fw.workspace.file_changed(uri_of_path(str(child)), DELETED)
    assert fw.uri("/app/main.tf.json") in fw.workspace.take_stale()
    assert _codes(fw) == [(MISSING, "{")]


def test_check_reports_the_missing_directory_and_unknown_ignored_attributes(tmp_path: Path, cli) -> None:
    parse_fixture("""
//- /app/main.tf.json
{"module": {"m": {"source": "./nowhere"}},
 "resource": {"terraform_data": {"t": {"input": 1, "lifecycle": {"ignore_changes": ["inptu", "input", "triggers_replace[0]"]}}}}}
""").write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    assert "Module not installed" in result.stdout and f"[{MISSING}]" in result.stdout
    assert "[schema/unknown-ignored-attribute]" in result.stdout and 'Did you mean "input"?' in result.stdout
    assert result.stdout.count("error:") == 2, result.stdout


def test_check_reports_self_attributes_the_schema_lacks(tmp_path: Path, cli) -> None:
    # Terraform 1.11.4: "Unsupported attribute" at `.nope`, `.nope3`, `.nope5` (not `self["x"]`,
    # "Invalid index operation", nor the resource's connection overridden by the provisioner's).
    parse_fixture("""
//- /app/main.tf.json
{"resource": {"terraform_data": {"t": {"input": 1,
  "lifecycle": {"postcondition": {"condition": "${self.nope != null}", "error_message": "x"}},
  "provisioner": {"local-exec": {"command": "${self.nope3} ${self.input} ${self.output.x} ${self.inptu}",
                                 "connection": {"host": "${self.nope5}"}}}}}}}
""").write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    assert result.stdout.count("[schema/unknown-self-attribute]") == 4, result.stdout
    assert '"nope3"' in result.stdout and '"nope5"' in result.stdout and 'Did you mean "input"?' in result.stdout
    assert result.stdout.count("error:") == 4, result.stdout


def test_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    from internals import quick_and_full

    text = json.dumps({
        "module": {"m": {"source": "./nowhere"}, "v": {"source": "./here", "version": "1.0.0"}},
        "data": {"terraform_remote_state": {"s": {"backend": "locl", "config": {"pth": "x"}}}},
        "resource": {"terraform_data": {
            "a": {"count": "two", "lifecycle": {"ignore_changes": ["nope", "input"]}},
            "b": {"for_each": ["x"], "lifecycle": {"replace_triggered_by": ["var.v"]}},
            "c": {"count": 2, "input": "${self.nope}", "lifecycle": {"ignore_changes": ["input"]}},
        }},
    }, indent=2)
    (tmp_path / "here").mkdir()
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert {d.code for d in full} >= {MISSING, "module/invalid-source", "remote-state/unknown-backend",
                                      "meta-argument/invalid-count", "meta-argument/invalid-for-each",
                                      "schema/unknown-ignored-attribute", "reference/invalid-replace-trigger"}
