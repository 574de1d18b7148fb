"""Write `server/hcljson_ls/terraform/data/backends.json`: the state backends of Terraform and
OpenTofu releases and the schema of each one's configuration, read from their Go source.

    python tools/backend_schemas.py ENGINE:GIT_DIR:REV:VERSION [...]

e.g. `terraform:/work/.mirror/hashicorp+terraform/repo:v1.11.4:1.11` for each release read (the
VERSION is the `major.minor` the release stands for; a development branch gets its next minor).

Where from: `internal/backend/init/init.go` (the backend names, and the removed ones with their
messages) and each backend's schema (`internal/backend/local`, `internal/backend/remote`,
`internal/cloud`, `internal/backend/remote-state/*`): the outermost `Attributes` and `BlockTypes`
maps (configschema), or the outermost `Schema` map (the legacy helper/schema). Of each key only
facts of the interface are taken: its name, type, whether it is required, sensitive or deprecated,
and its nested keys (a legacy block's nesting as the legacy helper gives it to core: a list or set,
with `max_items` 1 where it says so; `env_default` on a required legacy key with a `DefaultFunc`,
which the helper makes optional whenever that function gives a value); never the source's descriptions (ours are in `backend_descriptions.json`,
written by hand). A backend whose schema this tool cannot read has `null` keys.

The output, per engine: the releases read (in order) and per backend the keys, each with `since`
(the first release read that has it) and `until` (the last one, null: still in the newest), its
facts as the newest release having it states them.
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
}
_MAP = re.compile(r"(Attributes|BlockTypes|Schema):\s*map\[string\]\*?(configschema\.Attribute|configschema\.NestedBlock|schema\.Schema|schemaAttribute)\{")
_ENTRY = re.compile(r'(?m)^\s*(?:"([A-Za-z0-9_]+)"|([A-Z]\w*)):\s*')
_CTY = {"String": "string", "Bool": "bool", "Number": "number", "DynamicPseudoType": "any"}
_LEGACY = {"TypeString": "string", "TypeBool": "bool", "TypeInt": "number", "TypeFloat": "number"}
_REPOS = {"terraform": "hashicorp/terraform", "opentofu": "opentofu/opentofu"}
_LICENSES = {"terraform": "BUSL-1.1", "opentofu": "MPL-2.0"}


def _show(git_dir: str, rev: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _close(src: str, i: int) -> int:
    """The index of the brace closing the one at `src[i]` (Go string literals and line comments
    skipped)."""
    depth, in_str = 0, None
    while i < len(src):
        c = src[i]
        if in_str:
            if c == "\\" and in_str == '"':
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in "\"`":
            in_str = c
        elif src.startswith("//", i):
            i = src.find("\n", i)
            if i < 0:
                return len(src)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(src)


def _top(body: str) -> str:
    """`body` (the inside of a literal) with every nested literal blanked: its own fields only."""
    out, i = [], 0
    while i < len(body):
        if body[i] == "{":
            j = _close(body, i)
            out.append("{" + " " * (j - i - 1) + "}")
            i = j + 1
            continue
        if body[i] in "\"`":  # keep strings whole (a brace inside one is no literal)
            q, j = body[i], i + 1
            while j < len(body) and body[j] != q:
                j += 2 if body[j] == "\\" and q == '"' else 1
            out.append(body[i:j + 1])
            i = j + 1
            continue
        out.append(body[i])
        i += 1
    return "".join(out)


def _cty(expr: str) -> str | None:
    expr = expr.strip()
    m = re.fullmatch(r"cty\.(\w+)", expr)
    if m:
        return _CTY.get(m.group(1))
    m = re.fullmatch(r"cty\.(List|Set|Map)\((.*)\)", expr, re.S)
    if m:
        inner = _cty(m.group(2))
        return f"{m.group(1).lower()}({inner})" if inner else None
    return None


def _field(top: str, name: str) -> str | None:
    m = re.search(rf"(?:^|[\s,{{]){name}:\s*([^,\n}}]+)", top)
    return m.group(1).strip() if m else None


def _maps(body: str) -> list[tuple[str, str]]:
    """The outermost schema maps of a literal's inside: (kind, inside of the map)."""
    top = _top(body)
    out = []
    for m in _MAP.finditer(top):
        start = m.end() - 1
        out.append((m.group(2), body[start + 1:_close(body, start)]))
    return out


