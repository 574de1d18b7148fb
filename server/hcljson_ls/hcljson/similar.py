"""The name another name most likely misspells: `difflib.get_close_matches(word, names, n=1, cutoff)`,
exactly, at a fraction of its cost.

    close_match(word, names, cutoff) -> str | None
    prepare() -> None        import what the first question needs (rapidfuzz, cydifflib), ahead of it
    prepare_soon() -> None   say that a thread will `prepare`: until it has, a question among few
                             names is difflib's to answer (`_FALLBACK_NAMES`), not the importer's

Why: difflib compares the word with every name in Python; among a hundred similar generated names
(`resource_name_57`) that is ~3 ms a query, and a file with thousands of misspelt references asked
it thousands of times (issue: 18,500 undeclared references took 24.8 s to diagnose).

Contract
--------
* The answer is the one `difflib.get_close_matches(word, names, n=1, cutoff=cutoff)` gives (the
  largest `(ratio, name)` among the names whose ratio reaches `cutoff`), tested against it with
  hypothesis.
* How: rapidfuzz computes in C, for every name, `2 * LCS / (len(a) + len(b))` (its normalized Indel
  similarity). difflib's ratio is `2 * M / (len(a) + len(b))` where `M` counts the characters of
  matching blocks, a common subsequence, so never above the LCS: that figure bounds the ratio from
  above. The names are taken by falling bound, and difflib's own ratio is computed only while the
  bound can still reach (or tie) the best ratio found.
* difflib's ratio is computed by cydifflib, difflib's algorithms compiled (the same answers, ~5x
  faster: a file with 24,750 misspelt references shown asked it 24,750 times, ~0.6 s in Python),
  with one `SequenceMatcher` per thread, reused: making one cost ~10x what a ratio of two short
  names costs. Among a few names (`_FEW`) the C bound is not asked: its call costs more than it
  saves, and without it every name is compared, which gives the same answer (it only skips names
  that cannot win).
"""

from __future__ import annotations

import difflib
import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

#: Float slack when comparing the C bound with difflib's ratio (both are 2k/n fractions).
_EPSILON = 1e-9
#: rapidfuzz turns a score cutoff into a whole distance and may drop a name right at it: ask lower.
_SLACK = 0.02


#: Up to this many names, every one is compared (difflib's quick bounds first) without the C bound.
_FEW = 4
#: A `SequenceMatcher` per thread (its state is the pair of sequences set last).
_MATCHERS = threading.local()
#: A thread is to import the C helpers (`prepare_soon`), and they are imported (`_bounds` returned).
_PREPARING = threading.Event()
_READY = threading.Event()
#: Until then, a question among at most this many names is answered by difflib itself (~30 us a
#: name) rather than by importing them (rapidfuzz: 20-50 ms, much of it in C++ module set-up that
#: holds the interpreter): a fresh server's first edit that misspelt a name, sent as the first
#: diagnostics arrived, waited for that import (`bench/bench_cold_edits.py --push`).
_FALLBACK_NAMES = 64


@functools.cache
def _bounds() -> tuple[Callable[..., Any], Callable[..., Any], Callable[[], Any]]:
    """rapidfuzz's `process.extract` and its Indel similarity, and cydifflib's `SequenceMatcher`,
    imported on the first question."""
    from cydifflib import SequenceMatcher  # lazy: as below
    from rapidfuzz import process  # lazy: ~20 ms of the server's start-up, needed only when a name is misspelt
    from rapidfuzz.distance import Indel  # lazy: as above

    _READY.set()
    return process.extract, Indel.normalized_similarity, SequenceMatcher


def prepare() -> None:
    """Import what `close_match` needs, ahead of its first question: the server does it in the
    background after start-up (the first misspelt reference of a session waited ~20-40 ms for it)."""
    _PREPARING.set()
    _bounds()


def prepare_soon() -> None:
    """Say that a thread will `prepare` (`lsp.first_open` starting the server's import,
    `cli.prepare_server`): until it has, few names are compared by difflib (`_FALLBACK_NAMES`)."""
    _PREPARING.set()


def close_match(word: str, names: Sequence[str], cutoff: float = 0.6) -> str | None:
    """See the module doc."""
    if not names:
        return None
    if _PREPARING.is_set() and not _READY.is_set() and len(names) <= _FALLBACK_NAMES:
        found = difflib.get_close_matches(word, names, n=1, cutoff=cutoff)  # (whose answer this is)
        return found[0] if found else None
    extract, similarity, sequence_matcher = _bounds()
    if len(names) <= _FEW:
        bounded = [(name, 1.0, None) for name in names]  # every name's ratio is computed anyway
    else:
        bounded = extract(word, names, scorer=similarity, score_cutoff=max(0.0, cutoff - _SLACK), limit=None)
    matcher = getattr(_MATCHERS, "matcher", None)
    if matcher is None:
        matcher = _MATCHERS.matcher = sequence_matcher()
    matcher.set_seq2(word)
    best: tuple[float, str] | None = None
    for name, bound, _ in bounded:
        if best is not None and bound < best[0] - _EPSILON:
            break  # sorted by falling bound: no later name can reach the best ratio
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff and (best is None or (ratio, name) > best):
                best = (ratio, name)
    return best[1] if best is not None else None
