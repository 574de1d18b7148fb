#!/usr/bin/env python3
"""Rebuild `server/hcljson_ls/terraform/data/functions.json`, the built-in function signatures the
package ships, from the signature files in `tests/data/functions` and our own descriptions.

    python tools/build_functions.py            # write the packaged file
    python tools/build_functions.py --check    # exit 1 if the packaged file is out of date
    python tools/build_functions.py --functions DIR   # signature files from another directory

Inputs
    tests/data/functions/<engine file>      `terraform metadata functions -json` shape, descriptions
                                            removed (see its SOURCES.md); one per engine in ENGINES
    tools/function_descriptions.json        NAME -> one sentence, written by us (never copied from
                                            the Terraform or OpenTofu documentation)

To add an engine version: put its signature file in tests/data/functions, change ENGINES, describe
its new functions in function_descriptions.json, run this script, and commit the packaged file.
The build fails when a function has no description, when a description is left over for a
function no engine has, or when a namespaced name is not an exact alias of its bare function.

Output (format_version 1; read by `hcljson_ls.terraform.definition.functions`)
    {"format_version": 1, "generated_by": ...,
     "engines": {ENGINE: {"version", "source", "alias_prefix"}},
     "functions": {NAME: {"description", "signatures": [
         {"engines": [...], "parameters": [{"name", "type", "nullable"}], "variadic": PARAM | null,
          "return_type": TYPE}],
         "argument_count": {"min", "max"}}}}   (only where COUNT_LIMITS narrows the signature)
Types stay in cty's JSON encoding. A function has one signature per distinct shape: engines that
agree share it (most functions), engines that differ get their own (`contains`, `templatestring`).
`alias_prefix` is the alias rule: every function of that engine also answers to PREFIX + NAME.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUTPUT = REPO / "server" / "hcljson_ls" / "terraform" / "data" / "functions.json"
DESCRIPTIONS = REPO / "tools" / "function_descriptions.json"
#: The signature files (with their SOURCES.md).
FUNCTIONS = REPO / "tests" / "data" / "functions"

#: (engine, version, signature file in FUNCTIONS, alias prefix), in display order.
#: Both engines also call every built-in function `core::NAME` (since provider functions came in).
#: OpenTofu's file lists those aliases (each checked to equal its bare entry); terraform-schema's
#: generator filters Terraform's out of the real `terraform metadata functions -json` output.
ENGINES = (
    ("terraform", "1.16", "terraform-1.16.json", "core::"),
    ("opentofu", "1.11", "opentofu-1.11.json", "core::"),
)

#: Argument counts the implementations enforce beyond what the signature says (a variadic parameter
#: that takes at most one value, or needs at least one): NAME -> (min, max or None), for calls of
#: every engine having NAME. Read from the function sources both engines share: go-cty's stdlib,
#: hcl's ext/tryfunc, Terraform's and OpenTofu's lang/funcs (their error messages quoted).
COUNT_LIMITS = {
    "bcrypt": (1, 2),  # "bcrypt() takes no more than two arguments"
    "concat": (1, None),  # "at least one argument is required"
    "join": (2, None),  # "at least one list is required"
    "lookup": (2, 3),  # "lookup() takes two or three arguments"
    "max": (1, None),  # "must pass at least one number"
    "min": (1, None),  # "must pass at least one number"
    "range": (1, 3),  # "must have one, two, or three arguments"
    "setproduct": (2, None),  # "at least two arguments are required"
    "try": (1, None),  # "at least one argument is required"
}

FORMAT_VERSION = 1


class BuildError(Exception):
    """The inputs do not make a consistent packaged file."""


def _parameter(raw: dict, where: str) -> dict:
    unknown = set(raw) - {"name", "type", "is_nullable", "description"}
    if unknown or "name" not in raw or "type" not in raw:
        raise BuildError(f"{where}: unexpected parameter {raw!r}")
    return {"name": raw["name"], "type": raw["type"], "nullable": bool(raw.get("is_nullable", False))}


def _signature(raw: dict, where: str) -> dict:
    unknown = set(raw) - {"return_type", "parameters", "variadic_parameter", "description", "summary"}
    if unknown or "return_type" not in raw:
        raise BuildError(f"{where}: unexpected signature keys {sorted(unknown)}")
    variadic = raw.get("variadic_parameter")
    return {
        "parameters": [_parameter(p, where) for p in raw.get("parameters", [])],
        "variadic": _parameter(variadic, where) if variadic is not None else None,
        "return_type": raw["return_type"],
    }


def read_engine(path: Path, alias_prefix: str) -> dict[str, dict]:
    """NAME -> signature of one engine's file; its namespaced entries must be exact aliases."""
    data = json.loads(path.read_text(encoding="utf-8"))
    raw = data["function_signatures"]
    bare = {name: _signature(sig, f"{path.name}: {name}") for name, sig in raw.items() if "::" not in name}
    aliased = {name for name in raw if "::" in name}
    for name in sorted(aliased):
        target = name[len(alias_prefix):] if name.startswith(alias_prefix) else None
        if target is None or target not in bare:
            raise BuildError(f"{path.name}: {name} is not {alias_prefix}NAME for a function of the file")
        if _signature(raw[name], f"{path.name}: {name}") != bare[target]:
            raise BuildError(f"{path.name}: {name} differs from {target}")
    if aliased and len(aliased) != len(bare):
        missing = sorted(set(bare) - {n[len(alias_prefix):] for n in aliased})
        raise BuildError(f"{path.name}: the alias rule {alias_prefix}NAME does not hold for {missing}")
    return bare


