"""Diagnostics in their LSP wire form (JSON text), converted once and reused across edits.

    Forms()                                       one per open document, kept across its versions
      .encode(found, index, encoding, uri, docs_url, index_of) -> list[str]
                                                  the JSON text of each LSP `Diagnostic` of `found`
    report_json(items, result_id) -> RawJSON      a full `textDocument/diagnostic` report
    publish_json(uri, version, items) -> RawJSON  `publishDiagnostics` params
    document_forms(store, uri, settings, forms, encoding) -> list[str]
                                                  the forms of open document `uri`'s diagnostics (ours)
    ResultIds().of(uri, items) -> str             a pull's `resultId` for `items` (see `ResultIds`)

Contract
--------
* `encode` returns, for each diagnostic, exactly ``json.dumps`` of what pygls sends for
  `convert.to_diagnostic(d, ...)` (the lsprotocol object unstructured by pygls's converter), made
  from `lsp.diagnostic_json` without lsprotocol objects or cattrs (neither is imported here): a property test compares
  them after random edits. The texts are ASCII (``ensure_ascii``), so a
  message's length in characters is its length in bytes.
* Reuse is by a line-relative key: the diagnostic's content (severity, code, summary, detail, its
  related locations' texts) and every position its form holds converted to LSP, with
  lines counted from the line of its start. The cached text is a template whose line numbers are
  filled in from that line, so a diagnostic that an edit above only moved down or up (a new
  `Diagnostic` object at other offsets) is not converted or serialised again. When columns are plain
  character counts (`Positions.simple`) and every place its form holds lies on its start's line
  (before the terminator), the key uses offsets from that line's start and a hit costs one binary
  search, one tuple, one dict look-up and one ``%`` formatting; otherwise each offset is converted in
  bulk (`lsp.positions.Positions.many`) and the key holds the converted positions. A diagnostic with a related location in another file (its place depends on that
  file) is converted afresh every time.
* Runs (`diagnostic.Runs`, what `features.diagnostics.gathered` gives after an edit): the forms of
  a run whose diagnostics one earlier `encode` converted are reused whole, without a key per
  diagnostic: the run is the earlier diagnostics moved by a delta, over text no edit changed, so
  when its first start (its lowest place) is at the same column of its line as then, every form is
  the one made then with its lines moved by the same number (`_reused`: the texts themselves when
  no line moved, one ``%`` formatting each when lines moved). Only with plain character columns
  (`Positions.simple`). The other runs are converted per diagnostic as above.
* The cache holds the forms of the last `encode` (on a list: no growth across versions; on runs,
  the per-diagnostic templates of earlier calls stay until there are `_KEYS_PER_FORM` times more of
  them than forms), and is dropped when ``docsUrl``, the URI or the position encoding change.
"""

from __future__ import annotations

import itertools
import json
import uuid
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..diagnostic import Diagnostic, Run, Runs
from ..features import diagnostics as diagnostics_feature
from ..text.line_index import LineIndex, line_bounds_at
from .diagnostic_json import diagnostic_text, write_diagnostic
from .positions import Positions
from .rawjson import RawJSON

if TYPE_CHECKING:
    from ..workspace import Workspace
    from .config import DiagnosticsSettings


def serialise(value: Any) -> str:
    """`value` (an lsprotocol object, or plain data) as pygls would write it."""
    from .convert import converter  # lazy: lsprotocol and cattrs, not needed for our own diagnostics' forms

    return json.dumps(converter().unstructure(value))


def report_json(items: Sequence[str], result_id: str) -> RawJSON:
    """A `RelatedFullDocumentDiagnosticReport` of `items` (JSON texts) with `result_id`."""
    return RawJSON(f'{{"kind": "full", "resultId": {json.dumps(result_id)}, "items": [{", ".join(items)}]}}')


