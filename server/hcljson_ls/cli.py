"""The `hcljson-ls` command: run the language server, or check files from the command line.

    hcljson-ls [--stdio | --tcp [--host H] [--port P]] [--log-file F] [--log-level L]
    hcljson-ls --version
    hcljson-ls check PATH... [--format text|json]

Contract of `check`
-------------------
* PATHs are files (checked whatever their name) or directories, searched recursively for
  ``*.tf.json`` and ``*.tofu.json`` (hidden directories such as ``.terraform`` and ``.git`` are skipped).
* Each file's diagnostics come from `features.diagnostics.collect`, the very function the language
  server uses.
* ``--format text`` (default) prints ``path:line:col: severity: message [code]`` per diagnostic, with
  1-based line and column, the column counted in characters; related locations follow as
  ``path:line:col: note: message``. A one-line summary goes to stderr.
* ``--format json`` prints one JSON array of ``{file, range, severity, code, message}`` with 0-based
  LSP ranges in UTF-16 code units.
* Exit status: 0 when there is no error (warnings are fine), 1 when some file has an error, 2 on a
  usage or I/O problem (a missing path, an unreadable or non-UTF-8 file, a directory without such
  files). Each problem is one line on stderr; never a traceback. Paths that are missing or hold no
  files stop the run before anything is checked; a file that cannot be read is reported and the
  other files are still checked.

Only the server path imports pygls (slow to import); `check` does not.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, TextIO

from . import __version__
from .diagnostic import ERROR, WARNING, plain
from .features.diagnostics import collect
from .gcpolicy import paused_gc
from .terraform import catalogue
from .workspace import Workspace
from .workspace.files import file_name

PROG = "hcljson-ls"
LOG_LEVELS = ("debug", "info", "warning", "error")
EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Language server for Terraform/OpenTofu JSON configuration (*.tf.json, *.tofu.json).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    transport.add_argument("--tcp", action="store_true", help="listen for one LSP client over TCP")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host to bind (default: %(default)s)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port to bind (default: %(default)s)")
    parser.add_argument("--log-file", metavar="PATH", help="write the server log to PATH instead of stderr")
    parser.add_argument(
        "--log-level", choices=LOG_LEVELS, default="warning", type=str.lower, help="log level (default: %(default)s)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = commands.add_parser(
        "check",
        help="report problems in files or directories and exit",
        description="Report problems in *.tf.json / *.tofu.json files, as the language server would.",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="a file, or a directory to search recursively")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "check":
        return run_check(args.paths, args.format)
    return run_server(args)


# ---------------------------------------------------------------------------------------------
# The server


def run_server(args: argparse.Namespace) -> int:
    try:
        _configure_logging(args.log_file, args.log_level)
    except OSError as exc:
        print(f"{PROG}: error: cannot open log file {args.log_file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.tcp and not 0 <= args.port <= 65535:
        print(f"{PROG}: error: --port must be between 0 and 65535, not {args.port}", file=sys.stderr)
        return EXIT_USAGE

    from .lsp.server import create_server  # lazy: pygls and lsprotocol take ~0.5 s to import; `check` needs neither

    server = create_server()
    try:
        if args.tcp:
            server.start_tcp(args.host, args.port)
        else:
            server.start_io()
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # e.g. the TCP port is in use
        print(f"{PROG}: error: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _configure_logging(log_file: str | None, level: str) -> None:
    handler: logging.Handler
    handler = logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


# ---------------------------------------------------------------------------------------------
# check


class UsageError(Exception):
    """A problem with the command line or the files it names (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Source:
    path: Path  # what to open
    display: str  # how to name it in the output


def find_sources(paths: Sequence[str]) -> list[Source]:
    """The files to check, in command-line order (directories sorted), without duplicates.

    Raises UsageError naming every missing path and every directory without such files.
    """
    problems: list[str] = []
    found: list[Source] = []
    seen: set[str] = set()
    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            before = len(problems)
            inside = list(_walk(path, problems))
            if not inside and len(problems) == before:
                problems.append(f"{arg}: no *.tf.json or *.tofu.json files in this directory")
        elif path.exists():
            inside = [Source(path, arg)]
        else:
            problems.append(f"{arg}: no such file or directory")
            continue
        for source in inside:
            key = os.path.realpath(source.path)
            if key not in seen:
                seen.add(key)
                found.append(source)
    if problems:
        raise UsageError("\n".join(problems))
    return found


def _walk(root: Path, problems: list[str]) -> Iterator[Source]:
    def on_error(exc: OSError) -> None:
        problems.append(f"{exc.filename}: cannot read directory: {exc.strerror or exc}")

    for directory, dirnames, filenames in os.walk(root, onerror=on_error):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if catalogue.file_kind(name) == catalogue.CONFIG_JSON:
                path = Path(directory, name)
                yield Source(path, str(path))


def read_source(source: Source) -> str:
    """The file's text, exactly (no newline translation). Raises UsageError with a one-line reason."""
    try:
        data = source.path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{source.display}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{source.display}: not UTF-8 text (byte 0x{data[exc.start]:02x} at byte offset {exc.start})"
        ) from None


