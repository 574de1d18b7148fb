"""atheris harness over the JSON layer, decoding, the Terraform analysis and the incremental reparse.

    python bench/fuzz/fuzz_parse.py [atheris / libFuzzer flags] [corpus directories]
    python bench/fuzz/fuzz_parse.py --seed-corpus DIR     write the seed corpus into DIR and exit

One input is the text of a file (its bytes decoded as UTF-8 with `surrogateescape`, so invalid bytes
arrive as lone surrogates) plus up to four edits derived deterministically from the input's CRC
(a crash reproduces from the input alone). For each input:

* `jsonsyntax.parse` never raises; its diagnostics are sorted and inside the text;
* the document's analysis (`DocumentState.analysis`: decode, structure, strings, references) never
  raises, for a configuration file, an override file and a test file (`.tftest.json`);
* after each edit, applied through `DocumentState.apply_changes` (the server's path: incremental
  reparse and analysis), the parse and every diagnostic equal those of a fresh open of the new text.

Not a test (atheris is not a test dependency): see bench/fuzz/README.md.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "server"))

from hcljson_ls.jsonsyntax import parse  # noqa: E402
from hcljson_ls.jsonsyntax.tree import snapshot  # noqa: E402
from hcljson_ls.text.encodings import UTF32  # noqa: E402
from hcljson_ls.workspace.document import DocumentState  # noqa: E402

PATHS = ("file:///fuzz/main.tf.json", "file:///fuzz/x_override.tf.json", "file:///fuzz/t.tftest.json")

#: What the edits insert: JSON punctuation, template syntax, names the analysis knows, odd characters.
PIECES = ['"', "{", "}", "[", "]", ":", ",", " ", "\n", "\\", "${", "%{", "}", "var.x", "local.a", "resource",
          "variable", "locals", "output", "module", '"type"', "1e5", "null", "\ud800", "\x00", "é", "😀", "\ufeff"]


def _diagnostics(state: DocumentState) -> list[tuple]:
    analysis = state.analysis
    found = [*state.syntax.diagnostics, *analysis.structure, *analysis.strings, *analysis.resolved]
    return sorted((d.start, d.end, d.code, d.message) for d in found)


def _check_parse(text: str) -> None:
    result = parse(text)
    spans = [(d.start, d.end) for d in result.diagnostics]
    assert spans == sorted(spans), spans
    assert all(0 <= s <= e <= len(text) for s, e in spans), (spans, len(text))


def check(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    _check_parse(text)
    rng = random.Random(zlib.crc32(data))
    uri = PATHS[rng.randrange(len(PATHS))]
    state = DocumentState.open(uri, text)
    _diagnostics(state)
    for _ in range(rng.randrange(5)):
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice((0, 0, 1, 2, 5, 20)))
        if rng.random() < 0.3 and text:
            at = rng.randrange(len(text))
            new = text[at : at + rng.randrange(1, 12)]  # a piece of the text itself
        else:
            new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 4)))
        index = state.line_index
        [edit] = state.apply_changes([(index.position(start, UTF32), index.position(end, UTF32), new)], UTF32)
        # (An offset inside a CRLF is a position at the line's end: the edit says where it went.)
        text = text[: edit.start] + new + text[edit.old_end :]
        assert state.text == text and edit.new_end == edit.start + len(new), edit
        fresh = DocumentState.open(uri, text)
        assert snapshot(state.syntax.root) == snapshot(fresh.syntax.root), (uri, start, end, new)
        assert _diagnostics(state) == _diagnostics(fresh), (uri, start, end, new)


def seed_corpus(directory: Path) -> int:
    """Write the seeds: every input of hashicorp/hcl's JSON tests and every real-world file of the
    test data's corpus (`tests/data/corpus`)."""
    shared = HERE.parents[1] / "tests" / "data" / "corpus"
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    with open(shared / "hcl-json-cases.jsonl", encoding="utf-8") as cases:
        for i, line in enumerate(cases):
            (directory / f"hcl-{i:03d}.json").write_text(json.loads(line)["input"], encoding="utf-8")
            count += 1
    for path in sorted((shared / "real").glob("*.json")):
        if path.stat().st_size <= 64_000:  # big files slow every execution down; their shapes recur in small ones
            (directory / path.name).write_bytes(path.read_bytes())
            count += 1
    return count


def main() -> None:
    if sys.argv[1:2] == ["--seed-corpus"]:
        print(f"{seed_corpus(Path(sys.argv[2]))} seeds written to {sys.argv[2]}")
        return
    import atheris  # lazy: only the fuzzing run needs it

    atheris.instrument_all()  # coverage feedback from every loaded module (ours included)
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
