"""Completion in a large document costs what it touches: once the document is analysed, completing in a
reference (after `${`, where every function, namespace and resource type is offered) neither gathers the
document's definitions again nor goes through every resource of the module (bench/bench_completion.py
measures it: 5 MB / 50 KB)."""

from __future__ import annotations

import json

from hcljson_ls.features.completion import complete
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.document import DocumentState

URI = "file:///stack/main.tf.json"


def document(resources: int) -> str:
    return json.dumps({
        "terraform": {"required_version": ">= 1.6"},
        "variable": {"region": {"default": "eu-west-1"}},
        "resource": {f"t{t}_thing": {f"r{i}": {"name": f"x-${{var.region}}-{i}"} for i in range(t, resources, 7)}
                     for t in range(7)},
    }, indent=1)


def test_completing_again_does_not_gather_the_document_definitions(monkeypatch) -> None:
    text = document(500)
    workspace = Workspace()
    state = workspace.open(URI, text, 1, "terraform-json")
    assert state is not None and state.analysis is not None
    starts = [i + 2 for i in range(len(text)) if text.startswith("${", i)]
    first = complete(workspace.snapshot(), URI, starts[0])
    assert {"var", "t3_thing", "upper"} <= {item.label for item in first}

    gathered: list[int] = []
    definitions = DocumentState.definitions
    monkeypatch.setattr(DocumentState, "definitions", lambda self: gathered.append(1) or definitions(self))
    for offset in starts[100:500:40]:  # other blocks of the same version
        assert [item.label for item in complete(workspace.snapshot(), URI, offset)] == [item.label for item in first]
    assert gathered == []
