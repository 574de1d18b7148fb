"""The differential suite's tool: refresh Terraform's verdicts, re-judge a sample, write the figures.

    python tools/differential.py refresh [--jobs 2] [--only ID_PREFIX]
        run `terraform init -backend=false` + `terraform validate -json` on every generated case
        (tests/conformance/generator.py) and store the verdicts in tests/conformance/verdicts.json.
        Needs `terraform` on PATH; runs offline (built-in provider only). ~1 min with 2 jobs.
    python tools/differential.py check-sample
        re-judge the first and the middle case of each category with terraform and fail (status 1) on a verdict that
        differs from the stored one (what CI does when terraform is on PATH).
    python tools/differential.py report [--write] [--prune]
        run `hcljson-ls check` over every case and the real corpus, print the figures, and with
        --write replace the generated part of docs/conformance.md; --prune deletes known false errors
        that no longer occur and lowers the misses threshold to today's count (it never adds).

See docs/conformance.md for what each figure means.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from conformance import differential as dt  # noqa: E402
from conformance import report as rp  # noqa: E402
from conformance.generator import cases  # noqa: E402


def refresh(jobs: int, only: str | None) -> int:
    version = dt.terraform_version()
    if version is None:
        print("refresh: terraform is not on PATH", file=sys.stderr)
        return 2
    selected = [c for c in cases() if only is None or c.id.startswith(only)]
    verdicts = dt.load_verdicts()
    stored = verdicts.setdefault("cases", {})
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hcljson-differential-") as tmp:
        def judge(item: tuple[int, dt.Case]) -> tuple[str, dict]:
            i, case = item
            return case.id, dt.terraform_verdict(case, Path(tmp) / f"w{i}", version)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for n, (case_id, verdict) in enumerate(pool.map(judge, enumerate(selected)), 1):
                stored[case_id] = verdict
                if n % 50 == 0:
                    print(f"refresh: {n}/{len(selected)}", file=sys.stderr)
    if only is None:
        ids = {c.id for c in selected}
        for orphan in [i for i in stored if i not in ids]:
            del stored[orphan]
    verdicts["terraform"] = version
    verdicts["generator"] = "tests/conformance/generator.py"
    dt.save_json(dt.VERDICTS, verdicts)
    print(f"refresh: {len(selected)} verdicts of terraform {version} in {time.monotonic() - started:.0f} s "
          f"-> {dt.VERDICTS.relative_to(REPO)}", file=sys.stderr)
    return 0


def check_sample() -> int:
    version = dt.terraform_version()
    if version is None:
        print("check-sample: terraform is not on PATH", file=sys.stderr)
        return 2
    problems = rp.stale_in_sample(version)
    for p in problems:
        print(f"check-sample: {p}", file=sys.stderr)
    return 1 if problems else 0


def report(write: bool, prune: bool) -> int:
    figures = rp.measure()
    text = rp.render(figures)
    print(text)
    if write:
        rp.write_doc(text)
        print(f"report: figures written to {rp.DOC.relative_to(REPO)}", file=sys.stderr)
    if prune:
        for line in rp.prune(figures):
            print(f"report: {line}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("refresh", help="store terraform's verdicts of every generated case")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--only", help="only the cases whose id starts with this")
    sub.add_parser("check-sample", help="re-judge a sample with terraform; fail on a stale verdict")
    p = sub.add_parser("report", help="the figures of docs/conformance.md")
    p.add_argument("--write", action="store_true", help="write them into docs/conformance.md")
    p.add_argument("--prune", action="store_true", help="drop fixed known false errors, lower the misses threshold")
    args = parser.parse_args(argv)
    if args.command == "refresh":
        return refresh(args.jobs, args.only)
    if args.command == "check-sample":
        return check_sample()
    return report(args.write, args.prune)


if __name__ == "__main__":
    sys.exit(main())
