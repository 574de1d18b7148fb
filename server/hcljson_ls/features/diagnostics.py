"""All diagnostics of one document: the one function the language server and `hcljson-ls check` share.

    collect(snapshot, uri, unused=False, max_per_code=0) -> list[Diagnostic]   the document's own and its module's
    collapse(found, max_per_code) -> list[Diagnostic]      runaway repeats of one code folded into a summary
    gathered(snapshot, uri, unused=False, max_per_code=0) -> Sequence[Diagnostic]
                                                   `collect`'s, as `diagnostic.Runs` when kept so (the LSP forms)
    collapse_runs(found, max_per_code)             `collapse` of `Runs`, reading only what it keeps
    prepare(state) -> bool                         build a quick-opened document's analysis; True if it disagreed
    file_diagnostics(state) -> list[Diagnostic]    the document's own (every per-file provider)

Contract
--------
* `PROVIDERS` is an ordered list of ``(name, provider)``; a provider is a plain function
  ``(DocumentState) -> Iterable[Diagnostic]`` for one layer of one file: "syntax" (JSON),
  "structure" (HCL JSON structure and Terraform rules), "strings" (templates, references and type
  constraints, read by their schema mode) and "references" (what references mean, against the
  declarations of the whole module: `terraform.resolve`); the last three read the document's one
  analysis (`DocumentState.analysis`). Then "module": what other files of the module say about this one
  (`Workspace.module_diagnostics`: declarations made twice across files); with `collect`'s
  `unused` (the `diagnostics.unusedDeclarations` setting), also the variables, local values and data
  sources of the document nothing in the module refers to (`features.lens.unused_declarations`).
* A provider that raises is logged (with its name and the document) and skipped; the others still
  report. A bug in one layer never hides the diagnostics of another.
* Before the first edit, a document whose opened text `terraform.quick` can answer
  (`DocumentState.quick`) takes its diagnostics from there: the same list the providers give, without
  building the tree (a failing quick open is logged by the state and the providers run instead).
* The per-file result is computed once per version; each call gets its own list. The result is
  sorted by position (start, then end), stable within a position, so providers keep their own
  order for diagnostics at the same place.
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
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from ..diagnostic import Diagnostic, Runs, realigned
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


def file_diagnostics(state: DocumentState, providers: Iterable[tuple[str, Provider]] | None = None) -> list[Diagnostic]:
    """Every per-file diagnostic of `state` from every provider that does not fail (see the module doc)."""
    if providers is None:
        return list(state.cached(_COLLECTED, _per_file))
    return _run(state, providers)


def _per_file(state: DocumentState) -> Sequence[Diagnostic]:
    quick = state.quick() if tuple(PROVIDERS) == _QUICK_ANSWERS else None
    if quick is not None:
        if not isinstance(quick.diagnostics, Runs):
            # As runs from the open on: the runs an edit leaves are these, their forms reused.
            quick.diagnostics = Runs.of(quick.diagnostics)
        state.keep(_CARRIED, (quick.diagnostics, quick.diagnostics))
        return quick.diagnostics
    found = _run(state, PROVIDERS)
    kept = state.carried(_CARRIED)
    runs = Runs.of(found) if kept is None else realigned(found, kept[0][0], kept[0][1], kept[1])
    state.keep(_CARRIED, (runs, found))
    return runs


def _run(state: DocumentState, providers: Iterable[tuple[str, Provider]]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for name, provider in providers:
        try:
            out.extend(provider(state))
        except Exception:
            log.exception("diagnostics provider %r failed on %s (version %s)", name, state.uri, state.version)
    out.sort(key=_by_position)
    return out


def prepare(state: DocumentState, quick: QuickResult | None | object = ...) -> bool:
    """Build the tree and the analysis of a document whose diagnostics came from its quick open
    (`DocumentState.prepare`), and check them against the quick result: True when they differ
    (a bug, logged): the document's diagnostics must then be published again. A quick result not
    computed for this version (an edit came since it was asked for) is not computed for the check.
    `quick`: the quick result of this version taken before its tree was built in steps (a stepped
    build that ends gives it way), instead of the state's."""
    taken = state.quick(compute=False) if quick is ... else cast("QuickResult | None", quick)
    state.prepare()
    if taken is None:
        return False
    full = _run(state, PROVIDERS)
    if full == taken.diagnostics:
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
    kept = state.cached(_COLLECTED, _per_file)
    if isinstance(kept, Runs) and not across:
        return collapse_runs(kept, max_per_code)
    out = list(kept)
    if across:
        out.extend(across)
        out.sort(key=_by_position)
    return collapse(out, max_per_code)


def collapse_runs(found: Runs, max_per_code: int) -> Sequence[Diagnostic]:
    """`collapse(list(found), max_per_code)`, reading only the kept diagnostics and the first hidden
    one of each code: per run, where each code is (`diagnostic.Runs.codes`, found once per run's
    diagnostics), so the hidden ones are skipped run by run. `found` itself when nothing is hidden."""
    if max_per_code <= 0 or len(found) <= max_per_code:
        return found
    runs = found.runs
    per_run = [r.codes() for r in runs]
    totals: Counter[str] = Counter()
    for codes in per_run:
        for code, at in codes.items():
            totals[code] += len(at)
    over = {code for code, n in totals.items() if n > max_per_code}
    if not over:
        return found
    left = dict.fromkeys(over, max_per_code)
    first: dict[str, tuple[int, Diagnostic]] = {}
    severities: dict[str, set[str]] = {code: set() for code in over}
    kept: list[Diagnostic] = []
    position = 0
    for run, codes in zip(runs, per_run):
        take: list[int] = []
        items, delta = run.base.items, run.delta
        for code, at in codes.items():
            if code not in over:
                take.extend(at)
                continue
            n = left[code]
            if n:
                take.extend(at[:n])
                left[code] = max(0, n - len(at))
            hidden = at[n:]
            if hidden:
                if code not in first:
                    d = items[hidden[0]]
                    first[code] = (position + hidden[0] - run.lo, d.shifted(delta) if delta else d)
                some = run.base.severities(code)
                severities[code].update(some if len(some) == 1 else {items[i].severity for i in hidden})
        take.sort()
        kept.extend(items[i].shifted(delta) if delta else items[i] for i in take)
        position += run.hi - run.lo
    for code, (_, d) in sorted(first.items(), key=lambda item: item[1][0]):
        kept.append(_summary(d, code, totals[code] - max_per_code, max_per_code, severities[code]))
    kept.sort(key=_by_position)
    return kept
