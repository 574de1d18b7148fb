"""What the name under the cursor is, where it is declared, who refers to it, and renaming it, across
every file of the module (JSON and native, open or not).

    target_at(snapshot, uri, offset) -> Target | None
    definition(snapshot, uri, offset) -> list[Location]
    references(snapshot, uri, offset, include_declaration) -> list[Location]
    highlights(snapshot, uri, offset) -> list[Highlight]
    prepare_rename(snapshot, uri, offset) -> Location | None      the name part, or None: not renameable
    why_not_renamed(snapshot, uri, offset) -> str | None         the reason, when there is a name that is not
    rename(snapshot, uri, offset, new_name) -> dict[uri, list[TextEdit]] | RenameError
    workspace_symbols(snapshot, query) -> list[WorkspaceSymbol]

Contract
--------
* A target is a reference (`var.region`, `aws_instance.web.id`, `data.aws_ami.x`, `module.net`,
  `local.x`, a provider reference `aws.west`, a static reference in `depends_on`), the declaration
  of one (a top-level block's header key, a local value's name), a module output step
  (`module.net.vpc_id`: the output in the child module), or a function call.
* Definition on a module call's literal `source` value is the first configuration file of the
  module it calls (`links.module_source_file`: a local path or an installed module).
* Locations are `(uri, start, end)` character offsets into that file's text; the LSP edge turns them
  into ranges with the file's own `LineIndex` (`Snapshot.line_index`).
* The name part of a target (what prepare-rename returns and rename rewrites) is exactly the
  declared name: `region` of `var.region`, `web` of `aws_instance.web`, the content of a label key
  without its quotes. Built-in objects (`path`, `count`, ...), resource types, arguments and
  function names are not renameable.
* Rename rewrites every declaration and every reference in every file of the module; the new name
  must be an identifier (`catalogue.IDENTIFIER`: a letter or `_`, then letters, digits, `_` and
  `-`), which needs no JSON escaping, so the JSON stays valid. A string step such as `["name"]` keeps
  its quotes. A rename Terraform would reject afterwards is refused with the reason: a variable
  named as `catalogue.RESERVED_VARIABLE_NAMES`, or a name the module (for an output reached as
  `module.m.out`, the child module) already declares for that kind (and resource type).
* The name key of a block of CDKTF output goes to the source that created its construct, and
  workspace symbols match construct paths too (`cdktf`).
* Never raises on odd input; an unknown document or a cursor on nothing gives None / [].
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from ..hcljson.values import key_text
from ..jsonsyntax import parse
from ..jsonsyntax.tree import OBJECT, Container
from ..terraform.definition import catalogue
from ..terraform.resolution.module_calls import call_inputs
from ..terraform.resolution.references import Call, Reference, name_step, output_step, subject
from ..terraform.rules.validate import UNNAMED, definitions
from ..workspace import Snapshot
from ..workspace.files import file_name
from . import kinds, module_inputs
from .cdktf import construct_definition, construct_paths
from .links import module_source_file
from .results import Location

#: Declaration kinds whose name a rename may change (types come from providers: not ours to rename).
RENAMEABLE = catalogue.DECLARATION_KINDS


@dataclass(frozen=True, slots=True)
class Target:
    """What the cursor is on: `key` the declaration key it names (None for a call or a built-in),
    `start`/`end` the whole thing under the cursor, `name_start`/`name_end` its declared name."""

    kind: str  # "reference", "declaration", "output", "call", "builtin"
    key: tuple | None
    start: int
    end: int
    name_start: int
    name_end: int
    item: Reference | Call | None = None


@dataclass(frozen=True, slots=True)
class Highlight:
    start: int
    end: int
    write: bool  # a declaration (write) rather than a reference (read)


@dataclass(frozen=True, slots=True)
class TextEdit:
    start: int
    end: int
    new_text: str


@dataclass(frozen=True, slots=True)
class RenameError:
    message: str


@dataclass(frozen=True, slots=True)
class WorkspaceSymbol:
    name: str
    kind: str  # a `SymbolKind` member name, as `symbols.DocumentSymbol.kind`
    uri: str
    start: int
    end: int
    container: str  # the module's directory


# ---- what is under the cursor ----------------------------------------------------------------------


def target_at(snapshot: Snapshot, uri: str, offset: int) -> Target | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    analysis = state.analysis
    for item in analysis.body.refs_at(offset):
        if type(item) is Call:
            if item.start <= offset <= item.end:
                return Target("call", None, item.start, item.end, item.start, item.end, item)
            continue
        if type(item) is not Reference:  # a block to check against a provider schema
            continue
        start, end = item.range
        if not start <= offset <= end:
            continue
        found = subject(item)
        if found is None:
            return Target("builtin", None, start, end, start, end, item)
        key, used = found
        # `module.net.vpc_id` with the cursor on `vpc_id`: the output in the child module.
        out_step = output_step(item) if key[0] == "module" else None
        if out_step is not None and out_step.start <= offset:
            return Target("output", key, start, end, out_step.start, out_step.end, item)
        step = name_step(item)
        name_start, name_end = (step.start, step.end) if step is not None else (start, end)
        return Target("reference", key, start, end, name_start, name_end, item)
    text = state.text
    for block in analysis.body.blocks_at(offset):
        for key, start, end in definitions(block, text):
            if key[0] not in UNNAMED and start <= offset < end:
                inner = _inside_quotes(text, start, end)
                return Target("declaration", key, start, end, *inner)
    return None


def _inside_quotes(text: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and text[start] == '"' and text[end - 1] == '"':
        return start + 1, end - 1
    return start, end


# ---- definition, references, highlights -----------------------------------------------------------


def definition(snapshot: Snapshot, uri: str, offset: int) -> list[Location]:
    if (own := kinds.answer("definition", snapshot, uri, offset)) is not kinds.CONFIGURATION:
        return own
    construct = construct_definition(snapshot, uri, offset)  # a CDKTF block's name: its source
    if construct is not None:
        return [Location(*construct)]
    sites = module_inputs.definition(snapshot, uri, offset)  # a module call's input: the child's variable
    if sites:
        return [Location(*site) for site in sites]
    child = module_source_file(snapshot, uri, offset)  # a module call's `source`: the child's first file
    if child is not None:
        return [Location(child, 0, 0)]
    target = target_at(snapshot, uri, offset)
    if target is None or target.key is None:
        return []
    if target.kind == "output":
        site = child_output(snapshot, uri, target)
        return [Location(*site)] if site is not None else []
    return [Location(u, s, e) for u, s, e in snapshot.declaration_sites(uri, target.key)]


def child_output(snapshot: Snapshot, uri: str, target: Target) -> tuple[str, int, int] | None:
    item = target.item
    step = output_step(item) if isinstance(item, Reference) else None
    if step is None:
        return None
    directory = snapshot.module_call_child(uri, item.steps[0].name)  # type: ignore[union-attr]
    if directory is None:
        return None
    return snapshot.child_outputs(directory).get(step.name)


def _sites(snapshot: Snapshot, uri: str, target: Target) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int, int, int]]]:
    """Where the target is declared (override files too) and where it is referred to: in its
    module, and for a module's output, in the modules that call that module (`module.m.out`)."""
    if target.kind == "output":  # `module.m.out` in a caller: the output in the child
        site = child_output(snapshot, uri, target)
        step = output_step(target.item) if isinstance(target.item, Reference) else None
        if site is None or step is None:
            return [], []
        return [site], _callers_references(snapshot, site[0], step.name)
    key = target.key
    assert key is not None
    declared = snapshot.declaration_sites(uri, key) + snapshot.override_declarations(uri, key)
    refs = snapshot.reference_sites(uri, key)
    if key[0] == "output":
        refs = refs + _callers_references(snapshot, uri, key[1])
    if key[0] == "variable":  # its values: set in the module's tfvars files, and by its callers
        refs = refs + _tfvars_settings(snapshot, uri, key[1]) + _caller_inputs(snapshot, uri, key[1])
    return declared, refs


