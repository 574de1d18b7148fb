"""Makes the ``hcl_oracle`` fixture available to the oracle's own tests."""

from .fixtures import hcl_oracle  # noqa: F401  (pytest fixture)
