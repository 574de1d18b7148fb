"""All diagnostics of one document: the one function the language server and `hcljson-ls check` share.

    collect(snapshot, uri, unused=False, max_per_code=0) -> list[Diagnostic]   the document's own and its module's
    collapse(found, max_per_code) -> list[Diagnostic]      runaway repeats of one code folded into a summary
    gathered(snapshot, uri, unused=False, max_per_code=0) -> Sequence[Diagnostic]
                                                   `collect`'s, as `diagnostic.Runs` when kept so (the LSP forms)
    collapse_runs(found, max_per_code)             `collapse` of `Runs`, reading only what it keeps
    prepare(state) -> bool                         build a quick-opened document's analysis; True if it disagreed
    own_diagnostics(state) -> Sequence[Diagnostic] the document's own (every per-file provider), per version

Contract
--------
* `PROVIDERS` is an ordered list of ``(name, provider)``; a provider is a plain function
  ``(DocumentState) -> Iterable[Diagnostic]`` for one layer of one file: "syntax" (JSON),
  "structure" (HCL JSON structure and Terraform rules), "strings" (templates, references and type
  constraints, read by their schema mode) and "references" (what references mean, against the
  declarations of the whole module: `terraform.resolve`); the last three read the document's one
  analysis (`DocumentState.analysis`). Then "module": what other files of the module say about this one
  (`DeclarationIndex.module_diagnostics`: declarations made twice across files); with `collect`'s
  `unused` (the `diagnostics.unusedDeclarations` setting), also the variables, local values and data
  sources of the document nothing in the module refers to (`features.lens.unused_declarations`).
* A provider that raises is logged (with its name and the document) and skipped; the others still
  report. A bug in one layer never hides the diagnostics of another.
* Before the first edit, a document whose opened text `terraform.quick` can answer
  (`DocumentState.quick`) takes its diagnostics from there: the same list the providers give, without
  building the tree (a failing quick open is logged by the state and the providers run instead).
* The per-file result is computed once per version and shared (`collect` gives each call its own
  list). It is sorted by position (start, then end), stable within a position, so providers keep
  their own order for diagnostics at the same place.
* After the tree, the per-file result is `diagnostic.Runs`: the providers' lists (the analysis's
  are runs sharing the previous version's, `hcljson.incremental`) are spliced into the previous
  version's runs (`_spliced`: what starts before what changed is its first runs, what starts after
  it its last runs with the edit's delta noted, the rest merged again), so an edit inside one
  block reads that block's diagnostics, not the others'; when the lists share nothing that way (a
  walk of the analysis), they are merged and realigned one by one (`diagnostic.realigned`).
* An unknown `uri` has no diagnostics (an empty list).
* Runaway repeats (`collapse`, the ``diagnostics.maxPerCode`` setting, default `DEFAULT_MAX_PER_CODE`,
  0 = unlimited): of each code, the first `max_per_code` diagnostics in position order are kept; the
  others are replaced by ONE `limit/too-many` diagnostic per code, placed on the first hidden one's
  range (where the reader would look next), with the most severe severity among the hidden ones, saying
  how many more there are and of what. Terraform does the like with repeated warnings ("and N more
  similar warnings elsewhere"); here it keeps a 5 MB document with 25,000 misspelt references to
  1,001 diagnostics. `collect` applies it last, after the module's diagnostics were merged in, so the
  server and `check` show the same list.
"""

from __future__ import annotations

import logging
import sys
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import cast

from ..diagnostic import Diagnostic, Run, Runs, is_moved, realigned, start_of
from ..steps import run_out
from ..terraform.quick import QuickResult
from ..workspace import DocumentState, Snapshot
from . import flow, kinds
from .lens import unused_declarations

log = logging.getLogger(__name__)

#: The default of ``diagnostics.maxPerCode``: more of one code in one file than this is a runaway.
DEFAULT_MAX_PER_CODE = 1000
#: The code of the summary that stands for the hidden diagnostics of one code.
TOO_MANY = "limit/too-many"

