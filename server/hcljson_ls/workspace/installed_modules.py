"""Where `terraform init` installed the modules a root module calls: its
`.terraform/modules/modules.json` manifest.

    installed_module_dir(directory, call_name) -> str | None

Contract
--------
* The manifest lists `{"Key": ..., "Source": ..., "Dir": ...}` per installed module; the key of a
  module call of the root module is the call's name, that of a call made by an installed module is
  `parent key.call name` (`net.sub`), in the root's one manifest. `Dir` is relative to the root
  module's directory (or absolute).
* `directory` is the calling module: a root module (its own manifest), or a module installed under
  a root's `.terraform/modules/` (that root's manifest, the key of the entry whose `Dir` it is).
* The answer is an existing directory, or None: no manifest, an unreadable or malformed one, no
  entry for the call. Never raises; reads the manifest again only when its stamp (size, mtime)
  changed.
"""

from __future__ import annotations

import json
import os

from .files import read_text

__all__ = ["installed_module_dir", "MANIFEST"]

#: The manifest's path under a root module's directory.
MANIFEST = os.path.join(".terraform", "modules", "modules.json")

_cache: dict[str, tuple[tuple[int, int] | None, dict[str, str]]] = {}


def _entries(root: str) -> dict[str, str]:
    path = os.path.join(root, MANIFEST)
    try:
        st = os.stat(path)
    except OSError:
        _cache.pop(path, None)
        return {}
    stamp = (st.st_size, st.st_mtime_ns)
    cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found = read_text(path)
    entries: dict[str, str] = {}
    if found.text is not None:
        try:
            data = json.loads(found.text)
        except ValueError:
            data = None
        modules = data.get("Modules") if isinstance(data, dict) else None
        for m in modules if isinstance(modules, list) else ():
            if isinstance(m, dict) and isinstance(m.get("Key"), str) and isinstance(m.get("Dir"), str) and m["Key"]:
                entries[m["Key"]] = m["Dir"]
    _cache[path] = (stamp, entries)
    return entries


def installed_module_dir(directory: str, call_name: str) -> str | None:
    """The directory where module call `call_name` of module `directory` (a root module, or one
    installed under a root's `.terraform/modules/`) was installed, or None."""
    root, key = directory, call_name
    marker = os.sep + os.path.dirname(MANIFEST) + os.sep
    if marker in directory + os.sep:
        root = directory[: (directory + os.sep).index(marker)]
        entries = _entries(root)
        parents = [k for k, d in entries.items() if k and os.path.normpath(os.path.join(root, d)) == directory]
        if len(parents) != 1:
            return None
        key = f"{parents[0]}.{call_name}"
    d = _entries(root).get(key)
    if d is None:
        return None
    d = os.path.normpath(os.path.join(root, d))
    return d if os.path.isdir(d) else None
