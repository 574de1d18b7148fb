"""Provider schemas fetched from the tool itself: `terraform providers schema -json` (or `tofu ...`)
run in a module directory, its output cached on disk.

    fetch(directory, engine="auto", cache_dir=None, timeout=60.0, cancel=None, folders=()) -> FetchResult
    find_tool(names, untrusted=(), path=None) -> str | None
                                              the first of `names` on PATH, outside `untrusted` dirs
    lock_stamp(directory) -> tuple | None     cheap: None without `.terraform`, else the lock file's stat
    cache_key(directory, tool) -> str         the cache file's name (without ".json")
    default_cache_dir() -> str                `cache_dir.user_cache_dir("provider-schemas")`
    wait(proc, timeout, cancel) -> int | None the exit status; None when killed (deadline or cancel)
    first_line(stderr_text) -> str            the tool's first "Error: ..." line, box drawing removed

Contract
--------
* Something runs only when the module has a `.terraform` directory (it was `init`ed: the providers
  are installed) and one of the binaries is on PATH: "terraform" and "auto" try `terraform` then
  `tofu`, "opentofu" tries `tofu` then `terraform`.
* The binary is looked up (`find_tool`) only in absolute PATH entries outside the module and every
  workspace folder (and it must not lead into one through a symbolic link): an empty entry, `.` or
  any relative entry is skipped, as Go's `exec.LookPath` refuses them, so a `terraform` file shipped
  in a repository never runs by opening one of its files. The binary that runs is logged.
* The command runs without a shell, in the module directory, stdin closed, with `TF_IN_AUTOMATION=1`,
  in a process group of its own (POSIX) that is killed at `timeout` seconds or when `cancel` is set.
  Its standard output goes straight to a temporary file in the cache directory (no pipe to fill, no
  copy in memory), which is loaded (`provider_schema.load`) and only then renamed to its cache name
  (`os.replace`: a reader sees a whole file or none).
* The cache key is a digest of the tool's name ("terraform" / "tofu": their outputs differ in the
  registry host) and the content of the lock file `.terraform.lock.hcl`, which pins every provider's
  version and checksums: a new lock file is a new key, and two modules with the same lock share an
  entry. A module without a lock file (no providers, or initialized by Terraform < 0.14) is keyed by
  its absolute path instead: its cache entry is then never renewed by itself (delete the cache file, or
  add a lock file, to fetch again). A cache hit runs nothing; a cache file that no longer loads is
  removed and the command runs again.
* Never raises. What went wrong comes back as `FetchResult.problem`, one plain sentence (and is
  logged); a missing `.terraform` directory or a cancelled run is not a problem.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..cache_dir import user_cache_dir
from ..terraform.schemas.provider_schema import ProviderSchemas
from .files import read_bytes
from .schemas import read_schemas

log = logging.getLogger(__name__)

__all__ = ["FetchResult", "LOCK_FILE", "cache_key", "default_cache_dir", "fetch", "find_tool", "first_line", "lock_stamp", "tools_for", "wait"]

LOCK_FILE = ".terraform.lock.hcl"
#: The directory `init` writes; without it `providers schema` cannot start the providers.
DATA_DIR = ".terraform"
#: How often (seconds) a running command is checked for its deadline and for cancellation.
_POLL = 0.1
#: A lock file larger than this is not read (one provider's entry is about 2 KB).
_LOCK_LIMIT = 16 * 1024 * 1024
#: At most this much of the command's standard error is read for the problem sentence.
_STDERR_LIMIT = 64 * 1024


@dataclass(frozen=True, slots=True)
class FetchResult:
    """The module's schemas (None when nothing could be had), whether they came from the cache, and
    what went wrong (one sentence) or None."""

    schemas: ProviderSchemas | None = None
    from_cache: bool = False
    problem: str | None = None


def default_cache_dir() -> str:
    return user_cache_dir("provider-schemas")


def tools_for(engine: str) -> tuple[str, str]:
    """The binaries to look for on PATH, in order."""
    return ("tofu", "terraform") if engine == "opentofu" else ("terraform", "tofu")


def _inside(path: str, directories: Sequence[str]) -> bool:
    return any(path == d or path.startswith(d.rstrip(os.sep) + os.sep) for d in directories)


def find_tool(names: Sequence[str], untrusted: Sequence[str] = (), path: str | None = None) -> str | None:
    """The first of `names` found in an absolute entry of `path` (default: the PATH variable) that
    is not inside one of the `untrusted` directories (see the module doc), or None."""
    entries = (os.environ.get("PATH", os.defpath) if path is None else path).split(os.pathsep)
    trusted: list[str] = []
    avoid = [os.path.realpath(d) for d in untrusted if d]
    for entry in entries:
        if not entry or not os.path.isabs(entry):
            continue  # "", ".", "bin": relative to wherever the server was started
        real = os.path.realpath(entry)
        if _inside(os.path.normpath(entry), avoid) or _inside(real, avoid):
            continue
        trusted.append(entry)
    for name in names:
        for entry in trusted:
            found = shutil.which(name, path=entry)
            if found is None or not os.path.isabs(found) or os.path.dirname(os.path.abspath(found)) != os.path.abspath(entry):
                continue  # (Windows: `which` may look in the current directory first)
            if _inside(os.path.realpath(found), avoid):
                continue  # a link into a workspace folder
            return found
    return None


def lock_stamp(directory: str) -> tuple | None:
    """None when `directory` has no `.terraform` directory (nothing to fetch); else what identifies the
    lock file's current version cheaply (its size and modification time; `()` without one)."""
    if not os.path.isdir(os.path.join(directory, DATA_DIR)):
        return None
    try:
        st = os.stat(os.path.join(directory, LOCK_FILE))
    except OSError:
        return ()
    return (st.st_size, st.st_mtime_ns)