_SEVERITY_RANK = {"error": 0, "warning": 1, "information": 2, "hint": 3}

Provider = Callable[[DocumentState], Iterable[Diagnostic]]


def syntax(state: DocumentState) -> Iterable[Diagnostic]:
    """JSON syntax errors (`syntax/...` codes)."""
    return state.syntax.diagnostics


def structure(state: DocumentState) -> Iterable[Diagnostic]:
    """HCL JSON structure and Terraform rule diagnostics (`structure/...` codes)."""
    return state.analysis.structure


def strings(state: DocumentState) -> Iterable[Diagnostic]:
    """Templates, references and type constraints in strings (`template/`, `type/`, `reference/`)."""
    return state.analysis.strings


def references(state: DocumentState) -> Iterable[Diagnostic]:
    """What references mean: undeclared names, `count`/`each`/`self` out of context, ... (`reference/...`)."""
    return state.analysis.resolved


PROVIDERS: list[tuple[str, Provider]] = [
    ("syntax", syntax),
    ("structure", structure),
    ("strings", strings),
    ("references", references),
]

_COLLECTED = "features.diagnostics.file"
# The per-file diagnostics of the last version computed (`Runs`, and the list they equal): the next
# version's are realigned with them (`diagnostic.realigned`), so untouched runs are shared.
_CARRIED = "features.diagnostics.runs"
# What a quick open answers for: exactly these providers (another one added means running them all).
_QUICK_ANSWERS = tuple(PROVIDERS)


def _by_position(d: Diagnostic) -> tuple[int, int]:
    return (d.start, d.end)


def own_diagnostics(state: DocumentState) -> Sequence[Diagnostic]:
    """The document's own diagnostics, every per-file provider's that does not fail (see the module
    doc), computed once per version: `Runs` once they are kept so. Callers must not change it."""
    return state.cached(_COLLECTED, _per_file)


def _per_file(state: DocumentState) -> Sequence[Diagnostic]:
    quick = state.quick() if tuple(PROVIDERS) == _QUICK_ANSWERS else None
    if quick is not None:
        if not isinstance(quick.diagnostics, Runs):
            # As runs from the open on: the runs an edit leaves are these, their forms reused.
            quick.diagnostics = Runs.of(quick.diagnostics)
        state.keep(_CARRIED, (quick.diagnostics, quick.diagnostics, None))
        return quick.diagnostics
    lists = _provided(state, PROVIDERS)
    kept = state.carried(_CARRIED)
    if kept is not None and kept[0][2] is not None:
        spliced = _spliced(lists, kept[0][2], kept[0][0], kept[1])
        if spliced is not None:
            state.keep(_CARRIED, (spliced, spliced, lists))
            return spliced
    found = _merged(lists)
    runs = Runs.of(found) if kept is None else realigned(found, kept[0][0], kept[0][1], kept[1])
    state.keep(_CARRIED, (runs, found, lists))
    return runs


def _provided(state: DocumentState, providers: Iterable[tuple[str, Provider]]) -> tuple[Sequence[Diagnostic], ...]:
    """Each provider's diagnostics (a failing one's: none) in position order: the analysis's `Runs`
    as they are (sorted already), the others sorted (stable: `_merged` gives the same list)."""
    out: list[Sequence[Diagnostic]] = []
    for name, provider in providers:
        try:
            found = provider(state)
            out.append(found if isinstance(found, Runs) else sorted(found, key=_by_position))
        except Exception:
            log.exception("diagnostics provider %r failed on %s (version %s)", name, state.uri, state.version)
            out.append(())
    return tuple(out)


def _merged(lists: Iterable[Sequence[Diagnostic]]) -> list[Diagnostic]:
    """The providers' diagnostics in one list sorted by position (stable: in the providers' order)."""
    out: list[Diagnostic] = []
    for found in lists:
        out.extend(found)
    out.sort(key=_by_position)
    return out


