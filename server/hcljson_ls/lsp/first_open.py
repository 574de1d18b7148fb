"""The first document's diagnostics before the server is imported (issue 22 §4: start-up).

    serve(early, stdin_fd, stdout, importer=None) -> None     go on from `lsp.early`'s answered `initialize`;
                                               sets `handoff.first`; runs `importer` on a thread meanwhile
    First                                      what was answered and pushed (for `lsp.server` to take over)
    folders(folder_uris, root_uri, root_path) -> paths     the workspace folders `initialize` gives

Contract
--------
Importing pygls and lsprotocol (~1,000 attrs classes) is about two thirds of the server's start-up;
the first diagnostics need neither. `hcljson_ls.entry` imports this module (the analysis layers
and `lsp.diagnostic_forms`) while `lsp.early` answers `initialize`, then calls `serve`, which
reads on (on the main thread) as long as the messages are the ones an editor sends to open its first
document, and answers them the way the server does:

* ``initialized``: nothing to do here;
* ``textDocument/didOpen`` of the first document: opened in a `workspace.Workspace` made as the
  server makes its own (`initialize`'s folders and `initializationOptions` settings, through
  `config.settings_from` and `config.configure_workspace`); pushed at once (`publishDiagnostics`
  with its version) to a client that does not pull: the first answer;
* ``textDocument/diagnostic`` for that document (no ``previousResultId``): answered with the
  report the server would give (`diagnostic_forms.document_forms`, `ResultIds`): the first answer;
  it ends the session, unless `serve` was given an `importer` (the server's import:
  `hcljson_ls.entry`);
* other document requests (``textDocument/...``: they read, nothing changes), ``$/cancelRequest``
  and ``$/setTrace``: read past, left to the server (an editor asks for a new document's symbols,
  folding ranges, semantic tokens... around its diagnostics; some are answered here once the first
  answer is sent: below). JSON-RPC lets responses come in any order.

With an `importer`, the first answer starts it on a thread, and the session goes on until the
import ends with no message waiting (issue 21 §2: the first edit never waits; an edit sent as the
first diagnostics arrive waited for the import, ~0.35 s, 1.7x the peer's edit at 5 MB):

* ``textDocument/didChange`` of that document: applied to its workspace (`Workspace.change`),
  as the server applies it. A document request read past before it was asked of the text before
  the edit: it is answered "content modified" (LSP's -32801, which a client asks again after);
* ``textDocument/diagnostic`` for that document: answered as the server answers a pull
  (`diagnostic_forms.pull_json`: "unchanged" for the result id the client holds);
* to a client that does not pull, the edits' diagnostics are pushed as the server pushes them
  (`lsp.publish`): ``debounceMs`` after the last edit, unless they are those pushed last. One
  still due when the session ends is the server's: it pushes on the `didOpen` it is handed (below);
* the other messages as before.

Once the document is open, a ``textDocument/hover`` and a ``textDocument/completion`` of it are
answered too, as the server answers them (`hover_json`, `completion_json`: with the client's
``snippetSupport`` and the settings of `initialize`); ``completionItem/resolve`` is read past.
Once the first answer is sent, so are its ``documentSymbol``, ``foldingRange`` and
``semanticTokens/full`` (`document_json.whole_document_json`, with the client's capabilities),
those read before it first: what an editor asks of a document as it opens it. Only for a document
shorter than `WHOLE_DOCUMENT_SIZE`: the edits read after them wait for them here, and a longer
one's take more than §2's 50 ms (the server answers those after the import).

The import runs Python code on the other thread; this one takes the interpreter back within a
switch interval (`switch_interval`) when a message comes. Nothing else waits between the first
answer and the next message: the builders of the answers above are imported by that thread first
(a request that needs them waits for them), and the quick open's decoded blocks
(`Workspace.leftovers`) are freed a few at a time while no message waits (those left when the
session ends, by the server).

Anything else ends the session without an answer: another message (one that may change the
server's state: a method not listed, an edit before the first answer or of another document, a
second document; a malformed message, a framing problem, the end of input), settings with problems
or with provider schema files (the server reports and loads those), a document over
``maxFileSizeMB``, a document not ours, schema problems, an exception; and no message within `IDLE`
seconds (the server then imports at once, as before), or with an `importer`, none waiting when the
import has ended. Windows pipes cannot be waited on with `select`: no session there.

Nothing is lost, reordered or answered twice: every message read stays in the handoff
(`lsp.early.Handoff`), and the server handles all of them from the first, in order, as if nothing
had been answered (but for the edits applied here: below); `First` tells it what was:
`lsp.protocol` drops its own responses to the
requests answered here (logging an error when one differs), the server's last-pushed list for the
document is the one pushed here (so the same list is not pushed twice), and it goes on with the
`ResultIds` used here (so its answer's `resultId` is the one the client holds). The analysis is the
server's own functions: this module decides nothing about diagnostics.

The edits applied here are not applied again: when the session ends, the `didOpen` in the handoff
is made the document as it is now (its text and version), and the edits applied and the requests
answered here (hovers, completions, and those answered "content modified") leave the handoff; the server then handles the rest as above, and its
answers to the pulls answered here, which it no longer computes on the state they were asked of,
are dropped unchecked (`First.unchecked`). After an exception, or when the edits took the document
past ``maxFileSizeMB`` (which the server checks when a document is opened), the handoff is left
whole: the server applies every edit again, from the `didOpen` as the client sent it, in a
workspace of its own.

Nothing is analysed or decoded twice (session 10): the server goes on with the `Workspace` the
document was opened in here (`First.store`, `HcljsonServer.adopt_store`; its `didOpen` then finds
the document open as it is: `Workspace.open`), and each message decoded here is handed over as
its value (`framing.Decoded`), its bytes let go. After an unexpected exception the server starts
from a workspace of its own.
"""

