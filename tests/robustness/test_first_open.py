"""The real server answers the first document's diagnostics before importing pygls and lsprotocol
(`lsp.first_open`), with what the full server answers later, and loses or reorders nothing that
arrives meanwhile (issue 22 §4)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from fixture import parse_fixture

from hcljson_ls.lsp import first_open

from .conftest import OPTIONS, VALID, VALID_HOVER, line_character, still_right
from .wire import SERVER, Wire, encode, frame

URI = "file:///nonexistent-hcljson-test/first/main.tf.json"
#: Two undeclared references, one of them with a quick fix ("Did you mean var.region?").
_BROKEN = parse_fixture('{\n  "variable": {"region": {}},\n  "output": {"o": {"value": "${var.regio}"}, "p": {"value": "${local.nope$[nope_end]}"}}\n}\n').only
BROKEN = _BROKEN.text
#: Line and character after `local.nope` in BROKEN, where the tests type.
LINE, COLUMN = line_character(BROKEN, _BROKEN.marks["nope_end"])
EARLY = "the first document's diagnostics were sent before the server was imported"
#: The unused-declaration hints come after the background build (not in the first answer): these
#: tests compare the early answer with the full server's, so they leave the hints out.
FIRST_OPTIONS = {**OPTIONS, "diagnostics": {"unusedDeclarations": False}}


@pytest.fixture
def wire(env: dict[str, str], home) -> Iterator[Wire]:
    with Wire.start(env=env, cwd=str(home), command=[*SERVER, "--log-level", "info"]) as started:
        yield started


def _message(method: str, params: object, msg_id: int | None = None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params, **({} if msg_id is None else {"id": msg_id})}


def _initialize(msg_id: int, pull: bool, debounce_ms: int | None = None) -> dict:
    document: dict = {"publishDiagnostics": {"versionSupport": True}}
    if pull:
        document["diagnostic"] = {"dynamicRegistration": False}
    options = FIRST_OPTIONS
    if debounce_ms is not None:
        options = {**options, "diagnostics": {**options["diagnostics"], "debounceMs": debounce_ms}}
    return _message("initialize", {"processId": None, "rootUri": None, "initializationOptions": options,
                                   "capabilities": {"textDocument": document}}, msg_id)


def _opened(text: str, version: int = 1) -> dict:
    return _message("textDocument/didOpen",
                    {"textDocument": {"uri": URI, "languageId": "terraform-json", "version": version, "text": text}})


def _pull(msg_id: int, previous: str | None = None) -> dict:
    return _message("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": previous}, msg_id)


def _insert(version: int, line: int, character: int, text: str) -> dict:
    at = {"line": line, "character": character}
    return _message("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                               "contentChanges": [{"range": {"start": at, "end": at}, "text": text}]})


def _full_server(wire: Wire) -> None:
    """Wait for the full server: a request the session leaves to it (a document's code lenses)."""
    assert "result" in wire.request("textDocument/codeLens", {"textDocument": {"uri": URI}}, timeout=60)


def _send(wire: Wire, *messages: dict) -> None:  # (ids from 101: `Wire.request` counts from 1)
    """All of `messages` in one write, as an editor restoring a session sends them."""
    wire.send_raw(b"".join(frame(encode(m)) for m in messages))


def test_a_pull_right_after_initialize_is_answered_early_with_the_servers_answer(wire: Wire):
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(BROKEN), _pull(102))
    early = wire.response(102, timeout=60)["result"]
    assert early["kind"] == "full"
    assert sorted(d["code"] for d in early["items"]) == ["reference/undeclared", "reference/undeclared"], early
    assert not [d for d in early["items"] if "data" in d]  # quick fixes are asked for (textDocument/codeAction)
    # The full server, asked again, answers the same: the same items, and "unchanged" for the same result id.
    later = wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}}, timeout=60)["result"]
    assert later == early
    unchanged = wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": early["resultId"]})
    assert unchanged["result"] == {"kind": "unchanged", "resultId": early["resultId"]}
    assert len([m for m in wire.received if m.get("id") == 102]) == 1  # answered once
    # The full server works out the quick fix of the diagnostic answered early, named as the client has it.
    [fixable] = [d for d in early["items"] if "var.region" in d["message"]]
    params = {"textDocument": {"uri": URI}, "range": fixable["range"], "context": {"diagnostics": early["items"]}}
    [action] = [a for a in wire.request("textDocument/codeAction", params, timeout=60)["result"] if a["kind"] == "quickfix"]
    assert action["diagnostics"] == [fixable] and action["isPreferred"]
    assert [e["newText"] for e in action["edit"]["changes"][URI]] == ["region"]
    assert EARLY in wire.log(), wire.log()  # by `lsp.first_open`, not by the full server
    assert " ERROR " not in wire.log() and "Traceback" not in wire.log(), wire.log()