def _spliced(lists: tuple[Sequence[Diagnostic], ...], before: tuple[Sequence[Diagnostic], ...], merged: Runs,
             cover: tuple[int, int, int] | None) -> Runs | None:
    """`_merged(lists)` as runs of `merged` (`_merged(before)`, the previous version's, as runs)
    where the providers' lists are runs of `before`'s: every provider's diagnostics before a place
    X unchanged (the same runs), and those from a place Z on moved by the edit `cover` (the same
    runs, the edit's delta more), so the merged ones before X are `merged`'s first ones, and those
    from Z on its last ones moved; only those in between (the edited block's, usually) are merged
    again. Nothing is read per diagnostic outside [X, Z): a binary search per list. None when the
    lists share nothing with `before` that way (a walk of the analysis made them afresh), or a kept
    or moved diagnostic spans the edit (runs hold diagnostics over text no edit changed)."""
    if len(lists) != len(before):
        return None
    delta = cover[2] - cover[1] if cover is not None else 0
    shared: list[tuple[int, int]] = []
    x, z = sys.maxsize, -sys.maxsize
    for new, old in zip(lists, before):
        n, m = len(new), len(old)
        if isinstance(new, Runs) and isinstance(old, Runs):
            head, tail = _shared_head(new, old), _shared_tail(new, old, delta)
        else:
            head, tail = _equal_ends(new, old, delta)
        shared.append((head, tail))
        # Where the lists may differ: from the first diagnostic not in the shared head (of either)
        # to the last one not in the shared tail (of either, in this version's offsets).
        if head < n:
            x = min(x, new[head].start)
        if head < m:
            x = min(x, old[head].start)
        if n - tail > 0:
            z = max(z, new[n - tail - 1].start + 1)
        if m - tail > 0:
            z = max(z, old[m - tail - 1].start + delta + 1)
    if cover is not None:  # (a diagnostic from the edit on can be neither kept nor moved: see below)
        x, z = min(x, cover[0]), max(z, cover[2])
    z = max(z, x)
    middle: list[Diagnostic] = []
    heads = tails = 0
    for (head, tail), new, old in zip(shared, lists, before):
        a, b = _count_before(new, x), len(new) - _count_before(new, z)
        if a > head or b > tail or _count_before(old, x) != a or len(old) - _count_before(old, z - delta) != b:
            return None
        heads += a
        tails += b
        middle.extend(new.between(a, len(new) - b) if isinstance(new, Runs) else new[a:len(new) - b])
    m = len(merged)
    if merged.count_before(x) != heads or m - merged.count_before(z - delta) != tails:
        return None
    kept, moved = merged.cut(0, heads), merged.cut(m - tails, m, delta)
    if cover is not None and (any(r.high() >= cover[0] for r in kept) or any(r.low() - delta < cover[1] for r in moved)):
        return None  # (one spans the edit: the same diagnostic, but not over the same text: `diagnostic.Runs`)
    middle.sort(key=_by_position)
    return Runs.joined([*kept, Runs.new(middle), *moved])


def _shared_head(new: Runs, old: Runs) -> int:
    """How many first diagnostics of `new` are `old`'s (the same runs)."""
    count = 0
    for a, b in zip(new.runs, old.runs):
        if a.base is not b.base or a.lo != b.lo or a.delta != b.delta:
            break
        count += min(a.hi, b.hi) - a.lo
        if a.hi != b.hi:
            break
    return count


def _shared_tail(new: Runs, old: Runs, delta: int) -> int:
    """How many last diagnostics of `new` are `old`'s moved by `delta` (the same runs)."""
    count = 0
    for a, b in zip(reversed(new.runs), reversed(old.runs)):
        if a.base is not b.base or a.hi != b.hi or a.delta != b.delta + delta:
            break
        count += a.hi - max(a.lo, b.lo)
        if a.lo != b.lo:
            break
    return count


