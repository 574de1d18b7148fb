"""Write `server/hcljson_ls/terraform/data/backends.json`: the state backends of Terraform (and
OpenTofu) releases and the top-level names of each one's configuration, read from their Go source.

    python tools/backend_schemas.py GIT_DIR TAG [GIT_DIR TAG ...]

e.g. a clone of hashicorp/terraform at v1.11.4 and at its main branch, and one of opentofu/opentofu
at its latest release: the data holds the union (a name any of them accepts is never reported, so
no engine or version gets a false error), and the removed backends none of them has. A backend
whose schema this tool cannot read has `null` names (its configuration is not checked).

Where from: `internal/backend/init/init.go` (the backend names, and the removed ones with their
messages) and each backend's `ConfigSchema` (`internal/backend/local`, `internal/backend/remote`,
`internal/cloud`, `internal/backend/remote-state/*`): the keys of the outermost `Attributes` and
`BlockTypes` maps (configschema), or of the outermost `Schema` map (the legacy helper/schema).
Only names are taken, which are facts of the interface; nothing else of the source.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

_SOURCES = {
    "local": "internal/backend/local/backend.go",
    "remote": "internal/backend/remote/backend.go",
    "cloud": "internal/cloud/backend.go",
    "azurerm": "internal/backend/remote-state/azure/backend.go",
    "consul": "internal/backend/remote-state/consul/backend.go",
    "cos": "internal/backend/remote-state/cos/backend.go",
    "gcs": "internal/backend/remote-state/gcs/backend.go",
    "http": "internal/backend/remote-state/http/backend.go",
    "inmem": "internal/backend/remote-state/inmem/backend.go",
    "kubernetes": "internal/backend/remote-state/kubernetes/backend.go",
    "oss": "internal/backend/remote-state/oss/backend.go",
    "pg": "internal/backend/remote-state/pg/backend.go",
    "s3": "internal/backend/remote-state/s3/backend.go",
}
_MAPS = re.compile(r"(Attributes: map\[string\]\*configschema\.Attribute|BlockTypes: map\[string\]\*configschema\.NestedBlock|Schema: map\[string\]\*schema\.Schema)\{")
_KEY = re.compile(r'"([A-Za-z0-9_]+)":')


def _show(git_dir: str, tag: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{tag}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _depths(src: str) -> list[int]:
    """The brace depth before each character (strings and comments skipped well enough for Go
    schema literals: braces inside string literals are not counted)."""
    depth, out, in_str, i = 0, [], None, 0
    while i < len(src):
        c = src[i]
        out.append(depth)
        if in_str:
            if c == "\\" and in_str == '"':
                out.append(depth)
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in "\"`":
            in_str = c
        elif c == "/" and src[i:i + 2] == "//":
            j = src.find("\n", i)
            j = len(src) if j < 0 else j
            out.extend([depth] * (j - i - 1))
            i = j
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        i += 1
    return out


def top_level_names(src: str) -> list[str]:
    depths = _depths(src)
    maps = [(m.end(), depths[m.end() - 1], m.group(1)) for m in _MAPS.finditer(src)]
    if not maps:
        raise ValueError("no schema map")
    legacy = any(kind.startswith("Schema") for _, _, kind in maps)
    maps = [m for m in maps if m[2].startswith("Schema") == legacy]
    least = min(d for _, d, _ in maps)
    names: set[str] = set()
    for start, d, _ in maps:
        if d != least:
            continue
        i = start
        while i < len(src) and depths[i] > d:
            m = _KEY.match(src, i)
            if m and depths[i] == d + 1:
                names.add(m.group(1))
                i = m.end()
                continue
            i += 1
    return sorted(names)


def _release(git_dir: str, tag: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The backends of one release (name -> top-level config names) and its removed ones."""
    init = _show(git_dir, tag, "internal/backend/init/init.go")
    block = init[init.index("RemovedBackends = map[string]string{"):]
    block = block[: block.index("\n\t}")]
    removed = dict(re.findall(r'"([a-z0-9_]+)":\s*`([^`]*)`', block))
    registered = set(re.findall(r'^\t\t"([a-z0-9_]+)":\s+func\(', init, re.MULTILINE))
    backends = {name: top_level_names(_show(git_dir, tag, _SOURCES.get(name, f"internal/backend/remote-state/{name}/backend.go")))
                for name in sorted(registered)}
    return backends, removed


def main(*pairs: str) -> None:
    releases = [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    backends: dict[str, set[str]] = {}
    removed: dict[str, str] | None = None
    unread: set[str] = set()
    sources = []
    for git_dir, tag in releases:
        these, gone = _release(git_dir, tag)
        for name, names in these.items():
            if not names or name in unread:  # a schema this tool cannot read: the name only
                unread.add(name)
                backends.pop(name, None)
                continue
            backends.setdefault(name, set()).update(names)
        removed = gone if removed is None else {k: v for k, v in removed.items() if k in gone}
        origin = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", tag], check=True,
                                capture_output=True, text=True).stdout.strip()
        sources.append(f"{Path(git_dir).resolve().parent.name.replace('+', '/')} {tag} ({origin})")
    out = {
        "source": "internal/backend/init/init.go and each backend's ConfigSchema of: " + "; ".join(sources)
                  + " (tools/backend_schemas.py)",
        "aliases": {"_local": "local"},
        "backends": {**{name: sorted(names) for name, names in backends.items()}, **{name: None for name in unread}},
        "removed": {k: v for k, v in (removed or {}).items() if k not in backends and k not in unread},
    }
    target = Path(__file__).resolve().parent.parent / "server/hcljson_ls/terraform/data/backends.json"
    target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or len(sys.argv) % 2 != 1:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
