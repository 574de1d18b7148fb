"""The `indexing.ignorePaths` setting: directories that the workspace scan and `check`'s walk leave out.

    IgnorePaths.of(patterns, roots).skips(directory) -> bool

A pattern is one of:

- an absolute path: that directory, with everything under it;
- a glob with a `/` (`envs/*/generated`, `vendor/**`): matched with `fnmatch` (`*`, `?`, `[...]`;
  `*` also crosses `/`) against the directory's path relative to a root, `/`-separated. The roots
  are the workspace folders; for `check`, the directory of its configuration file;
- a glob without a `/` (`.terragrunt-cache`, `tmp-*`): matched against a directory's own name, at
  any depth.

A trailing `/` or `/**` is dropped: a skipped directory is skipped with everything below it. Files a
user opens are analysed wherever they are; only the scan of the disk skips.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fnmatch import fnmatchcase


@dataclass(frozen=True, slots=True)
class IgnorePaths:
    absolute: tuple[str, ...] = ()
    relative: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()

    @classmethod
    def of(cls, patterns: tuple[str, ...], roots: tuple[str, ...]) -> IgnorePaths:
        absolute: list[str] = []
        relative: list[str] = []
        names: list[str] = []
        for raw in patterns:
            pattern = raw.strip().replace("\\", "/")
            while pattern.endswith("/**") or (pattern.endswith("/") and len(pattern) > 1):
                pattern = pattern[:-3] if pattern.endswith("/**") else pattern[:-1]
            if not pattern:
                continue
            expanded = os.path.expanduser(pattern)
            if os.path.isabs(expanded):
                absolute.append(os.path.normpath(expanded))
            elif "/" in pattern:
                relative.append(pattern[2:] if pattern.startswith("./") else pattern)
            else:
                names.append(pattern)
        return cls(tuple(absolute), tuple(relative), tuple(names), tuple(os.path.normpath(r) for r in roots))

    def __bool__(self) -> bool:
        return bool(self.absolute or self.relative or self.names)

    def skips(self, directory: str) -> bool:
        """Whether the scan leaves out `directory`: it, or a directory above it, matches."""
        if not self:
            return False
        directory = os.path.normpath(directory)
        for a in self.absolute:
            if directory == a or directory.startswith(a.rstrip(os.sep) + os.sep):
                return True
        for root in self.roots:
            if directory.startswith(root.rstrip(os.sep) + os.sep):
                parts = os.path.relpath(directory, root).split(os.sep)
                prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
                if any(fnmatchcase(part, n) for part in parts for n in self.names):
                    return True
                if any(fnmatchcase(prefix, r) for prefix in prefixes for r in self.relative):
                    return True
                return False
        return any(fnmatchcase(os.path.basename(directory), n) for n in self.names)


NONE = IgnorePaths()
