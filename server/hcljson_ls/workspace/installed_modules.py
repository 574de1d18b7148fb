"""Where `terraform init` installed the modules a root module calls: its
`.terraform/modules/modules.json` manifest.

    installed_module_dir(directory, call_name, source=None) -> str | None
    installed_source(directory, call_name) -> str | None       the manifest's `Source` of that call
    changed_source(written, installed) -> bool                 surely another source than installed

Contract
--------
* The manifest lists `{"Key": ..., "Source": ..., "Dir": ...}` per installed module; the key of a
  module call of the root module is the call's name, that of a call made by an installed module is
  `parent key.call name` (`net.sub`), in the root's one manifest. `Dir` is relative to the root
  module's directory (or absolute).
* `directory` is the calling module: a root module (its own manifest), or a module installed under
  a root's `.terraform/modules/` (that root's manifest, the key of the entry whose `Dir` it is).
* The answer is an existing directory, or None: no manifest, an unreadable or malformed one, no
  entry for the call, or (given the call's `source`) an entry installed from another source
  (`same_source`: Terraform then says "Module source has changed" and judges nothing of the module). Never raises; reads the manifest again only when its stamp (size, mtime)
  changed.
* `changed_source` is True only when Terraform's comparison surely fails: the manifest records the
  source's normalised form (`addrs.ModuleSource.String()`), so a written source is compared only
  when it is already in that form or is a registry address without its host (`git::...`,
  `host/namespace/name/system`, `namespace/name/system`, each with an optional `//subdir`); any
  other spelling (`github.com/o/r`, `git@...`, `https://...`, a local path) is not judged, and
  neither is a difference of letter case.
"""

from __future__ import annotations

import json
import os
import re

from .files import read_text

__all__ = ["MANIFEST", "changed_source", "installed_module_dir", "installed_source"]

#: The manifest's path under a root module's directory.
MANIFEST = os.path.join(".terraform", "modules", "modules.json")

_cache: dict[str, tuple[tuple[int, int] | None, dict[str, tuple[str, str | None]]]] = {}

#: The registries a registry source without a host means (Terraform's, OpenTofu's).
_REGISTRIES = ("registry.terraform.io/", "registry.opentofu.org/")


def _entries(root: str) -> dict[str, tuple[str, str | None]]:
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
    entries: dict[str, tuple[str, str | None]] = {}
    if found.text is not None:
        try:
            data = json.loads(found.text)
        except ValueError:
            data = None
        modules = data.get("Modules") if isinstance(data, dict) else None
        for m in modules if isinstance(modules, list) else ():
            if isinstance(m, dict) and isinstance(m.get("Key"), str) and isinstance(m.get("Dir"), str) and m["Key"]:
                source = m.get("Source")
                entries[m["Key"]] = (m["Dir"], source if isinstance(source, str) else None)
    _cache[path] = (stamp, entries)
    return entries


def same_source(written: str, installed: str | None) -> bool:
    """Whether a call's literal `source` is the one its module was installed from (the manifest's
    `Source`): the same text, or a registry address without its host (`acme/net/aws` for
    `registry.terraform.io/acme/net/aws`). Other spellings of one address (`github.com/o/r` for
    `git::https://github.com/o/r.git`) are not recognised: not judged, as if not installed."""
    if installed is None:
        return False
    return installed == written or any(installed == host + written for host in _REGISTRIES)


#: A module registry address (`namespace/name/system`, optionally after a host and before `//subdir`).
_REGISTRY_ADDRESS = re.compile(r"(?:[A-Za-z0-9.-]+\.[A-Za-z0-9-]+(?::[0-9]+)?/)?[0-9A-Za-z_-]+/[0-9A-Za-z_-]+/[0-9a-z]+(?://\S+)?")


def changed_source(written: str, installed: str | None) -> bool:
    """Whether module source `written` is surely not the one the manifest says its module was
    installed from (`installed`; see the contract: Terraform's "Module source has changed")."""
    if installed is None or same_source(written, installed) or "${" in written or "%{" in written:
        return False
    if not (written.startswith("git::") or _REGISTRY_ADDRESS.fullmatch(written)):
        return False  # a spelling Terraform normalises (a detector, a local path): not judged
    forms = {written.lower(), *(host + written.lower() for host in _REGISTRIES)}
    return installed.lower() not in forms


def _entry(directory: str, call_name: str) -> tuple[str, tuple[str, str | None]] | None:
    """The root module and the manifest entry (Dir, Source) of call `call_name` of `directory`."""
    root, key = directory, call_name
    marker = os.sep + os.path.dirname(MANIFEST) + os.sep
    if marker in directory + os.sep:
        root = directory[: (directory + os.sep).index(marker)]
        entries = _entries(root)
        parents = [k for k, (d, _) in entries.items() if k and os.path.normpath(os.path.join(root, d)) == directory]
        if len(parents) != 1:
            return None
        key = f"{parents[0]}.{call_name}"
    entry = _entries(root).get(key)
    return None if entry is None else (root, entry)


def installed_source(directory: str, call_name: str) -> str | None:
    """The source the manifest says module call `call_name` of `directory` was installed from
    (None: no manifest, no entry, or no source recorded)."""
    found = _entry(directory, call_name)
    return None if found is None else found[1][1]


def installed_module_dir(directory: str, call_name: str, source: str | None = None) -> str | None:
    """The directory where module call `call_name` of module `directory` (a root module, or one
    installed under a root's `.terraform/modules/`) was installed, or None; with `source` (the
    call's), None too when the module was installed from another source (Terraform's "Module source
    has changed": `init` must run again, nothing is known of the new one)."""
    found = _entry(directory, call_name)
    if found is None:
        return None
    root, entry = found
    if source is not None and not same_source(source, entry[1]):
        return None
    d = os.path.normpath(os.path.join(root, entry[0]))
    return d if os.path.isdir(d) else None
