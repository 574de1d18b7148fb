"""Comparing `hcljson-ls check` with Terraform's stored verdicts, and producing those verdicts.

- `terraform_verdict(case, workdir)` runs `terraform init -backend=false` and `terraform validate
  -json` on one generated module (only when refreshing; needs `terraform` on PATH) and returns its
  verdict: the Terraform version, the case's digest and Terraform's diagnostics, normalised (paths
  relative to the module, 1-based lines and columns as Terraform gives them). A module with test
  files is also run by `terraform test -json` (`test_diagnostics`): `validate` does not resolve the
  references of a run's assertions, `test` does; `theirs(verdict)` is both, what a case is judged by.
- `run_check(cases, root)` writes the modules under `root` and runs `hcljson-ls check --format json`
  once over all of them; it returns our diagnostics per case, in the same normalised form.
- `compare(...)` matches them, case by case, by Terraform's rule: a Terraform error is *agreed* when we
  report an error in the same file whose lines overlap its range (a Terraform diagnostic without a
  range is agreed by any error of ours in the module); an error of ours that no Terraform error
  matches is a *false error*; a Terraform error we do not match is a *miss*. When a case has both
  an unmatched Terraform error and an unmatched error of ours, we found that the module is invalid
  but said it elsewhere (another line, or the other of two duplicate declarations): both are
  *misplaced*, neither a miss nor a false error. Warnings are counted apart and never make a false
  error, a miss or a misplaced error.

Stored files (all in this directory): `verdicts.json` (case id -> verdict), `known_false_errors.json`
(false errors we have today, each with a reason; the test fails on any other), `thresholds.json` (the
most misses allowed; it may only go down).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.generator import Case

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VERDICTS = HERE / "verdicts.json"
KNOWN_FALSE_ERRORS = HERE / "known_false_errors.json"
THRESHOLDS = HERE / "thresholds.json"
HANDWRITTEN = HERE / "cases"

Diag = dict[str, Any]  # {"severity", "summary", "file", "start": [line, col], "end": [line, col], ...}


# --- Terraform --------------------------------------------------------------------------------------

def terraform_env(scratch: Path | None = None) -> dict[str, str]:
    """Offline, quiet, and never reading the user's CLI configuration.

    With `scratch`, a CLI configuration there makes providers installable only from an empty
    directory: `init` never reaches a registry, so a module that names a provider other than the
    built-in one gets the same verdict with or without a network.
    """
    config = os.devnull
    if scratch is not None:
        mirror = scratch / "empty-provider-mirror"
        mirror.mkdir(parents=True, exist_ok=True)
        rc = scratch / "terraformrc"
        if not rc.exists():
            rc.write_text('provider_installation {\n  filesystem_mirror {\n    path = %s\n  }\n}\n'
                          % json.dumps(str(mirror)), encoding="utf-8")
        config = str(rc)
    return dict(os.environ, CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1", TF_INPUT="0",
                TF_CLI_CONFIG_FILE=config, TF_LOG="")


def terraform_version() -> str | None:
    exe = shutil.which("terraform")
    if exe is None:
        return None
    out = subprocess.run([exe, "version", "-json"], capture_output=True, text=True, env=terraform_env(), timeout=60)
    try:
        return str(json.loads(out.stdout)["terraform_version"])
    except (ValueError, KeyError):
        return None


def _scrub(text: str, workdir: Path) -> str:
    """Terraform's text without the temporary directory it ran in (verdicts must not depend on it)."""
    for spelling in {str(workdir), str(workdir.resolve())}:
        text = text.replace(spelling + os.sep, "").replace(spelling, ".")
    return text


def _terraform_diag(d: Mapping[str, Any], workdir: Path) -> Diag:
    out: Diag = {"severity": d.get("severity", "error"), "summary": _scrub(d.get("summary", ""), workdir),
                 "detail": _scrub(d.get("detail", ""), workdir)}
    rng = d.get("range")
    if rng and rng.get("filename"):
        out["file"] = _scrub(rng["filename"], workdir).replace(os.sep, "/")
        out["start"] = [rng["start"]["line"], rng["start"]["column"]]
        out["end"] = [rng["end"]["line"], rng["end"]["column"]]
    return out


