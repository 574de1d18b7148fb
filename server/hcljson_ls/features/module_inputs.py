"""The inputs of a module call, read from the module it calls: completion, hover and definition.

    inputs(snapshot, uri, call) -> dict[str, Input]             what the child of call `call` declares
    completions(snapshot, uri, ctx, have) -> [Input]            the child's inputs a call body lacks
    hover(snapshot, uri, offset) -> (markdown, start, end) | None
    definition(snapshot, uri, offset) -> [(uri, start, end)]

Contract
--------
* A module call is a top-level `module` block of a configuration file; its inputs are the
  arguments that are not meta-arguments (`catalogue.MODULE_META_ARGUMENTS`), and every argument of
  its escaping block `"_"` (`catalogue.ESCAPING_BLOCK`). Its child is the
  directory `Snapshot.module_call_child` finds: a local `source`, or where `terraform init`
  installed it (`.terraform/modules/modules.json`). Nothing is answered when the child is unknown.
* An input is a `variable` of the child (`Snapshot.child_variables`), with its type as written,
  whether a caller must set it (no default), its default as written, its description, and the
  place of its declaration (JSON or native; `features.tfvars.module_variables` reads them).
* Completion offers the inputs the call does not set yet, required ones first; hover on an input's
  key says what the variable is and where it is declared (its path from the workspace folder);
  definition goes to the declaration. References and rename from the child's variable include the
  callers' inputs (`features.navigation`).
* Never raises on odd input: an unknown document, offset or child gives None / [] / {}.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hcljson.locate import ARGUMENT_NAME, UNKNOWN_NAME, Context, locate
from ..terraform.definition import catalogue
from ..workspace import Snapshot
from .tfvars import module_variables


@dataclass(frozen=True, slots=True)
class Input:
    """One input of a module call: the child's variable `name`, its type as written ("" for any
    value), whether the call must set it, its default as written (None without one), its
    description, and where it is declared (`(uri, start, end)`, or None)."""

    name: str
    type: str
    required: bool
    default: str | None
    description: str
    site: tuple[str, int, int] | None


def inputs(snapshot: Snapshot, uri: str, call: str) -> dict[str, Input]:
    """name -> `Input` for module call `call` of the module of `uri` ({} when its child is unknown)."""
    directory = snapshot.module_call_child(uri, call)
    if directory is None:
        return {}
    variables = snapshot.child_variables(directory)
    site_uri = next((site[0] for _, site in variables if site is not None), None)
    details = module_variables(snapshot, site_uri) if site_uri is not None else {}
    out = {}
    for v, site in variables:
        d = details.get(v.name)
        out[v.name] = Input(v.name, v.type, v.required, d.default if d is not None else None,
                            d.description if d is not None else "", site)
    return out


def call_of(ctx: Context) -> str | None:
    """The name of the module call whose body a located offset is directly in (or in the call's
    escaping block `"_"`, whose arguments are inputs too), or None."""
    blocks = ctx.blocks
    escaped = len(blocks) == 2 and blocks[1].type_name == catalogue.ESCAPING_BLOCK
    if not (len(blocks) == 1 or escaped) or blocks[0].type_name != "module" or not blocks[0].labels:
        return None
    return blocks[0].labels[0].value


def completions(snapshot: Snapshot, uri: str, ctx: Context, have: set[str]) -> list[Input]:
    """The inputs of the call the located `ctx` is in that it does not set (`have`), required ones
    first, then by name."""
    call = call_of(ctx)
    if call is None:
        return []
    found = [i for name, i in inputs(snapshot, uri, call).items() if name not in have]
    return sorted(found, key=lambda i: (not i.required, i.name))


def _input_at(snapshot: Snapshot, uri: str, offset: int) -> tuple[Input, int, int] | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    ctx = locate(state.text, state.analysis.body, offset)
    call = call_of(ctx)
    if call is None or ctx.kind not in (ARGUMENT_NAME, UNKNOWN_NAME) or ctx.name is None or ctx.name_range is None:
        return None
    if (ctx.name in catalogue.MODULE_META_ARGUMENTS and len(ctx.blocks) == 1) or ctx.name == "//":
        return None  # (a meta-argument, but in the escaping block: an input)
    found = inputs(snapshot, uri, call).get(ctx.name)
    return (found, *ctx.name_range) if found is not None else None


def hover(snapshot: Snapshot, uri: str, offset: int) -> tuple[str, int, int] | None:
    """On an input's key: the child's variable (type, whether required, default, description, file)."""
    at = _input_at(snapshot, uri, offset)
    if at is None:
        return None
    i, start, end = at
    parts = [f'```hcl\nvariable "{i.name}"\n```']
    parts.append(f"type: `{i.type}`" if i.type else "type: any value")
    parts.append("required: the call must set it" if i.required else f"default: `{i.default}`" if i.default is not None else "optional")
    if i.description:
        parts.append(i.description)
    if i.site is not None:
        parts.append(f"Declared in `{snapshot.display_name(i.site[0])}` of the called module.")
    return "\n\n".join(parts), start, end


def definition(snapshot: Snapshot, uri: str, offset: int) -> list[tuple[str, int, int]]:
    """On an input's key: the child's declaration of that variable."""
    at = _input_at(snapshot, uri, offset)
    return [at[0].site] if at is not None and at[0].site is not None else []
