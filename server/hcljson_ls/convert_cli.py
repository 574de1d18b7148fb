"""`hcljson-ls convert FILE...`: Terraform JSON configuration files as native HCL.

    add_convert_parser(subparsers)     adds the `convert` command to the `hcljson-ls` parser
    run_convert(args) -> int           runs it; the exit status

Contract
--------
* Each FILE is converted by `terraform.to_native.to_native` (its name picks the schema: an override
  file is read as one). Files are read as UTF-8, exactly as stored.
* Without ``--write`` the native text goes to stdout; with several files each one is preceded by a
  ``# FILE`` comment line and separated from the previous one by a blank line, so the whole output
  is still native HCL.
* ``--write`` writes ``x.tf`` beside ``x.tf.json`` (``x.tofu`` beside ``x.tofu.json``) and prints
  nothing on stdout. It never replaces an existing file unless ``--force`` is given, and it writes
  nothing for a file that could not be converted whole (the text would silently lack a part).
* What could not be converted is reported on stderr, one line per problem:
  ``FILE:line:column: error: message [code]`` (1-based; the column counts characters).
* Exit status: 0 when every file was converted whole; 1 when some file had problems (the others are
  still converted; without ``--write`` what could be converted is printed); 2 on a usage or I/O
  problem (a missing file, a directory, a file that is not UTF-8 or cannot be read, a target that
  exists without ``--force`` or cannot be written, ``--write`` for a name that does not end in
  ``.tf.json`` / ``.tofu.json``), reported as ``hcljson-ls convert: error: ...``. Never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from .terraform.to_native import NativeText, to_native
from .text import LineIndex
from .text.decoding import NotUtf8, decode_utf8
from .workspace.regular_file import NotRegularFile, read_regular_file

PROG = "hcljson-ls convert"
EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
#: JSON configuration suffix -> the native file's suffix.
_SUFFIXES = ((".tf.json", ".tf"), (".tofu.json", ".tofu"))


def add_convert_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "convert",
        help="print Terraform JSON files as native HCL (or write x.tf beside x.tf.json)",
        description="Convert *.tf.json / *.tofu.json files to native HCL syntax (terraform fmt style).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a *.tf.json or *.tofu.json file")
    parser.add_argument("--write", action="store_true", help="write x.tf beside x.tf.json instead of printing")
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
    status = EXIT_OK
    printed = 0
    for name in args.files:
        try:
            path = Path(name)
            target = _target(path) if args.write else None
            text = _read(path)
            result = to_native(text, str(path))
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


def _target(path: Path) -> Path:
    for suffix, native in _SUFFIXES:
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            return path.with_name(path.name[: -len(suffix)] + native)
    raise _Refused("--write needs a name ending in .tf.json or .tofu.json (to name the native file)")


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
