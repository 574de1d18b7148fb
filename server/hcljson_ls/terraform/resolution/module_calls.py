"""Module calls checked against the input variables of the module they call.

    VARIABLE_INPUT                                  the kind of a variable's fact key
    input_fact(name, type_text, required) -> key    `("variable-input", name, type, required)`
    variable_fact(block, text) -> key | None        the fact a JSON `variable` block declares
    ChildVariable(name, type, required)             what a caller needs to know of one variable
    child_variables(keys) -> dict[str, ChildVariable]   a module's variables, from its declaration keys
    CallSite(block)                                 a `module` block to check (one of its refs)
    call_sites(block) -> list[CallSite]
    call_inputs(block) -> list[Attribute]             the arguments a `module` block gives its child
    check_calls(sites, text, inputs_of, providers_of=None, caller=None, engine) -> (diagnostics, uses)

Contract
--------
* Every `variable` block declares, besides `("variable", name)`, the fact `("variable-input", name,
  type, required)` (`validate.REPEATABLE`: no declaration, never a duplicate): its type constraint
  as written (a string in JSON, the expression's text in native files; "" without one, or when it
  is not a string) and whether a caller must set it (Terraform: no `default` argument at all;
  `default = null` makes it optional). The facts travel like every declaration key (summaries of
  closed files, `DeclarationIndex.key_index`), so a caller learns when they change
  (`resolve.affected`: `("inputs-of",)`).
* `check_calls` checks each site's module call when `inputs_of(call name)` knows the child's
  variables (a local `source`, or a module installed by `terraform init`; None: nothing is said;
  `NOT_INSTALLED`: see below):
  - `module/unknown-input` (error, on the key): an argument that is neither a meta-argument nor a
    variable of the child (names no variable may have, `catalogue.RESERVED_VARIABLE_NAMES`, are
    left to other rules), with "Did you mean ...?" and a quick fix. Terraform's JSON wording:
    "Extraneous JSON object property".
  - `module/missing-input` (error, on the body's closing brace, as Terraform): a child variable
    without a default that the call does not set; a quick fix adds it after the body's `{` with a
    placeholder of its type (`tfvars.placeholder`).
  - `module/wrong-type` (error, on the value): a literal value (no `${`/`%{` anywhere in its
    text) that cannot convert to the variable's type, by the conversion of variable definitions
    files (`tfvars.conversion_problem`). `null` is never reported. With `arguments`, a string
    value of one interpolation is an `argument_sites.ArgumentSite` appended there instead, for the
    caller to resolve once what it reads is known (the same code).
* With `providers_of(call name)` (`Scope.module_providers`) and `caller` (this module's side), the
  provider configurations the call passes are checked too (`provider_passing`).
* `module/missing-directory` (error, on the call's body `{`, as Terraform): `inputs_of(call name)` is `NOT_INSTALLED`,
  a local source (`./`, `../`) whose directory does not exist (or is a file): Terraform's "Module not
  installed" (its installer cannot read it; an empty directory is a module without configuration).
  Nothing else is said of that call.
* `module/source-changed` (error, on the `source` value, as Terraform): `inputs_of(call name)` is
  `SOURCE_CHANGED`: the root module's `.terraform/modules/modules.json` records the call's module
  as installed from another source (Terraform's "Module source has changed": `init` must run
  again). Nothing else is said of that call.
* `uses` is `("inputs-of",)` for every site: any change of a child's facts or of a call's source
  resolves the sites again. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...diagnostic import ERROR, Diagnostic, Fix
from ...hcljson.model import Attribute, Block
from ...hcljson.problems import quoted_fix, suggestion
from ...hcljson.values import defined_at, quoted, string_text
from ...jsonsyntax.tree import STRING
from ..definition.catalogue import ESCAPING_BLOCK, RESERVED_VARIABLE_NAMES
from ..expressions.evaluate import type_value
from ..filekinds.tfvars import conversion_problem, placeholder, type_of
from ..schemas.provider_schema import TERRAFORM
from .argument_sites import ArgumentSite, argument_site, type_text
from .provider_passing import CallerProviders, ChildProviders, passing_diagnostics

__all__ = [
    "INPUTS_OF",
    "MISSING_DIRECTORY",
    "MISSING_INPUT",
    "NOT_INSTALLED",
    "SOURCE_CHANGED",
    "UNKNOWN_INPUT",
    "VARIABLE_INPUT",
    "WRONG_TYPE",
    "CallSite",
    "ChildVariable",
    "call_inputs",
    "call_sites",
    "check_calls",
    "child_variables",
    "input_fact",
    "variable_fact",
]

VARIABLE_INPUT = "variable-input"
#: The key every check of a module call uses (`resolve.affected` maps changes to it).
INPUTS_OF = ("inputs-of",)

UNKNOWN_INPUT = "module/unknown-input"
MISSING_DIRECTORY = "module/missing-directory"
SOURCE_CHANGED_CODE = "module/source-changed"
MISSING_INPUT = "module/missing-input"
WRONG_TYPE = "module/wrong-type"


class _NotInstalled:
    """The type of `NOT_INSTALLED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_INSTALLED"


#: What `Scope.module_inputs` answers for a call whose one source is a local path (`./`, `../`)
#: without template sequences that names no directory on disk.
NOT_INSTALLED = _NotInstalled()


class _SourceChanged:
    """The type of `SOURCE_CHANGED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SOURCE_CHANGED"