def _equal_ends(new: Sequence[Diagnostic], old: Sequence[Diagnostic], delta: int) -> tuple[int, int]:
    """How many first diagnostics of `new` equal `old`'s, and how many last ones equal `old`'s
    moved by `delta` (lists: read one by one)."""
    limit = min(len(new), len(old))
    head = 0
    while head < limit and is_moved(new[head], old[head], 0):
        head += 1
    tail = 0
    while tail < limit and is_moved(new[-1 - tail], old[-1 - tail], delta):
        tail += 1
    return head, tail


def _count_before(found: Sequence[Diagnostic], offset: int) -> int:
    """How many of `found` (in position order) start before `offset`."""
    if isinstance(found, Runs):
        return found.count_before(offset)
    return bisect_left(found, offset, key=start_of)


def placing_steps(state: DocumentState) -> Iterator[None]:
    """Make the quick result's diagnostics still to be placed (`diagnostic.Pieces`: placed when
    read), one block a step: a background task runs them before the build, whose end compares
    every one of them (`prepare`). When the state gives that result up (an edit, or declarations
    elsewhere once the module's are brought up to date), the steps go on with the state's new one,
    if it has one, and read the old one no more."""
    while (quick := state.quick(compute=False)) is not None and isinstance(quick.diagnostics, Runs):
        for _ in quick.diagnostics.steps():
            yield
            if state.quick(compute=False) is not quick:
                break
        else:
            return


def prepare(state: DocumentState, quick: QuickResult | None | object = ...) -> bool:
    """Build the tree and the analysis of a document whose diagnostics came from its quick open
    (`DocumentState.prepare`), and check them against the quick result: True when they differ
    (a bug, logged): the document's diagnostics must then be published again. A quick result not
    computed for this version (an edit came since it was asked for) is not computed for the check.
    `quick`: the quick result of this version taken before its tree was built in steps (a stepped
    build that ends gives it way), instead of the state's. At once: `prepare_steps`, run out."""
    return run_out(prepare_steps(state, quick))


#: How many diagnostics `prepare_steps` compares a step (24,750 undeclared references were ~45 ms
#: compared at once, 0.1 s with the merge and the bounds: a background task's step is ~20 ms).
_COMPARED = 5_000


def prepare_steps(state: DocumentState, quick: QuickResult | None | object = ...) -> Generator[None, None, bool]:
    """`prepare` in steps, for a background task: the tree built (a request may build it too), the
    analysis's diagnostics of that version merged, then compared with the quick result's
    `_COMPARED` at a time. What is compared is that version's, whatever comes between two steps; the
    quick result's runs are kept for the next edit's splice only when no edit came since."""
    taken = state.quick(compute=False) if quick is ... else cast("QuickResult | None", quick)
    state.prepare()
    if taken is None:
        return False
    lists = _provided(state, PROVIDERS)
    full = _merged(lists)
    mine = taken.diagnostics
    same = len(full) == len(mine)
    for lo in range(0, len(full), _COMPARED) if same else ():
        yield
        hi = lo + _COMPARED
        if full[lo:hi] != (mine.between(lo, hi) if isinstance(mine, Runs) else list(mine[lo:hi])):
            same = False
            break
    if same:
        yield
        kept = state.carried(_CARRIED)
        if kept is not None and kept[1] is None and kept[0][0] is taken.diagnostics:
            # The quick result's runs (their forms made) are the merge of the analysis's lists: the
            # next edit's are spliced from both (`_spliced`), which asks where their places are.
            state.keep(_CARRIED, (kept[0][0], kept[0][1], lists))
            for run in cast(Runs, kept[0][0]).runs:
                run.base.bounds()
        return False
    log.error("quick open of %s (version %s) disagreed with its analysis: %d against %d diagnostics; "
              "publishing the analysis", state.uri, state.version, len(taken.diagnostics), len(full))
    state.forget_results()
    return True