def _tfvars_settings(snapshot: Snapshot, uri: str, name: str) -> list[tuple[str, int, int, int, int]]:
    """The keys that set variable `name` in the `*.tfvars.json` files of the module of `uri`
    (a rename that left them would turn each value into an "undeclared variable" that is never
    deployed)."""
    out = []
    for file_uri in snapshot.variable_files(uri):
        text = snapshot.text_of(file_uri)
        root = parse(text).root if text is not None else None
        if text is None or not isinstance(root, Container) or root.kind != OBJECT:
            continue
        for m in root.items:
            k = m.key
            if k is not None and key_text(text, k, root.start + k.start) == name:
                start, end = root.start + k.start, root.start + k.end
                out.append((file_uri, start, end, *_inside_quotes(text, start, end)))
    return out


def _caller_inputs(snapshot: Snapshot, uri: str, name: str) -> list[tuple[str, int, int, int, int]]:
    """The input `name` of every module call, in the workspace, of the module of `uri`."""
    out: list[tuple[str, int, int, int, int]] = []
    for directory, call in snapshot.callers(uri):
        for site_uri, start, _ in snapshot.declaration_sites_in(directory, ("module", call)):
            view = snapshot.view_of(site_uri)
            if view is None:
                continue
            text, body = view
            for block in body.blocks_at(start):
                if block.type_name != "module" or not block.labels or block.labels[-1].value != call:
                    continue
                out.extend((site_uri, a.name_start, a.name_end, *_inside_quotes(text, a.name_start, a.name_end))
                           for a in call_inputs(block) if a.name == name)
    return out


