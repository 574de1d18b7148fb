"""What a file declares, and the rule that a module declares each thing once, across its files.

    declarations(text, root, path=None) -> list[Declaration]   a file's declarations, from scratch
    declarations_and_references(text, root, path=None)         ... and every reference and call
    duplicates_across_files(keys, place, elsewhere) -> list[Diagnostic]

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
  other file reports its own side when it is checked, so the user sees both places. Duplicates
  within one file stay the per-file rule's (`validate.duplicates`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..diagnostic import ERROR, Diagnostic, Related
from ..hcljson.incremental import FileChecks, IncrementalFile
from ..hcljson.model import Block
from ..jsonsyntax.tree import Node
from .reference_walk import block_references
from .references import Call, Reference
from .schema import is_override_file, schema_for_path
from .catalogue import is_opentofu_file
from .language import constraint_keys
from .validate import DUPLICATE_BLOCK, REPEATABLE, definition_title, definitions


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
    override = bool(path) and is_override_file(path)  # type: ignore[arg-type]
    tofu = bool(path) and is_opentofu_file(path)  # type: ignore[arg-type]
    result = IncrementalFile(schema_for_path(path), _DefinitionsOnly(override, tofu)).update(text, root)
    keys, place = result.definitions()
    return [Declaration(key, *place(i)) for i, key in enumerate(keys)], list(result.body.refs())  # type: ignore[arg-type]


Place = tuple[str, str, int, int]  # (uri, file name, start, end)


def duplicates_across_files(
    keys: Sequence[Hashable], place: Callable[[int], tuple[int, int]], elsewhere: Mapping[Hashable, Sequence[Place]]
) -> list[Diagnostic]:
    """`structure/duplicate-block` on each of this file's declarations (`keys[i]` at `place(i)`)
    that other files of the module declare too (see the module doc)."""
    out: list[Diagnostic] = []
    seen: set[Hashable] = set()
    for i, key in enumerate(keys):
        others = elsewhere.get(key)
        if not others or key in seen or key[0] in REPEATABLE:  # type: ignore[index]
            continue  # a second one in this very file is the per-file rule's
        seen.add(key)
        start, end = place(i)
        title = definition_title(key)  # type: ignore[arg-type]
        names = ", ".join(sorted({name for _, name, _, _ in others}))
        out.append(
            Diagnostic(
                start, end, ERROR, DUPLICATE_BLOCK, f"Duplicate {title}",
                f"{title[0].upper()}{title[1:]} is also defined in {names}; each must be defined only once in a module.",
                tuple(Related(s, e, f"also defined in {name}", uri) for uri, name, s, e in others),
            )
        )
    return out