def collapse(found: list[Diagnostic], max_per_code: int) -> list[Diagnostic]:
    """`found` (sorted by position) with, for each code, the diagnostics after its first `max_per_code`
    replaced by one `TOO_MANY` summary at the first hidden one's place (see the module doc); `found`
    itself when nothing is hidden or `max_per_code` is 0."""
    if max_per_code <= 0 or len(found) <= max_per_code:
        return found
    over = {code for code, n in Counter(d.code for d in found).items() if n > max_per_code}
    if not over:
        return found
    seen = dict.fromkeys(over, 0)
    first: dict[str, Diagnostic] = {}
    severities: dict[str, set[str]] = {code: set() for code in over}
    kept: list[Diagnostic] = []
    for d in found:
        code = d.code
        if code not in over:
            kept.append(d)
            continue
        n = seen[code] = seen[code] + 1
        if n <= max_per_code:
            kept.append(d)
        else:
            first.setdefault(code, d)
            severities[code].add(d.severity)
    for code, d in first.items():
        kept.append(_summary(d, code, seen[code] - max_per_code, max_per_code, severities[code]))
    kept.sort(key=_by_position)
    return kept


def _summary(d: Diagnostic, code: str, hidden: int, max_per_code: int, severities: set[str]) -> Diagnostic:
    """The `TOO_MANY` diagnostic of `hidden` diagnostics of `code`, the first of them `d`."""
    severity = min(severities, key=lambda s: _SEVERITY_RANK.get(s, 0))
    what = f"`{code}`" if code else "diagnostics without a code"
    return Diagnostic(
        d.start, d.end, severity, TOO_MANY,
        f"{hidden:,} more {what} diagnostics not shown",
        f"only the first {max_per_code:,} of each code are (setting diagnostics.maxPerCode, 0 shows them all). "
        f"The first one not shown is here: {d.plain_message}",
    )


def collect(snapshot: Snapshot, uri: str, unused: bool = False, max_per_code: int = 0) -> list[Diagnostic]:
    """The diagnostics of open document `uri`: its own, then what its module adds, sorted; with
    `unused`, the hints on declarations nothing refers to (once the document is built: not from a quick
    open); with `max_per_code`, runaway repeats of one
    code folded (`collapse`)."""
    found = gathered(snapshot, uri, unused, max_per_code)
    # Each call its own list (the runs' is kept with them).
    return list(found.flat()) if isinstance(found, Runs) else cast("list[Diagnostic]", found)


def gathered(snapshot: Snapshot, uri: str, unused: bool = False, max_per_code: int = 0) -> Sequence[Diagnostic]:
    """`collect`'s diagnostics, as `diagnostic.Runs` when the document's own are kept so (an edit
    before the tree: `terraform.quick_edit`) and nothing is merged in or folded: the runs an edit
    did not touch are those of the previous version, moved (what `lsp.diagnostic_forms` reuses
    whole). Do not change what it returns."""
    state = snapshot.document(uri)
    if state is None:
        return []
    try:
        # First: it brings every open document of the module up to date, so a declaration changed in
        # another one reaches this document's references before they are read below.
        across = snapshot.module_diagnostics(uri)
        own = kinds.answer("diagnostics", snapshot, uri)  # other files count: never cached per version
        if own is not kinds.CONFIGURATION:
            across = [*across, *own]
        else:
            # Where sensitive and ephemeral values flow: other files and modules count (never cached per version).
            found = flow.diagnostics(snapshot, uri)
            if found:
                across = [*across, *found]
            # References in other files count: never cached per version. Not while the document is
            # quick-opened (no tree yet): finding its declarations would build the tree the quick open
            # saves; the hints come with the next publish, once the background build ends.
            if unused and state.built:
                across = [*across, *unused_declarations(snapshot, uri)]
    except Exception:
        log.exception("diagnostics provider 'module' failed on %s (version %s)", uri, state.version)
        across = []
    kept = own_diagnostics(state)
    if isinstance(kept, Runs) and len(across) <= _FEW_ACROSS:
        return collapse_runs(_inserted(kept, sorted(across, key=_by_position)) if across else kept, max_per_code)
    out = list(kept)
    if across:
        out.extend(across)
        out.sort(key=_by_position)
    return collapse(out, max_per_code)


