"""Shared helpers for the hcljson tests: a small generic test language (not Terraform), an outline
rendering of decoded bodies, and structural invariants every decode must satisfy.

Fixture markers (`⟨...⟩` expected ranges, `$0` the cursor) are read by tests/fixture.py.
"""

from __future__ import annotations

import json

from hcljson_ls.hcljson.model import Body
from hcljson_ls.hcljson.schema import (
    DYNAMIC_BODY,
    KEYWORD_OR_TRAVERSAL_LIST,
    LITERAL,
    LITERAL_STRING,
    MAP_OF_LITERAL_STRINGS,
    NATIVE,
    NATIVE_LIST,
    OPEN_BODY,
    TRAVERSAL,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
    TYPE,
    BodySchema,
)
from hcljson_ls.hcljson.schema import (
    AttributeSchema as A,
)
from hcljson_ls.hcljson.schema import (
    BlockSchema as B,
)
from hcljson_ls.jsonsyntax.tree import walk

PART = BodySchema.of([A("weight"), A("note", mode=LITERAL_STRING)])
SETTINGS = BodySchema.of([A("level"), A("flags", mode=LITERAL)])
THING = BodySchema.of(
    [
        A("size", required=True),
        A("count"),
        A("refs", mode=TRAVERSAL_LIST),
        A("ref", mode=TRAVERSAL),
        A("type", mode=TYPE),
        A("doc", mode=LITERAL_STRING),
        A("data", mode=LITERAL),
        A("ignore", mode=KEYWORD_OR_TRAVERSAL_LIST),
        A("tags", mode=MAP_OF_LITERAL_STRINGS),
        A("links", mode=TRAVERSAL_MAP),
        A("call", mode=NATIVE),
        A("triggers", mode=NATIVE_LIST),
    ],
    [B("part", ("name",), PART), B("settings", (), SETTINGS, max_items=1)],
)
SUITE = BodySchema.of([A("title")], [B("case", ("name",), BodySchema.of([A("input")]), min_items=1)])
FREE = BodySchema(open_attributes=True, attributes={"id": A("id", mode=LITERAL_STRING)})
BLOCKY = BodySchema(open_blocks=True, attributes={"id": A("id")})

#: The root schema of the test language.
ROOT = BodySchema.of(
    [A("name"), A("version", mode=LITERAL_STRING)],
    [
        B("thing", ("kind", "name"), THING),
        B("settings", (), SETTINGS, max_items=1),
        B("vars", (), DYNAMIC_BODY),
        B("suite", ("name",), SUITE),
        B("free", ("name",), FREE),
        B("blocky", (), BLOCKY),
        B("any", ("name",), None),
    ],
)
#: The same with a required root argument.
ROOT_REQUIRED = BodySchema.of([A("name", required=True), A("version", mode=LITERAL_STRING)], ROOT.blocks.values())
#: Only block types at the root (unknown names are "unknown block type").
BLOCKS_ONLY = BodySchema.of([], [B("thing", ("kind", "name"), THING), B("settings", (), SETTINGS)])

SCHEMAS = {"root": ROOT, "required": ROOT_REQUIRED, "blocks": BLOCKS_ONLY, "thing": THING, "open": OPEN_BODY}


def outline(body: Body) -> str:
    """`name version thing "a" "b" {size part "p" {weight}}` (attributes, then blocks)."""
    parts: list[str] = [a.name for a in body.attributes]
    for b in body.blocks:
        head = " ".join([b.type_name, *(json.dumps(label.value) for label in b.labels)])
        parts.append(f"{head} {{{outline(b.body)}}}")
    return " ".join(parts)


def _key_matches(text: str, start: int, end: int, value: str) -> bool:
    raw = text[start:end]
    if raw == value or raw.strip("\"'") == value:
        return True
    try:
        return json.loads(raw) == value
    except ValueError:
        return False


def check_invariants(text: str, body: Body) -> None:
    """Every decoded range points at what it claims to (iteratively over nested bodies)."""
    stack = [body]
    while stack:
        b = stack.pop()
        if b.node is not None:
            assert 0 <= b.start <= b.end <= len(text)
        prev = -1
        for a in b.attributes:
            assert _key_matches(text, a.name_start, a.name_end, a.name), (a, text[a.name_start : a.name_end])
            assert a.name_start > prev or b.node is None
            prev = a.name_start
            if a.expr is not None:
                e = a.expr
                assert e.end - e.start == e.node.end - e.node.start
                # the expression's nodes lie inside its range
                for _n, s, t in walk(e.node, e.start - e.node.start):
                    assert e.start <= s <= t <= e.end
        for blk in b.blocks:
            assert _key_matches(text, blk.type_start, blk.type_end, blk.type_name)
            for lab in blk.labels:
                assert _key_matches(text, lab.start, lab.end, lab.value)
                assert blk.type_end <= lab.start < blk.body.start
            assert blk.type_end <= blk.body.start
            if blk.body.node is not None:
                assert text[blk.body.start] == {"object": "{", "array": "[", "null": "n"}.get(blk.body.node.kind, text[blk.body.start])
            stack.append(blk.body)
