"""The requests on a variable definitions file (`*.tfvars.json`), answered from the input variables
the module of its directory declares (in its JSON and native files, open or not).

    module_variables(snapshot, uri) -> dict[str, Declared]    name -> what the module declares of it
    diagnostics(snapshot, uri) -> list[Diagnostic]            `terraform.tfvars.check` of the document
    hover(snapshot, uri, offset) -> Hover | None
    definition(snapshot, uri, offset) -> [Location]
    completions(snapshot, uri, offset, snippets) -> [CompletionItem]
    symbols(snapshot, uri) -> (DocumentSymbol, ...)
    semantic_tokens(snapshot, uri, start, end) -> [Token]

Contract
--------
* Only for variable definitions files: `features.kinds` hands them here, and the feature entry
  points never see them. Results are the requests' own (`features.results`).
* The document's analysis decodes it as one attribute per variable (`tfvars.TFVARS_SCHEMA`). A
  variable is read where the module declares it (`Snapshot.declaration_sites`): a JSON file's
  `variable` block (its `type` string, `default` as written, `description`, `nullable = false`), or
  a native file's (`terraform.native.declaration_details`). The first declaration counts.
* Hover on a name set in the file: the variable's header, type, default and description, and the
  file declaring it; definition: every declaration of it; nothing for an undeclared name (its
  diagnostic says it). Completion, on a key being typed at the root or in an empty place of the
  root object: the declared names not yet set, with the type as detail, the description as
  documentation, and a value placeholder of the type (`terraform.tfvars.placeholder`). Symbols: one
  `Variable` per name set. Semantic tokens: a `variable` token per name set (strings are literal:
  nothing inside them is a template).
* Never raises on odd input; an unknown document gives None / [].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..diagnostic import Diagnostic
from ..hcljson.locate import ARGUMENT_NAME, BODY, UNKNOWN_NAME, locate
from ..hcljson.model import Attribute, Body
from ..hcljson.values import string_text
from ..jsonsyntax.tree import FALSE, OBJECT, STRING
from ..terraform.definition import catalogue
from ..terraform.filekinds.tfvars import Variable, check, placeholder
from ..terraform.nativehcl.native import declarations_details
from ..workspace import Snapshot
from .results import CompletionItem, DocumentSymbol, Hover, Location, Token

_MAX_VALUE = 300  # characters of a default shown in hover


@dataclass(frozen=True, slots=True)
class Declared:
    """One variable of the module: its `Variable` (type, nullable), its default as written (None
    without one), its description, and where it is declared (`(uri, start, end)` each)."""

    variable: Variable
    default: str | None
    description: str
    sites: tuple[tuple[str, int, int], ...]


def module_variables(snapshot: Snapshot, uri: str) -> dict[str, Declared]:
    """name -> `Declared` for every variable of the module of `uri`, in name order."""
    found = []
    for key in sorted(snapshot.declared(uri, "variable"), key=repr):
        sites = tuple(snapshot.declaration_sites(uri, key))
        if sites:
            found.append((key[1], sites))
    # Native files: every variable of a file read from one parse of it.
    starts: dict[str, list[int]] = {}
    for _, sites in found:
        if catalogue.file_kind(sites[0][0]) == catalogue.CONFIG_NATIVE:
            starts.setdefault(sites[0][0], []).append(sites[0][1])
    native = {u: _native_details(snapshot.text_of(u) or "", tuple(s)) for u, s in starts.items()}
    return {name: _read(snapshot, name, sites, native) for name, sites in found}


def _read(snapshot: Snapshot, name: str, sites: tuple[tuple[str, int, int], ...], native: dict) -> Declared:
    site_uri, start, _ = sites[0]
    if site_uri in native:
        found = native[site_uri].get(start, {})
        default = found.get("default")
        return Declared(Variable(name, found.get("type", ""), found.get("nullable") != "false"),
                        _short(default) if default is not None else None, found.get("description", ""), sites)
    view = snapshot.view_of(site_uri)
    body = _declaring_body(view, start)
    if view is None or body is None:
        return Declared(Variable(name), None, "", sites)
    text = view[0]
    nullable = body.attribute("nullable")
    default = body.attribute("default")
    variable = Variable(name, _string(text, body, "type"),
                        nullable is None or nullable.expr is None or nullable.expr.kind != FALSE)
    shown = _short(text[default.expr.start : default.expr.end]) if default is not None and default.expr is not None else None
    return Declared(variable, shown, _string(text, body, "description"), sites)


@lru_cache(maxsize=16)
def _native_details(text: str, starts: tuple[int, ...]) -> dict[int, dict[str, str]]:
    """`declarations_details`, remembered while the native file and its variables stay the same."""
    return declarations_details(text, starts)


def _declaring_body(view, start: int) -> Body | None:
    """The body of the `variable` block of a decoded JSON file whose name key starts at `start`."""
    if view is None:
        return None
    for block in view[1].blocks_at(start):
        if block.type_name == "variable" and block.labels and block.labels[-1].start == start:
            return block.body
    return None


def _string(text, body: Body, name: str) -> str:
    """The value of argument `name` when it is a JSON string, else ""."""
    attr = body.attribute(name)
    if attr is None or attr.expr is None or attr.expr.kind != STRING:
        return ""
    return string_text(text, attr.expr.node, attr.expr.start)


def _short(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) <= _MAX_VALUE else value[: _MAX_VALUE - 1] + "…"


# ---- requests ------------------------------------------------------------------------------------


def diagnostics(snapshot: Snapshot, uri: str) -> list[Diagnostic]:
    """`terraform.tfvars.check` of open document `uri` against its module's variables."""
    state = snapshot.document(uri)
    if state is None:
        return []
    declared = module_variables(snapshot, uri)
    return check(state.text, state.analysis.body.attributes, {n: d.variable for n, d in declared.items()})