def _entries(inside: str, ctx: _Package) -> list[tuple[str, str, str]]:
    """The entries of a map's inside: (name, the kind of literal, its inside). A key may be a
    package constant; a value a literal, a function of the package returning one, or an s3-style
    `<var>.SchemaAttribute()` (a nested object)."""
    out = []
    top = _top(inside)
    for m in _ENTRY.finditer(top):
        name = m.group(1) or ctx.consts.get(m.group(2))
        if name is None:
            continue
        value = m.end()
        if top[value] == "{" or top.startswith("&schema.Schema{", value):
            start = top.index("{", value)
            out.append((name, "", inside[start + 1:_close(inside, start)]))
            continue
        call = re.match(r"(\w+)\(\)", top[value:])
        if call and call.group(1) in ctx.funcs:
            out.append((name, "", ctx.funcs[call.group(1)]))
            continue
        wrapped = re.match(r"\w+Attribute\{", top[value:])
        if wrapped:
            end = _close(inside, value + wrapped.end() - 1)
            lit = inside.find("configschema.Attribute{", value, end)
            if lit >= 0:
                start = lit + len("configschema.Attribute")
                out.append((name, "", inside[start + 1:_close(inside, start)]))
            continue
        nested = re.match(r"(\w+)\.SchemaAttribute\(\)", top[value:])
        if nested and nested.group(1) in ctx.objects:
            out.append((name, "object", ctx.objects[nested.group(1)]))
    return out


class _Package:
    """What a backend's entries may name elsewhere in its package: string constants, functions
    returning one schema literal, and nested-object variables (name -> the literal's inside)."""

    def __init__(self, files: list[str]) -> None:
        src = "\n".join(files)
        self.consts = dict(re.findall(r"(?m)^\s*(?:const\s+)?([A-Z]\w*)\s*=\s*\"([a-z0-9_]+)\"", src))
        self.funcs: dict[str, str] = {}
        for m in re.finditer(r"(?m)^func (\w+)\(\) \*schema\.Schema \{", src):
            r = src.index("return &schema.Schema{", m.end())
            start = src.index("{", r)
            self.funcs[m.group(1)] = src[start + 1:_close(src, start)]
        self.objects: dict[str, str] = {}
        for m in re.finditer(r"(?m)^var (\w+) = singleNestedAttribute\{", src):
            start = m.end() - 1
            self.objects[m.group(1)] = src[start + 1:_close(src, start)]


def _flag(top: str, name: str) -> bool:
    v = _field(top, name)
    return v is not None and v not in ("false", '""')


def _key(kind: str, body: str, ctx: _Package) -> dict:
    """The facts of one schema entry (`kind`: the map's element type)."""
    top = _top(body)
    out: dict = {}
    if kind == "configschema.NestedBlock":
        nesting = (_field(top, "Nesting") or "configschema.NestingSingle").split(".")[-1]
        out["type"] = "block"
        out["nesting"] = nesting.removeprefix("Nesting").lower()
        block = re.search(r"Block:\s*configschema\.Block\{", body)
        out["keys"] = _block(body[block.end():_close(body, block.end() - 1)], ctx) if block else {}
        out["required"] = (_field(top, "MinItems") or "0") != "0"
        return out
    if kind == "object":
        return {"type": "object", "keys": _block(body, ctx), "required": False}
    if kind in ("configschema.Attribute", "schemaAttribute"):
        nested = re.search(r"NestedType:\s*&configschema\.Object\{", top)
        if nested:
            inner = body[nested.end():_close(body, nested.end() - 1)]
            out["type"] = "object"
            out["keys"] = _block(inner, ctx)
        else:
            out["type"] = _cty(_field(top, "Type") or "") or "any"
    else:
        legacy = (_field(top, "Type") or "").removeprefix("schema.")
        elem = re.search(r"Elem:\s*&schema\.(Schema|Resource)\{", top)
        elem_body = body[elem.end():_close(body, elem.end() - 1)] if elem else ""
        if legacy in _LEGACY:
            out["type"] = _LEGACY[legacy]
        elif elem and elem.group(1) == "Resource":
            out["type"] = "block"  # the legacy helper gives core a list or set of blocks, even of at most one
            out["nesting"] = legacy.removeprefix("Type").lower()
            if _field(top, "MaxItems") == "1":
                out["max_items"] = 1
            out["keys"] = _block(elem_body, ctx)
        else:
            inner = _LEGACY.get((_field(_top(elem_body), "Type") or "").removeprefix("schema."), "string")
            out["type"] = f"{legacy.removeprefix('Type').lower()}({inner})"
    out["required"] = _flag(top, "Required")
    if out["required"] and _field(top, "DefaultFunc") is not None:
        out["env_default"] = True  # required only while its default function (the environment) gives nothing
    if _flag(top, "Sensitive"):
        out["sensitive"] = True
    if _flag(top, "Deprecated"):
        out["deprecated"] = True
    return out


