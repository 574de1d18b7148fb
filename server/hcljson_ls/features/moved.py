"""Renaming a resource or a module call together with a `moved` entry, so that Terraform moves the
object already in the state to the new address instead of destroying it and creating a new one
(terraform-ls #1567).

    movable(snapshot, uri, offset) -> Movable | None
    rename_with_moved(snapshot, uri, offset, new_name) -> dict[uri, list[TextEdit]] | RenameError
    moved_entry_edits(text, old_address, new_address) -> list[TextEdit]     JSON text, pure

Contract
--------
* What Terraform's `moved` accepts and has state (internal/configs/moved.go, addrs.MoveEndpoint):
  managed resources (`<type>.<name>`) and module calls (`module.<name>`). Data sources have no
  state (Terraform refuses `data.` in `moved`), and ephemeral resources, actions, variables, ...
  are not objects of the state: none of them is `Movable`.
* The rename is exactly `navigation.rename` (every reference in the workspace, the same refusals);
  the `moved` entry `{"from": "<old address>", "to": "<new address>"}` is added to the file that
  declares the object: into its top-level `"moved"` array when it has one (a single `"moved"`
  object becomes an array of it and the new entry), else as a new `"moved": [...]` member at the
  end of the top-level object, indented like the document (one line when the document is). A
  native `.tf` declaration gets a native `moved` block at the end of its file.
* A rename of a rename stays one step: when a `moved` entry of the module (JSON files) already has
  the old address as its `to`, the rename rewrites that `to` (it is a reference like any other), and
  no second entry is added; when its `from` is the new name (a rename back), the entry is deleted
  instead (Terraform's plan rejects a move to the same address: "Redundant move statement"). Terraform also accepts the chain (`a -> b`, `b -> c`); we keep one
  step because the usual case is renaming twice before applying. See docs/features.md, "Rename
  with a moved block", for the case where the first rename was already applied.
* Never raises; a target that is not movable is refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hcljson.values import key_text, string_text
from ..jsonsyntax import parse
from ..jsonsyntax.tree import ARRAY, OBJECT, STRING, Container
from ..terraform.definition import catalogue
from ..workspace import Snapshot
from ..workspace.files import file_name
from .navigation import RenameError, TextEdit, prepare_rename, rename, target_at

NOT_MOVABLE = "Only a resource or a module call can be renamed with a moved block: other objects have no state to keep."


@dataclass(frozen=True, slots=True)
class Movable:
    """A resource or module call under the cursor: its declaration `key`, its address, and whether
    the cursor is on the declaration's name key (`on_declaration`) rather than on a reference."""

    key: tuple
    address: str
    name: str
    on_declaration: bool


def address(key: tuple, name: str | None = None) -> str:
    """The address of declaration `key` (with its name replaced by `name` when given)."""
    if key[0] == "module":
        return f"module.{name or key[1]}"
    return f"{key[1]}.{name or key[2]}"


def movable(snapshot: Snapshot, uri: str, offset: int) -> Movable | None:
    """The resource or module call at `offset` when it can be renamed (`navigation.prepare_rename`)."""
    if catalogue.file_kind(file_name(uri)) not in (catalogue.CONFIG_JSON, catalogue.CONFIG_NATIVE):
        return None  # a tfvars, test or query file: what it names lives in another module
    target = target_at(snapshot, uri, offset)
    if target is None or target.key is None or target.kind not in ("declaration", "reference"):
        return None
    if target.key[0] not in catalogue.MOVABLE_KINDS or prepare_rename(snapshot, uri, offset) is None:
        return None
    key = target.key
    return Movable(key, address(key), key[-1], target.kind == "declaration")


def rename_with_moved(snapshot: Snapshot, uri: str, offset: int, new_name: str) -> dict[str, list[TextEdit]] | RenameError:
    """`navigation.rename` plus the `moved` entry from the old address to the new one."""
    found = movable(snapshot, uri, offset)
    if found is None:
        return RenameError(NOT_MOVABLE)
    edits = rename(snapshot, uri, offset, new_name)
    if isinstance(edits, RenameError) or new_name == found.name:
        return edits
    old, new = found.address, address(found.key, new_name)
    earlier = _moved_to(snapshot, uri, found.key, old, new)
    if earlier is True:
        return edits  # the rename rewrites that entry's `to`: still one step
    if earlier:  # a rename back to where the object was: the entry goes (no move to the same address)
        where, start, end = earlier
        kept = [e for e in edits.get(where, []) if e.end <= start or e.start >= end]
        return {**edits, where: sorted([*kept, TextEdit(start, end, "")], key=lambda e: (e.start, e.end))}
    sites = snapshot.declaration_sites(uri, found.key)
    home = sites[0][0] if sites else uri
    text = snapshot.text_of(home)
    if text is None:
        return RenameError(f"{file_name(home)} cannot be read: the moved block cannot be added.")
    added = moved_entry_edits(text, old, new) if catalogue.file_kind(file_name(home)) == catalogue.CONFIG_JSON else _native_edits(text, old, new)
    if not added:
        return RenameError(f"{file_name(home)} is no JSON object: the moved block cannot be added.")
    edits = dict(edits)
    edits[home] = sorted([*edits.get(home, []), *added], key=lambda e: (e.start, e.end))
    return edits