def terraform_verdict(case: Case, workdir: Path, version: str, timeout: float = 120) -> dict[str, Any]:
    """Terraform's verdict on `case`, run in a fresh copy of it under `workdir` (which it deletes)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for path, text in case.files:
        target = workdir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    env = terraform_env(workdir.parent)
    try:
        init = subprocess.run(["terraform", "init", "-backend=false", "-input=false", "-no-color"], cwd=workdir,
                              capture_output=True, text=True, env=env, timeout=timeout)
        validate = subprocess.run(["terraform", "validate", "-json", "-no-color"], cwd=workdir,
                                  capture_output=True, text=True, env=env, timeout=timeout)
        try:
            result = json.loads(validate.stdout)
            diagnostics = [_terraform_diag(d, workdir) for d in result.get("diagnostics", [])]
        except ValueError:
            diagnostics = [{"severity": "error", "summary": "terraform validate printed no JSON",
                            "detail": _scrub(validate.stderr.strip()[:500], workdir)}]
        verdict = {"digest": case.digest, "terraform": version, "init_ok": init.returncode == 0,
                   "diagnostics": diagnostics}
        if any(is_test_file(path) for path, _ in case.files):
            verdict["test_diagnostics"] = _terraform_test(workdir, env, timeout)
        return verdict
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


TEST_FILE_SUFFIXES = (".tftest.json", ".tftest.hcl", ".tofutest.json", ".tofutest.hcl")
#: `terraform test` outcomes of running the configuration, not findings about it (an assertion that
#: is false, an expected failure that did not happen: they need the values of a run): never compared.
RUN_OUTCOMES = frozenset({"Test assertion failed", "Missing expected failure"})


def is_test_file(path: str) -> bool:
    return path.endswith(TEST_FILE_SUFFIXES)


def _terraform_test(workdir: Path, env: Mapping[str, str], timeout: float) -> list[Diag]:
    """What `terraform test -json` reports about the module's test files: `validate` does not
    resolve the references of a run's `assert` and `expect_failures` (only `test` does), so the
    test-file cases are judged by both (`theirs`)."""
    proc = subprocess.run(["terraform", "test", "-json", "-no-color"], cwd=workdir, capture_output=True, text=True,
                          env=env, timeout=timeout)
    out: list[Diag] = []
    for line in proc.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("type") == "diagnostic" and isinstance(message.get("diagnostic"), dict):
            d = _terraform_diag(message["diagnostic"], workdir)
            if d["summary"] not in RUN_OUTCOMES and d not in out:
                out.append(d)
    return out


def theirs(verdict: Mapping[str, Any]) -> list[Diag]:
    """Terraform's diagnostics of a case: `validate`'s, and for a module with test files those
    `terraform test` adds (the same diagnostic reported by both counts once)."""
    found = list(verdict["diagnostics"])
    seen = {(d["severity"], d["summary"], d.get("file"), tuple(d.get("start", ()))) for d in found}
    for d in verdict.get("test_diagnostics", ()):
        key = (d["severity"], d["summary"], d.get("file"), tuple(d.get("start", ())))
        if key not in seen:
            seen.add(key)
            found.append(d)
    return found


# --- hcljson-ls ---------------------------------------------------------------------------------------

def write_cases(cases: Iterable[Case], root: Path) -> None:
    for case in cases:
        case.write(root)


def check_json(args: Sequence[str], timeout: float = 600) -> list[dict[str, Any]]:
    """The diagnostics of `hcljson-ls check ARGS --format json` (this checkout's), run once."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "server"), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-m", "hcljson_ls", "check", *args, "--format", "json"],
                          capture_output=True, encoding="utf-8", env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"hcljson-ls check failed (status {proc.returncode}): {proc.stderr.strip()}")
    return json.loads(proc.stdout or "[]")


