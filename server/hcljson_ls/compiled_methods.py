"""The methods attrs and dataclasses generate, compiled once per machine (start-up).

    kept(directory, name, *modules) -> context manager of Counts     while inside, the source `modules`
                                  (`attr._make`, `dataclasses`) generate is compiled through cache `name` in `directory`
    kept_in_user_cache(name, *modules)                  `kept` in the user's cache directory (`cache_dir`)
    Counts                                               how many were read from the cache, and how many compiled
    read_cache(path) -> dict                             a cache file's methods: (source, file name, mode) -> code

Contract
--------
attrs and dataclasses write each class's ``__init__``, ``__repr__``, ``__eq__``... as Python source
and compile it when the class is made, every time a process imports the class: the same source on
every start. Measured here (docs/performance.md, "Session 16"): lsprotocol makes ~570 attrs classes
when ``lsprotocol.types`` is imported (228 ms, 110 ms of it ``compile``), and the analysis layers'
dataclasses cost 840 ``exec``s of source, ~54 ms of their ~170 ms import.

Inside `kept`, attrs's ``compile`` (a global it looks up in ``attr._make``) and dataclasses's
``exec`` (one in ``dataclasses``) are functions that take the code object kept for the same source,
file name and mode, and compile only what is not kept; on the way out the cache is written again
when more than `STALE` were compiled (the first start, an upgrade), with only what this import used,
so it never grows past one import's methods. Each import the server makes at start-up has a cache of
its own (`name`): a cache holds what one import used, and two imports using one file would
overwrite each other's.

What a kept code object is: the one ``compile`` gives for that very source (the key is the whole
source, not a class name), compiled with the ``__future__`` flags of the module that compiles it
(as its own ``compile`` or ``exec`` call would inherit them), stored with `marshal` in a file named
after the interpreter's bytecode magic number, cache tag and optimisation level, so a code object
is never read by another Python. The file is `HEADER`, then the methods in batches of at most
`BATCH`, each marshalled on its own after its length: the server imports on a thread while it
answers its first document (`lsp.first_open`), and one `marshal.load` of the whole 2.7 MB
``lsp-server`` cache held the interpreter for 15-30 ms, which an edit sent then waited for; a batch
is one short call, and the interpreter can pass to the other thread between two. (A cache in the
format before, one marshalled dict in a ``.marshal`` file, is not read; writing the new one
removes it.) A missing, unreadable or malformed cache is treated as empty, a cache that cannot be
written is left alone, and a module that already has a global of that name (someone else's) is
not touched. A library that stops calling ``compile``/``exec`` there finds
nothing kept and writes nothing: its import is then what it would be without this module. The
cache lives in the user's cache directory, as Lark's parser tables do (`template.grammars`), and
is trusted as they are.
"""

from __future__ import annotations
import __future__

import builtins
import contextlib
import importlib
import importlib.util
import logging
import marshal
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any

from .cache_dir import user_cache_dir

log = logging.getLogger(__name__)

#: More methods compiled than this in one import, and its cache is written again. A few are compiled
#: on every start: a frozen attrs class's ``__hash__`` source holds a hash of its name, which differs
#: between processes (cattrs's `AttributeOverride`: 1 of 561 today).
STALE = 16
#: What a cache file starts with (another start: read as no cache, written again).
HEADER = b"hcljson-ls compiled methods 2\n"
#: The most methods marshalled in one piece: ~50-100 KB, well under a millisecond to read.
BATCH = 32

#: The caches' directory, under the user's cache directory (`cache_dir`).
_SUBDIRECTORY = "compiled-methods"

#: Where generated source is compiled: module -> the builtin it calls there.
HOOKS = {"attr._make": "compile", "dataclasses": "exec"}


@dataclass
class Counts:
    """What one `kept` did: methods whose code was read from the cache, and methods compiled."""

    read: int = 0
    compiled: int = 0


def cache_file(directory: str, name: str) -> str:
    """Cache `name`'s file in `directory`, named for this interpreter's bytecode."""
    tag = sys.implementation.cache_tag or sys.implementation.name
    return os.path.join(directory, f"{name}.{tag}.{importlib.util.MAGIC_NUMBER.hex()}.O{sys.flags.optimize}.methods")


