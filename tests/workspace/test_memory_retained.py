"""What an open document keeps alive after its diagnostics: the decoded bodies of its top-level blocks
are kept for the last `KEPT_BODIES` only (`hcljson.incremental._Kept`), whatever reads the whole file.

The flow facts (sensitive and ephemeral values) read every top-level block once; they used to read
`FileView.blocks`, which keeps every decoded body while the analysis lives (2x the text of a
CDKTF-like document)."""

from __future__ import annotations

import gc
import json

from hcljson_ls.features import diagnostics
from hcljson_ls.hcljson.incremental import KEPT_BODIES
from hcljson_ls.hcljson.model import Body
from hcljson_ls.hcljson.skim import Skimmed
from hcljson_ls.workspace.workspace import Workspace


def _live_bodies() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Body)


def _opened(tmp_path, doc: dict):
    """A real `Workspace` on `tmp_path` with `doc` open as main.tf.json, built: (workspace, state, uri)."""
    uri = (tmp_path / "main.tf.json").as_uri()
    ws = Workspace([str(tmp_path)])
    state = ws.open(uri, json.dumps(doc, indent=1), 1, "terraform-json")
    state.prepare()
    return ws, state, uri


def test_diagnostics_keep_at_most_the_kept_bodies(tmp_path):
    n = KEPT_BODIES * 3
    doc = {"variable": {"secret": {"sensitive": True}},
           "output": {f"o{i}": {"value": "${var.secret}", "sensitive": True} for i in range(n)}}
    doc["output"]["o7"]["sensitive"] = False  # one output shows the sensitive value: the flow facts run
    before = _live_bodies()
    ws, state, uri = _opened(tmp_path, doc)
    found = diagnostics.collect(ws.snapshot(), uri)
    assert [d.code for d in found if "sensitive" in d.message.lower()], found  # the flow facts ran over every block
    kept = _live_bodies() - before
    assert kept <= KEPT_BODIES + 10, f"{kept} decoded bodies alive for {n} blocks"


def test_resources_keep_no_decoded_body_for_their_schema_checks(tmp_path):
    # Every resource is a schema site (checked when the provider's schema is known): the site let
    # its decoded block go once resolved, schemas known or not (`provider_rules.SchemaSite`).
    n = KEPT_BODIES * 3
    doc = {"resource": {"terraform_data": {f"r{i}": {"input": i} for i in range(n)}}}
    before = _live_bodies()
    ws, state, uri = _opened(tmp_path, doc)
    assert diagnostics.collect(ws.snapshot(), uri) == []
    assert len(state.analysis.body.blocks_at(0)) == 1  # (the analysis is alive: what it holds counts)
    kept = _live_bodies() - before
    assert kept <= KEPT_BODIES + 10, f"{kept} decoded bodies alive for {n} blocks"


def test_top_level_blocks_keep_no_header_objects_and_one_key_set(tmp_path):
    # A file of tiny blocks (issue 23: 495,000 of them under the size limit): the engine's records
    # keep live references only (no `TopBlock` with its `Label`s a block), and the workspace holds
    # the analysis's own set of the declared keys rather than a second one.
    from hcljson_ls.hcljson.decode import TopBlock
    from hcljson_ls.hcljson.model import Label

    def alive(kind: type) -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is kind)

    # What earlier tests of the same process (a pytest-xdist worker) left alive is not this document's.
    tops_before, labels_before = alive(TopBlock), alive(Label)
    n = KEPT_BODIES * 2
    doc = {"output": {f"out_{i:05d}": {"value": i} for i in range(n)}}
    ws, state, uri = _opened(tmp_path, doc)
    assert diagnostics.collect(ws.snapshot(), uri) == []
    assert len(state.analysis.body.blocks_at(0)) == 1  # (the analysis is alive: what it holds counts)
    tops = alive(TopBlock) - tops_before
    labels = alive(Label) - labels_before
    key_sets = sum(1 for o in gc.get_objects() if type(o) is frozenset and len(o) == n)
    assert tops <= 10, f"{tops} TopBlocks alive for {n} blocks"
    assert labels <= KEPT_BODIES + 10, f"{labels} Labels alive for {n} blocks"  # (the kept decoded blocks')
    assert key_sets == 1, f"{key_sets} sets of the {n} declared keys"


def _live_skimmed() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Skimmed)


def test_a_quick_open_leaves_its_decoded_blocks_to_an_owner_that_asks(tmp_path):
    # `Workspace.leftovers` (the server's: it frees them once its answer is written): the same
    # diagnostics, and the skimmed blocks left there instead of being freed on return.
    doc = {"resource": {"terraform_data": {f"r{i}": {"input": i} for i in range(30)}},
           "output": {"o": {"value": "${var.missing}"}}}
    found = {}
    for leftovers in (None, []):
        uri = (tmp_path / "main.tf.json").as_uri()
        ws = Workspace([str(tmp_path)])
        ws.leftovers = leftovers
        before = _live_skimmed()
        state = ws.open(uri, json.dumps(doc, indent=1), 1, "terraform-json")
        found[leftovers is None] = [(d.code, d.start) for d in diagnostics.collect(ws.snapshot(), uri)]
        assert state.quick(compute=False) is not None  # answered by the quick open
        if leftovers is None:
            assert _live_skimmed() == before
        else:
            assert [(type(b), b.labels[-1].value) for b in leftovers] == (
                [(Skimmed, f"r{i}") for i in range(30)] + [(Skimmed, "o")])
            leftovers.clear()
            assert _live_skimmed() == before
    assert found[True] == found[False] and [code for code, _ in found[True]] == ["reference/undeclared"]