#: What `Scope.module_inputs` answers for a call whose literal source is surely not the one
#: `terraform init` installed its module from (the manifest's `Source`).
SOURCE_CHANGED = _SourceChanged()


def input_fact(name: str, type_text: str, required: bool) -> tuple:
    return (VARIABLE_INPUT, name, type_text, required)


def variable_fact(block: Block, text: str) -> tuple | None:
    """The fact of a JSON `variable` block with its one label (see the module doc)."""
    if block.type_name != "variable" or len(block.labels) != 1:
        return None
    t = block.body.attribute("type")
    type_text = ""
    if t is not None and t.expr is not None and t.expr.kind == STRING:
        type_text = string_text(text, t.expr.node, t.expr.start) or ""
    return input_fact(block.labels[0].value, type_text, block.body.attribute("default") is None)


@dataclass(frozen=True, slots=True)
class ChildVariable:
    """An input variable of a called module: its type constraint as written ("" for any value)
    and whether a caller must set it."""

    name: str
    type: str
    required: bool


def child_variables(keys) -> dict[str, ChildVariable]:
    """name -> `ChildVariable` from a module's declaration keys (its `variable-input` facts; when
    two files disagree, the first in `repr` order wins, whatever order the keys come in)."""
    out: dict[str, ChildVariable] = {}
    for k in sorted((k for k in keys if k[0] == VARIABLE_INPUT and len(k) == 4), key=repr):
        out.setdefault(k[1], ChildVariable(k[1], k[2] if isinstance(k[2], str) else "", bool(k[3])))
    return out


@dataclass(frozen=True, slots=True, eq=False)
class CallSite:
    """A `module` block to check against its child's variables when they are known: one of the
    block's `FileChecks` refs (positions `block`'s moved by `delta`, applied on `current`)."""

    block: Block
    delta: int = 0

    def shifted(self, delta: int) -> CallSite:
        return self if delta == 0 else CallSite(self.block, self.delta + delta)

    @property
    def current(self) -> Block:
        return self.block.shifted(self.delta) if self.delta else self.block


def call_sites(block: Block) -> list[CallSite]:
    """The site of top-level `block` (one for a labelled module call, else none)."""
    if block.type_name == "module" and len(block.labels) == 1 and block.body.node is not None:
        return [CallSite(block)]
    return []


def check_calls(
    sites: list[CallSite], text: str, inputs_of: Callable[[str], Mapping[str, ChildVariable] | None],
    providers_of: Callable[[str], ChildProviders | None] | None = None, caller: CallerProviders | None = None,
    engine: str = TERRAFORM, arguments: list[ArgumentSite] | None = None,
) -> tuple[list[Diagnostic], set]:
    out: list[Diagnostic] = []
    for site in sites:
        block = site.current
        name = block.labels[0].value
        variables = inputs_of(name)
        if variables is None:
            continue
        if variables is NOT_INSTALLED:
            out.append(_not_installed(block, name, text))
            continue
        if variables is SOURCE_CHANGED:
            out.extend(_source_changed(block, name))
            continue
        out.extend(_check_call(block, name, text, variables, arguments))
        child = providers_of(name) if providers_of is not None and caller is not None else None
        if child is not None:
            out.extend(passing_diagnostics(block, name, text, child, caller, engine))  # type: ignore[arg-type]
    return out, {INPUTS_OF} if sites else set()