def _block(body: str, ctx: _Package) -> dict[str, dict]:
    """The keys of a schema literal's inside (its outermost maps)."""
    keys: dict[str, dict] = {}
    for kind, inside in _maps(body):
        for name, special, entry in _entries(inside, ctx):
            keys[name] = _key(special or kind, entry, ctx)
    return keys


def backend_schema(src: str, package: list[str]) -> dict[str, dict] | None:
    """The keys of the schema in a backend's source file (`package`: the texts of its package's
    files), or None (no schema map found)."""
    ctx = _Package(package)
    for start in (m.start() for m in re.finditer(r"configschema\.Block\{|schema\.Backend\{", src)):
        brace = src.index("{", start)
        keys = _block(src[brace + 1:_close(src, brace)], ctx)
        if keys:
            return keys
    return None


def _release(git_dir: str, rev: str) -> tuple[dict[str, dict | None], dict[str, str]]:
    """The backends of one release (name -> its keys) and its removed ones."""
    init = _show(git_dir, rev, "internal/backend/init/init.go")
    block = init[init.index("RemovedBackends = map[string]string{"):]
    block = block[: block.index("\n\t}")]
    removed = dict(re.findall(r'"([a-z0-9_]+)":\s*`([^`]*)`', block))
    registered = set(re.findall(r'^\t\t"([a-z0-9_]+)":\s+func\(', init, re.MULTILINE))
    out: dict[str, dict | None] = {}
    for name in sorted(registered):
        path = _SOURCES.get(name, f"internal/backend/remote-state/{name}/backend.go")
        files = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "--name-only", f"{rev}:{path.rsplit('/', 1)[0]}"],
                               check=True, capture_output=True, text=True).stdout.split()
        package = [_show(git_dir, rev, f"{path.rsplit('/', 1)[0]}/{f}") for f in files
                   if f.endswith(".go") and not f.endswith("_test.go")]
        out[name] = backend_schema(_show(git_dir, rev, path), package)
    return out, removed


def _merge(into: dict, keys: dict, version: str) -> None:
    """Fold one release's `keys` into `into` (releases come oldest first)."""
    for name, facts in keys.items():
        old = into.get(name)
        nested = facts.pop("keys", None)
        entry = {**facts, "since": old["since"] if old else version, "until": version}
        if nested is not None:
            entry["keys"] = old.get("keys", {}) if old else {}
            _merge(entry["keys"], nested, version)
        into[name] = entry


def _close_ranges(keys: dict, newest: str) -> None:
    for facts in keys.values():
        if facts["until"] == newest:
            facts["until"] = None
        if "keys" in facts:
            _close_ranges(facts["keys"], newest)


def main(*specs: str) -> None:
    engines: dict[str, dict] = {}
    removed: dict[str, str] | None = None
    for spec in specs:
        engine, git_dir, rev, version = spec.split(":")
        these, gone = _release(git_dir, rev)
        e = engines.setdefault(engine, {"releases": [], "sources": [], "backends": {}})
        commit = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", rev], check=True,
                                capture_output=True, text=True).stdout.strip()
        e["releases"].append(version)
        e["sources"].append(f"github.com/{_REPOS[engine]} {rev} ({commit})")
        for name, keys in these.items():
            b = e["backends"].setdefault(name, {"since": version, "until": version, "keys": {}})
            b["until"] = version
            if keys is None or b["keys"] is None:
                b["keys"] = None
            else:
                _merge(b["keys"], keys, version)
        removed = gone if removed is None else {k: v for k, v in removed.items() if k in gone}
    known = {n for e in engines.values() for n in e["backends"]}
    for e in engines.values():
        newest = e["releases"][-1]
        for b in e["backends"].values():
            if b["until"] == newest:
                b["until"] = None
            if b["keys"] is not None:
                _close_ranges(b["keys"], newest)
    out = {
        "source": "internal/backend/init/init.go and each backend's schema (tools/backend_schemas.py); "
                  "see backends.NOTICE.md",
        "license": {e: f"read from {_REPOS[e]} ({_LICENSES[e]}); only names and facts of the interface"
                    for e in engines},
        "aliases": {"_local": "local"},
        "engines": engines,
        "removed": {k: v for k, v in (removed or {}).items() if k not in known},
    }
    target = Path(__file__).resolve().parent.parent / "server/hcljson_ls/terraform/data/backends.json"
    target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
