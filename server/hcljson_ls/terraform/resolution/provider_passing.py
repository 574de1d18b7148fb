"""What a module call's provider configurations must satisfy, as `terraform validate` checks them
(Terraform's configs/provider_validation.go), reported at the call in the calling file.

    CONFIGURED                                       the kind of a provider block's fact "it has content"
    ChildProviders                                   what a caller needs to know of its child's providers
    child_providers(keys, sources, engine) -> ChildProviders    from the child's definition keys
    caller_providers(keys, sources, engine) -> CallerProviders  this module's side, from its keys
    passing_diagnostics(block, name, text, child, caller) -> list[Diagnostic]

Contract
--------
* A `provider` block declares, besides `("provider", local, alias)`, the fact `(CONFIGURED, local,
  alias)` when it holds a configuration: a member other than `alias`, `version`, `for_each` and
  `"//"`, or a `version` that is not null (`validate.definitions`, `native`); and a block with
  `for_each` (OpenTofu's instances: they are configured there, never passed by a caller). A block
  with nothing else is an empty ("proxy") block: Terraform does not count it as a configuration.
* `ChildProviders` is read from the child's definition keys: its configured and empty blocks by
  name (`aws`, `aws.west`), its `required_providers` names with their addresses, its
  `configuration_aliases` (`aws.east`), and `legacy`: the modules at or below it, through calls
  with a literal local source, that hold a configuration (`(path below the call, source)`; filled
  by the scope, which can read the modules below: `workspace.scope.ModuleScope.module_providers`).
* `passing_diagnostics` checks module call `block` (named `name`) against `child` and `caller`
  (this module's `CallerProviders`: its `required_providers` addresses and configured names):
  - `module/legacy-provider-configuration` (error): the call sets `count`, `for_each` or
    `depends_on` (in that order of precedence) and a module in `child.legacy` holds a provider
    configuration: one per such module, on that argument's value (`depends_on`: its first
    element's address).
  - `module/provider-override` (error): an entry of the call's `providers` map sets a
    configuration the child configures itself: on the entry's key.
  - `module/missing-provider-configuration` (error): a `configuration_aliases` entry of the child
    that the child does not configure and the map does not set: on the call body's `{`, with a
    quick fix passing it this module's default configuration of that provider.
  - `module/undeclared-provider-name` (warning): an entry whose key the child declares nowhere
    (`required_providers`, `configuration_aliases`, an empty block), on the key; or an entry whose
    value has no alias and names neither a `required_providers` entry of this module nor a
    configured block of it, on the value. Terraform then assumes `hashicorp/<name>`.
  - `module/provider-type-mismatch` (error): the entry's two sides name different providers (the
    child's by its `configuration_aliases` or `required_providers` entry of the key, else of the
    key's local name, else `hashicorp/<name>`; this module's by its `required_providers` entry
    named as the key, else as the value's local name, else `hashicorp/<name>`, as Terraform looks
    them up; an address on one public registry is taken to be the same on the other): on the key
    when the child knows that provider under another name, else on the value.
  A key's, a value's or an address's range is the name inside its quotes, where the text is
  (Terraform's starts one column left, at the quote, as for every address read from a JSON string:
  docs/conformance.md). Entries that are not plain `name` or `name.alias` strings are left to
  other rules.
* Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...diagnostic import ERROR, WARNING, Diagnostic, Fix
from ...hcljson.model import Block
from ...hcljson.values import defined_at, quoted
from ...jsonsyntax.tree import ARRAY, NULL, OBJECT, STRING
from ..schemas.provider_lookup import passed_configurations
from ..schemas.provider_schema import TERRAFORM, normalize_address

__all__ = [
    "CONFIGURED",
    "LEGACY",
    "MISSING",
    "MISMATCH",
    "OVERRIDE",
    "UNDECLARED_NAME",
    "CallerProviders",
    "ChildProviders",
    "caller_providers",
    "child_providers",
    "passing_diagnostics",
]

#: The kind of the fact `(CONFIGURED, local, alias)` of a `provider` block that holds a configuration.
CONFIGURED = "provider-configured"

LEGACY = "module/legacy-provider-configuration"
OVERRIDE = "module/provider-override"
MISSING = "module/missing-provider-configuration"
UNDECLARED_NAME = "module/undeclared-provider-name"
MISMATCH = "module/provider-type-mismatch"

#: The members of a `provider` block that are no configuration (`CONFIGURED`).
META = frozenset({"alias", "version", "for_each"})


@dataclass(frozen=True, slots=True)
class ChildProviders:
    """What a caller needs to know of its child's provider configurations (see the module doc)."""

    configured: frozenset[str] = frozenset()
    empty: frozenset[str] = frozenset()
    local_names: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    legacy: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CallerProviders:
    """This module's side of its calls: `required_providers` addresses by name, configured names."""

    local_names: Mapping[str, str]
    configured: frozenset[str]


