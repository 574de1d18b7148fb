"""Text layer benchmark: a one-character edit at 5 MB versus 50 KB (the ratio is what matters).

Run: python bench/bench_text.py
Prints, for each size, the median time of making a LineIndex (`make`: the text's buffer only; the
line starts are found on first need), of building it (`build`: made and its line starts found), of a one-character
`Document.apply_changes` (splice + index update), of `LineIndex.update` alone, and of position
conversions; then the 5 MB / 50 KB ratios. An index whose update is independent of the document
size shows an update ratio near 1 (the splice itself is a memcpy of the whole text).
"""

from __future__ import annotations

import statistics
import time

from hcljson_ls.text import Document, LineIndex

LINE = '    "aws_instance_%d": {"ami": "ami-%d", "instance_type": "t3.micro"},\n'


def make(size: int, non_ascii: bool = False) -> str:
    parts, total, n = [], 0, 0
    while total < size:
        piece = LINE % (n, n)
        if non_ascii and n % 50 == 0:
            piece = piece.replace("micro", "micr\u00f6 \U0001f600")
        parts.append(piece)
        total += len(piece)
        n += 1
    return "".join(parts)


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(size: int, non_ascii: bool) -> dict[str, float]:
    text = make(size, non_ascii)
    out = {"lines": LineIndex(text).line_count}
    out["make"] = median_time(lambda: LineIndex(text), 7)
    out["build"] = median_time(lambda: LineIndex(text).line_count, 7)

    document = Document("bench", text)
    middle = document.line_index.line_count // 2
    state = {"flip": False}

    def edit() -> None:
        state["flip"] = not state["flip"]
        if state["flip"]:
            document.apply_changes([((middle, 8), (middle, 8), "x")])
        else:
            document.apply_changes([((middle, 8), (middle, 9), "")])

    out["apply_changes"] = median_time(edit, 201)

    index = LineIndex(text)
    at = index.line_start(middle) + 8
    with_x = text[:at] + "x" + text[at:]
    texts = (with_x, text)
    counter = {"n": 0}

    def update() -> None:
        counter["n"] += 1
        if counter["n"] % 2:
            index.update(at, at, "x", texts[0])
        else:
            index.update(at, at + 1, "", texts[1])

    out["update"] = median_time(update, 2001)

    offsets = [index.line_start(middle) + k for k in range(0, 60, 3)]

    def positions() -> None:
        for o in offsets:
            index.offset(index.position(o, "utf-16"), "utf-16")
            index.offset(index.position(o, "utf-8"), "utf-8")

    out["position_pairs"] = median_time(positions, 201) / (2 * len(offsets))
    return out


def main() -> None:
    for non_ascii in (False, True):
        label = "non-ASCII (some é and emoji)" if non_ascii else "ASCII"
        small = measure(50_000, non_ascii)
        large = measure(5_000_000, non_ascii)
        print(f"\n{label}: 50 KB = {small['lines']} lines, 5 MB = {large['lines']} lines")
        print(f"{'':16}{'50 KB':>12}{'5 MB':>12}{'ratio':>9}")
        for key in ("make", "build", "apply_changes", "update", "position_pairs"):
            a, b = small[key], large[key]
            print(f"{key:16}{a * 1e6:10.1f}us{b * 1e6:10.1f}us{b / a:9.1f}")


def extra() -> None:
    short = "".join('    "key_%d": "some-value",\n' % n for n in range(10**6))[:5_000_000]
    index = LineIndex(short)
    print(f"\nbuild, 5 MB in {index.line_count} short lines: {median_time(lambda: LineIndex(short).line_count, 7) * 1e3:.1f} ms")
    minified = "[" + ",".join('"v\u00e9%d\U0001f600"' % n for n in range(400_000)) + "]"
    index = LineIndex(minified)
    probes = list(range(0, len(minified), len(minified) // 200))
    t = median_time(lambda: [index.position(o, "utf-16") for o in probes], 5)
    print(
        f"{len(probes)} ascending utf-16 positions on one {len(minified) / 1e6:.1f} M-char non-ASCII line:"
        f" {t * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
    extra()
