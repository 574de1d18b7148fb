"""The `hcljson-ls` command: run the language server, or check files from the command line.

    hcljson-ls [--stdio | --tcp [--host H] [--port P]] [--log-file F] [--log-level L]
    hcljson-ls --version
    hcljson-ls check PATH... [--format text|json|sarif|github] [--severity error|warning|info]
                             [--jobs N] [--schema FILE]... [--config FILE] [--shard K/N] [--docs-url URL]
                             [--engine auto|terraform|opentofu] [--engine-version X.Y[.Z]]

The server
----------
Serves one client over stdio (default) or TCP (`lsp.transport`). Exit status: 0 after LSP's
``shutdown`` then ``exit``, or when the client closes the connection; 1 on ``exit`` without
``shutdown`` (as LSP says); 2 on a usage problem. Started in a terminal (stdin a TTY), it says on stderr
that it waits for an LSP client and how to get help.

Contract of `check`
-------------------
* PATHs are files or directories, walked as the workspace scan walks them for the kinds the server
  reads (``*.tf.json``, ``*.tofu.json``, ``*.tfvars.json``, ``*.tftest.json``, ``*.tofutest.json``):
  `workspace.module_map.SKIPPED_DIRECTORIES` (``.terraform``, ``.git``, ``node_modules``, ...) are
  skipped and symbolic links to directories are not followed. A named file of another kind is
  reported and not checked. Only regular files are read (`workspace.regular_file`): a named pipe or
  a device is skipped with a message, never read.
* Settings (`check_settings`): ``--schema FILE`` (repeatable) are provider schema files every module
  sees; ``--config FILE``, else each module's nearest ``.hcljson-ls.json``, holds the server's
  settings (engine, schema files, size limit, docs URL). Schema files are loaded once, before any
  worker starts.
* ``--shard K/N``: only every N-th module from the K-th, in the order found (`shard_of`); the N
  shards together are one full run.
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
    ``path:line:col: note: message``. Control characters in file names (and in the error lines on
    stderr) are percent-encoded (`printable`), so no name can forge a line. A one-line summary goes
    to stderr, saying how many diagnostics ``--severity`` hid.
  - ``json`` prints one JSON array of ``{file, range, severity, code, message}`` with 0-based LSP
    ranges in UTF-16 code units.
  - ``sarif`` prints one SARIF 2.1.0 log: one run, tool driver ``hcljson-ls`` with its version and
    a rule per code reported (``shortDescription``/``fullDescription`` from `rule_docs.RULES`, made
    from docs/diagnostics.md; ``helpUri`` ``<docs-url>#<section that documents the code>``), results
    with 1-based regions whose columns are UTF-16 code units (SARIF's default ``columnKind``), end
    column exclusive; related locations as ``relatedLocations``; files that could not be read as
    tool execution notifications.
  - ``github`` prints a GitHub Actions workflow command per diagnostic
    (``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE::MESSAGE``; ``warning``,
    ``notice`` for the others), 1-based, columns in characters, with the escaping GitHub requires
    (``%``, CR and LF in the message; also ``:`` and ``,`` in properties). Summary on stderr.
* ``--severity LEVEL`` (``error``, ``warning`` or ``info``): only diagnostics of LEVEL or worse are
  reported, and any reported one makes the exit status 1. Without it, every diagnostic is
  reported and only errors make the status 1.
* Exit status: 0 when nothing counts against the run (see ``--severity``), 1 when something does,
  2 on a usage or I/O problem (a missing path, an unreadable, non-regular or non-UTF-8 file, an
  unreadable directory, a directory without such files, a bad configuration file or setting, a
  schema file that cannot be loaded). Each problem is one line on stderr; never a traceback. Paths
  that are missing or hold no files, and unusable configuration files, stop the run before
  anything is checked (no JSON or SARIF is written then); a file or directory that cannot be read
  is reported and the others are still checked (the output is still written).

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
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, NoReturn, TextIO
from urllib.parse import quote

from . import __version__
from .cache_dir import user_cache_dir
from .check_settings import CONFIG_NAME, CheckSettings, ConfigError, find_config, load_schemas, read_config
from .compiled_methods import kept_in_user_cache
from .convert_cli import add_convert_parser, run_convert
from .diagnostic import ERROR, HINT, INFORMATION, WARNING, Diagnostic, plain
from .features.diagnostics import collect
from .gcpolicy import short_lived_gc
from .hcljson import similar
from .rule_docs import RULES
from .template.grammars import set_table_cache
from .terraform.definition import catalogue
from .terraform.definition.language import parse_version
from .text.decoding import NotUtf8, decode_utf8
from .text.line_index import LineIndex
from .workspace import Workspace, ignore_paths
from .workspace.files import file_name, list_directory, module_key
from .workspace.ignore_paths import IgnorePaths
from .workspace.module_map import ENGINES, SKIPPED_DIRECTORIES
from .workspace.regular_file import NotRegularFile, read_regular_file

if TYPE_CHECKING:
    from .lsp.server import HcljsonServer

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


def _shard(value: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
    if match is None or not 1 <= int(match[1]) <= int(match[2]):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N (e.g. 2/4), not {value!r}")
    return int(match[1]), int(match[2])


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
        description="Report problems in Terraform/OpenTofu JSON files, module by module, as the language server"
        " would: configuration (*.tf.json, *.tofu.json, cdk.tf.json), variable definitions (*.tfvars.json,"
        " checked against their module's variables), test files (*.tftest.json, *.tofutest.json), mock data (*.tfmock.json) and query files (*.tfquery.json).",
    )
    check.add_argument(
        "paths", nargs="+", metavar="PATH",
        help="a file, or a directory to search recursively for those files (.terraform/, .git/, ... skipped)",
    )
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
    check.add_argument("--engine", choices=ENGINES, default=None,
                       help="the tool that reads the modules (default: the configuration's engine, else auto:"
                       " OpenTofu where there are .tofu files)")
    check.add_argument("--engine-version", type=_engine_version, default=None, metavar="X.Y[.Z]",
                       help="its version (default: per module, the newest its required_version allows)")
    check.add_argument(
        "--schema", action="append", default=[], metavar="FILE",
        help="a provider schema file (`terraform providers schema -json` output) every module sees;"
        " repeatable, the first schema of a provider wins",
    )
    check.add_argument(
        "--config", metavar="FILE", default=None,
        help=f"the language server's settings (the \"hcljson\" section, JSON) for every module"
        f" (default: the nearest {CONFIG_NAME} in each module's directory or its parents)",
    )
    check.add_argument(
        "--shard", type=_shard, default=None, metavar="K/N",
        help="check only the K-th of N shares of the modules (1 <= K <= N), for a CI matrix:"
        " the N runs together check every module once",
    )
    check.add_argument(
        "--docs-url", metavar="URL", default=None,
        help="where docs/diagnostics.md is published: SARIF rules link to URL#<section of the code>"
        " (default: the configuration's diagnostics.docsUrl, else the file: URI of the docs/diagnostics.md"
        " of the checkout or of the installed package)",
    )
    add_convert_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "convert":
        return run_convert(args)
    if args.command == "check":
        # What the layers below log (a schema file that cannot be loaded, ...) reaches the user as
        # `check`'s own one-line problems: not also as Python's bare "last resort" log lines.
        logging.getLogger(__package__).addHandler(logging.NullHandler())
        return run_check(
            args.paths, args.format, jobs=args.jobs, severity=args.severity, docs_url=args.docs_url,
            schemas=args.schema, config=args.config, shard=args.shard,
            engine=args.engine, engine_version=args.engine_version,
        )
    return run_server(args)


# ---------------------------------------------------------------------------------------------
# The server


def import_server() -> None:
    """Import the server (`lsp.server`: pygls and lsprotocol, ~0.35 s; `check` needs neither), unless
    it is. lsprotocol's ~570 attrs classes compile their methods' source, the same on every start:
    kept compiled in the user cache (`compiled_methods`)."""
    if "hcljson_ls.lsp.server" in sys.modules:
        return
    with kept_in_user_cache("lsp-server", "attr._make", "dataclasses"):
        from .lsp import server  # noqa: F401  # lazy: see above


#: The server `prepare_server` made, for `run_server`.
_PREPARED: list[HcljsonServer] = []


def prepare_server() -> None:
    """Import the server and make it (`lsp.server.prepared_server`) ahead of `run_server`: `entry` has
    it done on a thread while `lsp.first_open` answers the first document."""
    import_server()
    from .lsp.server import prepared_server  # lazy: imported above

    _PREPARED.append(prepared_server())
    similar.prepare()  # (what the first misspelt name asks: last, its C++ set-up holds the interpreter)


def run_server(args: argparse.Namespace) -> int:
    try:
        _configure_logging(args.log_file, args.log_level)
    except OSError as exc:
        print(f"{PROG}: error: cannot open log file {args.log_file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.tcp and not 0 <= args.port <= 65535:
        print(f"{PROG}: error: --port must be between 0 and 65535, not {args.port}", file=sys.stderr)
        return EXIT_USAGE

    import_server()
    from .lsp.server import create_server  # lazy: imported by `import_server`

    # A server process builds the template parsers on its first document: ~110 ms of it is Lark's
    # table construction, which its cache turns into a ~15 ms load for every later server.
    set_table_cache(user_cache_dir("parser-tables"))
    server = _PREPARED.pop() if _PREPARED else create_server()
    if server.made_ahead:
        log.info("the server was made while the first document was answered (lsp.first_open)")
    if not args.tcp and _is_terminal(sys.stdin):
        print(WAITING_ON_A_TERMINAL, file=sys.stderr, flush=True)
    try:
        status = server.start_tcp(args.host, args.port) if args.tcp else server.start_io()
    except KeyboardInterrupt:
        status = EXIT_OK
    except OSError as exc:  # e.g. the TCP port is in use
        print(f"{PROG}: error: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    _exit_now(status)
    return status  # not reached


def _exit_now(status: int) -> NoReturn:
    """End the server process at once, with `status`: the client is gone or said `exit`, and nothing
    is left to write but the log. Python's own exit would first free every object the server holds:
    with a 39 MB document of 495,000 small blocks open that took 28 s, with the editor waiting
    (`bench/bench_memory.py` measures it)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


