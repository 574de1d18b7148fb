"""Whether a second core would shorten the open: the per-block work of a large document's quick open
(each block's value decoded by the C scanner, then certified) split with a forked child process,
against the same work in this process alone.

Run: python bench/bench_second_core.py                 (5 MB, 4 runs; POSIX only: it forks)
     python bench/bench_second_core.py --size 20MB --runs 3

Two ways to split, each timed against the serial work it replaces (in ms):

    after the skim   every block decoded here first; then a child forked, which certifies the
                     second half of the blocks (it inherits their values) while this process
                     certifies the first half; the child's answers are read back (pickle)
    before the skim  a child forked first; each process decodes and certifies its own half. The
                     block positions are taken from an earlier skim, which a real split would
                     have to find without reading the first half: an upper bound on the gain

    a helper       a process started once, before the runs (as a server would start it with
                   itself), so that neither process copies the other's pages: the text is sent
                   to it (UTF-8, through a pipe: timed), and each process decodes and certifies
                   its own half, the block positions again from an earlier skim (sent untimed:
                   an upper bound)

Each line prints the serial time, the fork (for the helper: sending the text), this process's
half, the wait for the child, reading its answer back, and the page faults this process took
during its half (`ru_minflt`): after a fork, every page either process writes is copied first, and
CPython writes to every object it touches (reference counts).

What it found (session 19, docs/performance.md), three runs at 5 MB: after the skim, the serial
certification took 76-84 ms and the split 66-74, this process's half 59-68 ms (not ~40) with
5,100-6,800 copy-on-write faults; before the skim, 108-125 against 89-96, this process's half 83-88
ms with ~7,000 faults. A gain of 10-30 ms, where the open's gap to 0.6x the peer is ~100 ms; and a
real split before the skim would first need the second half's block positions. Session 24 added
the helper (docs/performance.md, "Session 24").
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import peer  # noqa: E402

from hcljson_ls.hcljson.skim import Skim, Skimmed, skim, skim_value  # noqa: E402
from hcljson_ls.terraform import quick  # noqa: E402
from hcljson_ls.terraform.definition.schema import schema_for_path  # noqa: E402

PATH = "cdk.tf.json"


def certify(text: str, blocks: list[Skimmed]) -> tuple:
    """The certification of `blocks` (`quick._Quick.certify_blocks`): what a child sends back."""
    q = quick._Quick(text, PATH, None, Skim(tuple(blocks), 0, 0))
    certified = [True] * len(blocks)
    users = q.certify_blocks(certified, None)
    return certified, users, q.strings, bytes(q.repeats)


def forked(work_here, work_there) -> tuple[float, float, float, float, int]:
    """`work_there()` in a forked child, `work_here()` here: (fork, here, wait, read back) in seconds
    and the page faults taken here."""
    t0 = time.perf_counter()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its answer down the pipe, then gone without cleaning up
        os.close(r)
        with os.fdopen(w, "wb") as out:
            out.write(pickle.dumps(work_there(), pickle.HIGHEST_PROTOCOL))
        os._exit(0)
    os.close(w)
    t1 = time.perf_counter()
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    work_here()
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    t2 = time.perf_counter()
    with os.fdopen(r, "rb") as got:
        data = got.read()
    t3 = time.perf_counter()
    pickle.loads(data)
    os.waitpid(pid, 0)
    t4 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, t4 - t3, faults


def decoded(text: str, heads: list) -> list[Skimmed]:
    """The blocks at `heads` (each a `Skimmed` less its value) with their values decoded again."""
    return [Skimmed(*h, skim_value(text, h[4])[0]) for h in heads]  # type: ignore[index]


def after_the_skim(text: str, schema, half: int) -> tuple:
    """Every block decoded here, then certified serially, and split with a child (module doc)."""
    gc.disable()
    try:
        blocks = list(skim(text, schema).blocks)  # type: ignore[union-attr]
        t = time.perf_counter()
        certify(text, blocks)
        serial = time.perf_counter() - t
        return serial, *forked(lambda: certify(text, blocks[:half]), lambda: certify(text, blocks[half:]))
    finally:
        gc.enable()
        gc.collect()


def before_the_skim(text: str, heads: list, half: int) -> tuple:
    """Every block decoded and certified serially, then each half by one process (module doc)."""
    gc.disable()
    try:
        t = time.perf_counter()
        certify(text, decoded(text, heads))
        serial = time.perf_counter() - t
        return serial, *forked(lambda: certify(text, decoded(text, heads[:half])),
                               lambda: certify(text, decoded(text, heads[half:])))
    finally:
        gc.enable()
        gc.collect()


def _send(out, data: bytes) -> None:
    out.write(struct.pack("<Q", len(data)))
    out.write(data)
    out.flush()


def _receive(inp) -> bytes:
    (size,) = struct.unpack("<Q", inp.read(8))
    return inp.read(size)


def helper_loop() -> int:
    """The helper's side: for each (text, heads) it reads, the certification of those blocks back."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            data = _receive(inp)
        except struct.error:  # (the pipe closed: the benchmark is over)
            return 0
        heads = pickle.loads(data)
        text_bytes = _receive(inp)
        gc.disable()
        try:
            text = text_bytes.decode("utf-8")
            _send(out, pickle.dumps(certify(text, decoded(text, heads)), pickle.HIGHEST_PROTOCOL))
        finally:
            gc.enable()