def _name_at(snapshot: Snapshot, uri: str, offset: int) -> Attribute | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    for attr in state.analysis.body.attributes:
        if attr.name_start <= offset < attr.name_end:
            return attr
    return None


def hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    """Markdown for the variable whose name is at `offset`, with the name's range; None elsewhere."""
    attr = _name_at(snapshot, uri, offset)
    if attr is None:
        return None
    declared = module_variables(snapshot, uri).get(attr.name)
    if declared is None:
        return None
    v = declared.variable
    sites = declared.sites
    parts = [
        f'```hcl\nvariable "{v.name}"\n```',
        f"type: `{v.type}`" if v.type else "",
        f"default: `{declared.default}`" if declared.default is not None else "",
        "" if v.nullable else "nullable: `false`",
        declared.description,
        f"Declared in `{snapshot.display_name(sites[0][0])}`" + (f" and {len(sites) - 1} more place(s)" if len(sites) > 1 else "") + ".",
    ]
    return Hover("\n\n".join(p for p in parts if p), attr.name_start, attr.name_end)


def definition(snapshot: Snapshot, uri: str, offset: int) -> list[Location]:
    """Where the module declares the variable whose name is at `offset`."""
    attr = _name_at(snapshot, uri, offset)
    if attr is None:
        return []
    return [Location(*site) for site in snapshot.declaration_sites(uri, ("variable", attr.name))]


def completions(snapshot: Snapshot, uri: str, offset: int, snippets: bool = True) -> list[CompletionItem]:
    """The declared variables not yet set, for a key being typed at the root or an empty place of the
    root object (see the module doc)."""
    state = snapshot.document(uri)
    if state is None:
        return []
    text = state.text
    body = state.analysis.body
    if body.node is None:  # an empty document: one whole document per variable
        return [] if text.strip() else _items(snapshot, uri, set(), offset, offset, "{", "}", snippets)
    ctx = locate(text, body, offset)
    top = ctx.body is not None and ctx.body.node is body.node and body.node.kind == OBJECT
    s = ctx.string
    have = {a.name for a in body.attributes}
    if top and s is not None and s.is_key and ctx.kind in (ARGUMENT_NAME, UNKNOWN_NAME):
        content_end = s.end - 1 if s.node.terminated else s.end
        if not s.start < offset <= content_end:
            return []
        typed = s.value[: s.index].lower()
        colon = _next(text, s.end) == ":"
        items = _items(snapshot, uri, have - {ctx.name}, s.start, s.end, "", "" if colon else _comma_after(text, s.end),
                       snippets and not colon, key_only=colon)
        return [i for i in items if i.label.lower().startswith(typed)]
    if top and s is None and ctx.kind == BODY and body.start < offset < body.end:
        before = _comma_before(text, offset)
        return _items(snapshot, uri, have, offset, offset, before, _comma_after(text, offset), snippets)
    return []


def _items(snapshot: Snapshot, uri: str, have: set[str], start: int, end: int, before: str, after: str,
           snippets: bool, key_only: bool = False) -> list[CompletionItem]:
    out = []
    for name, declared in module_variables(snapshot, uri).items():
        if name in have:
            continue
        v = declared.variable
        value = placeholder(v.type)
        key = f'"{name}"'
        if key_only:
            insert = key
        elif snippets:
            inner = {'""': '"$1"', "[]": "[$1]", "{}": "{$1}"}.get(value) or f"${{1:{value}}}"
            insert = f"{before}{key}: {inner}{after}"
        else:
            insert = f"{before}{key}: {value}{after}"
        out.append(CompletionItem(
            name, "Variable", start, end, insert, snippet=snippets and not key_only, detail=v.type or "any",
            documentation=declared.description, sort="0", filter=key,
        ))
    return out


def _next(text: str, i: int) -> str:
    rest = text[i:].lstrip(" \t\r\n")
    return rest[:1]


def _comma_after(text: str, i: int) -> str:
    """"," when another member follows `i` (the new one needs a comma after it)."""
    return "," if _next(text, i) == '"' else ""


def _comma_before(text: str, i: int) -> str:
    """", " when a member ends just before `i` without a comma."""
    last = text[:i].rstrip(" \t\r\n")[-1:]
    return ", " if last and last not in ",{[:" else ""


def symbols(snapshot: Snapshot, uri: str) -> tuple[DocumentSymbol, ...]:
    """One `Variable` symbol per name set in `uri`."""
    state = snapshot.document(uri)
    if state is None:
        return ()
    return tuple(DocumentSymbol(a.name, "Variable", a.name_start, a.expr.end if a.expr is not None else a.name_end, a.name_start, a.name_end)
                 for a in state.analysis.body.attributes if a.name)


def semantic_tokens(snapshot: Snapshot, uri: str, start: int | None = None, end: int | None = None) -> list[Token]:
    """A `variable` token inside the quotes of each name set in `uri` (meeting `[start, end)` when given)."""
    state = snapshot.document(uri)
    if state is None:
        return []
    lo = -1 if start is None else start
    hi = float("inf") if end is None else end
    text = state.text
    out: list[Token] = []
    for a in state.analysis.body.attributes:
        s, e = a.name_start, a.name_end
        if text[s : s + 1] == '"' and e - s >= 2 and text[e - 1] == '"':
            s, e = s + 1, e - 1
        if s < e and e > lo and s < hi:
            out.append((s, e, "variable", ()))
    return out
