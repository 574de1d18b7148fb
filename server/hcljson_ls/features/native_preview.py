"""A JSON block or file seen as native HCL (`terraform.to_native`): the hover preview on a block's
name and the text of the "Show as native HCL" code action.

    block_preview(snapshot, uri, offset) -> NativePreview | None    the block whose name is at `offset`
    file_native(snapshot, uri) -> str | None                        the whole document as native HCL
    applies_to(uri) -> bool                                         a configuration file (not tfvars, tests)

Contract
--------
* A block's name is its last label key, or its type key when it has no labels (`terraform`,
  `locals` ...); only top-level blocks have a preview. The preview is the block as `hcljson-ls
  convert` writes it, with the provider schema of the module when one is loaded (provider-defined
  nested blocks as blocks), its `"//"` notes as `#` comments (not CDKTF's metadata objects: the
  construct path is shown above the preview), cut after `MAX_LINES` lines (a `# ...` line then
  says how many were left out).
* `file_native` is exactly what `hcljson-ls convert` prints for the document's current text (with
  the module's provider schemas), problems aside: what cannot be converted is left out or quoted.
* Plain data; never raises on any document.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hcljson.model import Block
from ..terraform.definition import catalogue
from ..terraform.nativehcl.to_native import TEXT_COMMENTS, block_to_native, to_native
from ..terraform.schemas.provider_lookup import block_schema
from ..workspace import Snapshot
from ..workspace.files import file_name

__all__ = ["MAX_LINES", "NativePreview", "applies_to", "block_preview", "file_native"]

#: Lines of a hover preview (a resource of a generated file can run to hundreds).
MAX_LINES = 30


@dataclass(frozen=True, slots=True)
class NativePreview:
    """`text` (native HCL) for the block whose name key is `[start, end)`."""

    text: str
    start: int
    end: int


def _schema_of(snapshot: Snapshot, uri: str, text):
    schemas = snapshot.provider_schemas(uri)
    if schemas is None:
        return None
    required, engine = snapshot.required_providers(uri), snapshot.engine(uri)
    return lambda block: block_schema(block, schemas, text, required, engine)


def _name_range(block: Block) -> tuple[int, int]:
    if block.labels:
        return block.labels[-1].start, block.labels[-1].end
    return block.type_start, block.type_end


def _cut(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= MAX_LINES:
        return "\n".join(lines)
    left = len(lines) - MAX_LINES
    return "\n".join([*lines[:MAX_LINES], f"# ... {left} more line{'s' if left != 1 else ''}"])


def block_preview(snapshot: Snapshot, uri: str, offset: int) -> NativePreview | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    text = state.text
    for block in state.analysis.body.blocks_at(offset):
        start, end = _name_range(block)
        if start <= offset <= end:
            native = block_to_native(text, block, schema_of=_schema_of(snapshot, uri, text), comments=TEXT_COMMENTS)
            return NativePreview(_cut(native.text), start, end) if native.text.strip() else None
    return None


def file_native(snapshot: Snapshot, uri: str) -> str | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    text = state.text
    return to_native(text, state.path, schema_of=_schema_of(snapshot, uri, text)).text


def applies_to(uri: str) -> bool:
    """Whether a document can be shown as native HCL: configuration, not variable definitions, test,
    mock data or query files (whose native forms the converter does not write)."""
    return catalogue.file_kind(file_name(uri), ignore_case=True) not in catalogue.NOT_CONFIGURATION_KINDS
