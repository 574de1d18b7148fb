"""One-character slips in a large document of tiny outputs (issue 23 "Hangs and blow-ups").

For each slip (the closing quote of a key or a value deleted, a `{`, `}`, `,` or `:` deleted) in the
middle of `{"output": {"out_0000000": {"value": 0}, ...}}` (indent 2), in-process: the number of
per-file diagnostics and the CPU time of the quick open (`DocumentState.open` + `quick()`) and of the
full analysis (`prepare` + `own_diagnostics`).

    python bench/bench_slips.py [N] [WORD]    # N outputs (default 100,000, ~5 MB); only the slips named with WORD
"""

from __future__ import annotations

import collections
import json
import sys
import time

from hcljson_ls.features.diagnostics import own_diagnostics
from hcljson_ls.workspace import DocumentState


def document(n: int) -> str:
    return json.dumps({"output": {f"out_{i:07d}": {"value": i} for i in range(n)}}, indent=2)


def slips(text: str, n: int) -> dict[str, str]:
    name = f'"out_{n // 2 + 113:07d}": {{'
    at = text.index(name)
    value = text.index('"value": ', at) + len('"value": ')
    line_end = text.index("\n", value)
    out = {
        "key's closing quote": text[: at + len(name) - 4] + text[at + len(name) - 3:],
        "value's `{`": text[: at + len(name) - 1] + text[at + len(name):],
        "`}` after the value": text[:line_end + 5] + text[line_end + 6:],
        "`,` after the block": text[: text.index("},", line_end)+1] + text[text.index("},", line_end) + 2:],
        "the key's `:`": text[: at + len(name) - 3] + text[at + len(name) - 2:],
    }
    # a string value: replace the number by a string first, then delete its closing quote
    quoted = text[:value] + '"abc"' + text[line_end:]
    q_end = value + 5
    out["a string value's closing quote"] = quoted[: q_end - 1] + quoted[q_end:]
    # a string value followed by `,` on its line: a `"description": "abc` member before the value
    line_start = text.rindex("\n", 0, value) + 1
    out["a string value's quote, `,` after"] = text[:line_start] + '      "description": "abc,\n' + text[line_start:]
    return out


def measure(text: str) -> tuple[int, float, int, float, collections.Counter]:
    started = time.process_time()
    state = DocumentState.open("file:///m/main.tf.json", text, 1, "terraform-json")
    quick = state.quick()
    q_time = time.process_time() - started
    q_count = len(quick.diagnostics) if quick is not None else -1
    started = time.process_time()
    state.prepare()
    diags = own_diagnostics(state)
    f_time = time.process_time() - started
    return q_count, q_time, len(diags), f_time, collections.Counter(d.code for d in diags)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    text = document(n)
    print(f"{n:,} outputs, {len(text) / 1e6:.1f} MB")
    cases = {"no slip (reference)": text, **slips(text, n)}
    if len(sys.argv) > 2:
        cases = {what: t for what, t in cases.items() if sys.argv[2] in what or t is text}
    for what, broken in cases.items():
        assert len(broken) == len(text) - 1 or "string value" in what or broken is text, what
        q_count, q_time, count, f_time, codes = measure(broken)
        print(f"{what:34} quick: {q_count:>6} diags {q_time:6.2f} s | full: {count:>6} diags {f_time:6.2f} s | {dict(codes.most_common(4))}")


if __name__ == "__main__":
    main()
