"""`features.state.DocumentState` and `features.diagnostics.collect`."""

from __future__ import annotations

import logging

import pytest

from hcljson_ls.diagnostic import ERROR, WARNING, Diagnostic
from hcljson_ls.features import diagnostics, state as state_module
from hcljson_ls.features.state import DocumentState
from hcljson_ls.jsonsyntax import parse


def summary(result):
    return [(d.start, d.end, d.code) for d in result.diagnostics]


def change(start, end, text):
    """An LSP-shaped change: ((line, character), (line, character)) range and new text."""
    return ((start, end), text)


def test_changes_keep_the_parse_identical_to_a_full_parse():
    s = DocumentState.open("file:///m/a.tf.json", '{\n  "a": [1, 2]\n}\n', version=1, language_id="json")
    assert s.version == 1 and summary(s.syntax) == []
    s.apply_changes([change((1, 12), (1, 12), ",")], version=2)  # trailing comma
    assert s.text == '{\n  "a": [1, 2,]\n}\n'
    assert s.version == 2
    assert summary(s.syntax) == summary(parse(s.text)) and [c for *_, c in summary(s.syntax)] == ["syntax/trailing-comma"]
    # two changes in one notification, the second relative to the first's result
    s.apply_changes([change((1, 12), (1, 13), ""), change((0, 1), (0, 1), " x")], version=3)
    assert s.text == '{ x\n  "a": [1, 2]\n}\n'
    assert summary(s.syntax) == summary(parse(s.text))
    # a full replacement (no range)
    s.apply_changes(["[]"], version=4)
    assert s.text == "[]" and summary(s.syntax) == summary(parse("[]"))


def test_utf16_positions_in_changes():
    s = DocumentState.open("file:///m/a.tf.json", '{"😀": [1]}')
    # after `[1`: 😀 is two UTF-16 units, so `1` ends at character 9 (UTF-16) / 8 (code points)
    s.apply_changes([change((0, 9), (0, 9), ",")], encoding="utf-16")
    assert s.text == '{"😀": [1,]}'
    s.apply_changes([change((0, 8), (0, 9), "")], encoding="utf-32")
    assert s.text == '{"😀": [1]}'


def test_cached_is_dropped_on_change_and_kept_survives():
    s = DocumentState.open("file:///m/a.tf.json", "{}")
    calls = []
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 1
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 1
    kept = s.kept("cache", dict)
    s.apply_changes([change((0, 1), (0, 1), " ")])
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 2
    assert calls == ["{}", "{ }"]
    assert s.kept("cache", dict) is kept


def test_a_failing_reparse_falls_back_to_a_full_parse(monkeypatch, caplog):
    s = DocumentState.open("file:///m/a.tf.json", '{"a": 1}')

    def broken(*args):
        raise RuntimeError("reparse bug")

    monkeypatch.setattr(state_module, "_reparse", broken)
    with caplog.at_level(logging.ERROR):
        s.apply_changes([change((0, 7), (0, 7), ",")])
        s.apply_changes([change((0, 0), (0, 0), " ")])  # no parse to update: nothing to fail
    assert "incremental reparse failed" in caplog.text
    assert s.text == ' {"a": 1,}'
    assert summary(s.syntax) == summary(parse(s.text))  # parsed in full when read


@pytest.mark.parametrize(
    "uri, path",
    [
        ("file:///m/override.tf.json", "/m/override.tf.json"),
        ("file:///m/with%20space/a.tf.json", "/m/with space/a.tf.json"),
        ("untitled:Untitled-1", "Untitled-1"),
    ],
)
def test_path(uri, path):
    assert DocumentState.open(uri, "{}").path == path


def test_collect_sorts_and_survives_a_failing_provider(caplog):
    s = DocumentState.open("file:///m/a.tf.json", '{"a": [1,], "b" 2}')

    def late_warning(state):
        return [Diagnostic(1, 4, WARNING, "test/w", "Early warning")]

    def broken(state):
        raise ValueError("provider bug")

    providers = [("syntax", diagnostics.syntax), ("broken", broken), ("warn", late_warning)]
    with caplog.at_level(logging.ERROR):
        got = diagnostics.collect(s, providers)
    assert "'broken' failed" in caplog.text
    assert [d.code for d in got] == ["test/w", "syntax/trailing-comma", "syntax/missing-colon"]
    assert [d.start for d in got] == sorted(d.start for d in got)
    assert all(d.severity == ERROR for d in got[1:])


def test_collect_uses_the_registered_providers():
    s = DocumentState.open("file:///m/a.tf.json", '{"a": [1,]}')
    assert [d.code for d in diagnostics.collect(s)][:1] == ["syntax/trailing-comma"]
