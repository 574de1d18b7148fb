"""Heavy and odd input over the real server's stdio: an edit storm, cancellation of a long request,
100 000-deep nesting, a 10 MB single line, NUL characters and lone surrogates. Each ends in the
expected diagnostics (or a success) within a generous timeout, never a crash or a hang, and the
server is still right afterwards (`still_right`)."""

from __future__ import annotations

import json
import random

import pytest
from fixture import parse_fixture

from .conftest import OPTIONS, still_right
from .wire import REQUEST_CANCELLED, Wire, encode, frame

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"

#: Generous: these documents take seconds on a loaded two-core machine, never minutes.
SLOW = 240


def _position(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


def _comparable(diagnostics: list[dict], uri: str) -> str:
    return json.dumps(diagnostics, sort_keys=True).replace(uri, "<uri>")


def big_document(size: int) -> str:
    """A valid configuration of about `size` characters, many lines (made fast, without json.dumps of the whole)."""
    parts, total, i = ['{"variable": {"env": {"default": "dev"}}, "resource": {"aws_instance": {\n'], 0, 0
    while total < size:
        part = f'  "r{i}": {{"ami": "ami-{i:08x}", "tags": {{"Name": "${{var.env}}-{i}"}}, "count": 2}},\n'
        parts.append(part)
        total += len(part)
        i += 1
    parts.append('  "last": {"ami": "x"}\n}}}\n')
    return "".join(parts)


def test_an_edit_storm_ends_in_the_diagnostics_of_a_fresh_open(wire: Wire):
    wire.initialize(options=OPTIONS)
    text = '{\n  "variable": {"region": {"default": "x"}},\n  "locals": {"a": "${var.region}", "b": [1, 2]}\n}\n'
    wire.open(URI, text)
    rng = random.Random(13)
    version = 1
    for _ in range(2_000):
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice((0, 0, 1, 3)))
        new = rng.choice(['"', "{", "}", "[", "]", ":", ",", " ", "\n", "a", "1", "${", "var.region", "", "é", "😀"])
        version += 1
        # Positions in UTF-16 code units, as the server expects by default.
        def utf16(offset: int) -> dict:
            line = text.count("\n", 0, offset)
            column = text[text.rfind("\n", 0, offset) + 1 : offset]
            return {"line": line, "character": len(column.encode("utf-16-le")) // 2}
        wire.change(URI, version, [{"range": {"start": utf16(start), "end": utf16(end)}, "text": new}])
        text = text[:start] + new + text[end:]
    final = wire.diagnostics(URI, version=version, timeout=SLOW)
    versions = [p.get("version") for p in wire.published(URI)]
    assert versions == sorted(versions), versions  # never an older version after a newer one
    fresh = "file:///nonexistent-hcljson-test/fresh/main.tf.json"
    wire.open(fresh, text)
    assert _comparable(final, URI) == _comparable(wire.diagnostics(fresh, version=1, timeout=SLOW), fresh)
    still_right(wire)


def test_a_cancelled_document_symbol_request_is_answered_or_cancelled(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.open(URI, big_document(5_000_000))
    wire.diagnostics(URI, version=1, timeout=SLOW)
    request = wire.send_request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    wire.notify("$/cancelRequest", {"id": request})
    wire.notify("$/cancelRequest", {"id": 987654})  # nothing in flight: ignored
    answer = wire.response(request, timeout=SLOW)
    assert "result" in answer or answer["error"]["code"] == REQUEST_CANCELLED, answer
    still_right(wire)


@pytest.mark.parametrize("method", ["textDocument/documentSymbol", "textDocument/semanticTokens/full"])
def test_a_long_request_cancelled_as_it_arrives_is_answered_request_cancelled(wire: Wire, method: str):
    # The request and its cancel in one write: the server reads both before the request's work
    # starts (long requests are coroutines), so the answer is RequestCancelled, not the result.
    wire.initialize(options=OPTIONS)
    wire.open(URI, big_document(2_000_000))
    wire.diagnostics(URI, version=1, timeout=SLOW)
    id_ = 424242
    request = {"jsonrpc": "2.0", "id": id_, "method": method, "params": {"textDocument": {"uri": URI}}}
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id_}}
    wire.send_raw(frame(encode(request, False)) + frame(encode(cancel, False)))
    answer = wire.response(id_, timeout=SLOW)
    assert answer.get("error", {}).get("code") == REQUEST_CANCELLED, answer
    still_right(wire)