@functools.lru_cache(maxsize=1)
def engine_flags_supported() -> bool:
    """Whether this checkout's `check` takes `--engine` and `--engine-version` (engineer lang's flags)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO / "server"), os.environ.get("PYTHONPATH")])))
    help_text = subprocess.run([sys.executable, "-m", "hcljson_ls", "check", "--help"], capture_output=True,
                               text=True, env=env, timeout=60, stdin=subprocess.DEVNULL).stdout
    return "--engine-version" in help_text and "--engine" in help_text


def engine_args(engine: str, version: str) -> list[str]:
    """`check` flags that pin the language to what judged the verdicts, where `check` has them
    (otherwise `check` reads the module as its defaults say)."""
    return ["--engine", engine, "--engine-version", version] if engine_flags_supported() else []


def run_check(cases: Sequence[Case], root: Path, extra_args: Sequence[str] = ()) -> dict[str, list[Diag]]:
    """Write `cases` under `root` and run `hcljson-ls check --format json` once over them all."""
    write_cases(cases, root)
    by_case: dict[str, list[Diag]] = {c.id: [] for c in cases}
    ids = sorted(by_case, key=len, reverse=True)
    for d in check_json([str(root), *extra_args]):
        rel = Path(d["file"]).resolve().relative_to(root.resolve()).as_posix()
        case_id = next((i for i in ids if rel.startswith(i + "/")), None)
        if case_id is None:
            raise RuntimeError(f"a diagnostic outside every case: {rel}")
        r = d["range"]
        by_case[case_id].append({
            "severity": d["severity"], "code": d.get("code"), "summary": d["message"],
            "file": rel[len(case_id) + 1:],
            "start": [r["start"]["line"] + 1, r["start"]["character"] + 1],
            "end": [r["end"]["line"] + 1, r["end"]["character"] + 1],
        })
    return by_case


# --- comparing -------------------------------------------------------------------------------------

def _overlaps(ours: Diag, theirs: Diag) -> bool:
    """Whether our diagnostic is about what Terraform's is: its lines overlap Terraform's range, or
    Terraform's detail names the place ours starts at ("already declared at main.tf.json:3,3-15")."""
    if "file" not in theirs:
        return True
    if re.search(rf"(^|[\s(]){re.escape(ours['file'])}:{ours['start'][0]},", theirs.get("detail", "")):
        return True
    if ours["file"] != theirs["file"]:
        return False
    return ours["start"][0] <= theirs["end"][0] and theirs["start"][0] <= ours["end"][0]


@dataclass
class CaseResult:
    case: Case
    agreed: list[Diag] = field(default_factory=list)
    misses: list[Diag] = field(default_factory=list)
    false_errors: list[Diag] = field(default_factory=list)
    misplaced: list[Diag] = field(default_factory=list)  # Terraform's errors we report elsewhere
    misplaced_ours: list[Diag] = field(default_factory=list)  # ours, where Terraform has none
    ours: list[Diag] = field(default_factory=list)  # every diagnostic of ours in the case
    same_start: int = 0  # agreed Terraform errors one of ours starts exactly where it does
    same_range: int = 0  # of those, the ones where it also ends where Terraform's does
    warnings_agreed: int = 0
    warnings_missed: list[Diag] = field(default_factory=list)
    extra_warnings: list[Diag] = field(default_factory=list)

    @property
    def terraform_errors(self) -> int:
        return len(self.agreed) + len(self.misses) + len(self.misplaced)


def compare_case(case: Case, theirs: Sequence[Diag], ours: Sequence[Diag]) -> CaseResult:
    result = CaseResult(case, ours=list(ours))
    their_errors = [d for d in theirs if d["severity"] == "error"]
    their_warnings = [d for d in theirs if d["severity"] == "warning"]
    our_errors = [d for d in ours if d["severity"] == "error"]
    our_warnings = [d for d in ours if d["severity"] == "warning"]
    unmatched: list[Diag] = []
    for t in their_errors:
        (result.agreed if any(_overlaps(o, t) for o in our_errors) else unmatched).append(t)
    result.same_start = sum(1 for t in result.agreed if "file" in t and any(
        o["file"] == t["file"] and o["start"] == t["start"] for o in our_errors))
    result.same_range = sum(1 for t in result.agreed if "file" in t and any(
        o["file"] == t["file"] and o["start"] == t["start"] and o["end"] == t.get("end") for o in our_errors))
    ours_unmatched = [o for o in our_errors if not any(_overlaps(o, t) for t in their_errors)]
    if unmatched and ours_unmatched:
        result.misplaced, result.misplaced_ours = unmatched, ours_unmatched
    else:
        result.misses, result.false_errors = unmatched, ours_unmatched
    for t in their_warnings:
        if any(_overlaps(o, t) for o in ours):
            result.warnings_agreed += 1
        else:
            result.warnings_missed.append(t)
    result.extra_warnings = [o for o in our_warnings if not any(_overlaps(o, t) for t in theirs)]
    return result


