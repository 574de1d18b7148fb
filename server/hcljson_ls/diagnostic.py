"""Diagnostics as plain data, shared by every layer.

Positions are absolute character offsets into the document text (Python `str` indices).
Conversion to lines/columns happens only at the edges (`text.LineIndex`).
Every diagnostic has a stable `code` (documented in docs/diagnostics.md), a short
`summary`, and a full-sentence `detail`.

`Deferred` is a `Diagnostic` whose last sentence ("Did you mean ...?") and quick fixes are worked
out on first read of `detail`, `fixes` or `message`: a file with 25,000 misspelt references shows
1,000 of them (`diagnostics.maxPerCode`), and the others' suggestions are never looked for. It is
a `Diagnostic` in every respect a reader can see (fields, equality, hash, repr); equality between
two not yet worked out compares what they will say (their `Later`s), without working it out.

`Runs` is a sequence of diagnostics kept as runs of diagnostics made once plus the delta edits since
moved them by (`terraform.quick_edit` after an edit before the tree, `hcljson.incremental` and
`features.diagnostics` after it): reading it gives the moved diagnostics, equal to copies moved at
once; `lsp.diagnostic_forms` reuses an untouched run's LSP forms whole,
`features.diagnostics.collapse_runs` skips the hidden ones run by run. A run's diagnostics span text
no edit since changed (their places, related ones and fixes included: `Run.low`/`Run.high`).
A run's diagnostics may be `Pieces`: parts made when an element of theirs is first read (the quick
open's undeclared references, placed in the text when read), which answer their count, codes,
severities and bounds without being made.
"""

from __future__ import annotations

import operator
import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress
from typing import NamedTuple, Protocol

_CODE_SPAN = re.compile(r"`([^`\n]*)`")
#: A diagnostic's start (a sort or search key, in C).
start_of = operator.attrgetter("start")
_end = operator.attrgetter("end")
_related = operator.attrgetter("related")


def plain(text: str) -> str:
    """`text` with its code spans written for plain-text readers (LSP messages, terminals): `x`
    becomes "x", and a span that is already a quoted string (`"//"`) just loses its backticks."""

    def one(m: re.Match) -> str:
        inner = m.group(1)
        if len(inner) >= 2 and inner[0] == '"' and inner[-1] == '"':
            return inner
        return f'"{inner}"'

    return _CODE_SPAN.sub(one, text) if "`" in text else text

