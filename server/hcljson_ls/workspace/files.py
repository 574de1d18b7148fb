"""Files on disk and the URIs that name them: the workspace layer's only contact with the file system.

    path_of_uri(uri) -> str | None        the file system path of a `file:` URI (else its path part)
    uri_of_path(path) -> str              the `file:` URI of an absolute path
    file_name(uri) -> str                 the last segment of a URI's path, percent-decoded
    module_key(uri) -> str                the directory of the module a URI belongs to
    read_text(path, max_bytes=MAX_FILE_BYTES) -> ReadResult
                                          a file's text, or why it cannot be had (never raises)
    read_bytes(path, max_bytes) -> BytesResult
                                          a regular file's bytes, or why not (never raises)
    is_file_on_disk(path) -> bool         whether a directory listing would name `path` as a file
    too_large(name, size, max_bytes) -> str | None
                                          why a file of `size` bytes is not analysed (the
                                          `maxFileSizeMB` setting), or None when it is small enough
    utf8_size(text, limit) -> int         the UTF-8 length of `text`, exact where `limit` needs it
    list_directory(path) -> DirListing    the entries of one directory, or why not (never raises)

Contract
--------
* Nothing here raises, on a file that cannot be read or on a path that cannot name one:
  permissions, invalid UTF-8, a symlink loop, a directory named like a file, a file removed
  meanwhile, a NUL character in the path, all come back as `ReadResult.problem` (one plain sentence
  naming the file) and are logged once at info level by the caller. A `file:` URI whose path holds
  a NUL (`%00`) names no file: `path_of_uri` gives None for it.
* Only regular files are read (a symbolic link to one is fine): a FIFO, a device (`/dev/zero`,
  `/dev/stdin`) or a socket is refused without being read. The file is opened non-blocking and
  checked on the open descriptor (`fstat`), so a FIFO swapped in after a check cannot block the
  reader, and at most `max_bytes` + 1 bytes are read even when the file grows meanwhile.
* Text is decoded as UTF-8 (a UTF-8 byte order mark is kept, so the JSON layer can name it);
  line endings are left as they are (positions are offsets into exactly that text).
* A file larger than `max_bytes` (the `maxFileSizeMB` setting, 40 MB by default) is not read: its
  problem says so (`too_large`), and the server tells the user the same of an open document.
* Directory walks never follow symbolic links to directories (so a symlink loop cannot make them
  run forever); symbolic links to files are read like files.
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from urllib.parse import quote, unquote, urlsplit

from ..text.encodings import stored_width


def path_of_uri(uri: str) -> str | None:
    """The file system path for a `file:` URI; the path part of another URI; None without one (or
    with a NUL character in it: no file system path holds one)."""
    path = _decoded_path(uri)
    return None if path is None or "\0" in path else path


def _decoded_path(uri: str) -> str | None:
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if not parts.path:
        return None
    path = unquote(parts.path)
    if parts.scheme == "file" and parts.netloc and parts.netloc != "localhost":
        path = f"//{parts.netloc}{path}"  # UNC
    if parts.scheme == "file" and os.name == "nt" and len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # file:///C:/x -> C:/x
    return path


def uri_of_path(path: str) -> str:
    """The `file:` URI of absolute `path` (percent-encoded as VS Code writes it)."""
    if os.name == "nt":
        return PureWindowsPath(path).as_uri()
    return "file://" + quote(PurePosixPath(path).as_posix(), safe="/")


def file_name(uri: str) -> str:
    """The last path segment of `uri`, percent-decoded (``""`` when there is none)."""
    path = _decoded_path(uri)
    return posixpath.basename(path.replace("\\", "/")) if path else ""


def module_key(uri: str) -> str:
    """The directory of the module `uri` belongs to (for a non-file URI: the URI itself)."""
    path = path_of_uri(uri)
    if path is None or not uri.startswith("file:"):
        return uri
    return os.path.dirname(os.path.normpath(path))


def relative_name(uri: str, folders: tuple[str, ...]) -> str:
    """How a message names the file of `uri`: its path relative to the innermost workspace folder
    that holds it, with `/` separators (`envs/prod/variables.tf.json`); its bare name when no
    folder holds it (or the URI has no file system path)."""
    path = path_of_uri(uri)
    if path is None:
        return file_name(uri)
    path = os.path.normpath(path)
    best = None
    for folder in folders:
        if path.startswith(folder.rstrip(os.sep) + os.sep) and (best is None or len(folder) > len(best)):
            best = folder
    if best is None:
        return file_name(uri)
    return os.path.relpath(path, best).replace(os.sep, "/")


#: The default of the `maxFileSizeMB` setting, in bytes.
MB = 1024 * 1024
MAX_FILE_BYTES = 40 * MB


def utf8_size(text: str, limit: int) -> int:
    """The UTF-8 length of `text`, encoded only when its length in characters and its widest
    character's length cannot decide (else a length on the same side of `limit`).

    Why the widest character: a 20 MB CDKTF file with one "é" is 2x its length at the most, under
    the 40 MB default; encoding it to know was 16-18 ms of its open (session 19)."""
    n = len(text)
    if n > limit or 4 * n <= limit or text.isascii():
        return n  # over for sure (a character is at least a byte), or under for sure; ASCII: a byte each
    if n * _widest_utf8(text) <= limit:
        return n  # under for sure
    return len(text.encode("utf-8", "surrogatepass"))


def _widest_utf8(text: str) -> int:
    """The UTF-8 length of the widest character `text` may hold, from the width CPython stores its
    characters in (`stored_width`): up to U+00FF takes 2 bytes, up to U+FFFF 3 (a lone surrogate
    too, with ``surrogatepass``), beyond 4."""
    return {1: 2, 2: 3}.get(stored_width(text), 4)


def too_large(name: str, size: int, max_bytes: int) -> str | None:
    """One sentence saying that the file `name` of `size` bytes is over the limit, or None."""
    if size <= max_bytes:
        return None
    return f"{name} {_over(size, max_bytes, 'setting maxFileSizeMB')}; it is not analysed."


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A file's text and its stamp (size, modification time in ns), or the problem that stopped it."""

    text: str | None
    stamp: tuple[int, int] | None = None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class BytesResult:
    """A regular file's bytes and its stamp (size, modification time in ns), or why it was not read:
    `reason` is a phrase about the file (``is not a regular file (a named pipe)``),
    `problem` the sentence that names it."""

    path: str
    data: bytes | None
    stamp: tuple[int, int] | None = None
    reason: str | None = None

    @property
    def problem(self) -> str | None:
        if self.reason is None:
            return None
        return f"{repr(self.path) if chr(0) in self.path else self.path} {self.reason}; skipped."