def build(folder: Path = FUNCTIONS, descriptions_path: Path = DESCRIPTIONS) -> str:
    """The packaged file's text, built from the signature files in `folder` and the descriptions."""
    per_engine = {engine: read_engine(folder / file, prefix) for engine, _, file, prefix in ENGINES}
    descriptions = json.loads(descriptions_path.read_text(encoding="utf-8"))

    names = sorted(set().union(*per_engine.values()))
    missing = [n for n in names if not descriptions.get(n, "").strip()]
    if missing:
        raise BuildError(f"no description in {descriptions_path.name} for: {', '.join(missing)}")
    unknown = sorted(set(COUNT_LIMITS) - set(names))
    if unknown:
        raise BuildError(f"COUNT_LIMITS names functions no engine has: {', '.join(unknown)}")
    stale = sorted(set(descriptions) - set(names))
    if stale:
        raise BuildError(f"descriptions of functions no engine has: {', '.join(stale)}")
    for name in names:
        text = descriptions[name]
        if "\n" in text or text != text.strip() or not text.endswith(".") or not text[0].isupper():
            raise BuildError(f"{name}: a description is one sentence, capitalized, ending with a period")

    functions = {}
    for name in names:
        signatures: list[dict] = []
        for engine, *_ in ENGINES:
            sig = per_engine[engine].get(name)
            if sig is None:
                continue
            for known in signatures:
                if {k: v for k, v in known.items() if k != "engines"} == sig:
                    known["engines"].append(engine)
                    break
            else:
                signatures.append({"engines": [engine], **sig})
        entry = {"description": descriptions[name], "signatures": signatures}
        if name in COUNT_LIMITS:
            low, high = COUNT_LIMITS[name]
            for sig in signatures:
                fixed = len(sig["parameters"])
                if sig["variadic"] is None or low < fixed or (high is not None and high < max(low, fixed)):
                    raise BuildError(f"{name}: the count limits {COUNT_LIMITS[name]} do not fit its signature")
            entry["argument_count"] = {"min": low, "max": high}
        functions[name] = entry

    document = {
        "format_version": FORMAT_VERSION,
        "generated_by": "tools/build_functions.py from the tests/data/functions files and "
        "tools/function_descriptions.json; do not edit",
        "engines": {
            engine: {"version": version, "source": file, "alias_prefix": prefix}
            for engine, version, file, prefix in ENGINES
        },
        "functions": functions,
    }
    return _dump(document)


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _dump(document: dict) -> str:
    """JSON with one line per engine and per signature (readable, and small diffs between versions)."""

    def block(items: list[str], indent: str) -> str:
        return ",\n".join(indent + item for item in items)

    engines = [f"{_compact(k)}: {_compact(v)}" for k, v in document["engines"].items()]
    functions = []
    for name, entry in document["functions"].items():
        signatures = block([_compact(s) for s in entry["signatures"]], "    ")
        count = f"   \"argument_count\": {_compact(entry['argument_count'])},\n" if "argument_count" in entry else ""
        functions.append(
            f"{_compact(name)}: {{\n   \"description\": {_compact(entry['description'])},\n{count}"
            f"   \"signatures\": [\n{signatures}\n   ]\n  }}"
        )
    text = (
        "{\n"
        f" \"format_version\": {_compact(document['format_version'])},\n"
        f" \"generated_by\": {_compact(document['generated_by'])},\n"
        f" \"engines\": {{\n{block(engines, '  ')}\n }},\n"
        f" \"functions\": {{\n{block(functions, '  ')}\n }}\n"
        "}\n"
    )
    if json.loads(text) != document:  # the layout must not change the content
        raise BuildError("internal error: the hand-laid-out JSON differs from the document")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--functions", type=Path, default=FUNCTIONS, help="the directory of the signature files")
    parser.add_argument("--check", action="store_true", help="only check that the packaged file is up to date")
    args = parser.parse_args(argv)
    try:
        text = build(args.functions)
    except (BuildError, OSError, KeyError, ValueError) as error:
        print(f"build_functions: {error}", file=sys.stderr)
        return 2
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    if args.check:
        if current != text:
            print(f"build_functions: {OUTPUT.relative_to(REPO)} is out of date; run tools/build_functions.py",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {OUTPUT.relative_to(REPO)} ({len(json.loads(text)['functions'])} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