class Helper:
    """A helper process (`helper_loop`), started once."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        self.proc = subprocess.Popen([sys.executable, __file__, "--helper"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.to, self.back = self.proc.stdin, self.proc.stdout

    def split(self, text: str, heads: list, half: int) -> tuple:
        """Every block decoded and certified serially, then this half here and the other in the
        helper (module doc)."""
        gc.disable()
        try:
            t = time.perf_counter()
            certify(text, decoded(text, heads))
            serial = time.perf_counter() - t
            # (The block positions, untimed: in a real split the helper would find them itself.)
            _send(self.to, pickle.dumps(heads[half:], pickle.HIGHEST_PROTOCOL))
            t0 = time.perf_counter()
            _send(self.to, text.encode("utf-8"))
            t1 = time.perf_counter()
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            certify(text, decoded(text, heads[:half]))
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
            t2 = time.perf_counter()
            data = _receive(self.back)
            t3 = time.perf_counter()
            pickle.loads(data)
            t4 = time.perf_counter()
            return serial, t1 - t0, t2 - t1, t3 - t2, t4 - t3, faults
        finally:
            gc.enable()
            gc.collect()

    def close(self) -> None:
        self.to.close()
        self.proc.wait()


def line(serial: float, fork: float, here: float, wait: float, back: float, faults: int) -> str:
    def ms(s: float) -> str:
        return f"{s * 1e3:6.1f}"
    return (f"serial {ms(serial)} | fork {ms(fork)}, here {ms(here)}, wait {ms(wait)}, read back {ms(back)}, "
            f"total {ms(fork + here + wait + back)} | faults here {faults}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5MB", help="a peer.py document: 5MB, 20MB...")
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--helper", action="store_true", help=argparse.SUPPRESS)  # (the helper's own side)
    args = parser.parse_args(argv)
    if args.helper:
        return helper_loop()
    if not hasattr(os, "fork"):
        print("no fork on this platform")
        return 0
    text = peer.document(args.size)
    schema = schema_for_path(PATH)
    heads = [b[:6] for b in skim(text, schema).blocks]  # type: ignore[union-attr]
    half = len(heads) // 2
    certify(text, decoded(text, heads[:100]))  # caches and code paths warm, as in a running server
    helper = Helper()
    helper.split(text, heads[:200], 100)  # (started, imported and warm before the first run)
    print(f"{args.size}: {len(heads)} blocks, {args.runs} runs (ms)")
    try:
        for _ in range(args.runs):
            print("after the skim: ", line(*after_the_skim(text, schema, half)))
            print("before the skim:", line(*before_the_skim(text, heads, half)))
            print("a helper:       ", line(*helper.split(text, heads, half)))
    finally:
        helper.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
