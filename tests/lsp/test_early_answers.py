"""`HcljsonProtocol.answered_early`: a request answered before the server was imported is not
answered again, and the server's own answer to it is compared with the early one, an error logged
when they differ. `lsp.first_open` hands its diagnostics over as their text (`RawJSON`): it used
to read its own answer back to hand it over as data, ~200 ms after writing 8 MB of diagnostics
(24,750 shown), which the edit sent as they arrived waited for."""

from __future__ import annotations

import json
import logging
import types

import pytest

from hcljson_ls.lsp import protocol as protocol_module
from hcljson_ls.lsp.rawjson import RawJSON
from hcljson_ls.lsp.server import create_server

EARLY = '{"kind": "full", "resultId": "a.1", "items": [{"code": "reference/undeclared", "message": "m"}]}'


def _compared(caplog, early, ours) -> list[str]:
    """The errors logged when the server answers request 7, answered early with `early`, with `ours`."""
    protocol = create_server()._hcljson_protocol
    sent: list = []
    protocol._send_data = sent.append  # (nothing is written for a request answered early)
    protocol.answered_early(7, early)
    with caplog.at_level(logging.ERROR, logger="hcljson_ls.lsp.protocol"):
        protocol._send_response(7, ours)
    assert sent == []
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("ours", [
    RawJSON(EARLY),  # the same text: not read
    RawJSON('{"items": [{"message": "m", "code": "reference/undeclared"}], "resultId": "a.1", "kind": "full"}'),
], ids=["same-text", "same-value"])
def test_the_same_answer_logs_nothing(caplog, monkeypatch, ours):
    read: list[str] = []
    monkeypatch.setattr(protocol_module, "json", types.SimpleNamespace(
        loads=lambda text: read.append(text) or json.loads(text), dumps=json.dumps))
    assert _compared(caplog, RawJSON(EARLY), ours) == []
    assert len(read) == (0 if ours.text == EARLY else 2)  # (the same text is not read)


@pytest.mark.parametrize("early", [RawJSON(EARLY), {"kind": "full", "resultId": "a.1", "items": []}],
                         ids=["text", "data"])
def test_another_answer_is_logged(caplog, early):
    errors = _compared(caplog, early, RawJSON('{"kind": "full", "resultId": "a.2", "items": []}'))
    assert len(errors) == 1 and "was answered early with" in errors[0] and '"a.2"' in errors[0]
