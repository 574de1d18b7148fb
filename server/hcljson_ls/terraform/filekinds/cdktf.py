"""CDK for Terraform's construct metadata in its output (`cdktf.out/stacks/<stack>/cdk.tf.json`), read
from given text only: no file system here (`workspace.cdktf` finds the files).

    ConstructMetadata(path, unique_id, stack_trace)
    metadata_of(text, body) -> ConstructMetadata | None    the `"//": {"metadata": ...}` of a block body
    Frame(function, path, line, column)                    one stack-trace line with a file location
    parse_frame(line) -> Frame | None
    is_user_code(path) -> bool
    user_frame(stack_trace) -> Frame | NoUserFrame         the first frame of the user's own code
    local_path(path) -> str                                a `file:` URL's path, else `path`
    path_parts(path) -> tuple[str, ...]                    a POSIX or Windows path, split
    source_map_reference(js_text) -> str | None            the last `//# sourceMappingURL=` of a script
    data_url_text(url) -> str | None                       the text of a `data:` URL
    parse_source_map(text) -> SourceMap | None             a version 3 source map, mappings decoded
    original_position(source_map, line, column) -> OriginalPosition | None

Contract
--------
* CDKTF writes `"//": {"metadata": {"path": "<stack>/<id>/.../<id>", "uniqueId": "...",
  "stackTrace": [...]}}` into the body of each resource, data source and module call it
  synthesizes (the file's root `"//"` holds the stack's name instead, and is not a block's).
  `metadata_of` reads it from a decoded block body (either JSON form: an object, or each object of
  an array); a body without it, or with a `metadata` that is not an object with a string `path`,
  has none. `stack_trace` keeps only the string entries.
* Stack-trace lines are Node's, with or without the leading `at ` (CDKTF strips it):
  `fn (path:line:col)` and `path:line:col`, where path is the synth machine's: POSIX
  (`/home/a/app/main.js`), Windows (`C:\\a\\app\\main.js`, UNC `\\\\host\\share\\...`) or a `file:`
  URL (ES modules). A line without a file location (`new Promise (<anonymous>)`,
  `async Promise.all (index 0)`) is no frame. Lines and columns are 1-based, as Node prints them.
* The user's own code is an absolute path outside `node_modules` and `.gen` (the generated
  provider bindings). Node's internals are never absolute (`node:internal/...`,
  `internal/modules/...`, `module.js` of old Node versions), and so never the user's.
  `user_frame` returns the first such frame, or a `NoUserFrame` whose `reason` says why there is
  none (no stack trace; no line with a file location; every frame in a library or in Node).
* Source maps (version 3): `mappings` are decoded from base-64 VLQ by the small decoder below (no
  library: the ones on PyPI are unmaintained since 2015-2018, and `sourcemap` 0.2.1 has a
  Python-2-only error path and joins `sourceRoot` with the platform's separator). Index maps
  (`sections`) and malformed maps give None. `original_position` takes and returns 0-based lines
  and columns (columns in UTF-16 code units, as JavaScript counts them); it maps to the last
  segment of the generated line at or before the column (the first segment of the line when the
  column is before all of them), and `source` is `sourceRoot` joined to the source's name with `/`.
* Pure, never raises on odd input.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from urllib.parse import unquote

from ...jsonsyntax.tree import Array, Object, String
from ...jsonsyntax.value import Pairs, to_python


@dataclass(frozen=True, slots=True)
class ConstructMetadata:
    path: str  # the construct path, `<stack>/Logs/Bucket`
    unique_id: str  # the logical id: the block's name in the output
    stack_trace: tuple[str, ...] = ()


def metadata_of(text: str, body) -> ConstructMetadata | None:
    """The construct metadata in the `"//"` property of the decoded block `body` (a `model.Body`:
    its `node` and absolute `start`), or None."""
    node = body.node
    if isinstance(node, Object):
        return _metadata_in(text, node, body.start)
    if isinstance(node, Array):
        for member in node.items:
            value = member.value
            if isinstance(value, Object):
                found = _metadata_in(text, value, body.start + value.start)
                if found is not None:
                    return found
    return None


def _metadata_in(text: str, node: Object, start: int) -> ConstructMetadata | None:
    for member in node.items:
        key = member.key
        if not isinstance(key, String) or member.value is None or text[start + key.start : start + key.end] != '"//"':
            continue
        comment = _as_dict(to_python(text, member.value, start))
        metadata = _as_dict(comment.get("metadata")) if comment is not None else None
        if metadata is None or not isinstance(metadata.get("path"), str):
            continue
        unique_id = metadata.get("uniqueId")
        trace = metadata.get("stackTrace")
        lines = tuple(x for x in trace if isinstance(x, str)) if isinstance(trace, list) else ()
        return ConstructMetadata(metadata["path"], unique_id if isinstance(unique_id, str) else "", lines)
    return None


def _as_dict(value) -> dict | None:
    """A decoded JSON object (`Pairs`) as a dict (the first of duplicate keys wins), else None."""
    if not isinstance(value, Pairs):
        return None
    out: dict = {}
    for key, item in value:
        out.setdefault(key, item)
    return out


# ---- stack traces ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Frame:
    function: str  # "" for a frame written as a bare location
    path: str  # as the trace has it, a `file:` URL decoded to its path
    line: int  # 1-based
    column: int  # 1-based


@dataclass(frozen=True, slots=True)
class NoUserFrame:
    reason: str


_CALL = re.compile(r"^(?:at\s+)?(?P<function>.*?)\s*\((?P<location>.*)\)$")
_BARE = re.compile(r"^(?:at\s+)?(?P<location>\S.*)$")
_LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+)$")
_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


def parse_frame(line: str) -> Frame | None:
    """The frame of one stack-trace line, or None when the line has no file location."""
    line = line.strip()
    call = _CALL.match(line)
    function, location = (call["function"], call["location"]) if call else ("", line)
    if call is None:
        bare = _BARE.match(line)
        if bare is None:
            return None
        location = bare["location"]
    found = _LOCATION.match(location.strip())
    if found is None:
        return None
    return Frame(function, local_path(found["path"]), int(found["line"]), int(found["column"]))


def local_path(path: str) -> str:
    """`path` itself, or the path of a `file:` URL (`file:///C:/app/main.js` -> `C:/app/main.js`)."""
    if not path.startswith("file://"):
        return path
    path = unquote(path[len("file://") :])
    return path[1:] if re.match(r"^/[A-Za-z]:/", path) else path


def is_absolute(path: str) -> bool:
    """True for an absolute POSIX or Windows path (drive letter or UNC)."""
    return path.startswith("/") or bool(_WINDOWS_ABSOLUTE.match(path))


def path_parts(path: str) -> tuple[str, ...]:
    """The segments of `path` split at `/` and `\\`, without the drive, empty segments and `.`;
    `..` takes back the segment before it."""
    if re.match(r"^[A-Za-z]:", path):
        path = path[2:]
    out: list[str] = []
    for part in re.split(r"[\\/]+", path):
        if part in ("", "."):
            continue
        if part == "..":
            if out:
                out.pop()
            continue
        out.append(part)
    return tuple(out)


#: Path segments of code that is not the user's: dependencies and CDKTF's generated bindings.
LIBRARY_SEGMENTS = frozenset({"node_modules", ".gen"})


def is_user_code(path: str) -> bool:
    """True when a frame's `path` is the user's own code (see the module doc)."""
    if not is_absolute(path):
        return False  # node:internal/..., internal/..., module.js, <anonymous>
    return LIBRARY_SEGMENTS.isdisjoint(path_parts(path))


def user_frame(stack_trace: tuple[str, ...] | list[str]) -> Frame | NoUserFrame:
    """The first frame of `stack_trace` that is the user's own code, or why there is none."""
    if not stack_trace:
        return NoUserFrame("the block has no stack trace (CDKTF writes one only in some versions and settings)")
    frames = [f for f in (parse_frame(line) for line in stack_trace) if f is not None]
    if not frames:
        return NoUserFrame("no line of the stack trace has a file location")
    for frame in frames:
        if is_user_code(frame.path):
            return frame
    return NoUserFrame("every frame of the stack trace is in node_modules, .gen or Node's own code")


