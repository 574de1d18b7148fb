"""`workspace.schema_fetch`: `providers schema -json` run in a module by a stand-in `terraform` on PATH,
its output cached on disk by the lock file's content (a hit runs nothing), and every way it can go
wrong coming back as one sentence."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import shared_data
from stand_in_terraform import StandIn

from hcljson_ls.workspace import schema_fetch
from hcljson_ls.workspace.schema_fetch import fetch

SCHEMA = shared_data.RANDOM_SCHEMA
shared_data.require(SCHEMA)

RANDOM = "registry.terraform.io/hashicorp/random"
LOCK = '# This file is maintained automatically by "terraform init".\nprovider "registry.terraform.io/hashicorp/random" {\n  version = "3.5.1"\n}\n'


@pytest.fixture
def tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandIn:
    """A stand-in `terraform` that prints the random provider's schema, alone on PATH."""
    stand_in = StandIn(tmp_path / "bin")
    stand_in.install("terraform", prints=SCHEMA)
    monkeypatch.setenv("PATH", str(stand_in.bin_dir))
    return stand_in


def module(root: Path, name: str = "stack", lock: str | None = LOCK, initialized: bool = True) -> str:
    directory = root / name
    directory.mkdir(parents=True)
    if initialized:
        (directory / ".terraform").mkdir()
    if lock is not None:
        (directory / ".terraform.lock.hcl").write_text(lock, encoding="utf-8")
    return str(directory)


