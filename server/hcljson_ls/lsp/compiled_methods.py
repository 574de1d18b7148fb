"""attrs's generated methods, compiled once per machine: half of lsprotocol's import (start-up).

    kept(directory) -> context manager of Counts     while inside, attrs compiles the source of the methods
                                                     it generates through a cache kept in `directory`
    Counts                                           how many were read from the cache, and how many compiled

Contract
--------
attrs writes each class's ``__init__``, ``__repr__``, ``__eq__``... as Python source and compiles it
when the class is made. lsprotocol makes ~570 such classes when ``lsprotocol.types`` is imported,
which is most of the server's start-up after the first document (pygls needs it): the import took
228 ms here, 110 ms of it in ``compile`` (its source is the same on every start). Inside `kept`,
attrs's ``compile`` (looked up as a global of ``attr._make``) is a function that returns the code
object kept for the same source, file name and mode, compiling only what it has not kept; on the
way out the cache is written again when more than `STALE` were compiled (the first start, an
upgrade), with only what this import used (so it never grows past one import's methods). With the
cache, that import took 116-127 ms (`docs/performance.md`, "Session 16").

What a kept code object is: the one ``compile`` returns for that very source (the key is the whole
source, not a name), stored with `marshal`, in a file named after the interpreter's bytecode magic
number, cache tag and optimisation level, so a code object is never read by another Python.
The flags attrs's call inherits (its ``from __future__ import annotations``) are this module's too.
A missing, unreadable or malformed cache is treated as empty, a cache that cannot be written is
left alone, and an ``attr._make`` that has a ``compile`` global already is not touched. An attrs
that stops calling ``compile`` finds nothing kept and writes nothing: the import is then what it
would be without this module. The cache lives in the user's cache
directory, as Lark's parser tables do (`template.grammars`), and is trusted as they are.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import marshal
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from types import CodeType
from typing import Any

log = logging.getLogger(__name__)

#: More methods compiled than this in one import, and the cache is written again. A few are compiled
#: on every start: a frozen class's ``__hash__`` source holds a hash of its name, which differs
#: between processes (cattrs's `AttributeOverride`: 1 of 561 today).
STALE = 16


@dataclass
class Counts:
    """What one `kept` did: methods whose code was read from the cache, and methods compiled."""

    read: int = 0
    compiled: int = 0


def cache_file(directory: str) -> str:
    """The cache's file in `directory`, named for this interpreter's bytecode."""
    tag = sys.implementation.cache_tag or sys.implementation.name
    return os.path.join(directory, f"attrs-methods.{tag}.{importlib.util.MAGIC_NUMBER.hex()}.O{sys.flags.optimize}.marshal")


@contextlib.contextmanager
def kept(directory: str | None) -> Iterator[Counts]:
    """attrs's methods compiled through the cache in `directory` while inside (nothing done for None)."""
    counts = Counts()
    make = sys.modules.get("attr._make")
    if make is None:
        try:
            import attr._make as make  # (what lsprotocol imports first)
        except ImportError:
            make = None
    if directory is None or make is None or hasattr(make, "compile"):  # (someone else's compile there)
        yield counts
        return
    path = cache_file(directory)
    known = _read(path)
    used: dict[tuple[str, str, str], CodeType] = {}

    def cached_compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or type(source) is not str or type(filename) is not str:
            return compile(source, filename, mode, *args, **kwargs)  # (not attrs's call: not kept)
        key = (source, filename, mode)
        code = known.get(key)
        if type(code) is CodeType:
            counts.read += 1
        else:
            code = compile(source, filename, mode)
            counts.compiled += 1
        used[key] = code
        return code

    make.compile = cached_compile  # type: ignore[attr-defined]
    try:
        yield counts
    finally:
        del make.compile  # (the builtin again)
        if counts.compiled > STALE:
            _write(path, used)


def _read(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            got = marshal.load(f)
    except FileNotFoundError:
        return {}
    except Exception:  # (truncated, another format, unreadable: compiled afresh and written again)
        log.debug("attrs method cache %s unreadable", path, exc_info=True)
        return {}
    return got if type(got) is dict else {}


def _write(path: str, used: dict) -> None:
    """`used` written to `path` whole or not at all (another server may be reading it)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".attrs-methods.")
        try:
            with os.fdopen(fd, "wb") as f:
                marshal.dump(used, f)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError):
        log.debug("attrs method cache %s not written", path, exc_info=True)
