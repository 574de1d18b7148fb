"""A decoded file kept up to date across edits, at a cost per edit that does not grow with the file.

    IncrementalFile(schema, checks=None)        one per document, kept across versions
      .note_edit(edit)                          every edit applied to the text, in order
      .update(text, root) -> FileResult         the analysis of `text` (its JSON tree `root`)
      .build_steps(text, root)                  the same from nothing, as a generator of short steps
    FileChecks                                  what a later layer adds per top-level block
    FileResult(body, structure, strings)        a `FileView` and sorted diagnostics (`diagnostic.Runs`)
    FileView                                    the decoded root body; absolute positions on demand
    analyze(text, root, schema, checks=None)    the same from scratch (no reuse)

Contract
--------
* `update(text, root)` returns exactly what `analyze(text, root, ...)` returns for the same text
  and tree (same diagnostics in the same order, the same decoded body), whatever edits came before;
  tests check this on random edit sequences. `root` must be the document's current JSON tree,
  maintained with `jsonsyntax.reparse` from the tree of the previous `update` (or parsed afresh),
  and every edit given to `reparse` must also be given to `note_edit` (the very same edit: where
  the tree changed is where the edit says). Without any noted edit, a different text or root is
  analysed from scratch, and the same text and root are taken as unchanged.
* The unit of reuse is the top-level block. Its results -- the decoded body (`decode.decode_top`),
  the decoder's diagnostics, and the later layer's (`FileChecks.block`: structure diagnostics,
  string diagnostics, definitions for cross-block rules) -- are computed once per body content and
  kept with positions RELATIVE to the body's start (diagnostics on the block's header keys are kept
  relative to the key they are on), keyed by the identity of the body's JSON node.
* Diagnostics: `structure` (the decoder's, then the later layer's block and cross-block rules) is
  sorted by (start, end, decoder-before-rules, code, message, related); `strings` and `resolved` by
  (start, end), in checking order within a position. All three are kept assembled as
  `diagnostic.Runs` (each diagnostic tagged with its group and owner: `_assembled`), which the
  result hands out as they are; an edit splices them.
* Fast path. When all edits since the previous update lie strictly inside the body of one
  top-level block whose place in the tree survived them (the JSON member holding the body is still
  the same object on the path from the root to the edit), only that block is computed again: its
  old diagnostics leave the assembled lists and its new ones go in, and the cross-block rules run
  again only when the block's definitions (keys, not positions) changed, or when they found
  something the last time and the block defines something inside its body (a finding may be
  placed by the text after a definition, which an edit inside the block can change: the `{` a
  duplicate of a nested `backend` is reported at, `FileChecks.cross`) -- over the kept keys,
  asking where a definition is only for those a diagnostic is about. The other diagnostics are
  not visited (`_spliced`): those starting before the block's are the previous runs, those after
  it the previous runs with the edit's delta noted once per run, and only those starting in the
  block's zone (its own, and any other there, moved one by one) make a new run; when one before or
  after it holds a place the edit moves otherwise (a related place across it), or the cross-block
  rules ran again, every diagnostic is moved one by one instead. The cost is the block's
  size, the depth of the tree, and binary searches over the top-level blocks and the runs. Edits noted
  between updates are composed into one covering edit as they come (`note_edit` is O(1) and keeps
  O(1) state, so notes never pile up, however many edits arrive without an update).
* Otherwise the root is walked again (`decode.walk_file`: label levels, not bodies) and every
  top-level block whose body node is the same object, untouched by the edits, with the same type,
  labels and schema, is reused; the others are computed. A full reparse (a new root) reuses nothing.
* Positions of kept blocks are never rewritten per edit: records hold live references into the
  tree (those of `decode.TopBlock`, whose `TopBlock` a record makes on demand: `_Record`), whose
  container-relative positions the JSON layer keeps current, and a
  kept body is re-based (`Body.shifted`) only when a view asks for it (`FileView.blocks`,
  `blocks_at`), then remembered at that position.
* A `FileView` (and what it returns) describes the version it was made for: use it before the next
  change, like the tree's nodes. `FileView.blocks_at(offset)` finds the top-level blocks a cursor
  can be on or in by a binary search (O(log n) probes, each O(depth)), so hover and `locate` never
  build the rest.
* `text` is a `str` or a `text.TextBuffer` (the document's own, edited in place: it is then taken
  as unchanged when it is the same object and no edit was noted). The fast path only slices it, so
  an edit never joins a buffer into one `str`; a walk joins it once.
* `FileResult.named()`: the keys the refs of every block name (`FileChecks.names`), counted per
  key as blocks are computed and dropped (the fast path counts the edited block's refs in and its
  old ones out; a walk, the blocks it computed and those it dropped), so an edit costs the refs of
  the blocks it touched; the frozenset is the same object until a key appears or goes.
* `build_steps(text, root)` is a first `update` cut into steps of `BUILD_STEP` blocks (decoded,
  checked, resolved; 4 x `BUILD_STEP` blocks and label keys walked): a generator, for an owner that
  answers requests between steps. It returns the very `FileResult` `update` would (same walk).
* Never raises on any tree the JSON layer produces; if a bug makes `update` raise, call `reset()`
  (the next update starts afresh).
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections import OrderedDict
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, cast

from ..diagnostic import Deferred, Diagnostic, Fix, Related, Runs
from ..jsonsyntax.tree import Container, Member, Node, member_at, member_shift
from ..steps import run_out
from ..text.buffer import TextBuffer
from .decode import Frame, TopBlock, decode_top, walk_file, walk_file_steps
from .model import Attribute, Block, Body, Label
from .schema import BodySchema

__all__ = ["IncrementalFile", "FileChecks", "FileResult", "FileView", "analyze", "structure_key"]

Definition = tuple[Hashable, int, int]

# Owners of assembled diagnostics besides the blocks' entries.
_ROOT = "root"
_CROSS = "cross"
# Where a kept position is anchored: the body (relative to its start), or a header key.
_BODY = "body"
_TYPE_KEY = -1
_ABSOLUTE = None  # could not be anchored (the entry is then never reused by a walk)

# Decoder diagnostics sort before the later layer's at the same range.
_DECODER = 0
_RULES = 1


class FileChecks:
    """What a later layer adds to the decode (the default adds nothing). Subclass and override."""

    def block(self, text: str, block: Block) -> tuple[list[Diagnostic], list[Diagnostic], list[Definition]]:
        """For top-level `block` (absolute positions): its structure diagnostics, its string
        diagnostics, and its definitions `(key, start, end)` for `cross` (`key` position-free).
        Every position must lie inside the block's body or be exactly one of its header keys
        (type key, a label key); anything else is still right, but the block is then computed
        again by every walk."""
        return [], [], []

    def blocks(self, text: str, blocks: Sequence[Block]) -> list[tuple[list[Diagnostic], list[Diagnostic], list[Definition]]]:
        """`block(text, b)` for each of `blocks`, in order (a walk asks for all the blocks it
        computes at once). A layer may override it to run each kind of check over every block
        before the next kind: that is faster than block by block (see `IncrementalFile._walk`)."""
        return [self.block(text, b) for b in blocks]

    def root(self, text: str, attributes: tuple[Attribute, ...]) -> tuple[list[Diagnostic], list[Diagnostic]]:
        """Structure and string diagnostics of the root body's attributes."""
        return [], []

    def decoded(self, block: Block, found: list[Diagnostic]) -> list[Diagnostic]:
        """The decoder's diagnostics of top-level `block` to keep (by default all of them): a layer
        drops those about a part its language does not read at all."""
        return found

    def cross(self, keys: Sequence[Hashable], place: Callable[[int], tuple[int, int]],
              text: str | TextBuffer) -> list[Diagnostic]:
        """Diagnostics across blocks from every definition: `keys[i]` is the key of definition
        `i` (in source order) and `place(i)` its range now, to be asked only for the definitions a
        diagnostic is about (finding where a definition is now costs more than its key); `text`
        the document's text now, for a rule that places a diagnostic by what follows a
        definition's place. Without any diagnostic, the keys alone must decide (the fast path
        then skips `cross` while they stay the same)."""
        return []

    def cross_steps(self, keys: Sequence[Hashable], place: Callable[[int], tuple[int, int]],
                    every: int, text: str | TextBuffer) -> Generator[None, None, list[Diagnostic]]:
        """`cross` as a generator pausing (yielding None) after every `every` keys, for the stepped
        build (`IncrementalFile.build_steps`); by default `cross` in one piece."""
        return self.cross(keys, place, text)
        yield  # (a generator)

    # A block's checks may also return, after its definitions, its `refs` (items with
    # `shifted(delta)`, absolute positions). Refs are then resolved, block by block, by `resolve`
    # against the file's own definition keys `own` and whatever the layer knows beyond the file; a
    # block is resolved again when a key its resolution used changes (in the file: found by the
    # engine; elsewhere: told through `IncrementalFile.rescope`).

    def resolve(self, refs: Sequence[Any], own: frozenset, text: Any) -> tuple[list[Diagnostic], frozenset]:
        """Diagnostics of one block's `refs` (same positions as the refs), and the keys the
        answer depends on (see `affected`). `text` is the current text seen in the refs' positions
        (a `str`, a `TextBuffer` or a `ShiftedText`: slice it, never call `str` methods on it)."""
        return [], frozenset()

    def affected(self, changed: frozenset) -> frozenset:
        """The `uses` keys whose resolution may differ when the declarations `changed` appeared or
        went (by default the changed keys themselves)."""
        return changed

    def names(self, refs: Sequence[Any]) -> Iterable[Hashable]:
        """The keys of what one block's `refs` name (one per ref naming something; by default
        none): what `FileResult.named` gathers over the file."""
        return ()

    def let_go(self, refs: Sequence[Any]) -> None:
        """The engine let a block's decoded body go (see `KEPT_BODIES`): drop what the block's
        `refs` hold of it, if anything (a ref resolved later then reads the tree again)."""