def cache_files(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def test_runs_the_tool_in_the_module_and_caches_its_output(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path), tmp_path / "cache"
    result = fetch(directory, "auto", str(cache))
    assert result.problem is None and not result.from_cache
    assert result.schemas is not None and result.schemas.providers() == (RANDOM,)
    assert result.schemas.resource(RANDOM, "random_string") is not None
    assert tool.runs() == [f"{directory} providers schema -json TF_IN_AUTOMATION=1"]
    # One cache file, named by the digest of the tool and the lock file; no temporary file left behind.
    assert cache_files(cache) == [schema_fetch.cache_key(directory, "terraform") + ".json"]
    assert (cache / cache_files(cache)[0]).read_bytes() == SCHEMA.read_bytes()


def test_a_cache_hit_runs_nothing_even_for_another_module_with_the_same_lock_file(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path), tmp_path / "cache"
    fetch(directory, "auto", str(cache))
    again = fetch(directory, "auto", str(cache))
    twin = fetch(module(tmp_path, "twin"), "auto", str(cache))
    assert again.from_cache and again.problem is None and again.schemas.providers() == (RANDOM,)
    assert twin.from_cache and twin.schemas.providers() == (RANDOM,)
    assert len(tool.runs()) == 1


def test_a_changed_lock_file_runs_the_tool_again(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path), tmp_path / "cache"
    fetch(directory, "auto", str(cache))
    before = schema_fetch.lock_stamp(directory)
    Path(directory, ".terraform.lock.hcl").write_text(LOCK.replace("3.5.1", "3.6.0"), encoding="utf-8")
    assert schema_fetch.lock_stamp(directory) != before
    result = fetch(directory, "auto", str(cache))
    assert not result.from_cache and result.schemas is not None
    assert len(tool.runs()) == 2 and len(cache_files(cache)) == 2


def test_without_a_lock_file_the_cache_is_keyed_by_the_module_path(tool: StandIn, tmp_path: Path):
    cache = tmp_path / "cache"
    first, second = module(tmp_path, "a", lock=None), module(tmp_path, "b", lock=None)
    assert schema_fetch.lock_stamp(first) == ()
    assert schema_fetch.cache_key(first, "terraform") != schema_fetch.cache_key(second, "terraform")
    assert not fetch(first, "auto", str(cache)).from_cache
    assert fetch(first, "auto", str(cache)).from_cache
    assert not fetch(second, "auto", str(cache)).from_cache
    assert len(tool.runs()) == 2


def test_a_module_that_was_never_initialized_runs_nothing(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path, initialized=False), tmp_path / "cache"
    assert schema_fetch.lock_stamp(directory) is None
    assert fetch(directory, "auto", str(cache)) == schema_fetch.FetchResult()
    assert tool.runs() == [] and cache_files(cache) == []


def test_a_failing_tool_is_one_sentence_with_its_error_and_nothing_is_cached(tool: StandIn, tmp_path: Path):
    # Terraform's layout: a warning header first, then the error in a box drawn with ╷ │ ╵.
    tool.install("terraform", body="printf 'There are some problems with the CLI configuration:\\n\\342\\225\\267\\n\\342\\224\\202 Error: Inconsistent dependency lock file\\n\\342\\224\\202\\n' >&2; exit 1")
    directory, cache = module(tmp_path), tmp_path / "cache"
    result = fetch(directory, "auto", str(cache))
    assert result.schemas is None and not result.from_cache
    assert result.problem == (
        f"`terraform providers schema -json` failed in {directory} (exit status 1): Error: Inconsistent dependency lock file."
    )
    assert cache_files(cache) == []
    fetch(directory, "auto", str(cache))
    assert len(tool.runs()) == 2  # a failure is not cached


def test_a_tool_that_does_not_finish_is_stopped_at_the_timeout(tool: StandIn, tmp_path: Path):
    tool.install("terraform", body="sleep 30")
    directory, cache = module(tmp_path), tmp_path / "cache"
    result = fetch(directory, "auto", str(cache), timeout=0.3)
    assert result.schemas is None
    assert result.problem == f"`terraform providers schema -json` in {directory} took longer than 0.3 seconds and was stopped."
    assert cache_files(cache) == []


def test_output_that_is_not_a_schema_document_is_a_problem(tool: StandIn, tmp_path: Path):
    tool.install("terraform", body="echo 'Terraform v1.5.7 on linux_amd64'")
    directory, cache = module(tmp_path), tmp_path / "cache"
    result = fetch(directory, "auto", str(cache))
    assert result.schemas is None
    assert result.problem == (
        f"`terraform providers schema -json` in {directory} printed output that is not a `providers schema -json` "
        "document: expected a JSON object at offset 0."
    )
    assert cache_files(cache) == []


def test_no_tool_on_path_is_a_problem_and_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # never the real terraform of this machine
    result = fetch(module(tmp_path), "auto", str(tmp_path / "cache"))
    assert result == schema_fetch.FetchResult(
        problem="Neither terraform nor tofu is on PATH (outside the workspace folders), so provider schemas cannot be loaded automatically."
    )


@pytest.mark.parametrize(
    ("engine", "runs"), [("auto", "terraform"), ("terraform", "terraform"), ("opentofu", "tofu")]
)
def test_the_engine_decides_which_tool_is_tried_first(tool: StandIn, tmp_path: Path, engine: str, runs: str):
    tool.install("terraform", prints=SCHEMA, body=f"echo terraform >> {tool.bin_dir}/which; cat {SCHEMA}")
    tool.install("tofu", prints=SCHEMA, body=f"echo tofu >> {tool.bin_dir}/which; cat {SCHEMA}")
    directory, cache = module(tmp_path), tmp_path / "cache"
    assert fetch(directory, engine, str(cache)).schemas is not None
    assert (tool.bin_dir / "which").read_text().split() == [runs]
    assert cache_files(cache) == [schema_fetch.cache_key(directory, runs) + ".json"]


def test_the_other_tool_is_used_when_the_preferred_one_is_missing(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path), tmp_path / "cache"
    assert fetch(directory, "opentofu", str(cache)).schemas is not None  # only `terraform` is on PATH
    assert len(tool.runs()) == 1


def test_an_unreadable_cache_file_is_replaced(tool: StandIn, tmp_path: Path):
    directory, cache = module(tmp_path), tmp_path / "cache"
    cache.mkdir()
    (cache / (schema_fetch.cache_key(directory, "terraform") + ".json")).write_text("{truncated", encoding="utf-8")
    result = fetch(directory, "auto", str(cache))
    assert not result.from_cache and result.schemas is not None and len(tool.runs()) == 1
    assert fetch(directory, "auto", str(cache)).from_cache


def test_a_cancelled_fetch_is_no_problem_and_caches_nothing(tool: StandIn, tmp_path: Path):
    tool.install("terraform", body="sleep 30")
    cancel = threading.Event()
    cancel.set()
    directory, cache = module(tmp_path), tmp_path / "cache"
    assert fetch(directory, "auto", str(cache), timeout=30, cancel=cancel) == schema_fetch.FetchResult()
    assert cache_files(cache) == []


def test_the_default_cache_directory_follows_the_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if schema_fetch.default_cache_dir().startswith(str(tmp_path)):  # Linux and the BSDs read XDG_CACHE_HOME
        assert schema_fetch.default_cache_dir() == str(tmp_path / "hcljson-ls" / "provider-schemas")
    assert schema_fetch.default_cache_dir().endswith("provider-schemas")
