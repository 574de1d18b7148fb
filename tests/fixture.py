"""The one fixture dialect of the tests (in the style of rust-analyzer's fixtures).

A fixture is the text of one or more files with markers in it; the markers are not part of the
text, and every offset below is an offset into the text without them:

* `$0` marks the cursor. At most one per fixture; two `$0` in the same file mark a selection
  (start..end) instead.
* `$[name]` marks a named position (`name`: letters, digits, `_`, `-`, `.`), for a text with
  several positions of interest (a case table over one document). Names are unique within a file;
  the same name may mark a position in several files (`Fixture.mark` then wants the path).
* `⟨` ... `⟩` mark an expected range. Ranges may nest; they are listed in the order of their
  opening marker.
* A line `//- /path/to/file.tf.json` starts a file: everything up to the next such line is that
  file's text (the newline that ends the header line is not part of it). A fixture without any
  header line is one file, `/main.tf.json`, whose text is the whole fixture as it is.
* When the first header line is indented (a fixture in an indented triple-quoted string), that
  indentation is removed from every line of the fixture.

    fixture = parse_fixture('{"a": ⟨1$0⟩}')
    fixture.only.text, fixture.only.ranges, fixture.only.cursor   # '{"a": 1}', [(6, 7)], 7

    fixture = parse_fixture('''
    //- /main.tf.json
    {"module": {"net": {"source": "./net"}}}
    //- /net/variables.tf.json
    {"variable": {⟨"cidr"⟩: {}}}
    ''')
    fixture.files["/net/variables.tf.json"].ranges                # [(14, 20)]
    fixture.write(tmp_path)                                       # {path: file on disk}

    ws = fixture.workspace(tmp_path)     # written, and a real Workspace on tmp_path with both files
    ws.uri("/net/variables.tf.json")     # open (with a $0, only its file; `ws.cursor` is (uri, offset))
    ws.snapshot().module_files(ws.uri("/main.tf.json"))

    fixture = parse_fixture('{"a": $[key]"k", "b": [1, $[second]2]}')
    fixture.only.marks                   # {'key': 6, 'second': 20}
    fixture.mark("second")               # ('/main.tf.json', 20); FixtureWorkspace.mark gives (uri, offset)

`lsp_range(text, start, end)` is an LSP range of `text` in code points (a `"utf-32"` edit's).

A fixture text cannot contain `$0`, `$[`, `⟨` or `⟩` literally (build such a text without this module).
Text before the first header line may only be blank. Malformed fixtures raise `FixtureError`.

A test marks the positions of a hand-written document with these markers, where a reader sees them,
never by searching the text (`TEXT.index('"web"') + 2`): tests/test_fixture.py fails on such a search.
A search that marks no position (in a generated or hypothesis-edited document, a text the server
wrote) says why on its line: `# search: <reason>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hcljson_ls.workspace import Snapshot, Workspace

CURSOR = "$0"
#: A named mark: `$[name]`.
MARK = re.compile(r"\$\[([A-Za-z0-9_.-]+)\]")
MARK_OPEN = "$["
OPEN, CLOSE = "⟨", "⟩"
HEADER = "//- "
#: The file of a fixture without header lines.
DEFAULT_PATH = "/main.tf.json"
#: What `Fixture.workspace` opens when there is no cursor (and no `open` list).
OPENED_BY_DEFAULT = (".tf.json", ".tofu.json")
#: The language id `Fixture.workspace` opens documents with.
LANGUAGE_ID = "terraform-json"


def lsp_range(text: str, start: int, end: int) -> dict:
    """The LSP range of `[start, end)` in `text`, lines and code points (what an edit sent with the
    `"utf-32"` position encoding names)."""

    def position(offset: int) -> dict:
        return {"line": text.count("\n", 0, offset), "character": offset - (text.rfind("\n", 0, offset) + 1)}

    return {"start": position(start), "end": position(end)}


class FixtureError(ValueError):
    """The fixture itself is malformed (unbalanced range markers, several cursors, bad headers)."""


@dataclass(frozen=True)
class FixtureFile:
    """One file of a fixture: its text without markers, and what the markers marked in it."""

    path: str
    text: str
    #: Expected ranges, (start, end) in the order of their opening `⟨`.
    ranges: list[tuple[int, int]] = field(default_factory=list)
    #: The offset of a single `$0`, else None.
    cursor: int | None = None
    #: (start, end) of two `$0` in this file, else None.
    selection: tuple[int, int] | None = None
    #: The offset of each named mark `$[name]`, in the order they were written.
    marks: dict[str, int] = field(default_factory=dict)

    @property
    def range_texts(self) -> list[str]:
        """The text of each expected range, in order."""
        return [self.text[s:e] for s, e in self.ranges]


@dataclass(frozen=True)
class Fixture:
    """The files of a fixture, by path (in the order they were written)."""

    files: dict[str, FixtureFile]

    @property
    def only(self) -> FixtureFile:
        """The single file of a one-file fixture."""
        if len(self.files) != 1:
            raise FixtureError(f"expected a one-file fixture, got {len(self.files)} files: {list(self.files)}")
        return next(iter(self.files.values()))

    @property
    def cursor_file(self) -> FixtureFile:
        """The file holding the cursor (or the selection)."""
        for f in self.files.values():
            if f.cursor is not None or f.selection is not None:
                return f
        raise FixtureError("the fixture has no $0 cursor")

    def mark(self, name: str, path: str | None = None) -> tuple[str, int]:
        """(path, offset) of the named mark `$[name]`: in the file `path`, or in the one file that has it."""
        if path is not None:
            f = self.files[path]
            if name not in f.marks:
                raise FixtureError(f"{path} has no mark $[{name}]: {list(f.marks)}")
            return path, f.marks[name]
        holders = [p for p, f in self.files.items() if name in f.marks]
        if len(holders) != 1:
            raise FixtureError(f"the mark $[{name}] is in {len(holders)} files {holders}: name the path")
        return holders[0], self.files[holders[0]].marks[name]

    def write(self, root: Path) -> dict[str, Path]:
        """Write every file under the directory `root` (`/a/b.tf.json` -> `root/a/b.tf.json`),
        byte for byte as UTF-8; returns the written path of each fixture path."""
        written: dict[str, Path] = {}
        for path, f in self.files.items():
            target = Path(root, *path.lstrip("/").split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(f.text.encode("utf-8"))
            written[path] = target
        return written

    def workspace(self, root: Path, open: Iterable[str] | None = None, engine: str = "auto") -> FixtureWorkspace:
        """Write every file under the real directory `root`, build a `Workspace([root], engine)` and
        open (version 1, language id `terraform-json`) the files named in `open`; by default the file
        holding the `$0` cursor or selection if there is one, else every `*.tf.json` / `*.tofu.json`
        file. Files not opened are still on disk, part of their module as the workspace reads them."""
        # Imported here: most users of this module never need a server.
        from hcljson_ls.workspace import Workspace
        from hcljson_ls.workspace.files import uri_of_path

        if open is None:
            cursor = [p for p, f in self.files.items() if f.cursor is not None or f.selection is not None]
            names = cursor or [p for p in self.files if p.endswith(OPENED_BY_DEFAULT)]
        else:
            names = list(dict.fromkeys(open))
            unknown = [p for p in names if p not in self.files]
            if unknown:
                raise FixtureError(f"cannot open {unknown}: not files of the fixture {list(self.files)}")
        paths = self.write(root)
        uris = {path: uri_of_path(str(target)) for path, target in paths.items()}
        workspace = Workspace([str(root)], engine=engine)
        for path in names:
            workspace.open(uris[path], self.files[path].text, 1, LANGUAGE_ID)  # the language id makes it ours
        return FixtureWorkspace(workspace, self, uris, paths)


@dataclass(frozen=True)
class FixtureWorkspace:
    """A fixture written to a directory, with a real `Workspace` over it (see `Fixture.workspace`)."""

    workspace: Workspace
    fixture: Fixture
    #: The `file:` URI of each fixture path.
    uris: dict[str, str]
    #: The file on disk of each fixture path.
    paths: dict[str, Path]

    def uri(self, path: str) -> str:
        """The URI of the fixture file `path` (`/app/main.tf.json`)."""
        return self.uris[path]

    def snapshot(self) -> Snapshot:
        return self.workspace.snapshot()

    @property
    def cursor(self) -> tuple[str, int]:
        """(uri, offset) of the fixture's single `$0`."""
        f = self.fixture.cursor_file
        if f.cursor is None:
            raise FixtureError(f"{f.path} holds a selection (two $0), not a cursor")
        return self.uris[f.path], f.cursor

    def mark(self, name: str, path: str | None = None) -> tuple[str, int]:
        """(uri, offset) of the named mark `$[name]` (see `Fixture.mark`)."""
        where, offset = self.fixture.mark(name, path)
        return self.uris[where], offset

    @property
    def selection(self) -> tuple[str, tuple[int, int]]:
        """(uri, (start, end)) of the fixture's two `$0`."""
        f = self.fixture.cursor_file
        if f.selection is None:
            raise FixtureError(f"{f.path} holds a single $0 cursor, not a selection")
        return self.uris[f.path], f.selection