class FileResult:
    """One version's analysis: `body` (a `FileView`), `structure`, `strings` and `resolved`
    (the blocks' refs resolved, see `FileChecks.resolve`) diagnostics (sequences: the engine's are
    `diagnostic.Runs` sharing the previous version's runs, see the module doc), `structure_groups` (per
    structure diagnostic, 0 from the decoder, 1 from the later layer: with `structure_key`, the
    order `structure` is sorted in, for a reader merging it with others), `definitions_revision`,
    a number that changes exactly when the definitions' keys (the `FileChecks` definitions of every
    block, in order) changed since the engine's previous update; `definitions()` lists them (for
    rules across files); `definition_keys`, the set of their keys (the one the blocks' refs were
    resolved with: a reader needing the set shares it rather than making one of its own, ~70 B a
    block); `named()`, the keys the blocks' refs name (`FileChecks.names`)."""

    __slots__ = ("body", "structure", "strings", "resolved", "definitions_revision", "_definitions",
                 "_groups", "_named", "definition_keys")

    def __init__(self, body: FileView, structure: Sequence[Diagnostic], strings: Sequence[Diagnostic],
                 definitions_revision: int = 0,
                 definitions: Callable[[], tuple[list[Hashable], Callable[[int], tuple[int, int]]]] | None = None,
                 resolved: Sequence[Diagnostic] | None = None, structure_groups: list[int] | None = None,
                 named: Callable[[], frozenset] | None = None, definition_keys: frozenset | None = None) -> None:
        self.body = body
        self.structure = structure
        self._groups = structure_groups
        self.strings = strings
        self.resolved = resolved if resolved is not None else []
        self.definitions_revision = definitions_revision
        # How to compute them until asked for, then what they are (`definitions`).
        self._definitions: Any = definitions
        self._named = named
        self.definition_keys: frozenset = definition_keys if definition_keys is not None else frozenset(self.definitions()[0])

    @property
    def structure_groups(self) -> list[int]:
        """Per structure diagnostic, 0 from the decoder, 1 from the later layer (made on first read
        from the engine's assembled runs)."""
        groups = self._groups
        if groups is None:
            structure = self.structure
            groups = self._groups = [cast(tuple, tag)[1] for r in structure.runs for tag in r.tags()] \
                if isinstance(structure, Runs) else []
        return groups

    def named(self) -> frozenset:
        """The keys the file's refs name (`FileChecks.names` over every block): the same object
        until one appears or goes, so a reader may remember what it derived from it by identity."""
        return self._named() if self._named is not None else _NO_KEYS

    def definitions(self) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        """Every definition's key in source order, and `place(i)`: where definition `i` is in this
        version (ask only for the few you report: finding a place costs more than a key)."""
        made = self._definitions
        if made is None:
            return [], _nowhere
        if callable(made):  # computed once per version (it walks every block)
            made = self._definitions = made()
        return made


def _nowhere(i: int) -> tuple[int, int]:
    raise IndexError(i)


class ShiftedText:
    """`text` read in the positions of a block whose body has moved by `delta` since its results
    were computed: `view[a:b] == text[a + delta:b + delta]` (what `FileChecks.resolve` may slice)."""

    __slots__ = ("_text", "_delta")

    def __init__(self, text: Any, delta: int) -> None:
        self._text = text
        self._delta = delta

    def __len__(self) -> int:
        return len(self._text) - self._delta

    def __getitem__(self, key: int | slice) -> str:
        d = self._delta
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            stop = len(self) if key.stop is None else key.stop
            return self._text[max(0, start + d) : max(0, stop + d)]
        return self._text[key + d]


def _seen_from(text: Any, delta: int) -> Any:
    return text if delta == 0 else ShiftedText(text, delta)


_NONE: tuple = ()
#: The items per definition in `_Entry.defs`.
_DEF = 4
_NO_KEYS: frozenset = frozenset()


class _Entry:
    """The results of one top-level block, positioned relative to its body (see module doc)."""

    __slots__ = ("node", "schema", "type_name", "labels", "base", "structure", "anchored", "strings",
                 "defs", "pinned", "quiet", "vbase", "vbody", "memo", "refs", "uses", "resolved")

    def __init__(self, node: Node, schema: BodySchema, type_name: str, labels: str | tuple[str, ...], base: int, body: Body) -> None:
        self.node = node
        self.schema = schema
        self.type_name = type_name
        self.labels = labels
        self.base = base  # the body's absolute start when computed: the frame of every kept position
        # Per block, most of these are empty: they share one empty tuple and one empty frozenset
        # (`_NONE`, `_NO_KEYS`) rather than 5 empty lists (56 B each) and a frozenset (216 B) of
        # their own. With 125,000 tiny outputs (6 MB) that was ~70 MB of the open document.
        self.structure: Sequence[tuple[Diagnostic, int]] = _NONE  # inside the body
        self.anchored: Sequence[tuple[int | None, Diagnostic, int]] = _NONE  # on a header key (or absolute)
        self.strings: Sequence[Diagnostic] = _NONE
        # Definitions, flat: `key, anchor or _BODY, start, end` per definition (see `_DEF`).
        self.defs: tuple = _NONE
        self.pinned = False
        self.quiet = True  # no diagnostics at all (the usual case: nothing to place)
        self.vbase = base  # the decoded body, as last re-based for a view (only one copy is kept)
        self.vbody: Body | None = body
        self.memo: dict | None = None  # later layers' per-block results (see `FileView.memo`)
        self.refs: Sequence[Any] = _NONE  # the checks' refs (absolute at `base`, like `strings`)
        self.uses: frozenset = _NO_KEYS
        self.resolved: Sequence[Diagnostic] = _NONE  # `refs` resolved (absolute at `base`)

    def body_at(self, top: TopBlock, text: str, kept: _Kept) -> Body:
        """The decoded body at the block's current place `top` in `text`: the one kept, moved, or
        decoded again when `kept` let it go."""
        start = top.body_start
        body = self.vbody
        if body is None:
            self.vbody = body = decode_top(text, top)[0].body
            self.vbase = start
            kept.add(self)
        elif start != self.vbase:
            self.vbody = body = body.shifted(start - self.vbase)
            self.vbase = start
        return body


