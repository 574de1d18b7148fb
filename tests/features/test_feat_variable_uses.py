"""A variable's uses beyond its module's expressions: the keys that set it in the module's
`*.tfvars.json` files, and the inputs of the module calls that call its module. References list
them, and a rename edits them, so that no value is silently left behind as an "undeclared variable"
that Terraform never deploys. Real files in a real `Workspace`; `⟨...⟩` marks each name to be edited."""

from __future__ import annotations

import json

from feat_support import apply_edits
from fixture import parse_fixture

from hcljson_ls.features import diagnostics, navigation
from hcljson_ls.features.navigation import RenameError

TREE = """\
//- /net/variables.tf.json
{"variable": {"⟨cidr⟩": {"type": "string"}, "zone": {}}}
//- /net/main.tf.json
{"output": {"block": {"value": "${var.⟨cidr⟩}"}}}
//- /net/terraform.tfvars.json
{"⟨cidr⟩": "10.0.0.0/8", "zone": "a"}
//- /net/prod.auto.tfvars.json
{"zone": "b", "⟨cidr⟩": "10.1.0.0/16"}
//- /net/other/ignored.tfvars.json
{"cidr": "not this module's"}
//- /live/main.tf.json
{"module": {"net": {"source": "../net", "⟨cidr⟩": "10.2.0.0/16", "zone": "c"},
            "escaped": {"source": "../net", "_": {"⟨cidr⟩": "10.3.0.0/16"}},
            "other": {"source": "./elsewhere", "cidr": "not a caller of /net"}}}
"""


def _marked(fw) -> set[tuple[str, int, int]]:
    return {(path, s, e) for path, f in fw.fixture.files.items() for s, e in f.ranges}


def test_references_of_a_variable_include_tfvars_keys_and_callers_inputs(tmp_path):
    fw = parse_fixture(TREE).workspace(tmp_path, open=["/net/variables.tf.json"])
    list(fw.workspace.scan())  # the callers are known once the workspace is scanned (as the server does)
    uri = fw.uri("/net/variables.tf.json")
    offset = fw.fixture.files["/net/variables.tf.json"].ranges[0][0] + 1
    path_of = {u: p for p, u in fw.uris.items()}
    found = {(path_of[loc.uri], loc.start, loc.end) for loc in navigation.references(fw.snapshot(), uri, offset)}
    texts = {p: f.text for p, f in fw.fixture.files.items()}
    assert sorted((p, texts[p][s:e]) for p, s, e in found) == [
        ("/live/main.tf.json", '"cidr"'),  # the caller's input key
        ("/live/main.tf.json", '"cidr"'),  # the other caller's, in its escaping block `_`
        ("/net/main.tf.json", "var.cidr"),
        ("/net/prod.auto.tfvars.json", '"cidr"'),
        ("/net/terraform.tfvars.json", '"cidr"'),
        ("/net/variables.tf.json", '"cidr"'),  # the declaration
    ]


def test_rename_edits_the_tfvars_files_and_the_callers_and_leaves_nothing_undeclared(tmp_path):
    fw = parse_fixture(TREE).workspace(tmp_path, open=["/net/variables.tf.json", "/net/terraform.tfvars.json"])
    list(fw.workspace.scan())
    uri = fw.uri("/net/variables.tf.json")
    offset = fw.fixture.files["/net/variables.tf.json"].ranges[0][0] + 1
    tfvars = fw.uri("/net/terraform.tfvars.json")
    assert [d.code for d in diagnostics.collect(fw.snapshot(), tfvars)] == []
    edits = navigation.rename(fw.snapshot(), uri, offset, "cidr_block")
    assert not isinstance(edits, RenameError)
    path_of = {u: p for p, u in fw.uris.items()}
    assert {(path_of[u], e.start, e.end) for u, es in edits.items() for e in es} == _marked(fw)
    assert all(e.new_text == "cidr_block" for es in edits.values() for e in es)
    # Applied as a client applies a workspace edit: to the open buffers, and to the files on disk.
    for u, es in edits.items():
        text = apply_edits(fw.fixture.files[path_of[u]].text, es)
        assert json.loads(text)
        (tmp_path / path_of[u].lstrip("/")).write_text(text, encoding="utf-8")
        if u in fw.workspace.uris():
            fw.workspace.close(u)
            fw.workspace.open(u, text, 2, "terraform-json")
    assert [d.code for d in diagnostics.collect(fw.snapshot(), tfvars)] == []  # no value left undeclared
    assert json.loads((tmp_path / "net" / "other" / "ignored.tfvars.json").read_text()) == {"cidr": "not this module's"}
