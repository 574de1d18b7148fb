"""Reading a file that must be a regular file, without ever blocking or reading without end.

    read_regular_file(path) -> bytes     raises OSError; `NotRegularFile` for a pipe, device, ...

The exception-raising form of `files.read_bytes` (whose limits and reasons the server uses), for
the command line, which reports `OSError`s itself; both open and check as `files` does.

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

from .files import describe_mode, open_nonblocking

__all__ = ["NotRegularFile", "describe_mode", "read_regular_file"]


class NotRegularFile(OSError):
    """The path names something other than a regular file; `kind` says what ("a named pipe")."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a regular file ({kind})")
        self.kind = kind


def read_regular_file(path: str | os.PathLike[str]) -> bytes:
    fd = open_nonblocking(path)
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(describe_mode(mode))
        return f.read()