def _not_installed(block: Block, name: str, text: str) -> Diagnostic:
    source = block.body.attribute("source")
    written = ""
    if source is not None and source.expr is not None and source.expr.kind == STRING:
        written = " " + quoted(string_text(text, source.expr.node, source.expr.start))
    h = defined_at(text, block.header_range)  # (Terraform's: the body's `{`)
    return Diagnostic(
        h[0], h[1], ERROR, MISSING_DIRECTORY, "Module not installed",
        f"The source{written} of the module call {quoted(name)} is a local path, but no directory exists there "
        "(relative to this module's directory), so Terraform cannot read the module. Create the directory or fix the path.",
    )


def _source_changed(block: Block, name: str) -> list[Diagnostic]:
    source = block.body.attribute("source")
    if source is None or source.expr is None:
        return []
    e = source.expr
    return [Diagnostic(
        e.start, e.end, ERROR, SOURCE_CHANGED_CODE, "Module source has changed",
        f"The module of the call {quoted(name)} was installed from another source (.terraform/modules/modules.json "
        "says which); Terraform reads nothing of it until it is installed again. Run \"terraform init\" (or "
        "\"tofu init\") to install the modules this configuration calls.",
    )]


def _literal(text: str, start: int, end: int) -> bool:
    raw = text[start:end]
    return "${" not in raw and "%{" not in raw


def _input_site(text: str, attr: Attribute, call: str, type_text_: str) -> ArgumentSite | None:
    """The `ArgumentSite` of input `attr` of module call `call` whose child variable's type
    constraint is `type_text_`, when its value is a string of one interpolation and the type is
    not `any`."""
    e = attr.expr
    want = type_value(type_text_).type
    if e is None or e.kind != STRING or want == "dynamic" or not getattr(e.node, "terminated", True):
        return None
    return argument_site(e.start, e.end, string_text(text, e.node, e.start), attr.name, type_text(want), call)


def call_inputs(block: Block) -> list[Attribute]:
    """The input variables module block `block` sets: its own arguments but its meta-arguments (and
    the names no variable can have, which other rules speak of), then every argument of its escaping
    block `_`, whatever its name (Terraform merges that block's body into the call's)."""
    body = block.body
    inputs = [a for a in body.attributes if a.schema is None and a.name not in RESERVED_VARIABLE_NAMES]
    inputs.extend(a for b in body.blocks if b.type_name == ESCAPING_BLOCK for a in b.body.attributes)
    return inputs


def _check_call(block: Block, name: str, text: str, variables: Mapping[str, ChildVariable],
                arguments: list[ArgumentSite] | None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    body = block.body
    given: set[str] = set()
    for attr in call_inputs(block):
        given.add(attr.name)
        variable = variables.get(attr.name)
        if variable is None:
            hint = suggestion(attr.name, variables)
            out.append(
                Diagnostic(
                    attr.name_start, attr.name_end, ERROR, UNKNOWN_INPUT, "Extraneous JSON object property",
                    f"No argument or block type is named {quoted(attr.name)}."
                    + (f" Did you mean {quoted(hint)}?" if hint else f" The module called {quoted(name)} has no such input variable."),
                    fixes=quoted_fix(attr.name_start, attr.name_end, hint) if hint else (),
                )
            )
            continue
        e = attr.expr
        if e is None or not variable.type:
            continue
        if not _literal(text, e.start, e.end):
            if arguments is not None:
                site = _input_site(text, attr, name, variable.type)
                if site is not None:
                    arguments.append(site)
            continue
        problem = conversion_problem(text, e.node, e.start, type_of(variable.type))
        if problem is not None:
            out.append(
                Diagnostic(
                    e.start, e.end, ERROR, WRONG_TYPE, "Invalid value for input variable",
                    f"The given value is not suitable for module.{name}.var.{attr.name} (type {variable.type}): {problem.message}.",
                )
            )
    missing = [v.name for v in variables.values() if v.required and v.name not in given]
    if missing:
        at = body.missing_item_range
        for m in sorted(missing):
            insert = f"{json.dumps(m, ensure_ascii=False)}: {placeholder(variables[m].type)}, "
            out.append(
                Diagnostic(
                    at[0], at[1], ERROR, MISSING_INPUT, "Missing required argument",
                    f"The argument {quoted(m)} is required, but no definition was found: the module called "
                    f"{quoted(name)} declares the variable {quoted(m)} without a default.",
                    fixes=(Fix(body.start + 1, body.start + 1, insert, f"Add missing required argument {quoted(m)}"),)
                    if body.attributes else (),
                )
            )
    return out
