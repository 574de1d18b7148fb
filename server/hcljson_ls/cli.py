"""The `hcljson-ls` command: run the language server, or check files from the command line.

    hcljson-ls [--stdio | --tcp [--host H] [--port P]] [--log-file F] [--log-level L]
    hcljson-ls --version
    hcljson-ls check PATH... [--format text|json|sarif|github] [--severity error|warning|info]
                             [--jobs N] [--docs-url URL]

Contract of `check`
-------------------
* PATHs are files (checked whatever their name) or directories, walked as the workspace scan walks
  them for ``*.tf.json`` and ``*.tofu.json``: `workspace.workspace.SKIPPED_DIRECTORIES`
  (``.terraform``, ``.git``, ``node_modules``, ...) are skipped and symbolic links to directories
  are not followed.
* Module-aware: the files are grouped by directory (one Terraform module each). A module's files
  are opened together in a `Workspace` of its own, the other files of its directory read from disk
  for what they declare, exactly as the server reads them; each file's diagnostics come from
  `features.diagnostics.collect`, the very function the language server uses. So references
  resolve across the module's files and declarations made twice across files are reported, as in
  the editor.
* ``--jobs N`` (default 0: one per CPU; 1: no extra process): with N > 1 the modules are checked in a pool of
  N processes (`ProcessPoolExecutor`), batches of whole modules as the unit of work. Results are
  written module by module in the order the files were found (command-line order, directories
  sorted), as soon as each module's turn comes: the output does not depend on N. A progress line
  goes to stderr when it is a terminal.
* ``--format``:
  - ``text`` (default) prints ``path:line:col: severity: message [code]`` per diagnostic, with
    1-based line and column, the column counted in characters; related locations follow as
    ``path:line:col: note: message``. A one-line summary goes to stderr.
  - ``json`` prints one JSON array of ``{file, range, severity, code, message}`` with 0-based LSP
    ranges in UTF-16 code units.
  - ``sarif`` prints one SARIF 2.1.0 log: one run, tool driver ``hcljson-ls`` with its version and
    a rule per code reported (``helpUri`` ``<docs-url>#<anchor of the code>``, the anchor made as
    the server's ``codeDescription`` makes it), results with 1-based regions whose columns are
    UTF-16 code units (SARIF's default ``columnKind``), end column exclusive; related locations as
    ``relatedLocations``; files that could not be read as tool execution notifications.
  - ``github`` prints a GitHub Actions workflow command per diagnostic
    (``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE::MESSAGE``; ``warning``,
    ``notice`` for the others), 1-based, columns in characters, with the escaping GitHub requires
    (``%``, CR and LF in the message; also ``:`` and ``,`` in properties). Summary on stderr.
* ``--severity LEVEL`` (``error``, ``warning`` or ``info``): only diagnostics of LEVEL or worse are
  reported, and any reported one makes the exit status 1. Without it, every diagnostic is
  reported and only errors make the status 1.
* Exit status: 0 when nothing counts against the run (see ``--severity``), 1 when something does,
  2 on a usage or I/O problem (a missing path, an unreadable or non-UTF-8 file, an unreadable
  directory, a directory without such files). Each problem is one line on stderr; never a
  traceback. Paths that are missing or hold no files stop the run before anything is checked; a
  file or directory that cannot be read is reported and the others are still checked.

Only the server path imports pygls (slow to import); `check` does not.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import NoReturn, TextIO
from urllib.parse import quote

from . import __version__
from .diagnostic import ERROR, HINT, INFORMATION, WARNING, Diagnostic, plain
from .convert_cli import add_convert_parser, run_convert
from .features.diagnostics import collect
from .gcpolicy import short_lived_gc
from .template.grammars import set_table_cache
from .workspace.files import user_cache_dir
from .terraform import catalogue
from .text.line_index import LineIndex
from .workspace import Workspace
from .workspace.files import file_name, list_directory
from .workspace.workspace import SKIPPED_DIRECTORIES

log = logging.getLogger(__name__)

PROG = "hcljson-ls"
LOG_LEVELS = ("debug", "info", "warning", "error")
EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
FORMATS = ("text", "json", "sarif", "github")

#: ``--severity LEVEL`` -> the severities reported (and counted toward the exit status).
SEVERITY_LEVELS = {
    "error": frozenset({ERROR}),
    "warning": frozenset({ERROR, WARNING}),
    "info": frozenset({ERROR, WARNING, INFORMATION, HINT}),
}


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0: one per CPU), not {value!r}")
    return jobs


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
        description="Report problems in *.tf.json / *.tofu.json files (and *.tfvars.json, *.tftest.json / *.tofutest.json, "
        "*.tfmock.json and *.tfquery.json files), module by module, as the language server would.",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="a file, or a directory to search recursively")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    check.add_argument(
        "--severity", choices=tuple(SEVERITY_LEVELS), default=None,
        help="report only diagnostics of this severity or worse, and exit 1 when there is any"
        " (default: report all, exit 1 on errors)",
    )
    check.add_argument(
        "--jobs", "-j", type=_jobs, default=0, metavar="N",
        help="check modules in N processes (default 0: one per CPU; 1: no extra process)",
    )
    check.add_argument(
        "--docs-url", metavar="URL", default=None,
        help="where docs/diagnostics.md is published: SARIF rules link to URL#<anchor of the code>"
        " (default: the checkout's docs/diagnostics.md, when there is one)",
    )
    add_convert_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "convert":
        return run_convert(args)
    if args.command == "check":
        return run_check(
            args.paths, args.format, jobs=args.jobs, severity=args.severity, docs_url=args.docs_url
        )
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

    # A server process builds the template parsers on its first document: ~110 ms of it is Lark's
    # table construction, which its cache turns into a ~15 ms load for every later server.
    set_table_cache(user_cache_dir("parser-tables"))
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
# check: finding the files


class UsageError(Exception):
    """A problem with the command line or the files it names (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Source:
    path: Path  # what to open
    display: str  # how to name it in the output
    real: str  # its real path (symbolic links resolved): one file reached twice is checked once


#: What `check` reads, as the server does: configuration, variable definitions, test, mock data
#: and query files.
_CHECKED_KINDS = (catalogue.CONFIG_JSON, catalogue.TFVARS_JSON, catalogue.TEST_JSON, catalogue.MOCK_JSON, catalogue.QUERY_JSON)
_CHECKED_SUFFIXES = (*catalogue.CONFIG_JSON_SUFFIXES, *catalogue.TFVARS_JSON_SUFFIXES, *catalogue.TEST_JSON_SUFFIXES,
                     *catalogue.MOCK_JSON_SUFFIXES, *catalogue.QUERY_JSON_SUFFIXES)
_CHECKED_NAMES = ", ".join(_CHECKED_SUFFIXES[:-1]) + " or " + _CHECKED_SUFFIXES[-1]
_CHECKED_PATTERNS = ", ".join("*" + s for s in _CHECKED_SUFFIXES)


def find_sources(paths: Sequence[str], problems: list[str] | None = None) -> list[Source]:
    """The files to check, in command-line order (directories walked in sorted order), without
    duplicates. Directories that cannot be read are appended to `problems` (one sentence each).

    Raises UsageError naming every missing path and every directory without such files.
    """
    fatal: list[str] = []
    skipped = problems if problems is not None else []
    found: list[Source] = []
    seen: set[str] = set()
    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            before = len(skipped)
            inside = list(_walk(path, skipped))
            if not inside and len(skipped) == before:
                fatal.append(f"{arg}: no Terraform JSON files ({_CHECKED_PATTERNS}) in this directory")
        elif (path.exists() or path.is_symlink()) and catalogue.file_kind(path.name, ignore_case=True) not in _CHECKED_KINDS:
            skipped.append(f"{arg}: not a Terraform file (its name does not end in {_CHECKED_NAMES}); not checked")
            continue
        elif path.exists() or path.is_symlink():
            inside = [Source(path, arg, os.path.realpath(arg))]
        else:
            fatal.append(f"{arg}: no such file or directory")
            continue
        for source in inside:
            if source.real not in seen:
                seen.add(source.real)
                found.append(source)
    if fatal:
        raise UsageError("\n".join(fatal))
    return found


def _walk(root: Path, problems: list[str]) -> Iterator[Source]:
    """The configuration files under `root`, as `Workspace.scan` walks: depth first, sorted, the
    skipped directories left out, symbolic links to directories not followed."""
    pending = [str(root)]
    while pending:
        directory = pending.pop()
        listing = list_directory(directory)
        if listing.problem:
            problems.append(listing.problem)
            continue
        real_directory = None
        for name in listing.files:
            if catalogue.file_kind(name) in _CHECKED_KINDS:
                real_directory = real_directory or os.path.realpath(directory)  # once a directory: 10x faster
                path = os.path.join(directory, name)
                real = os.path.realpath(path) if os.path.islink(path) else os.path.join(real_directory, name)
                yield Source(Path(path), path, real)
        pending.extend(os.path.join(directory, d) for d in reversed(listing.directories) if d not in SKIPPED_DIRECTORIES)


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


def by_module(sources: Sequence[Source]) -> list[tuple[Source, ...]]:
    """The sources grouped by the directory that holds them (one module each), in first-seen order."""
    groups: dict[str, list[Source]] = {}
    for source in sources:
        groups.setdefault(os.path.dirname(source.real), []).append(source)
    return [tuple(group) for group in groups.values()]


# ---------------------------------------------------------------------------------------------
# check: one module (in this process or in a worker)


@dataclass(frozen=True, slots=True)
class Place:
    """A range of a file as people and tools count it: 0-based lines, columns both in characters
    (code points) and in UTF-16 code units; the end is exclusive."""

    file: str  # as displayed
    line: int
    column: int
    column16: int
    end_line: int
    end_column: int
    end_column16: int


@dataclass(frozen=True, slots=True)
class Note:
    place: Place
    message: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic, located and worded: what every output format is written from."""

    place: Place
    severity: str
    code: str
    message: str  # plain text, as the server sends it
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True, slots=True)
class FileResult:
    display: str
    findings: tuple[Finding, ...] = ()
    problem: str | None = None  # why the file could not be checked


def check_module(sources: Sequence[Source]) -> tuple[FileResult, ...]:
    """The results of one module's files, in the order given: opened together in a `Workspace` of
    their own (the rest of the directory read from disk), diagnosed by `collect`. The workspace is
    garbage afterwards, and freed at once (`short_lived_gc`)."""
    with short_lived_gc():
        return _check_module(sources)


def _check_module(sources: Sequence[Source]) -> tuple[FileResult, ...]:
    workspace = Workspace()
    results: list[FileResult | None] = []
    opened: list[tuple[int, Source, str]] = []
    for source in sources:
        try:
            text = read_source(source)
        except UsageError as exc:
            results.append(FileResult(source.display, problem=str(exc)))
            continue
        uri = Path(source.real).as_uri()
        try:
            workspace.open(uri, text, 0, "terraform-json")
        except Exception as exc:
            results.append(_internal_error(source, exc))
            continue
        opened.append((len(results), source, uri))
        results.append(None)
    snapshot = workspace.snapshot()
    for i, source, uri in opened:
        try:
            found = collect(snapshot, uri)
            index = workspace.get(uri).line_index  # type: ignore[union-attr]  # open: ours by its language id
            results[i] = FileResult(source.display, tuple(_finding(source.display, d, index, uri, workspace) for d in found))
        except Exception as exc:
            results[i] = _internal_error(source, exc)
    return tuple(r for r in results if r is not None)


def _internal_error(source: Source, exc: Exception) -> FileResult:
    """A bug below `check` met on one file: that file is reported (status 2), the others are still
    checked; the traceback goes to the log (not shown unless logging is configured)."""
    log.info("checking %s failed", source.display, exc_info=True)
    return FileResult(
        source.display, problem=f"{source.display}: internal error while checking this file ({type(exc).__name__}: {exc})"
    )


def check_modules(modules: Sequence[Sequence[Source]]) -> list[tuple[FileResult, ...]]:
    """`check_module` of each: one task of the process pool."""
    return [check_module(m) for m in modules]


def _finding(display: str, d: Diagnostic, index: LineIndex, uri: str, workspace: Workspace) -> Finding:
    notes = []
    for r in d.related:
        where, where_index = display, index
        if r.uri is not None and r.uri != uri:
            where_index = workspace.line_index(r.uri)
            if where_index is None:
                continue  # that file cannot be read now: its place cannot be shown
            where = os.path.join(os.path.dirname(display), file_name(r.uri))  # a file of the same module
        notes.append(Note(_place(where, where_index, r.start, r.end), plain(r.message)))
    return Finding(_place(display, index, d.start, d.end), d.severity, d.code, d.plain_message, tuple(notes))


def _place(display: str, index: LineIndex, start: int, end: int) -> Place:
    line, column = index.position(start, "utf-32")
    _, column16 = index.position(start, "utf-16")
    end_line, end_column = index.position(end, "utf-32")
    _, end_column16 = index.position(end, "utf-16")
    return Place(display, line, column, column16, end_line, end_column, end_column16)


# ---------------------------------------------------------------------------------------------
# check: many modules


def resolve_jobs(jobs: int) -> int:
    """`--jobs`: 0 is one process per CPU this process may run on."""
    if jobs > 0:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def batches(modules: Sequence[tuple[Source, ...]], jobs: int) -> list[Sequence[tuple[Source, ...]]]:
    """`modules` cut into consecutive batches, the unit of work of the pool: enough of them (about
    eight per process) to keep every process busy to the end, few enough that starting a task and
    pickling its result stay small beside checking it."""
    size = max(1, min(32, len(modules) // (jobs * 8)))
    return [modules[i : i + size] for i in range(0, len(modules), size)]


def check_all(modules: Sequence[tuple[Source, ...]], jobs: int) -> Iterator[tuple[FileResult, ...]]:
    """Each module's results, in order, as soon as its turn comes: here for one job, else from a
    pool of `jobs` processes."""
    if jobs <= 1 or len(modules) <= 1:
        for module in modules:
            yield check_module(module)
        return
    # The first module here: it loads what every check needs and keeps (the template grammar's
    # parser tables, ~0.5 s, the function catalogue, ...) once, before the workers are forked, so
    # they inherit it instead of each building it again.
    yield check_module(modules[0])
    work = batches(modules[1:], jobs)
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)), initializer=_ignore_interrupts)
    try:
        for batch in pool.map(check_modules, work):
            yield from batch
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the pool), not a traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_check(
    paths: Sequence[str],
    output_format: str = "text",
    *,
    jobs: int = 1,
    severity: str | None = None,
    docs_url: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    for stream in (out, err):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # never die on an odd terminal encoding
    skipped: list[str] = []
    try:
        sources = find_sources(paths, skipped)
    except UsageError as exc:
        for line in str(exc).splitlines():
            print(f"{PROG} check: error: {line}", file=err)
        return EXIT_USAGE
    for problem in skipped:
        print(f"{PROG} check: error: {problem}", file=err)

    reported = SEVERITY_LEVELS[severity] if severity else None
    failing = reported if reported is not None else frozenset({ERROR})
    writer = _WRITERS[output_format](out, docs_url if docs_url is not None else default_docs_url())
    modules = by_module(sources)
    progress = _Progress(err, len(modules))
    problems = list(skipped)
    errors = warnings = checked = failed = 0
    results = check_all(modules, resolve_jobs(jobs))
    try:
        for module in results:
            progress.clear()
            for result in module:
                if result.problem is not None:
                    print(f"{PROG} check: error: {result.problem}", file=err)
                    problems.append(result.problem)
                    continue
                checked += 1
                shown = [f for f in result.findings if reported is None or f.severity in reported]
                for f in shown:
                    errors += f.severity == ERROR
                    warnings += f.severity == WARNING
                    failed += f.severity in failing
                writer.file(shown)
            progress.step()
        progress.clear()
        writer.end(problems)
        if writer.summary:
            print(f"{PROG}: {_count(errors, 'error')}, {_count(warnings, 'warning')} in {_count(checked, 'file')}", file=err)
        out.flush()
    except BrokenPipeError:  # e.g. `hcljson-ls check . | head`
        try:  # no second "Broken pipe" when the interpreter flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ERRORS if failed else EXIT_OK
    except BrokenProcessPool:
        progress.clear()
        print(f"{PROG} check: error: a worker process died (out of memory?); try fewer --jobs", file=err)
        return EXIT_USAGE
    except KeyboardInterrupt:
        progress.clear()
        print(f"{PROG} check: interrupted", file=err)
        return 130
    finally:
        results.close()  # stops the pool
    if problems:
        return EXIT_USAGE
    return EXIT_ERRORS if failed else EXIT_OK


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Progress:
    """``[done/total modules]`` on stderr, redrawn in place, only when stderr is a terminal; erased
    before each module's output (which may go to the same terminal)."""

    def __init__(self, err: TextIO, total: int) -> None:
        self.err, self.total, self.done = err, total, 0
        self.on = _is_terminal(err) and total > 1
        self.shown = False

    def step(self) -> None:
        self.done += 1
        if self.on:
            self.err.write(f"\r[{self.done}/{self.total} modules]")
            self.err.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False


# ---------------------------------------------------------------------------------------------
# check: output formats


def code_anchor(code: str) -> str:
    """The anchor of `code` in docs/diagnostics.md, made as the server's `codeDescription` makes it
    (`lsp.convert.code_anchor`, which this must equal: tests compare them)."""
    return re.sub(r"[^\w\- ]", "", code.lower()).replace(" ", "-")


def default_docs_url() -> str | None:
    """The `file:` URI of the checkout's docs/diagnostics.md, when the package runs from a checkout."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"
    return docs.as_uri() if docs.is_file() else None


class _Writer:
    """An output format: gets each checked file's findings in order (`file`), then the problems of
    the run (`end`); `summary` says whether the count line goes to stderr."""

    summary = True

    def __init__(self, out: TextIO, docs_url: str | None) -> None:
        self.out = out
        self.docs_url = docs_url

    def file(self, findings: Sequence[Finding]) -> None:
        raise NotImplementedError

    def end(self, problems: Sequence[str]) -> None:
        pass


class _Text(_Writer):
    def file(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            p = f.place
            code = f" [{f.code}]" if f.code else ""
            print(f"{p.file}:{p.line + 1}:{p.column + 1}: {f.severity}: {' '.join(f.message.split())}{code}", file=self.out)
            for n in f.notes:
                q = n.place
                print(f"{q.file}:{q.line + 1}:{q.column + 1}: note: {' '.join(n.message.split())}", file=self.out)


class _Json(_Writer):
    summary = False

    def __init__(self, out: TextIO, docs_url: str | None) -> None:
        super().__init__(out, docs_url)
        self.records: list[dict] = []

    def file(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            p = f.place
            self.records.append({
                "file": p.file,
                "range": {
                    "start": {"line": p.line, "character": p.column16},
                    "end": {"line": p.end_line, "character": p.end_column16},
                },
                "severity": f.severity,
                "code": f.code,
                "message": f.message,
            })

    def end(self, problems: Sequence[str]) -> None:
        json.dump(self.records, self.out, indent=2, ensure_ascii=False)
        self.out.write("\n")


SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SARIF_LEVEL = {ERROR: "error", WARNING: "warning", INFORMATION: "note", HINT: "note"}


class _Sarif(_Writer):
    summary = False

    def __init__(self, out: TextIO, docs_url: str | None) -> None:
        super().__init__(out, docs_url)
        self.rules: dict[str, int] = {}
        self.results: list[dict] = []

    def file(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            result: dict = {
                "level": _SARIF_LEVEL.get(f.severity, "error"),
                "message": {"text": f.message},
                "locations": [{"physicalLocation": _sarif_location(f.place)}],
            }
            if f.code:
                result = {"ruleId": f.code, "ruleIndex": self.rules.setdefault(f.code, len(self.rules)), **result}
            if f.notes:
                result["relatedLocations"] = [
                    {"id": i, "physicalLocation": _sarif_location(n.place), "message": {"text": n.message}}
                    for i, n in enumerate(f.notes)
                ]
            self.results.append(result)

    def end(self, problems: Sequence[str]) -> None:
        rules = []
        for code in self.rules:  # in index order
            rule: dict = {"id": code, "shortDescription": {"text": code}}
            if self.docs_url:
                rule["helpUri"] = f"{self.docs_url}#{code_anchor(code)}"
            rules.append(rule)
        driver: dict = {"name": PROG, "version": __version__, "semanticVersion": __version__, "rules": rules}
        if self.docs_url:
            driver["informationUri"] = self.docs_url
        log = {
            "$schema": SARIF_SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": driver},
                "invocations": [{
                    "executionSuccessful": not problems,
                    "toolExecutionNotifications": [
                        {"level": "error", "message": {"text": problem}} for problem in problems
                    ],
                }],
                "columnKind": "utf16CodeUnits",
                "results": self.results,
            }],
        }
        json.dump(log, self.out, indent=2, ensure_ascii=False)
        self.out.write("\n")


def _tidy(display: str) -> str:
    """A relative path without ``./`` or ``x/..`` steps (CI tools match annotations to the files of
    the repository by such paths); an absolute one as it is."""
    return display if os.path.isabs(display) else os.path.normpath(display)


def sarif_uri(display: str) -> str:
    """A file's `artifactLocation.uri`: relative paths stay relative (to where `check` ran, which a
    code-scanning upload takes as the repository root), absolute ones become `file:` URIs."""
    if os.path.isabs(display):
        return Path(display).as_uri()
    return quote(PurePath(_tidy(display)).as_posix())


def _sarif_location(p: Place) -> dict:
    return {
        "artifactLocation": {"uri": sarif_uri(p.file)},
        "region": {
            "startLine": p.line + 1,
            "startColumn": p.column16 + 1,
            "endLine": p.end_line + 1,
            "endColumn": p.end_column16 + 1,
        },
    }


_GITHUB_COMMAND = {ERROR: "error", WARNING: "warning", INFORMATION: "notice", HINT: "notice"}


def github_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub requires."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A workflow command's property value, escaped as GitHub requires."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


class _GitHub(_Writer):
    def file(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            p = f.place
            properties = [
                ("file", _tidy(p.file)), ("line", p.line + 1), ("col", p.column + 1),
                ("endLine", p.end_line + 1), ("endColumn", p.end_column + 1),
            ]
            if f.code:
                properties.append(("title", f.code))
            message = "\n".join([
                f.message,
                *(f"note: {_tidy(n.place.file)}:{n.place.line + 1}:{n.place.column + 1}: {n.message}" for n in f.notes),
            ])
            props = ",".join(f"{k}={github_property(str(v))}" for k, v in properties)
            print(f"::{_GITHUB_COMMAND.get(f.severity, 'error')} {props}::{github_data(message)}", file=self.out)


_WRITERS = {"text": _Text, "json": _Json, "sarif": _Sarif, "github": _GitHub}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
