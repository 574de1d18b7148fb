"""The figures of docs/conformance.md: the generated cases against Terraform's verdicts, and the corpus.

`measure()` runs `hcljson-ls check` once over every generated case (and once over the real corpus
when the shared data is there) and compares; `render()` writes the figures as Markdown, which
`write_doc()` puts between the markers of docs/conformance.md. `prune()` ratchets the stored
baselines after a fix: it deletes known false errors that no longer occur and lowers the misses
threshold, and never adds either.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import differential as dt
from conformance.generator import cases

DOC = dt.REPO / "docs" / "conformance.md"
BEGIN = "<!-- figures: begin (tools/differential.py report --write) -->"
END = "<!-- figures: end -->"
CORPUS_EXPECTATIONS = dt.HERE / "corpus_expectations.json"


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
    ours = dt.run_check(judged, root)
    stored = verdicts["cases"]
    results = [dt.compare_case(c, stored[c.id]["diagnostics"], ours[c.id]) for c in judged]
    return results, (missing, changed, orphans), verdicts.get("terraform", "?")


def corpus_results(root: Path) -> list[dict[str, Any]] | None:
    """Each real corpus file checked as a module of its own (they are unrelated files)."""
    import shared_data  # the tests' helper that finds the shared directory

    if not shared_data.REAL_SOURCES.exists():
        return None
    expectations = dt.load_json(CORPUS_EXPECTATIONS, {})
    with shared_data.REAL_SOURCES.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    files = {}
    for row in rows:
        name = row["file"]
        source = shared_data.REAL_CORPUS / name
        target = root / name.replace(".", "_") / name
        target.parent.mkdir(parents=True)
        shutil.copyfile(source, target)
        files[name] = target
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(dt.REPO / "server"), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-m", "hcljson_ls", "check", str(root), "--format", "json"],
                          capture_output=True, encoding="utf-8", env=env, timeout=600, stdin=subprocess.DEVNULL)
    errors: dict[str, list[str]] = {name: [] for name in files}
    for d in json.loads(proc.stdout or "[]"):
        if d["severity"] == "error":
            errors[Path(d["file"]).name].append(d.get("code") or "?")
    out = []
    for row in rows:
        name = row["file"]
        expected = expectations.get(name, {"valid": True, "why": ""})
        out.append({"file": name, "notes": row.get("notes", ""), "errors": sorted(set(errors.get(name, []))),
                    "count": len(errors.get(name, [])), "expected_valid": expected["valid"], "why": expected.get("why", "")})
    return out


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
        f"Generated cases judged by Terraform {f.terraform} (`terraform validate -json`, stored verdicts).",
        "",
        "| category | modules | Terraform errors | agreed | false errors | misses | miss rate | warnings (agreed / theirs) | extra warnings |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, t in [*f.per_category.items(), ("**all**", f.overall)]:
        lines.append(f"| {name} | {t.modules} | {t.terraform_errors} | {t.agreed} | {t.false_errors} | {t.misses} | "
                     f"{_pct(t.misses, t.terraform_errors)} | {t.warnings_agreed} / {t.warnings} | {t.extra_warnings} |")
    missing, changed, orphans = f.stale
    if missing or changed:
        lines += ["", f"Not compared (stale or missing verdict, run `tools/differential.py refresh`): "
                      f"{len(missing) + len(changed)} cases."]
    known = dt.load_known_false_errors()
    false_list = [(r.case.id, d) for r in f.results for d in r.false_errors]
    if false_list:
        lines += ["", "False errors (Terraform accepts the module, or reports nothing on that line):", ""]
        for case_id, d in false_list:
            reason = known.get((case_id, str(d.get("code"))))
            tag = f" (known: {reason})" if reason else " (**new**)"
            lines.append(f"- `{case_id}`: `{d.get('code')}` at {d['file']}:{d['start'][0]}: {d['summary']}{tag}")
    miss_list = [(r.case.id, d) for r in f.results for d in r.misses]
    if miss_list:
        lines += ["", "<details><summary>Misses (Terraform's error, none of ours on its lines)</summary>", ""]
        for case_id, d in miss_list:
            where = f"{d['file']}:{d['start'][0]}" if "file" in d else "no range"
            lines.append(f"- `{case_id}` ({where}): {d['summary']}")
        lines += ["", "</details>"]
    if f.corpus is not None:
        flagged = [c for c in f.corpus if c["count"]]
        right = [c for c in flagged if not c["expected_valid"]]
        wrong = [c for c in flagged if c["expected_valid"]]
        silent_invalid = [c for c in f.corpus if not c["count"] and not c["expected_valid"]]
        lines += [
            "",
            f"Real corpus (`shared/corpus/real`, {len(f.corpus)} files, each checked as a module of its own): "
            f"{len(flagged)} files get errors from us; {len(right)} of them are invalid on purpose "
            f"(right), {len(wrong)} are valid (false errors); {len(silent_invalid)} invalid files get no error.",
            "",
            "| file | our error codes | expected | why |",
            "| --- | --- | --- | --- |",
        ]
        for c in sorted([*flagged, *silent_invalid], key=lambda c: c["file"]):
            verdict = "valid" if c["expected_valid"] else "invalid"
            lines.append(f"| `{c['file']}` | {', '.join(c['errors']) or '-'} | {verdict} | {c['why'] or c['notes']} |")
    return "\n".join(lines)


def write_doc(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:start] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


def prune(f: Figures) -> list[str]:
    """Drop the known false errors that no longer occur; lower the misses threshold. Never adds."""
    said = []
    occurring = {(r.case.id, str(d.get("code"))) for r in f.results for d in r.false_errors}
    entries = dt.load_json(dt.KNOWN_FALSE_ERRORS, [])
    kept = [e for e in entries if (e["case"], e["code"]) in occurring]
    if len(kept) != len(entries):
        dt.save_json(dt.KNOWN_FALSE_ERRORS, kept)
        said.append(f"{len(entries) - len(kept)} known false errors fixed, removed from the list")
    thresholds = dt.load_json(dt.THRESHOLDS, {})
    if f.overall.misses < thresholds.get("misses", f.overall.misses + 1):
        said.append(f"misses threshold {thresholds.get('misses')} -> {f.overall.misses}")
        thresholds["misses"] = f.overall.misses
        dt.save_json(dt.THRESHOLDS, thresholds)
    return said


def stale_in_sample(version: str) -> list[str]:
    """Re-judge the sample with terraform `version`; the verdicts that differ from the stored ones."""
    verdicts = dt.load_verdicts()
    if verdicts.get("terraform") != version:
        return [f"the verdicts are of terraform {verdicts.get('terraform')}, this is {version}: run refresh"]
    problems = []
    with tempfile.TemporaryDirectory(prefix="hcljson-sample-") as tmp:
        for i, case in enumerate(dt.sample(cases())):
            stored = verdicts["cases"].get(case.id)
            fresh = dt.terraform_verdict(case, Path(tmp) / f"w{i}", version)
            if stored is None or dt.comparable(stored) != dt.comparable(fresh):
                problems.append(f"stale verdict for {case.id}: run `python tools/differential.py refresh`")
    return problems
