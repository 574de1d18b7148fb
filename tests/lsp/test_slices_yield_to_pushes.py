"""Background work in slices (`HcljsonServer._run_slice`: a quick-opened document's build, the
scan of the workspace) ends its slice when a push of diagnostics is due (`Publisher.due`), as it
does when a message waits: a client that does not pull got each edit's diagnostics after a slice of
a large document's build (`bench/bench_cold_edits.py --push`: 55-70 ms an edit at 5 MB, against
9-30 ms after). The real server object, its real publisher, on a real event loop; what is counted is
the steps run before the push, not time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

from hcljson_ls.lsp.publish import Publisher
from hcljson_ls.lsp.server import SCAN_SLICE, create_server

STEP = 0.001  # seconds a step takes: a slice is ~SCAN_SLICE / STEP of them


def test_a_slice_ends_when_a_push_is_due():
    server = create_server()
    ran: list[int] = []
    pushed_after: list[int] = []  # the steps run when each push was sent
    server.publisher = Publisher(lambda uri: (2, []), lambda uri, version, items: pushed_after.append(len(ran)))

    def steps() -> Iterator[None]:
        for i in range(int(3 * SCAN_SLICE / STEP)):
            time.sleep(STEP)
            ran.append(i)
            yield

    async def build() -> None:
        server.publisher.schedule("file:///stack/main.tf.json", 0)  # as an edit schedules it (`debounceMs` 0)
        work = steps()
        while not server._run_slice(work):
            await asyncio.sleep(0)

    asyncio.run(build())
    assert len(ran) == int(3 * SCAN_SLICE / STEP)  # the work went on to its end
    assert pushed_after and pushed_after[0] <= 2, pushed_after  # a whole slice first: ~SCAN_SLICE / STEP


def test_nothing_is_due_without_a_publish_or_before_its_delay():
    server = create_server()

    async def check() -> tuple[bool, bool]:
        nothing = server.publisher.due()
        server.publisher.schedule("file:///stack/main.tf.json", 60)
        later = server.publisher.due()
        server.publisher.cancel_all()
        return nothing, later

    assert asyncio.run(check()) == (False, False)
