"""Built-in functions of Terraform and OpenTofu: signatures, descriptions, argument counts, and
did-you-mean suggestions, for hover, signature help, completion and call diagnostics.

    ENGINES                                   ("terraform", "opentofu"); the engine arguments below
                                              also take None: either engine (the union)
    Parameter(name, type, nullable)
    Function(name, parameters, variadic, return_type, description, engines, count_limits=None)
        .min_args / .max_args                 argument counts without expansion (max None: unbounded)
    lookup(name, engine) -> Function | None   `upper`, `core::upper`; `provider::...` -> None
    names(engine) -> tuple[str, ...]          the engine's built-in functions, sorted, bare names
    signature(fn) -> str                      `format(format string, args... any) string`
    parameter_at(fn, index) -> Parameter | None   the parameter argument `index` (0-based) fills
    accepts(fn, count, expands=False) -> bool whether a call with `count` arguments can be valid
    closest(name, engine) -> str | None       did-you-mean: the known name `name` most likely means
    is_provider_function(name) -> bool        `provider::NAME::FUNCTION` (not a built-in)
    provider_function_parts(name) -> (NAME, FUNCTION) | None   also OpenTofu's `provider::NAME::ALIAS::FUNCTION`
    engine_version(engine) -> str             the version the data describes ("1.16", "1.11")

Data
----
`terraform/data/functions.json`, shipped in the package and read once, on first use. It is generated
by `tools/build_functions.py` from the signature files of Terraform 1.16 and OpenTofu 1.11 (the
shape of `terraform metadata functions -json`; see the shared data's SOURCES.md) and from our own
one-sentence descriptions (`tools/function_descriptions.json`). Do not edit it by hand; a test
checks that it is what the script builds.

Contract
--------
* Names are case-sensitive, as in Terraform (`Upper(...)` is unknown; `closest` suggests `upper`).
* `core::NAME` is an alias of every built-in `NAME` in both engines (Terraform and OpenTofu both
  accept the `core::` namespace since provider-defined functions exist; OpenTofu's signature file
  lists the aliases, Terraform's generator filters them out). `lookup` resolves the alias and
  returns the function under its bare name; `names` lists bare names only. Any other `::` name is
  not a built-in: `provider::aws::arn_parse` and `core::provider::x` give None.
* Per engine: `lookup(name, "terraform")` is Terraform's signature. Where the engines differ
  (`contains`: nullability; `templatestring`: a parameter name and the return type) the engines get
  different `Function` values. `Function.engines` lists every engine that has a function of that
  name, whatever its signature: `lookup("urldecode", "opentofu").engines == ("opentofu",)`, which
  lets a diagnostic say "only in OpenTofu". With `engine=None` a name is known if either engine has
  it, and the first engine of `ENGINES` that has it gives the signature.
* Types are rendered by `ctytypes.render_type` (HCL type constraint syntax; cty's dynamic
  pseudo-type is `any`): `list(string)`, `map(any)`, `set(any)`. `signature` marks the variadic
  parameter `name...`; nullability is data (`Parameter.nullable`), not rendered.
* Argument counts: a call without expansion passes `min_args <= count <= max_args` arguments. These
  follow the signature (the fixed parameters, then any number for a variadic one) narrowed by
  `count_limits` where the implementation checks more (`lookup` takes 2 or 3 arguments, `bcrypt`
  1 or 2, `range` 1 to 3; `min`, `max`, `concat`, `try` at least 1, `join` and `setproduct` at
  least 2: see `COUNT_LIMITS` in the generator). Expansion (`f(a, list...)`) is `accepts`'s business.
* Caveats of the source data: argument kinds the format cannot express appear as `any`: the type
  expression of `convert(value, type)` and the unevaluated expressions of `can` and `try`. Many
  return types are `any` because they depend on the arguments.
* An unknown engine name raises `ValueError` (a programming error, not a user error).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from ...hcljson.similar import close_match
from .ctytypes import render_type

__all__ = [
    "ENGINES", "TERRAFORM", "OPENTOFU", "Parameter", "Function", "lookup", "names", "signature",
    "parameter_at", "accepts", "closest", "is_provider_function", "provider_function_parts", "engine_version",
]

TERRAFORM = "terraform"
OPENTOFU = "opentofu"
#: The engines the data describes, in display order.
ENGINES = (TERRAFORM, OPENTOFU)

_DATA = "data/functions.json"
_PROVIDER_PREFIX = "provider::"


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    type: str  # HCL type syntax (`ctytypes.render_type`): "string", "list(any)", ...
    nullable: bool  # whether the function accepts null for it (else null is an error)


@dataclass(frozen=True, slots=True)
class Function:
    name: str  # the bare name, also when looked up as `core::NAME`
    parameters: tuple[Parameter, ...]  # the fixed parameters, all required
    variadic: Parameter | None  # the parameter taking any number (0 or more) of further arguments
    return_type: str  # HCL type syntax; `any` when it depends on the arguments
    description: str  # one sentence, ending with a period
    engines: tuple[str, ...]  # every engine with a function of this name (ENGINES order)
    # (min, max or None): argument counts the implementation enforces beyond the signature (a
    # variadic parameter taking at most one value, or at least one); None: the signature's alone.
    count_limits: tuple[int, int | None] | None = None

    @property
    def min_args(self) -> int:
        """The fewest arguments a call without `...` expansion may pass."""
        fixed = len(self.parameters)
        return fixed if self.count_limits is None else max(fixed, self.count_limits[0])

    @property
    def max_args(self) -> int | None:
        """The most arguments a call without `...` expansion may pass; None when unbounded."""
        if self.variadic is None:
            return len(self.parameters)
        return None if self.count_limits is None else self.count_limits[1]


@dataclass(frozen=True, slots=True)
class _Engine:
    version: str
    alias_prefix: str  # "core::": every function also answers to PREFIX + NAME ("" for none)
    functions: Mapping[str, Function]
    names: tuple[str, ...]
    folded: Mapping[str, str]  # lowercased name -> name


def _parameter(raw: dict) -> Parameter:
    return Parameter(raw["name"], render_type(raw["type"]), bool(raw["nullable"]))


@cache
def _engines() -> Mapping[str, _Engine]:
    """The packaged data, read and indexed once."""
    text = resources.files("hcljson_ls.terraform").joinpath(_DATA).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("format_version") != 1:
        raise RuntimeError(f"{_DATA}: unsupported format_version {data.get('format_version')!r}")
    tables: dict[str, dict[str, Function]] = {engine: {} for engine in ENGINES}
    for name, entry in data["functions"].items():
        having = tuple(e for e in ENGINES if any(e in s["engines"] for s in entry["signatures"]))
        count = entry.get("argument_count")
        limits = (count["min"], count["max"]) if count is not None else None
        for sig in entry["signatures"]:
            variadic = sig["variadic"]
            fn = Function(
                name=name,
                parameters=tuple(_parameter(p) for p in sig["parameters"]),
                variadic=_parameter(variadic) if variadic is not None else None,
                return_type=render_type(sig["return_type"]),
                description=entry["description"],
                engines=having,
                count_limits=limits,
            )
            for engine in sig["engines"]:
                if engine in tables:
                    tables[engine][name] = fn
    engines = {}
    for engine in ENGINES:
        info = data["engines"][engine]
        table = tables[engine]
        ordered = tuple(sorted(table))
        engines[engine] = _Engine(
            version=info["version"],
            alias_prefix=info.get("alias_prefix") or "",
            functions=MappingProxyType(table),
            names=ordered,
            folded=MappingProxyType({n.lower(): n for n in ordered}),
        )
    return MappingProxyType(engines)


def _selected(engine: str | None) -> tuple[_Engine, ...]:
    if engine is None:
        return tuple(_engines().values())
    found = _engines().get(engine)
    if found is None:
        raise ValueError(f"unknown engine {engine!r} (expected one of {ENGINES} or None)")
    return (found,)


def _bare(name: str, engine: _Engine) -> str | None:
    """`name` without the engine's alias prefix; None for any other namespaced name."""
    if "::" not in name:
        return name
    prefix = engine.alias_prefix
    if prefix and name.startswith(prefix) and "::" not in name[len(prefix):]:
        return name[len(prefix):]
    return None


