"""`workspace.tool_validate`: byte offsets to characters, parsing `validate -json` output, and running
the stand-in tool (init only when allowed, never a tool from the workspace, cancellation)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from fixture import parse_fixture
from hypothesis import given
from hypothesis import strategies as st
from stand_in_terraform import StandIn

from hcljson_ls.workspace.tool_validate import char_offset, parse_output, validate

#: Text a UTF-8 file can hold: any character but a lone surrogate.
UTF8_TEXT = st.text(st.characters(blacklist_categories=("Cs",)))


@given(UTF8_TEXT, st.data())
def test_char_offset_inverts_utf8_byte_counting(text: str, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(text)))
    assert char_offset(text.encode("utf-8"), len(text[:index].encode("utf-8"))) == index


def test_char_offset_clamps() -> None:
    assert char_offset("é".encode(), -3) == 0
    assert char_offset("é".encode(), 99) == 1


def _range(name: str, start: int, end: int) -> dict:
    return {"filename": name, "start": {"line": 1, "column": 1, "byte": start}, "end": {"line": 1, "column": 1, "byte": end}}


def test_parse_output_places_findings_in_the_files_it_names(tmp_path: Path) -> None:
    marked = parse_fixture('{"a": "ü", $[bad]"bad": 1}').only
    (tmp_path / "main.tf.json").write_text(marked.text, encoding="utf-8")
    start = len(marked.text[: marked.marks["bad"]].encode())  # Terraform's byte offset
    output = json.dumps({"valid": False, "diagnostics": [
        {"severity": "error", "summary": "Extraneous JSON object property", "detail": "No argument named \"bad\".",
         "range": _range("main.tf.json", start, start + 5)},
        {"severity": "warning", "summary": "No range"},
        {"severity": "error", "summary": "Gone", "range": _range("missing.tf.json", 0, 1)},
        "not an object",
    ]})
    placed, rangeless, gone = parse_output(output, str(tmp_path))
    assert placed.path == str(tmp_path / "main.tf.json") and placed.severity == "error"
    assert placed.text[placed.start:placed.end] == '"bad"'
    assert placed.message == 'Extraneous JSON object property: No argument named "bad".'
    assert rangeless.path is None and rangeless.severity == "warning" and rangeless.message == "No range"
    assert gone.path is None


@pytest.mark.parametrize("output", ["", "{not json", "[]", '{"valid": true}', '"text"'])
def test_parse_output_refuses_what_is_not_a_validation_result(output: str, tmp_path: Path) -> None:
    assert parse_output(output, str(tmp_path)) is None


@pytest.fixture
def module(tmp_path: Path) -> Path:
    stack = tmp_path / "stack"
    stack.mkdir()
    (stack / "main.tf.json").write_text("{}", encoding="utf-8")
    return stack


def _stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandIn:
    tool = StandIn(tmp_path / "bin")
    tool.install("terraform", body='echo \'{"valid": true, "diagnostics": []}\'')
    monkeypatch.setenv("PATH", str(tool.bin_dir))  # never the real terraform of this machine
    return tool


def test_init_runs_only_when_allowed_and_the_module_has_no_terraform_directory(module, tmp_path, monkeypatch) -> None:
    tool = _stand_in(tmp_path, monkeypatch)
    assert validate(str(module)).findings == ()
    assert validate(str(module), init=True).problem is None
    (module / ".terraform").mkdir()
    assert validate(str(module), init=True).problem is None
    assert tool.runs() == [
        f"{module} validate -json TF_IN_AUTOMATION=1",
        f"{module} init -backend=false -input=false TF_IN_AUTOMATION=1",
        f"{module} validate -json TF_IN_AUTOMATION=1",
        f"{module} validate -json TF_IN_AUTOMATION=1",
    ]


def test_opentofu_modules_run_tofu_first(module, tmp_path, monkeypatch) -> None:
    tool = _stand_in(tmp_path, monkeypatch)
    tool.install("tofu", body='echo \'{"valid": true, "diagnostics": []}\'')
    assert validate(str(module), engine="opentofu").tool == "tofu"
    assert validate(str(module), engine="terraform").tool == "terraform"


def test_a_tool_inside_the_workspace_never_runs(module, tmp_path, monkeypatch) -> None:
    inside = StandIn(module / "bin")
    inside.install("terraform", body="echo '{\"diagnostics\": []}'")
    monkeypatch.setenv("PATH", str(inside.bin_dir))
    result = validate(str(module), folders=(str(tmp_path),))
    assert result.problem is not None and "PATH" in result.problem
    assert inside.runs() == []


def test_a_set_cancel_event_stops_the_run(module, tmp_path, monkeypatch) -> None:
    tool = StandIn(tmp_path / "bin")
    tool.install("terraform", body="exec sleep 30")
    monkeypatch.setenv("PATH", str(tool.bin_dir))
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    assert validate(str(module), cancel=cancel).cancelled