def pull_json(result_ids: ResultIds, uri: str, items: Sequence[str], previous: str | None) -> RawJSON:
    """The answer to a pull of `uri`'s diagnostics (`items`, JSON texts) from a client holding
    result id `previous`: "unchanged" when the items are those it was given, else all of them."""
    result_id = result_ids.of(uri, items)
    if previous == result_id:
        return RawJSON(f'{{"kind": "unchanged", "resultId": {json.dumps(result_id)}}}')
    return report_json(items, result_id)


def publish_json(uri: str, version: int | None, items: Sequence[str]) -> RawJSON:
    """`PublishDiagnosticsParams` of `items` (JSON texts)."""
    head = f'{{"uri": {json.dumps(uri)}, ' + (f'"version": {version}, ' if version is not None else "")
    return RawJSON(f'{head}"diagnostics": [{", ".join(items)}]}}')


def document_forms(store: Workspace, uri: str, settings: DiagnosticsSettings, forms: Forms, encoding: str) -> list[str]:
    """The forms of our diagnostics of open document `uri` (`features.diagnostics.collect` with
    `settings`), reusing `forms`: what the server answers, and `lsp.first_open` before it."""
    found = diagnostics_feature.gathered(store.snapshot(), uri, settings.unused_declarations, settings.max_per_code)
    state = store.get(uri)
    assert state is not None, uri
    return forms.encode(found, state.line_index, encoding, uri, settings.docs_url, store.documents.line_index)


class ResultIds:
    """A pull's `resultId` per document: the same while its items are the same (the client is then
    answered "unchanged"), a new one, never given before, when they differ. `instance` makes the
    ids of another server process differ from ours."""

    def __init__(self, instance: str | None = None) -> None:
        self.instance = instance or uuid.uuid4().hex[:8]
        self._last: dict[str, tuple[Sequence[str], str]] = {}
        self._count = itertools.count(1)

    def of(self, uri: str, items: Sequence[str]) -> str:
        last = self._last.get(uri)
        if last is not None and last[0] == items:
            return last[1]
        result_id = f"{self.instance}.{next(self._count)}"
        self._last[uri] = (items, result_id)
        return result_id

    def forget(self, uri: str) -> None:
        self._last.pop(uri, None)


def _offsets(d: Diagnostic, uri: str) -> list[int] | None:
    """Every offset the form of `d` holds (its range, its related places; not its quick fixes: they
    are no part of it, `lsp.diagnostic_json`), in a fixed order; None when a related location is in
    another file."""
    out = [d.start, d.end]
    for r in d.related:
        if r.uri is not None and r.uri != uri:
            return None
        out.append(r.start)
        out.append(r.end)
    return out


class _RunForms:
    """The forms made for the diagnostics of one `diagnostic._Base`, per diagnostic: its text, its
    template (`_template`'s pair: None when not reusable), the line and column (in characters) of its
    start when it was made; and which `encode` call made which of them (`stamp`, `made_by`), by
    ranges: a run reused whole is stamped once, not per diagnostic."""

    __slots__ = ("base", "texts", "hits", "lines", "cols", "stamps")

    def __init__(self, base: object, n: int) -> None:
        self.base = base  # (kept alive: its id is the key)
        self.texts: list[str] = [""] * n
        self.hits: list[tuple[str, tuple[int, ...]] | None] = [None] * n
        self.lines = array("q", bytes(8 * n))
        self.cols = array("q", bytes(8 * n))
        self.stamps: list[tuple[int, int, int]] = []  # (lo, hi, call), disjoint, in order

    def stamp(self, lo: int, hi: int, call: int) -> None:
        """The forms `[lo, hi)` were made (or reused whole) by `call` (0: one is not reusable)."""
        out = []
        for a, b, c in self.stamps:
            if b <= lo or a >= hi:
                out.append((a, b, c))
                continue
            if a < lo:
                out.append((a, lo, c))
            if b > hi:
                out.append((hi, b, c))
        out.append((lo, hi, call))
        out.sort()
        self.stamps = out

    def made_by(self, lo: int, hi: int) -> int:
        """The call that made every form of `[lo, hi)`, each reusable; else 0."""
        for a, b, c in self.stamps:
            if a <= lo and hi <= b:
                return c
        return 0


