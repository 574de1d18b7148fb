"""`hcljson-ls convert FILE...`: Terraform JSON files as native HCL.

    add_convert_parser(subparsers)     adds the `convert` command to the `hcljson-ls` parser
    run_convert(args) -> int           runs it; the exit status

Contract
--------
* Each FILE's name says what it is (any case): configuration (``*.tf.json``, ``*.tofu.json``) is
  converted by `terraform.to_native.to_native` (an override file is read as one), variable
  definitions (``*.tfvars.json``) by `terraform.to_native.tfvars_to_native` (a ``.tfvars`` file:
  one ``name = value`` per variable, strings literal as Terraform reads them). Any other name (a
  test file, ``package.json``) is refused before anything is converted: one line each, status 2.
  Files are read as UTF-8, exactly as stored, and only when they are regular files (never a pipe
  or a device).
* Without ``--write`` the native text goes to stdout; with several files each one is preceded by a
  ``# FILE`` comment line and separated from the previous one by a blank line, so the whole output
  is still native HCL.
* ``--write`` writes ``x.tf`` beside ``x.tf.json`` (``x.tofu`` beside ``x.tofu.json``, ``x.tfvars``
  beside ``x.tfvars.json``) and prints nothing on stdout. It never replaces an existing file unless
  ``--force`` is given, and it writes nothing for a file that could not be converted whole (the
  text would silently lack a part).
* What could not be converted is reported on stderr, one line per problem:
  ``FILE:line:column: error: message [code]`` (1-based; the column counts characters).
* Exit status: 0 when every file was converted whole; 1 when some file had problems (the others are
  still converted; without ``--write`` what could be converted is printed); 2 on a usage or I/O
  problem (a file that is not Terraform by its name: nothing is converted then; a missing file, a
  directory, a file that is not a regular file, not UTF-8 (its line and column said) or cannot be
  read, a target that exists without ``--force`` or cannot be written), reported as
  ``hcljson-ls convert: error: ...``. Never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from .terraform.definition import catalogue
from .terraform.nativehcl.to_native import NativeText, tfvars_to_native, to_native
from .text import LineIndex
from .text.decoding import NotUtf8, decode_utf8
from .workspace.regular_file import NotRegularFile, read_regular_file

PROG = "hcljson-ls convert"
EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
#: JSON file suffix -> the native file's suffix.
_SUFFIXES = ((".tfvars.json", ".tfvars"), (".tf.json", ".tf"), (".tofu.json", ".tofu"))


def add_convert_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "convert",
        help="print Terraform JSON files as native HCL (or write x.tf beside x.tf.json)",
        description="Convert configuration (*.tf.json, *.tofu.json) and variable definitions (*.tfvars.json)"
        " files to native HCL syntax (terraform fmt style).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a *.tf.json, *.tofu.json or *.tfvars.json file")
    parser.add_argument(
        "--write", action="store_true",
        help="write x.tf beside x.tf.json (x.tofu, x.tfvars beside x.tofu.json, x.tfvars.json) instead of printing",
    )
    parser.add_argument("--force", action="store_true", help="with --write: replace a file that already exists")
    return parser


class _Refused(Exception):
    """A usage or I/O problem with one file (exit status 2)."""


def run_convert(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    for stream in (out, err):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # never die on an odd terminal encoding
    if args.force and not args.write:
        print(f"{PROG}: error: --force only applies with --write", file=err)
        return EXIT_USAGE
    refused = [name for name in args.files
               if _kind(name) not in (catalogue.CONFIG_JSON, catalogue.TFVARS_JSON) and not Path(name).is_dir()]
    if refused:  # before anything is converted: a file that is not Terraform is a mistake in the command
        for name in refused:
            print(f"{PROG}: error: {name}: {_why_not(name)}; nothing converted", file=err)
        return EXIT_USAGE
    status = EXIT_OK
    printed = 0
    for name in args.files:
        try:
            path = Path(name)
            target = _target(path) if args.write else None
            text = _read(path)
            tfvars = _kind(name) == catalogue.TFVARS_JSON
            result = tfvars_to_native(text) if tfvars else to_native(text, str(path))
            for line in _problem_lines(name, text, result):
                print(line, file=err)
            if result.problems:
                status = max(status, EXIT_PROBLEMS)
            if target is None:
                if len(args.files) > 1:
                    out.write(("\n" if printed else "") + f"# {name}\n")
                out.write(result.text)
                printed += 1
            elif result.problems:
                print(f"{PROG}: error: {name}: not written: the file could not be converted whole", file=err)
            else:
                _write(target, result.text, args.force)
        except _Refused as exc:
            print(f"{PROG}: error: {name}: {exc}", file=err)
            status = EXIT_USAGE
    try:
        out.flush()
    except BrokenPipeError:  # `hcljson-ls convert x.tf.json | head`
        pass
    return status


def _kind(name: str) -> str | None:
    return catalogue.file_kind(name, ignore_case=True)


def _why_not(name: str) -> str:
    if _kind(name) == catalogue.TEST_JSON:
        return "a test file: convert reads configuration (*.tf.json, *.tofu.json) and variable definitions (*.tfvars.json) only"
    return "not a Terraform file (its name does not end in .tf.json, .tofu.json or .tfvars.json)"


def _target(path: Path) -> Path:
    for suffix, native in _SUFFIXES:
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            return path.with_name(path.name[: -len(suffix)] + native)
    raise _Refused("--write needs a name ending in .tf.json, .tofu.json or .tfvars.json (to name the native file)")


def _read(path: Path) -> str:
    if path.is_dir():
        raise _Refused("is a directory (name the files to convert)")
    try:
        data = read_regular_file(path)
    except FileNotFoundError:
        raise _Refused("no such file") from None
    except NotRegularFile as exc:
        raise _Refused(str(exc)) from None
    except OSError as exc:
        raise _Refused(f"cannot read: {exc.strerror or exc}") from None
    try:
        return decode_utf8(data)
    except NotUtf8 as exc:
        raise _Refused(str(exc)) from None


def _write(target: Path, text: str, force: bool) -> None:
    try:
        with open(target, "w" if force else "x", encoding="utf-8", newline="") as f:
            f.write(text)
    except FileExistsError:
        raise _Refused(f"{target} already exists (use --force to replace it)") from None
    except OSError as exc:
        raise _Refused(f"cannot write {target}: {exc.strerror or exc}") from None


def _problem_lines(name: str, text: str, result: NativeText) -> list[str]:
    if not result.problems:
        return []
    index = LineIndex(text)
    lines = []
    for p in result.problems:
        line, column = index.position(p.start, "utf-32")
        lines.append(f"{name}:{line + 1}:{column + 1}: error: {' '.join(p.message.split())} [{p.code}]")
    return lines
