"""Validation by the real tool: `terraform validate -json` (or `tofu validate -json`) run in a module
directory, its findings parsed into plain data with character offsets.

    validate(directory, engine="terraform", timeout=60.0, cancel=None, folders=(), init=False) -> ValidateResult
    parse_output(text, directory) -> tuple[Finding, ...] | None     None: not the JSON `validate -json` prints
    char_offset(data, byte) -> int                                   a UTF-8 byte offset as a `str` index

Contract
--------
* The binary is found with `schema_fetch.find_tool` (absolute PATH entries outside the module and every
  workspace folder: a binary shipped in a repository never runs) and runs without a shell, in the
  module directory, stdin closed, `TF_IN_AUTOMATION=1`, in a process group of its own that is killed
  at `timeout` seconds or when `cancel` is set (`schema_fetch.wait`). `engine` "opentofu" tries `tofu`
  first, anything else `terraform` first.
* `init=True` runs `<tool> init -backend=false -input=false` first when the module has no
  `.terraform` directory (it may download providers and modules: the caller asks only with the user's
  consent). Otherwise nothing but `validate` runs; a module that needs `init` gets the tool's own
  range-less finding ("Missing required provider ... run terraform init").
* Each finding keeps the tool's severity, summary and detail. A finding with a `range` names the
  file (absolute path) and its start/end as character offsets into that file's text as it was read
  just after the run (`Finding.text`): Terraform counts bytes of the UTF-8 file, we count `str`
  characters (`char_offset`). A finding without a range, or whose file cannot be read, has
  `path=None`.
* Never raises. A run that could not happen, timed out, failed without JSON or printed garbage
  comes back as `ValidateResult.problem`, one plain sentence; a cancelled run as `cancelled=True`.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from . import schema_fetch
from .files import read_bytes

log = logging.getLogger(__name__)

__all__ = ["Finding", "ValidateResult", "char_offset", "parse_output", "validate"]

#: At most this much of the tool's output is read (a module's findings are a few KB).
_OUTPUT_LIMIT = 64 * 1024 * 1024
#: A configuration file larger than this is not read to place a finding (the finding stays, unplaced).
_FILE_LIMIT = 256 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic of the tool. `path`/`start`/`end`/`text`: where, in characters of `text` (the
    file as read after the run); all None when the tool gave no range."""

    severity: str  # "error" | "warning"
    summary: str
    detail: str = ""
    path: str | None = None
    start: int = 0
    end: int = 0
    text: str | None = None

    @property
    def message(self) -> str:
        return f"{self.summary}: {self.detail}" if self.detail else self.summary


@dataclass(frozen=True, slots=True)
class ValidateResult:
    findings: tuple[Finding, ...] = ()
    problem: str | None = None
    cancelled: bool = False
    tool: str | None = None


def char_offset(data: bytes, byte: int) -> int:
    """The `str` index of UTF-8 byte offset `byte` in `data` (clamped to the data; a byte inside a
    character counts as that character's start)."""
    byte = max(0, min(byte, len(data)))
    return len(data[:byte].decode("utf-8", "ignore"))


def validate(
    directory: str,
    engine: str = "terraform",
    timeout: float = 60.0,
    cancel: threading.Event | None = None,
    folders: Sequence[str] = (),
    init: bool = False,
) -> ValidateResult:
    try:
        return _validate(directory, engine, timeout, cancel or threading.Event(), (directory, *folders), init)
    except Exception:  # a bug must not stop the server
        log.exception("validating %s", directory)
        return ValidateResult(problem=f"Validating {directory} failed unexpectedly (see the server log).")


