"""The `engineVersion` setting: a version string or null; anything else is reported and ignored."""

from __future__ import annotations

from hcljson_ls.lsp.config import DEFAULT, settings_from


def test_engine_version_takes_versions_and_null() -> None:
    got, problems = settings_from({"hcljson": {"engineVersion": "1.16.0-rc1"}})
    assert (got.engine_version, problems) == ("1.16.0-rc1", [])
    got, problems = settings_from({"engineVersion": None}, got)
    assert (got.engine_version, problems) == (None, [])
    assert DEFAULT.engine_version is None


def test_a_bad_engine_version_keeps_the_previous_value() -> None:
    before, _ = settings_from({"engineVersion": "1.11"})
    for bad in ("one.two", 11, True):
        got, problems = settings_from({"engineVersion": bad}, before)
        assert got.engine_version == "1.11" and len(problems) == 1 and "engineVersion" in problems[0]
