"""The `hcljson-ls` command's entry point (and `python -m hcljson_ls`): answer `initialize` first.

    main(argv=None) -> exit status        `cli.main`, with the early `initialize` answer started first

A server started over stdio (no arguments, or only ``--stdio``, ``--log-file F``, ``--log-level L``)
starts `lsp.early`'s reader before importing anything else (`cli` imports every layer, `lsp.server`
pygls and lsprotocol: most of a second), so an editor has its `initialize` answer while the rest is
imported (issue 22 §4); then `lsp.first_open` answers the first document's diagnostics when they are
asked for at once, before pygls and lsprotocol are imported. Every other command line goes to
`cli.main` as it is, unchanged. Each of these imports compiles its dataclasses' methods through a
cache in the user's cache directory (`compiled_methods`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager

#: Options a stdio server may be given, with whether each takes a value (as `cli.build_parser` has them).
SERVER_OPTIONS = {"--stdio": False, "--log-file": True, "--log-level": True}


def is_stdio_server(argv: Sequence[str]) -> bool:
    """Whether `argv` (without the program) starts the server over stdio; False when unsure."""
    i = 0
    while i < len(argv):
        name, has_value, _ = argv[i].partition("=")
        if name not in SERVER_OPTIONS:
            return False
        i += 1 if has_value or not SERVER_OPTIONS[name] else 2
    return i == len(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    imports = "cli"
    if argv is None and is_stdio_server(args):
        from .lsp import early  # lazy: only a stdio server answers early (json, os and threading only)
        from .lsp.switch_interval import prompt_readers  # lazy: as the line above (sys only)

        prompt_readers()  # (the early reader answers `initialize` while this thread imports)
        early.started = early.start(sys.stdin.fileno(), sys.stdout.buffer)
        if not sys.stdin.isatty():  # (in a terminal `cli` first says that it waits for a client)
            with _methods_kept("first-open"):
                from .lsp import first_open  # lazy: the analysis layers, imported while `initialize` is answered

            imports = "server-cli"  # (what `first_open` did not import: a cache of its own)
            # Imported on a thread once the first diagnostics are sent: the session answers the
            # document's edits meanwhile.
            first_open.serve(early.started, sys.stdin.fileno(), sys.stdout.buffer, lambda: _import_server(imports))
    if "hcljson_ls.cli" not in sys.modules:  # (else imported on `first_open`'s thread)
        with _methods_kept(imports):
            from . import cli  # noqa: F401  # lazy: every layer; imported while the early reader answers
    from .cli import main as cli_main  # lazy: imported above

    return cli_main(argv)


def _import_server(imports: str) -> None:
    """Import `cli` (every layer, with the methods cache `imports`), then the server, and make it
    (`cli.prepare_server`); what fails is left to what follows `first_open.serve`, which does it
    again (and fails the same way). With the cyclic collector paused (`gcpolicy.paused_gc`): a full
    collection, which the import's allocations started about 0.1 s in, held the interpreter 12-15 ms
    at 50 KB (every object of the session too), which an edit sent then waited for."""
    from .gcpolicy import paused_gc  # lazy: as the import below (gc and contextlib only)

    try:
        with paused_gc():
            with _methods_kept(imports):
                from . import cli  # lazy: imported while `first_open` answers

            cli.prepare_server()
    except Exception:
        pass


def _methods_kept(name: str) -> AbstractContextManager:
    """The dataclasses' methods of an import, compiled once per machine (`compiled_methods`: a third
    of the analysis layers' import)."""
    from .compiled_methods import kept_in_user_cache  # lazy: as every import here, after the early reader started

    return kept_in_user_cache(name, "dataclasses")
