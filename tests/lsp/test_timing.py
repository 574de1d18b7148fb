"""`lsp.timing`: the figure logged for a handler is its own body's, read before it, even when a later
body arrived meanwhile (a `diagnostic` request read while the `didOpen` before it was decoded)."""

from __future__ import annotations

import logging

import pytest

from hcljson_ls.lsp import timing


@pytest.fixture
def clean_timing(monkeypatch):
    monkeypatch.setattr(timing, "_read", timing.deque())
    monkeypatch.setattr(timing, "_current", None)


def _logged(caplog) -> list[str]:
    return [r.getMessage().rsplit("(", 1)[1] for r in caplog.records if r.getMessage().startswith("timing ")]


def test_each_handler_is_timed_from_its_own_body(clean_timing, caplog):
    caplog.set_level(logging.WARNING, logger=timing.__name__)
    timing.body_read(5_000_000)  # a didOpen
    timing.body_read(120)  # the pull sent right after it, read while the didOpen is decoded
    timing.receiving(5_000_000)
    timing.handler_started("textDocument/didOpen")
    timing.receiving(120)
    timing.body_read(300)
    timing.receiving(300)
    timing.handler_started("textDocument/didChange")
    assert _logged(caplog) == ["5000000 bytes)", "300 bytes)"]


def test_a_body_the_transport_did_not_read_is_not_timed(clean_timing, caplog):
    """What `lsp.early` read before the server started is handled first, and has no reading time:
    nothing is logged for it, and the bodies read after it keep theirs."""
    caplog.set_level(logging.WARNING, logger=timing.__name__)
    timing.body_read(700)
    timing.receiving(90)  # replayed from the early reader
    timing.handler_started("textDocument/didOpen")
    timing.receiving(700)
    timing.handler_started("textDocument/didChange")
    assert _logged(caplog) == ["700 bytes)"]
