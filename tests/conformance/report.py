"""The figures of docs/conformance.md: the generated cases against Terraform's verdicts, and the corpus.

`measure()` runs `hcljson-ls check` once over every generated case (and once over the real corpus
when the shared data is there) and compares; `render()` writes the figures as Markdown, which
`write_doc()` puts between the markers of docs/conformance.md. `prune()` ratchets the stored
baselines after a fix: it deletes known false errors that no longer occur and lowers the misses
threshold, and never adds either.
"""

from __future__ import annotations

import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import differential as dt
from conformance.generator import cases

DOC = dt.REPO / "docs" / "conformance.md"
BEGIN = "<!-- figures: begin (tools/differential.py report --write) -->"
END = "<!-- figures: end -->"


@dataclass(frozen=True)
class Figures:
    terraform: str
    overall: dt.Totals
    per_category: dict[str, dt.Totals]
    results: list[dt.CaseResult]
    stale: tuple[list[str], list[str], list[str]]
    corpus: list[dict[str, Any]] | None  # per corpus file: name, our errors, expected verdict


def compare_all(root: Path) -> tuple[list[dt.CaseResult], tuple[list[str], list[str], list[str]], str]:
    """Every generated case with a fresh verdict, compared (the stale ones are left out and listed)."""
    all_cases = cases()
    verdicts = dt.load_verdicts()
    missing, changed, orphans = dt.stale(all_cases, verdicts)
    skip = set(missing) | set(changed)
    judged = [c for c in all_cases if c.id not in skip]
    version = verdicts.get("terraform", "?")
    ours = dt.run_check(judged, root, dt.engine_args("terraform", version))
    stored = verdicts["cases"]
    results = [dt.compare_case(c, dt.theirs(stored[c.id]), ours[c.id]) for c in judged]
    return results, (missing, changed, orphans), version


#: `checks`: checkov's per-check examples (`.../checks/.../lock/pass.cdk.tf.json` and `fail.cdk.tf.json`,
#: each with its own backend: together they would be a module with two backends, which Terraform rejects).
FIXTURE_DIRS = ("testdata", "test-fixtures", "fixtures", "__snapshots__", "corpus", "__tests__", "expected", "checks")

#: Corpus files tf_corpus counts as accepted that Terraform rejects, as checked here with terraform.
VERIFIED_INVALID = {
    "hashicorp__terraform__configs__test-fixtures__valid-files__resources-ignorechanges-all-legacy.tf.json":
        'Terraform 1.11.4 rejects ignore_changes ["*"] ("Invalid ignore_changes wildcard", checked on terraform_data)',
    "hashicorp__terraform-config-inspect__tfconfig__test-fixtures__resource-provider-alias__alias.tf.json":
        "a provider alias no provider block configures: Terraform 1.11.4 validate says \"Provider configuration not "
        "present\" (generated case meta-arguments/resource-provider-alias-unknown)",
}
CHECKED_NAMES = (".tf.json", ".tofu.json", ".tfvars.json", ".tftest.json", ".tofutest.json")


def corpus_modules(rows: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    """The corpus files grouped as the modules they came from: the files of one repository directory
    together, except in test-fixture directories, whose files are each a module of its own."""
    modules: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        directory = row["path"].rpartition("/")[0]
        alone = any(part in FIXTURE_DIRS for part in directory.split("/"))
        key = row["file"] if alone else f"{row['repo']}/{directory}"
        modules.setdefault(key, []).append(row)
    return modules


#: The corpus files of OpenTofu's repository are OpenTofu configurations (its test data: provider
#: `for_each`, `tofu`-only syntax): `check` reads them with the engine they are written for.
OPENTOFU_REPOSITORY = "opentofu__opentofu__"


def corpus_results(root: Path) -> list[dict[str, Any]] | None:
    """Our errors on each real corpus file, checked within the module it came from, and its class
    (tests/terraform/tf_corpus.py: ACCEPTED, REJECTED, SYNTAX, NOT_CONFIG)."""
    import shared_data  # the tests' helpers: where the shared corpus is, and its classification
    from terraform import tf_corpus  # the corpus classification of the structure tests

    if not shared_data.REAL_SOURCES.exists():
        return None
    rows = tf_corpus.rows()
    where: dict[Path, str] = {}
    for i, (_key, members) in enumerate(sorted(corpus_modules(rows).items())):
        for row in members:
            name = row["path"].rpartition("/")[2]
            if not name.endswith(".json"):  # a generated stand-in: `path` names its generator script
                name = row["file"].rpartition("__")[2]
            target = root / f"m{i:03d}" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shared_data.REAL_CORPUS / row["file"], target)
            where[target.resolve()] = row["file"]
            if row["file"].startswith(OPENTOFU_REPOSITORY):  # OpenTofu's own configurations, read as it reads them
                (target.parent / ".hcljson-ls.json").write_text('{"engine": "opentofu"}', encoding="utf-8")
    errors: dict[str, list[str]] = {row["file"]: [] for row in rows}
    for d in dt.check_json([str(root)]):
        if d["severity"] == "error":
            errors[where[Path(d["file"]).resolve()]].append(d.get("code") or "?")
    return [{"file": row["file"], "class": tf_corpus.classify(row), "notes": row["notes"],
             "errors": sorted(set(errors[row["file"]])), "count": len(errors[row["file"]]),
             "expected": tf_corpus.REJECTED.get(row["file"], "")} for row in rows]


