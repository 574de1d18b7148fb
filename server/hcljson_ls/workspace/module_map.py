"""The workspace folders and the Terraform modules under them: one `Module` per directory, which of
its files count (the engine's rule), and where the module a call calls lies on disk.

    ModuleMap(documents)
      .folders / .engine                       the workspace folders; "auto", "terraform" or "opentofu"
      .set_folders(paths) / .set_ignore_paths(patterns) -> bool / .set_engine(engine) -> bool
      .module(key) -> Module                   the module of directory `key`, listed on first use
      .get(key) / .add(key) / .pop(key)        a module known or not, without listing its directory
      .keys() / .all() / .known()              the directories; their modules; those with a file
      .scan() -> Iterator[ScanStep]            every module under the folders, one step at a time
      .summary(module, disk_file) / .read(module, disk_file) -> FileSummary
      .effective_names(key) -> list[str]       the names of the files that make up the module now
      .is_opentofu(key) -> bool
    module_under_test(uri) -> str              the module a test file tests
    child_directory(key, name, source) / changed_module_source(...) / missing_local_directory(...)

Contract
--------
* A module is a directory. Its files are the Terraform files in it (`terraform.catalogue`): JSON
  configuration, analysed by us, and native (`*.tf`, `*.tofu`), known for their declarations. With
  OpenTofu (`engine="opentofu"`, or "auto" when the directory has a `.tofu`/`.tofu.json` file)
  `x.tofu.json` and `x.tofu` hide `x.tf.json` and `x.tf`; with Terraform, `.tofu` files are not part
  of the module. Open buffers (`documents`) count as files of their directory's module; open
  variable definitions, test, mock data and query files do not.
* A file that is not open is read once, when its module is first needed (or by `scan`), and kept
  only as a `FileSummary`; one that cannot be read is logged once and declares nothing.
* Nothing here changes a module's revision: what a change makes stale is the `Workspace`'s job.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..terraform.definition import catalogue
from ..terraform.filekinds.testfile import is_test_file
from . import ignore_paths
from .files import file_name, list_directory, module_key, read_text
from .ignore_paths import IgnorePaths
from .installed_modules import changed_source, installed_module_dir, installed_source
from .module import DiskFile, FileSummary, Module, summarize
from .open_documents import OpenDocuments

log = logging.getLogger(__name__)

#: Directories never searched for modules: tool state and dependencies, not the user's modules.
SKIPPED_DIRECTORIES = frozenset({".terraform", ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})

ENGINES = ("auto", "terraform", "opentofu")


@dataclass(frozen=True, slots=True)
class ScanStep:
    """Progress of `ModuleMap.scan`: `done` of `total` units (directories, then files), and what."""

    phase: str  # "directories" or "files"
    done: int
    total: int | None
    what: str


class ModuleMap:
    """The folders, the module of each directory, and which files make up each module."""

    def __init__(self, documents: OpenDocuments) -> None:
        self.folders: tuple[str, ...] = ()
        self.engine = "auto"
        self._modules: dict[str, Module] = {}
        self._documents = documents
        self._ignore_patterns: tuple[str, ...] = ()  # `indexing.ignorePaths`
        self._ignore = ignore_paths.NONE

    # -- settings ---------------------------------------------------------------------------------

    def set_folders(self, paths: Iterable[str]) -> None:
        self.folders = tuple(dict.fromkeys(os.path.normpath(p) for p in paths if p))
        self._ignore = IgnorePaths.of(self._ignore_patterns, self.folders)

    def set_ignore_paths(self, patterns: Sequence[str]) -> bool:
        """`indexing.ignorePaths` (`ignore_paths`): directories the scan leaves out. The modules found
        under a newly ignored one are forgotten (unless a file of theirs is open); True when the
        patterns changed, so that a new scan finds what they no longer hide."""
        patterns = tuple(patterns)
        if patterns == self._ignore_patterns:
            return False
        self._ignore_patterns = patterns
        self._ignore = IgnorePaths.of(patterns, self.folders)
        for key in [k for k in self._modules if self._ignore.skips(k) and not self._documents.in_module(k)]:
            del self._modules[key]
        return True

    def set_engine(self, engine: str) -> bool:
        """The engine rule ("auto" for anything unknown); True when it changed."""
        engine = engine if engine in ENGINES else "auto"
        if engine == self.engine:
            return False
        self.engine = engine
        return True

    # -- modules ----------------------------------------------------------------------------------

    def module(self, key: str) -> Module:
        """The module of directory `key`, its directory listed on first use."""
        module = self._modules.get(key)
        if module is None:
            module = self._modules[key] = Module(key)
        if not module.listed:
            module.listed = True
            if os.path.isabs(key):
                self._list(module)
        return module

    def get(self, key: str) -> Module | None:
        """The module of directory `key` if it is known (its directory not listed for this)."""
        return self._modules.get(key)

    def add(self, key: str) -> Module:
        """The module of directory `key`, known from now on (its directory not listed for this)."""
        module = self._modules.get(key)
        if module is None:
            module = self._modules[key] = Module(key)
        return module

    def pop(self, key: str) -> Module:
        """Forget the module of directory `key` (it must be known)."""
        return self._modules.pop(key)

    def keys(self) -> list[str]:
        """The directories of every module known."""
        return list(self._modules)

    def all(self) -> list[Module]:
        """Every module known."""
        return list(self._modules.values())

    def known(self) -> list[Module]:
        """The modules with a file: on disk, or open."""
        return [m for m in self._modules.values() if m.disk or self._documents.in_module(m.directory)]

    def _list(self, module: Module) -> None:
        listing = list_directory(module.directory)
        if listing.problem:
            log.info("%s", listing.problem)
            return
        for name in listing.files:
            if catalogue.file_kind(name) in catalogue.MODULE_KINDS and name not in module.disk:
                module.disk[name] = DiskFile(name)

    def scan(self) -> Iterator[ScanStep]:
        """Find every module under the folders, then summarize every file not yet read; one step per
        directory, then one per file. Symbolic links to directories are not followed."""
        pending = list(self.folders)
        seen: set[str] = set()
        done = 0
        while pending:
            directory = pending.pop()
            real = os.path.realpath(directory)
            if real in seen:
                continue
            seen.add(real)
            listing = list_directory(directory)
            done += 1
            if listing.problem:
                log.info("%s", listing.problem)
                continue
            names = [n for n in listing.files if catalogue.file_kind(n) in catalogue.MODULE_KINDS]
            if names:
                module = self.add(directory)
                if not module.listed:
                    module.listed = True
                    for name in names:
                        module.disk.setdefault(name, DiskFile(name))
            pending.extend(
                path
                for d in reversed(listing.directories)
                if d not in SKIPPED_DIRECTORIES and not self._ignore.skips(path := os.path.join(directory, d))
            )
            yield ScanStep("directories", done, None, directory)
        todo = [(m, f) for m in list(self._modules.values()) for f in list(m.disk.values()) if f.summary is None]
        for i, (module, disk_file) in enumerate(todo, 1):
            if disk_file.summary is None and module.disk.get(disk_file.name) is disk_file:
                self.read(module, disk_file)
            yield ScanStep("files", i, len(todo), os.path.join(module.directory, disk_file.name))

    def read(self, module: Module, disk_file: DiskFile) -> FileSummary:
        """`disk_file` of `module` read and summarized now (kept as its `summary`)."""
        path = os.path.join(module.directory, disk_file.name)
        got = read_text(path, self._documents.max_file_bytes)
        if got.text is None:
            log.info("%s", got.problem)
            summary = FileSummary((), None, got.problem)
        else:
            try:
                summary = summarize(path, got.text, got.stamp)
            except Exception:  # a bug in a layer below: the file contributes nothing, the rest goes on
                log.exception("summarizing %s failed", path)
                summary = FileSummary((), got.stamp, f"{path} could not be analysed")
        disk_file.summary = summary
        return summary

    def summary(self, module: Module, disk_file: DiskFile) -> FileSummary:
        """The summary of `disk_file` of `module`, read on first use."""
        return disk_file.summary if disk_file.summary is not None else self.read(module, disk_file)

    # -- which files count ------------------------------------------------------------------------

    def effective_names(self, key: str) -> list[str]:
        """The names of the files that make up module `key` now (open and on disk), in name order,
        after the engine's rule (see the module doc)."""
        module = self.module(key)
        # Open tfvars, test, mock data and query files are none of the module's files.
        names = set(module.disk) | {
            n for u in self._documents.in_module(key)
            if catalogue.file_kind(n := file_name(u), ignore_case=True) not in catalogue.NOT_CONFIGURATION_KINDS
        }
        opentofu = self.engine == "opentofu" or (
            self.engine == "auto" and any(catalogue.is_opentofu_file(n) for n in names)
        )
        if opentofu:
            names -= catalogue.hidden_by_opentofu(names)
        else:
            names = {n for n in names if not catalogue.is_opentofu_file(n)}
        return sorted(names)

    def names(self, key: str) -> frozenset[str]:
        """`effective_names` of module `key` as a set, remembered per module revision (asked once
        per reference resolved: `Scope.has_override_files`, `DeclarationIndex.others_index`)."""
        module = self.module(key)
        cached = module.names_cache
        if cached is None or cached[0] != module.revision:
            cached = module.names_cache = (module.revision, frozenset(self.effective_names(key)))
        return cached[1]

    def is_opentofu(self, key: str) -> bool:
        """Whether OpenTofu reads module `key` (the engine setting, or "auto" and a `.tofu` file)."""
        if self.engine != "auto":
            return self.engine == "opentofu"
        module = self.module(key)
        cached = module.opentofu_cache  # asked once per block resolved: remembered per module revision
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        found = any(catalogue.is_opentofu_file(n) for n in module.disk) or any(
            catalogue.is_opentofu_file(file_name(u)) for u in self._documents.in_module(key)
        )
        module.opentofu_cache = (module.revision, found)
        return found


