"""Where the tests find the shared data (the real-world corpus, hcl's recorded cases, ...).

The data is not part of the repository: it lives in a directory `shared/` beside the checkout
(`<repo root>/../shared`, the layout CI uses: `<dir>/<clone>` and `<dir>/shared`). The environment
variable `HCLJSON_SHARED` names another directory instead.

A test that needs a file from it says so with one of the helpers below. When the file is missing:

* locally, the test SKIPS, with a reason naming the missing path and `HCLJSON_SHARED`;
* under CI (`CI=true`), collecting the test module FAILS: a CI run must never pass with the corpus
  tests silently skipped.

Helpers:

* `require(*paths)`: at module level (all tests of the module need the data) or inside a test;
* `requires(*paths)`: a mark for one test (`@requires(REAL_SOURCES)`);
* `params(make, *paths)`: parametrize values computed from the data (`make()`), or, when the data
  is missing, one skipped parameter set that says why.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

#: The environment variable naming the shared directory (default: `<repo root>/../shared`).
ENV_VAR = "HCLJSON_SHARED"

REPO = Path(__file__).resolve().parents[1]


def shared_root() -> Path:
    """`$HCLJSON_SHARED` if set, else `shared/` beside the repository root."""
    configured = os.environ.get(ENV_VAR, "").strip()
    return Path(configured).expanduser().resolve() if configured else REPO.parent / "shared"


SHARED = shared_root()
CORPUS = SHARED / "corpus"
#: The real-world configuration files, and their classification (SOURCES.tsv).
REAL_CORPUS = CORPUS / "real"
REAL_SOURCES = REAL_CORPUS / "SOURCES.tsv"
#: hashicorp/hcl's own test inputs with the diagnostics hcl v2.14.1 was observed to report.
HCL_JSON_CASES = CORPUS / "hcl-json-cases.jsonl"
#: Built-in function signatures of Terraform and OpenTofu (`metadata functions -json`, no prose; SOURCES.md).
FUNCTION_SIGNATURES = SHARED / "data" / "functions"
#: Real `providers schema -json` outputs (SOURCES.md): AWS 4.13 with null, random, local, an OpenTofu
#: test provider with protocol-6 nested attributes.
PROVIDER_SCHEMAS = SHARED / "data" / "provider-schemas"
AWS_SCHEMA = PROVIDER_SCHEMAS / "aws-4.13.0_null-3.1.1.terraform-1.2.schemas.json"
RANDOM_SCHEMA = PROVIDER_SCHEMAS / "random-3.5.1.terraform-1.5.schemas.json"
LOCAL_SCHEMA = PROVIDER_SCHEMAS / "local-2.4.0.terraform-1.5.schemas.json"
TOFU_TEST_SCHEMA = PROVIDER_SCHEMAS / "test-provider.opentofu.schemas.json"


def in_ci() -> bool:
    """True when missing shared data must fail rather than skip (`CI=true`, as CI services set)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing_reason(*paths: Path) -> str | None:
    """Why the data is unavailable (the first missing path), or None when every path exists."""
    for path in paths:
        if not path.exists():
            return (
                f"shared test data not found: {path} (expected in {REPO.parent / 'shared'} beside the "
                f"checkout, or in the directory named by {ENV_VAR})"
            )
    return None


def require(*paths: Path) -> None:
    """Skip (locally) or fail (under CI) unless every path exists. At module level it skips or
    fails the whole module; inside a test, that test."""
    reason = missing_reason(*paths)
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def requires(*paths: Path) -> pytest.MarkDecorator:
    """A mark for a test that needs `paths`: skipped locally when one is missing. Under CI a missing
    path fails the collection of the module right here (a mark alone could only skip)."""
    reason = missing_reason(*paths)
    if reason is not None and in_ci():
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def params(make: Callable[[], Iterable[Any]], *paths: Path, arity: int = 1) -> list[Any]:
    """Parameters computed from shared data: `list(make())` when every path exists. Otherwise one
    parameter set (of `arity` Nones) that skips with the reason, or, under CI, a collection failure."""
    reason = missing_reason(*paths)
    if reason is None:
        return list(make())
    if in_ci():
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    return [pytest.param(*([None] * arity), marks=pytest.mark.skip(reason=reason), id="shared-data-missing")]
