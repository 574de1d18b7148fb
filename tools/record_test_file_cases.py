"""Record what `terraform test` says about small JSON test files, for tests/terraform/test_testfile_terraform.py.

    python tools/record_test_file_cases.py [--terraform PATH] > tests/terraform/data/terraform_test_cases.json

Each case is one `tests/case.tftest.json` run by `terraform init` and `terraform test -no-color` (offline: the module under test
has only the built-in `terraform_data` resource and the built-in `terraform` provider) in a fresh copy of
the module below. The output keeps, per case, the file, the summaries of Terraform's "Error:" and
"Warning:" lines (the CLI configuration warning left out), and the Terraform version.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MODULE = {
    "variable": {"name": {"type": "string", "default": "a"}},
    "resource": {"terraform_data": {"web": {"input": "${var.name}"}}},
    "output": {"out": {"value": "${terraform_data.web.output}"}},
    "check": {"healthy": {"assert": [{"condition": '${var.name != ""}', "error_message": "empty"}]}},
}

APPLY = {"command": "apply"}
CASES: dict[str, dict] = {
    "valid": {
        "variables": {"name": "n"},
        "provider": {"terraform": {"alias": "fake"}},
        "override_resource": {"target": "terraform_data.web", "values": {"output": "o"}},
        "run": {
            "first": {"command": "apply", "state_key": "one", "providers": {"terraform": "terraform.fake"},
                      "assert": [{"condition": '${output.out == "o" && var.name == "n"}',
                                  "error_message": '${format("got %s", terraform_data.web.output)}'}]},
            "second": {"command": "plan", "variables": {"name": "${run.first.out}", "more": "${upper(var.name)}"},
                       "assert": {"condition": '${run.first.out != "" && var.more != ""}', "error_message": "x"}},
        },
    },
    "command-keyword": {"run": {"first": {"command": "aply"}}},
    "unknown-run-argument": {"run": {"first": {**APPLY, "bogus": 1}}},
    "mode-keyword": {"run": {"first": {**APPLY, "plan_options": {"mode": "refresh"}}}},
    "undeclared-variable": {"run": {"first": {**APPLY, "assert": [{"condition": '${var.nam == "x"}', "error_message": "x"}]}}},
    "undeclared-resource": {"run": {"first": {**APPLY, "assert": [{"condition": '${terraform_data.webb.output == ""}', "error_message": "x"}]}}},
    "undeclared-local": {"run": {"first": {**APPLY, "assert": [{"condition": "${local.zz == 1}", "error_message": "x"}]}}},
    "undeclared-output": {"run": {"first": {**APPLY, "assert": [{"condition": '${output.outt == ""}', "error_message": "x"}]}}},
    "undeclared-run": {"run": {"first": APPLY, "second": {**APPLY, "assert": [{"condition": '${run.firstt.out == ""}', "error_message": "x"}]}}},
    "later-run": {"run": {"first": {**APPLY, "variables": {"name": "${run.second.out}"}}, "second": APPLY}},
    "unknown-run-output": {"run": {"first": APPLY, "second": {**APPLY, "assert": [{"condition": '${run.first.nope == ""}', "error_message": "x"}]}}},
    "file-variables-run": {"run": {"first": APPLY}, "variables": {"name": "${run.first.out}"}},
    "file-variables-resource": {"run": {"first": APPLY}, "variables": {"name": "${terraform_data.web.output}"}},
    "run-variables-local": {"run": {"first": {**APPLY, "variables": {"name": "${local.a}"}}}},
    "check-in-assert": {"run": {"first": {**APPLY, "assert": [{"condition": "${check.healthy == 1}", "error_message": "x"}]}}},
    "expect-local": {"run": {"first": {**APPLY, "expect_failures": ["local.x"]}}},
    "expect-undeclared": {"run": {"first": {**APPLY, "expect_failures": ["var.nope"]}}},
    "override-undeclared": {"override_resource": {"target": "terraform_data.wbe"}, "run": {"first": APPLY}},
    "providers-undeclared": {"provider": {"terraform": {"alias": "fake"}},
                             "run": {"first": {**APPLY, "providers": {"terraform": "terraform.fak"}}}},
    "mock-source-missing": {"mock_provider": {"terraform": {"source": "./nope"}}, "run": {"first": APPLY}},
    "duplicate-run": {"run": [{"a": APPLY}, {"a": APPLY}]},
    "invalid-run-name": {"run": {"bad name": APPLY}},
    "missing-error-message": {"run": {"first": {**APPLY, "assert": [{"condition": "${true}"}]}}},
}

_SUMMARY = re.compile(r"^(Error|Warning): (.+)$")


def record(terraform: str) -> dict:
    version = json.loads(subprocess.run([terraform, "version", "-json"], capture_output=True, text=True, check=True).stdout)
    out = {"source": "recorded by tools/record_test_file_cases.py (terraform init + terraform test, offline); "
                     "the cases are this project's own", "terraform_version": version["terraform_version"],
           "module": MODULE, "cases": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in CASES.items():
            root = Path(tmp, name)
            (root / "tests").mkdir(parents=True)
            (root / "main.tf.json").write_text(json.dumps(MODULE, indent=1), encoding="utf-8")
            (root / "tests" / "case.tftest.json").write_text(json.dumps(case, indent=1), encoding="utf-8")
            # `init` reads the test files too: a file it rejects is answered there.
            run = subprocess.run([terraform, "init", "-backend=false", "-no-color"], cwd=root, capture_output=True, text=True)
            if run.returncode == 0:
                run = subprocess.run([terraform, "test", "-no-color"], cwd=root, capture_output=True, text=True)
            said = []
            for line in (run.stdout + run.stderr).splitlines():
                m = _SUMMARY.match(line.strip())
                if m and "CLI configuration" not in m[2]:
                    said.append([m[1].lower(), m[2]])
            out["cases"][name] = {"file": case, "terraform": said, "passed": run.returncode == 0}
            shutil.rmtree(root)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terraform", default="terraform")
    args = parser.parse_args()
    json.dump(record(args.terraform), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