from __future__ import annotations

import json
import logging
import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, BinaryIO

from ..cache_dir import user_cache_dir
from ..gcpolicy import paused_gc
from ..hcljson import similar
from ..template.grammars import set_table_cache
from ..workspace import Workspace
from ..workspace.files import MB, file_name, path_of_uri, too_large, utf8_size
from . import memory_marks
from .config import DEFAULT, configure_workspace, settings_from
from .diagnostic_forms import Forms, ResultIds, document_forms, publish_json, pull_json
from .early import CHUNK, Early, Handoff
from .framing import Body, Decoded
from .rawjson import RawJSON

log = logging.getLogger(__name__)

#: How long (seconds) the session waits for the next message before leaving the rest to the server.
IDLE = 0.1
#: While the server is imported on a thread: how often (seconds) the session looks whether it is.
POLL = 0.005
#: How many leftovers (skimmed blocks, each with its decoded value) the session frees at a time,
#: between two looks for a message (`_read`), as the server frees them (`FREED_AT_ONCE`).
FREED_AT_ONCE = 256
#: LSP's "content modified" error: a request asked of a state an edit has changed since.
CONTENT_MODIFIED = -32801
#: The longest document (characters) whose symbols, folding ranges and semantic tokens the session
#: answers: the three take ~50 ms at this size, the tree built first (in-process, session 23: 47 ms
#: at 131,000 characters, 88 ms at 218,000, 510 ms at 1,000,000).
WHOLE_DOCUMENT_SIZE = 131_072


@dataclass
class First:
    """What the session sent before the server was imported."""

    answered: dict[int | str, Any] = field(default_factory=dict)  # request id -> the result sent (`RawJSON`), or None
    pushed: dict[str, list[str]] = field(default_factory=dict)  # uri -> the diagnostics' forms pushed last
    result_ids: ResultIds = field(default_factory=ResultIds)
    store: Workspace | None = None  # the workspace the document was opened in: the server's from now on
    unchecked: set[int | str] = field(default_factory=set)  # answered: the server's answer is not compared
    edits: int = 0  # how many edits were applied (and their diagnostics answered) before the import ended
    requests: int = 0  # how many hovers and completions were answered
    documents: int = 0  # how many symbols, folding ranges and semantic tokens requests were answered
    pushes: int = 0  # how many times the edited document's diagnostics were pushed (to a client that does not pull)


