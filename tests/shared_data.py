"""Where the tests find their data: the real-world corpus, hcl's recorded cases, function signatures
and real provider schemas. All of it is part of the repository, under `tests/data/` (what each file
is, where it comes from and its license: `tests/data/README.md` and the SOURCES files beside the
data), so a plain clone runs every test that needs it.

Large files are stored compressed (`NAME.json.gz`). The tests see them as plain files: the constants
below name a decompressed copy, written once per content into the temporary directory
(`schema_file(name)`).

Data missing from `tests/data/` means a broken checkout, never a missing prerequisite: the helpers
`require(*paths)` (module level or inside a test), `requires(*paths)` (a mark) and
`params(make, *paths)` (parameters computed from the data) FAIL the collection or the test with the
missing path. None of them skips.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]

#: The root of the test data.
DATA = REPO / "tests" / "data"
CORPUS = DATA / "corpus"
#: Real-world configuration files (and generated stand-ins), classified in SOURCES.tsv.
REAL_CORPUS = CORPUS / "real"
REAL_SOURCES = REAL_CORPUS / "SOURCES.tsv"
#: hashicorp/hcl's own test inputs with the diagnostics hcl v2.14.1 was observed to report.
HCL_JSON_CASES = CORPUS / "hcl-json-cases.jsonl"
#: Built-in function signatures of Terraform and OpenTofu (`metadata functions -json`, no prose; SOURCES.md).
FUNCTION_SIGNATURES = DATA / "functions"
#: Real `providers schema -json` outputs (SOURCES.md): AWS 4.13 with null, random, local, an OpenTofu
#: test provider with protocol-6 nested attributes.
PROVIDER_SCHEMAS = DATA / "provider-schemas"


def _decompressed_dir() -> Path:
    return Path(tempfile.gettempdir()) / f"hcljson-ls-test-data-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


def schema_file(name: str) -> Path:
    """The provider schema file `name` (`x.json`) as a plain file: `PROVIDER_SCHEMAS/name` when it is
    stored plain, else a decompressed copy of `PROVIDER_SCHEMAS/name.gz` (written atomically, once
    per content). A name stored in neither form gives its plain path, which does not exist."""
    plain = PROVIDER_SCHEMAS / name
    packed = PROVIDER_SCHEMAS / (name + ".gz")
    if plain.exists() or not packed.exists():
        return plain
    raw = gzip.decompress(packed.read_bytes())
    target = _decompressed_dir() / hashlib.sha256(raw).hexdigest()[:16] / name
    if not target.exists() or target.stat().st_size != len(raw):
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = target.with_name(f".{name}.{os.getpid()}")
        scratch.write_bytes(raw)
        os.replace(scratch, target)
    return target


def schema_files() -> list[Path]:
    """Every provider schema file of the test data, as plain files, by name."""
    names = sorted({p.name.removesuffix(".gz") for p in PROVIDER_SCHEMAS.glob("*.json*")})
    return [schema_file(n) for n in names]


AWS_SCHEMA = schema_file("aws-4.13.0_null-3.1.1.terraform-1.2.schemas.json")
RANDOM_SCHEMA = schema_file("random-3.5.1.terraform-1.5.schemas.json")
LOCAL_SCHEMA = schema_file("local-2.4.0.terraform-1.5.schemas.json")
TOFU_TEST_SCHEMA = schema_file("test-provider.opentofu.schemas.json")


def missing_reason(*paths: Path) -> str | None:
    """Why the data is unavailable (the first missing path), or None when every path exists."""
    for path in paths:
        if not path.exists():
            return f"test data missing from the checkout: {path} (tests/data/ is part of the repository)"
    return None


def require(*paths: Path) -> None:
    """Fail (the whole module at module level, else the test) unless every path exists."""
    reason = missing_reason(*paths)
    if reason is not None:
        pytest.fail(reason, pytrace=False)


def requires(*paths: Path) -> pytest.MarkDecorator:
    """A mark for a test that needs `paths`; a missing path fails the collection of the module."""
    require(*paths)
    return pytest.mark.skipif(False, reason="the test data is in the repository")


def params(make: Callable[[], Iterable[Any]], *paths: Path, arity: int = 1) -> list[Any]:
    """Parameters computed from the data: `list(make())`; a missing path fails the collection."""
    del arity  # kept for the callers' signature: a missing path no longer makes a placeholder set
    require(*paths)
    return list(make())
