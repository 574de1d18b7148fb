"""Test-only differential oracle: hashicorp/hcl v2.14.1 (Debian) behind a JSON-lines protocol.

Use the ``hcl_oracle`` pytest fixture (see README.md in this directory).
"""

from .client import (
    HclOracle,
    OracleError,
    OracleUnavailable,
    get_oracle,
    oracle_unavailable_reason,
    spans,
    summaries,
)
from .fixtures import hcl_oracle, oracle_required

__all__ = [
    "HclOracle",
    "OracleError",
    "OracleUnavailable",
    "get_oracle",
    "hcl_oracle",
    "oracle_required",
    "oracle_unavailable_reason",
    "spans",
    "summaries",
]
