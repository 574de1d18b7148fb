"""Hierarchical document symbols named as Terraform names them.

    document_symbols(snapshot, uri) -> tuple[DocumentSymbol, ...]
    symbols_in(body) -> tuple[DocumentSymbol, ...]     the same from a decoded root body
    rebuilt(symbols, make) -> list                      each symbol made again from its children, post-order

Contract
--------
* `document_symbols` reads the document's analysis (`DocumentState.analysis`, a `FileView`);
  `symbols_in` takes any decoded root body (a `FileView` or a `Body`).
* One symbol per block, in source order, named like the native syntax: `resource "aws_instance" "web"`,
  `variable "region"`, `lifecycle`, `provisioner "local-exec"`. `locals` has one child per local
  value. Other blocks have their nested blocks and then their arguments (`kind` "Field") as
  children. Expression values are not descended into. No cap on the number of symbols.
* `kind` is the name of an LSP `SymbolKind` member (`"Class"`, `"Variable"`, ...); the LSP edge
  maps it with `SymbolKind[kind]`.
* `start`/`end` is the full range, `selection_start`/`selection_end` the name (the key string that
  names the block: its last label, else its type; an argument's name); absolute offsets, and the
  selection range is always inside the full range. When several blocks share one header key (an
  array of bodies), the first gets the header key and the others select their own body's opening
  bracket, so that sibling ranges never overlap.
* Built without recursion (any nesting depth).
* `document_symbols(..., group_by_construct_path=True)` nests CDKTF blocks by construct path
  (`cdktf.group_by_construct`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..hcljson.incremental import FileView
from ..hcljson.model import Attribute, Block, Body
from ..hcljson.values import quoted
from ..terraform.definition.catalogue import BLOCKS
from ..workspace import Snapshot
from . import kinds
from .cdktf import group_by_construct
from .results import DocumentSymbol

T = TypeVar("T")

# Symbol kinds (names of lsprotocol.types.SymbolKind members): top-level blocks' from the catalogue.
_BLOCK_KINDS = {t: b.symbol_kind for t, b in BLOCKS.items()}
NESTED_BLOCK_KIND = "Struct"
ARGUMENT_KIND = "Field"
LOCAL_KIND = "Constant"


def block_title(block: Block) -> str:
    """The block as the native syntax writes its header: `resource "aws_instance" "web"`."""
    if not block.labels:
        return block.type_name
    return " ".join([block.type_name, *(quoted(lab.value) for lab in block.labels)])


def _attribute_symbol(attr: Attribute, kind: str) -> DocumentSymbol:
    return DocumentSymbol(attr.name, kind, attr.start, max(attr.end, attr.name_end), attr.name_start, attr.name_end)


def _block_ranges(block: Block, first_of_header: bool) -> tuple[int, int, int, int]:
    return _ranges(block.header_range, block.body.start, block.body.end, first_of_header)


def _ranges(header: tuple[int, int], bs: int, be: int, first_of_header: bool) -> tuple[int, int, int, int]:
    hs, he = header
    if first_of_header or be <= bs:
        return min(hs, bs), max(be, he), hs, he
    # A later body under the same header key: select its own opening bracket.
    return bs, be, bs, bs + 1


def _header_firsts(blocks: tuple[Block, ...]) -> list[bool]:
    seen: set[tuple[int, int]] = set()
    out = []
    for b in blocks:
        h = b.header_range
        out.append(h not in seen)
        seen.add(h)
    return out


def document_symbols(snapshot: Snapshot, uri: str, group_by_construct_path: bool = False) -> tuple[DocumentSymbol, ...]:
    """The symbols of open document `uri` (none for an unknown document); CDKTF blocks grouped by
    construct path when asked (`cdktf.group_by_construct`)."""
    state = snapshot.document(uri)
    if state is None:
        return ()
    if (own := kinds.answer("symbols", snapshot, uri)) is not kinds.CONFIGURATION:
        return own
    found = symbols_in(state.analysis.body)
    return group_by_construct(state.analysis.body, state.text, found) if group_by_construct_path else found


def symbols_in(body: Body | FileView) -> tuple[DocumentSymbol, ...]:
    """Symbols for the decoded root `body` (see module doc). On a `FileView` the symbols inside each
    top-level block are kept with the block's results (`FileView.memo`) and only moved when the
    block moved."""
    if isinstance(body, FileView):
        return _view_symbols(body)
    blocks = body.blocks
    return tuple(_block_symbol(b, first, True) for b, first in zip(blocks, _header_firsts(blocks)))


_MEMO_KEY = "features.symbols"


def _view_symbols(view: FileView) -> tuple[DocumentSymbol, ...]:
    out: list[DocumentSymbol] = []
    last_header: tuple[int, int] | None = None
    for top, ((title, children),) in view.memo(_MEMO_KEY, _inside, _shift_inside):
        h = top.header_range
        first = h != last_header
        last_header = h
        start, end, ss, se = _ranges(h, top.body_start, top.body_end, first)
        out.append(DocumentSymbol(title, _BLOCK_KINDS.get(top.type_name, NESTED_BLOCK_KIND), start, end, ss, se, "", children))
    return tuple(out)


def _inside(block: Block) -> list[tuple[str, tuple[DocumentSymbol, ...]]]:
    """A top-level block's title and the symbols inside its body (for `FileView.memo`)."""
    return [(block_title(block), _block_symbol(block, True, True).children)]