def _validate(directory: str, engine: str, timeout: float, cancel: threading.Event, untrusted: Sequence[str],
              init: bool) -> ValidateResult:
    if not os.path.isdir(directory):
        return ValidateResult(problem=f"Cannot validate {directory}: it is not a directory.")
    binary = schema_fetch.find_tool(schema_fetch.tools_for(engine), untrusted)
    if binary is None:
        return ValidateResult(problem="Neither terraform nor tofu is on PATH (outside the workspace folders): "
                                      "the module cannot be validated.")
    tool = os.path.basename(binary).lower().removesuffix(".exe")
    deadline = time.monotonic() + timeout
    if init and not os.path.isdir(os.path.join(directory, schema_fetch.DATA_DIR)):
        status, _, err = _run([binary, "init", "-backend=false", "-input=false"], directory, deadline, cancel)
        if cancel.is_set():
            return ValidateResult(cancelled=True, tool=tool)
        if status is None:
            return ValidateResult(problem=f"`{tool} init` in {directory} took longer than {timeout:g} seconds and was stopped.", tool=tool)
        if status != 0:
            detail = schema_fetch.first_line(err)
            return ValidateResult(problem=f"`{tool} init` failed in {directory} (exit status {status})"
                                          + (f": {detail}." if detail else "."), tool=tool)
    status, out, err = _run([binary, "validate", "-json"], directory, deadline, cancel)
    if cancel.is_set():
        return ValidateResult(cancelled=True, tool=tool)
    command = f"`{tool} validate -json`"
    if status is None:
        return ValidateResult(problem=f"{command} in {directory} took longer than {timeout:g} seconds and was stopped.", tool=tool)
    findings = parse_output(out, directory)
    if findings is None:
        detail = schema_fetch.first_line(err) or schema_fetch.first_line(out)
        return ValidateResult(problem=f"{command} in {directory} printed no validation result (exit status {status})"
                                      + (f": {detail}." if detail else "."), tool=tool)
    return ValidateResult(findings, tool=tool)


def _run(argv: list[str], directory: str, deadline: float, cancel: threading.Event) -> tuple[int | None, str, str]:
    """Run `argv` in `directory`: (exit status or None when stopped, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        log.info("running %s in %s", " ".join(argv), directory)
        try:
            proc = subprocess.Popen(argv, cwd=directory, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env={**os.environ, "TF_IN_AUTOMATION": "1"}, start_new_session=os.name == "posix")
        except OSError as e:
            return 127, "", f"Cannot run {argv[0]}: {e.strerror or e}"
        status = schema_fetch.wait(proc, max(0.0, deadline - time.monotonic()), cancel)
        log.info("%s in %s: exit status %s", " ".join(argv[:2]), directory, status)
        out.seek(0)
        err.seek(0)
        return (status, out.read(_OUTPUT_LIMIT).decode("utf-8", "replace"),
                err.read(_OUTPUT_LIMIT).decode("utf-8", "replace"))


def parse_output(text: str, directory: str) -> tuple[Finding, ...] | None:
    """The findings of `validate -json`'s output `text` (filenames relative to `directory`), or None
    when `text` is not that JSON object."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("diagnostics"), list):
        return None
    files: dict[str, bytes | None] = {}
    found = []
    for item in value["diagnostics"]:
        if not isinstance(item, dict):
            continue
        severity = "warning" if item.get("severity") == "warning" else "error"
        summary, detail = _string(item.get("summary")), _string(item.get("detail"))
        found.append(_placed(Finding(severity, summary or "(no summary)", detail), item.get("range"), directory, files))
    return tuple(found)


def _string(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _placed(finding: Finding, where: object, directory: str, files: dict[str, bytes | None]) -> Finding:
    if not isinstance(where, dict) or not isinstance(where.get("filename"), str) or not where["filename"]:
        return finding
    start, end = _byte(where.get("start")), _byte(where.get("end"))
    if start is None:
        return finding
    path = os.path.normpath(os.path.join(directory, where["filename"]))
    if path not in files:
        files[path] = read_bytes(path, _FILE_LIMIT).data
    data = files[path]
    if data is None:
        return finding
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return finding
    first = char_offset(data, start)
    last = char_offset(data, end) if end is not None and end >= start else first
    return Finding(finding.severity, finding.summary, finding.detail, path, first, last, text)


def _byte(position: object) -> int | None:
    if isinstance(position, dict) and isinstance(b := position.get("byte"), int) and not isinstance(b, bool) and b >= 0:
        return b
    return None