def false_error_key(result: CaseResult, diag: Diag) -> tuple[str, str]:
    return (result.case.id, str(diag.get("code")))


@dataclass(frozen=True)
class Totals:
    modules: int = 0
    with_errors: int = 0  # modules Terraform finds an error in
    terraform_errors: int = 0
    agreed: int = 0
    misses: int = 0
    false_errors: int = 0
    misplaced: int = 0
    same_start: int = 0
    same_range: int = 0
    warnings: int = 0
    warnings_agreed: int = 0
    extra_warnings: int = 0

    def add(self, r: CaseResult) -> Totals:
        return Totals(
            self.modules + 1, self.with_errors + (r.terraform_errors > 0), self.terraform_errors + r.terraform_errors,
            self.agreed + len(r.agreed), self.misses + len(r.misses), self.false_errors + len(r.false_errors),
            self.misplaced + len(r.misplaced), self.same_start + r.same_start, self.same_range + r.same_range,
            self.warnings + r.warnings_agreed + len(r.warnings_missed), self.warnings_agreed + r.warnings_agreed,
            self.extra_warnings + len(r.extra_warnings),
        )


def totals(results: Iterable[CaseResult]) -> tuple[Totals, dict[str, Totals]]:
    """The whole suite's totals, and per rule category."""
    overall = Totals()
    per: dict[str, Totals] = {}
    for r in results:
        overall = overall.add(r)
        per[r.case.category] = per.get(r.case.category, Totals()).add(r)
    return overall, dict(sorted(per.items()))


# --- stored files ----------------------------------------------------------------------------------

def load_json(path: Path, default: Any) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else default


def save_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def load_verdicts() -> dict[str, Any]:
    return load_json(VERDICTS, {"cases": {}})


def load_known_false_errors() -> dict[tuple[str, str], dict[str, str]]:
    """(case id, our code) -> {"kind": "defect" | "plan-time", "reason": ...}.

    "plan-time": `validate` accepts the module but `terraform plan` rejects it there (checked by
    hand, the plan's error quoted in the reason): the error is right, only earlier than Terraform's.
    "defect": Terraform accepts it; the rule is wrong."""
    return {(e["case"], e["code"]): e for e in load_json(KNOWN_FALSE_ERRORS, [])}


def stale(cases: Sequence[Case], verdicts: Mapping[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """(cases without a verdict, cases whose verdict is for other files, verdicts of no case)."""
    stored = verdicts.get("cases", {})
    missing = [c.id for c in cases if c.id not in stored]
    changed = [c.id for c in cases if c.id in stored and stored[c.id]["digest"] != c.digest]
    ids = {c.id for c in cases}
    orphans = sorted(i for i in stored if i not in ids)
    return missing, changed, orphans


def sample(cases: Sequence[Case]) -> list[Case]:
    """A few cases, the first and the middle one of each category (so valid and invalid ones): what
    CI judges again with terraform to catch stale verdicts."""
    by_category: dict[str, list[Case]] = {}
    for c in cases:
        by_category.setdefault(c.category, []).append(c)
    return [c for group in by_category.values() for c in dict.fromkeys([group[0], group[len(group) // 2]])]


def comparable(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """What must be equal between a stored verdict and a fresh one."""
    return {"digest": verdict["digest"], "diagnostics": sorted(
        (d["severity"], d["summary"], d.get("file", ""), tuple(d.get("start", ()))) for d in theirs(verdict))}
