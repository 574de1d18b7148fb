"""Code lens: how often each declaration of a document is referred to, counted lazily; and which
variables, local values and data sources nothing refers to.

    code_lenses(snapshot, uri) -> list[Lens]                   one per declaration, not yet counted
    lens_references(snapshot, uri, offset) -> list[Location]  the references a lens at `offset` counts
    references_title(count) -> str                             "1 reference", "3 references"
    unused_declarations(snapshot, uri) -> list[Diagnostic]     `reference/unused`, hints

Contract
--------
* A lens sits on the declared name of each variable, local value, output, module call, resource,
  data source and ephemeral resource the document declares (`terraform.validate.definitions`: the
  label key or the local's name). `code_lenses` does not count (a file with thousands of blocks
  answers at once); the count is `lens_references` of the lens's start: the references of
  `features.navigation.references` without the declaration (every file of the module, open or
  not; for an output, the `module.<call>.<output>` references of the modules that call it).
* `unused_declarations`, as TFLint's `terraform_unused_declarations`: a variable, local value or
  data source of the document that no file of its module refers to gets a hint (code
  `reference/unused`, tagged unnecessary) on its name, in source order. Not in override files
  (they change declarations made elsewhere), nor for a name declared twice (its duplicate is the
  diagnostic). It reads only what the analysis keeps: the document's own keys (its definitions,
  `_candidates`) and the keys the module refers to (`Snapshot.referenced`, counted per
  block as blocks change), so it costs a set lookup per declaration of those kinds, and places
  only the hints (`Snapshot.declaration_sites_of`).
* Never raises on odd input; a document that is not ours has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostic import HINT, Diagnostic
from ..terraform.definition import catalogue
from ..terraform.definition.schema import is_json_override_file
from ..terraform.rules.validate import definitions
from ..workspace import DocumentState, Snapshot
from ..workspace.files import file_name
from .navigation import Location, references

#: Declaration kinds that get a reference count.
COUNTED = catalogue.COUNTED_KINDS
#: Declaration kinds that are unnecessary when nothing refers to them (TFLint's choice).
UNUSED_KINDS = catalogue.UNUSED_KINDS
UNUSED = "reference/unused"


@dataclass(frozen=True, slots=True)
class Lens:
    start: int
    end: int
    key: tuple


def _declarations(snapshot: Snapshot, uri: str) -> list[tuple[tuple, int, int]]:
    state = snapshot.document(uri)
    if state is None:
        return []
    text = state.text
    out = []
    for block in state.analysis.body.blocks:
        for key, start, end in definitions(block, text):
            if key[0] in COUNTED:
                out.append((key, start, end))
    return out


def code_lenses(snapshot: Snapshot, uri: str) -> list[Lens]:
    return [Lens(start, end, key) for key, start, end in _declarations(snapshot, uri)]


def lens_references(snapshot: Snapshot, uri: str, offset: int) -> list[Location]:
    return references(snapshot, uri, offset, include_declaration=False)


def references_title(count: int) -> str:
    return f"{count} reference" + ("" if count == 1 else "s")


def _label(key: tuple) -> str:
    if key[0] == "variable":
        return f"Variable {key[1]!r} is declared but not used."
    if key[0] == "local":
        return f"Local value {key[1]!r} is declared but not used."
    return f"Data source \"{key[1]}\" \"{key[2]}\" is declared but not used."


_CANDIDATES = "unused candidates"  # (`DocumentState.keep` key)


def _candidates(state: DocumentState) -> dict[tuple, None]:
    """The document's declarations of `UNUSED_KINDS`, in order: from its own list of keys, not
    `DeclarationIndex.own_keys` (every kind's keys in sets, as it was then: 0.4 s of 775,000 tiny outputs,
    in the loop turn after the background build, for none of these kinds); remembered while that
    list is the same object (after the tree, an edit that changes no declaration keeps it: the scan
    of every key was ~0.5 ms of an edit's ~1.6 ms at 5 MB, bench/bench_first_edit.py --after-tree)."""
    keys = state.definitions()[0]
    kept = state.carried(_CANDIDATES)
    if kept is not None and kept[0][0] is keys:
        return kept[0][1]
    candidates = dict.fromkeys(k for k in keys if k[0] in UNUSED_KINDS)
    state.keep(_CANDIDATES, (keys, candidates))
    return candidates


def unused_declarations(snapshot: Snapshot, uri: str) -> list[Diagnostic]:
    state = snapshot.document(uri)
    if state is None:
        return []
    # Asked first, whatever the document declares (an override file too: it refers like any
    # other): when what the module refers to changed (an edit of this document), its other
    # documents learn here that they are stale.
    referenced = snapshot.referenced(uri)
    if is_json_override_file(file_name(uri)):
        return []
    candidates = _candidates(state)
    unreferenced = [k for k in candidates if k not in referenced]
    if not unreferenced:
        return []
    out = []
    for key, sites in snapshot.declaration_sites_of(uri, unreferenced).items():
        if len(sites) == 1 and sites[0][0] == uri:  # declared twice: the duplicate is the diagnostic
            out.append(Diagnostic(sites[0][1], sites[0][2], HINT, UNUSED, _label(key)))
    out.sort(key=lambda d: d.start)
    return out