def is_provider_function(name: str) -> bool:
    """True for a provider-defined function (`provider::NAME::FUNCTION`): not a built-in; its
    signature comes from the provider's schema."""
    return name.startswith(_PROVIDER_PREFIX)


def provider_function_parts(name: str) -> tuple[str, str] | None:
    """The provider's local name and the function's name of `provider::NAME::FUNCTION` (and of
    OpenTofu's `provider::NAME::ALIAS::FUNCTION`); None for any other name."""
    parts = name.split("::")
    if parts[0] != "provider" or len(parts) not in (3, 4) or not all(parts[1:]):
        return None
    return parts[1], parts[-1]


def lookup(name: str, engine: str | None) -> Function | None:
    """The built-in function `name` (or `core::name`) of `engine`, or None when it has none."""
    for table in _selected(engine):
        bare = _bare(name, table)
        if bare is not None and (fn := table.functions.get(bare)) is not None:
            return fn
    return None


def names(engine: str | None) -> tuple[str, ...]:
    """The bare names of the engine's built-in functions (both engines' for None), sorted."""
    selected = _selected(engine)
    if len(selected) == 1:
        return selected[0].names
    return tuple(sorted(set().union(*(t.names for t in selected))))


def engine_version(engine: str) -> str:
    """The version of `engine` the data describes (`"1.16"` for Terraform)."""
    if engine is None:
        raise ValueError("engine_version needs an engine")
    return _selected(engine)[0].version