def _ask_about(wire: Wire, uri: str, text: str) -> None:
    """Every request that walks the whole tree, each answered without an error."""
    for method in ("textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/semanticTokens/full"):
        answer = wire.request(method, {"textDocument": {"uri": uri}}, timeout=SLOW)
        assert "error" not in answer, (method, answer)
    at = _position(text, len(text) // 2)
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        answer = wire.request(method, {"textDocument": {"uri": uri}, "position": at}, timeout=SLOW)
        assert "error" not in answer, (method, answer)
    answer = wire.request("textDocument/selectionRange", {"textDocument": {"uri": uri}, "positions": [at]}, timeout=SLOW)
    assert "error" not in answer, answer


def test_100_000_deep_array_nesting(wire: Wire):
    wire.initialize(options=OPTIONS)
    text = "[" * 100_000 + "]" * 100_000
    wire.open(URI, text)
    diagnostics = wire.diagnostics(URI, version=1, timeout=SLOW)
    assert [(d["code"], d["range"]) for d in diagnostics] == [
        ("syntax/root-not-body", {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 199_999}})
    ]
    _ask_about(wire, URI, text)
    still_right(wire)


def test_100_000_deep_unclosed_object_nesting(wire: Wire):
    wire.initialize(options=OPTIONS)
    text = '{"locals": ' + '{"a": ' * 100_000
    wire.open(URI, text)
    diagnostics = wire.diagnostics(URI, version=1, timeout=SLOW)
    codes = [d["code"] for d in diagnostics if d["code"] != "reference/unused"]  # (local "a" is unused too)
    # 100,001 unclosed brackets: the first 1,000 (`diagnostics.maxPerCode`), then one summary of the rest
    assert codes == ["syntax/unclosed-bracket"] * 1000 + ["limit/too-many"], codes[-3:]
    assert "99,001 more" in diagnostics[-1]["message"] or "more" in diagnostics[-1]["message"], diagnostics[-1]
    _ask_about(wire, URI, text)
    still_right(wire)


def test_a_10_mb_single_line(wire: Wire):
    wire.initialize(options=OPTIONS)
    members = ", ".join(f'"k{i}": "{"v" * 90}"' for i in range(100_000))
    text = '{"locals": {' + members + ', "last": "${local.k7}"}}'
    assert len(text) > 10_000_000 and "\n" not in text
    wire.open(URI, text)
    assert wire.diagnostics(URI, version=1, timeout=SLOW) == []
    hover = wire.hover(URI, 0, text.index("local.k7") + 7, timeout=SLOW)
    assert "local.k7" in json.dumps(hover["result"]) or "k7" in json.dumps(hover["result"]), hover
    _ask_about(wire, URI, text)
    still_right(wire)


def test_nul_characters(wire: Wire):
    wire.initialize(options=OPTIONS)
    marked = parse_fixture('{"locals": {"a": "x⟨\u0000⟩y"}}\n\u0000').only
    text, ((nul, after),) = marked.text, marked.ranges
    wire.open(URI, text)
    diagnostics = wire.diagnostics(URI, version=1, timeout=SLOW)
    assert [(d["code"], d["range"]["start"], d["range"]["end"]) for d in diagnostics] == [
        ("syntax/control-character", _position(text, nul), _position(text, after)),
        ("syntax/extra-data", _position(text, len(text) - 1), _position(text, len(text))),
    ], diagnostics
    _ask_about(wire, URI, text)
    still_right(wire)


def test_lone_surrogates(wire: Wire):
    wire.initialize(options=OPTIONS)
    # As JSON escapes on the wire (valid JSON-RPC), they arrive as lone surrogates in a str.
    text = '{"locals": {"\ud800": "\udfff", "b": "${local.\udc00}"}}'
    wire.open(URI, text, ensure_ascii=True)
    diagnostics = wire.diagnostics(URI, version=1, timeout=SLOW)
    assert diagnostics and all(d["message"] for d in diagnostics)
    _ask_about(wire, URI, text)
    still_right(wire)
