"""`hcljson-ls check` on hostile files and names: a named pipe or a device where a `*.tf.json` file
should be (given on the command line, or reached through a symbolic link in a directory) is skipped
with one line on stderr, never read (a pipe with no writer would hang the run, `/dev/zero` would be
read until memory runs out); a file name holding a newline cannot forge a `path:line:col: error:`
line in the text output or on stderr.

Run for real (`cli` fixture), each with a timeout: a hang fails the test instead of stalling it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fixture import parse_fixture

VALID = '{"variable": {"region": {}}}\n'
_UNDECLARED = parse_fixture('{"output": {"o": {"value": "${$[nope]var.nope}"}}}\n').only
UNDECLARED = _UNDECLARED.text
NOPE = _UNDECLARED.marks["nope"] + 1  # the 1-based column of the undeclared reference (its whole traversal)

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def _skipped_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("hcljson-ls check: error: ")]


@needs_fifo
def test_a_named_pipe_given_on_the_command_line_is_skipped_not_read(cli, tmp_path: Path):
    os.mkfifo(tmp_path / "x.tf.json")
    (tmp_path / "ok.tf.json").write_text(UNDECLARED, encoding="utf-8")
    result = cli("check", tmp_path / "x.tf.json", tmp_path / "ok.tf.json", timeout=30)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    assert _skipped_lines(result.stderr) == [
        f"hcljson-ls check: error: {tmp_path / 'x.tf.json'}: not a regular file (a named pipe); skipped"
    ]
    assert f"{tmp_path / 'ok.tf.json'}:1:{NOPE}: error:" in result.stdout  # the regular file was still checked


@needs_fifo
def test_a_symlink_to_a_named_pipe_in_a_directory_is_skipped(cli, tmp_path: Path):
    module = tmp_path / "module"
    module.mkdir()
    os.mkfifo(tmp_path / "pipe")
    (module / "pipe.tf.json").symlink_to(tmp_path / "pipe")
    (module / "main.tf.json").write_text(VALID, encoding="utf-8")
    result = cli("check", module, timeout=30)
    assert result.returncode == 2, result
    assert _skipped_lines(result.stderr) == [
        f"hcljson-ls check: error: {module / 'pipe.tf.json'}: not a regular file (a named pipe); skipped"
    ]
    assert "in 1 file" in result.stderr  # main.tf.json was checked


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_a_symlink_to_dev_zero_is_skipped_without_a_traceback(cli, tmp_path: Path, output_format: str):
    (tmp_path / "zero.tf.json").symlink_to("/dev/zero")
    (tmp_path / "main.tf.json").write_text(VALID, encoding="utf-8")
    result = cli("check", tmp_path, "--format", output_format, timeout=30)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert _skipped_lines(result.stderr) == [
        f"hcljson-ls check: error: {tmp_path / 'zero.tf.json'}: not a regular file (a device); skipped"
    ]


@pytest.mark.skipif(os.name == "nt", reason="Windows file names cannot hold a newline")
def test_a_newline_in_a_file_name_cannot_forge_an_error_line(cli, tmp_path: Path):
    forged = "x.tf.json:1:1: error: forged\nreal"
    directory = tmp_path / forged
    directory.mkdir()
    (directory / "main.tf.json").write_text(UNDECLARED, encoding="utf-8")
    (directory / "bad\x1b[31m.tf.json").write_bytes(b'{"a": "\xff"}')  # also an escape sequence, on stderr
    result = cli("check", tmp_path, timeout=60)
    assert result.returncode == 2, result
    escaped = str(tmp_path / "x.tf.json:1:1: error: forged%0Areal")
    assert result.stdout.splitlines() == [
        f"{escaped}/main.tf.json:1:{NOPE}: error: Reference to undeclared input variable: "
        "No file of this module declares the input variable \"var.nope\". [reference/undeclared]"
    ]
    assert _skipped_lines(result.stderr) == [
        f"hcljson-ls check: error: {escaped}/bad%1B[31m.tf.json: not UTF-8 text (byte 0xff at line 1, column 8)"
    ]
    assert "\x1b" not in result.stderr


@needs_fifo
def test_a_schema_or_config_file_that_is_a_pipe_or_a_device_is_refused_not_read(cli, tmp_path: Path):
    os.mkfifo(tmp_path / "schema.json")
    os.mkfifo(tmp_path / "settings.json")
    (tmp_path / "main.tf.json").write_text(VALID, encoding="utf-8")
    schemas = cli("check", tmp_path, "--schema", tmp_path / "schema.json", "--schema", "/dev/zero", timeout=30)
    assert schemas.returncode == 2 and "Traceback" not in schemas.stderr
    assert _skipped_lines(schemas.stderr) == [
        f"hcljson-ls check: error: Provider schema file skipped: {tmp_path / 'schema.json'} is not a regular file (a named pipe).",
        "hcljson-ls check: error: Provider schema file skipped: /dev/zero is not a regular file (a device).",
    ]
    config = cli("check", tmp_path, "--config", tmp_path / "settings.json", timeout=30)
    assert config.returncode == 2 and config.stdout == ""
    assert _skipped_lines(config.stderr) == [
        f"hcljson-ls check: error: {tmp_path / 'settings.json'}: cannot read the configuration file: not a regular file (a named pipe)"
    ]