ERROR = "error"
WARNING = "warning"
INFORMATION = "information"
HINT = "hint"


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location that explains a diagnostic (e.g. the unclosed `{`): in the same
    document, or, with `uri`, in another file of the module (offsets into that file's text)."""

    start: int
    end: int
    message: str
    uri: str | None = None


@dataclass(frozen=True, slots=True)
class Fix:
    """A quick fix: replace `[start, end)` of the same document with `new_text` (`title` says how)."""

    start: int
    end: int
    new_text: str
    title: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    start: int
    end: int
    severity: str
    code: str
    summary: str
    detail: str = ""
    related: tuple[Related, ...] = field(default=())
    fixes: tuple[Fix, ...] = field(default=())

    @property
    def plain_message(self) -> str:
        """`message` for plain-text readers (see `plain`): what the LSP edge and `check` show."""
        return plain(self.message)

    @property
    def message(self) -> str:
        """One human message: the summary, then the detail sentence(s)."""
        if not self.detail:
            return self.summary
        return f"{self.summary}: {self.detail}" if not self.summary.endswith((".", "?", "!")) else f"{self.summary} {self.detail}"

    def shifted(self, delta: int) -> Diagnostic:
        """The same diagnostic moved by `delta` characters (related locations in the same document too)."""
        if delta == 0:
            return self
        return replace(
            self,
            start=self.start + delta,
            end=self.end + delta,
            related=tuple(
                replace(r, start=r.start + delta, end=r.end + delta) if r.uri is None else r for r in self.related
            ),
            fixes=tuple(replace(f, start=f.start + delta, end=f.end + delta) for f in self.fixes),
        )


class Later(Protocol):
    """What a `Deferred` diagnostic adds on first read: `(text, fixes)` for a diagnostic whose range
    starts at `base` (`text` is appended to its detail). Equal `Later`s (`==`) must give equal
    answers at the same base; calling one twice gives the same answer."""

    def __call__(self, base: int) -> tuple[str, tuple[Fix, ...]]: ...


_DETAIL = Diagnostic.__dict__["detail"]  # the slots under the properties of `Deferred`
_FIXES = Diagnostic.__dict__["fixes"]
_FIELDS = ("start", "end", "severity", "code", "summary", "detail", "related", "fixes")
_START, _END, _SEVERITY, _CODE, _SUMMARY, _RELATED = (
    Diagnostic.__dict__[f].__set__ for f in ("start", "end", "severity", "code", "summary", "related"))


class Deferred(Diagnostic):
    """A `Diagnostic` whose `later` part is worked out on first read (see the module doc). Its
    `detail` and `fixes` slots hold what is known without it; moved (`shifted`, `at`), it keeps
    its `later` (and what it worked out, moved): its fixes are placed from its start."""

    __slots__ = ("_later", "_worked")
    _later: Later | None
    _worked: tuple[str, tuple[Fix, ...]] | None

    def __init__(self, start: int, end: int, severity: str, code: str, summary: str, detail: str = "",
                 related: tuple[Related, ...] = (), fixes: tuple[Fix, ...] = (), later: Later | None = None) -> None:
        # The slots set directly (what `Diagnostic.__init__` does, a third cheaper: one per undeclared
        # reference, 25,000 in a 5 MB file).
        _START(self, start)
        _END(self, end)
        _SEVERITY(self, severity)
        _CODE(self, code)
        _SUMMARY(self, summary)
        _DETAIL.__set__(self, detail)
        _RELATED(self, related)
        _FIXES.__set__(self, fixes)
        _LATER(self, later)
        _WORKED(self, None)

    @property
    def deferred(self) -> bool:
        """True when it has a deferred part (worked out or not): it moves as a whole (`shifted`)."""
        return self._later is not None

    @property
    def known(self) -> tuple[str, tuple[Fix, ...]]:
        """The detail and fixes known without working out the deferred part (to order diagnostics
        without working them out: equal known parts at one range come with equal `Later`s)."""
        return _DETAIL.__get__(self), _FIXES.__get__(self)

    @property
    def pending(self) -> bool:
        """True until the deferred part is worked out."""
        return self._later is not None and self._worked is None

    def _work_out(self) -> tuple[str, tuple[Fix, ...]]:
        worked = self._worked
        if worked is None:
            text, fixes = self._later(self.start)  # type: ignore[misc]
            worked = (_DETAIL.__get__(self) + text, _FIXES.__get__(self) + fixes)
            _WORKED(self, worked)
        return worked

    def _get_detail(self) -> str:
        return self._work_out()[0] if self._later is not None else _DETAIL.__get__(self)

    def _get_fixes(self) -> tuple[Fix, ...]:
        return self._work_out()[1] if self._later is not None else _FIXES.__get__(self)

    # `Diagnostic.__init__` (and `dataclasses.replace`) set the fields through these setters.
    detail = property(_get_detail, _DETAIL.__set__)
    fixes = property(_get_fixes, _FIXES.__set__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        if (type(other) is Deferred and self._later is not None and self._later == other._later
                and self.start == other.start and self.end == other.end and self.severity == other.severity
                and self.code == other.code and self.summary == other.summary and self.related == other.related
                and _DETAIL.__get__(self) == _DETAIL.__get__(other) and _FIXES.__get__(self) == _FIXES.__get__(other)):
            return True  # equal `Later`s at the same start: equal when worked out, without working out
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = Diagnostic.__hash__

    def shifted(self, delta: int) -> Diagnostic:
        if self._later is None or delta == 0:
            return Diagnostic.shifted(self, delta)
        related, fixes = self.related, _FIXES.__get__(self)
        moved = Deferred(  # (the tuples made only when not empty: most are, 25,000 moved by an edit before the tree)
            self.start + delta, self.end + delta, self.severity, self.code, self.summary, _DETAIL.__get__(self),
            tuple(replace(r, start=r.start + delta, end=r.end + delta) if r.uri is None else r for r in related)
            if related else related,
            tuple([Fix(f.start + delta, f.end + delta, f.new_text, f.title) for f in fixes]) if fixes else fixes,
            self._later,
        )
        worked = self._worked
        if worked is not None:
            _WORKED(moved, (worked[0], tuple([Fix(f.start + delta, f.end + delta, f.new_text, f.title) for f in worked[1]])))
        return moved

    def at(self, start: int) -> Diagnostic:
        """The same diagnostic moved to start at `start` (its length, related places and fixes with it)."""
        return self.shifted(start - self.start)


def moved_unshared(d: Diagnostic, delta: int) -> Diagnostic:
    """`d.shifted(delta)`, made by moving `d` itself where that gives the same: for a diagnostic its
    maker has not handed to anyone yet (nothing holds it, compared or hashed it), such as the quick
    open's diagnostics of a reference resolved by key, then placed where the key is written
    (`terraform.quick._locate`: 25,000 in a 5 MB file with a misspelt reference in every resource,
    where a moved copy was a third of the placing). A `Deferred` not worked out, without related
    places or known fixes, is moved in place (its deferred part is placed from its start); any
    other diagnostic is `shifted`."""
    if type(d) is Deferred and d._worked is None and not d.related and not _FIXES.__get__(d):
        _START(d, d.start + delta)
        _END(d, d.end + delta)
        return d
    return d.shifted(delta)


_LATER = Deferred.__dict__["_later"].__set__
_WORKED = Deferred.__dict__["_worked"].__set__


class _Base:
    """Diagnostics made once (in position order), shared by the runs of later versions that moved
    them; with, per diagnostic, the lowest and highest offset it holds in this document (its range,
    its related places here, the fixes of one that is not deferred), found on first need, and what
    its maker tags each one with (`tags`: `hcljson.incremental` keeps who reported it)."""

    __slots__ = ("items", "tags", "_low", "_high", "_codes", "_severities", "_spans")

    def __init__(self, items: tuple[Diagnostic, ...] | Pieces, tags: Sequence[object] | None = None) -> None:
        self.items = items  # (`Pieces`: some made when first read; the index, codes and bounds are asked of it)
        self.tags = tags  # what its maker keeps per diagnostic (`Runs.new`), or None
        self._low: array | None = None
        self._high: array | None = None
        self._codes: dict[str, list[int]] | None = None
        self._severities: dict[str, set[str]] = {}
        self._spans: dict[tuple[int, int], tuple[int, int]] = {}

    def span(self, lo: int, hi: int) -> tuple[int, int]:
        """The lowest and the highest offset the diagnostics `[lo, hi)` hold (`bounds`), kept for
        the next asker (the same runs are asked again edit after edit)."""
        key = (lo, hi)
        found = self._spans.get(key)
        if found is None and type(self.items) is Pieces and self.items.pending:
            return self.items.span(lo, hi)  # (not kept: a piece made since may narrow it)
        if found is None:
            low, high = self.bounds()
            if len(self._spans) >= 64:
                self._spans.clear()
            found = self._spans[key] = (min(low[lo:hi]), max(high[lo:hi]))
        return found

    def codes(self) -> dict[str, list[int]]:
        """Per code, the indices of the diagnostics of that code (ascending), found on first need."""
        if self._codes is None and type(self.items) is Pieces:
            self._codes = self.items.codes()
        if self._codes is None:
            codes: dict[str, list[int]] = {}
            for i, d in enumerate(self.items):
                at = codes.get(d.code)
                if at is None:
                    codes[d.code] = [i]
                else:
                    at.append(i)
            self._codes = codes
        return self._codes

    def severities(self, code: str) -> set[str]:
        """The severities of its diagnostics of `code`."""
        found = self._severities.get(code)
        if found is None and type(self.items) is Pieces:
            found = self._severities[code] = self.items.severities(code)
        if found is None:
            items = self.items
            found = self._severities[code] = {items[i].severity for i in self.codes().get(code, ())}
        return found

    def bounds(self) -> tuple[array, array]:
        if self._low is None:
            items = self.items
            low, high = array("q", list(map(start_of, items))), array("q", list(map(_end, items)))
            every = range(len(items))
            wide = {*compress(every, map(_related, items)), *compress(every, map(_FIXES.__get__, items))}
            for i in wide:  # (few: those holding places besides their range)
                low[i], high[i] = _reach(items[i])
            self._low, self._high = low, high
        return self._low, self._high  # type: ignore[return-value]


class Piece:
    """`count` diagnostics of one part of a document, made when first read (`make()`, which gives
    them in position order): what a reader can learn of them without making them is said here, so
    that `Pieces` answers it. All of them are of `code` (None: of several codes), their severities
    per code are `severities`, and every offset they hold lies in `[low, high]`."""

    __slots__ = ("count", "code", "severities", "low", "high", "make")

    def __init__(self, count: int, code: str | None, severities: dict[str, set[str]], low: int, high: int,
                 make: Callable[[], list[Diagnostic]]) -> None:
        self.count = count
        self.code = code
        self.severities = severities
        self.low = low
        self.high = high
        self.make = make


class Pieces(Sequence[Diagnostic]):
    """A sequence of diagnostics in position order made of parts: lists of diagnostics, and `Piece`s
    made when an element of theirs is first read (then kept as lists). The quick open places the
    references of ~25,000 undeclared names this way (`terraform.quick`): a client is shown the first
    1,000 of a code (`features.diagnostics.collapse_runs`), which reads the codes, the severities
    (`codes`, `severities`) and the kept elements only, and an edit before the tree asks where runs
    of them lie (`span`: a piece not made yet answers its bounds). Reading every element (iterating,
    `==`, `bounds`) makes every piece; `steps()` makes them one a step, for a background task."""

    __slots__ = ("_parts", "_ends", "_lows", "_highs", "pending", "_flat", "_spans")

    def __init__(self, parts: Iterable[list[Diagnostic] | Piece]) -> None:
        self._parts: list[list[Diagnostic] | Piece] = []
        self._ends = array("q")
        # Per part, the lowest and highest offset its diagnostics hold: a piece's bounds until it is made.
        self._lows, self._highs = array("q"), array("q")
        self.pending = 0  # how many pieces are not made yet
        self._flat: list[Diagnostic] | None = None  # every element, once every piece is made and one is read
        self._spans: dict[tuple[int, int, int], tuple[int, int]] = {}  # `_between_parts`
        total = 0
        for part in parts:
            n = part.count if isinstance(part, Piece) else len(part)
            if n:
                total += n
                self._parts.append(part)
                self._ends.append(total)
                low, high = (part.low, part.high) if isinstance(part, Piece) else _reach_all(part)
                self._lows.append(low)
                self._highs.append(high)
                self.pending += isinstance(part, Piece)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _made(self, k: int) -> list[Diagnostic]:
        """Part `k`, made now if it is a `Piece` (which must give as many as it said)."""
        part = self._parts[k]
        if not isinstance(part, Piece):
            return part
        made = part.make()
        if len(made) != part.count:
            raise RuntimeError(f"a piece of {part.count} diagnostics made {len(made)}")
        self._parts[k] = made
        self._lows[k], self._highs[k] = _reach_all(made)
        self.pending -= 1
        return made

    def __getitem__(self, i):
        if self._flat is not None or not self.pending:
            return self.flat()[i]
        if isinstance(i, slice):
            lo, hi, step = i.indices(len(self))
            if step != 1:
                return self.flat()[i]
            return self.between(lo, hi)
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        k = bisect_right(self._ends, i)
        return self._made(k)[i - (self._ends[k - 1] if k else 0)]

    def between(self, lo: int, hi: int) -> list[Diagnostic]:
        """Elements `[lo, hi)`, making only the pieces among them."""
        out: list[Diagnostic] = []
        if lo >= hi:
            return out
        k = bisect_right(self._ends, lo)
        while k < len(self._parts) and lo < hi:
            start = self._ends[k - 1] if k else 0
            part = self._made(k)
            out.extend(part[lo - start : min(hi, self._ends[k]) - start])
            lo = self._ends[k]
            k += 1
        return out

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.flat())

    def flat(self) -> list[Diagnostic]:
        """Every element (every piece made), kept: read again and again once made (`_Base.bounds`)."""
        if self._flat is None:
            self._flat = self.between(0, len(self))
        return self._flat

    def steps(self) -> Iterator[None]:
        """Make the pieces not made yet, one a step."""
        for k, part in enumerate(self._parts):
            if type(part) is Piece:
                self._made(k)
                yield

    def count_before(self, offset: int, lo: int = 0, hi: int | None = None) -> int:
        """`bisect_left(self, offset, lo, hi, key=start_of)`: the first of elements `[lo, hi)`
        starting at or after `offset`, making only a part whose bounds hold `offset` (a binary
        search over the parts, then one in a part; reading elements made every part probed).

        Measured at 5 MB with 24,750 undeclared references, in-process: the splice of an edit before
        the tree (`terraform.quick_edit`: three such searches and the runs' bounds) went from 0.41 to
        0.16 ms, ~0.08 of it making the edited block's new piece (a `bisect` of `Runs` called a Python
        `__getitem__` a probe, through `Pieces`)."""
        hi = len(self) if hi is None else hi
        if lo >= hi:
            return lo
        if self._flat is not None or not self.pending:
            return bisect_left(self.flat(), offset, lo, hi, key=start_of)
        ends, lows, highs = self._ends, self._lows, self._highs

        def starts_after(k: int) -> bool:  # whether part `k` has an element starting at or after `offset`
            if highs[k] < offset:
                return False
            if lows[k] >= offset:
                return True
            return self._made(k)[-1].start >= offset

        first, last = bisect_right(ends, lo), bisect_left(ends, hi)  # the parts of elements lo and hi - 1
        k = bisect_left(range(first, last + 1), True, key=starts_after) + first
        if k > last:
            return hi
        start = ends[k - 1] if k else 0
        part = self._parts[k]  # (a piece not made yet starts at or after `offset`: `starts_after`)
        inside = start if isinstance(part, Piece) else start + bisect_left(part, offset, key=start_of)
        return min(max(inside, lo), hi)

    def codes(self) -> dict[str, list[int]]:
        """`_Base.codes`, making only the pieces of several codes."""
        codes: dict[str, list[int]] = {}
        start = 0
        for k, end in enumerate(self._ends):
            part = self._parts[k]
            if isinstance(part, Piece) and part.code is not None:
                at = codes.get(part.code)
                if at is None:
                    at = codes[part.code] = []
                at.extend(range(start, end))
            else:
                for i, d in enumerate(self._made(k), start):
                    at = codes.get(d.code)
                    if at is None:
                        codes[d.code] = [i]
                    else:
                        at.append(i)
            start = end
        return codes

    def severities(self, code: str) -> set[str]:
        """The severities of its diagnostics of `code`, making no piece."""
        found: set[str] = set()
        for part in self._parts:
            if isinstance(part, Piece):
                found |= part.severities.get(code, set())
            else:
                found.update(d.severity for d in part if d.code == code)
        return found

    def span(self, lo: int, hi: int) -> tuple[int, int]:
        """The lowest and highest offset elements `[lo, hi)` hold (`_Base.span`): a piece not made
        answers its bounds (a range holding theirs)."""
        ends = self._ends
        first, last = bisect_right(ends, lo), bisect_left(ends, hi)  # the parts of the first and last
        if first == last:
            return self._part_span(first, lo, hi)
        low, high = self._part_span(first, lo, ends[first])
        if last - first > 1:  # (the parts between, whole)
            a, b = self._between_parts(first + 1, last)
            low, high = min(low, a), max(high, b)
        a, b = self._part_span(last, ends[last - 1], hi)
        return min(low, a), max(high, b)

    def _between_parts(self, first: int, last: int) -> tuple[int, int]:
        """The lowest and highest offset parts `[first, last)` hold, kept until a piece is made
        (which may narrow them): an edit before the tree asks for the same ones again, and `min` of
        ~3,000 parts' bounds is ~30 us (two a one-character edit at 5 MB with 24,750 undeclared
        references)."""
        key = (first, last, self.pending)
        found = self._spans.get(key)
        if found is None:
            if len(self._spans) >= 64:
                self._spans.clear()
            found = self._spans[key] = (min(self._lows[first:last]), max(self._highs[first:last]))
        return found

    def _part_span(self, k: int, lo: int, hi: int) -> tuple[int, int]:
        """`span` of elements `[lo, hi)`, all in part `k`."""
        start = self._ends[k - 1] if k else 0
        part = self._parts[k]
        if isinstance(part, Piece) or (lo == start and hi == self._ends[k]):
            return self._lows[k], self._highs[k]
        return _reach_all(part[lo - start : hi - start])


def _reach_all(found: Sequence[Diagnostic]) -> tuple[int, int]:
    """The lowest and highest offset the diagnostics `found` (not empty) hold."""
    if not any(map(_related, found)) and not any(map(_FIXES.__get__, found)):  # (in C: the usual case)
        return min(map(start_of, found)), max(map(_end, found))
    low, high = sys.maxsize, -sys.maxsize
    for d in found:
        a, b = _reach(d)
        if a < low:
            low = a
        if b > high:
            high = b
    return low, high


def _reach(d: Diagnostic) -> tuple[int, int]:
    """The lowest and highest offset `d` holds in its document (`_Base.bounds`, for one)."""
    lo, hi = d.start, d.end
    for r in d.related:
        if r.uri is None:
            lo, hi = min(lo, r.start), max(hi, r.end)
    if type(d) is not Deferred or d._later is None:  # (a deferred one's fixes are placed from its start)
        for f in d.fixes:
            lo, hi = min(lo, f.start), max(hi, f.end)
    return lo, hi


class Run(NamedTuple):
    """`base.items[lo:hi]`, each moved by `delta` characters."""

    base: _Base
    lo: int
    hi: int
    delta: int

    def low(self) -> int:
        """The lowest offset its diagnostics hold, moved (`_Base`)."""
        return self.base.span(self.lo, self.hi)[0] + self.delta

    def high(self) -> int:
        """The highest offset its diagnostics hold, moved."""
        return self.base.span(self.lo, self.hi)[1] + self.delta

    def codes(self) -> dict[str, list[int]]:
        """Per code present in the run, the indices into `base.items` of its diagnostics (ascending)."""
        lo, hi = self.lo, self.hi
        out = {}
        for code, at in self.base.codes().items():
            a, b = bisect_left(at, lo), bisect_left(at, hi)
            if b > a:
                out[code] = at[a:b]
        return out

    def diagnostics(self) -> list[Diagnostic]:
        items, delta = self.base.items[self.lo:self.hi], self.delta
        return list(items) if not delta else [d.shifted(delta) for d in items]

    def tags(self) -> Sequence[object]:
        """The tags of its diagnostics (`Runs.new`; empty when made without)."""
        tags = self.base.tags
        return tags[self.lo:self.hi] if tags is not None else ()


class Runs(Sequence[Diagnostic]):
    """An immutable sequence of diagnostics in position order, kept as `Run`s: the diagnostics of
    the parts of a document an edit did not touch stay the objects made before it, with the edit's
    delta noted once per run instead of a moved copy per diagnostic. Reading an element (or
    iterating) gives it moved (`Diagnostic.shifted`), equal to a copy moved at once; `==` compares
    the diagnostics with any sequence. Readers that can use the runs (`lsp.diagnostic_forms`:
    the LSP forms of an untouched run are reused as a whole) read `runs`."""

    __slots__ = ("runs", "_ends", "_flat")

    #: More runs than this and `spliced` makes one run of them all (the runs of many edits).
    MAX_RUNS = 64

    def __init__(self, runs: Iterable[Run]) -> None:
        self.runs = tuple(r for r in runs if r.hi > r.lo)
        total, ends = 0, array("q")
        for r in self.runs:
            total += r.hi - r.lo
            ends.append(total)
        self._ends = ends
        self._flat: list[Diagnostic] | None = None

    @classmethod
    def of(cls, found: Sequence[Diagnostic]) -> Runs:
        """`found` as runs (itself when it is `Runs`)."""
        if isinstance(found, Runs):
            return found
        return cls((Run(_Base(tuple(found)), 0, len(found), 0),))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self.flat()[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if self._flat is not None:
            return self._flat[i]
        k = bisect_right(self._ends, i)
        r = self.runs[k]
        d = r.base.items[r.lo + i - (self._ends[k - 1] if k else 0)]
        return d.shifted(r.delta) if r.delta else d

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.flat())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Runs):
            other = other.flat()
        if not isinstance(other, Sequence):
            return NotImplemented
        return self.flat() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Runs({self.flat()!r})"

    def flat(self) -> list[Diagnostic]:
        """Every diagnostic, moved (made once, then kept)."""
        if self._flat is None:
            out: list[Diagnostic] = []
            for r in self.runs:
                out.extend(r.diagnostics())
            self._flat = out
        return self._flat

    def steps(self) -> Iterator[None]:
        """Make the `Pieces` of its runs not made yet, one piece a step (for a background task: made
        when read otherwise, all at once when every element is)."""
        for r in self.runs:
            if type(r.base.items) is Pieces:
                yield from r.base.items.steps()

    def cut(self, lo: int, hi: int, delta: int = 0) -> list[Run]:
        """The runs of elements `[lo, hi)`, each moved by `delta` more (none when it is empty)."""
        out: list[Run] = []
        if hi <= lo:
            return out
        start = 0
        for r, end in zip(self.runs, self._ends):
            if end > lo and start < hi:
                a, b = max(lo, start) - start + r.lo, min(hi, end) - start + r.lo
                out.append(Run(r.base, a, b, r.delta + delta))
            start = end
            if start >= hi:
                break
        return out

    def count_before(self, offset: int, lo: int = 0, hi: int | None = None) -> int:
        """How many of its diagnostics start before `offset` (they are in position order): a
        binary search, nothing moved or copied; with `lo` and `hi`, `bisect_left(self, offset, lo,
        hi, key=start_of)`."""
        if lo or hi is not None:
            return min(max(self.count_before(offset), lo), len(self) if hi is None else hi)
        runs, ends = self.runs, self._ends
        lo, hi = 0, len(runs)
        while lo < hi:  # the first run whose last diagnostic starts at or after `offset`
            mid = (lo + hi) // 2
            r = runs[mid]
            items = r.base.items
            if type(items) is Pieces and items.pending:  # (its last piece is not made to be read)
                before = items.count_before(offset - r.delta, r.lo, r.hi) == r.hi
            else:
                before = items[r.hi - 1].start + r.delta < offset
            if before:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(runs):
            return len(self)
        r = runs[lo]
        items = r.base.items
        inside = (items.count_before(offset - r.delta, r.lo, r.hi) if type(items) is Pieces
                  else bisect_left(items, offset - r.delta, r.lo, r.hi, key=start_of)) - r.lo
        return (ends[lo - 1] if lo else 0) + inside

    def between(self, lo: int, hi: int) -> list[Diagnostic]:
        """Elements `[lo, hi)`, moved (without reading the others: `self[lo:hi]` reads them all)."""
        out: list[Diagnostic] = []
        for r in self.cut(lo, hi):
            out.extend(r.diagnostics())
        return out

    @classmethod
    def joined(cls, runs: Iterable[Run]) -> Runs:
        """Runs of `runs`, a run and the next one made one when they are the same diagnostics one
        after the other moved by the same delta; one run of them all (with their tags, when every
        run has them) when there are more than `MAX_RUNS`."""
        kept: list[Run] = []
        for r in runs:
            if r.hi <= r.lo:
                continue
            if kept:
                last = kept[-1]
                if last.base is r.base and last.hi == r.lo and last.delta == r.delta:
                    kept[-1] = Run(r.base, last.lo, r.hi, r.delta)
                    continue
            kept.append(r)
        made = cls(kept)
        if len(made.runs) > cls.MAX_RUNS:
            flat = made.flat()
            tags = [t for r in kept for t in r.tags()] if all(r.base.tags is not None for r in kept) else None
            return cls((Run(_Base(tuple(flat), tags), 0, len(flat), 0),))
        return made

    @staticmethod
    def new(found: Sequence[Diagnostic], tags: Sequence[object] | None = None) -> Run:
        """One run of `found` (diagnostics made for this version), with `tags` (one per diagnostic,
        kept with them: `Run.tags`) if given; `Pieces` are kept as they are (not made)."""
        return Run(_Base(found if type(found) is Pieces else tuple(found), tags), 0, len(found), 0)