def _shift_inside(item: tuple[str, tuple[DocumentSymbol, ...]], delta: int) -> tuple[str, tuple[DocumentSymbol, ...]]:
    return item[0], _shifted(item[1], delta)


def _shifted(symbols: tuple[DocumentSymbol, ...], delta: int) -> tuple[DocumentSymbol, ...]:
    """`symbols` (and their children) moved by `delta`."""
    return tuple(rebuilt(symbols, lambda x, kids: DocumentSymbol(
        x.name, x.kind, x.start + delta, x.end + delta, x.selection_start + delta, x.selection_end + delta, x.detail,
        tuple(kids))))


def rebuilt(symbols: Sequence[DocumentSymbol], make: Callable[[DocumentSymbol, list[T]], T]) -> list[T]:
    """`make(symbol, what it made of the symbol's children)` for every symbol of `symbols` and their
    children, children first (post-order, in source order), without recursion: what it made of
    `symbols` themselves."""
    out: list[T] = []
    # frame: [symbol, the list to append what is made of it to, what is made of its children or None]
    stack: list[list] = [[x, out, None] for x in reversed(symbols)]
    while stack:
        frame = stack[-1]
        x, target, kids = frame
        if kids is None and x.children:
            frame[2] = kids = []
            stack.extend([c, kids, None] for c in reversed(x.children))
            continue
        stack.pop()
        target.append(make(x, kids or []))
    return out


def _block_symbol(top: Block, top_first: bool, top_level: bool) -> DocumentSymbol:
    """The symbol of `top` with everything nested in it (post-order without recursion)."""
    result: list[DocumentSymbol] = []
    # frame: [block, first_of_header, parent's list, own children, is top level]
    stack: list[list] = [[top, top_first, result, None, top_level]]

    def push_blocks(blocks: tuple[Block, ...], parent_list: list[DocumentSymbol]) -> None:
        firsts = _header_firsts(blocks)
        for b, first in zip(reversed(blocks), reversed(firsts)):
            stack.append([b, first, parent_list, None, False])

    # Blocks are pushed reversed, so they are popped in source order; a block's symbol is made
    # once all its nested blocks' symbols are (second visit).
    while stack:
        frame = stack[-1]
        block, first, parent_list, children, is_top = frame
        if children is None:
            children = frame[3] = []
            if block.body.blocks and block.type_name != "locals":
                push_blocks(block.body.blocks, children)
                continue
        stack.pop()
        t = block.type_name
        if t == "locals":
            kids = tuple(_attribute_symbol(a, LOCAL_KIND) for a in block.body.attributes)
        else:
            kids = (*children, *(_attribute_symbol(a, ARGUMENT_KIND) for a in block.body.attributes))
            if block.body.blocks and block.body.attributes:
                kids = tuple(sorted(kids, key=lambda s: s.start))
        start, end, ss, se = _block_ranges(block, first)
        kind = _BLOCK_KINDS.get(t, NESTED_BLOCK_KIND) if is_top else NESTED_BLOCK_KIND
        parent_list.append(DocumentSymbol(block_title(block), kind, start, end, ss, se, "", tuple(kids)))
    return result[0]
