"""The `hcljson-ls` command, run for real as a subprocess (`python -m hcljson_ls`).

Expected positions come from `⟨...⟩` markers in the fixture texts (tests/fixture.py; removed before
writing the file), computed here with plain string arithmetic, independent of the server's `LineIndex`.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls import __version__

BROKEN_EXPECTED = [
    # (line, column) 1-based, code: the deliberate mistakes of examples/module/broken.tf.json
    (5, 7, "syntax/missing-comma"),
    (9, 5, "syntax/comment"),
    (10, 30, "syntax/trailing-comma"),
    (11, 5, "syntax/unquoted-key"),
]


def line_col(text: str, offset: int) -> tuple[int, int]:
    """0-based line and code-point column (lines end at \\n, \\r\\n or \\r)."""
    before = text[:offset].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n")
    return line, len(before) - (before.rfind("\n") + 1)


def utf16_col(text: str, offset: int) -> tuple[int, int]:
    line, col = line_col(text, offset)
    line_text = text[:offset].replace("\r\n", "\n").replace("\r", "\n").split("\n")[-1]
    return line, len(line_text.encode("utf-16-le")) // 2


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def assert_one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    # exactly one error line (a summary of what could be checked may follow)
    lines = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0]


# -------------------------------------------------------------------------------------------- basics


def test_version(cli):
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"hcljson-ls {__version__}"


def test_help_lists_check(cli):
    result = cli("--help")
    assert result.returncode == 0
    assert "check" in result.stdout and "--stdio" in result.stdout and "--tcp" in result.stdout


def test_console_script_is_installed():
    exe = shutil.which("hcljson-ls", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if exe is None:
        pytest.skip("the hcljson-ls console script is not installed for this interpreter")
    result = subprocess.run([exe, "check", "examples/clean"], cwd=Path(__file__).parents[1], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -------------------------------------------------------------------------------------------- examples


def test_examples_module_reports_every_mistake_and_exits_1(cli):
    result = cli("check", "examples/module")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    got = []
    for line in lines:
        path, ln, col, rest = line.split(":", 3)
        assert path == "examples/module/broken.tf.json"
        severity, _, message = rest.strip().partition(": ")
        assert severity == "error"
        assert message.endswith("]")
        got.append((int(ln), int(col), message[message.rindex("[") + 1 : -1]))
    assert got == BROKEN_EXPECTED
    assert "4 errors, 0 warnings in 2 files" in result.stderr


def test_clean_example_exits_0_and_prints_nothing(cli):
    result = cli("check", "examples/clean")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def test_valid_main_file_alone_is_clean(cli):
    result = cli("check", "examples/module/main.tf.json", "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == []


# -------------------------------------------------------------------------------------------- formats

EMOJI_FIXTURE = '{\n  "locals": { "e": "é😀🎉", "n": [1⟨,⟩] }\n}\n'


def test_text_format_columns_are_characters(cli, tmp_path):
    fixture = parse_fixture(EMOJI_FIXTURE).only
    text, [(start, _end)] = fixture.text, fixture.ranges
    f = write(tmp_path / "e.tf.json", text)
    result = cli("check", f)
    assert result.returncode == 1
    line, col = line_col(text, start)
    assert result.stdout.splitlines()[0].startswith(f"{f}:{line + 1}:{col + 1}: error: ")
    assert result.stdout.splitlines()[0].endswith("[syntax/trailing-comma]")


def test_json_format_has_utf16_lsp_ranges(cli, tmp_path):
    fixture = parse_fixture(EMOJI_FIXTURE).only
    text, [(start, end)] = fixture.text, fixture.ranges
    f = write(tmp_path / "e.tf.json", text)
    result = cli("check", "--format", "json", f)
    assert result.returncode == 1
    records = json.loads(result.stdout)
    assert len(records) == 1
    (sl, sc), (el, ec) = utf16_col(text, start), utf16_col(text, end)
    assert records[0]["range"] == {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
    assert sc == line_col(text, start)[1] + 2  # two emoji, each a surrogate pair: one more unit each
    assert records[0]["file"] == str(f)
    assert records[0]["severity"] == "error"
    assert records[0]["code"] == "syntax/trailing-comma"
    assert isinstance(records[0]["message"], str) and records[0]["message"]
    assert set(records[0]) == {"file", "range", "severity", "code", "message"}


def test_crlf_line_numbers(cli, tmp_path):
    fixture = parse_fixture('{\r\n  "locals": {\r\n  "b": [1⟨,⟩]}\r\n}\r\n').only
    text, [(start, _)] = fixture.text, fixture.ranges
    f = write(tmp_path / "crlf.tf.json", text)
    result = cli("check", f)
    line, col = line_col(text, start)
    assert (line, col) == (2, 9)
    assert result.stdout.startswith(f"{f}:3:10: error: ")


def test_json_format_of_several_files_is_one_array(cli, tmp_path):
    write(tmp_path / "a.tf.json", '{"a": [1,]}')
    write(tmp_path / "b.tofu.json", '{"b" 1}')
    result = cli("check", tmp_path, "--format", "json")
    assert result.returncode == 1
    records = json.loads(result.stdout)
    assert sorted({r["file"] for r in records}) == [str(tmp_path / "a.tf.json"), str(tmp_path / "b.tofu.json")]


# -------------------------------------------------------------------------------------------- directories


def test_directory_recursion_finds_tf_and_tofu_json_only(cli, tmp_path):
    write(tmp_path / "top.tf.json", "{}")
    write(tmp_path / "a" / "b" / "deep.tofu.json", '{"x": [1,]}')
    write(tmp_path / "a" / "c" / "cdk.tf.json", '{"y" 1}')
    write(tmp_path / "a" / "plain.json", "{broken")  # not Terraform JSON: not checked
    write(tmp_path / "a" / "main.tf", "not json at all")  # HCL native syntax: not ours
    write(tmp_path / ".terraform" / "modules" / "m" / "x.tf.json", "{broken")  # hidden: skipped
    result = cli("check", tmp_path)
    assert result.returncode == 1
    files = sorted({line.split(":", 1)[0] for line in result.stdout.splitlines()})
    assert files == [str(tmp_path / "a" / "b" / "deep.tofu.json"), str(tmp_path / "a" / "c" / "cdk.tf.json")]
    assert "in 3 files" in result.stderr


def test_an_explicit_file_that_is_not_terraform_is_said_so_not_flooded(cli, tmp_path):
    f = write(tmp_path / "package.json", '{"name": "x", "a": [1,]}')
    ok = write(tmp_path / "main.tf.json", '{"locals": {"a": [1,]}}')
    result = cli("check", f, ok)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        f"hcljson-ls check: error: {f}: not a Terraform file (its name does not end in .tf.json, .tofu.json, "
        ".tfvars.json, .tftest.json, .tofutest.json, .tfmock.json or .tfquery.json); not checked"
    )
    assert "package.json" not in result.stdout and "main.tf.json" in result.stdout  # the other file is checked


def test_variable_definitions_and_test_files_are_checked_by_name(cli, tmp_path):
    write(tmp_path / "variables.tf.json", '{"variable": {"region": {}}}')
    write(tmp_path / "terraform.tfvars.json", '{"regoin": "x"}')
    write(tmp_path / "main.tftest.json", '{"run": {"one": {}}, "resource": {}}')
    result = cli("check", tmp_path)
    assert "[tfvars/undeclared-variable]" in result.stdout and "terraform.tfvars.json" in result.stdout
    assert "main.tftest.json" in result.stdout and "[structure/unknown-block-type]" in result.stdout


def test_same_file_twice_is_checked_once(cli, tmp_path):
    f = write(tmp_path / "a.tf.json", '{"locals": {"a": [1,]}}')
    result = cli("check", f, tmp_path, "--format", "json")
    assert len(json.loads(result.stdout)) == 1


# -------------------------------------------------------------------------------------------- problems


def test_missing_path_exits_2_with_one_line(cli, tmp_path):
    missing = tmp_path / "nope.tf.json"
    assert_one_line_error(cli("check", missing), str(missing), "no such file or directory")


def test_missing_path_stops_before_checking(cli, tmp_path):
    write(tmp_path / "a.tf.json", '{"a": [1,]}')
    result = cli("check", tmp_path, tmp_path / "nope")
    assert_one_line_error(result, "nope")
    assert result.stdout == ""


def test_directory_without_terraform_json_exits_2(cli, tmp_path):
    write(tmp_path / "x.json", "{}")
    assert_one_line_error(cli("check", tmp_path), str(tmp_path), "no Terraform JSON files (*.tf.json, *.tofu.json, *.tfvars.json, *.tftest.json, *.tofutest.json, "
                        "*.tfmock.json, *.tfquery.json)")


def test_non_utf8_file_exits_2_but_others_are_checked(cli, tmp_path):
    (tmp_path / "latin1.tf.json").write_bytes('{\n  "name": "café"}'.encode("latin-1"))
    write(tmp_path / "ok.tf.json", '{"a": [1,]}')
    result = cli("check", tmp_path)
    assert_one_line_error(result, "latin1.tf.json", "not UTF-8")
    assert "(byte 0xe9 at line 2, column 15)" in result.stderr  # where people look, not a byte offset
    assert "ok.tf.json:1:9: error:" in result.stdout  # the readable file was still checked


def test_unreadable_file_exits_2(cli, tmp_path):
    (tmp_path / "dangling.tf.json").symlink_to(tmp_path / "missing-target")
    write(tmp_path / "ok.tf.json", "{}")
    result = cli("check", tmp_path)
    assert_one_line_error(result, "dangling.tf.json", "cannot read")


@pytest.mark.parametrize(
    "args",
    [
        ("check",),
        ("check", "examples", "--format", "xml"),
        ("--bogus",),
        ("--stdio", "--tcp"),
        ("frobnicate",),
    ],
)
def test_usage_errors_exit_2_with_one_line(cli, args):
    result = cli(*args)
    assert_one_line_error(result, "error")


def test_unwritable_log_file_exits_2(cli, tmp_path):
    assert_one_line_error(cli("--log-file", tmp_path / "no" / "such" / "dir" / "log"), "cannot open log file")


# -------------------------------------------------------------------------------------------- in-process


def test_warnings_alone_exit_0(monkeypatch, tmp_path, capsys):
    """Exit status logic with a provider that reports only a warning (syntax errors are all errors)."""
    from hcljson_ls import cli as cli_module
    from hcljson_ls.diagnostic import WARNING, Diagnostic
    from hcljson_ls.features import diagnostics

    def a_warning(state):
        return [Diagnostic(1, 4, WARNING, "test/warning", "Just a warning")]

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("test", a_warning)])
    f = write(tmp_path / "w.tf.json", "{}\n")
    assert cli_module.main(["check", str(f)]) == 0
    out = capsys.readouterr()
    assert out.out == f"{f}:1:2: warning: Just a warning [test/warning]\n"
    assert "0 errors, 1 warning in 1 file" in out.err


def test_a_failing_provider_does_not_hide_the_others(monkeypatch, tmp_path, capsys):
    from hcljson_ls import cli as cli_module
    from hcljson_ls.features import diagnostics

    def broken(state):
        raise RuntimeError("boom")

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("broken", broken), *diagnostics.PROVIDERS])
    f = write(tmp_path / "b.tf.json", '{"a": [1,]}')
    assert cli_module.main(["check", str(f)]) == 1
    assert "[syntax/trailing-comma]" in capsys.readouterr().out


# -------------------------------------------------------------------------------------------- the server


def test_stdio_server_exits_when_stdin_closes_and_logs_to_file(tmp_path):
    log = tmp_path / "server.log"
    result = subprocess.run(
        [sys.executable, "-m", "hcljson_ls", "--stdio", "--log-file", str(log), "--log-level", "debug"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""  # nothing but LSP messages may go to stdout
    assert log.read_text(encoding="utf-8").strip()  # debug logging went to the file


def _lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_message(sock_file) -> dict:
    length = None
    while True:
        header = sock_file.readline()
        if header in (b"\r\n", b""):
            break
        if header.lower().startswith(b"content-length:"):
            length = int(header.split(b":")[1])
    assert length is not None
    return json.loads(sock_file.read(length))


def test_tcp_server_answers_initialize(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "hcljson_ls", "--tcp", "--host", "127.0.0.1", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.05)
        with conn, conn.makefile("rb") as reader:
            conn.sendall(_lsp_message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
            response = _read_message(reader)
            assert response["id"] == 1
            assert response["result"]["serverInfo"]["name"] == "hcljson-ls"
            assert response["result"]["capabilities"]["positionEncoding"] == "utf-16"
            conn.sendall(_lsp_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            assert _read_message(reader)["id"] == 2
            conn.sendall(_lsp_message({"jsonrpc": "2.0", "method": "exit"}))
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
