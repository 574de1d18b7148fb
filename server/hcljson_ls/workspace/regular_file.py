"""Reading a file that must be a regular file, without ever blocking or reading without end.

    read_regular_file(path) -> bytes     raises OSError; `NotRegularFile` for a pipe, device, ...
    describe_mode(st_mode) -> str        "a named pipe", "a device", ... (what a file is)

Contract
--------
* The file is opened non-blocking (a named pipe with no writer cannot hang the caller) and its type
  is checked on the open descriptor (it cannot be swapped between the check and the read): a
  directory, named pipe, device (``/dev/zero``, reached through a symbolic link or not) or socket
  raises `NotRegularFile` without a byte read.
* Any other failure is the `OSError` of the open or the read.
"""

from __future__ import annotations

import os
import stat

__all__ = ["NotRegularFile", "describe_mode", "read_regular_file"]


class NotRegularFile(OSError):
    """The path names something other than a regular file; `kind` says what ("a named pipe")."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a regular file ({kind})")
        self.kind = kind


def read_regular_file(path: str | os.PathLike[str]) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(describe_mode(mode))
        return f.read()


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