#: How many top-level blocks `IncrementalFile.build_steps` decodes, checks or resolves per step
#: (a few ms for CDKTF-like resources; less for small blocks).
BUILD_STEP = 64
#: A stepped build's passes over every block that do little per block (collecting definitions,
#: the duplicate check, the set of keys) pause every `_PASS_STEP * BUILD_STEP` blocks.
_PASS_STEP = 64

#: How many top-level blocks of a file keep their decoded body (`_Kept`).
KEPT_BODIES = 512
#: How many decoded top-level blocks a walk checks at once (`IncrementalFile._walk`).
_BATCH = 512


class _Kept:
    """The entries that keep their decoded body, the last `limit` made or used: the others let it
    go (`_Entry.vbody` None) and decode it again when a view asks (`_Entry.body_at`).

    Why: a decoded body is ~1 KB of objects for the smallest block. Kept for every block, a 39 MB
    file of 495,000 tiny blocks took 3 GB; requests need only the bodies of the blocks they look
    at, and whole-file requests keep per-block results of their own (`FileView.memo`)."""

    __slots__ = ("_entries", "limit", "let_go")

    def __init__(self, limit: int, let_go: Callable[[Sequence[Any]], None] | None = None) -> None:
        self.limit = limit
        self.let_go = let_go  # told the refs of an entry whose body goes (`FileChecks.let_go`)
        self._entries: OrderedDict[int, _Entry] = OrderedDict()

    def add(self, entry: _Entry) -> None:
        entries = self._entries
        entries[id(entry)] = entry
        entries.move_to_end(id(entry))
        while len(entries) > self.limit:
            _, old = entries.popitem(last=False)
            old.vbody = None
            if old.refs and self.let_go is not None:
                self.let_go(old.refs)


class _Head:
    """What the top-level blocks of one root property share (a `TopBlock`'s fields that do not
    differ between them): their type, schemas, and the type key's live place in the root."""

    __slots__ = ("type_name", "schema", "body_schema", "type_key", "type_frame", "type_index")

    def __init__(self, top: TopBlock) -> None:
        self.type_name = top.type_name
        self.schema = top.schema
        self.body_schema = top.body_schema
        self.type_key = top.type_key
        self.type_frame = top.type_frame
        self.type_index = top.type_index


class _Record:
    """One top-level block of the current skeleton: where it is (live references into the tree,
    see `decode.TopBlock`) and its entry. Its `TopBlock` is made on demand (`current`).

    Why not keep the walk's `TopBlock`: with its label tuples and `Label`s it was ~460 B a block,
    a quarter of what a file of tiny blocks kept (30,000 outputs, tracemalloc). A record keeps the
    live references only: the fields every block of a root property shares in one `_Head`, and the
    label keys only when they cannot be told from the holder (`lkeys` None: one label whose key is
    the holder's own, the usual `"output": {"name": {...}}`). The label values are the entry's."""

    __slots__ = ("head", "holder", "frame", "holder_index", "lkeys", "entry")

    def __init__(self, top: TopBlock, entry: _Entry, head: _Head) -> None:
        self.head = head
        holder = self.holder = top.holder
        frame = self.frame = top.frame
        hi = self.holder_index = top.holder_index
        lk = top.label_keys
        if len(lk) == 1 and lk[0][0] is holder.key and lk[0][1] is frame and lk[0][2] == hi:
            self.lkeys = None
        else:
            self.lkeys = lk
        self.entry = entry

    def body_start(self) -> int:
        v = self.holder.value
        return self.frame.member_base(self.holder_index) + (v.start if v is not None else 0)

    def label_keys(self) -> tuple[tuple[Node, Frame, int], ...]:
        lk = self.lkeys
        if lk is None:
            return ((cast(Node, self.holder.key), self.frame, self.holder_index),)
        return lk

    def current(self) -> TopBlock:
        """The block's `TopBlock` with the positions it has now (members on its way may carry a
        pending shift: see `decode.Frame`)."""
        head = self.head
        tf = head.type_frame.member_base(head.type_index)
        tk = head.type_key
        lkeys = self.label_keys()
        values = self.entry.labels
        if type(values) is str:
            values = (values,)
        labels = tuple([Label(value, b + k.start, b + k.end)
                        for value, (k, f, i) in zip(values, lkeys) for b in (f.member_base(i),)])
        # (a block's holder always has a value: the body)
        return TopBlock(head.type_name, tf + tk.start, tf + tk.end, labels, head.schema, head.body_schema,
                        cast(Node, self.holder.value), self.frame.member_base(self.holder_index), tk, head.type_frame,
                        lkeys, self.holder, self.frame, head.type_index, self.holder_index)


def _head(heads: dict[int, _Head], top: TopBlock) -> _Head:
    """The `_Head` of `top`, shared by the blocks of its root property (`heads`: by type key, for
    one walk)."""
    head = heads.get(id(top.type_key))
    if (head is None or head.type_frame is not top.type_frame or head.type_index != top.type_index
            or head.schema is not top.schema or head.body_schema is not top.body_schema):
        head = heads[id(top.type_key)] = _Head(top)
    return head


def _anchor_of(top: TopBlock, start: int, end: int) -> int | None:
    """The header key of `top` whose range is exactly `[start, end)`: the last label's index (the
    usual case: the header), another label's, `_TYPE_KEY`, or None."""
    labels = top.labels
    for i in range(len(labels) - 1, -1, -1):
        lab = labels[i]
        if lab.start == start and lab.end == end:
            return i
    if top.type_start == start and top.type_end == end:
        return _TYPE_KEY
    return None


def _anchors(top: TopBlock) -> dict:
    """Header key ranges by anchor: the type key, then each label."""
    out = {_TYPE_KEY: (top.type_start, top.type_end)}
    for i, lab in enumerate(top.labels):
        out[i] = (lab.start, lab.end)
    return out


def _skey(item: tuple) -> tuple:
    d = item[0]
    # A deferred "Did you mean" (`problems.unknown_name`) is not worked out to be sorted: its known
    # parts order it (at one range, equal known parts come with equal deferred ones).
    detail, fixes = d.known if type(d) is Deferred else (d.detail, d.fixes)
    return (d.start, d.end, item[1], d.code, d.summary, detail, tuple((r.start, r.end, r.message) for r in d.related),
            tuple((f.start, f.end, f.new_text) for f in fixes))  # two blocks of one header differ only here


def structure_key(d: Diagnostic, group: int) -> tuple:
    """The order of `FileResult.structure`: by range, the decoder's (group 0) before the later
    layer's (group 1), then by content (`group` from `FileResult.structure_groups`)."""
    return _skey((d, group))


def _tkey(item: tuple) -> tuple[int, int]:
    d = item[0]
    return (d.start, d.end)


