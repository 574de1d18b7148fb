"""Hover from structure alone: what a block type key, a label key or a core argument is.

    hover(snapshot, uri, offset) -> Hover | None
    hover_in(body, text, offset) -> Hover | None     the same from a decoded body and its text

Contract
--------
* `hover` reads the document's analysis (`DocumentState.analysis`): its body is a `FileView`, of
  which only the top-level blocks around `offset` are built (`FileView.blocks_at`). `hover_in`
  takes any decoded root body of `text` (a `FileView` or a `Body`). `offset` is an absolute
  character offset; a key string is hovered when `start <= offset < end` (quotes included).
  Diagnostics are not repeated in hover: editors show them beside it.
* Block type keys: the native-syntax header (`resource "<type>" "<name>"`) and what the block is.
  Label keys: which label it is (`resource type`, `variable name`, ...) and what it names.
  Arguments the schema knows: what they are, required or not, and how JSON writes them (literal,
  reference string, template). Local values and module inputs get a one-line note. Arguments of
  provider-defined bodies (no schema) and values get nothing (`None`): that needs provider schemas.
* `Hover.markdown` is Markdown; `start`/`end` the exact range of the hovered key string.
* Pure; no recursion along the document (a loop down the block chain).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hcljson import schema as S
from ..hcljson.incremental import FileView
from ..hcljson.model import Attribute, Block, Body
from ..hcljson.values import quoted
from ..terraform.catalogue import LABEL_DESCRIPTIONS, meta_arguments
from ..workspace import Snapshot
from .symbols import block_title


@dataclass(frozen=True, slots=True)
class Hover:
    markdown: str
    start: int
    end: int


_MODE_NOTES = {
    S.EXPRESSION: "An expression: strings are templates, so `\"${...}\"` is evaluated.",
    S.LITERAL: "Taken literally: strings are not templates, `${...}` is not evaluated.",
    S.LITERAL_STRING: "A string taken literally: `${...}` is not evaluated.",
    S.MAP_OF_LITERAL_STRINGS: "An object of strings taken literally.",
    S.TRAVERSAL: "A reference written as a plain string, without `${}` (e.g. `\"aws.west\"`).",
    S.TRAVERSAL_LIST: "An array of references written as plain strings, without `${}`.",
    S.TRAVERSAL_MAP: "An object whose keys and values are references written as plain strings.",
    S.TYPE: "A type constraint written as a string, such as `\"map(string)\"`.",
    S.KEYWORD_OR_TRAVERSAL_LIST: "The keyword `\"all\"`, or an array of attribute names written as plain strings.",
    S.NATIVE: "An expression written as a plain string, without `${}`.",
    S.NATIVE_LIST: "An array of expressions written as plain strings, without `${}`.",
}

_LABEL_PLACEHOLDERS = {"block type": "type"}


def _touches(start: int, end: int, offset: int) -> bool:
    return start <= offset < end


def _header_template(block: Block) -> str:
    labels = " ".join(f'"<{_LABEL_PLACEHOLDERS.get(n, n)}>"' for n in block.schema.labels)
    return f"{block.type_name} {labels}".strip()


def _where(chain: list[Block]) -> str:
    return f"`{block_title(chain[-1])}`" if chain else "the file"


def _block_hover(block: Block, chain: list[Block]) -> Hover | None:
    desc = block.schema.description
    if not desc:
        return None
    inside = f" in {_where(chain)}" if chain else ""
    md = f"```terraform\n{_header_template(block)}\n```\n**{block.type_name}** block{inside}\n\n{desc}"
    return Hover(md, block.type_start, block.type_end)


def _label_hover(block: Block, index: int, chain: list[Block]) -> Hover:
    lab = block.labels[index]
    names = block.schema.labels
    name = names[index] if index < len(names) else "label"
    # Labels after this one may differ between the blocks sharing this key: show placeholders.
    shown = [quoted(x.value) for x in block.labels[: index + 1]]
    shown += [f'"<{_LABEL_PLACEHOLDERS.get(n, n)}>"' for n in names[index + 1 :]]
    header = " ".join([block.type_name, *shown])
    desc = LABEL_DESCRIPTIONS.get((block.type_name, index)) or f"Label {index + 1} of the `{block.type_name}` block."
    md = f"`{lab.value}` — **{block.type_name} {name}**\n\n```terraform\n{header}\n```\n{desc}"
    return Hover(md, lab.start, lab.end)


def _attribute_hover(attr: Attribute, body: Body, chain: list[Block]) -> Hover | None:
    s = attr.schema
    where = _where(chain)
    if s is None:
        if body.schema.dynamic_attributes and chain and chain[-1].type_name == "locals":
            md = f"**{attr.name}** — local value\n\nReferenced as `local.{attr.name}`. Its value is an expression."
            return Hover(md, attr.name_start, attr.name_end)
        if len(chain) == 1 and chain[0].type_name == "module":
            md = (
                f"**{attr.name}** — input of {where}\n\nSets the child module's variable "
                f"{quoted(attr.name)}. Its value is an expression."
            )
            return Hover(md, attr.name_start, attr.name_end)
        return None
    parent = chain[-2].type_name if len(chain) > 1 else None
    meta = " meta-argument" if chain and attr.name in meta_arguments(chain[-1].type_name, parent) else " argument"
    need = "required" if s.required else "optional"
    parts = [f"**{attr.name}** — {need}{meta} of {where}"]
    if s.description:
        parts.append(s.description)
    note = _MODE_NOTES.get(s.mode)
    if note:
        parts.append(f"*{note}*")
    return Hover("\n\n".join(parts), attr.name_start, attr.name_end)


def hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    """Hover for the key at `offset` of open document `uri` (see module doc), or None."""
    state = snapshot.document(uri)
    if state is None:
        return None
    return hover_in(state.analysis.body, state.text, offset)


def hover_in(body: Body | FileView | None, text: str, offset: int) -> Hover | None:
    """Hover for the key at `offset` of `text`, whose decoded root body is `body`, or None."""
    if body is None:
        return None
    chain: list[Block] = []
    current = body
    while True:
        inner: Block | None = None
        blocks = current.blocks_at(offset) if isinstance(current, FileView) else current.blocks
        for block in blocks:
            if _touches(block.type_start, block.type_end, offset):
                return _block_hover(block, chain)
            for i, lab in enumerate(block.labels):
                if _touches(lab.start, lab.end, offset):
                    return _label_hover(block, i, chain)
            if inner is None and block.body.start < offset < block.body.end:
                inner = block
        for attr in current.attributes:
            if _touches(attr.name_start, attr.name_end, offset):
                return _attribute_hover(attr, current, chain)
        if inner is None:
            return None
        chain.append(inner)
        current = inner.body  # type: ignore[assignment]