def signature(fn: Function) -> str:
    """`fn` as one line: `name(param type, ..., variadic... type) return_type`."""
    parts = [f"{p.name} {p.type}" for p in fn.parameters]
    if fn.variadic is not None:
        parts.append(f"{fn.variadic.name}... {fn.variadic.type}")
    return f"{fn.name}({', '.join(parts)}) {fn.return_type}"


def parameter_at(fn: Function, index: int) -> Parameter | None:
    """The parameter that argument `index` (0-based, before any expansion) fills: a fixed one, else
    the variadic one; None past the last parameter of a function that is not variadic."""
    if index < 0:
        return None
    if index < len(fn.parameters):
        return fn.parameters[index]
    return fn.variadic


def accepts(fn: Function, count: int, expands: bool = False) -> bool:
    """Whether a call of `fn` with `count` argument expressions can have the right number of
    arguments: `fn.min_args <= count <= fn.max_args`. `expands`: the last of them is expanded
    (`f(a, list...)`), as HCL allows for any function, variadic or not: its elements, zero or more,
    become the final arguments, so the call passes `count - 1` arguments or more, and the list's
    length is known only when the configuration is evaluated. Such a call needs at least the one
    argument to expand, and no more than `max_args + 1` expressions: `upper(["a"]...)` and
    `upper("a", xs...)` (if `xs` is empty) can be fine, `upper("a", "b", xs...)` cannot."""
    if count < 0:
        return False
    high = fn.max_args
    if expands:
        return count >= 1 and (high is None or count - 1 <= high)
    return fn.min_args <= count and (high is None or count <= high)


def closest(name: str, engine: str | None) -> str | None:
    """The known name `name` most likely means: `name` itself when it is known; else the name equal
    to it but for case (`Upper` -> `upper`); else the most similar name as `difflib` finds it (cutoff 0.6,
    compared case-insensitively), or None. The alias prefix is kept (`core::uper` ->
    `core::upper`); provider functions and other namespaced names give None."""
    if not name:
        return None
    selected = _selected(engine)
    prefix = ""
    bare = name
    if "::" in name:
        resolved = [(t.alias_prefix, b) for t in selected if (b := _bare(name, t)) is not None]
        if not resolved:
            return None
        prefix, bare = resolved[0]
        if not bare:
            return None
    known = names(engine)
    if bare in known:
        return prefix + bare
    folded: dict[str, str] = {}
    for table in selected:
        for low, real in table.folded.items():
            folded.setdefault(low, real)
    low = bare.lower()
    if low in folded:
        return prefix + folded[low]
    match = close_match(low, list(folded), 0.6)
    return prefix + folded[match] if match is not None else None