def _moved(d: Diagnostic, s: int, oe: int, delta: int) -> Diagnostic:
    """`d` (outside the edited range) as it is after `[s, oe)` was replaced (length + `delta`)."""
    if type(d) is Deferred and d.deferred and not d.related:
        # Its suggestion not looked for yet (`diagnostic.Deferred`): moved whole, it stays so.
        if d.end < s:
            return d
        if d.start >= oe:
            return d.shifted(delta)
    if d.end < s and all(r.end < s for r in d.related) and all(f.end < s for f in d.fixes):
        return d
    if d.start >= oe and not d.related and not d.fixes:
        # The common case after an edit: a plain diagnostic further on. A direct constructor costs
        # a third of `dataclasses.replace` (measured on a 500 KB document's edits).
        return Diagnostic(d.start + delta, d.end + delta, d.severity, d.code, d.summary, d.detail)
    if delta and d.start >= oe and all(r.start >= oe for r in d.related) and all(f.start >= oe for f in d.fixes):
        # Further on with its related places and fixes (a "Did you mean ...?"): everything moves by
        # `delta` (what `mv` gives for a start at or after `oe`), by direct constructors.
        return Diagnostic(
            d.start + delta, d.end + delta, d.severity, d.code, d.summary, d.detail,
            tuple(Related(r.start + delta, r.end + delta, r.message, r.uri) if r.uri is None else r for r in d.related),
            tuple(Fix(f.start + delta, f.end + delta, f.new_text, f.title) for f in d.fixes),
        )

    def mv(a: int, b: int) -> tuple[int, int]:
        na = a + delta if a >= oe else a
        nb = b + delta if b >= oe and (b > s or na != a) else b
        return na, nb

    a, b = mv(d.start, d.end)
    rel = d.related
    if rel:
        rel = tuple(replace(r, start=x, end=y) if r.uri is None else r for r in rel for x, y in (mv(r.start, r.end),))
    fixes = d.fixes
    if fixes:
        fixes = tuple(replace(f, start=x, end=y) for f in fixes for x, y in (mv(f.start, f.end),))
    if a == d.start and b == d.end and rel == d.related and fixes == d.fixes:
        return d
    return replace(d, start=a, end=b, related=rel, fixes=fixes)


def _defines_inside(e: _Entry) -> bool:
    """Whether block entry `e` has a definition that is not on a header key (inside its body)."""
    defs = e.defs
    return any(defs[j] is _BODY or defs[j] is None for j in range(1, len(defs), _DEF))


def _inside(d: Diagnostic, start: int, end: int) -> bool:
    return start <= d.start and d.end <= end and all(start <= r.start and r.end <= end for r in d.related)


