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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Protocol

_CODE_SPAN = re.compile(r"`([^`\n]*)`")


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
        moved = Deferred(
            self.start + delta, self.end + delta, self.severity, self.code, self.summary, _DETAIL.__get__(self),
            tuple([replace(r, start=r.start + delta, end=r.end + delta) if r.uri is None else r for r in related]) if related else (),
            tuple([Fix(f.start + delta, f.end + delta, f.new_text, f.title) for f in fixes]) if fixes else (), self._later,
        )
        worked = self._worked
        if worked is not None:
            _WORKED(moved, (worked[0], tuple([Fix(f.start + delta, f.end + delta, f.new_text, f.title) for f in worked[1]])))
        return moved

    def at(self, start: int) -> Diagnostic:
        """The same diagnostic moved to start at `start` (its length, related places and fixes with it)."""
        return self.shifted(start - self.start)


_LATER = Deferred.__dict__["_later"].__set__
_WORKED = Deferred.__dict__["_worked"].__set__