#: The templates kept across calls on `Runs` are dropped when there are this many times more of them
#: than forms (edits replace the edited runs' diagnostics; their old keys are not told apart).
_KEYS_PER_FORM = 4
#: Below this many diagnostics to convert, lines are found through the `LineIndex` (a binary search
#: each) instead of copying every line start first (`Positions.starts`: O(lines)).
_FEW = 4000


class Forms:
    """The LSP forms of one document's diagnostics (see the module doc)."""

    __slots__ = ("_cache", "_setup", "_runs", "_calls")

    def __init__(self) -> None:
        self._cache: dict[tuple, tuple[str, tuple[int, ...]]] = {}
        self._setup: tuple = ()
        self._runs: dict[int, _RunForms] = {}
        self._calls = 0

    def encode(
        self, found: Sequence[Diagnostic], index: LineIndex, encoding: str, uri: str, docs_url: str | None = None,
        index_of: Callable[[str], LineIndex | None] | None = None,
    ) -> list[str]:
        setup = (uri, encoding, docs_url)
        if setup != self._setup:
            self._cache, self._setup, self._runs = {}, setup, {}
        old = self._cache
        new: dict[tuple, tuple[str, tuple[int, ...]]] = {}
        positions = Positions(index, encoding)
        if not isinstance(found, Runs) or not positions.simple:
            self._runs = {}
            out = self._each(found, positions, index, encoding, uri, docs_url, index_of, old, new)[0]
            self._cache = new
            return out
        self._calls += 1
        call = self._calls
        kept: dict[int, _RunForms] = {}
        out = []
        for run in found.runs:
            base = run.base
            forms = kept.get(id(base)) or self._runs.get(id(base))
            if forms is None:
                forms = _RunForms(base, len(base.items))
            kept[id(base)] = forms
            texts = _reused(run, forms, positions, call)
            if texts is None:
                lo, hi = run.lo, run.hi
                ds = run.diagnostics()
                texts, hits, lines, cols = self._each(ds, positions, index, encoding, uri, docs_url, index_of, old, new)
                forms.texts[lo:hi] = texts
                forms.hits[lo:hi] = hits
                forms.lines[lo:hi] = array("q", lines)
                forms.cols[lo:hi] = array("q", cols)
                forms.stamp(lo, hi, 0 if None in hits else call)
            out.extend(texts)
        self._runs = kept
        # The keys of the reused runs' diagnostics stay (they are still this document's: the runs
        # joined into one, `Runs.MAX_RUNS`, are converted through them again); those of replaced
        # ones stay too, until there are `_KEYS_PER_FORM` times more keys than forms.
        if len(old) + len(new) > _KEYS_PER_FORM * len(out) + _FEW:
            old = {}
        old.update(new)
        self._cache = old
        return out

    def _each(self, found: Sequence[Diagnostic], positions: Positions, index: LineIndex, encoding: str, uri: str,
              docs_url: str | None, index_of: Callable[[str], LineIndex | None] | None, old: dict,
              new: dict) -> tuple[list[str], list, list[int], list[int]]:
        """The form of each of `found`, its template (None: not reusable), its start's line and
        column in characters (-1: none)."""
        out: list[str] = []
        hits: list[tuple[str, tuple[int, ...]] | None] = []
        lines: list[int] = []
        cols: list[int] = []
        if positions.simple:
            # Most diagnostics lie on one line: the offsets from the line's start ARE the columns
            # (below the line's terminator), so only the start's line is searched.
            size = positions.size
            rest: list[int] = []
            if not index.has_line_starts and len(found) < _FEW:
                # (Without the index, a few diagnostics: their lines counted in the text, in one
                # pass up to the last one. A 5 MB file with one syntax error near its end built
                # every line start for it, ~35 ms of its open.)
                ordered = sorted({d.start for d in found})
                counted = dict(zip(ordered, line_bounds_at(positions.text, ordered)))

                def bounds(s: int) -> tuple[int, int, int]:
                    line, base, following = counted[s]
                    return line, base, following - 1 if following >= 0 else size + 1
            elif len(found) >= _FEW:
                # (Many diagnostics: a binary search each in the line starts through the last one's
                # line, the index's or, while it has none, those found in the text up to there only.)
                starts, every = positions.starts_through(max((d.start for d in found), default=0))
                last = len(starts) - 1 if every else len(starts)  # (not every: a start follows each line)

                def bounds(s: int) -> tuple[int, int, int]:
                    line = bisect_right(starts, s) - 1 if s > 0 else 0
                    return line, starts[line], starts[line + 1] - 1 if line < last else size + 1
            else:
                count = index.line_count

                def bounds(s: int) -> tuple[int, int, int]:
                    line = index.line_of(s)
                    return line, index.line_start(line), index.line_start(line + 1) - 1 if line + 1 < count else size + 1
            for i, d in enumerate(found):
                line, base, bound = bounds(d.start)
                key = _one_line_key(d, base, bound, uri)
                if key is None:
                    out.append("")
                    hits.append(None)
                    lines.append(-1)
                    cols.append(-1)
                    rest.append(i)
                    continue
                hit = old.get(key) or new.get(key)
                if hit is None:
                    hit = _one_line_template(d, base, encoding, uri, docs_url)
                new[key] = hit
                template, rel = hit
                out.append(template % ((line,) * len(rel)))
                hits.append(hit)
                lines.append(line)
                cols.append(d.start - base)
            if rest:
                texts, rhits, rlines, rcols = self._general([found[i] for i in rest], positions, index, encoding,
                                                            uri, docs_url, index_of, old, new)
                for i, text, hit, line, col in zip(rest, texts, rhits, rlines, rcols):
                    out[i], hits[i], lines[i], cols[i] = text, hit, line, col
            return out, hits, lines, cols
        return self._general(found, positions, index, encoding, uri, docs_url, index_of, old, new)

    @staticmethod
    def _general(found: Sequence[Diagnostic], positions: Positions, index: LineIndex, encoding: str, uri: str,
                 docs_url: str | None, index_of: Callable[[str], LineIndex | None] | None,
                 old: dict, new: dict) -> tuple[list[str], list, list[int], list[int]]:
        """The forms of `found`, each offset converted (any text, any ranges), their templates
        (None: converted afresh each time) and their starts' lines (-1: none)."""
        flat: list[int] = []
        spans: list[tuple[int, int] | None] = []
        for d in found:
            offs = _offsets(d, uri)
            if offs is None:
                spans.append(None)
            else:
                spans.append((len(flat), len(offs)))
                flat.extend(offs)
        if len(flat) < _FEW:
            pairs = [positions.index.position(o, encoding) for o in flat]
            lines, chars = [p[0] for p in pairs], [p[1] for p in pairs]
        else:
            lines, chars = positions.many(flat)
        out: list[str] = []
        hits: list[tuple[str, tuple[int, ...]] | None] = []
        firsts: list[int] = []
        cols: list[int] = []
        for d, span in zip(found, spans):
            if span is None:
                out.append(diagnostic_text(d, index, encoding, uri, docs_url, index_of))
                hits.append(None)
                firsts.append(-1)
                cols.append(-1)
                continue
            at, n = span
            first = lines[at]
            key = (d.severity, d.code, d.summary, d.detail,
                   tuple((r.message, r.uri) for r in d.related) if d.related else (),
                   *[ln - first for ln in lines[at:at + n]], *chars[at:at + n])
            hit = old.get(key) or new.get(key)
            if hit is None:
                hit = _template(d, index, encoding, uri, docs_url, first)
            new[key] = hit
            template, rel = hit
            out.append(template % tuple(first + r for r in rel) if rel else template)
            hits.append(hit)
            firsts.append(first)
            cols.append(d.start - index.line_start(first) if d.start <= positions.size else -1)
        return out, hits, firsts, cols