def test_document_requests_before_the_pull_are_answered_by_the_full_server(wire: Wire):
    lenses = _message("textDocument/codeLens", {"textDocument": {"uri": URI}}, 103)
    links = _message("textDocument/documentLink", {"textDocument": {"uri": URI}}, 104)
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(BROKEN), lenses, links, _pull(102))
    early = wire.response(102, timeout=60)["result"]
    assert len(early["items"]) == 2
    assert wire.response(103, timeout=60)["result"]  # (the declarations' reference counts)
    assert "result" in wire.response(104, timeout=60)
    assert EARLY in wire.log()
    assert wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}}, timeout=60)["result"] == early
    assert " ERROR " not in wire.log(), wire.log()


def test_edits_sent_during_the_hand_over_are_applied_in_order(wire: Wire):
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(BROKEN), _pull(102))
    early = wire.response(102, timeout=60)["result"]
    # Sent the moment the early answer arrives (the server is still importing): each edit builds on
    # the one before (`local.nope` -> `local.nopexyz`), so any loss or reordering shows.
    column = COLUMN
    _send(wire, *(_insert(2 + i, LINE, column + i, letter) for i, letter in enumerate("xyz")), _pull(103, early["resultId"]))
    after = wire.response(103, timeout=60)["result"]
    assert after["kind"] == "full" and after["resultId"] != early["resultId"]
    messages = sorted(d["message"] for d in after["items"])
    assert any("local.nopexyz" in m for m in messages), messages
    assert not any("local.nope\"" in m or "local.nope " in m for m in messages), messages
    # The full server goes on from the edited text (a request only it answers, then its symbols and
    # the pull again).
    _full_server(wire)
    names = [s["name"] for s in wire.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, timeout=60)["result"]]
    assert 'output "p"' in names, names
    again = wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": after["resultId"]})
    assert again["result"] == {"kind": "unchanged", "resultId": after["resultId"]}
    assert EARLY in wire.log()
    assert "3 edits of it were applied, and their diagnostics sent, as the server was imported" in wire.log()
    assert "the server was made while the first document was answered" in wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_a_request_read_past_before_an_early_edit_is_answered_content_modified_once(wire: Wire):
    lenses = _message("textDocument/codeLens", {"textDocument": {"uri": URI}}, 103)
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(BROKEN), lenses, _pull(102))
    early = wire.response(102, timeout=60)["result"]
    # An edit, and a request after it: the first request was asked of the text before the edit (the
    # client asks again), the second is the full server's to answer, of the edited text.
    folding = _message("textDocument/foldingRange", {"textDocument": {"uri": URI}}, 105)
    _send(wire, _insert(2, LINE, COLUMN, "x"), _pull(104, early["resultId"]), folding)
    assert wire.response(103, timeout=60)["error"]["code"] == -32801
    after = wire.response(104, timeout=60)["result"]
    assert any("local.nopex" in d["message"] for d in after["items"]), after
    assert wire.response(105, timeout=60)["result"]
    _full_server(wire)
    names = [s["name"] for s in wire.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, timeout=60)["result"]]
    assert 'output "p"' in names, names
    assert [m.get("id") for m in wire.received].count(103) == 1  # answered once
    assert "1 edits of it were applied" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