# ---- source maps -------------------------------------------------------------------------------------

_MAP_COMMENT = re.compile(r"^[ \t]*//[#@][ \t]*sourceMappingURL=[ \t]*(\S+)[ \t]*$", re.MULTILINE)


def source_map_reference(js_text: str) -> str | None:
    """The URL of the last `//# sourceMappingURL=` comment line of a script, or None."""
    found = None
    for found in _MAP_COMMENT.finditer(js_text):  # noqa: B007 (the last match is the one read)
        pass
    return found[1] if found is not None else None


def data_url_text(url: str) -> str | None:
    """The text of a `data:` URL (base-64 or percent-encoded, UTF-8), or None for another URL."""
    if not url.startswith("data:") or "," not in url:
        return None
    head, payload = url[len("data:") :].split(",", 1)
    try:
        if head.endswith(";base64"):
            return base64.b64decode(payload, validate=False).decode("utf-8")
        return unquote(payload)
    except (binascii.Error, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class SourceMap:
    sources: tuple[str, ...]  # with `sourceRoot` joined
    #: per generated line: (generated column, source index, source line, source column), by column
    lines: tuple[tuple[tuple[int, int, int, int], ...], ...]


@dataclass(frozen=True, slots=True)
class OriginalPosition:
    source: str
    line: int  # 0-based
    column: int  # 0-based


_BASE64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _vlq(segment: str) -> list[int] | None:
    """The signed integers of one base-64 VLQ segment, or None when it is malformed."""
    values: list[int] = []
    value = shift = 0
    for ch in segment:
        digit = _BASE64.get(ch)
        if digit is None:
            return None
        value += (digit & 31) << shift
        shift += 5
        if not digit & 32:
            values.append(-(value >> 1) if value & 1 else value >> 1)
            value = shift = 0
    return values if shift == 0 else None


def _decode_mappings(mappings: str, source_count: int) -> tuple[tuple[tuple[int, int, int, int], ...], ...] | None:
    lines = []
    source = source_line = source_column = 0  # these three carry over from line to line
    for line in mappings.split(";"):
        column = 0
        segments = []
        for segment in line.split(","):
            if not segment:
                continue
            values = _vlq(segment)
            if values is None or len(values) not in (1, 4, 5):
                return None
            column += values[0]
            if len(values) >= 4:
                source += values[1]
                source_line += values[2]
                source_column += values[3]
                if 0 <= source < source_count:
                    segments.append((column, source, source_line, source_column))
        segments.sort()
        lines.append(tuple(segments))
    return tuple(lines)


def parse_source_map(text: str) -> SourceMap | None:
    """The source map in `text` (JSON, possibly after a `)]}'` guard line), or None."""
    if text.startswith(")]}"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or raw.get("version") != 3 or not isinstance(raw.get("mappings"), str):
        return None
    names = raw.get("sources")
    if not isinstance(names, list):
        return None
    source_root = raw.get("sourceRoot")
    root = source_root if isinstance(source_root, str) else ""
    sources = tuple(_join_root(root, n) if isinstance(n, str) else "" for n in names)
    lines = _decode_mappings(raw["mappings"], len(sources))
    return SourceMap(sources, lines) if lines is not None else None


def _join_root(root: str, name: str) -> str:
    if not root or is_absolute(name) or "://" in name:
        return name
    return root.rstrip("/") + "/" + name


def original_position(source_map: SourceMap, line: int, column: int) -> OriginalPosition | None:
    """Where generated (0-based) `line`/`column` comes from, or None when that line maps nowhere."""
    if not 0 <= line < len(source_map.lines):
        return None
    segments = source_map.lines[line]
    if not segments:
        return None
    i = bisect_right(segments, (column, 1 << 62))
    _, source, source_line, source_column = segments[i - 1] if i > 0 else segments[0]
    name = source_map.sources[source]
    return OriginalPosition(name, source_line, source_column) if name else None
