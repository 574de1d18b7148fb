"""Where a CDK for Terraform construct was written: from a stack-trace frame of the synth machine to a
file of this machine's project, through the script's source map back to the TypeScript source.

    PROJECT_FILE                                   "cdktf.json"
    project_directory(path) -> str | None          the folder holding cdktf.json, above `path`
    resolve_in_project(project, synth_path) -> SourceText | None
    frame_source(project, frame) -> SourceLocation | None
    construct_source(output_path, stack_trace) -> SourceLocation | None

Contract
--------
* `project_directory` walks up from the directory of `path` (a `cdktf.out/stacks/<stack>/cdk.tf.json`,
  or the older `cdktf.out/cdk.tf.json`) to the nearest directory holding `cdktf.json`.
* A synth-machine path (POSIX, Windows or a `file:` URL's) names the file of the project that
  matches the longest suffix of its segments: `C:\\ci\\app\\src\\stacks\\logs.js` is
  `<project>/src/stacks/logs.js` when that exists, else `<project>/stacks/logs.js`, then
  `<project>/logs.js`.
* The frame's script may have a source map: the last `//# sourceMappingURL=` comment (a file
  relative to the script, or an inline `data:` URL, as CDKTF's default `inlineSourceMap` writes),
  else `<script>.map` beside it. When the map says where the frame's line and column come from and
  that source is a file (relative to the map; an absolute synth-machine path or `file:` URL is
  resolved in the project like a frame's), the location is there (`mapped` True); otherwise it is
  the script's own line and column.
* Lines and columns of a `SourceLocation` are 0-based, columns in UTF-16 code units (JavaScript's).
* Files are read through `workspace.files` (never raises; an unreadable file is a missing one).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass

from ..terraform.filekinds.cdktf import (
    Frame,
    data_url_text,
    is_absolute,
    local_path,
    original_position,
    parse_source_map,
    path_parts,
    source_map_reference,
    user_frame,
)
from .files import read_text

PROJECT_FILE = "cdktf.json"


@dataclass(frozen=True, slots=True)
class SourceText:
    path: str
    text: str


@dataclass(frozen=True, slots=True)
class SourceLocation:
    path: str
    text: str
    line: int  # 0-based
    column: int  # 0-based, UTF-16 code units
    mapped: bool  # through a source map


def project_directory(path: str) -> str | None:
    """The nearest directory at or above the directory of `path` that holds `cdktf.json`, or None."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if read_text(os.path.join(directory, PROJECT_FILE)).text is not None:
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def resolve_in_project(project: str, synth_path: str) -> SourceText | None:
    """The file under `project` matching the longest suffix of `synth_path` (see the module doc)."""
    parts = path_parts(synth_path)
    for i in range(len(parts)):
        candidate = os.path.join(project, *parts[i:])
        text = read_text(candidate).text
        if text is not None:
            return SourceText(candidate, text)
    return None


def frame_source(project: str, frame: Frame) -> SourceLocation | None:
    """Where `frame` points in the project: its script's source through a source map, else the script."""
    script = resolve_in_project(project, frame.path)
    if script is None:
        return None
    line, column = frame.line - 1, frame.column - 1
    return _mapped(project, script, line, column) or SourceLocation(script.path, script.text, line, column, False)


def construct_source(output_path: str, stack_trace: tuple[str, ...]) -> SourceLocation | None:
    """Where the construct whose `stack_trace` is in the CDKTF output file `output_path` was created."""
    frame = user_frame(stack_trace)
    if not isinstance(frame, Frame):
        return None
    project = project_directory(output_path)
    return frame_source(project, frame) if project is not None else None


def _mapped(project: str, script: SourceText, line: int, column: int) -> SourceLocation | None:
    found = _source_map(script)
    if found is None:
        return None
    map_text, map_directory = found
    source_map = parse_source_map(map_text)
    position = original_position(source_map, line, column) if source_map is not None else None
    if position is None:
        return None
    source = _source_file(project, map_directory, position.source)
    if source is None:
        return None
    return SourceLocation(source.path, source.text, position.line, position.column, True)


def _source_map(script: SourceText) -> tuple[str, str] | None:
    """(text, directory) of the source map of `script`, or None."""
    directory = os.path.dirname(script.path)
    reference = source_map_reference(script.text)
    if reference is not None:
        inline = data_url_text(reference)
        if inline is not None:
            return inline, directory
        if "://" not in reference:
            path = os.path.normpath(os.path.join(directory, *posixpath.normpath(reference).split("/")))
            text = read_text(path).text
            if text is not None:
                return text, os.path.dirname(path)
    text = read_text(script.path + ".map").text
    return (text, directory) if text is not None else None


def _source_file(project: str, map_directory: str, name: str) -> SourceText | None:
    if name.startswith("file://") or is_absolute(name):
        return resolve_in_project(project, local_path(name))
    path = os.path.normpath(os.path.join(map_directory, *name.split("/")))
    text = read_text(path).text
    return SourceText(path, text) if text is not None else resolve_in_project(project, name)
