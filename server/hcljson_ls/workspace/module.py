"""A Terraform module as the workspace sees it: one directory, its configuration files on disk (each
summarized once, lazily), and a revision that changes whenever what the module declares changes.

    FileSummary                     what a file that is not open contributes: its declarations
    summarize(path, text) -> FileSummary
    Module(directory)
      .disk                         name -> DiskFile (every Terraform file of the directory on disk)
      .revision                     changes when a file appears, vanishes, or changes its declarations
      .bump()

Contract
--------
* A summary never holds a tree: parsing a file to summarize it costs about one decode, after which
  only its declarations (key and range, `terraform.declarations.Declaration`) and where it refers to
  each declaration (`terraform.references.index`: ranges only) are kept. Native
  `.tf`/`.tofu` files are read with tree-sitter (`terraform.native.parse_native`: the same keys,
  character offsets); native override files, like JSON ones, declare nothing.
* `Module` holds no open documents: the workspace lays open buffers over it (an open buffer wins
  over the file on disk).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..jsonsyntax import parse
from ..terraform.definition import catalogue
from ..terraform.nativehcl.native import parse_native
from ..terraform.resolution import references
from ..terraform.rules.declarations import Declaration, declarations_and_references
from ..terraform.schemas.provider_lookup import PROVIDER_USE


@dataclass(frozen=True, slots=True)
class FileSummary:
    """A file's declarations (offsets into the text it was read with), or why it could not be read."""

    declarations: tuple[Declaration, ...] = ()
    stamp: tuple[int, int] | None = None
    problem: str | None = None
    #: declaration key -> (start, end, name_start, name_end) of each reference to it (`references.index`)
    references: Mapping[tuple, tuple[tuple[int, int, int, int], ...]] = field(default_factory=dict)

    @property
    def keys(self) -> tuple[tuple, ...]:
        return tuple(d.key for d in self.declarations)


def summarize(path: str, text: str, stamp: tuple[int, int] | None = None) -> FileSummary:
    """The summary of the file at `path` whose content is `text` (never raises: a bug is a problem)."""
    kind = catalogue.file_kind(path)
    if kind == catalogue.CONFIG_NATIVE:
        native = parse_native(text, catalogue.is_opentofu_file(path))
        # An override file is merged into other files' declarations, as for JSON: it declares nothing.
        declared = () if catalogue.is_override_file(path) else _kept(native.declarations)
        return FileSummary(declared, stamp, None, references.index(native.references))
    if kind != catalogue.CONFIG_JSON:
        return FileSummary((), stamp)
    found, refs = declarations_and_references(text, parse(text).root, path)
    return FileSummary(_kept(found), stamp, None, references.index(refs))


def _kept(declarations: Iterable[Declaration]) -> tuple[Declaration, ...]:
    """`declarations` with each provider configuration used (`provider_lookup.PROVIDER_USE`) once:
    a resource names one each, and what the module reads of them is only whether one is used (a
    summary of a file of 5,000 resources would keep 5,000 of them)."""
    out: list[Declaration] = []
    seen: set[tuple] = set()
    for d in declarations:
        key = d.key
        if key[0] == PROVIDER_USE:
            if key in seen:
                continue
            seen.add(key)
        out.append(d)
    return tuple(out)


@dataclass(slots=True)
class DiskFile:
    """One Terraform file of a module's directory on disk; `summary` is None until it is read."""

    name: str
    summary: FileSummary | None = None


class Module:
    __slots__ = ("directory", "disk", "listed", "revision", "index_cache", "key_index_cache", "kinds_cache",
                 "names_cache", "opentofu_cache")

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.disk: dict[str, DiskFile] = {}
        self.listed = False  # the directory's files are known (listed once, then kept by events)
        self.revision = 0
        self.index_cache: tuple[int, dict] | None = None  # (revision, key -> places), see Workspace
        self.key_index_cache: tuple[int, dict] | None = None  # (revision, key -> file names)
        self.kinds_cache: tuple[int, dict] | None = None  # (revision, kind -> keys), see ModuleScope
        self.names_cache: tuple[int, frozenset[str]] | None = None  # (revision, its files' names): ModuleMap.names
        self.opentofu_cache: tuple[int, bool] | None = None  # (revision, read by OpenTofu under "auto")

    def bump(self) -> None:
        self.revision += 1
        self.index_cache = None
        self.key_index_cache = None
        self.kinds_cache = None
        self.names_cache = None

    def __repr__(self) -> str:
        return f"Module({self.directory!r}, files={sorted(self.disk)}, revision={self.revision})"