def _callers_references(snapshot: Snapshot, uri: str, output: str) -> list[tuple[str, int, int, int, int]]:
    """`module.<call>.<output>` in every known module that calls the module of `uri`."""
    return [r for directory, call in snapshot.callers(uri)
            for r in snapshot.reference_sites_in(directory, ("module-output", call, output))]


def references(snapshot: Snapshot, uri: str, offset: int, include_declaration: bool = True) -> list[Location]:
    target = target_at(snapshot, uri, offset)
    if target is None or target.key is None:
        return []
    declared, refs = _sites(snapshot, uri, target)
    out = [Location(u, s, e) for u, s, e, _, _ in refs]
    if include_declaration:
        out = [Location(u, s, e) for u, s, e in declared] + out
    return out


def highlights(snapshot: Snapshot, uri: str, offset: int) -> list[Highlight]:
    target = target_at(snapshot, uri, offset)
    if target is None or target.key is None:
        return []
    declared, refs = _sites(snapshot, uri, target)
    out = [Highlight(s, e, True) for u, s, e in declared if u == uri]
    out += [Highlight(ns, ne, False) for u, _, _, ns, ne in refs if u == uri]
    return sorted(set(out), key=lambda h: h.start)


# ---- rename ------------------------------------------------------------------------------------------


def prepare_rename(snapshot: Snapshot, uri: str, offset: int) -> Location | None:
    target = target_at(snapshot, uri, offset)
    if target is None or target.key is None:
        return None
    if target.kind == "output":
        if child_output(snapshot, uri, target) is None:
            return None
    elif target.key[0] not in RENAMEABLE or not snapshot.declaration_sites(uri, target.key):
        return None  # nothing declares it: renaming would only rewrite the references
    return Location(uri, target.name_start, target.name_end)


_ONLY_DECLARED = "Only a declared name can be renamed here: a variable, local value, module, resource, data source or output."


def why_not_renamed(snapshot: Snapshot, uri: str, offset: int) -> str | None:
    """Why the name at `offset` cannot be renamed, for the user; None when it can, or when there is
    no name there at all (a plain "nothing to rename")."""
    target = target_at(snapshot, uri, offset)
    if target is None or prepare_rename(snapshot, uri, offset) is not None:
        return None
    if target.kind == "call":
        return "A built-in function cannot be renamed."
    if target.key is None:
        return "This is built into Terraform and cannot be renamed."
    if target.kind == "output":
        return "The module this output belongs to is not in the workspace: its declaration cannot be renamed."
    if target.key[0] not in RENAMEABLE:
        return _ONLY_DECLARED
    return "Nothing in this module declares this name: only a declared name can be renamed."


def rename(snapshot: Snapshot, uri: str, offset: int, new_name: str) -> dict[str, list[TextEdit]] | RenameError:
    where = prepare_rename(snapshot, uri, offset)
    if where is None:
        return RenameError(why_not_renamed(snapshot, uri, offset) or _ONLY_DECLARED)
    if not catalogue.IDENTIFIER.match(new_name):
        return RenameError(f"{new_name!r} is not a valid name: use letters, digits, underscores and dashes, starting with a letter or underscore.")
    target = target_at(snapshot, uri, offset)
    assert target is not None and target.key is not None
    if (refused := _refused_name(snapshot, uri, target, new_name)) is not None:
        return RenameError(refused)
    edits: dict[str, list[TextEdit]] = {}
    texts: dict[str, str | None] = {}

    def text(u: str) -> str | None:
        if u not in texts:
            texts[u] = snapshot.text_of(u)
        return texts[u]

    declared, refs = _sites(snapshot, uri, target)
    for u, start, end in declared:
        t = text(u)
        if t is None:
            continue
        s, e = _inside_quotes(t, start, end)
        edits.setdefault(u, []).append(TextEdit(s, e, new_name))
    for u, _, _, ns, ne in refs:
        t = text(u)
        if t is None:
            continue
        edits.setdefault(u, []).append(TextEdit(ns, ne, _quoted_like(t, ns, ne, new_name)))
    for u in edits:
        edits[u] = sorted(set(edits[u]), key=lambda x: x.start)
    return edits