#: What the server says on stderr when started by hand in a terminal (stdin a TTY).
WAITING_ON_A_TERMINAL = (
    f"{PROG}: a language server, waiting for an LSP client on stdin (press Ctrl-C to stop).\n"
    f"  Start it from your editor; to check files from a terminal, run '{PROG} check PATH...'."
    f" Help: '{PROG} --help'."
)


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


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
_CHECKED_KINDS = catalogue.JSON_KINDS
_CHECKED_SUFFIXES = (*catalogue.CONFIG_JSON_SUFFIXES, *catalogue.TFVARS_JSON_SUFFIXES, *catalogue.TEST_JSON_SUFFIXES,
                     *catalogue.MOCK_JSON_SUFFIXES, *catalogue.QUERY_JSON_SUFFIXES)
_CHECKED_NAMES = ", ".join(_CHECKED_SUFFIXES[:-1]) + " or " + _CHECKED_SUFFIXES[-1]
_CHECKED_PATTERNS = ", ".join("*" + s for s in _CHECKED_SUFFIXES)


def find_sources(paths: Sequence[str], problems: list[str] | None = None, config: str | None = None) -> list[Source]:
    """The files to check, in command-line order (directories walked in sorted order), without
    duplicates. Directories that cannot be read are appended to `problems` (one sentence each).
    A directory is walked without the directories its configuration's `indexing.ignorePaths` name
    (`config`, else the nearest `CONFIG_NAME` file; `_ignored_under`); a file named on the command
    line is checked wherever it is.

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
            inside = list(_walk(path, skipped, _ignored_under(path, config)))
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


def _ignored_under(root: Path, config: str | None) -> IgnorePaths:
    """The directories `indexing.ignorePaths` leaves out of the walk of `root`, read from `config`
    or the nearest configuration file of `root` (relative patterns: from that file's directory). A
    configuration that cannot be read leaves nothing out here: `module_settings` reports it."""
    path = os.path.abspath(config) if config is not None else find_config(os.path.abspath(root))
    if path is None:
        return ignore_paths.NONE
    try:
        settings, _ = read_config(path)
    except ConfigError:
        return ignore_paths.NONE
    return IgnorePaths.of(settings.indexing.ignore_paths, (os.path.dirname(path),))


def _walk(root: Path, problems: list[str], ignored: IgnorePaths = ignore_paths.NONE) -> Iterator[Source]:
    """The configuration files under `root`, as `ModuleMap.scan` walks: depth first, sorted, the
    skipped directories (and the `ignored` ones) left out, symbolic links to directories not followed."""
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
        pending.extend(
            path
            for d in reversed(listing.directories)
            if d not in SKIPPED_DIRECTORIES and not ignored.skips(path := os.path.join(directory, d))
        )


#: A local module source in a JSON (`"source": "./x"`) or native (`source = "../x"`) file.
_LOCAL_SOURCE = re.compile(r'\bsource"?\s*[:=]\s*"(\.\.?/[^"\\]*)"')
_CALLER_KINDS = catalogue.MODULE_KINDS
_CALLER_MAX_BYTES = 20 * 1024 * 1024


def called_directories(paths: Sequence[str]) -> frozenset[str]:
    """The real paths of the directories that a configuration file (JSON or native) under `paths`
    (directories walked as `_walk` does; a file: its directory) calls as a local module. `check`
    treats those modules as called, not as root modules: a module is a root module when `terraform
    validate` in its directory is how it is used, and a module another module of the run calls is
    validated through its caller. A text search: a string that only looks like a local `source`
    makes a module "called", which only silences the root-only rules there."""
    directories: list[str] = []
    for arg in paths:
        if os.path.isdir(arg):
            pending = [arg]
            while pending:
                directory = pending.pop()
                listing = list_directory(directory)
                if listing.problem:
                    continue
                directories.append(directory)
                pending.extend(os.path.join(directory, d) for d in listing.directories if d not in SKIPPED_DIRECTORIES)
        elif os.path.exists(arg):
            directories.append(os.path.dirname(os.path.abspath(arg)))
    out: set[str] = set()
    for directory in dict.fromkeys(directories):
        for name in list_directory(directory).files:
            if catalogue.file_kind(name) not in _CALLER_KINDS:
                continue
            path = os.path.join(directory, name)
            try:
                if os.path.getsize(path) > _CALLER_MAX_BYTES:
                    continue
                text = decode_utf8(read_regular_file(Path(path)))
            except (OSError, NotRegularFile, NotUtf8):
                continue
            if "source" not in text:
                continue
            for m in _LOCAL_SOURCE.finditer(text):
                out.add(os.path.realpath(os.path.join(directory, m.group(1))))
    return frozenset(out)


def read_source(source: Source) -> str:
    """The file's text, exactly (no newline translation). Raises UsageError with a one-line reason.
    Only a regular file is read (`read_regular_file`): a named pipe or a device is skipped."""
    try:
        data = read_regular_file(source.path)
    except NotRegularFile as exc:
        raise UsageError(f"{source.display}: {exc}; skipped") from None
    except OSError as exc:
        raise UsageError(f"{source.display}: cannot read: {exc.strerror or exc}") from None
    try:
        return decode_utf8(data)
    except NotUtf8 as exc:
        raise UsageError(f"{source.display}: {exc}") from None


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


NO_SETTINGS = CheckSettings()


def _engine_version(value: str) -> str:
    if parse_version(value) is None:
        raise argparse.ArgumentTypeError(f"not a version: {value!r} (expected X.Y or X.Y.Z, such as 1.11)")
    return value


def check_module(sources: Sequence[Source], settings: CheckSettings = NO_SETTINGS) -> tuple[FileResult, ...]:
    """The results of one module's files, in the order given: opened together in a `Workspace` of
    their own (the rest of the directory read from disk), with `settings` (engine, provider
    schemas, size limit), diagnosed by `collect`. The workspace is garbage afterwards, and freed at
    once (`short_lived_gc`)."""
    with short_lived_gc():
        return _check_module(sources, settings)


def _check_module(sources: Sequence[Source], settings: CheckSettings) -> tuple[FileResult, ...]:
    workspace = Workspace(engine=settings.engine)
    workspace.set_engine_version(settings.engine_version)
    workspace.max_file_bytes = settings.max_file_bytes
    if settings.called and sources:
        workspace.called_modules = frozenset({module_key(Path(sources[0].real).as_uri())})
    schemas, _ = load_schemas(settings.schema_files)  # problems: reported once, by the parent
    if schemas is not None and sources:
        workspace.set_module_schemas(module_key(Path(sources[0].real).as_uri()), schemas)
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
            found = collect(snapshot, uri, max_per_code=settings.max_per_code)
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


def check_modules(modules: Sequence[tuple[Sequence[Source], CheckSettings]]) -> list[tuple[FileResult, ...]]:
    """`check_module` of each (sources, settings): one task of the process pool."""
    return [check_module(sources, settings) for sources, settings in modules]


def _finding(display: str, d: Diagnostic, index: LineIndex, uri: str, workspace: Workspace) -> Finding:
    notes = []
    for r in d.related:
        where, where_index = display, index
        if r.uri is not None and r.uri != uri:
            other = workspace.documents.line_index(r.uri)
            if other is None:
                continue  # that file cannot be read now: its place cannot be shown
            where_index = other
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


def batches(modules: Sequence[Any], jobs: int) -> list[Sequence[Any]]:
    """`modules` cut into consecutive batches, the unit of work of the pool: enough of them (about
    eight per process) to keep every process busy to the end, few enough that starting a task and
    pickling its result stay small beside checking it."""
    size = max(1, min(32, len(modules) // (jobs * 8)))
    return [modules[i : i + size] for i in range(0, len(modules), size)]


def check_all(
    modules: Sequence[tuple[Source, ...]], jobs: int, settings: Sequence[CheckSettings] | None = None
) -> Generator[tuple[FileResult, ...], None, None]:
    """Each module's results, in order, as soon as its turn comes: here for one job, else from a
    pool of `jobs` processes. `settings[i]` is module i's (default: none)."""
    jobs_list = list(zip(modules, settings if settings is not None else [NO_SETTINGS] * len(modules)))
    if jobs <= 1 or len(modules) <= 1:
        for module, module_settings in jobs_list:
            yield check_module(module, module_settings)
        return
    # The first module here: it loads what every check needs and keeps (the template grammar's
    # parser tables, ~0.5 s, the function catalogue, ...) once, before the workers are forked, so
    # they inherit it instead of each building it again.
    yield check_module(*jobs_list[0])
    work = batches(jobs_list[1:], jobs)
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
    schemas: Sequence[str] = (),
    config: str | None = None,
    shard: tuple[int, int] | None = None,
    engine: str | None = None,
    engine_version: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    for stream in (out, err):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # never die on an odd terminal encoding
    try:
        modules, settings, skipped, setting_problems = _plan(paths, schemas, config, shard, engine, engine_version)
    except UsageError as exc:
        for line in str(exc).splitlines():
            print(f"{PROG} check: error: {printable(line)}", file=err)
        return EXIT_USAGE
    for problem in (*skipped, *setting_problems):
        print(f"{PROG} check: error: {printable(problem)}", file=err)
    if shard is not None and not modules:
        print(f"{PROG} check: shard {shard[0]}/{shard[1]} has no module to check", file=err)

    reported = SEVERITY_LEVELS[severity] if severity else None
    failing = reported if reported is not None else frozenset({ERROR})
    if docs_url is None:
        docs_url = next((s.docs_url for s in settings if s.docs_url), None) or default_docs_url()
    writer = _WRITERS[output_format](out, docs_url)
    progress = _Progress(err, len(modules))
    problems = [*skipped, *setting_problems]
    counts = _Counts(reported, failing)
    results = check_all(modules, resolve_jobs(jobs), settings)
    try:
        for module in results:
            progress.clear()
            for result in module:
                if result.problem is not None:
                    print(f"{PROG} check: error: {printable(result.problem)}", file=err)
                    problems.append(result.problem)
                    continue
                writer.file(counts.shown(result.findings))
            progress.step()
        progress.clear()
        writer.end(problems)
        if writer.summary:
            print(f"{PROG}: {counts.summary(severity)}", file=err)
        out.flush()
    except BrokenPipeError:  # e.g. `hcljson-ls check . | head`
        try:  # no second "Broken pipe" when the interpreter flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ERRORS if counts.failed else EXIT_OK
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
    return EXIT_ERRORS if counts.failed else EXIT_OK


def _plan(
    paths: Sequence[str], schemas: Sequence[str], config: str | None, shard: tuple[int, int] | None,
    engine: str | None, engine_version: str | None,
) -> tuple[list, list, list[str], list[str]]:
    """What `run_check` checks: the modules (of the shard), the settings of each, the sources the
    walk skipped (shard 1 reports them: once in the union of the shards) and the settings' problems.
    Raises `UsageError`."""
    skipped: list[str] = []
    modules = by_module(find_sources(paths, skipped, config))
    if shard is not None:
        modules = shard_of(modules, *shard)
        if shard[0] != 1:
            skipped = []
    settings, setting_problems = module_settings(modules, schemas, config)
    called = called_directories(paths)
    if called:
        settings = [replace(s, called=True) if os.path.dirname(m[0].real) in called else s
                    for s, m in zip(settings, modules)]
    if engine is not None or engine_version is not None:  # the flags win over the configuration
        settings = [replace(s, engine=engine or s.engine, engine_version=engine_version or s.engine_version)
                    for s in settings]
    return modules, settings, skipped, setting_problems


class _Counts:
    """`run_check`'s tally: the findings shown (those `--severity` reports), counted by severity, and
    those it left out, for the summary; `failed` counts the findings that fail the run."""

    def __init__(self, reported: frozenset[str] | None, failing: frozenset[str]) -> None:
        self.reported, self.failing = reported, failing
        self.errors = self.warnings = self.checked = self.failed = self.hidden_warnings = self.hidden_others = 0

    def shown(self, findings: Sequence[Any]) -> list[Any]:
        """The findings of one checked file that are shown, counted."""
        self.checked += 1
        reported = self.reported
        shown = [f for f in findings if reported is None or f.severity in reported]
        if reported is not None:  # what --severity left out, for the summary
            hidden = [f.severity for f in findings if f.severity not in reported]
            self.hidden_warnings += hidden.count(WARNING)
            self.hidden_others += len(hidden) - hidden.count(WARNING)
        for f in shown:
            self.errors += f.severity == ERROR
            self.warnings += f.severity == WARNING
            self.failed += f.severity in self.failing
        return shown

    def summary(self, severity: str | None) -> str:
        return summary(self.errors, self.warnings, self.checked, self.hidden_warnings, self.hidden_others, severity)


def summary(errors: int, warnings: int, files: int, hidden_warnings: int = 0, hidden_others: int = 0,
            severity: str | None = None) -> str:
    """The count line, ``4 errors, 0 warnings in 2 files``, and what `--severity` hid:
    ``; 3 warnings and 1 information/hint diagnostic hidden by --severity error``."""
    text = f"{_count(errors, 'error')}, {_count(warnings, 'warning')} in {_count(files, 'file')}"
    hidden = []
    if hidden_warnings:
        hidden.append(_count(hidden_warnings, "warning"))
    if hidden_others:
        hidden.append(_count(hidden_others, "information/hint diagnostic"))
    if hidden:
        text += f"; {' and '.join(hidden)} hidden by --severity {severity}"
    return text


def shard_of(modules: Sequence[tuple[Source, ...]], k: int, n: int) -> list[tuple[Source, ...]]:
    """`--shard K/N`: the modules of shard `k` (1-based) of `n`: every n-th module in the order they
    were found, from the k-th. The same paths give the same order on every machine, so each module
    is in exactly one shard and the shards together are the whole run, about equal in size."""
    return list(modules[k - 1 :: n])


def module_settings(
    modules: Sequence[tuple[Source, ...]], schemas: Sequence[str] = (), config: str | None = None
) -> tuple[list[CheckSettings], list[str]]:
    """Each module's settings, and the problems met (bad setting values, schema files that could not
    be loaded; one sentence each, once). `config` is for every module; without it each module's is
    the nearest `CONFIG_NAME` file (`find_config`). The schema files of every module are loaded here,
    before any worker process starts (they inherit them). Raises UsageError for a configuration
    file that cannot be used."""
    problems: list[str] = []
    command_line = tuple(dict.fromkeys(os.path.abspath(p) for p in schemas))
    read: dict[str | None, CheckSettings] = {}

    def settings_from(path: str | None) -> CheckSettings:
        if path not in read:
            if path is None:
                read[path] = CheckSettings(schema_files=command_line)
            else:
                try:
                    server_settings, bad_values = read_config(path)
                except ConfigError as exc:
                    raise UsageError(str(exc)) from None
                problems.extend(bad_values)
                read[path] = CheckSettings.of(server_settings, path, command_line)
        return read[path]

    found: dict[str, str | None] = {}
    result = []
    for module in modules:
        if config is not None:
            path: str | None = os.path.abspath(config)
        else:
            directory = os.path.dirname(module[0].real)
            if directory not in found:
                found[directory] = find_config(directory)
            path = found[directory]
        result.append(settings_from(path))
    for files in dict.fromkeys(s.schema_files for s in result):
        problems.extend(load_schemas(files)[1])
    return result, problems


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


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


def help_uri(docs_url: str, code: str) -> str:
    """Where `code` is documented: its section of docs/diagnostics.md (`rule_docs.RULES`), a heading
    anchor every Markdown renderer makes; the page itself for a code the table does not know."""
    rule = RULES.get(code)
    return f"{docs_url}#{rule[0]}" if rule else docs_url


def default_docs_url() -> str | None:
    """The `file:` URI of docs/diagnostics.md: the checkout's, when the package runs from one (an
    editable install), else the copy an installed package ships (`hcljson_ls/docs/`, put there by
    setup.py's build step); None without either."""
    here = Path(__file__).resolve().parent
    for docs in (here.parents[1] / "docs" / "diagnostics.md", here / "docs" / "diagnostics.md"):
        if docs.is_file():
            return docs.as_uri()
    return None


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


#: Characters that would break a line of output or drive a terminal: C0 and C1 controls, DEL, and
#: the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """`text` on one line, safe for a terminal and a CI log's problem matcher: each control
    character percent-encoded as its UTF-8 bytes (a newline is ``%0A``, as in the `github` format),
    so a file name cannot forge a ``path:line:col: error:`` line. Other text is unchanged."""
    return _CONTROL.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8")), text)


def _one_line(message: str) -> str:
    """A message on one line: runs of white space as one space, other controls escaped."""
    return printable(" ".join(message.split()))


class _Text(_Writer):
    def file(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            p = f.place
            code = f" [{printable(f.code)}]" if f.code else ""
            print(f"{printable(p.file)}:{p.line + 1}:{p.column + 1}: {f.severity}: {_one_line(f.message)}{code}", file=self.out)
            for n in f.notes:
                q = n.place
                print(f"{printable(q.file)}:{q.line + 1}:{q.column + 1}: note: {_one_line(n.message)}", file=self.out)


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
            _, short, full = RULES.get(code, ("", code, ""))
            rule: dict = {"id": code, "shortDescription": {"text": short}}
            if full:
                rule["fullDescription"] = {"text": full}
            if self.docs_url:
                rule["helpUri"] = help_uri(self.docs_url, code)
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