def measure() -> Figures:
    with tempfile.TemporaryDirectory(prefix="hcljson-conformance-") as tmp:
        results, stale, version = compare_all(Path(tmp) / "cases")
        corpus = corpus_results(Path(tmp) / "corpus")
    overall, per = dt.totals(results)
    return Figures(version, overall, per, results, stale, corpus)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def render(f: Figures) -> str:
    lines = [
        (f"Generated cases judged by Terraform {f.terraform} (`terraform validate -json`, and `terraform test -json` "
         "for the modules with test files; stored verdicts)."),
        "",
        "| category | modules | Terraform errors | agreed | same start | same range | false errors | need a plan | misses |"
        " misplaced | miss rate | warnings (agreed / theirs) | extra warnings |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    known = dt.load_known_false_errors()
    need_plan: dict[str, int] = {}
    for r in f.results:
        for d in r.false_errors:
            if known.get(dt.false_error_key(r, d), {}).get("kind") == "plan-time":
                need_plan[r.case.category] = need_plan.get(r.case.category, 0) + 1
                need_plan["**all**"] = need_plan.get("**all**", 0) + 1
    for name, t in [*f.per_category.items(), ("**all**", f.overall)]:
        plan = need_plan.get(name, 0)
        lines.append(f"| {name} | {t.modules} | {t.terraform_errors} | {t.agreed} | {t.same_start} | {t.same_range} | "
                     f"{t.false_errors - plan} | {plan} | {t.misses} | {t.misplaced} | "
                     f"{_pct(t.misses, t.terraform_errors)} | {t.warnings_agreed} / {t.warnings} | {t.extra_warnings} |")
    missing, changed, _orphans = f.stale
    if missing or changed:
        lines += ["", f"Not compared (stale or missing verdict, run `tools/differential.py refresh`): "
                      f"{len(missing) + len(changed)} cases."]
    false_list = [(r.case.id, d, known.get(dt.false_error_key(r, d))) for r in f.results for d in r.false_errors]
    plan_time = [(i, d, k) for i, d, k in false_list if k and k.get("kind") == "plan-time"]
    defects = [(i, d, k) for i, d, k in false_list if not (k and k.get("kind") == "plan-time")]
    lines += ["", f"**False errors: {len(defects)}** (Terraform accepts the module, even at plan, or we do not know):", ""]
    for case_id, d, k in defects:
        tag = f"known: {k['reason']}" if k else "**new**"
        lines.append(f"- `{case_id}`: `{d.get('code')}` at {d['file']}:{d['start'][0]}: {d['summary']} ({tag})")
    if plan_time:
        lines += ["", f"Errors that need a plan ({len(plan_time)}): `validate` accepts the module, `terraform plan` "
                      "rejects it at the same place (our error is right, only earlier than Terraform's):", ""]
        for case_id, d, k in plan_time:
            lines.append(f"- `{case_id}`: `{d.get('code')}` at {d['file']}:{d['start'][0]}: {k['reason']}")
    misplaced = [r for r in f.results if r.misplaced]
    if misplaced:
        lines += ["", f"Misplaced ({len(misplaced)} cases): both say the module is invalid, at different places:", ""]
        for r in misplaced:
            theirs = "; ".join(f"{d.get('file', '?')}:{d.get('start', ['?'])[0]} {d['summary']}" for d in r.misplaced)
            ours = "; ".join(f"{d['file']}:{d['start'][0]} `{d.get('code')}`" for d in r.misplaced_ours)
            lines.append(f"- `{r.case.id}`: Terraform {theirs}; ours {ours}")
    miss_list = [(r.case.id, d) for r in f.results for d in r.misses]
    if miss_list:
        lines += ["", f"<details><summary>Misses ({len(miss_list)}): Terraform's error, none of ours in the module"
                      "</summary>", ""]
        for case_id, d in miss_list:
            where = f"{d['file']}:{d['start'][0]}" if "file" in d else "no range"
            lines.append(f"- `{case_id}` ({where}): {d['summary']}")
        lines += ["", "</details>"]
    if f.corpus is not None:
        lines += ["", *render_corpus(f.corpus)]
    return "\n".join(lines)


#: Errors about what other files of the module hold (which the corpus may not have): a reference to
#: a name declared there, an override file's block overriding one (checked alone, an override
#: fixture has no primary file), a local module call whose directory is not in the corpus (Terraform
#: says "Module not installed" there too).
REFERENCE_CODES = ("reference/", "structure/override-without-base", "module/missing-directory")


def corpus_verdict(c: dict[str, Any]) -> str:
    """Whether our errors on a corpus file are right, by its class."""
    if not c["file"].endswith(CHECKED_NAMES):
        return "not read by check"
    if c["file"] in VERIFIED_INVALID:
        return "right" if c["errors"] else "missed"
    if c["class"] == "SYNTAX":
        return "right" if any(e.startswith("syntax/") for e in c["errors"]) else "missed"
    if c["class"] == "REJECTED":
        return "right" if c["expected"] in c["errors"] else "missed"
    if c["class"] == "NOT_CONFIG":
        return "not configuration"
    if not c["errors"]:
        return "right"
    if all(e.startswith(REFERENCE_CODES) for e in c["errors"]):
        return "incomplete module"
    return "false error"


def render_corpus(corpus: list[dict[str, Any]]) -> list[str]:
    flagged = [c for c in corpus if c["count"]]
    verdicts = {c["file"]: corpus_verdict(c) for c in corpus}
    count = lambda v: sum(1 for c in corpus if verdicts[c["file"]] == v)  # noqa: E731
    read = [c for c in corpus if verdicts[c["file"]] != "not read by check"]
    invalid = [c for c in read if c["class"] in ("SYNTAX", "REJECTED") or c["file"] in VERIFIED_INVALID]
    lines = [
        f"Real corpus (`shared/corpus/real`, {len(corpus)} files; the files of one repository directory checked "
        "together as their module, each test fixture alone): "
        f"**{len(flagged)} files get errors from us**.",
        "",
        f"- not named as a file `check` reads (`*.json` fixtures of HCL v1 and the like): {count('not read by check')};",
        f"- invalid ({len(invalid)}: not JSON, Terraform's own `invalid-files` and others it rejects): "
        f"{sum(1 for c in invalid if verdicts[c['file']] == 'right')} get the expected error, {count('missed')} do not;",
        f"- valid configuration ({sum(1 for c in read if c['class'] == 'ACCEPTED' and c['file'] not in VERIFIED_INVALID)}):"
        f" {count('false error')} get an "
        f"error that is not about references (false errors), {count('incomplete module')} only `reference/...` "
        "(or `structure/override-without-base`, `module/missing-directory`) errors for names or module directories no file we have declares "
        "(the rest of their module is not in the corpus: unverifiable, "
        "not counted as false errors);",
        f"- read by `check` but not configuration (Terragrunt, HCL JSON fixtures named `.tf.json`, ...): "
        f"{count('not configuration')}, of which {sum(1 for c in read if c['class'] == 'NOT_CONFIG' and c['count'])}"
        " get errors (not counted).",
        "",
        "| file | class | our error codes | verdict |",
        "| --- | --- | --- | --- |",
    ]
    shown = [c for c in corpus if c["count"] or verdicts[c["file"]] == "missed"]
    for c in sorted(shown, key=lambda c: (verdicts[c["file"]], c["file"])):
        lines.append(f"| `{c['file']}` | {c['class']} | {', '.join(c['errors'])} | {verdicts[c['file']]} |")
    return lines


def write_doc(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:start] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


def prune(f: Figures) -> list[str]:
    """Drop the known false errors that no longer occur; lower the misses and misplaced thresholds,
    raise the same-range floor. Never adds an entry, never loosens a threshold."""
    said = []
    occurring = {(r.case.id, str(d.get("code"))) for r in f.results for d in r.false_errors}
    entries = dt.load_json(dt.KNOWN_FALSE_ERRORS, [])
    kept = [e for e in entries if (e["case"], e["code"]) in occurring]
    if len(kept) != len(entries):
        dt.save_json(dt.KNOWN_FALSE_ERRORS, kept)
        said.append(f"{len(entries) - len(kept)} known false errors fixed, removed from the list")
    thresholds = dt.load_json(dt.THRESHOLDS, {})
    for name, today in (("misses", f.overall.misses), ("misplaced", f.overall.misplaced)):
        if today < thresholds.get(name, today + 1):
            said.append(f"{name} threshold {thresholds.get(name)} -> {today}")
            thresholds[name] = today
    if f.overall.same_range > thresholds.get("same_range", f.overall.same_range):
        said.append(f"same_range floor {thresholds.get('same_range')} -> {f.overall.same_range}")
        thresholds["same_range"] = f.overall.same_range
    dt.save_json(dt.THRESHOLDS, thresholds)
    return said


def stale_in_sample(version: str) -> list[str]:
    """Re-judge the sample with terraform `version`; the verdicts that differ from the stored ones."""
    verdicts = dt.load_verdicts()
    if verdicts.get("terraform") != version:
        return [f"the verdicts are of terraform {verdicts.get('terraform')}, this is {version}: run refresh"]
    picked = dt.sample(cases())
    with tempfile.TemporaryDirectory(prefix="hcljson-sample-") as tmp, ThreadPoolExecutor(max_workers=2) as pool:
        fresh = list(pool.map(lambda ic: dt.terraform_verdict(ic[1], Path(tmp) / f"w{ic[0]}", version), enumerate(picked)))
    return [f"stale verdict for {case.id}: run `python tools/differential.py refresh`"
            for case, verdict in zip(picked, fresh)
            if case.id not in verdicts["cases"] or dt.comparable(verdicts["cases"][case.id]) != dt.comparable(verdict)]