#: How a refusal names what is renamed, by declaration kind.
_WHAT = {"variable": "variable", "local": "local value", "module": "module call", "resource": "resource",
         "data": "data source", "ephemeral": "ephemeral resource", "action": "action", "output": "output",
         "check": "check"}


def _refused_name(snapshot: Snapshot, uri: str, target: Target, new_name: str) -> str | None:
    """Why Terraform would reject the module after renaming `target` to `new_name`, or None: a name
    no variable may have, or a name the module already declares (the rename would make a duplicate)."""
    key = target.key
    assert key is not None
    if target.kind == "output":  # `module.m.out` in a caller: the output in the child module
        site = child_output(snapshot, uri, target)
        step = output_step(target.item) if isinstance(target.item, Reference) else None
        if site is None or step is None or new_name == step.name:
            return None
        taken = site[0], ("output", new_name)
        kind = "output"
    else:
        kind = key[0]
        if kind == "variable" and new_name in catalogue.RESERVED_VARIABLE_NAMES:
            return f'"{new_name}" is reserved: Terraform does not allow a variable of that name (a module call uses it itself).'
        new_key = (*key[:-1], new_name)
        if new_key == key:
            return None
        taken = uri, new_key
    sites = snapshot.declaration_sites(*taken)
    if not sites:
        return None
    what = _WHAT.get(kind, kind)
    if kind in catalogue.TYPED_BLOCKS and len(key) == 3 and target.kind != "output":
        what = f'{what} of type "{key[1]}"'
    article = "an" if what[0] in "aeiou" else "a"
    return f'The module already declares {article} {what} named "{new_name}" (in {file_name(sites[0][0])}): renaming would declare it twice.'


def _quoted_like(text: str, start: int, end: int, name: str) -> str:
    """`name` written the way the step at `[start, end)` was: bare, `"name"`, or `\\"name\\"` inside
    a JSON string."""
    piece = text[start:end]
    if piece.startswith('\\"'):
        return f'\\"{name}\\"'
    if piece.startswith('"'):
        return f'"{name}"'
    return name


# ---- workspace symbols --------------------------------------------------------------------------------

_KIND_OF = {
    "variable": "Variable", "local": "Constant", "output": "Property", "module": "Module", "resource": "Class",
    "data": "Struct", "ephemeral": "Class", "action": "Event", "provider": "Package", "check": "Boolean",
}


def workspace_symbols(snapshot: Snapshot, query: str, limit: int | None = None) -> list[WorkspaceSymbol]:
    """Every declaration of every module whose name matches `query` (fuzzy: its characters in order,
    case-insensitive); best matches first, the first `limit` of them when given."""
    wanted = query.lower()
    constructs = construct_paths(snapshot)
    found: list[tuple[tuple, WorkspaceSymbol]] = []
    for directory in snapshot.modules():
        for uri, key, start, end in snapshot.declarations_of_module(directory):
            if key[0] in UNNAMED:
                continue
            name = _symbol_name(key)
            score = _fuzzy(wanted, name.lower())
            path = constructs(uri).get(key) if score is None else None
            if path is not None and (score := _fuzzy(wanted, path.lower())) is not None:
                name = f"{path} ({name})"  # matched by its CDKTF construct path
            if score is None:
                continue
            found.append(((score, len(name), name), WorkspaceSymbol(name, _KIND_OF.get(key[0], "Object"), uri, start, end, directory)))
    found = heapq.nsmallest(limit, found, key=lambda x: x[0]) if limit is not None else sorted(found, key=lambda x: x[0])
    return [s for _, s in found]


def _symbol_name(key: tuple) -> str:
    kind = key[0]
    if kind == "variable":
        return f"var.{key[1]}"
    if kind == "local":
        return f"local.{key[1]}"
    if kind == "module":
        return f"module.{key[1]}"
    if kind == "resource":
        return f"{key[1]}.{key[2]}"
    if kind in catalogue.TYPED_NAMESPACES:
        return f"{kind}.{key[1]}.{key[2]}"
    if kind == "provider":
        return f"provider.{key[1]}" + (f".{key[2]}" if key[2] else "")
    return f"{kind}.{'.'.join(str(k) for k in key[1:])}"


def _fuzzy(query: str, name: str) -> tuple[int, int] | None:
    """None when the characters of `query` do not appear in `name` in order; else a score (lower is
    better): a substring beats a scattered match, an earlier start beats a later one."""
    if not query:
        return (0, 0)
    at = name.find(query)
    if at >= 0:
        return (0, at)
    i = 0
    gaps = 0
    for ch in name:
        if i < len(query) and ch == query[i]:
            i += 1
        elif i:
            gaps += 1
    return (1, gaps) if i == len(query) else None
