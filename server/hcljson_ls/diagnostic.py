"""Diagnostics as plain data, shared by every layer.

Positions are absolute character offsets into the document text (Python `str` indices).
Conversion to lines/columns happens only at the edges (`text.LineIndex`).
Every diagnostic has a stable `code` (documented in docs/diagnostics.md), a short
`summary`, and a full-sentence `detail`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

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