def is_moved(new: Diagnostic, old: Diagnostic, delta: int) -> bool:
    """Whether `new` equals `old.shifted(delta)` (read without working out a `Deferred`: equal
    `Later`s at moved starts say the same, moved)."""
    if new is old:
        return delta == 0
    if (new.start - old.start != delta or new.end - old.end != delta or new.code != old.code
            or new.summary != old.summary or new.severity != old.severity or type(new) is not type(old)):
        return False
    if isinstance(new, Deferred) and isinstance(old, Deferred):  # (the same type: checked above)
        if new._later is not old._later and new._later != old._later:
            return False
        if _DETAIL.__get__(new) != _DETAIL.__get__(old):
            return False
        nf, of = _FIXES.__get__(new), _FIXES.__get__(old)
    else:
        if new.detail != old.detail:
            return False
        nf, of = new.fixes, old.fixes
    if len(nf) != len(of) or len(new.related) != len(old.related):
        return False
    for a, b in zip(nf, of):
        if a.start - b.start != delta or a.end - b.end != delta or a.new_text != b.new_text or a.title != b.title:
            return False
    for x, y in zip(new.related, old.related):
        if x.uri is not None or y.uri is not None:
            if x != y:
                return False
        elif x.start - y.start != delta or x.end - y.end != delta or x.message != y.message:
            return False
    return True