class IncrementalFile:
    """See the module docstring. `hits`/`misses` count top-level blocks reused / computed,
    `fast`/`walks` updates done by the fast path / by a walk of the root."""

    __slots__ = ("schema", "checks", "_root", "_text", "_records", "_attributes", "_structure", "_strings",
                 "_resolved", "_own", "_owners", "_pending", "_result", "_keys", "definitions_revision", "hits", "misses",
                 "fast", "walks", "_kept", "_uses_pool", "_named", "_named_keys", "_crossed")

    def __init__(self, schema: BodySchema, checks: FileChecks | None = None) -> None:
        self.schema = schema
        self.checks = checks if checks is not None else FileChecks()
        self.hits = self.misses = self.fast = self.walks = 0
        self.definitions_revision = 0  # bumped when the definitions' keys change (see `FileResult`)
        self.reset()

    def reset(self) -> None:
        """Forget everything (the next update starts afresh)."""
        self._root: Node | None = None
        self._text: str | TextBuffer | None = None
        self._records: list[_Record] = []
        self._attributes: tuple[Attribute, ...] = ()
        # The assembled diagnostics as runs (`_assembled`), each tagged with its item: (diagnostic,
        # group, owner) sorted by _skey for `_structure`, (diagnostic, owner) by (start, end) for
        # `_strings` and `_resolved` (the item's diagnostic is the run's before its delta).
        self._structure: Runs = _NO_RUNS
        self._strings: Runs = _NO_RUNS
        self._resolved: Runs = _NO_RUNS
        self._own: frozenset | None = None  # the set of the definitions' keys the blocks were resolved with
        self._owners: tuple | None = None  # (stamp, keys, owners) of `_current_definitions`
        self._pending: tuple[int, int, int] | None = None
        self._result: FileResult | None = None
        self._keys: list[Hashable] | None = None  # the definitions' keys after the last walk
        self._crossed = False  # whether the cross-block rules found anything the last time they ran
        self._kept = _Kept(KEPT_BODIES, self.checks.let_go)  # the entries that keep their decoded body
        self._uses_pool: dict[frozenset, frozenset] = {}  # one copy of each blocks' `uses` set
        self._named: dict[Hashable, int] = {}  # key -> how many refs name it (`FileChecks.names`)
        self._named_keys: frozenset | None = _NO_KEYS  # its keys, None until asked for again

    def note_edit(self, edit: Any) -> None:
        """`old[edit.start:edit.old_end]` became `new[edit.start:edit.new_end]`; edits compose."""
        s2, oe2, ne2 = edit.start, edit.old_end, edit.new_end
        p = self._pending
        if p is None:
            self._pending = (s2, oe2, ne2)
            return
        s, oe, ne = p
        x = max(ne, oe2)  # the covering edit's end in the text before this edit
        self._pending = (min(s, s2), oe + (x - ne), x + (ne2 - oe2))

    # ---- updating ---------------------------------------------------------------------------------

    def update(self, text: str | TextBuffer, root: Node | None) -> FileResult:
        cover = self._pending
        self._pending = None
        old = self._text
        same = text is old or (isinstance(text, str) and text == old)
        if old is not None and root is self._root and self._result is not None and (cover is not None or same):
            if cover is None:
                return self._result
        else:
            cover = None
            self._records = []
        if cover is None or root is None or not self._fast(text, root, cover):
            # A walk reads the whole text: join a buffer once rather than slice it piecemeal.
            self._walk(text if isinstance(text, str) else text.full(), root, cover)
        self._root = root
        self._text = text
        return self._make_result()

    def _make_result(self) -> FileResult:
        records = self._records
        self._result = FileResult(
            FileView(self._root, self.schema, self._attributes, records, self._text, self._kept),  # type: ignore[arg-type]
            self._structure,
            self._strings,
            self.definitions_revision,
            self._current_definitions,
            self._resolved,
            None,
            self._named_now,
            self._own,
        )
        return self._result

    def _named_now(self) -> frozenset:
        """`FileResult.named`: the keys of `_named`, one frozenset until a key appears or goes."""
        keys = self._named_keys
        if keys is None:
            keys = self._named_keys = frozenset(self._named)
        return keys

    def _count(self, named: dict[Hashable, int], refs: Sequence[Any], sign: int) -> bool:
        """Count what `refs` name into `named` (`sign` 1) or out of it (-1); True when a key
        appeared or went. (Count a block's new refs in before its old ones out: a key both name
        then never goes and comes back.)"""
        if not refs:
            return False
        changed = False
        for k in self.checks.names(refs):
            n = named.get(k, 0) + sign
            if n > 0:
                named[k] = n
                changed = changed or n == sign  # (1: it appeared)
            else:
                named.pop(k, None)
                changed = True
        return changed

    def rescope(self, changed: frozenset) -> FileResult | None:
        """Declarations outside the file `changed` (appeared or went): resolve again the blocks
        whose refs use them. Returns the new result, or None when there is no result yet (the
        next `update` resolves everything) or nothing was affected."""
        if self._result is None or self._pending is not None or not changed:
            return None
        affected = self.checks.affected(changed)
        stale = [r for r in self._records if r.entry.uses and not affected.isdisjoint(r.entry.uses)]
        if not stale:
            return None
        entries = {id(r.entry) for r in stale}
        resolved = [item for item in _items(self._resolved) if id(item[1]) not in entries]
        for r in stale:
            delta = r.body_start() - r.entry.base
            self._resolve(r.entry, self._text, delta)
            for d in r.entry.resolved:
                insort(resolved, (d.shifted(delta), r.entry), key=_tkey)
        self._resolved = _assembled(resolved)
        return self._make_result()

    def _resolve(self, e: _Entry, text: Any, delta: int) -> None:
        """Resolve `e`'s refs; `text` is the current text, where `e`'s body has moved by `delta`."""
        if e.refs:
            resolved, uses = self.checks.resolve(e.refs, self._own or _NO_KEYS, _seen_from(text, delta))
            e.resolved = tuple(resolved) or _NONE
            # Blocks of one file mostly use the same few key sets: one copy each (`_uses_pool`,
            # rebuilt by every walk so it holds only sets in use). 2.3 MB of 5-key frozensets
            # for a 4 MB CDKTF-like document before.
            e.uses = self._uses_pool.setdefault(uses, uses) if uses else _NO_KEYS
        else:
            e.resolved, e.uses = _NONE, _NO_KEYS

    def _compute(self, text: str | TextBuffer, top: TopBlock) -> _Entry:
        source = cast(str, text)  # (a buffer answers the slicing and indexing the decoder and checks do)
        block, decoded = decode_top(source, top)
        return self._entry(top, block, self.checks.decoded(block, decoded), *self.checks.block(source, block))

    def _entry(self, top: TopBlock, block: Block, decoded: list[Diagnostic], structure: list[Diagnostic],
               strings: list[Diagnostic], defs: list[Definition], refs: Sequence[Any] = ()) -> _Entry:
        """The entry of top-level block `top` from its decoded `block` and the checks' results."""
        self.misses += 1
        body = block.body
        bs, be = body.start, body.end
        e = _Entry(top.node, top.body_schema, top.type_name, _label_values(top), bs, body)
        self._kept.add(e)
        pinned = False
        if decoded or structure:
            inside: list[tuple[Diagnostic, int]] = []
            anchored: list[tuple[int | None, Diagnostic, int]] = []
            for group, diags in ((_DECODER, decoded), (_RULES, structure)):
                for d in diags:
                    if _inside(d, bs, be):
                        inside.append((d, group))
                    else:
                        anchor = _anchor_of(top, d.start, d.end) if not d.related else None
                        pinned = pinned or anchor is None
                        anchored.append((anchor, d, group))
            e.structure = tuple(inside) or _NONE
            e.anchored = tuple(anchored) or _NONE
        if strings:
            for d in strings:
                pinned = pinned or not _inside(d, bs, be)
            e.strings = tuple(strings)
        if defs:
            # One flat tuple; a definition on a header key keeps no range (its anchor says where it
            # is): a tuple per definition and its two ints were 184 B a block (30,000 outputs).
            kept_defs: list = []
            for key, s, t in defs:
                if bs <= s and t <= be:
                    kept_defs += (key, _BODY, s, t)
                else:
                    anchor = _anchor_of(top, s, t)
                    if anchor is None:
                        pinned = True
                        kept_defs += (key, anchor, s, t)
                    else:
                        kept_defs += (key, anchor, 0, 0)
            e.defs = tuple(kept_defs)
        e.pinned = pinned
        e.quiet = not (e.structure or e.anchored or e.strings)
        e.refs = tuple(refs) or _NONE
        return e

    @staticmethod
    def _placed(e: _Entry, top: TopBlock, structure: list, strings: list) -> None:
        """Append `e`'s diagnostics at the positions of `top` (current) to the assembled lists."""
        if e.quiet:
            return
        delta = top.body_start - e.base
        for d, g in e.structure:
            structure.append((d.shifted(delta), g, e))
        if e.anchored:
            anchors = _anchors(top)
            for anchor, d, g in e.anchored:
                if anchor is not _ABSOLUTE:
                    a, b = anchors[anchor]
                    if (a, b) != (d.start, d.end) or (d.fixes and delta):
                        # A fix inside the body (an argument to add) moves with the body; one on the
                        # header key, with the key.
                        moved = a - d.start
                        fixes = tuple(
                            replace(f, start=f.start + (delta if f.start >= e.base else moved),
                                    end=f.end + (delta if f.start >= e.base else moved))
                            for f in d.fixes
                        )
                        d = replace(d, start=a, end=b, fixes=fixes)
                structure.append((d, g, e))
        for d in e.strings:
            strings.append((d.shifted(delta), e))

    def _current_definitions(self) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        """`_definitions` of the current records, the keys and owners kept while the same records
        hold the same definitions (an edit inside a block keeps both: it costs O(1), not O(blocks),
        measured ~3 ms at 5 MB per request that asks where a declaration is)."""
        records = self._records
        stamp = (id(records), len(records), self.definitions_revision)
        cached = self._owners
        if cached is not None and cached[0] == stamp:
            return cached[1], self._placer(cached[2])
        keys, owners = self._collect_definitions(records)
        self._owners = (stamp, keys, owners)
        return keys, self._placer(owners)

    @classmethod
    def _collect_definitions(cls, records: list[_Record]) -> tuple[list[Hashable], list[_Record | tuple[_Record, int]]]:
        return run_out(cls._collect_definitions_steps(records, 0))

    @staticmethod
    def _collect_definitions_steps(records: list[_Record], step: int) -> Generator[
            None, None, tuple[list[Hashable], list[_Record | tuple[_Record, int]]]]:
        """`_collect_definitions`, pausing after every `step` records (0: never)."""
        keys: list[Hashable] = []
        # An owner is the record itself for its first definition, `(record, j)` for the others:
        # most blocks define one thing, and a pair per definition was 64 B each (1.9 MB for
        # 30,000 tiny outputs, tracemalloc).
        owners: list[_Record | tuple[_Record, int]] = []
        for n, r in enumerate(records):
            if step and n % step == 0 and n:
                yield
            defs = r.entry.defs
            if defs:
                keys.append(defs[0])
                owners.append(r)
                for j in range(_DEF, len(defs), _DEF):
                    keys.append(defs[j])
                    owners.append((r, j))
        return keys, owners

    @classmethod
    def _definitions(cls, records: list[_Record]) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        """Every record's definition keys in order, and where definition `i` is now (from the live
        tree)."""
        keys, owners = cls._collect_definitions(records)
        return keys, cls._placer(owners)

    @staticmethod
    def _placer(owners: list[_Record | tuple[_Record, int]]) -> Callable[[int], tuple[int, int]]:

        def place(i: int) -> tuple[int, int]:
            o = owners[i]
            r, j = (o, 0) if isinstance(o, _Record) else o
            e = r.entry
            _, where, s, t = e.defs[j : j + _DEF]
            if where is _ABSOLUTE:
                return s, t
            top = r.current()
            if where == _BODY:
                delta = top.body_start - e.base
                return s + delta, t + delta
            return _anchors(top)[where]

        return place

    def build_steps(self, text: str, root: Node | None) -> Generator[None, None, FileResult]:
        """`update(text, root)` of an engine with nothing to reuse (a new one, or after `reset`),
        as a generator: it yields (None) between short steps (`BUILD_STEP` top-level blocks
        decoded, checked or resolved) and returns the `FileResult`. The engine must not be used
        by anyone else until it returns; `text` must not change meanwhile (a `str`)."""
        self.reset()
        yield from self._walk_steps(text, root, None, BUILD_STEP)
        for runs in (self._structure, self._strings, self._resolved):
            # Where each diagnostic's places are, which an edit's splice asks (`_spliced`), found now
            # rather than by the first edit: ~0.3 us a diagnostic, a step per list (as many steps
            # whatever the diagnostics: a walk's list is one run).
            yield
            for run in runs.runs:
                run.base.bounds()
        self._root = root
        self._text = text
        return self._make_result()

    def _walk(self, text: str, root: Node | None, cover: tuple[int, int, int] | None) -> None:
        for _ in self._walk_steps(text, root, cover, 0):
            pass

    def _walk_steps(self, text: str, root: Node | None, cover: tuple[int, int, int] | None, step: int) -> Iterator[None]:
        """The walk (see the module doc); with `step`, a generator that pauses after every `step`
        blocks decoded, checked or resolved (0: never)."""
        self.walks += 1
        walk = (yield from walk_file_steps(text, root, self.schema, 4 * step)) if step else walk_file(text, root, self.schema)
        # The walk's `TopBlock`s, each let go once its record is made (below): with their labels
        # they were ~460 B a block, all alive together with every entry at the end of a walk.
        tops: list[TopBlock | None] = list(walk.tops)
        if step:
            yield
        attributes = walk.attributes
        old: dict[int, _Entry] = {}
        if cover is not None:
            old = {id(r.entry.node): r.entry for r in self._records}
        structure: list[tuple] = [(d, _DECODER, _ROOT) for d in walk.diagnostics]
        del walk
        strings: list[tuple] = []
        rs, rstr = self.checks.root(text, attributes)
        structure.extend((d, _RULES, _ROOT) for d in rs)
        strings.extend((d, _ROOT) for d in rstr)
        # Reuse what can be reused; decode the others, then check them all at once. Phase by phase
        # (every decode, then every check of one kind: `FileChecks.blocks`) rather than block by
        # block measured ~20% faster on opening a 500 KB file, with the same instructions run.
        # In batches of `_BATCH` blocks: all of them at once held every decoded body of the file
        # together (~1 KB a tiny block), only to let all but `KEPT_BODIES` go right after -- the
        # peak of opening 125,000 tiny outputs (6 MB). A batch of 512 keeps the phases' speed.
        entries: list[_Entry | None] = []
        records: list[_Record] = []
        heads: dict[int, _Head] = {}
        todo: list[tuple[int, TopBlock, Block, list[Diagnostic]]] = []
        computed: set[int] = set()
        for i in range(len(tops)):
            top = cast(TopBlock, tops[i])
            e = old.get(id(top.node))
            if e is None or not _reusable(e, top, cover):
                block, decoded = decode_top(text, top)
                todo.append((len(entries), top, block, self.checks.decoded(block, decoded)))
                e = None
                if step and len(todo) % step == 0:
                    yield
            else:
                self.hits += 1
            entries.append(e)
            if len(todo) >= (step or _BATCH):  # a batch (see above); a step's worth when stepping
                self._check(text, todo, entries, computed)
                self._recorded(tops, entries, records, heads, structure, strings)
                if step:
                    yield
            elif not todo:
                self._recorded(tops, entries, records, heads, structure, strings)
        if todo:
            self._check(text, todo, entries, computed)
        self._recorded(tops, entries, records, heads, structure, strings)
        del tops, heads
        named, named_changed = yield from self._walk_named(old, entries, computed, cover is None, step)  # type: ignore[arg-type]
        if step:
            yield
        keys, owners, affected = yield from self._declared_steps(text, records, entries, structure, step)
        self._resolved = _assembled((yield from self._resolve_steps(text, records, computed, affected, step)))
        if step:  # what the walk made for every block, let go a step at a time, not all at the end
            yield
            entries.clear()
            while computed:
                for _ in range(min(len(computed), _PASS_STEP * step)):
                    computed.pop()
                yield
        structure.sort(key=_skey)
        strings.sort(key=_tkey)
        self._records = records
        # What `_current_definitions` would collect again on its first call (the declarations'
        # index of the workspace asks at once): 0.1 s of 150,000 tiny outputs.
        self._owners = ((id(records), len(records), self.definitions_revision), keys, owners)
        self._attributes = attributes
        self._structure = _assembled(structure)
        self._strings = _assembled(strings)
        self._named = named
        if named_changed:
            self._named_keys = None

    def _declared_steps(self, text: str, records: list[_Record], entries: list[_Entry | None], structure: list[tuple],
                        step: int) -> Generator[None, None, tuple[list[Hashable], list, frozenset | None]]:
        """After a walk's blocks are recorded: their definitions (`definitions_revision` moves on
        when the keys changed), the checks across blocks (into `structure`), the set of the keys
        (`_own`) and the pool of the refs' key sets; returns the keys, their owners and the keys
        whose resolution may differ (None: every block's). Stepping (`step`), each of these passes
        over every block pauses every `_PASS_STEP * step` blocks: in one piece, they were one step
        of 0.3 s with 300,000 tiny outputs (15 MB)."""
        many = _PASS_STEP * step
        if step:
            keys, owners = yield from self._collect_definitions_steps(records, many)
        else:
            keys, owners = self._collect_definitions(records)
        place = self._placer(owners)
        cross = (yield from self.checks.cross_steps(keys, place, many, text)) if step else self.checks.cross(keys, place, text)
        if keys != self._keys:
            self._keys = keys
            self.definitions_revision += 1
        self._crossed = bool(cross)
        structure.extend((d, _RULES, _CROSS) for d in cross)
        # Resolve the blocks computed now, and the kept ones whose refs use a key that came or went.
        own, found = yield from _frozen(keys, many)
        if step:
            yield
        found.clear()  # (its table: freed with the frozenset made, one step held both)
        del found
        old_own = self._own
        self._own = own
        affected = self.checks.affected(own ^ old_own) if old_own is not None else None
        pool: dict[frozenset, frozenset] = {}
        for n, e in enumerate(entries):
            if step and n % many == 0 and n:
                yield
            if u := e.uses:  # type: ignore[union-attr]
                pool[u] = u
        self._uses_pool = pool
        return keys, owners, affected

    def _resolve_steps(self, text: str, records: list[_Record], computed: set[int],
                       affected: frozenset | None, step: int) -> Generator[None, None, list[tuple]]:
        """Resolve the refs of the blocks computed now and of the kept ones whose refs use a key in
        `affected` (None: every block); the resolved diagnostics of all, in text order, pausing
        after every `step` blocks (0: never)."""
        resolved: list[tuple] = []
        for n, r in enumerate(records, 1):
            if step and n % step == 0:
                yield
            e = r.entry
            # (a block computed now is at the place it was computed at: no move)
            fresh = id(e) in computed
            if fresh or affected is None or (e.uses and not affected.isdisjoint(e.uses)):
                self._resolve(e, text, 0 if fresh else r.body_start() - e.base)
            if e.resolved:
                delta = 0 if fresh else r.body_start() - e.base
                resolved.extend((d.shifted(delta), e) for d in e.resolved)
        resolved.sort(key=_tkey)
        return resolved

    def _recorded(self, tops: list[TopBlock | None], entries: list[_Entry | None], records: list[_Record],
                  heads: dict[int, _Head], structure: list, strings: list) -> None:
        """Make the records of the walk's blocks whose entries are ready, in source order (up to the
        first not computed yet), place their diagnostics, and let their `TopBlock`s go."""
        i = len(records)
        while i < len(entries):
            e = entries[i]
            if e is None:
                return
            top = cast(TopBlock, tops[i])
            tops[i] = None
            records.append(_Record(top, e, _head(heads, top)))
            if not e.quiet:
                self._placed(e, top, structure, strings)
            i += 1

    def _walk_named(self, old: dict[int, _Entry], entries: list[_Entry], computed: set[int],
                    afresh: bool, step: int) -> Generator[None, None, tuple[dict[Hashable, int], bool]]:
        """`_named` after a walk -- afresh, or the current counts with the computed entries' refs
        in and those of the old entries not kept out -- and whether a key appeared or went; a
        generator pausing after every `step` entries counted (0: never). In one piece it held the
        loop ~35 ms on the stepped build of a 2 MB document (8,000 blocks; tests/e2e/test_build_slices.py)."""
        if afresh:
            named: dict[Hashable, int] = {}
            for n, e in enumerate(entries, 1):
                self._count(named, e.refs, 1)
                if step and n % step == 0:
                    yield
            return named, True
        named = dict(self._named)
        changed = False
        for n, e in enumerate(entries, 1):
            if step and n % step == 0:
                yield
            if id(e) in computed and e.refs:
                changed = self._count(named, e.refs, 1) or changed
        kept = {id(e) for e in entries if id(e) not in computed}
        for e in old.values():
            if id(e) not in kept and e.refs:
                changed = self._count(named, e.refs, -1) or changed
        return named, changed

    def _check(self, text: str, todo: list[tuple[int, TopBlock, Block, list[Diagnostic]]],
               entries: list[_Entry | None], computed: set[int]) -> None:
        """Check the decoded blocks of `todo` at once (`FileChecks.blocks`), make their entries
        (`computed` gets their ids), and empty `todo`."""
        checked = self.checks.blocks(text, [block for _, _, block, _ in todo])
        for (i, top, block, decoded), results in zip(todo, checked):
            e = entries[i] = self._entry(top, block, decoded, *results)
            computed.add(id(e))
        todo.clear()

    def _fast(self, text: str | TextBuffer, root: Node, cover: tuple[int, int, int]) -> bool:
        """The fast path (see the module doc); False when it does not apply."""
        s, oe, ne = cover
        records = self._records
        i = bisect_right(records, s - 1, key=_Record.body_start) - 1  # the last body starting before s
        if i < 0:
            return False
        rec = records[i]
        node = rec.holder.value
        if not isinstance(node, Container) or not node.closed:
            return False
        base = rec.frame.member_base(rec.holder_index)
        if not (base + node.start < s and ne <= base + node.end - 1) or not _reaches(root, rec.holder, s):
            return False
        self.fast += 1
        old = rec.entry
        current = rec.current()
        e = rec.entry = self._compute(text, current)
        if (e.refs or old.refs) and (self._count(self._named, e.refs, 1) | self._count(self._named, old.refs, -1)):
            self._named_keys = None
        delta = ne - oe
        new_keys = old.defs[::_DEF] != e.defs[::_DEF]
        redo_cross = new_keys or (self._crossed and (_defines_inside(e) or _defines_inside(old)))
        new_structure: list[tuple] = []
        new_strings: list[tuple] = []
        self._placed(e, current, new_structure, new_strings)
        stale: list[_Record] = []
        if redo_cross:
            keys, place = self._definitions(records)
            self._keys = keys
            if new_keys:
                self.definitions_revision += 1
            cross = self.checks.cross(keys, place, text)
            self._crossed = bool(cross)
            new_structure.extend((d, _RULES, _CROSS) for d in cross)
            own = frozenset(keys)
            changed = own ^ (self._own or frozenset())
            self._own = own
            if changed:
                affected = self.checks.affected(changed)
                stale = [r for r in records if r is not rec and r.entry.uses and not affected.isdisjoint(r.entry.uses)]
        self._resolve(e, text, 0)
        for r in stale:
            self._resolve(r.entry, text, r.body_start() - r.entry.base)
        new_resolved: list[tuple] = []
        for r in (rec, *stale):
            if r.entry.resolved:
                shift = r.body_start() - r.entry.base
                new_resolved.extend((d.shifted(shift), r.entry) for d in r.entry.resolved)
        # The other blocks' diagnostics: as runs, those before the edited block kept and those after
        # it moved by noting the delta once (`_spliced`); one by one when that cannot be told.
        made = None if redo_cross else self._spliced(old, e, current, cover, new_structure, new_strings, new_resolved)
        if made is None:
            gone = {id(old), *(id(r.entry) for r in stale)}
            structure = [(_moved(d, s, oe, delta), g, o) for d, g, o in _items(self._structure)
                         if o is not old and not (redo_cross and o is _CROSS)]
            strings = [(_moved(d, s, oe, delta), o) for d, o in _items(self._strings) if o is not old]
            resolved = [(_moved(d, s, oe, delta), o) for d, o in _items(self._resolved) if id(o) not in gone]
            for item in new_structure:
                insort(structure, item, key=_skey)
            for item in new_strings:
                insort(strings, item, key=_tkey)
            for item in new_resolved:
                insort(resolved, item, key=_tkey)
            made = (_assembled(structure), _assembled(strings), _assembled(resolved))
        self._structure, self._strings, self._resolved = made
        if delta and self._attributes:
            self._attributes = tuple(a.shifted(delta) if a.start >= oe else a for a in self._attributes)
        return True


    def _spliced(self, old: _Entry, e: _Entry, top: TopBlock, cover: tuple[int, int, int], new_structure: list[tuple],
                 new_strings: list[tuple], new_resolved: list[tuple]) -> tuple[Runs, Runs, Runs] | None:
        """The assembled lists after an edit `cover` inside the body of block `top` (whose entry
        `old` became `e`; the cross rules not run again), made of the runs of the lists before it:
        the diagnostics starting before the block's are kept as they are, those starting after it
        moved by noting the edit's delta once per run (nothing visits them), and those in between
        (the block's new ones, and any other there, moved one by one: `_moved`) a new run. None
        when a diagnostic outside that zone holds a place the edit moves differently (a related
        place across the edit), or the block's diagnostics cannot be placed in one zone."""
        zone = _zone(old, e, top, cover)
        if zone is None:
            return None
        lo, hi = zone
        s, oe, ne = cover
        delta = ne - oe
        counts = (len(old.structure) + len(old.anchored), len(old.strings), len(old.resolved))
        made: list[Runs] = []
        for runs, new, key, count in ((self._structure, new_structure, _skey, counts[0]),
                                      (self._strings, new_strings, _tkey, counts[1]),
                                      (self._resolved, new_resolved, _tkey, counts[2])):
            n = len(runs)
            i, j = runs.count_before(lo), runs.count_before(hi + 1)
            head, tail = runs.cut(0, i), runs.cut(j, n, delta)
            if any(r.high() >= s for r in head) or any(r.low() - delta < oe for r in tail):
                return None
            middle: list[tuple] = []
            dropped = 0
            for item in _items(runs, i, j):
                if item[-1] is old:
                    dropped += 1
                else:
                    middle.append((_moved(item[0], s, oe, delta), *item[1:]))
            if dropped != count:  # (the block's diagnostics not all in the zone: never, by `_zone`)
                return None
            for item in new:
                insort(middle, item, key=key)
            made.append(Runs.joined([*head, Runs.new([item[0] for item in middle], middle), *tail]))
        return made[0], made[1], made[2]