def _moved_to(snapshot: Snapshot, uri: str, key: tuple, old: str, new: str) -> tuple[str, int, int] | None | bool:
    """Whether a `moved` entry of a JSON file of the module has `old` as its `to`: False when none
    has; when that entry's `from` is `new` (a rename back), the range `(uri, start, end)` that
    deletes it with its comma (Terraform rejects a move to the same address); else True."""
    files = {u for u, *_ in snapshot.reference_sites(uri, key)}
    for u in sorted(files):
        text = snapshot.text_of(u)
        if text is None or catalogue.file_kind(file_name(u)) != catalogue.CONFIG_JSON:
            continue
        root = parse(text).root
        if not isinstance(root, Container) or root.kind != OBJECT:
            continue
        for _member, start, value in _moved_members(text, root):
            entries = value.items if value.kind == ARRAY else [None]
            for i, item in enumerate(entries):
                node, base = (value, start) if item is None else (item.value, start + value.start)
                if not (isinstance(node, Container) and node.kind == OBJECT and _field(text, node, base + node.start, "to") == old):
                    continue
                if _field(text, node, base + node.start, "from") != new or item is None:
                    return True
                return (u, *_element_span(value, start + value.start, i))
    return False


def _element_span(array: Container, at: int, i: int) -> tuple[int, int]:
    """The range that deletes element `i` of `array` (absolute start `at`) and one comma beside it."""
    items = [m for m in array.items if m.value is not None]
    this = items[i].value
    assert this is not None
    if i + 1 < len(items):
        return at + this.start, at + items[i + 1].value.start  # type: ignore[union-attr]
    if i > 0:
        return at + items[i - 1].value.end, at + this.end  # type: ignore[union-attr]
    return at + this.start, at + this.end


def _moved_members(text: str, root: Container):
    """`(member, base, value)` of each top-level `"moved"` member whose value is an array or object
    (`base` is the absolute start of the root; `value` positions are relative to it)."""
    for m in root.items:
        if m.key is not None and m.value is not None and key_text(text, m.key, root.start + m.key.start) == "moved":
            if isinstance(m.value, Container) and m.value.kind in (ARRAY, OBJECT):
                yield m, root.start, m.value


def _field(text: str, entry: Container, start: int, name: str) -> str | None:
    for m in entry.items:
        if m.key is not None and key_text(text, m.key, start + m.key.start) == name and m.value is not None and m.value.kind == STRING:
            return string_text(text, m.value, start + m.value.start).strip()
    return None


# ---- writing the entry --------------------------------------------------------------------------


def moved_entry_edits(text: str, old: str, new: str) -> list[TextEdit]:
    """The edits that add `{"from": old, "to": new}` to JSON document `text` (see the contract);
    [] when the document is no JSON object."""
    root = parse(text).root
    if not isinstance(root, Container) or root.kind != OBJECT or not root.closed:
        return []
    unit = _indent_unit(text, root)
    multiline = unit is not None
    unit = unit or ""
    for _member, base, value in _moved_members(text, root):
        at = base + value.start
        if value.kind == OBJECT:  # one moved block: make it an array of it and the new one
            if not value.closed:
                return []
            end = base + value.end
            sep = f",\n{unit}" if multiline else ", "
            return [TextEdit(at, at, "["), TextEdit(end, end, f"{sep}{_entry(old, new, unit, unit, multiline)}]")]
        if not value.closed:
            return []
        items = [i for i in value.items if i.value is not None]
        if not items:
            inner = f"\n{unit * 2}{_entry(old, new, unit * 2, unit, True)}\n{unit}" if multiline else _entry(old, new, "", unit, False)
            return [TextEdit(at + 1, base + value.end - 1, inner)]
        first_start = at + items[0].value.start
        lead = text[at + 1 : first_start]
        indent = lead.rsplit("\n", 1)[1] if "\n" in lead else None
        last_end = at + items[-1].value.end
        if indent is not None:
            return [TextEdit(last_end, last_end, f",\n{indent}{_entry(old, new, indent, unit or '  ', True)}")]
        return [TextEdit(last_end, last_end, f", {_entry(old, new, '', unit, False)}")]
    members = [m for m in root.items if m.value is not None]
    if members:
        end = root.start + members[-1].value.end  # type: ignore[union-attr]
        sep = "," + (f"\n{unit}" if multiline else " ")
    else:
        end = root.start + 1
        sep = f"\n{unit}" if multiline else ""
    if multiline:
        body = f'"moved": [\n{unit * 2}{_entry(old, new, unit * 2, unit, True)}\n{unit}]'
    else:
        body = f'"moved": [{_entry(old, new, "", unit, False)}]'
    return [TextEdit(end, end, sep + body)]


def _entry(old: str, new: str, indent: str, unit: str, multiline: bool) -> str:
    if not multiline:
        return f'{{"from": "{old}", "to": "{new}"}}'
    inner = indent + unit
    return f'{{\n{inner}"from": "{old}",\n{inner}"to": "{new}"\n{indent}}}'


def _indent_unit(text: str, root: Container) -> str | None:
    """The indentation of the top-level members (one level), or None for a one-line document."""
    for m in root.items:
        node = m.key if m.key is not None else m.value
        if node is None:
            continue
        start = root.start + node.start
        line_start = text.rfind("\n", 0, start) + 1
        if line_start <= root.start:
            return None  # on the line of the opening brace
        lead = text[line_start:start]
        return lead if lead and not lead.strip() else "  "
    return "  " if "\n" in text[root.start : root.end] else None


def _native_edits(text: str, old: str, new: str) -> list[TextEdit]:
    end = len(text.rstrip("\n"))
    return [TextEdit(end, len(text), f"\n\nmoved {{\n  from = {old}\n  to   = {new}\n}}\n")]
