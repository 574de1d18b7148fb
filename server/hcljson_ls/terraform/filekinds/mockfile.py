"""Mock data files in JSON (`*.tfmock.json`): what a test's `mock_provider` loads from its `source`
directory.

    is_mock_file(name) -> bool       a mock data file, by name (any case): `catalogue.MOCK_JSON`
    MOCK_SCHEMA                      the root body of a mock data file

Contract
--------
* The root holds the blocks Terraform's `internal/configs/mock_provider.go` reads from a mock data
  file: `mock_resource "<type>"` and `mock_data "<type>"` (`defaults`, `override_during`), and
  `override_resource` / `override_data` (`target`, `values`, `override_during`), with the same
  bodies as inside a test file's `mock_provider` (`testfile`). Anything else is unknown.
* Checked like a test file's blocks (`testfile.TestFileChecks`: keywords, strings by mode). A mock
  file declares nothing and belongs to no module; its override targets are not resolved (Terraform
  does not check the targets of overrides loaded from a file either).
"""

from __future__ import annotations

from ...hcljson.schema import BodySchema
from ..definition import catalogue
from .testfile import MOCK_DATA, MOCK_RESOURCE, OVERRIDE_DATA, OVERRIDE_RESOURCE

__all__ = ["MOCK_SCHEMA", "is_mock_file"]


def is_mock_file(name: str | None) -> bool:
    """True for a JSON mock data file name, path or URI (`x.tfmock.json`; any case)."""
    return bool(name) and catalogue.file_kind(name, ignore_case=True) == catalogue.MOCK_JSON  # type: ignore[arg-type]


MOCK_SCHEMA = BodySchema.of(
    blocks=[MOCK_RESOURCE, MOCK_DATA, OVERRIDE_RESOURCE, OVERRIDE_DATA],
    description="Mock data for the `mock_provider` blocks of Terraform tests whose `source` is this directory.",
)