_NO_RUNS = Runs(())


def _assembled(items: list[tuple]) -> Runs:
    """Assembled items `(diagnostic, ..., owner)` in their order, as one run tagged with them."""
    return Runs((Runs.new([item[0] for item in items], items),)) if items else _NO_RUNS


def _items(runs: Runs, lo: int = 0, hi: int | None = None) -> list[tuple]:
    """The assembled items `[lo, hi)` of `runs` (`_assembled`, `_spliced`), their diagnostics moved."""
    out: list[tuple] = []
    for r in runs.cut(lo, len(runs) if hi is None else hi):
        delta = r.delta
        for d, tag in zip(r.base.items[r.lo:r.hi], r.tags()):
            item = cast(tuple, tag)
            if delta:
                out.append((d.shifted(delta), *item[1:]))
            else:
                out.append(item if item[0] is d else (d, *item[1:]))
    return out


def _zone(old: _Entry, e: _Entry, top: TopBlock, cover: tuple[int, int, int]) -> tuple[int, int] | None:
    """`[lo, hi]`, offsets before the edit `cover` inside the body of `top`: where every diagnostic
    of the block's entry `old` starts, and (mapped back across the edit) every one of its new entry
    `e`, and the edit itself; None when one of them is pinned (not placed by the block)."""
    if old.pinned or e.pinned:
        return None
    s, oe, ne = cover
    delta = ne - oe
    lo, hi = s, oe
    body = top.body_start  # (the same before the edit and after it: it is before `s`)
    anchors = None
    for entry in (old, e):
        shift = body - entry.base
        starts = [d.start + shift for d, _ in entry.structure]
        starts += [d.start + shift for d in entry.strings]
        starts += [d.start + shift for d in entry.resolved]
        if entry.anchored:
            anchors = anchors or _anchors(top)
            starts += [anchors[a][0] for a, _, _ in entry.anchored]
        if not starts:
            continue
        if entry is e:
            starts = [p if p < s else p - delta if p >= ne else s for p in starts]
        lo, hi = min(lo, *starts), max(hi, *starts)
    return lo, hi