@pytest.mark.parametrize("pull", [True, False], ids=["pull", "push"])
@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion"])
def test_a_request_sent_as_the_first_diagnostics_arrive_is_answered_as_the_server_answers_it(wire: Wire, method, pull):
    _send(wire, _initialize(101, pull=pull), _message("initialized", {}), _opened(VALID), *[_pull(102)] * pull)
    if pull:
        wire.response(102, timeout=60)
    else:
        wire.diagnostics(URI, version=1, timeout=60)
    where = {"textDocument": {"uri": URI}, "position": {"line": VALID_HOVER[0], "character": VALID_HOVER[1]}}
    _send(wire, _message(method, where, 103))
    early = wire.response(103, timeout=60)["result"]
    said = early["contents"]["value"] if method == "textDocument/hover" else [i["label"] for i in early["items"]]
    assert "region" in said, early
    _full_server(wire)  # which gives the same answer
    assert wire.request(method, where, timeout=60)["result"] == early
    assert [m.get("id") for m in wire.received].count(103) == 1
    assert "1 hovers or completions of it were answered as the server was imported" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


@pytest.mark.parametrize("hierarchical", [True, False], ids=["hierarchical", "flat"])
def test_symbols_folding_and_tokens_asked_with_the_open_are_answered_after_the_first_diagnostics(wire: Wire,
                                                                                             hierarchical):
    """What an editor asks of a document as it opens it, answered by the session once the
    diagnostics are sent (the full server answers the same: asked again after the import)."""
    initialize = _initialize(101, pull=True)
    document_capabilities = initialize["params"]["capabilities"]["textDocument"]
    document_capabilities["documentSymbol"] = {"hierarchicalDocumentSymbolSupport": hierarchical}
    document_capabilities["foldingRange"] = {"lineFoldingOnly": False}
    document = {"textDocument": {"uri": URI}}
    asked = {201: "textDocument/documentSymbol", 202: "textDocument/foldingRange", 203: "textDocument/semanticTokens/full"}
    _send(wire, initialize, _message("initialized", {}), _opened(BROKEN),
          *(_message(method, document, msg_id) for msg_id, method in asked.items()), _pull(102))
    wire.response(102, timeout=60)
    early = {msg_id: wire.response(msg_id, timeout=60)["result"] for msg_id in asked}
    assert early[201] and early[202] and early[203]["data"], early
    _full_server(wire)  # asked the same
    for msg_id, method in asked.items():
        assert wire.request(method, document, timeout=60)["result"] == early[msg_id], method
    answered = [m["id"] for m in wire.received if "id" in m and "method" not in m and m["id"] in asked]
    assert sorted(answered) == sorted(asked)  # each once
    assert "3 requests for its symbols, folding ranges or semantic tokens were answered" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_symbols_of_a_longer_document_are_left_to_the_full_server(wire: Wire):
    """Past `WHOLE_DOCUMENT_SIZE` they would hold the session's edits longer than 50 ms."""
    variables = ", ".join(f'"v{i}": {{"type": "string"}}' for i in range(5_000))
    text = '{"variable": {' + variables + "}}"
    assert len(text) > first_open.WHOLE_DOCUMENT_SIZE
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(text),
          _message("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, 201), _pull(102))
    assert wire.response(102, timeout=60)["result"]["items"] == []
    symbols = wire.response(201, timeout=60)["result"]  # (flat: each variable, then its `type`)
    assert sum(1 for x in symbols if x["name"].startswith('variable "')) == 5_000
    _full_server(wire)
    assert EARLY in wire.log(), wire.log()
    assert "requests for its symbols" not in wire.log(), wire.log()


def _delete(version: int, line: int, character: int) -> dict:
    start, end = {"line": line, "character": character}, {"line": line, "character": character + 1}
    return _message("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                               "contentChanges": [{"range": {"start": start, "end": end}, "text": ""}]})


def test_edits_pulls_and_requests_interleaved_during_the_import_are_each_answered_once_in_order(wire: Wire):
    _send(wire, _initialize(101, pull=True), _message("initialized", {}), _opened(BROKEN), _pull(102))
    early = wire.response(102, timeout=60)["result"]
    symbols = {"textDocument": {"uri": URI}}
    # `local.nope` -> nopea, nopeab, nopea, nopeac; requests between them; sent in one write as the
    # import starts. A request followed by an edit was asked of a text that changed since.
    _send(wire, _message("textDocument/codeLens", symbols, 201), _insert(2, LINE, COLUMN, "a"),
          _pull(202, early["resultId"]), _insert(3, LINE, COLUMN + 1, "b"),
          _message("textDocument/documentLink", symbols, 203), _delete(4, LINE, COLUMN + 1),
          _pull(204, early["resultId"]), _insert(5, LINE, COLUMN + 1, "c"),
          _message("textDocument/documentSymbol", symbols, 205), _pull(206, early["resultId"]))
    assert wire.response(201, timeout=60)["error"]["code"] == -32801
    assert wire.response(203, timeout=60)["error"]["code"] == -32801
    names = {202: "local.nopea", 204: "local.nopea", 206: "local.nopeac"}
    for msg_id, name in names.items():
        messages = [d["message"] for d in wire.response(msg_id, timeout=60)["result"]["items"]]
        assert any(f'"{name}"' in m for m in messages), (msg_id, messages)
    assert 'output "p"' in [s["name"] for s in wire.response(205, timeout=60)["result"]]
    _full_server(wire)
    final = wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}}, timeout=60)["result"]
    assert final["items"] == wire.response(206)["result"]["items"]
    answered = [m["id"] for m in wire.received if "id" in m and "method" not in m and isinstance(m["id"], int) and m["id"] > 200]
    assert sorted(answered) == [201, 202, 203, 204, 205, 206]  # each once
    assert "4 edits of it were applied" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_a_push_client_s_edits_and_requests_interleaved_during_the_import_are_each_answered_once(wire: Wire):
    _send(wire, _initialize(101, pull=False), _message("initialized", {}), _opened(BROKEN))
    wire.diagnostics(URI, version=1, timeout=60)
    document = {"textDocument": {"uri": URI}}
    where = {**document, "position": {"line": LINE, "character": COLUMN}}
    # As the pull client's test above, with hovers and completions between the edits, in one write.
    _send(wire, _message("textDocument/codeLens", document, 201), _insert(2, LINE, COLUMN, "a"),
          _message("textDocument/hover", where, 202), _insert(3, LINE, COLUMN + 1, "b"),
          _message("textDocument/documentLink", document, 203), _delete(4, LINE, COLUMN + 1),
          _message("textDocument/completion", where, 204), _insert(5, LINE, COLUMN + 1, "c"),
          _message("textDocument/documentSymbol", document, 205))
    assert wire.response(201, timeout=60)["error"]["code"] == -32801
    assert wire.response(203, timeout=60)["error"]["code"] == -32801
    assert "result" in wire.response(202, timeout=60) and "result" in wire.response(204, timeout=60)
    assert 'output "p"' in [s["name"] for s in wire.response(205, timeout=60)["result"]]
    pushed = wire.diagnostics(URI, version=5, timeout=60)
    assert any('"local.nopeac"' in d["message"] for d in pushed), pushed
    still_right(wire)
    assert [p["version"] for p in wire.published(URI)] == [1, 5]  # the burst pushed once
    answered = [m["id"] for m in wire.received if "id" in m and "method" not in m and isinstance(m["id"], int) and m["id"] > 200]
    assert sorted(answered) == [201, 202, 203, 204, 205]  # each once
    assert "4 edits of it were applied" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_edits_that_take_the_document_past_the_size_limit_are_applied_again_by_the_server(wire: Wire):
    # Opened at the edited size, the document would not be analysed (`maxFileSizeMB` is checked when
    # one is opened): the server applies the edits itself, from the document as the client opened it.
    initialize = _initialize(101, pull=True)
    initialize["params"]["initializationOptions"] = {**FIRST_OPTIONS, "maxFileSizeMB": 1}
    _send(wire, initialize, _message("initialized", {}), _opened(BROKEN), _pull(102))
    early = wire.response(102, timeout=60)["result"]
    _send(wire, _insert(2, LINE, COLUMN, "x" * (1 << 20)), _pull(103, early["resultId"]))
    after = wire.response(103, timeout=60)["result"]
    assert after["kind"] == "full" and len(after["items"]) == 2
    _full_server(wire)
    # The server read the document again from its open, its pulls too (new result ids): the same items.
    again = wire.request("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": after["resultId"]},
                         timeout=60)
    assert again["result"]["items"] == after["items"]
    assert "1 edits of it were applied" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_a_push_client_gets_the_first_diagnostics_once_then_every_edit(wire: Wire):
    _send(wire, _initialize(101, pull=False, debounce_ms=1000), _message("initialized", {}), _opened(BROKEN))
    wire.diagnostics(URI, version=1, timeout=60)
    # Sent as they arrive, as the server is imported, in two writes: the session looks whether a
    # push is due between them.
    _send(wire, _insert(2, LINE, COLUMN, "x"))
    time.sleep(0.05)
    _send(wire, _insert(3, LINE, COLUMN + 1, "y"))
    wire.diagnostics(URI, version=3, timeout=60)
    still_right(wire)  # (the full server answers, after any push of its own)
    versions = [p["version"] for p in wire.published(URI)]
    # Pushed early, then the burst of edits once (`debounceMs` after the last), by the session or by
    # the server from the `didOpen` it is handed: never twice.
    assert versions == [1, 3], versions
    final = wire.published(URI)[-1]["diagnostics"]
    assert any("local.nopexy" in d["message"] for d in final), final
    assert EARLY in wire.log(), wire.log()
    assert "2 edits of it were applied" in wire.log(), wire.log()  # as the server was imported
    assert " ERROR " not in wire.log(), wire.log()


