"""Prints how many corpus strings the template checks parsed (collected by test_tf_templates_corpus.py)."""

from __future__ import annotations

import tf_tpl_corpus


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    counts = tf_tpl_corpus.COUNTS
    if not counts:
        return
    terminalreporter.section("Terraform templates: real corpus")
    terminalreporter.write_line(
        f"{tf_tpl_corpus.FILES[0]} configuration files; strings parsed: {counts['template']} templates, "
        f"{counts['traversal']} static references, {counts['native']} native expressions, {counts['type']} type "
        f"constraints; {counts['plain']} template-mode strings without ${{ or %{{ (plain text, not parsed)"
    )
