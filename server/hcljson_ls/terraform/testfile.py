"""Terraform/OpenTofu test files in JSON (`*.tftest.json`, `*.tofutest.json`): how they decode.

    is_test_file(name) -> bool        a test file, by name (any case): `catalogue.TEST_JSON`
    TEST_SCHEMA                       the root body of a test file

Contract
--------
* The root holds a test file's own top-level blocks, as `terraform test` reads them: `run "<name>"`,
  `variables` (one attribute per variable), `provider "<name>"`, `mock_provider "<name>"`,
  `override_resource`, `override_data`, `override_module` and `test`. Any other top-level key is
  unknown, as in a configuration file.
* The bodies of these blocks are open (any argument, any nested block): their own schemas (`run`'s
  `command`, `assert`, `expect_failures`, ...; a provider's arguments) are not checked yet, so
  nothing valid is ever reported. Terraform's configuration rules and reference resolution do not
  apply to a test file (`analysis.file_engine` decodes it without them).
"""

from __future__ import annotations

from ..hcljson.schema import BlockSchema, BodySchema
from . import catalogue

__all__ = ["TEST_SCHEMA", "is_test_file"]


def is_test_file(name: str | None) -> bool:
    """True for a JSON test file name, path or URI (`x.tftest.json`, `x.tofutest.json`; any case)."""
    return bool(name) and catalogue.file_kind(name, ignore_case=True) == catalogue.TEST_JSON  # type: ignore[arg-type]


TEST_SCHEMA = BodySchema.of(
    blocks=[
        BlockSchema("run", ("name",), None, "A test run: a plan or apply of the module, with assertions."),
        BlockSchema("variables", (), BodySchema(dynamic_attributes=True), "Values for the module's input variables in every run.",
                    max_items=1),
        BlockSchema("provider", ("name",), None, "A provider configuration for the runs."),
        BlockSchema("mock_provider", ("name",), None, "A provider whose resources and data sources are mocked."),
        BlockSchema("override_resource", (), None, "Values a resource takes instead of being created."),
        BlockSchema("override_data", (), None, "Values a data source returns instead of being read."),
        BlockSchema("override_module", (), None, "Outputs a module call returns instead of being run."),
        BlockSchema("test", (), None, "Settings of the whole test file (parallel runs)."),
    ],
    description="A Terraform test file: runs against the module of its directory.",
)
