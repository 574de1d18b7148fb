"""Fixture markers for the JSON syntax tests: `⟨` and `⟩` delimit an expected range in the source.

`extract("⟨{⟩")` -> ("{", [(0, 1)]). Ranges are listed in the order of their opening marker.
"""

OPEN, CLOSE = "⟨", "⟩"


def extract(annotated: str) -> tuple[str, list[tuple[int, int]]]:
    out: list[str] = []
    starts: list[int] = []
    ranges: list[tuple[int, int] | None] = []
    open_idx: list[int] = []
    n = 0
    for ch in annotated:
        if ch == OPEN:
            open_idx.append(len(ranges))
            ranges.append(None)
            starts.append(n)
        elif ch == CLOSE:
            i = open_idx.pop()
            ranges[i] = (starts[i], n)
        else:
            out.append(ch)
            n += 1
    assert not open_idx, "unbalanced markers"
    return "".join(out), [r for r in ranges if r is not None]
