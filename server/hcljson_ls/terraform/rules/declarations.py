"""What a file declares, and the rule that a module declares each thing once, across its files.

    declarations(text, root, path=None) -> list[Declaration]   a file's declarations, from scratch
    declarations_and_references(text, root, path=None)         ... and every reference and call
    duplicates_across_files(keys, place, elsewhere, text) -> list[Diagnostic]
    overrides_without_base(text, blocks, declared) -> list[Diagnostic]   an override file's side

A declaration's `key` is position-free and names what is declared (`validate.definitions`):
``("variable", "region")``, ``("local", "x")``, ``("resource", "aws_instance", "web")``,
``("provider", "aws", "west")`` (alias or None), ... Its range is the block's header key (the last
label key) or a local value's name.

Contract
--------
* `declarations` decodes only what definitions need (no rules, no string checks), so summarizing
  a file that is not open costs about a decode; override files declare nothing (they are merged
  into the declarations of other files, never duplicate them).
* `duplicates_across_files` reports, in one file, each declaration whose key another file of the
  module also declares (`elsewhere[key]`: the other places, `(uri, file name, start, end)` in
  their files), as `structure/duplicate-block` with the other places as related information; the
  other file reports its own side when it is checked, so the user sees both places. Each side is
  reported where Terraform reports the later one (`validate.reported_range`: the `{` or `[` of
  the block's body; a local value's name), the other places related at their keys. Duplicates
  within one file stay the per-file rule's (`validate.duplicates`). Two `import` blocks for one
  resource instance (key `validate.IMPORT_TARGET`) are the same rule with its own code and message,
  `structure/duplicate-import`, at the `to` value, as Terraform reports it: only on the side
  Terraform reports, the file whose name sorts after the other's (Terraform's load order), as
  Terraform's message names the first one's block, not its `to`.
* `overrides_without_base` reports, in an override file, each variable, local value, output, module
  call, resource, data source or aliased provider configuration that no primary file of the module
  declares (`declared(key)` false), as `structure/override-without-base`: Terraform 1.11's module.go
  mergeFile ("Missing resource to override", "Missing base variable declaration to override", ...),
  at the declaration's range there too (`validate.reported_range`); a default provider
  configuration may be overridden without a base, as there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from ...diagnostic import ERROR, Diagnostic, Related
from ...hcljson.incremental import FileChecks, IncrementalFile
from ...hcljson.model import Block
from ...jsonsyntax.tree import Node
from ..definition import catalogue
from ..definition.catalogue import is_opentofu_file
from ..definition.language import constraint_keys
from ..definition.schema import is_json_override_file, schema_for_path
from ..resolution.reference_walk import block_references
from ..resolution.references import Call, Reference
from .validate import DUPLICATE_BLOCK, IMPORT_TARGET, REPEATABLE, definition_title, definitions, duplicate_import, reported_range


@dataclass(frozen=True, slots=True)
class Declaration:
    key: tuple
    start: int
    end: int


class _DefinitionsOnly(FileChecks):
    __slots__ = ("override", "tofu_file")

    def __init__(self, override: bool, tofu_file: bool = False) -> None:
        self.override = override
        self.tofu_file = tofu_file

    def blocks(self, text: str, blocks: Sequence[Block]):
        return [([], [], [] if self.override else definitions(b, text) + constraint_keys(b, text, self.tofu_file),
                 block_references(text, b)) for b in blocks]


def declarations(text: str, root: Node | None, path: str | None = None) -> list[Declaration]:
    """Everything the file at `path` (text `text`, JSON tree `root`) declares, in source order."""
    return declarations_and_references(text, root, path)[0]


def declarations_and_references(text: str, root: Node | None, path: str | None = None) -> tuple[list[Declaration], list[Reference | Call]]:
    """What the file declares (nothing for an override file) and every reference and call in it."""
    override = bool(path) and is_json_override_file(path)  # type: ignore[arg-type]
    tofu = bool(path) and is_opentofu_file(path)  # type: ignore[arg-type]
    result = IncrementalFile(schema_for_path(path), _DefinitionsOnly(override, tofu)).update(text, root)
    keys, place = result.definitions()
    return [Declaration(key, *place(i)) for i, key in enumerate(keys)], list(result.body.refs())  # type: ignore[arg-type]


Place = tuple[str, str, int, int]  # (uri, file name, start, end)


def duplicates_across_files(
    keys: Sequence[Hashable], place: Callable[[int], tuple[int, int]], elsewhere: Mapping[Hashable, Sequence[Place]],
    text, file_name: str | None = None,
) -> list[Diagnostic]:
    """`structure/duplicate-block` on each of this file's declarations (`keys[i]` at `place(i)`)
    that other files of the module declare too (see the module doc); `text` is this file's, and
    `file_name` its name (an import target is reported only when a file before it has one)."""
    out: list[Diagnostic] = []
    seen: set[Hashable] = set()
    for i, key in enumerate(keys):
        others = elsewhere.get(key)
        if not others or key in seen or key[0] in REPEATABLE:  # type: ignore[index]
            continue  # a second one in this very file is the per-file rule's
        seen.add(key)
        start, end = reported_range(key, place(i), text)  # type: ignore[arg-type]
        names = ", ".join(sorted({name for _, name, _, _ in others}))
        if key[0] == IMPORT_TARGET:  # type: ignore[index]
            # Terraform reads a module's files in name order and reports an import block on the
            # second one: on this file's only when an earlier file has one too.
            earlier = [o for o in others if file_name is None or o[1] < file_name]
            if earlier:
                names = ", ".join(sorted({name for _, name, _, _ in earlier}))
                related = tuple(Related(s, e, f"first declared in {name}", uri) for uri, name, s, e in earlier)
                out.append(duplicate_import(key, start, end, f"in {names}", related))  # type: ignore[arg-type]
            continue
        title = definition_title(key)  # type: ignore[arg-type]
        out.append(
            Diagnostic(
                start, end, ERROR, DUPLICATE_BLOCK, f"Duplicate {title}",
                f"{title[0].upper()}{title[1:]} is also defined in {names}; each must be defined only once in a module.",
                tuple(Related(s, e, f"also defined in {name}", uri) for uri, name, s, e in others),
            )
        )
    return out


OVERRIDE_WITHOUT_BASE = "structure/override-without-base"
#: The declarations an override file can only override (Terraform's mergeFile), with how its
#: summary names them.
_OVERRIDABLE = {
    "variable": "variable declaration", "local": "local value definition", "output": "output definition",
    "module": "module call", "resource": "resource", "data": "data resource", "provider": "provider configuration",
}
_OVERRIDE_BLOCKS = catalogue.OVERRIDABLE_BLOCKS


def overrides_without_base(text: str, blocks: Sequence[Block], declared: Callable[[Hashable], bool]) -> list[Diagnostic]:
    """`structure/override-without-base` on each declaration of the top-level `blocks` of an
    override file (text `text`) that no primary file declares (see the module doc)."""
    out: list[Diagnostic] = []
    for block in blocks:
        if block.type_name not in _OVERRIDE_BLOCKS:
            continue
        for key, start, end in definitions(block, text):
            what = _OVERRIDABLE.get(key[0])
            if what is None or declared(key) or (key[0] == "provider" and key[2] is None):
                continue
            start, end = reported_range(key, (start, end), text)
            title = definition_title(key)
            out.append(
                Diagnostic(
                    start, end, ERROR, OVERRIDE_WITHOUT_BASE, f"Missing {what} to override",
                    f"No primary file of this module declares {title}, so there is nothing for this override file "
                    "to override. An override file can only change what a normal file of the module declares: check "
                    "the name, or move the block to a normal file.",
                )
            )
    return out
