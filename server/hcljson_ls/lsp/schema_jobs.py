"""The server's automatic provider-schema route: `providers schema -json` fetched in the background
for the modules of open documents (`workspace.schema_fetch`), handed to the workspace on the event loop.

    SchemaJobs(server)
      .consider(key)                  a document of module directory `key` opened: fetch if due
      .files_changed(uris)            watched-file events: a changed lock file fetches again
      .settings_changed(before, after)
      .load_files(paths, generation)  the workspace's loader of `providerSchemas.files` (see below)
      .report(problems)               show each problem once (`window/showMessage` warning, and the log)
      .cancel_all()                   shutdown: stop the running commands

Contract
--------
* Nothing runs while ``providerSchemas.runTerraform`` is false; turning it off forgets the schemas
  fetched so far (the configured files stay).
* A module is fetched once per version of its lock file (`schema_fetch.lock_stamp`: it needs a
  `.terraform` directory): opening more of its documents does not fetch again, a watched change of
  its `.terraform.lock.hcl` does (after the running fetch, if one runs), and so does a change of the
  engine, the timeout or `runTerraform`.
* The fetch runs in a daemon thread (the event loop never waits; a server that exits does not wait for
  it either), one module at a time, with work-done progress "Loading provider schemas" when the client
  supports it. Its result is applied on the event loop: `Workspace.set_module_schemas`, then the
  module's open documents are re-diagnosed like any other cross-file change (`refresh_stale`). A
  failed fetch keeps the schemas the module had.
* The tool is OpenTofu's first in a module OpenTofu reads (`ModuleMap.is_opentofu`), else Terraform's.
* `providerSchemas.files` are read off the event loop too (`load_files`, installed as the workspace's
  schema loader): each in a daemon thread (`workspace.schemas.load_schema_file`: regular files only,
  at most ``providerSchemas.maxFileSizeMB``), given up after ``providerSchemas.timeoutSeconds``. Until
  a file arrives its modules are analysed without it; when it does, their documents are re-diagnosed
  (`refresh_stale`), and a file that was refused is shown once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..diagnostic import plain
from ..workspace import schema_fetch
from ..workspace.files import MB, module_key, path_of_uri
from ..workspace.schemas import load_schema_file

if TYPE_CHECKING:
    from .config import Settings
    from .server import HcljsonServer

log = logging.getLogger(__name__)

PROGRESS_TITLE = "Loading provider schemas"


class SchemaJobs:
    def __init__(self, server: HcljsonServer, cache_dir: str | None = None) -> None:
        self._server = server
        self._cache_dir = cache_dir
        self._tried: dict[str, tuple] = {}  # module directory -> lock stamp of its last fetch
        self._running: dict[str, threading.Event] = {}  # module directory -> cancels its fetch
        self._again: set[str] = set()  # fetch again when the running fetch ends
        self._fetched: set[str] = set()  # modules given schemas by this route
        self._shown: set[str] = set()
        self._one_at_a_time: asyncio.Semaphore | None = None
        self._tasks: set[asyncio.Task] = set()

    # -- what starts a fetch ------------------------------------------------------------------------

    def consider(self, key: str, *, changed: bool = False) -> None:
        if not self._server.settings.provider_schemas.run_terraform or not os.path.isabs(key):
            return
        stamp = schema_fetch.lock_stamp(key)
        if stamp is None:
            return
        if key in self._running:
            if changed or stamp != self._tried.get(key):
                self._again.add(key)
            return
        if not changed and self._tried.get(key) == stamp:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (an in-process test): nothing runs in the background
            return
        self._tried[key] = stamp
        cancel = self._running[key] = threading.Event()
        task = loop.create_task(self._fetch(key, cancel))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def files_changed(self, uris: Iterable[str]) -> None:
        store = self._server.store
        for uri in uris:
            path = path_of_uri(uri)
            if path is None or os.path.basename(path) != schema_fetch.LOCK_FILE:
                continue
            key = os.path.dirname(os.path.normpath(path))
            if any(module_key(u) == key for u in store.uris()):
                self.consider(key, changed=True)
            else:
                self._tried.pop(key, None)  # fetched again when one of its documents opens

    def settings_changed(self, before: Settings, after: Settings) -> None:
        old, new = before.provider_schemas, after.provider_schemas
        if (old.run_terraform, old.timeout_seconds, before.engine) == (new.run_terraform, new.timeout_seconds, after.engine):
            return
        self.cancel_all()
        self._tried.clear()
        self._again.clear()
        if not new.run_terraform:
            for key in sorted(self._fetched):
                self._server.store.set_module_schemas(key, None)
            self._fetched.clear()
            return
        for key in sorted({module_key(u) for u in self._server.store.uris()}):
            self.consider(key)

    def cancel_all(self) -> None:
        for cancel in self._running.values():
            cancel.set()
        self._running.clear()

    # -- schema files (`providerSchemas.files`) ------------------------------------------------------

    def load_files(self, paths: tuple[str, ...], generation: int) -> bool:
        """The workspace's schema loader (`Workspace.set_schema_loader`): read `paths` in a worker
        thread, one at a time, each within the timeout; False (read by the caller) without a loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (an in-process test): the workspace reads them itself
            return False
        settings = self._server.settings.provider_schemas
        task = loop.create_task(self._load_files(paths, generation, settings.max_file_size_mb * MB,
                                                 float(settings.timeout_seconds)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def _load_files(self, paths: tuple[str, ...], generation: int, max_bytes: int, timeout: float) -> None:
        for path in paths:
            started = asyncio.get_running_loop().time()
            try:
                schemas, problems = await asyncio.wait_for(_in_thread(load_schema_file, path, max_bytes), timeout)
            except asyncio.TimeoutError:  # the thread is left to finish (or block) on its own: a daemon
                schemas, problems = None, [
                    f"Provider schema file skipped: reading {path} took longer than {timeout:g} second{'' if timeout == 1 else 's'} "
                    "(setting providerSchemas.timeoutSeconds)."
                ]
            loop_time = asyncio.get_running_loop().time()
            log.info("provider schema file %s: %s in %.2f s", path,
                     ", ".join(schemas.providers()) or "no providers" if schemas is not None else "not loaded",
                     loop_time - started)
            changed = self._server.store.schema_file_loaded(path, schemas, problems, generation)
            self.report(self._server.store.schema_problems())
            if changed:
                self._server.refresh_stale()

    # -- the fetch ----------------------------------------------------------------------------------

    async def _fetch(self, key: str, cancel: threading.Event) -> None:
        settings = self._server.settings.provider_schemas
        if self._one_at_a_time is None:
            self._one_at_a_time = asyncio.Semaphore(1)
        try:
            async with self._one_at_a_time:
                if cancel.is_set():
                    return
                engine = "opentofu" if self._server.store.module_map.is_opentofu(key) else "terraform"
                async with _progress(self._server, PROGRESS_TITLE, key):
                    result = await _in_thread(
                        schema_fetch.fetch, key, engine, self._cache_dir, float(settings.timeout_seconds), cancel,
                        self._server.store.folders,
                    )
        finally:
            if self._running.get(key) is cancel:
                del self._running[key]
        if cancel.is_set():
            return
        self._apply(key, result)
        if key in self._again:
            self._again.discard(key)
            self.consider(key, changed=True)

    def _apply(self, key: str, result: schema_fetch.FetchResult) -> None:
        if result.problem is not None:
            self.report([result.problem])
        if result.schemas is None:
            return
        log.info("provider schemas of %s%s: %s", key, " (from the cache)" if result.from_cache else "",
                 ", ".join(result.schemas.providers()) or "no providers")
        self._fetched.add(key)
        self._server.store.set_module_schemas(key, result.schemas)
        self._server.refresh_stale()

    # -- telling the user ---------------------------------------------------------------------------

    def report(self, problems: Iterable[str]) -> None:
        for message in problems:
            if message in self._shown:
                continue
            self._shown.add(message)
            log.warning("%s", message)
            # A notification is plain text (VS Code shows backticks as they are): code spans become quotes.
            self._server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=plain(message)))


@contextlib.asynccontextmanager
async def _progress(server: Any, title: str, message: str) -> AsyncIterator[None]:
    """Work-done progress around the block, when the client supports it (a refusal only loses it)."""
    token: str | None = None
    if getattr(server.client_capabilities.window, "work_done_progress", False):
        token = str(uuid.uuid4())
        try:
            await server.work_done_progress.create_async(token)
            server.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, message=message))
        except Exception:
            log.info("work-done progress refused: %s without it", title)
            token = None
    try:
        yield
    finally:
        if token is not None:
            server.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))


def _in_thread(fn: Callable[..., Any], *args: Any) -> asyncio.Future:
    """`fn(*args)` in a daemon thread (unlike `asyncio.to_thread`, exiting never waits for it); its
    result (it must not raise) resolves the returned future on the event loop."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def deliver(result: Any) -> None:
        if not future.done():
            future.set_result(result)

    def run() -> None:
        result = fn(*args)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
            loop.call_soon_threadsafe(deliver, result)

    threading.Thread(target=run, name=f"hcljson-{getattr(fn, '__name__', 'job')}", daemon=True).start()
    return future
