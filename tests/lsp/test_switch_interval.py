"""`lsp.switch_interval`: a stdio server lowers the interpreter's switch interval, so that its stdin
reader thread hands a message to a busy event loop within `SWITCH_INTERVAL` instead of CPython's
5 ms (measured in `switch_interval`'s docstring: edits during the background build)."""

from __future__ import annotations

import io
import os
import sys

import pytest

from hcljson_ls.lsp.server import create_server
from hcljson_ls.lsp.switch_interval import SWITCH_INTERVAL


@pytest.fixture
def default_interval():
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield
    sys.setswitchinterval(before)


def test_a_stdio_server_lowers_the_switch_interval_for_its_reader(default_interval):
    read_end, write_end = os.pipe()
    os.close(write_end)  # the client's end closed at once: the server ends (status 0)
    with open(read_end, "rb") as stdin:
        assert create_server().start_io(stdin=stdin, stdout=io.BytesIO()) == 0
    assert SWITCH_INTERVAL < 0.005
    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