def module_under_test(uri: str) -> str:
    """The directory of the module a test file `uri` tests: the one above its directory when that
    is `tests/` (`catalogue.TEST_DIRECTORY`, `terraform test`'s default test directory), else its
    own (`module_key`); for any other file, its `module_key`."""
    key = module_key(uri)
    if os.path.isabs(key) and os.path.basename(key) == catalogue.TEST_DIRECTORY and is_test_file(uri):
        return os.path.dirname(key)
    return key


# -- the module a call calls ----------------------------------------------------------------------

#: How a local module source starts (a path relative to the calling module's directory).
_LOCAL_PREFIXES = catalogue.LOCAL_MODULE_PREFIXES


def child_directory(key: str, name: str, source: str | None) -> str | None:
    """The directory of the module that call `name` of module `key` (with literal `source`) calls:
    a local path, else where `terraform init` installed it; None when it is not known."""
    if source is None or not os.path.isabs(key):
        return None
    if source.startswith(("./", "../")):
        child = os.path.normpath(os.path.join(key, source))
        return child if os.path.isdir(child) else None
    return installed_module_dir(key, name, source)


def changed_module_source(key: str, name: str, source: str | None) -> bool:
    """True when call `name` of module `key` has a literal, non-local `source` that is surely not
    the one `terraform init` installed its module from: Terraform's "Module source has changed"
    (`installed_modules.changed_source`)."""
    if source is None or not os.path.isabs(key) or source.startswith(_LOCAL_PREFIXES):
        return False
    return changed_source(source, installed_source(key, name))


def missing_local_directory(key: str, source: str | None) -> bool:
    """True when `source`, of a call in module `key`, is a local path (no template sequence)
    naming nothing that is a directory on disk: Terraform's "Module not installed"."""
    if source is None or not os.path.isabs(key) or not source.startswith(_LOCAL_PREFIXES):
        return False
    if "${" in source or "%{" in source:
        return False  # an expression in newer versions: not judged
    return not os.path.isdir(os.path.normpath(os.path.join(key, source)))