def realigned(found: list[Diagnostic], before: Runs, before_list: Sequence[Diagnostic],
              cover: tuple[int, int, int] | None) -> Runs:
    """`found` (this version's diagnostics) as `Runs` sharing `before`'s runs where it can:
    `before` (equal to `before_list`) is an earlier version's, and `cover = (start, old_end,
    new_end)` one edit covering every change since. Its first diagnostics equal to `before`'s (each
    holding places before `start` only) are `before`'s runs; its last ones equal to `before`'s moved
    by the edit (each holding places from `old_end` on) are `before`'s runs with the delta noted;
    the rest is a new run. The same diagnostics as `found` in any case."""
    if isinstance(before_list, Runs):
        before_list = before_list.flat()
    start, old_end, new_end = cover if cover is not None else (sys.maxsize, 0, 0)  # (no edit: the text is the same)
    delta = new_end - old_end
    n, m = len(found), len(before_list)
    limit = min(n, m)
    same = list(map(operator.is_, found[:limit], before_list[:limit]))  # (the common case, at C speed)
    a = same.index(False) if False in same else limit
    while a < limit and is_moved(found[a], before_list[a], 0):
        a += 1
    head = before.cut(0, a)
    if any(r.high() >= start for r in head):  # (equal ones past the edit too: those before it only)
        a = min(a, before.count_before(start))
        head = before.cut(0, a)
        if any(r.high() >= start for r in head):
            head, a = [], 0
    b = 0
    limit = min(n, m) - a
    while b < limit and is_moved(found[n - 1 - b], before_list[m - 1 - b], delta):
        b += 1
    tail = before.cut(m - b, m, delta)
    if any(r.low() - delta < old_end for r in tail):
        b = min(b, m - before.count_before(old_end))
        tail = before.cut(m - b, m, delta)
        if any(r.low() - delta < old_end for r in tail):
            tail, b = [], 0
    runs = Runs.joined([*head, Runs.new(found[a:n - b]), *tail])
    runs._flat = found  # (equal, as checked)
    return runs
