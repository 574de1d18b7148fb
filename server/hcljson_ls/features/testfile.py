"""The diagnostics of a test file (`*.tftest.json`, `*.tofutest.json`) that depend on the module it
tests: its references resolved against that module's declarations.

    diagnostics(snapshot, uri) -> list[Diagnostic]     `terraform.testfile.check_references` of the document
    definition(snapshot, uri, offset) -> [Location]   where a reference of the file is declared
    hover(snapshot, uri, offset) -> Hover | None    what a reference of the file names

Contract
--------
* Only for test files (`features.kinds` hands them here); `features.diagnostics.collect` adds
  these to the document's own. The module under test is `Snapshot.module_under_test` (the directory
  above `tests/`, else the file's own); with no configuration file there, nothing is reported as
  undeclared (`Snapshot.test_scope` is None).
* OpenTofu reads the file when it is a `.tofutest.json` or its module under test is read by
  OpenTofu (`resolve.Scope.engine`): then its file-level `variables` may refer to runs.
* A run whose `module` block names a local directory (relative to the module under test) is resolved
  against that module (`Snapshot.directory_scope`).
* A `mock_provider`'s `source` directory is looked for relative to the module under test (where
  `terraform test` runs); one that does not exist is `test/missing-mock-source`.
* Computed at every request, never cached per version: the declarations live in other files (the
  workspace marks an open test file stale when its module under test changes).
* Definition: `run.<name>` -> the run block's header in the file; other references -> their
  declarations in the module under test (`Snapshot.declaration_sites_in`; `output.<name>`,
  `check.<name>` too). Nothing for a place that is no reference.
* Hover on such a reference: the declaration's title (`resource "terraform_data" "web"`, `run "first"`)
  and the file declaring it; None when it is declared nowhere (the diagnostic says so) or for
  built-in objects and calls (the configuration's hover answers those).
* Test file syntax newer than the version that reads the file (`terraform.testfile.version_problems`):
  the module under test's language, as for its configuration.
* Never raises on odd input; an unknown document gives [] / None.
"""

from __future__ import annotations

import os

from ..diagnostic import Diagnostic
from ..terraform.definition import catalogue
from ..terraform.definition.language import OPENTOFU, Language, choose
from ..terraform.filekinds.testfile import version_problems
from ..terraform.filekinds.testfile_references import (
    check_references,
    declared_key,
    missing_mock_source,
    mock_sources,
    reference_at,
    run_module_sources,
)
from ..terraform.resolution.resolve import module_language
from ..terraform.rules.validate import definition_title
from ..workspace import Snapshot
from .results import Hover, Location


def diagnostics(snapshot: Snapshot, uri: str) -> list[Diagnostic]:
    state = snapshot.document(uri)
    if state is None:
        return []
    blocks = state.analysis.body.blocks
    scope = snapshot.test_scope(uri)
    opentofu = catalogue.is_opentofu_file(uri) or (scope is not None and scope.engine == "opentofu")
    module = snapshot.module_under_test(uri)
    run_scopes = {}
    if os.path.isabs(module):
        for run, source in run_module_sources(state.text, blocks).items():
            found_scope = snapshot.directory_scope(uri, os.path.normpath(os.path.join(module, source)))
            if found_scope is not None:
                run_scopes[run] = found_scope
    found = check_references(state.text, blocks, scope, opentofu, run_scopes)
    found.extend(version_problems(state.text, blocks, _language(snapshot, uri, scope, opentofu)))
    if os.path.isabs(module):
        for directory, start, end in mock_sources(state.text, blocks):
            if not os.path.isdir(os.path.join(module, directory)):
                found.append(missing_mock_source(directory, start, end))
    return found


def _language(snapshot: Snapshot, uri: str, scope, opentofu: bool) -> Language:
    """The language the file is read by: its module under test's (engine and `engineVersion`
    setting, `required_version`), OpenTofu's newest for a `.tofutest.json` of a Terraform module."""
    language = module_language(frozenset(), scope) if scope is not None else snapshot.language(uri)
    if opentofu and language.engine != OPENTOFU:
        return choose(OPENTOFU, None, ())
    return language


def definition(snapshot: Snapshot, uri: str, offset: int) -> list[Location]:
    state = snapshot.document(uri)
    if state is None:
        return []
    blocks = state.analysis.body.blocks
    ref = reference_at(state.text, blocks, offset)
    key = declared_key(ref) if ref is not None else None
    if key is None:
        return []
    if key[0] == "run":
        return [Location(uri, *b.header_range) for b in blocks if b.type_name == "run" and b.label_values[:1] == (key[1],)]
    return [Location(*site) for site in snapshot.declaration_sites_in(snapshot.module_under_test(uri), key)]


def hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    ref = reference_at(state.text, state.analysis.body.blocks, offset)
    key = declared_key(ref) if ref is not None else None
    sites = definition(snapshot, uri, offset) if key is not None else []
    if not sites:
        return None
    named = 2 if ref.root in catalogue.RESOURCE_MODES else 1  # type: ignore[union-attr]  # steps naming it
    end = ref.steps[min(named, len(ref.steps)) - 1].end  # type: ignore[union-attr]
    where = "this test file" if key[0] == "run" else f"`{snapshot.display_name(sites[0].uri)}` of the module under test"  # type: ignore[index]
    return Hover(f"```hcl\n{definition_title(key)}\n```\n\nDeclared in {where}.", ref.start, end)  # type: ignore[union-attr, arg-type]