def parse_fixture(src: str) -> Fixture:
    """Split `src` into its files and take the markers out of each (see the module docstring)."""
    files: dict[str, FixtureFile] = {}
    for path, marked in _split_files(src):
        if path in files:
            raise FixtureError(f"file {path} appears twice in the fixture")
        files[path] = _unmark(path, marked)
    with_cursor = [p for p, f in files.items() if f.cursor is not None or f.selection is not None]
    if len(with_cursor) > 1:
        raise FixtureError(f"more than one file holds a $0 cursor: {with_cursor}")
    return Fixture(files)


def _split_files(src: str) -> list[tuple[str, str]]:
    """[(path, marked text)]; one `/main.tf.json` when there is no header line."""
    pieces = src.split("\n")  # lines end at \n only (a CR or U+2028 in a text is not a header break)
    lines = [line + "\n" for line in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    first = next((line for line in lines if line.strip()), "")
    if not first.lstrip(" \t").startswith(HEADER):
        if any(line.startswith(HEADER) for line in lines):
            raise FixtureError(f"text before the first //- header line: {first[:60]!r}")
        return [(DEFAULT_PATH, src)]
    lines = _dedent(lines, first[: len(first) - len(first.lstrip(" \t"))])
    headers = [i for i, line in enumerate(lines) if line.startswith(HEADER)]
    out = []
    for n, i in enumerate(headers):
        path = lines[i][len(HEADER) :].rstrip("\r\n").strip()
        if not path.startswith("/") or any(c.isspace() for c in path):
            raise FixtureError(f"a //- header names one absolute path (/dir/file.tf.json): {lines[i]!r}")
        end = headers[n + 1] if n + 1 < len(headers) else len(lines)
        out.append((path, "".join(lines[i + 1 : end])))
    return out


def _dedent(lines: list[str], indent: str) -> list[str]:
    if not indent:
        return lines
    out = []
    for line in lines:
        if line.startswith(indent):
            out.append(line[len(indent) :])
        elif not line.strip():
            out.append(line.lstrip(" \t"))  # a blank line keeps only its line end
        else:
            raise FixtureError(f"line indented less than the first //- header line: {line!r}")
    return out


def _unmark(path: str, marked: str) -> FixtureFile:
    out: list[str] = []
    ranges: list[tuple[int, int] | None] = []
    open_ranges: list[int] = []  # indexes into `ranges`
    starts: list[int] = []
    cursors: list[int] = []
    marks: dict[str, int] = {}
    pos = i = 0
    while i < len(marked):
        if marked.startswith(CURSOR, i):
            cursors.append(pos)
            i += len(CURSOR)
            continue
        if marked.startswith(MARK_OPEN, i):
            named = MARK.match(marked, i)
            if named is None:
                raise FixtureError(f"{path}: $[ at marked offset {i} is not a mark $[name]")
            if named.group(1) in marks:
                raise FixtureError(f"{path}: the mark $[{named.group(1)}] appears twice")
            marks[named.group(1)] = pos
            i = named.end()
            continue
        ch = marked[i]
        if ch == OPEN:
            open_ranges.append(len(ranges))
            ranges.append(None)
            starts.append(pos)
        elif ch == CLOSE:
            if not open_ranges:
                raise FixtureError(f"{path}: {CLOSE} at marked offset {i} closes no {OPEN}")
            k = open_ranges.pop()
            ranges[k] = (starts[k], pos)
        else:
            out.append(ch)
            pos += 1
        i += 1
    if open_ranges:
        raise FixtureError(f"{path}: {len(open_ranges)} {OPEN} never closed")
    if len(cursors) > 2:
        raise FixtureError(f"{path}: {len(cursors)} $0 markers (one cursor, or two for a selection)")
    cursor = cursors[0] if len(cursors) == 1 else None
    selection = (cursors[0], cursors[1]) if len(cursors) == 2 else None
    return FixtureFile(path, "".join(out), [r for r in ranges if r is not None], cursor, selection, marks)