def folders(folder_uris: list[str] | None, root_uri: str | None, root_path: str | None) -> list[str]:
    """The workspace folders of `initialize`: its ``workspaceFolders``, else ``rootUri``, else ``rootPath``."""
    if folder_uris:
        return [p for uri in folder_uris if (p := path_of_uri(uri))]
    if root_uri:
        path = path_of_uri(root_uri)
        return [path] if path else []
    return [root_path] if root_path else []


class _Stop(Exception):
    """The session ends here; the server handles everything read."""


def serve(early: Early, stdin_fd: int, stdout: BinaryIO, importer: Callable[[], object] | None = None) -> None:
    """Answer the first document's diagnostics when the client asks for them at once, and with
    `importer`, its edits' diagnostics while `importer` runs on a thread (see above); returns once
    that thread has ended."""
    if os.name != "posix" or not early.read_first(IDLE):
        return
    handoff = early.handoff
    if handoff.answered_id is None:
        return
    handoff.first = First()
    session: _Session | None = None
    try:
        session = _Session(handoff, handoff.first, stdin_fd, stdout, importer)
        try:
            session.run()
        except _Stop:
            pass
        session.hand_over()
    except _Stop:
        pass
    except Exception:  # the server handles it all again, and logs what fails then
        log.debug("the first document's early diagnostics failed", exc_info=True)
        handoff.first.store = None  # (in a state nobody can vouch for: the server starts afresh)
    finally:
        if session is not None:
            session.wait_for_import()


