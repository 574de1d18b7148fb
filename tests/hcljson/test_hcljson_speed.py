"""Speed: decoding plus structural diagnostics stays within 2x the JSON parse of the same text,
and after an edit only the touched top-level block is decoded again (see hcljson_bench.py)."""

from __future__ import annotations

import gc

from hcljson_bench import best_of, make_cdktf
from internals import materialize

from hcljson_ls.hcljson.decode import decode_file
from hcljson_ls.hcljson.incremental import IncrementalFile
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.terraform.definition.schema import CONFIG_SCHEMA
from hcljson_ls.text.document import Edit

TEXT = make_cdktf(1_000_000)


def test_decode_within_twice_the_parse_time():
    gc.collect()
    t_parse, tree = best_of(lambda: parse(TEXT))
    t_decode, (body, diags) = best_of(lambda: decode_file(TEXT, tree.root, CONFIG_SCHEMA))
    assert diags == [] and len(body.blocks) > 500
    assert t_decode <= 2 * t_parse, (t_decode, t_parse)


def test_edit_decodes_only_the_touched_block():
    text = TEXT
    tree = parse(text)
    engine = IncrementalFile(CONFIG_SCHEMA)
    first = engine.update(text, tree.root)
    at = text.index('"t3.micro"', len(text) // 2) + 2
    new = text[:at] + "x" + text[at:]
    edit = Edit(at, at, at + 1)
    tree = reparse(tree, new, edit)
    engine.note_edit(edit)
    engine.hits = engine.misses = 0
    result = engine.update(new, tree.root)
    assert (engine.misses, engine.hits, engine.fast) == (1, 0, 1)  # the fast path: nothing else visited
    fresh, fresh_diags = decode_file(new, tree.root, CONFIG_SCHEMA)
    assert materialize(result.body) == fresh and result.structure == fresh_diags
    assert len(result.body.blocks) == len(first.body.blocks)
