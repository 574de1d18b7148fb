"""`lsp.framing.FrameReader`: any chunking of a stream gives the same bodies; valid frames come out
exactly; after any bad header block, the next valid frame comes out intact; nothing is buffered for a
body over the limit."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.lsp import framing
from hcljson_ls.lsp.framing import Body, FrameReader, Problem


def frame(body: bytes, name: bytes = b"Content-Length", extra: bytes = b"") -> bytes:
    return name + b": %d\r\n" % len(body) + extra + b"\r\n" + body


def bodies(events) -> list[bytes]:
    return [e.data for e in events if isinstance(e, Body)]


def feed_in_chunks(data: bytes, cuts: list[int], reader: FrameReader | None = None) -> list:
    reader = reader or FrameReader()
    events, last = [], 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        events += reader.feed(data[last:cut])
        last = max(last, cut)
    return events + reader.feed(data[last:])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: Bodies on one line, as clients write them, or pretty-printed with LF or CRLF line breaks (raw line
#: breaks between tokens, lines ending in digits and blanks): the reader's search for a header line
#: inside a body looks at its line breaks.
layouts = st.sampled_from([(None, "\n"), (2, "\n"), (1, "\r\n"), ("\t", " \r\n")])
messages = st.builds(lambda i, v, layout: json.dumps({"jsonrpc": "2.0", "id": i, "method": "m", "params": v},
                                                     ensure_ascii=False, indent=layout[0]).replace("\n", layout[1]).encode(),
                     st.integers(0, 10**6), json_values, layouts)
header_names = st.sampled_from([b"Content-Length", b"content-length", b"CONTENT-LENGTH", b"Content-length"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(messages, header_names, st.booleans()), min_size=1, max_size=5), st.lists(st.integers(0, 10**5), max_size=8))
def test_valid_frames_come_out_exactly_whatever_the_chunking(frames, cuts):
    data = b"".join(frame(m, name, b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" if typed else b"")
                    for m, name, typed in frames)
    events = feed_in_chunks(data, cuts)
    assert events == [Body(m) for m, _, _ in frames]


BAD_HEADERS = [
    b"Content-Length: banana\r\n\r\n",
    b"Content-Length: -4\r\n\r\n{}{}",
    b"Content-Length: 1e3\r\n\r\n",
    b"Content-Type: text/plain\r\n\r\n{\"no\": \"length\"}",
    b"Content-Length: 99999999999999999999\r\n\r\n{}",
    b"no colon at all\r\n\r\n",
    b"garbage without a line end",
    b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    b"\x00\xff\xfe binary\r\n",
    b"X" * 10_000,
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BAD_HEADERS), messages, st.lists(st.integers(0, 10**5), max_size=6))
def test_after_a_bad_header_the_next_frame_comes_out(bad, message, cuts):
    events = feed_in_chunks(bad + frame(message), cuts)
    assert isinstance(events[0], Problem)
    assert bodies(events)[-1] == message


@settings(max_examples=200, deadline=None)
@given(messages, messages, st.integers(1, 60), st.lists(st.integers(0, 10**5), max_size=6))
def test_a_length_too_short_or_too_long_costs_only_its_own_message(first, second, delta, cuts):
    short = b"Content-Length: %d\r\n\r\n" % max(0, len(first) - delta) + first
    long = b"Content-Length: %d\r\n\r\n" % (len(first) + delta) + first
    for bad in (short, long):
        events = feed_in_chunks(bad + frame(second), cuts)
        assert bodies(events)[-1] == second, (bad, events)
        assert any(isinstance(e, Problem) for e in events) or bad is short


def test_a_body_over_the_limit_is_skipped_without_being_kept():
    reader = FrameReader(max_body=1000)
    assert reader.feed(b"Content-Length: 5000\r\n\r\n") == [Problem("a Content-Length of 5000 bytes, over the limit of 1000")]
    for _ in range(100):
        assert reader.feed(b"x" * 1000) == []
        assert len(reader._buffer) <= 64  # skipping keeps only a possible header's start
    assert reader.feed(frame(b'{"a": 1}')) == [Body(b'{"a": 1}')]


def test_blank_lines_between_frames_are_ignored():
    assert FrameReader().feed(b"\r\n\r\n" + frame(b"{}") + b"\r\n" + frame(b"[]")) == [Body(b"{}"), Body(b"[]")]


class _CountedPattern:
    """`framing._HEADER_LINE`, counting its searches."""

    def __init__(self, pattern) -> None:
        self.pattern, self.searches = pattern, 0

    def search(self, *args):
        self.searches += 1
        return self.pattern.search(*args)


def test_a_body_of_many_short_lines_is_searched_once_a_chunk_not_once_a_line(monkeypatch):
    # Hostile input: a body of 400,000 lines ending in digits (`[1\n,1\n,...`). The search for a
    # header line inside it is one pass a chunk at C speed; matching at each line break in Python
    # took 1.5 s for these 1.6 MB.
    counted = _CountedPattern(framing._HEADER_LINE)
    monkeypatch.setattr(framing, "_HEADER_LINE", counted)
    body = b"[\n" + b"1\n,\n" * 400_000 + b"1]"
    data = frame(body) + frame(b'{"a": 1}')
    chunks = range(0, len(data), 65536)
    events = feed_in_chunks(data, list(chunks))
    assert events == [Body(body), Body(b'{"a": 1}')]
    assert counted.searches <= len(chunks) + 2


def test_a_body_on_one_line_is_not_searched_for_a_header_line(monkeypatch):
    counted = _CountedPattern(framing._HEADER_LINE)
    monkeypatch.setattr(framing, "_HEADER_LINE", counted)
    body = json.dumps({"text": "line one\nline two\n" * 10_000}).encode()  # (escaped breaks: one line)
    assert feed_in_chunks(frame(body), list(range(0, len(body), 4096))) == [Body(body)]
    assert counted.searches == 0