def open_nonblocking(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of `path`, opened so that a named pipe without a writer cannot block:
    check what it is on the descriptor (`os.fstat`), which cannot be swapped after the check."""
    return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))


def describe_mode(mode: int) -> str:
    """What a file of `mode` (from `stat`) is, in words: "a regular file", "a named pipe", ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_bytes(path: str, max_bytes: int, *, limit_words: str = "setting maxFileSizeMB") -> BytesResult:
    """The bytes of the regular file at `path` (at most `max_bytes`: `limit_words` names the limit in
    the reason), or why not (see the module doc). Never raises."""
    try:
        fd = open_nonblocking(path)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        return BytesResult(path, None, None, _reason(error))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            return BytesResult(path, None, None, "is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            return BytesResult(path, None, None, f"is not a regular file ({describe_mode(st.st_mode)})")
        if st.st_size > max_bytes:
            return BytesResult(path, None, None, _over(st.st_size, max_bytes, limit_words))
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(max_bytes + 1 - size, 16 * MB))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:  # it grew after the check
            return BytesResult(path, None, None, _over(size, max_bytes, limit_words))
        return BytesResult(path, b"".join(chunks), (st.st_size, st.st_mtime_ns))
    except OSError as error:
        return BytesResult(path, None, None, _reason(error))
    finally:
        os.close(fd)


def _over(size: int, max_bytes: int, limit_words: str) -> str:
    return f"is {size / MB:.1f} MB, larger than the limit of {max_bytes / MB:g} MB ({limit_words})"


def read_text(path: str, max_bytes: int = MAX_FILE_BYTES) -> ReadResult:
    """The UTF-8 text of the file at `path`, or a one-sentence problem (see the module doc)."""
    got = read_bytes(path, max_bytes)
    if got.data is None:
        return ReadResult(None, None, got.problem)
    try:
        text = got.data.decode("utf-8")
    except UnicodeDecodeError as error:
        return ReadResult(None, None, f"{path} is not valid UTF-8 (byte {error.start}); skipped.")
    return ReadResult(text, got.stamp)


def is_file_on_disk(path: str) -> bool:
    """Whether `list_directory` of its directory would name `path` among the files: a regular file
    or any symbolic link (one that does not lead to a regular file is reported when read)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)


@dataclass(frozen=True, slots=True)
class DirListing:
    """The names of one directory's files (symlinks to files included) and subdirectories (not
    symbolic links), or the problem that stopped the listing."""

    files: tuple[str, ...] = ()
    directories: tuple[str, ...] = ()
    problem: str | None = None


def list_directory(path: str) -> DirListing:
    files: list[str] = []
    directories: list[str] = []
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        directories.append(entry.name)
                    elif entry.is_file():  # follows a symlink to a file; a dangling or looping one is False
                        files.append(entry.name)
                    elif entry.is_symlink():
                        files.append(entry.name)  # dangling: read later, where that is reported as a problem
                except OSError:  # a symbolic link loop (ELOOP): read later, where the loop is reported
                    files.append(entry.name)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        return DirListing(problem=_describe(path, error))
    return DirListing(tuple(sorted(files)), tuple(sorted(directories)))


def _reason(error: OSError | ValueError) -> str:
    if isinstance(error, ValueError):
        return f"is not a valid file path ({error})"
    return f"cannot be read ({error.strerror or type(error).__name__})"


def _describe(path: str, error: OSError | ValueError) -> str:
    return f"{repr(path) if chr(0) in path else path} {_reason(error)}; skipped."