def _reused(run: Run, forms: _RunForms, positions: Positions, call: int) -> list[str] | None:
    """The forms of `run` from those made for its diagnostics by one earlier `encode`, with its
    lines moved, when that is what converting them again gives; else None. It is when the lowest
    offset they hold is the first one's start (`Run.low`) and that start is at the same column of
    its line as then: the runs (`diagnostic.Runs`) hold only diagnostics whose places span text
    no edit changed (moved as a whole), so every place moved by the same number of lines and,
    on the first one's line, stands after as many characters (columns are characters here:
    `Positions.simple`, checked by the caller). One line search for the whole run."""
    lo, hi = run.lo, run.hi
    when = forms.made_by(lo, hi)
    if when == 0 or when == call:
        return None
    first = run.base.items[lo].start + run.delta
    if run.low() != first:
        return None
    line, start = positions.line_and_start(first)
    if first - start != forms.cols[lo]:
        return None
    shift = line - forms.lines[lo]
    forms.stamp(lo, hi, call)
    if not shift:
        return forms.texts[lo:hi]
    templates = cast("list[tuple[str, tuple[int, ...]]]", forms.hits[lo:hi])  # (each reusable: `made_by`)
    lines = [ln + shift for ln in forms.lines[lo:hi]]
    texts = [template % tuple(ln + r for r in rel) if rel else template
             for (template, rel), ln in zip(templates, lines)]
    forms.texts[lo:hi] = texts
    forms.lines[lo:hi] = array("q", lines)
    return texts