#: At most this many diagnostics from other files (`gathered`'s "module") are merged into the runs of
#: the document's own one by one; more, and the runs are read into one list.
_FEW_ACROSS = 16


def _inserted(runs: Runs, extra: list[Diagnostic]) -> Runs:
    """`runs` with `extra` (sorted by position) merged in as `_merged` would merge them after it:
    each after the diagnostics of `runs` at its position, a binary search each."""
    parts: list[Run] = []
    at = 0
    n = len(runs)
    i = 0
    while i < len(extra):
        d = extra[i]
        k = bisect_right(runs, _by_position(d), at, n, key=_by_position)
        j = i + 1
        while j < len(extra) and bisect_right(runs, _by_position(extra[j]), k, n, key=_by_position) == k:
            j += 1
        parts.extend(runs.cut(at, k))
        parts.append(Runs.new(extra[i:j]))
        at, i = k, j
    parts.extend(runs.cut(at, n))
    return Runs.joined(parts)


def collapse_runs(found: Runs, max_per_code: int) -> Sequence[Diagnostic]:
    """`collapse(list(found), max_per_code)` as `Runs`, reading only the kept diagnostics and the
    first hidden one of each code: per run, where each code is (the run's base's index of codes,
    found once per base), so the hidden ones are skipped run by run, and the kept ones are runs of
    `found`'s (their forms reused: `lsp.diagnostic_forms`). `found` itself when nothing is hidden."""
    if max_per_code <= 0 or len(found) <= max_per_code:
        return found
    runs = found.runs
    # Per run, per code present in it: the base's ascending indices of that code and the range of
    # them in the run (`at[a:b]`: not copied, a run may hold most of a document's diagnostics).
    per_run: list[dict[str, tuple[list[int], int, int]]] = []
    totals: Counter[str] = Counter()
    for r in runs:
        codes = {}
        for code, at in r.base.codes().items():
            a, b = bisect_left(at, r.lo), bisect_left(at, r.hi)
            if b > a:
                codes[code] = (at, a, b)
                totals[code] += b - a
        per_run.append(codes)
    over = {code for code, n in totals.items() if n > max_per_code}
    if not over:
        return found
    left = dict.fromkeys(over, max_per_code)
    first: dict[str, tuple[int, Diagnostic]] = {}
    severities: dict[str, set[str]] = {code: set() for code in over}
    kept: list[Run] = []
    position = 0
    for run, codes in zip(runs, per_run):
        take: list[int] = []
        items, delta = run.base.items, run.delta
        for code, (at, a, b) in codes.items():
            if code not in over:
                take.extend(at[a:b])
                continue
            shown = min(left[code], b - a)
            if shown:
                take.extend(at[a:a + shown])
                left[code] -= shown
            if a + shown < b:  # hidden ones
                if code not in first:
                    i = at[a + shown]
                    first[code] = (position + i - run.lo, items[i].shifted(delta) if delta else items[i])
                some = run.base.severities(code)
                severities[code].update(some if len(some) == 1 else {items[i].severity for i in at[a + shown:b]})
        if take:
            take.sort()
            if take[-1] - take[0] + 1 == len(take):  # (one after the other: the usual case)
                kept.append(Run(run.base, take[0], take[-1] + 1, delta))
            else:
                k = 0
                while k < len(take):  # the kept ones one after the other: one run each
                    lo = hi = take[k]
                    k += 1
                    while k < len(take) and take[k] == hi + 1:
                        hi += 1
                        k += 1
                    kept.append(Run(run.base, lo, hi + 1, delta))
        position += run.hi - run.lo
    summaries = [_summary(d, code, totals[code] - max_per_code, max_per_code, severities[code])
                 for code, (_, d) in sorted(first.items(), key=lambda item: item[1][0])]
    summaries.sort(key=_by_position)  # (stable: as `collapse` sorts them in)
    return _inserted(Runs.joined(kept), summaries)