class _Session:
    def __init__(self, handoff: Handoff, first: First, stdin_fd: int, stdout: BinaryIO,
                 importer: Callable[[], object] | None = None) -> None:
        self.handoff, self.first, self.stdin_fd, self.stdout = handoff, first, stdin_fd, stdout
        self.importer = importer
        self.importing: threading.Thread | None = None  # the import, once the first answer is sent
        # Set once that thread has imported the builders of the answers (`_answer_builders`), its first work.
        self.builders_ready: threading.Event | None = None
        self.forms = Forms()  # (kept from pull to pull, as the server keeps them)
        self.opened_at = -1  # the index of the document's `didOpen` in the handoff's events
        self.applied: list[int] = []  # the indices of the edits applied here
        # requests left to the server: (index, id, method when asked of this document, else "")
        self.read_past: list[tuple[int, int | str, str]] = []
        self.modified: list[int] = []  # the indices of those answered "content modified"
        self.requested: list[int] = []  # the indices of the hovers and completions answered here
        assert isinstance(handoff.events[0], Body) and handoff.answer is not None
        self.params = json.loads(handoff.events[0].data)["params"]
        self.encoding = handoff.answer["capabilities"]["positionEncoding"]
        self.settings, problems = settings_from(self.params.get("initializationOptions"), DEFAULT)
        if problems or self.settings.provider_schemas.files:
            raise _Stop  # the server says what is wrong; schema files load in its background
        pulls = _path(self.params, "capabilities", "textDocument", "diagnostic") is not None
        mode = self.settings.diagnostics.push
        self.pushes = mode == "always" or (mode == "auto" and not pulls)
        self.store: Workspace | None = None
        self.uri: str | None = None
        self.publish_at: float | None = None  # (`time.monotonic`) when the edits' diagnostics are due, pushing

    def run(self) -> None:
        for index, message in self._messages():
            method = message.get("method")
            if method == "initialized" and "id" not in message:
                continue
            if method == "textDocument/didOpen" and "id" not in message and self.uri is None:
                self.opened_at = index
                self._open(_path(message, "params", "textDocument"))
            elif (method == "textDocument/diagnostic" and self.uri is not None
                  and _is_pull(message, self.uri, first=self.importing is None)):
                self._pull(message)
                if self.importing is None:  # the first answer
                    self._start_import()
            elif (self.importing is not None and method == "textDocument/didChange" and "id" not in message
                  and _path(message, "params", "textDocument", "uri") == self.uri):
                self._change(index, message["params"])
            elif (method in _ANSWERED and self.uri is not None and _request_id(message) is not None
                  and _path(message, "params", "textDocument", "uri") == self.uri
                  and (position := _position(_path(message, "params", "position"))) is not None):
                self._answer(index, message["id"], method, position)
            elif (self.importing is not None and method in _WHOLE_DOCUMENT and _request_id(message) is not None
                  and _path(message, "params", "textDocument", "uri") == self.uri and self._small()):
                self._answer_whole(index, message["id"], method)
            elif not _leaves_state(message):
                return
            elif "id" in message:  # (its method kept when it asks of this document: `_start_import`)
                mine = _path(message, "params", "textDocument", "uri") == self.uri and _request_id(message) is not None
                self.read_past.append((index, message["id"], method if mine else ""))

    def _start_import(self) -> None:
        """Once the first answer is sent: start the server's import on a thread, or without an
        importer, end the session."""
        if self.importer is None:
            raise _Stop
        similar.prepare_soon()  # (the importer, `cli.prepare_server`, imports them last: few names by difflib meanwhile)
        ready = self.builders_ready = threading.Event()
        importer = self.importer

        def imports() -> None:
            try:  # (first: a hover, a completion or a whole-document request waits for them)
                _answer_builders()
            except Exception:
                pass  # (the session's own `_answer_builders` raises it again: the session ends)
            finally:
                ready.set()
            importer()

        self.importing = threading.Thread(target=imports, name="hcljson-import", daemon=True)
        self.importing.start()
        if self._small():  # the symbols, folding ranges... asked with the diagnostics: answered after them
            for at, msg_id, method in [r for r in self.read_past if r[2] in _WHOLE_DOCUMENT]:
                self.read_past.remove((at, msg_id, method))
                self._answer_whole(at, msg_id, method)

    def _pull(self, message: dict[str, Any]) -> None:
        """Answer a pull of the document's diagnostics as the server does."""
        assert self.uri is not None
        previous = _path(message, "params", "previousResultId")
        text = pull_json(self.first.result_ids, self.uri, self._diagnostics(), previous).text
        self._send({"id": message["id"]}, "result", text)
        if self.importing is None:  # (as text: read only if the server's answer is another text)
            self.first.answered[message["id"]] = RawJSON(text)
        else:  # (made after an edit: the server's answer is not compared with it)
            self.first.answered[message["id"]] = None
            self.first.unchecked.add(message["id"])

    def _answer(self, index: int, msg_id: int | str, method: str, position: tuple[int, int]) -> None:
        """Answer a hover or a completion of the document as the server does."""
        assert self.store is not None and self.uri is not None
        hover_json, completion_json, _ = self._builders()
        with paused_gc():
            if method == "textDocument/hover":
                found = hover_json(self.store, self.uri, *position, self.encoding)
            else:
                snippets = bool(_path(self.params, "capabilities", "textDocument", "completion", "completionItem",
                                      "snippetSupport"))
                found = completion_json(self.store, self.uri, *position, self.encoding, snippets,
                                        self.settings.completion.prefill_required)
        self._answered(index, msg_id, found)
        self.first.requests += 1

    def _builders(self) -> tuple[Callable[..., Any], Callable[..., Any], ModuleType]:
        """`_answer_builders`: imported here before the import starts, else by its thread first
        (waited for here: importing one module on both threads at once may deadlock on their import
        locks)."""
        if self.builders_ready is not None:
            self.builders_ready.wait()
        return _answer_builders()

    def _small(self) -> bool:
        """Whether the document is one whose symbols, folding ranges and semantic tokens are answered
        here: at most `WHOLE_DOCUMENT_SIZE` long."""
        assert self.store is not None and self.uri is not None
        state = self.store.get(self.uri)
        return state is not None and len(state.document.buffer) <= WHOLE_DOCUMENT_SIZE

    def _answer_whole(self, index: int, msg_id: int | str, method: str) -> None:
        """Answer a request for the document's symbols, folding ranges or semantic tokens as the
        server does (`document_json.whole_document_json`)."""
        assert self.store is not None and self.uri is not None
        with paused_gc():
            found = self._builders()[2].whole_document_json(
                self.store, self.uri, method, _path(self.params, "capabilities", "textDocument"),
                self.settings.symbols.group_by_construct_path, self.encoding)
        self._answered(index, msg_id, found)
        self.first.documents += 1

    def _answered(self, index: int, msg_id: int | str, result: Any) -> None:
        """Send `result` (JSON data) to request `msg_id`, the handoff's event `index`, which then
        leaves the handoff (`hand_over`); the server's own answer to it is not compared."""
        self._send({"id": msg_id}, "result", json.dumps(result))
        self.first.answered[msg_id] = None
        self.first.unchecked.add(msg_id)
        self.requested.append(index)

    def _change(self, index: int, params: dict[str, Any]) -> None:
        """Apply an edit of the document, as the server does: the requests read past before it were
        asked of the text before it, and are answered "content modified"."""
        version = _path(params, "textDocument", "version")
        changes = params.get("contentChanges")
        if not (isinstance(version, int) and not isinstance(version, bool) and isinstance(changes, list)
                and all(isinstance(c, dict) for c in changes)):
            raise _Stop  # the server says what is wrong with it
        for at, msg_id, _ in self.read_past:
            self._send({"id": msg_id}, "error", json.dumps({"code": CONTENT_MODIFIED, "message": "Content modified"}))
            self.first.answered[msg_id] = None
            self.first.unchecked.add(msg_id)
            self.modified.append(at)
        self.read_past = []
        assert self.store is not None and self.uri is not None
        self.applied.append(index)  # (before: an exception on the way leaves the handoff whole)
        with paused_gc():
            self.store.change(self.uri, version, changes, self.encoding)
        self.first.edits += 1
        if self.pushes:  # (debounced as `Publisher.schedule`: a burst of edits is pushed once)
            self.publish_at = time.monotonic() + self.settings.diagnostics.debounce_ms / 1000

    def _publish_if_due(self) -> None:
        """Push the document's diagnostics once `debounceMs` have passed since the last edit, unless
        they are the ones pushed last (as the server's `_send_diagnostics`)."""
        if self.publish_at is None or time.monotonic() < self.publish_at:
            return
        self.publish_at = None
        assert self.store is not None and self.uri is not None
        state = self.store.get(self.uri)
        assert state is not None
        items = self._diagnostics()
        if items != self.first.pushed.get(self.uri):
            self._send({"method": "textDocument/publishDiagnostics"}, "params",
                       publish_json(self.uri, state.version, items).text)
            self.first.pushed[self.uri] = items
            self.first.pushes += 1

    def hand_over(self) -> None:
        """Leave the handoff as the server is to handle it: the requests answered here taken out, and
        when edits were applied here, the `didOpen` made the document as it is now, and the edits
        and the requests answered "content modified" taken out (see above)."""
        gone = list(self.requested)
        if self.applied and self.store is not None and self.uri is not None:
            state = self.store.get(self.uri)
            assert state is not None
            limit = self.settings.max_file_size_mb * MB
            if too_large(file_name(self.uri) or self.uri, utf8_size(state.text, limit), limit) is not None:
                # (opened at this size, the server would not analyse it: it applies the edits itself)
                self.first.store = None
                self.first.unchecked.update(self.first.answered)
                return
            events = self.handoff.events
            opened = events[self.opened_at]
            assert isinstance(opened, Decoded) and isinstance(opened.value, dict)
            doc = opened.value["params"]["textDocument"]
            events[self.opened_at] = Decoded({**opened.value, "params": {"textDocument": {
                **doc, "version": state.version, "text": state.text}}})
            gone += [*self.applied, *self.modified]
            self.first.unchecked.update(self.first.answered)  # (each asked of a state the server no longer replays)
        for at in sorted(gone, reverse=True):
            del self.handoff.events[at]

    def wait_for_import(self) -> None:
        if self.importing is not None:
            self.importing.join()

    def _messages(self):
        """The messages after `initialize`, read as they come (JSON objects of JSON-RPC 2.0), each
        with its index in the handoff's events."""
        events, index = self.handoff.events, 1
        while True:
            while index == len(events):
                self._publish_if_due()
                if self.handoff.ended or not self._read():
                    return
            event, index = events[index], index + 1
            if not isinstance(event, Body):
                return
            try:
                message = json.loads(event.data)
            except (ValueError, RecursionError):
                return
            if memory_marks.ENABLED and len(event.data) > (1 << 20):
                memory_marks.mark(f"first_open.decoded ({len(event.data)} bytes)")
            events[index - 1] = Decoded(message)  # the server takes the value: its bytes go, it is not decoded twice
            del event  # (not kept through the open of a large document)
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                return
            yield index - 1, message

    def _read(self) -> bool:
        """Read what comes into the handoff; False when nothing came within `IDLE`, or while the
        server is imported, when nothing waits and the import has ended."""
        try:
            while True:
                leftovers = self.store.leftovers if self.store is not None else None
                wait = 0 if leftovers else IDLE if self.importing is None else POLL
                ready, _, _ = select.select([self.stdin_fd], [], [], wait)
                if ready:
                    break
                self._publish_if_due()
                if leftovers:  # (nothing waits: a few of them freed, then a look again)
                    del leftovers[-FREED_AT_ONCE:]
                    continue
                if self.importing is None or not self.importing.is_alive():
                    return False
            chunk = os.read(self.stdin_fd, CHUNK)
        except (OSError, ValueError):
            return False
        if not chunk:
            self.handoff.events.append(None)
        else:
            self.handoff.events.extend(self.handoff.frames.feed(chunk))
        return True

    def _open(self, doc: Any) -> None:
        if not (isinstance(doc, dict) and isinstance(uri := doc.get("uri"), str) and isinstance(text := doc.get("text"), str)
                and isinstance(language := doc.get("languageId"), str)
                and isinstance(version := doc.get("version"), int) and not isinstance(version, bool)):
            raise _Stop
        limit = self.settings.max_file_size_mb * MB
        if too_large(file_name(uri) or uri, utf8_size(text, limit), limit) is not None:
            raise _Stop  # the server says so (`lsp.limits`)
        set_table_cache(user_cache_dir("parser-tables"))  # as `cli.run_server`: the template parsers' tables
        store = self.store = Workspace()
        store.leftovers = []  # freed a few at a time while no message waits (`_read`), as the server frees them
        params = self.params
        uris = [f.get("uri") for f in params.get("workspaceFolders") or () if isinstance(f, dict)]
        store.set_folders(folders([u for u in uris if isinstance(u, str)] or None, params.get("rootUri"), params.get("rootPath")))
        if self.settings != DEFAULT:  # as `HcljsonServer.apply_settings`: a fresh workspace has the defaults
            configure_workspace(store, self.settings)
        with paused_gc():
            if store.open(uri, text, version, language) is None:
                raise _Stop
            self.first.store = store  # the server goes on with it: its didOpen finds the document open
            if memory_marks.ENABLED:  # the quick open, apart from the diagnostics that would compute it
                memory_marks.mark("first_open.opened")
                (state := store.get(uri)) is not None and state.quick()
                memory_marks.mark("first_open.quick")
        self.uri = uri
        if self.pushes:
            items = self._diagnostics()
            self._send({"method": "textDocument/publishDiagnostics"}, "params", publish_json(uri, version, items).text)
            self.first.pushed[uri] = items
            self._start_import()  # (as after the first answer to a pull)

    def _diagnostics(self) -> list[str]:
        assert self.store is not None and self.uri is not None
        if not self.settings.diagnostics.enable:
            return []
        with paused_gc():
            items = document_forms(self.store, self.uri, self.settings.diagnostics, self.forms, self.encoding)
        memory_marks.mark("first_open.diagnostics")
        if self.store.schema_problems():
            raise _Stop  # the server shows them
        return items

    def _send(self, head: dict[str, Any], name: str, raw: str) -> None:
        """Write a message whose `name` member is the JSON text `raw`, framed as `lsp.protocol` frames."""
        body = f'{{"jsonrpc": "2.0", {json.dumps(head)[1:-1]}, "{name}": {raw}}}'.encode()
        header = f"Content-Length: {len(body)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        try:
            self.stdout.write(header.encode("ascii") + body)
            self.stdout.flush()
        except (OSError, ValueError):
            raise _Stop from None  # the client is gone: the server finds out