def _one_line_key(d: Diagnostic, base: int, bound: int, uri: str) -> tuple | None:
    """The key of `d` when every offset its form holds (`_offsets`) is on the line starting at
    `base` (before its terminator at `bound`), in this document; else None."""
    s, e = d.start, d.end
    if not (base <= s <= e < bound):
        return None
    key = [None, d.severity, d.code, d.summary, d.detail, s - base, e - base]  # None: not a general key
    for r in d.related:
        if r.uri is not None and r.uri != uri or not (base <= r.start <= r.end < bound):
            return None
        key += (r.message, r.start - base, r.end - base)
    key.append(len(d.related))
    return tuple(key)


def _one_line_template(d: Diagnostic, base: int, encoding: str, uri: str,
                       docs_url: str | None) -> tuple[str, tuple[int, ...]]:
    """`_template` of a diagnostic `_one_line_key` accepts, without converting any offset: its
    columns are offsets from `base`, its line numbers all that of the line (written directly:
    `diagnostic_json.write_diagnostic`)."""

    def range_text(start: int, end: int) -> str:
        return f'{{"start": {{"line": %d, "character": {start - base}}}, "end": {{"line": %d, "character": {end - base}}}}}'

    text = write_diagnostic(d, range_text, uri, docs_url, True)
    return text, (0,) * (2 + 2 * len(d.related))  # (a line number per position)


def _template(d: Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None,
              first: int) -> tuple[str, tuple[int, ...]]:
    """The JSON text of `d` with each line number a ``%d`` to fill in, and those lines relative to `first`."""
    lines: list[int] = []

    def range_text(start: int, end: int) -> str:
        (sl, sc), (el, ec) = index.position(start, encoding), index.position(end, encoding)
        lines.append(sl - first)
        lines.append(el - first)
        return f'{{"start": {{"line": %d, "character": {sc}}}, "end": {{"line": %d, "character": {ec}}}}}'

    text = write_diagnostic(d, range_text, uri, docs_url, True)
    return text, tuple(lines)