def _name(local: str, alias: str | None) -> str:
    return local if alias is None else f"{local}.{alias}"


def default_address(local: str, engine: str = TERRAFORM) -> str:
    """The provider Terraform assumes for a local name nothing declares (`hashicorp/<name>`, even
    for `terraform`: the built-in provider must be required by its source to be passed)."""
    try:
        return normalize_address(f"hashicorp/{local}", engine)
    except ValueError:
        return local


def addresses(names: Iterable[str], sources: Mapping[str, str], engine: str = TERRAFORM) -> dict[str, str]:
    """Name -> address of the `required_providers` names `names`: the source `sources` gives it
    (`resolve.provider_sources`, which lets a source win over an entry without one), else the
    default (`default_address`), as for a source that is no address."""
    out: dict[str, str] = {}
    for name in names:
        source = sources.get(name)
        try:
            out[name] = normalize_address(source, engine) if source else default_address(name, engine)
        except ValueError:
            out[name] = default_address(name, engine)
    return out


def configured_names(keys: Iterable[tuple]) -> frozenset[str]:
    """The names (`aws`, `aws.west`) of the `CONFIGURED` facts among `keys`."""
    return frozenset(_name(k[1], k[2]) for k in keys if k[0] == CONFIGURED)


def caller_providers(keys: Iterable[tuple], sources: Mapping[str, str], engine: str = TERRAFORM) -> CallerProviders:
    """`CallerProviders` of a module whose definition keys (its `provider-requirement` and
    `CONFIGURED` ones at least) are `keys`, its `required_providers` sources `sources`."""
    keys = list(keys)
    return CallerProviders(addresses({k[1] for k in keys if k[0] == _REQUIREMENT}, sources, engine), configured_names(keys))


def child_providers(keys: Iterable[tuple], sources: Mapping[str, str], engine: str = TERRAFORM,
                    legacy: tuple[tuple[str, str], ...] = ()) -> ChildProviders:
    """`ChildProviders` of a module whose definition keys are `keys`, its `required_providers`
    sources `sources` (its `legacy` given)."""
    keys = list(keys)
    configured = configured_names(keys)
    blocks = {_name(k[1], k[2]) for k in keys if k[0] == "provider"}
    local_names = addresses({k[1] for k in keys if k[0] == _REQUIREMENT}, sources, engine)
    aliases = {_name(k[1], k[2]): local_names.get(k[1]) or default_address(k[1], engine)
               for k in keys if k[0] == "provider-alias"}
    return ChildProviders(configured, frozenset(blocks - configured), local_names, aliases, legacy)


_REQUIREMENT = "provider-requirement"


def passing_diagnostics(block: Block, name: str, text: str, child: ChildProviders, caller: CallerProviders,
                        engine: str = TERRAFORM) -> list[Diagnostic]:
    """The diagnostics of module call `block` (see the module doc), in source order."""
    out: list[Diagnostic] = []
    if child.legacy:
        at = _repetition_range(block, text)
        if at is not None:
            for path, source in child.legacy:
                where = f"called {quoted(name)}" if not path else f"{path} below the call {quoted(name)}"
                out.append(Diagnostic(
                    at[0], at[1], ERROR, LEGACY, "Module is incompatible with count, for_each, and depends_on",
                    f"The module {where} (source {quoted(source)}) holds its own provider configuration, so a call "
                    "to it may not use count, for_each or depends_on. If you control that module, have it take "
                    "its provider configurations from its callers instead (its required_providers, and a "
                    "\"providers\" map in the call).",
                ))
    entries = [(_name(*fact[2:4]), _inside(key_at), _name(*fact[4:6]), _inside(value_at))
               for fact, key_at, value_at in passed_configurations(block, name, text)]
    passed = {key for key, _, _, _ in entries}
    for key, key_at, value, value_at in entries:
        out.extend(_entry(name, key, key_at, value, value_at, child, caller, engine))
    for alias, address in sorted(child.aliases.items()):
        if alias not in child.configured and alias not in passed:
            h = defined_at(text, block.header_range)
            out.append(Diagnostic(
                h[0], h[1], ERROR, MISSING, "Missing required provider configuration",
                f"The module called {quoted(name)} requires an additional configuration for provider {address} "
                f"with the local name {quoted(alias)} (its configuration_aliases), and this call does not pass one. "
                f"Add an entry for {quoted(alias)} to the call's \"providers\" map.",
                fixes=_pass_fix(block, alias),
            ))
    out.sort(key=lambda d: (d.start, d.end))
    return out


