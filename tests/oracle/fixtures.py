"""pytest fixture for the HCL reference oracle.

``hcl_oracle`` (session scope) yields the shared :class:`~.client.HclOracle`.
When Go or the Debian hcl sources are missing it SKIPS the test with the reason,
except under ``CI=true`` (or ``HCLREF_REQUIRED=1``), where it FAILS: CI must run
``.ci/install-oracle.sh`` first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .client import HclOracle, OracleUnavailable, get_oracle


def oracle_required() -> bool:
    """True when a missing oracle must fail rather than skip."""
    return os.environ.get("CI", "").strip().lower() == "true" or os.environ.get("HCLREF_REQUIRED", "") == "1"


@pytest.fixture(scope="session")
def hcl_oracle() -> Iterator[HclOracle]:
    try:
        oracle = get_oracle()
    except OracleUnavailable as e:
        if oracle_required():
            pytest.fail(f"hcl oracle required (CI) but unavailable: {e}", pytrace=False)
        pytest.skip(f"hcl oracle unavailable: {e}")
    yield oracle
