"""Every CDKTF synth output of the real corpus (`*cdk.tf.json`) is a complete module on its own: copied
alone into a directory of its own, every reference in it resolves (no `reference/undeclared*`,
`reference/out-of-context` or `reference/unknown-*` diagnostic)."""

from __future__ import annotations

import csv
import shutil

import pytest
import shared_data

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.resolution.references import Reference
from hcljson_ls.terraform.rules.declarations import declarations_and_references
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

UNRESOLVED = ("reference/undeclared", "reference/out-of-context", "reference/unknown-")


def _synth_outputs() -> list[str]:
    with open(shared_data.REAL_SOURCES, encoding="utf-8", newline="") as f:
        names = [row["file"] for row in csv.DictReader(f, delimiter="\t") if "cdk.tf.json" in row["file"]]
    return sorted(names)


NAMES = shared_data.params(_synth_outputs, shared_data.REAL_SOURCES)


def test_there_are_synth_outputs_to_check_and_they_refer_a_lot() -> None:
    shared_data.require(shared_data.REAL_SOURCES)
    names = _synth_outputs()
    assert len(names) >= 15
    total = 0
    for name in names:
        text = (shared_data.REAL_CORPUS / name).read_text(encoding="utf-8")
        _, refs = declarations_and_references(text, parse(text).root, name)
        total += sum(1 for r in refs if isinstance(r, Reference))
    assert total >= 450  # the test below is not vacuous: hundreds of references must resolve


@pytest.mark.parametrize("name", NAMES)
def test_a_synth_output_alone_is_a_module_whose_references_all_resolve(name: str, tmp_path) -> None:
    source = shared_data.REAL_CORPUS / name
    module = tmp_path / "module"
    module.mkdir()
    target = module / name
    shutil.copyfile(source, target)
    text = target.read_text(encoding="utf-8")
    workspace = Workspace([str(tmp_path)])
    uri = uri_of_path(str(target))
    assert workspace.open(uri, text, 1, "terraform-json") is not None
    assert workspace.snapshot().module_files(uri) == [name]
    found = [d for d in collect(workspace.snapshot(), uri) if d.code.startswith(UNRESOLVED)]
    assert [(d.code, text[d.start : d.end], d.summary) for d in found] == []