def run_check(paths: Sequence[str], output_format: str, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    for stream in (out, err):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # never die on an odd terminal encoding
    try:
        sources = find_sources(paths)
    except UsageError as exc:
        for line in str(exc).splitlines():
            print(f"{PROG} check: error: {line}", file=err)
        return EXIT_USAGE

    io_problem = False
    errors = warnings = checked = 0
    records: list[dict] = []
    workspace = Workspace()
    try:
        # Module by module (a directory's files together, so declarations resolve across them, as
        # in the editor); each module's documents are closed before the next one is read.
        for group in _by_directory(sources):
            opened: list[tuple[Source, str]] = []
            with paused_gc():
                for source in group:
                    try:
                        text = read_source(source)
                    except UsageError as exc:
                        print(f"{PROG} check: error: {exc}", file=err)
                        io_problem = True
                        continue
                    uri = source.path.resolve().as_uri()
                    workspace.open(uri, text, 0, "terraform-json")
                    opened.append((source, uri))
                snapshot = workspace.snapshot()
                found = [(source, uri, collect(snapshot, uri)) for source, uri in opened]
            for source, uri, diagnostics in found:
                state = workspace.get(uri)
                checked += 1
                for d in diagnostics:
                    errors += d.severity == ERROR
                    warnings += d.severity == WARNING
                    if output_format == "json":
                        records.append(_json_record(source.display, d, state))
                    else:
                        for line in _text_lines(source.display, d, state, workspace):
                            print(line, file=out)
            for _, uri in opened:
                workspace.close(uri)
        if output_format == "json":
            json.dump(records, out, indent=2, ensure_ascii=False)
            out.write("\n")
        else:
            print(f"{PROG}: {_count(errors, 'error')}, {_count(warnings, 'warning')} in {_count(checked, 'file')}", file=err)
        out.flush()
    except BrokenPipeError:  # e.g. `hcljson-ls check . | head`
        try:  # no second "Broken pipe" when the interpreter flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ERRORS if errors else EXIT_OK
    if io_problem:
        return EXIT_USAGE
    return EXIT_ERRORS if errors else EXIT_OK


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _by_directory(sources: Sequence[Source]) -> list[list[Source]]:
    """The sources grouped by the directory that holds them (one module each), in first-seen order."""
    groups: dict[str, list[Source]] = {}
    for source in sources:
        groups.setdefault(os.path.dirname(os.path.realpath(source.path)), []).append(source)
    return list(groups.values())


def _text_lines(display: str, d, state, workspace) -> Iterator[str]:
    index = state.line_index
    line, column = index.position(d.start, "utf-32")
    message = " ".join(d.plain_message.split())
    code = f" [{d.code}]" if d.code else ""
    yield f"{display}:{line + 1}:{column + 1}: {d.severity}: {message}{code}"
    for r in d.related:
        where, where_index = display, index
        if r.uri is not None and r.uri != state.uri:
            where_index = workspace.line_index(r.uri)
            if where_index is None:
                continue
            where = _display_of(r.uri, display, state.uri)
        rline, rcolumn = where_index.position(r.start, "utf-32")
        yield f"{where}:{rline + 1}:{rcolumn + 1}: note: {' '.join(plain(r.message).split())}"


def _display_of(uri: str, display: str, display_uri: str) -> str:
    """How to name the file of `uri`: beside `display` (the file of `display_uri`) when they share a
    directory, as every related place of a module does."""
    return os.path.join(os.path.dirname(display), file_name(uri)) if display_uri != uri else display


def _json_record(display: str, d, state) -> dict:
    index = state.line_index

    def position(offset: int) -> dict:
        line, character = index.position(offset, "utf-16")
        return {"line": line, "character": character}

    return {
        "file": display,
        "range": {"start": position(d.start), "end": position(d.end)},
        "severity": d.severity,
        "code": d.code,
        "message": d.plain_message,
    }


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