def _frozen(keys: list[Hashable], every: int) -> Generator[None, None, tuple[frozenset, set]]:
    """`frozenset(keys)`, pausing after every `every` keys (0: in one piece), and the set it was
    copied from, for the caller to let go in a step of its own."""
    if not every:
        return frozenset(keys), set()
    found: set[Hashable] = set()
    for i in range(0, len(keys), every):
        if i:
            yield
        found.update(keys[i : i + every])
    return frozenset(found), found


def _label_values(top: TopBlock) -> str | tuple[str, ...]:
    """What an entry remembers of its block's labels: the one label's value itself (no tuple of
    its own: 48 B a block, 1.4 MB for 30,000 tiny outputs), else the tuple of their values."""
    labels = top.labels
    if len(labels) == 1:
        return labels[0].value
    return tuple([lab.value for lab in labels]) if labels else ()


def _reusable(e: _Entry, top: TopBlock, cover: tuple[int, int, int] | None) -> bool:
    if e.node is not top.node or e.pinned or e.schema is not top.body_schema or e.type_name != top.type_name:
        return False
    if e.labels != _label_values(top):
        return False
    if cover is None:
        return True
    s, _, ne = cover
    bs, be = top.body_start, top.body_end
    return not (s < be and ne > bs)


def _reaches(root: Node, holder: Member, offset: int) -> bool:
    """True when `holder` is a member on the path from `root` down to `offset` (it is in the tree).
    Reads pending shifts without applying them (see `jsonsyntax.tree`, "Lazy shifts")."""
    node = root
    base = 0
    while isinstance(node, Container):
        cabs = base + node.start
        i = member_at(node, offset - cabs)
        if i < 0:
            return False
        m = node.raw_items[i]
        if m is holder:
            return True
        v = m.value
        mb = cabs + member_shift(node, i)
        if v is None or not (mb + v.start <= offset < mb + v.end):
            return False
        node, base = v, mb
    return False


