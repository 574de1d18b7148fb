"""pygls's LSP protocol, minus its text store, plus our position-encoding negotiation.

Contract
--------
pygls 2.1's `LanguageServerProtocol` handles `textDocument/didOpen`, `didChange` and `didClose`
itself before calling ours: it stores every document in its `Workspace`, and its incremental
`didChange` rebuilds the whole text (from its lines) for every change, so a keystroke costs time
proportional to the document size. `HcljsonProtocol` replaces those three built-in handlers with
ones that only call the server's handler, so pygls keeps no copy of any document; the server's
`workspace.Workspace` (`server.store`) is the only one. Nothing in this package reads pygls's
`server.workspace` documents.

`initialize` picks the position encoding with `text.negotiate_encoding` (the client's first
supported choice, else UTF-16), stores it as `server.position_encoding`, and advertises it in the
result's `capabilities.positionEncoding`.

A request whose params cannot be read (of the wrong type: ``"line": "zero"``) is answered with the
JSON-RPC error pygls raised for it (`InvalidParams`), instead of only being logged, which left the
client waiting for an answer forever; such a notification is logged and dropped. A client's response
that cannot be read fails the server's request it answers (its waiter is not left hanging).

Receiving (`receive`, fed whole bodies by `lsp.transport`)
-----------------------------------------------------------
Every message that is not a valid notification gets an answer, as JSON-RPC 2.0 says, with a plain
message and never a traceback:

* a body that is not JSON (or not UTF-8): Parse error (-32700), id null;
* valid JSON that is no message: Invalid Request (-32600), with the message's id when it has a
  readable one, else null: a batch (LSP has none), a message without ``"jsonrpc": "2.0"``, a method
  that is not a string, an id that is neither a number nor a string, neither request, notification
  nor response; a body nested deeper than Python's JSON reader goes (`RecursionError`), id null;
* the lifecycle (LSP 3.17 "Server lifetime"): before `initialize`, a request is answered
  ServerNotInitialized (-32002) and a notification dropped (``exit`` excepted); `initialize` is
  always answered, a second one with Invalid Request; after `shutdown`, a request is answered Invalid
  Request and a notification dropped; ``exit`` ends the server with status 0 after `shutdown`, 1
  without (`on_exit` is told the status: the transport stops and `cli` exits with it);
* an error response made from an unexpected exception (pygls's `JsonRpcInternalError` carries the
  traceback in ``data``) goes out as Internal Error with a plain message: the log has the details.

Routine protocol events (a cancel for a request already answered, an unknown ``$/`` notification,
a handler's deliberate error answer such as a refused rename) are logged at debug level: clients such
as Neovim show any warning in their log as an error.

Sending: a response's result or a notification's params that is a `RawJSON` (JSON already written
as text: diagnostics, `lsp.diagnostic_forms`) is spliced into the message as it is, instead of being
unstructured by cattrs and serialised again; one that is a `convert.Json` (a result in its JSON
shape: symbols, folding ranges, completion lists) is written by msgspec (`encoded`), or by `json`
for what msgspec refuses. The header counts the body's bytes.

A request answered before the server was imported (`answered_early`: `initialize` by `lsp.early`,
the first document's diagnostics by `lsp.first_open`) is handled as any other, and its response is
not sent: an error is logged when it differs from the early answer, unless that answer was given
for a state the server no longer replays (`check=False`: `lsp.first_open` applied edits after it,
or answered it "content modified").

Warming (`warm_steps`): cattrs writes and compiles the function that structures a message type when
the first message of that type arrives. The server makes them in the background after `initialized`
instead, one a step, so that the first edit, hover or completion does not wait for it.

`$/cancelRequest` of a `workspace/executeCommand` cancels the command's handler (an async one sees
`asyncio.CancelledError`), not only the reply (`_run_generator`).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import msgspec
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from ..text.encodings import negotiate_encoding
from . import memory_marks, timing
from .convert import Json
from .rawjson import RawJSON

if TYPE_CHECKING:
    from collections.abc import Generator

log = logging.getLogger(__name__)

#: What an internal error says to the client (the traceback goes to the log only).
INTERNAL_ERROR_MESSAGE = "Internal error: the server failed on this request (its log has the details)."


def decode_body(body: bytes) -> Any:
    """A message body's JSON value, exactly as `json.loads` reads it: msgspec's where msgspec reads
    the body, else `json.loads`'s (value or error). msgspec refuses what `json` reads and it does
    not take for JSON (NaN, numbers past a float's range, lone surrogates, escaped or encoded,
    UTF-16 and UTF-32 bodies). Both keep the last of repeated keys and read integers of any length;
    deep nesting raises `RecursionError` in both, at the interpreter's limit
    (tests/lsp/test_protocol_decode.py).

    Why: a `didOpen` is mostly one long string, and msgspec unescapes it ~2x faster (the best of 5,
    session 20: a 5 MB document's message 5.2 against 10.9 ms, 20 MB 21.6 against 45.1 ms).
    (orjson, as fast, reads an integer past 64 bits as a float.)"""
    try:
        return _DECODER.decode(body)
    except ValueError:  # (msgspec's DecodeError, and UnicodeDecodeError: its UTF-8 is strict)
        return json.loads(body)


_DECODER = msgspec.json.Decoder()


def _readable_id(value: Any) -> int | str | None:
    """A message's id as JSON-RPC allows it (a number or a string), else None."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def message_problem(data: Any) -> tuple[int | str | None, str] | None:
    """Why decoded JSON `data` is no JSON-RPC 2.0 message, with the id to answer with; None when it is one."""
    if isinstance(data, list):
        return None, "Invalid Request: a batch (JSON array) of messages; LSP sends one message at a time."
    if not isinstance(data, dict):
        return None, "Invalid Request: a message must be a JSON object."
    msg_id = _readable_id(data.get("id"))
    if data.get("jsonrpc") != "2.0":
        return msg_id, 'Invalid Request: a message must have "jsonrpc": "2.0".'
    if "method" in data:
        if not isinstance(data["method"], str):
            return msg_id, "Invalid Request: a method must be a string."
        if "id" in data and msg_id is None:
            return None, "Invalid Request: an id must be a number or a string."
        return None
    if "id" in data and ("result" in data or "error" in data):
        return None
    return msg_id, "Invalid Request: neither a request, a notification nor a response."


#: msgspec's JSON writer (`encoded`).
_ENCODER = msgspec.json.Encoder()


def encoded(value: Any) -> bytes:
    """`value` (JSON data: a `convert.Json`'s) as UTF-8 JSON text: by msgspec, ~4x `json.dumps`
    (the symbols of a 5 MB document, 14 MB of JSON: 90 against 335 ms, session 21); by `json` what
    msgspec refuses (a lone surrogate, which `json` writes as an escape)."""
    try:
        return _ENCODER.encode(value)
    except (msgspec.EncodeError, TypeError, ValueError):  # (UnicodeEncodeError is a ValueError)
        return json.dumps(value).encode()


class HcljsonProtocol(LanguageServerProtocol):
    #: Told the exit status when `exit` arrives (set by the transport).
    on_exit: Callable[[int], None] | None = None
    #: The exit status once `exit` has arrived.
    exit_code: int | None = None
    initialized = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Requests answered before the server was imported: their results, and whether to compare ours.
        self._early: dict[int | str, tuple[Any, bool]] = {}

    # -- receiving --------------------------------------------------------------------------------

    def receive(self, body: bytes) -> None:
        """Handle one message body (see "Receiving" above); never raises."""
        if timing.ENABLED:
            timing.receiving(len(body))
        try:
            data = decode_body(body)
        except RecursionError:
            log.warning("a message nested too deeply to read (%d bytes)", len(body))
            return self._refuse(None, JsonRpcInvalidRequest("Invalid Request: the message is nested too deeply."))
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
            log.warning("a message that is not JSON: %s", error)
            return self._refuse(None, JsonRpcParseError(f"Parse error: {error}"))
        self.receive_value(data)

    def warm_steps(self, methods: Iterable[str]) -> Iterator[None]:
        """Make the converter's structure hook for the message of each of `methods` (its nested
        types with it), one a step, before a message of it arrives (module doc, "Warming").

        Why: the first `didChange` through the server spent 5.0 ms being structured, the next ones
        0.25 ms: half of the first edit of a 50 KB document (10.4 ms, the next ones 2.2-3.2 ms;
        session 20). The first of each other kind costs 1-5 ms, 34 methods ~60 ms in all."""
        for method in methods:
            message_type = self.get_message_type(method)
            if message_type is not None:
                self._converter.get_structure_hook(message_type)
                yield

    def receive_value(self, data: Any) -> None:
        """Handle one message body's decoded JSON value (`receive`, or `lsp.first_open` that decoded it); never raises."""
        if (problem := message_problem(data)) is not None:
            log.warning("%s", problem[1])
            return self._refuse(problem[0], JsonRpcInvalidRequest(problem[1]))
        try:
            message = self.structure_message(data)
        except JsonRpcException as error:  # a request is answered by `structure_message`
            log.warning("unreadable %s: %s", data.get("method", "message"), error.message)
            return
        except RecursionError:
            log.warning("a message nested too deeply to read")
            return self._refuse(_readable_id(data.get("id")), JsonRpcInvalidRequest("Invalid Request: the message is nested too deeply."))
        try:
            self.handle_message(message)
        except Exception:
            log.exception("handling %s failed", data.get("method", "a response"))

    def _refuse(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        self._send_response(msg_id, error=error.to_response_error())

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        if method == types.EXIT or method is None:
            return super().handle_message(message)
        if self._shutdown:
            if is_request:
                self._refuse(message.id, JsonRpcInvalidRequest(f"Invalid Request: {method} after shutdown."))
            else:
                log.debug("dropped %s after shutdown", method)
            return
        if method == types.INITIALIZE:
            if self.initialized and is_request:
                return self._refuse(message.id, JsonRpcInvalidRequest("Invalid Request: initialize was already received."))
            self.initialized = True
        elif not self.initialized:
            if is_request:
                self._refuse(message.id, JsonRpcServerNotInitialized(f"The server is not initialized: {method} before initialize."))
            else:
                log.debug("dropped %s before initialize", method)
            return
        known = method in self.fm.features or method in self.fm.builtin_features or method == types.CANCEL_REQUEST
        if method.startswith("$/") and not is_request and not known:
            log.debug("ignored %s", method)  # optional notifications: not worth a warning
            return
        super().handle_message(message)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            log.debug("cancel for request %s, already answered", msg_id)  # routine: no warning
        elif future.cancel():
            log.debug("cancelled request %s", msg_id)

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        # A handler's deliberate error answer (a refused rename, InvalidParams) is routine: answered,
        # logged at debug; pygls logged each one with a traceback at error level.
        if future.done() and not future.cancelled() and isinstance(error := future.exception(), JsonRpcException):
            self._request_futures.pop(msg_id, None)
            log.debug("request %s answered with error %s: %s", msg_id, error.code, error.message)
            self._send_response(msg_id, error=error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_data(self, data: Any) -> None:
        self._write_data(data)
        self._server.free_leftovers_soon()  # type: ignore[attr-defined]

    def _write_data(self, data: Any) -> None:
        raw, field = getattr(data, "result", None), "result"
        if not isinstance(raw, (RawJSON, Json)):
            raw, field = getattr(data, "params", None), "params"
        if not isinstance(raw, (RawJSON, Json)) or self.writer is None:
            super()._send_data(data)
            return
        head = {"id": data.id} if field == "result" else {"method": data.method}
        value = raw.text.encode() if isinstance(raw, RawJSON) else encoded(raw.value)
        body = b"".join((b'{"jsonrpc": "2.0", ', json.dumps(head)[1:-1].encode(), b', "', field.encode(), b'": ', value, b"}"))
        try:
            written = self.writer.write(
                f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n".encode() + body
            )
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            log.exception("sending data: broken pipe")
            raise
        except Exception as error:
            log.exception("sending data failed")
            self._server._report_server_error(error, JsonRpcInternalError)

    def answered_early(self, msg_id: int | str, result: Any, check: bool = True) -> None:
        """Request `msg_id` was answered with `result` (JSON data, or its text as a `RawJSON`) before
        the server was imported (`lsp.early`, `lsp.first_open`): its response is not sent again (nor
        compared with `result` unless `check`)."""
        self._early[msg_id] = (result, check)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if msg_id in self._early:
            sent, check = self._early.pop(msg_id)
            if not check:
                return
            if error is None and isinstance(sent, RawJSON) and isinstance(result, RawJSON) and sent.text == result.text:
                return  # (the same text: compared without reading 8 MB of diagnostics twice)
            if isinstance(sent, RawJSON):
                sent = json.loads(sent.text)
            if error is None:
                ours = json.loads(result.text if isinstance(result, RawJSON) else json.dumps(result, default=self._serialize_message))
            if error is not None or ours != sent:  # `capabilities.json` is stale, or the early answer was not the server's
                log.error("request %s was answered early with %s; the server's answer is %s", msg_id,
                          json.dumps(sent), json.dumps(ours) if error is None else error.message)
            return
        if error is not None and isinstance(error.data, dict) and "traceback" in error.data:
            error = types.ResponseError(code=error.code, message=INTERNAL_ERROR_MESSAGE)
        super()._send_response(msg_id, result, error)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.EXIT)) is not None:
            yield handler, args, None
        self.exit_code = 0 if self._shutdown else 1
        if self.on_exit is not None:
            self.on_exit(self.exit_code)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            msg_id = data.get("id")
            if "method" in data and isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=error.to_response_error())
            elif "method" not in data and isinstance(msg_id, (int, str)) and (
                waiting := self._request_futures.pop(msg_id, None)
            ) is not None:
                # A client's answer of the wrong shape (`null` to `window/showDocument`): whoever
                # waits for it is told, instead of waiting forever.
                waiting.set_exception(error)
            raise  # `receive` logs it and reads the next message

    def _user_handler(self, method: str, params: Any) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(method)) is not None:
            yield handler, (params,), None

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        general = params.capabilities.general
        encoding = negotiate_encoding(general.position_encodings if general is not None else None)
        self._server.position_encoding = encoding  # type: ignore[attr-defined]
        result = yield from super().lsp_initialize(params)
        result.capabilities.position_encoding = encoding
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if timing.ENABLED:
            timing.handler_started(types.TEXT_DOCUMENT_DID_OPEN)
        memory_marks.mark("server.didOpen decoded")
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if timing.ENABLED:
            timing.handler_started(types.TEXT_DOCUMENT_DID_CHANGE)
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _run_generator(self, future: Any, *, gen: Generator[Any, Any, Any], result_future: Any) -> None:
        # pygls runs the user's handler of a built-in generator method (`workspace/executeCommand`)
        # under a fresh id of its own, so `$/cancelRequest` cancelled only the request's outer future:
        # the client got RequestCancelled while the handler (a `terraform validate` run) went on.
        # Here cancelling the request cancels the handler it waits for, and the handler's entry is
        # dropped once it is done (pygls kept it forever).
        before = set(self._request_futures)
        super()._run_generator(future, gen=gen, result_future=result_future)
        for key in set(self._request_futures) - before:
            _tie(result_future, self._request_futures[key], key, self._request_futures)


def _tie(result: Any, child: Any, key: str | int, waiting: dict) -> None:
    """A request the handler sent to the client (`child`) is cancelled with the handler's own
    answer (`result`), and forgotten once it is done."""
    result.add_done_callback(lambda done: child.cancel() if done.cancelled() else None)
    child.add_done_callback(lambda _: waiting.pop(key, None))
