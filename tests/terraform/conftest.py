"""Prints the corpus pass rates gathered by test_tf_corpus.py at the end of the run."""

from __future__ import annotations

import tf_corpus

_LABELS = {
    "ACCEPTED": "corpus files Terraform accepts, decoded with no structure error",
    "REJECTED": "corpus files Terraform rejects, reporting the named structure error",
    "SYNTAX": "corpus files that are not JSON, reporting a syntax error",
}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not tf_corpus.RESULTS:
        return
    terminalreporter.section("Terraform structure: corpus pass rates")
    for kind, label in _LABELS.items():
        if kind in tf_corpus.RESULTS:
            ok, total = tf_corpus.RESULTS[kind]
            terminalreporter.write_line(f"{label}: {ok}/{total} ({100.0 * ok / total:.1f}%)")