def _pass_fix(block: Block, alias: str) -> tuple[Fix, ...]:
    """A quick fix passing `alias` (`aws.east`) this module's default configuration of that provider
    (`"aws.east": "aws"`, for the user to change): an entry of the call's `providers` object, or
    that argument; none when `providers` is there but no object."""
    local = alias.partition(".")[0]
    entry = f"{json.dumps(alias)}: {json.dumps(local)}"
    title = f"Pass {quoted(alias)} this module's {quoted(local)}"
    providers = block.body.attribute("providers")
    if providers is None:
        node = block.body.node
        more = ", " if node is not None and getattr(node, "items", None) else ""
        return (Fix(block.body.start + 1, block.body.start + 1, f'"providers": {{{entry}}}{more}', title),)
    e = providers.expr
    if e is None or e.kind != OBJECT:
        return ()
    more = ", " if e.node.items else ""  # type: ignore[attr-defined]
    return (Fix(e.start + 1, e.start + 1, entry + more, title),)


def _entry(name: str, key: str, key_at: tuple[int, int], value: str, value_at: tuple[int, int],
           child: ChildProviders, caller: CallerProviders, engine: str) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    value_local, _, value_alias = value.partition(".")
    key_local = key.partition(".")[0]
    if not value_alias and value not in caller.configured and value not in caller.local_names:
        assumed = default_address(value, engine)
        out.append(Diagnostic(
            value_at[0], value_at[1], WARNING, UNDECLARED_NAME, "Reference to undefined provider",
            f"This module declares no provider with the local name {quoted(value)} (no required_providers entry, "
            f"no provider block with a configuration), so Terraform assumes {quoted(assumed)}. Add a "
            f"required_providers entry named {quoted(value)} with the source you mean.",
        ))
    if key in child.configured:
        out.append(Diagnostic(
            key_at[0], key_at[1], ERROR, OVERRIDE, "Cannot override provider configuration",
            f"The module called {quoted(name)} has its own configuration for {quoted(key)}, so it cannot accept "
            "one passed by this call.",
        ))
    child_address = (child.aliases.get(key) or child.local_names.get(key) or child.local_names.get(key_local)
                     or default_address(key_local, engine))
    if key not in child.local_names and key not in child.aliases and key not in child.empty:
        out.append(Diagnostic(
            key_at[0], key_at[1], WARNING, UNDECLARED_NAME, "Reference to undefined provider",
            f"The module called {quoted(name)} declares no provider with the local name {quoted(key)}, so Terraform "
            f"assumes this passes a configuration for {quoted(child_address)}. If you control that module, add a "
            f"required_providers entry named {quoted(key)} with that source.",
        ))
    parent_address = caller.local_names.get(key) or caller.local_names.get(value_local) or default_address(value_local, engine)
    if _comparable(child_address) != _comparable(parent_address):
        other = next((n for n, a in sorted(child.local_names.items()) if a == parent_address), None)
        at = key_at if other is not None else value_at
        hint = f" Pass it under the child's name {quoted(other)} instead." if other is not None else ""
        out.append(Diagnostic(
            at[0], at[1], ERROR, MISMATCH, "Provider type mismatch",
            f"{quoted(value)} in this module is provider {quoted(parent_address)}, but {quoted(key)} in the module "
            f"called {quoted(name)} is {quoted(child_address)}: a configuration of one provider cannot serve "
            f"another.{hint}",
        ))
    return out


#: The public registries' hosts: an address on one is taken to name the provider on the other (an
#: OpenTofu module may name a provider by its registry.terraform.io address), so no mismatch is said.
_REGISTRIES = ("registry.terraform.io/", "registry.opentofu.org/")


def _comparable(address: str) -> str:
    for host in _REGISTRIES:
        if address.startswith(host):
            return address[len(host):]
    return address


def _inside(span: tuple[int, int]) -> tuple[int, int]:
    """The name a JSON string at `span` holds: inside its quotes, where the text is (Terraform's
    range for it starts one column left, at the opening quote: hcl reads the value from the
    string's start; docs/conformance.md, "same range")."""
    return (span[0] + 1, span[1] - 1)


def _repetition_range(block: Block, text: str) -> tuple[int, int] | None:
    """The range Terraform reports a legacy module at: `count`'s value, else `for_each`'s, else the
    address of `depends_on`'s first element (`_inside`; an empty list: the body's `{`),
    else None."""
    body = block.body
    for meta in ("count", "for_each"):
        a = body.attribute(meta)
        if a is not None and a.expr is not None:
            return (a.expr.start, a.expr.end)
    a = body.attribute("depends_on")
    if a is None or a.expr is None or a.expr.kind == NULL:
        return None
    if a.expr.kind != ARRAY:
        return (a.expr.start, a.expr.end)
    items = [m.value for m in a.expr.node.items if m.value is not None]  # type: ignore[attr-defined]
    if not items:
        return defined_at(text, block.header_range)
    first = items[0]
    at = (a.expr.start + first.start, a.expr.start + first.end)
    return _inside(at) if first.kind == STRING else at
