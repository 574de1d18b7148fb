"""Files on disk and the URIs that name them: the workspace layer's only contact with the file system.

    path_of_uri(uri) -> str | None        the file system path of a `file:` URI (else its path part)
    uri_of_path(path) -> str              the `file:` URI of an absolute path
    file_name(uri) -> str                 the last segment of a URI's path, percent-decoded
    read_text(path, max_bytes=MAX_FILE_BYTES) -> ReadResult
                                          a file's text, or why it cannot be had (never raises)
    too_large(name, size, max_bytes) -> str | None
                                          why a file of `size` bytes is not analysed (the
                                          `maxFileSizeMB` setting), or None when it is small enough
    list_directory(path) -> DirListing    the entries of one directory, or why not (never raises)
    user_cache_dir(*parts) -> str         where the server may write: the user cache dir (`platformdirs`)

Contract
--------
* Nothing here raises on a file that cannot be read: permissions, invalid UTF-8, a symlink loop,
  a directory named like a file, a file removed meanwhile, all come back as `ReadResult.problem`
  (one plain sentence naming the file) and are logged once at info level by the caller.
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

import platformdirs


def path_of_uri(uri: str) -> str | None:
    """The file system path for a `file:` URI; the path part of another URI; None without one."""
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
    path = path_of_uri(uri)
    return posixpath.basename(path.replace("\\", "/")) if path else ""


#: The default of the `maxFileSizeMB` setting, in bytes.
MB = 1024 * 1024
MAX_FILE_BYTES = 40 * MB


def too_large(name: str, size: int, max_bytes: int) -> str | None:
    """One sentence saying that the file `name` of `size` bytes is over the limit, or None."""
    if size <= max_bytes:
        return None
    return (f"{name} is {size / MB:.1f} MB, larger than the limit of {max_bytes / MB:g} MB (setting maxFileSizeMB); "
            "it is not analysed.")


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A file's text and its stamp (size, modification time in ns), or the problem that stopped it."""

    text: str | None
    stamp: tuple[int, int] | None = None
    problem: str | None = None


def read_text(path: str, max_bytes: int = MAX_FILE_BYTES) -> ReadResult:
    """The UTF-8 text of the file at `path`, or a one-sentence problem (see the module doc)."""
    try:
        st = os.stat(path)
    except OSError as error:
        return ReadResult(None, None, _describe(path, error))
    if stat.S_ISDIR(st.st_mode):
        return ReadResult(None, None, f"{path} is a directory, not a file; skipped.")
    if not stat.S_ISREG(st.st_mode):
        return ReadResult(None, None, f"{path} is not a regular file; skipped.")
    if (problem := too_large(path, st.st_size, max_bytes)) is not None:
        return ReadResult(None, None, problem[:-1] + "; skipped.")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        return ReadResult(None, None, _describe(path, error))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return ReadResult(None, None, f"{path} is not valid UTF-8 (byte {error.start}); skipped.")
    return ReadResult(text, (st.st_size, st.st_mtime_ns))


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
    except OSError as error:
        return DirListing(problem=_describe(path, error))
    return DirListing(tuple(sorted(files)), tuple(sorted(directories)))


def _describe(path: str, error: OSError) -> str:
    reason = error.strerror or type(error).__name__
    return f"{path} cannot be read ({reason}); skipped."


def user_cache_dir(*parts: str) -> str:
    """`parts` under the user's cache directory for hcljson-ls (`~/.cache/hcljson-ls` on Linux): the
    only place the server writes (provider-schema cache, previews)."""
    return os.path.join(platformdirs.user_cache_dir("hcljson-ls", appauthor=False), *parts)
