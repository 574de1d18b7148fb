"""The diagnostics of a test file (`*.tftest.json`, `*.tofutest.json`) that depend on the module it
tests: its references resolved against that module's declarations.

    diagnostics(snapshot, uri) -> list[Diagnostic]     `terraform.testfile.check_references` of the document

Contract
--------
* Only for documents `terraform.testfile.is_test_file` names; `features.diagnostics.collect` adds
  these to the document's own. The module under test is `Snapshot.module_under_test` (the directory
  above `tests/`, else the file's own); with no configuration file there, nothing is reported as
  undeclared (`Snapshot.test_scope` is None).
* Computed at every request, never cached per version: the declarations live in other files (the
  workspace marks an open test file stale when its module under test changes).
* Never raises on odd input; an unknown document gives [].
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..terraform.testfile import check_references
from ..workspace import Snapshot


def diagnostics(snapshot: Snapshot, uri: str) -> list[Diagnostic]:
    state = snapshot.document(uri)
    if state is None:
        return []
    return check_references(state.text, state.analysis.body.blocks, snapshot.test_scope(uri))
