"""What requests read of files on disk that are not open, kept while each file stays the same: the
decoded view of the last few JSON configuration files and the line index of recent files.

    DiskReads()
      .view(path, max_bytes) -> (text, FileView) | None   a JSON configuration file analysed now
      .line_index(path, max_bytes) -> LineIndex | None
      .forget(path)                                       a watched-file event named it

Contract
--------
* Each result is kept with the file's stamp (`files.read_text`) and given again only while the
  stamp is unchanged; the file is read (at most `max_bytes`) at every call to compare stamps.
* Few are kept: the last 4 views (a request's files, not a summary of the module) and 65 line
  indexes (all forgotten when more come).
* None when the file cannot be read (or, for `view`, is no JSON configuration file).
"""

from __future__ import annotations

from ..hcljson.incremental import FileView
from ..jsonsyntax import parse
from ..terraform.analysis import analyze_file
from ..terraform.definition import catalogue
from ..text.line_index import LineIndex
from .files import read_text

_VIEWS = 4
_LINE_INDEXES = 64


class DiskReads:
    __slots__ = ("_views", "_indexes")

    def __init__(self) -> None:
        self._views: dict[str, tuple] = {}  # path -> (stamp, text, FileView)
        self._indexes: dict[str, tuple[tuple[int, int], LineIndex]] = {}  # path -> (stamp, LineIndex)

    def view(self, path: str, max_bytes: int) -> tuple[str, FileView] | None:
        """The text and decoded body of JSON configuration file `path`."""
        if catalogue.file_kind(path) != catalogue.CONFIG_JSON:
            return None
        got = read_text(path, max_bytes)
        if got.text is None:
            return None
        cached = self._views.get(path)
        if cached is not None and cached[0] == got.stamp:
            return cached[1], cached[2]
        view = analyze_file(got.text, parse(got.text).root, path).body
        if len(self._views) >= _VIEWS:
            self._views.pop(next(iter(self._views)))
        self._views[path] = (got.stamp, got.text, view)
        return got.text, view

    def line_index(self, path: str, max_bytes: int) -> LineIndex | None:
        """The `LineIndex` of file `path`."""
        got = read_text(path, max_bytes)
        if got.text is None or got.stamp is None:
            return None
        cached = self._indexes.get(path)
        if cached is not None and cached[0] == got.stamp:
            return cached[1]
        index = LineIndex(got.text)
        if len(self._indexes) > _LINE_INDEXES:
            self._indexes.clear()
        self._indexes[path] = (got.stamp, index)
        return index

    def forget(self, path: str) -> None:
        self._indexes.pop(path, None)
