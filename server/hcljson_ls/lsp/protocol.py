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
client waiting for an answer forever; such a notification is logged and dropped.

`$/cancelRequest` of a `workspace/executeCommand` cancels the command's handler (an async one sees
`asyncio.CancelledError`), not only the reply (`_run_generator`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from ..text.encodings import negotiate_encoding
from . import timing

if TYPE_CHECKING:
    from collections.abc import Generator


class HcljsonProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            msg_id = data.get("id")
            if "method" in data and isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=error.to_response_error())
            raise  # pygls logs it and reads the next message

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
            child = self._request_futures[key]
            result_future.add_done_callback(lambda done, child=child: done.cancelled() and child.cancel())
            child.add_done_callback(lambda _, key=key: self._request_futures.pop(key, None))