def _answer_builders() -> tuple[Callable[..., Any], Callable[..., Any], ModuleType]:
    """`hover_json`, `completion_json` and `document_json`, imported when first needed: after the
    first answer, not before it (`features.completion` is ~18 ms of this module's ~200 ms import,
    which the first diagnostics wait for); once the server's import has started, by its thread,
    first (`_Session._builders`): ~10 ms that the first edit, sent as the first diagnostics arrive,
    no longer waits for."""
    from . import document_json  # lazy: after the first answer (see above)
    from .completion_json import completion_json  # lazy: after the first answer (see above)
    from .hover_json import hover_json  # lazy: after the first answer (see above)

    return hover_json, completion_json, document_json


#: The document requests answered here (the others are read past): at a position, and whole-document
#: ones (`document_json.WHOLE_DOCUMENT_METHODS`, once the first answer is sent, of a small document).
_ANSWERED = frozenset({"textDocument/hover", "textDocument/completion"})
_WHOLE_DOCUMENT = frozenset({"textDocument/documentSymbol", "textDocument/foldingRange",
                             "textDocument/semanticTokens/full"})


def _leaves_state(message: dict[str, Any]) -> bool:
    """Whether the server's state after `message` is the one before it: a document request or a
    completion item's resolve (they only read), a cancel or a trace setting. The session reads past those (they are the server's to
    answer, in order, after the first diagnostics): an editor asks for symbols, folding ranges and
    semantic tokens of the document it opens, before or after its diagnostics."""
    method = message.get("method")
    if not isinstance(method, str):
        return False
    if "id" in message:
        return method.startswith("textDocument/") or method == "completionItem/resolve"
    return method in ("$/cancelRequest", "$/setTrace")


def _is_pull(message: dict[str, Any], uri: str, first: bool) -> bool:
    """Whether `message` pulls `uri`'s diagnostics (the `first`: with no ``previousResultId``)."""
    msg_id = message.get("id")
    params = message.get("params")
    previous = params.get("previousResultId") if isinstance(params, dict) else None
    return (isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) and isinstance(params, dict)
            and _path(params, "textDocument", "uri") == uri
            and (previous is None if first else previous is None or isinstance(previous, str)))


def _request_id(message: dict[str, Any]) -> int | str | None:
    msg_id = message.get("id")
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None


def _position(value: Any) -> tuple[int, int] | None:
    """An LSP `Position`'s line and character, when it is one."""
    if not isinstance(value, dict):
        return None
    line, character = value.get("line"), value.get("character")
    if (isinstance(line, int) and isinstance(character, int) and not isinstance(line, bool)
            and not isinstance(character, bool) and line >= 0 and character >= 0):
        return line, character
    return None


def _path(value: Any, *names: str) -> Any:
    for name in names:
        value = value.get(name) if isinstance(value, dict) else None
    return value