@contextlib.contextmanager
def kept(directory: str | None, name: str, *modules: str) -> Iterator[Counts]:
    """The methods `modules` (of `HOOKS`, imported here) generate while inside, compiled through cache
    `name` in `directory` (None: as usual)."""
    counts = Counts()
    hooks = [] if directory is None else [(m, builtin) for m, builtin in _hooks(modules) if not hasattr(m, builtin)]
    if directory is None or not hooks:
        yield counts
        return
    path = cache_file(directory, name)
    known = read_cache(path)
    used: dict[tuple[str, str, str], CodeType] = {}

    def code_of(source: str, filename: str, mode: str, flags: int) -> CodeType:
        key = (source, filename, mode)
        code = known.get(key)
        if type(code) is CodeType:
            counts.read += 1
        else:
            code = compile(source, filename, mode, flags, True)
            counts.compiled += 1
        used[key] = code
        return code

    for module, builtin in hooks:
        setattr(module, builtin, _HOOK_MAKERS[builtin](code_of, _future_flags(module)))
    try:
        yield counts
    finally:
        for module, builtin in hooks:
            delattr(module, builtin)  # (the builtin again)
        if counts.compiled > STALE:
            _write(path, used)


def kept_in_user_cache(name: str, *modules: str) -> contextlib.AbstractContextManager[Counts]:
    """`kept` with the caches' directory under the user's cache directory (`~/.cache/hcljson-ls/compiled-methods`)."""
    return kept(user_cache_dir(_SUBDIRECTORY), name, *modules)


def _hooks(modules: tuple[str, ...]) -> list[tuple[ModuleType, str]]:
    found = []
    for module_name in modules:
        try:
            found.append((importlib.import_module(module_name), HOOKS[module_name]))
        except ImportError:
            continue
    return found


def _future_flags(module: ModuleType) -> int:
    """The compiler flags of the ``from __future__`` imports of `module` (each binds its name there)."""
    flags = 0
    for feature in __future__.all_feature_names:
        bound = getattr(module, feature, None)
        if bound is not None and bound is getattr(__future__, feature):
            flags |= bound.compiler_flag
    return flags


def _compile_hook(code_of: Any, flags: int) -> Any:
    def cached_compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or type(source) is not str or type(filename) is not str or type(mode) is not str:
            return compile(source, filename, mode, *args, **kwargs)  # (not the call it stands for: not kept)
        return code_of(source, filename, mode, flags)
    return cached_compile


def _exec_hook(code_of: Any, flags: int) -> Any:
    def cached_exec(source: Any, globals: Any = None, locals: Any = None, *args: Any, **kwargs: Any) -> Any:
        if globals is None:  # (the caller's namespaces, as `exec` takes them)
            caller = sys._getframe(1)
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if type(source) is str and not args and not kwargs:
            source = code_of(source, "<string>", "exec", flags)
        return builtins.exec(source, globals, locals, *args, **kwargs)
    return cached_exec


_HOOK_MAKERS = {"compile": _compile_hook, "exec": _exec_hook}


def read_cache(path: str) -> dict:
    """The methods of cache file `path` (empty when there is none, or it is not one whole)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if not data.startswith(HEADER):
            raise ValueError("not a cache of methods")
        view = memoryview(data)
        known: dict = {}
        at = len(HEADER)
        while at < len(data):  # (a batch at a time: see the module doc)
            size = int.from_bytes(view[at:at + 4], "little")
            if at + 4 + size > len(data):
                raise ValueError("a batch is not whole")
            batch = marshal.loads(view[at + 4:at + 4 + size])
            if type(batch) is not dict:
                raise ValueError("a batch is not methods")
            known.update(batch)
            at += 4 + size
    except FileNotFoundError:
        return {}
    except Exception:  # (truncated, another format, unreadable: compiled afresh and written again)
        log.debug("method cache %s unreadable", path, exc_info=True)
        return {}
    return known


def _write(path: str, used: dict) -> None:
    """`used` written to `path` whole or not at all (another server may be reading it)."""
    import tempfile  # lazy: ~7 ms to import, needed once per upgrade

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".methods.")
        try:
            items = list(used.items())
            with os.fdopen(fd, "wb") as f:
                f.write(HEADER)
                for i in range(0, len(items), BATCH):
                    batch = marshal.dumps(dict(items[i:i + BATCH]))
                    f.write(len(batch).to_bytes(4, "little"))
                    f.write(batch)
            os.replace(temporary, path)
            with contextlib.suppress(OSError):  # (the same cache in the format before the batches)
                os.unlink(path.removesuffix(".methods") + ".marshal")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError):
        log.debug("method cache %s not written", path, exc_info=True)