# ---- views -------------------------------------------------------------------------------------------


class FileView:
    """The decoded root body of one version, built on demand (see the module doc). It answers like
    a `model.Body` (`node`, `start`, `end`, `schema`, `attributes`, `blocks`, `attribute`,
    `blocks_of`, `range`); `blocks` re-bases every kept body that moved, so prefer `blocks_at`
    for one position and `memo` for per-block results."""

    __slots__ = ("node", "start", "end", "schema", "attributes", "text", "_records", "_blocks", "_kept")

    def __init__(self, root: Node | None, schema: BodySchema, attributes: tuple[Attribute, ...],
                 records: list[_Record], text: str, kept: _Kept) -> None:
        self.node = root
        self.start = root.start if root is not None else 0
        self.end = root.end if root is not None else 0
        self.schema = schema
        self.attributes = attributes
        self.text = text
        self._records = records
        self._blocks: tuple[Block, ...] | None = None
        self._kept = kept

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    def _block(self, rec: _Record) -> Block:
        top = rec.current()
        body = rec.entry.body_at(top, self.text, self._kept)
        return Block(top.type_name, top.type_start, top.type_end, top.labels, body, top.schema)

    @property
    def blocks(self) -> tuple[Block, ...]:
        if self._blocks is None:
            self._blocks = tuple(self._block(r) for r in self._records)
        return self._blocks

    def each_block(self) -> Iterator[Block]:
        """The top-level blocks in source order, like `blocks`, one at a time: for a reader that
        passes once over the whole file. Nothing is kept beyond `_Kept`'s bodies (`blocks` keeps
        every decoded body of the file while the view lives: ~1 KB a small block, 2x the text of a
        CDKTF-like document)."""
        if self._blocks is not None:
            yield from self._blocks
            return
        for r in self._records:
            yield self._block(r)

    def attribute(self, name: str) -> Attribute | None:
        for a in self.attributes:
            if a.name == name:
                return a
        return None

    def blocks_of(self, type_name: str) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.type_name == type_name)

    def blocks_at(self, offset: int) -> tuple[Block, ...]:
        """The top-level blocks whose header keys or body can hold `offset`, in source order: the
        last block whose body starts before `offset`, one whose body starts at it, and the first
        whose body starts after it. (Keys and bodies of other blocks cannot hold it; searching
        these in order gives what searching every block in order gives, for a cursor on a key, in a
        body or on its brackets.)"""
        records = self._records
        i = bisect_right(records, offset - 1, key=_Record.body_start)  # the first body starting at/after offset
        lo = i - 1 if i > 0 else 0
        if i < len(records) and records[i].body_start() == offset:
            i += 1
        return tuple(self._block(r) for r in records[lo : i + 1])

    def refs_at(self, offset: int) -> list[Any]:
        """The checks' refs (`FileChecks` refs) of the top-level blocks that can hold `offset`
        (see `blocks_at`), at their current positions."""
        records = self._records
        i = bisect_right(records, offset - 1, key=_Record.body_start)
        lo = i - 1 if i > 0 else 0
        out: list[Any] = []
        for r in records[lo : i + 1]:
            refs = r.entry.refs
            if refs:
                delta = r.body_start() - r.entry.base
                out.extend(x.shifted(delta) for x in refs)
        return out

    def refs(self, uses: Hashable | None = None) -> Iterator[Any]:
        """Every ref at its current position, in source order; with `uses`, only the refs of the
        blocks whose resolution used that key (a cheap filter: check each ref yourself)."""
        for r in self._records:
            e = r.entry
            if e.refs and (uses is None or uses in e.uses):
                delta = r.body_start() - e.base
                for x in e.refs:
                    yield x.shifted(delta)

    def memo(self, key: str, compute: Callable[[Block], list], shift: Callable[[Any, int], Any],
             start: int | None = None, end: int | None = None) -> Iterator[tuple[TopBlock, list]]:
        """Per top-level block (in source order; only those meeting `[start, end]` when given):
        its `TopBlock` with current positions and `compute(block)` -- remembered with the block's
        results under `key` relative to its body, moved with `shift(item, delta)` when the body
        moved, computed again only when the block's content changed."""
        records = self._records
        lo, hi = 0, len(records)
        if start is not None:
            lo = max(0, bisect_right(records, start, key=_Record.body_start) - 1)
        for k in range(lo, hi):
            rec = records[k]
            top = rec.current()
            if end is not None and min(top.type_start, top.body_start) > end:
                break
            e = rec.entry
            bs = top.body_start
            memo = e.memo
            if memo is None:
                memo = e.memo = {}
            got = memo.get(key)
            if got is None:
                items = compute(Block(top.type_name, top.type_start, top.type_end, top.labels, e.body_at(top, self.text, self._kept), top.schema))
                memo[key] = (bs, items)
            else:
                at, items = got
                if at != bs:
                    delta = bs - at
                    items = [shift(x, delta) for x in items]
                    memo[key] = (bs, items)
            yield top, items


def analyze(text: str, root: Node | None, schema: BodySchema, checks: FileChecks | None = None) -> FileResult:
    """The analysis of `text` from scratch (what `IncrementalFile.update` must equal)."""
    return IncrementalFile(schema, checks).update(text, root)
