""""Did you mean ...?" only for what is shown (issue 21 §3): an undeclared reference's suggestion and
quick fix are looked for when its diagnostic is read (`diagnostic.Deferred`), so the ones the
`diagnostics.maxPerCode` collapse hides cost no search, while a shown one says exactly what it said
when every suggestion was computed up front.

A real `Workspace` on a temporary directory (the fixture dialect); the searches are counted at
`resolve._near`, the one place every suggestion of an undeclared reference is looked for (a counting
wrapper around the real function: every answer is still the real one)."""

from __future__ import annotations

import pytest
from fixture import lsp_range, parse_fixture

from hcljson_ls.diagnostic import Fix
from hcljson_ls.features import diagnostics
from hcljson_ls.terraform.resolution import resolve

MISSPELT = 30


def _fixture(count: int) -> str:
    names = ",\n".join(f'  "v{i}": "${{var.⟨environmnt{i}⟩}}"' for i in range(count))
    return (
        "//- /m/main.tf.json\n"
        '{"locals": {\n  "note": "$[free]free text",\n' + names + "\n},\n"
        ' "resource": {"terraform_data": {"web": {"input": "${$[dta]terraform_dta.web.id} ${terraform_data.$[webb]webb.id}"}}}}\n'
        "//- /m/variables.tf.json\n"
        '{"variable": {"environment": {}}}\n'
    )


@pytest.fixture
def searches(monkeypatch) -> list[str]:
    """The names a suggestion was looked for, in order."""
    asked: list[str] = []
    real = resolve._near

    def counting(name, candidates):
        asked.append(name)
        return real(name, candidates)

    monkeypatch.setattr(resolve, "_near", counting)
    # The candidates caches of this test's own, the one by content full (8 entries of other modules'
    # candidates, as a workspace of several modules leaves it; and as earlier tests of the same xdist
    # worker left it, which made this test flaky): it used to be emptied on the next entry, between
    # the quick open and the build, whose suggestions then held new (equal) candidates that are not
    # the same object, so comparing the two analyses worked the shown ones out again (12 searches).
    # Now only its oldest entry goes.
    monkeypatch.setattr(resolve, "_CANDIDATES", {})
    monkeypatch.setattr(resolve, "_CANDIDATES_BY_CONTENT", {("other module", i): ({}, resolve.Candidates(())) for i in range(8)})
    return asked


def _undeclared(found):
    return [d for d in found if d.code == resolve.UNDECLARED]


def test_a_shown_undeclared_reference_says_did_you_mean_with_its_quick_fix(tmp_path):
    fixture = parse_fixture(_fixture(3))
    ws = fixture.workspace(tmp_path, open=["/m/main.tf.json"])
    uri = ws.uri("/m/main.tf.json")
    found = _undeclared(diagnostics.collect(ws.snapshot(), uri, max_per_code=1000))
    ranges = fixture.files["/m/main.tf.json"].ranges
    assert [d.plain_message for d in found[:3]] == [
        f'Reference to undeclared input variable: No file of this module declares the input variable "var.environmnt{i}". '
        'Did you mean "var.environment"?' for i in range(3)]
    assert [d.fixes for d in found[:3]] == [
        (Fix(a, b, "environment", 'Change to "var.environment"'),) for a, b in ranges]
    # A resource: the name of the same type, else a type that declares the name (the fix on the type).
    webb, dta = found[4], found[3]
    assert webb.detail.endswith('Did you mean "terraform_data.web"?')
    at = fixture.mark("webb")[1]
    assert webb.fixes == (Fix(at, at + 4, "web", 'Change to "terraform_data.web"'),)
    assert dta.detail.endswith('Did you mean "terraform_data.web"?')
    at = fixture.mark("dta")[1]
    assert dta.fixes == (Fix(at, at + len("terraform_dta"), "terraform_data", 'Change to "terraform_data.web"'),)


def test_suggestions_are_looked_for_only_for_the_diagnostics_shown(tmp_path, searches):
    fixture = parse_fixture(_fixture(MISSPELT))
    ws = fixture.workspace(tmp_path, open=["/m/main.tf.json"])
    uri = ws.uri("/m/main.tf.json")

    shown = diagnostics.collect(ws.snapshot(), uri, max_per_code=5)
    assert [d.code for d in shown] == [resolve.UNDECLARED] * 5 + [diagnostics.TOO_MANY]
    assert all("Did you mean" in d.plain_message and d.fixes for d in shown[:5])
    # The 5 shown, and the first hidden one, which the summary quotes: not the other 27.
    assert 'Did you mean "var.environment"?' in shown[5].detail
    assert sorted(searches) == sorted(f"environmnt{i}" for i in range(6))

    # The tree and analysis built after the quick open agree with it without looking for any.
    state = ws.snapshot().document(uri)
    assert diagnostics.prepare(state) is False
    assert len(searches) == 6

    # An edit before them that changes no diagnostic moves them, still not looked for: the shown
    # ones are read again (new places), the hidden ones never.
    text = fixture.files["/m/main.tf.json"].text
    at = fixture.mark("free")[1]
    ws.workspace.change(uri, 2, [{"range": lsp_range(text, at, at), "text": "very "}], "utf-32")
    again = diagnostics.collect(ws.snapshot(), uri, max_per_code=5)
    assert [d.plain_message for d in again] == [d.plain_message for d in shown]
    assert [f.start for d in again for f in d.fixes] == [f.start + 5 for d in shown for f in d.fixes]
    assert len(searches) <= 12
    before = len(searches)

    # All shown: every one is looked for, and says what the shown ones said.
    every = _undeclared(diagnostics.collect(ws.snapshot(), uri, max_per_code=0))
    assert len(every) == MISSPELT + 2
    messages = [d.plain_message for d in every]
    assert messages[:5] == [d.plain_message for d in again[:5]]
    assert all("Did you mean" in m for m in messages)
    assert set(searches[before:]) >= {f"environmnt{i}" for i in range(6, MISSPELT)}  # the hidden ones, now
