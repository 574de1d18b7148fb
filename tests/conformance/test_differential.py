"""`hcljson-ls check` against Terraform's verdicts (docs/conformance.md).

The generated modules (`generator.py`) are written to a temporary directory and checked by ONE run of
the real `hcljson-ls check --format json`; each is compared with the verdict `terraform validate`
gave (`verdicts.json`, stored; no Terraform needed here). The targets:

- no false error beyond the known ones (`known_false_errors.json`, each with its reason), and every
  known one still happens (a fixed one must leave the list: `tools/differential.py report --prune`);
- no more misses than `thresholds.json` allows (it only goes down), and no fewer errors over
  Terraform's very range than its "same_range" (it only goes up).

With `terraform` on PATH (of the verdicts' version), a sample is judged again and must equal the
stored verdicts. The hand-written cases (`cases/*/verdict.json`: newer Terraform and OpenTofu) are
checked with `check --engine/--engine-version`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import differential as dt
from conformance import report as rp
from conformance.generator import cases


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dt.CaseResult]:
    found, _stale, _version = rp.compare_all(tmp_path_factory.mktemp("differential"))
    return found


def test_every_case_has_a_fresh_verdict() -> None:
    missing, changed, orphans = dt.stale(cases(), dt.load_verdicts())
    assert not (missing or changed or orphans), (
        "verdicts.json does not match the generator; run `python tools/differential.py refresh` "
        f"(terraform needed). Missing: {missing[:10]}; changed: {changed[:10]}; of no case: {orphans[:10]}"
    )


def test_a_changed_case_has_a_stale_verdict() -> None:
    case = cases()[0]
    path, text = case.files[0]
    edited = dt.Case(case.id, case.category, ((path, text.replace('"x"', '"y"', 1)), *case.files[1:]), case.intent)
    verdicts = {"cases": {case.id: {"digest": case.digest}}}
    assert text != edited.files[0][1]
    assert dt.stale([case], verdicts) == ([], [], [])
    assert dt.stale([edited], verdicts) == ([], [case.id], [])


def test_the_suite_covers_the_rule_categories() -> None:
    verdicts = dt.load_verdicts()["cases"]
    by_category: dict[str, list[bool]] = {}
    for case in cases():
        invalid = any(d["severity"] == "error" for d in verdicts.get(case.id, {}).get("diagnostics", []))
        by_category.setdefault(case.category, []).append(invalid)
    assert len(cases()) >= 600
    for category, flags in by_category.items():
        if category != "valid":
            assert any(flags) and not all(flags), f"{category}: needs both valid and invalid modules"


def _describe(result: dt.CaseResult, diag: dt.Diag) -> str:
    return f"{result.case.id}: {diag.get('code')} at {diag['file']}:{diag['start'][0]}: {diag['summary']}"


def test_no_new_false_errors(results: list[dt.CaseResult]) -> None:
    known = dt.load_known_false_errors()
    new = [_describe(r, d) for r in results for d in r.false_errors if dt.false_error_key(r, d) not in known]
    assert not new, (
        "errors where Terraform reports none (fix the rule; list one in known_false_errors.json, with its reason, "
        "only when a new case reveals it in code this change does not touch):\n" + "\n".join(new)
    )


def test_known_false_errors_still_happen(results: list[dt.CaseResult]) -> None:
    happening = {dt.false_error_key(r, d) for r in results for d in r.false_errors}
    fixed = sorted(k for k in dt.load_known_false_errors() if k not in happening)
    assert not fixed, ("known false errors that no longer happen; remove them from known_false_errors.json "
                       f"(`python tools/differential.py report --prune`): {fixed}")


def test_misses_within_threshold(results: list[dt.CaseResult]) -> None:
    overall, _ = dt.totals(results)
    allowed = dt.load_json(dt.THRESHOLDS, {})["misses"]
    assert overall.misses <= allowed, (
        f"{overall.misses} misses of {overall.terraform_errors} Terraform errors, more than the {allowed} allowed:\n"
        + "\n".join(f"{r.case.id}: {d['summary']}" for r in results for d in r.misses)
    )


def test_misplaced_within_threshold(results: list[dt.CaseResult]) -> None:
    """Errors we report at another place than Terraform (e.g. a missing argument at the block's key
    where Terraform points at the body's closing brace): no more than today."""
    overall, _ = dt.totals(results)
    allowed = dt.load_json(dt.THRESHOLDS, {})["misplaced"]
    assert overall.misplaced <= allowed, "\n".join(
        f"{r.case.id}: Terraform {[(d.get('file'), d.get('start')) for d in r.misplaced]}, "
        f"ours {[(d['file'], d['start'], d.get('code')) for d in r.misplaced_ours]}" for r in results if r.misplaced)


def test_duplicates_are_reported_where_terraform_reports_them(results: list[dt.CaseResult]) -> None:
    """A duplicate declaration is reported where Terraform reports it: each Terraform error that one
    of our `structure/duplicate-block` errors agrees with has one over its very range (the body's
    `{`, or the `[` of an array of bodies; a local value's whole attribute), and each one a
    `structure/duplicate-import` agrees with has one starting at its line and column (the later
    block's `to`: Terraform's range there is the address inside the string moved one column left,
    HCL's, ours the whole string). Native files are left out: Terraform's range there is the
    block's header, ours its label."""
    checked, wrong = 0, []
    for r in results:
        mine = [o for o in r.ours if o.get("code") in ("structure/duplicate-block", "structure/duplicate-import")]
        for t in r.agreed:
            if "file" not in t or not t["file"].endswith(".json") or not any(dt._overlaps(o, t) for o in mine):
                continue
            checked += 1
            if not any(o["file"] == t["file"] and o["start"] == t["start"]
                       and (o["end"] == t["end"] or o["code"] == "structure/duplicate-import") for o in mine):
                wrong.append(f"{r.case.id}: Terraform {t['file']}:{t['start']}-{t['end']}, ours "
                             f"{[(o['file'], o['start'], o['end']) for o in mine]}: {t['summary']}")
    assert checked >= 30 and not wrong, "\n".join(wrong)


def test_ranges_agree_with_terraform_at_least_as_often_as_before(results: list[dt.CaseResult]) -> None:
    """The agreed errors one of ours reports over Terraform's very range (line and column, start
    and end) never fall below `thresholds.json`'s "same_range" (it only goes up)."""
    overall, _ = dt.totals(results)
    floor = dt.load_json(dt.THRESHOLDS, {})["same_range"]
    assert overall.same_range >= floor, f"{overall.same_range} agreed errors over Terraform's range, at least {floor} before"


def test_a_miss_and_a_false_error_are_told_apart() -> None:
    """The comparison itself: overlapping lines agree, others are a miss and a false error."""
    case = cases()[0]
    theirs = [{"severity": "error", "summary": "Bad", "file": "main.tf.json", "start": [3, 5], "end": [4, 2]}]
    same_line = [{"severity": "error", "code": "x", "summary": "bad", "file": "main.tf.json", "start": [4, 1], "end": [4, 9]}]
    elsewhere = [{"severity": "error", "code": "x", "summary": "bad", "file": "main.tf.json", "start": [9, 1], "end": [9, 9]}]
    other_file = [{**same_line[0], "file": "child/main.tf.json"}]
    agreed = dt.compare_case(case, theirs, same_line)
    assert (len(agreed.agreed), agreed.misses, agreed.false_errors) == (1, [], [])
    assert (len(dt.compare_case(case, [], elsewhere).false_errors), dt.compare_case(case, theirs, []).misses) == (1, theirs)
    wrong = dt.compare_case(case, theirs, elsewhere)
    assert (wrong.agreed, wrong.misses, wrong.false_errors, len(wrong.misplaced), len(wrong.misplaced_ours)) == ([], [], [], 1, 1)
    assert len(dt.compare_case(case, theirs, [*same_line, *other_file]).false_errors) == 1
    named = [{**theirs[0], "file": "other.tf.json", "detail": "Already declared at main.tf.json:9,3-15."}]
    assert len(dt.compare_case(case, named, elsewhere).agreed) == 1
    rangeless = [{"severity": "error", "summary": "Bad", "detail": ""}]
    assert len(dt.compare_case(case, rangeless, elsewhere).agreed) == 1
    warning_only = dt.compare_case(case, [{**theirs[0], "severity": "warning"}], [])
    assert (warning_only.misses, len(warning_only.warnings_missed)) == ([], 1)


# --- fresh verdicts, where terraform is present ------------------------------------------------------

def test_a_sample_judged_again_equals_the_stored_verdicts() -> None:
    if shutil.which("terraform") is None:
        pytest.skip("terraform is not on PATH (the stored verdicts are compared without it above)")
    version = dt.terraform_version()
    stored = dt.load_verdicts().get("terraform")
    if version != stored and os.environ.get("CI") != "true":
        pytest.skip(f"terraform {version} on PATH, the verdicts are of {stored}")
    assert rp.stale_in_sample(version or "?") == []


# --- hand-written verdicts: newer Terraform, OpenTofu -------------------------------------------------

def _handwritten() -> list[Path]:
    return sorted(p.parent for p in dt.HANDWRITTEN.glob("*/verdict.json"))


def test_handwritten_verdicts_are_well_formed() -> None:
    dirs = _handwritten()
    assert len(dirs) >= 8
    for d in dirs:
        verdict = json.loads((d / "verdict.json").read_text(encoding="utf-8"))
        assert verdict["engine"] in ("terraform", "opentofu"), d
        assert verdict["version"].count(".") >= 1, d
        assert isinstance(verdict["valid"], bool), d
        assert verdict["source"].strip(), f"{d.name}: cite the line of source or the changelog entry"
        assert verdict["valid"] == (not verdict.get("errors")), d
        files = [p for p in d.rglob("*") if p.is_file() and p.name != "verdict.json"]
        assert files, d
        for e in verdict.get("errors", []):
            assert (d / e["file"]).is_file() and e["line"] >= 1, (d, e)


@pytest.mark.parametrize("case_dir", _handwritten(), ids=lambda p: p.name)
def test_handwritten_verdict(case_dir: Path, tmp_path: Path) -> None:
    if not dt.engine_flags_supported():
        pytest.skip("needs `hcljson-ls check --engine/--engine-version` (engineer lang's flags), not merged yet")
    verdict = json.loads((case_dir / "verdict.json").read_text(encoding="utf-8"))
    module = tmp_path / case_dir.name
    shutil.copytree(case_dir, module, ignore=shutil.ignore_patterns("verdict.json"))
    env = dict(os.environ, PYTHONIOENCODING="utf-8",
               PYTHONPATH=os.pathsep.join(filter(None, [str(dt.REPO / "server"), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "hcljson_ls", "check", str(module), "--format", "json",
                           "--engine", verdict["engine"], "--engine-version", verdict["version"]],
                          capture_output=True, encoding="utf-8", env=env, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode in (0, 1), proc.stderr
    found = json.loads(proc.stdout or "[]")

    def lines(severity: str) -> set[tuple[str, int]]:
        return {(Path(d["file"]).relative_to(module).as_posix(), d["range"]["start"]["line"] + 1)
                for d in found if d["severity"] == severity}

    expected = {(e["file"], e["line"]) for e in verdict.get("errors", [])}
    assert lines("error") == expected, f"{case_dir.name} ({verdict['source']})"
    if "warnings" in verdict:  # where the engine warns of nothing either ("taken literally" must not fire)
        assert lines("warning") == {(w["file"], w["line"]) for w in verdict["warnings"]}, case_dir.name