def cache_key(directory: str, tool: str) -> str:
    """A digest of `tool` and the lock file's content, or of the module's path without one."""
    digest = hashlib.sha256(tool.encode() + b"\0")
    # A regular file of sane size only: a FIFO or `/dev/zero` named like the lock file must not
    # block or exhaust the fetch (such a module is keyed by its path).
    lock = read_bytes(os.path.join(directory, LOCK_FILE), _LOCK_LIMIT, limit_words="a lock file's limit")
    if lock.data is not None:
        digest.update(b"lock\0" + lock.data)
    else:
        digest.update(b"path\0" + os.path.abspath(directory).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def fetch(
    directory: str,
    engine: str = "auto",
    cache_dir: str | None = None,
    timeout: float = 60.0,
    cancel: threading.Event | None = None,
    folders: Sequence[str] = (),
) -> FetchResult:
    """The provider schemas of the module in `directory`, from the cache or by running the tool
    (found outside `directory` and the workspace `folders`)."""
    try:
        return _fetch(directory, engine, cache_dir or default_cache_dir(), timeout, cancel or threading.Event(),
                      (directory, *folders))
    except Exception:  # a bug must not stop the server
        log.exception("fetching provider schemas for %s", directory)
        return _problem(f"Loading the provider schemas of {directory} failed unexpectedly (see the server log).")


def _fetch(directory: str, engine: str, cache_dir: str, timeout: float, cancel: threading.Event,
           untrusted: Sequence[str]) -> FetchResult:
    if lock_stamp(directory) is None:
        return FetchResult()
    binary = find_tool(tools_for(engine), untrusted)
    if binary is None:
        return _problem("Neither terraform nor tofu is on PATH (outside the workspace folders), "
                        "so provider schemas cannot be loaded automatically.")
    tool = _tool_name(binary)
    cached = os.path.join(cache_dir, cache_key(directory, tool) + ".json")
    if os.path.isfile(cached):
        schemas, reason = read_schemas(cached)
        if schemas is not None:
            log.info("provider schemas of %s: from the cache (%s)", directory, cached)
            return FetchResult(schemas, from_cache=True)
        log.warning("removing the provider schema cache file %s: it %s", cached, reason)
        _remove(cached)
    return _run(binary, tool, directory, cache_dir, cached, timeout, cancel)


def _run(binary: str, tool: str, directory: str, cache_dir: str, cached: str, timeout: float,
         cancel: threading.Event) -> FetchResult:
    command = f"`{tool} providers schema -json`"
    try:
        os.makedirs(cache_dir, exist_ok=True)
        out_dir: str | None = cache_dir
    except OSError as e:
        log.warning("cannot create the cache directory %s (%s): provider schemas are not cached", cache_dir, e)
        out_dir = None
    fd, tmp = tempfile.mkstemp(prefix=".fetch-", suffix=".json", dir=out_dir)
    try:
        with os.fdopen(fd, "wb") as out, tempfile.TemporaryFile() as err:
            started = time.monotonic()
            log.info("running %s providers schema -json in %s", binary, directory)
            try:
                proc = subprocess.Popen(
                    [binary, "providers", "schema", "-json"],
                    cwd=directory,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    env={**os.environ, "TF_IN_AUTOMATION": "1"},
                    start_new_session=os.name == "posix",
                )
            except OSError as e:
                return _problem(f"Cannot run {binary} in {directory}: {e.strerror or e}.")
            status = _wait(proc, timeout, cancel)
            log.info("%s in %s: exit status %s after %.2f s", command, directory, status, time.monotonic() - started)
            if cancel.is_set():
                return FetchResult()
            if status is None:
                return _problem(f"{command} in {directory} took longer than {timeout:g} seconds and was stopped.")
            if status != 0:
                err.seek(0)
                detail = _first_line(err.read(_STDERR_LIMIT).decode("utf-8", "replace"))
                return _problem(f"{command} failed in {directory} (exit status {status})" + (f": {detail}." if detail else "."))
        schemas, reason = read_schemas(tmp)
        if schemas is None:
            return _problem(f"{command} in {directory} printed output that {reason}.")
        if out_dir is not None:
            try:
                os.replace(tmp, cached)
                tmp = ""
            except OSError as e:
                log.warning("cannot write the provider schema cache file %s: %s", cached, e)
        return FetchResult(schemas)
    finally:
        if tmp:
            _remove(tmp)


def _wait(proc: subprocess.Popen, timeout: float, cancel: threading.Event) -> int | None:
    """The exit status, or None when the deadline passed or `cancel` was set (the process is killed)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return proc.wait(timeout=max(0.0, min(_POLL, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            pass
        if cancel.is_set() or time.monotonic() >= deadline:
            _kill(proc)
            return None


def _kill(proc: subprocess.Popen) -> None:
    """Kill the process and (POSIX) its group: the provider plugins it started go too."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:
        pass
    proc.wait()


def _tool_name(binary: str) -> str:
    name = os.path.basename(binary).lower()
    return name[:-4] if name.endswith(".exe") else name


def _first_line(text: str) -> str:
    """The tool's first "Error: ..." line (else its first line with text), without Terraform's box drawing."""
    lines = [cleaned for line in text.splitlines() if (cleaned := line.strip().strip("╷│╵").strip())]
    line = next((x for x in lines if x.startswith("Error")), lines[0] if lines else "")
    return (line[:200] + "...") if len(line) > 200 else line.rstrip(".:")


def _problem(message: str) -> FetchResult:
    log.warning("%s", message)
    return FetchResult(problem=message)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


#: Shared with `tool_validate`, which runs the same tools the same way.
wait = _wait
first_line = _first_line