def test_a_push_client_s_edits_are_pushed_while_the_server_is_imported(wire: Wire):
    _send(wire, _initialize(101, pull=False, debounce_ms=0), _message("initialized", {}), _opened(BROKEN))
    wire.diagnostics(URI, version=1, timeout=60)
    _send(wire, _insert(2, LINE, COLUMN, "a"))  # sent as they arrive: the import takes ~0.3 s more
    pushed = wire.diagnostics(URI, version=2, timeout=60)
    assert any('"local.nopea"' in d["message"] for d in pushed), pushed
    still_right(wire)
    assert [p["version"] for p in wire.published(URI)] == [1, 2]
    assert "their diagnostics were pushed 1 times as the server was imported" in wire.log(), wire.log()
    assert " ERROR " not in wire.log(), wire.log()


def test_a_client_that_waits_before_opening_is_served_by_the_full_server(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}, timeout=60)
    wire.open(URI, BROKEN)
    assert len(wire.diagnostics(URI, version=1, timeout=60)) == 2
    assert EARLY not in wire.log()
    still_right(wire)


def test_settings_the_early_answer_cannot_apply_leave_it_to_the_server(wire: Wire):
    initialize = _initialize(101, pull=True)
    initialize["params"]["initializationOptions"] = {**OPTIONS, "maxFileSizeMB": "big"}  # a problem to report
    _send(wire, initialize, _message("initialized", {}), _opened(BROKEN), _pull(102))
    assert len(wire.response(102, timeout=60)["result"]["items"]) == 2
    _full_server(wire)
    assert EARLY not in wire.log()
    assert "ignoring invalid settings" in wire.log()


def test_settings_from_initialization_options_apply_to_the_early_answer(wire: Wire):
    initialize = _initialize(101, pull=True)
    initialize["params"]["initializationOptions"] = {**OPTIONS, "diagnostics": {"docsUrl": "https://example.com/d"}}
    _send(wire, initialize, _message("initialized", {}), _opened(VALID.replace("var.region", "var.nope")), _pull(102))
    [item] = wire.response(102, timeout=60)["result"]["items"]
    assert item["codeDescription"]["href"] == "https://example.com/d#referenceundeclared", json.dumps(item)
    _full_server(wire)
    assert EARLY in wire.log()
    assert " ERROR " not in wire.log(), wire.log()
