"""After the tree, an edit that stays inside one top-level block costs that block (issue 21 §3): the
analysis keeps the other blocks' diagnostics as runs (`hcljson.incremental`: before the block, the
same runs; after it, the same runs with the edit's delta noted), `features.diagnostics` splices the
providers' runs into the previous version's merged runs (`_spliced`), and the LSP forms of the runs
it kept are reused whole. Always the diagnostics of a fresh analysis of the same text.

The splice is tested on its own (hypothesis: providers whose diagnostics interleave, an edit
anywhere), and through a real `Workspace` with the calls that would visit every diagnostic after
the edit counted (counting wrappers around the real functions: every answer is still the real one)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from hcljson_ls import diagnostic
from hcljson_ls.diagnostic import Diagnostic, Fix, Related, Runs
from hcljson_ls.features import diagnostics
from hcljson_ls.features.diagnostics import _inserted, _merged, _spliced, collect, gathered
from hcljson_ls.hcljson import incremental
from hcljson_ls.lsp import diagnostic_forms
from hcljson_ls.lsp.diagnostic_forms import Forms
from hcljson_ls.workspace import Workspace

# ---- the splice on its own -------------------------------------------------------------------------


def _one(start: int, kind: int, provider: int) -> Diagnostic:
    if kind == 0:
        return Diagnostic(start, start + 2, "error", f"p{provider}/a", f"at {start % 5}")
    if kind == 1:  # a related place and a fix, all after its start
        return Diagnostic(start, start + 1, "warning", f"p{provider}/b", "twice", "",
                          (Related(start + 1, start + 3, "first"),), (Fix(start, start + 1, "y", "fix"),))
    return Diagnostic(start, start, "hint", f"p{provider}/c", "empty")  # (zero width, several at one start)


# Per provider: (gap to the previous diagnostic, kind) pairs; diagnostics are 0-3 characters long.
_PROVIDER = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2)), max_size=12)


def _placed(pairs: list[tuple[int, int]], provider: int) -> list[Diagnostic]:
    out, at = [], 0
    for gap, kind in pairs:
        at += gap
        out.append(_one(at, kind, provider))
    return out


def _high(d: Diagnostic) -> int:
    return max([d.end, *(r.end for r in d.related), *(f.end for f in d.fixes)])


@settings(max_examples=60, deadline=None)
@given(st.lists(_PROVIDER, min_size=1, max_size=3), st.data())
def test_the_splice_is_the_merge_of_the_providers(providers, data):
    """Each provider's list after an edit `[start, old_end)` -> `new_end`: the runs of its
    diagnostics held before the edit, new ones inside it, those after it moved (the runs of the
    analysis after an edit inside one block). The splice of the previous merged runs equals the
    merge of the new lists, and keeps the previous runs where it can."""
    before_lists = tuple(Runs.of(sorted(_placed(p, i), key=lambda d: (d.start, d.end))) for i, p in enumerate(providers))
    end = max((_high(d) for found in before_lists for d in found), default=0) + 2
    start = data.draw(st.integers(0, end))
    old_end = data.draw(st.integers(start, end))
    new_end = start + data.draw(st.integers(0, 8))
    delta = new_end - old_end
    lists, kept, changed = [], [], []
    for i, found in enumerate(before_lists):
        n = len(found)
        head = next((k for k, d in enumerate(found) if _high(d) >= start), n)
        tail = next((k for k, d in enumerate(found) if k >= head and d.start >= old_end), n)
        middle = sorted((_one(start + k, kind, i) for k, kind in data.draw(
            st.lists(st.tuples(st.integers(0, max(0, new_end - start - 3)), st.integers(0, 2)), max_size=3))),
            key=lambda d: (d.start, d.end))
        lists.append(Runs.joined([*found.cut(0, head), Runs.new(middle), *found.cut(tail, n, delta)]))
        kept.extend(found[:head])
        changed.extend([*found[head:tail], *middle])
    lists = tuple(lists)
    merged_before = Runs.of(_merged(before_lists))
    spliced = _spliced(lists, before_lists, merged_before, (start, old_end, new_end))
    expected = _merged(lists)
    assert spliced is not None  # (every provider's list is runs of its previous one)
    assert list(spliced) == expected and spliced == expected
    assert spliced.count_before(start) == sum(1 for d in expected if d.start < start)
    if kept and all(d.start > k.start for d in changed for k in kept):
        first = spliced.runs[0]  # before what changed: the old run kept
        assert first.base is merged_before.runs[0].base and first.lo == 0 and first.delta == 0
    # Not runs of the previous lists (made afresh): no splice, the caller merges and realigns.
    fresh = tuple(list(found) for found in lists)
    assert _spliced(fresh, before_lists, merged_before, (start, old_end, new_end)) in (None, expected)


@settings(max_examples=40, deadline=None)
@given(_PROVIDER, _PROVIDER, st.data())
def test_diagnostics_merged_into_runs_go_where_the_merge_puts_them(own, extra, data):
    """`_inserted` (the module's diagnostics from other files, the collapse's summaries): each after
    the runs' diagnostics at its position, as the merge of the list and them puts it."""
    found = sorted(_placed(own, 0), key=lambda d: (d.start, d.end))
    cut = data.draw(st.integers(0, len(found)))
    runs = Runs.joined([*Runs.of(found).cut(0, cut), *Runs.of(found).cut(cut, len(found))])
    more = sorted(_placed(extra, 1), key=lambda d: (d.start, d.end))
    assert list(_inserted(runs, more)) == _merged([found, more])


# ---- through a real workspace ----------------------------------------------------------------------

URI = "file:///stack/cdk.tf.json"
RESOURCES = 40


def _document() -> str:
    """CDKTF-like resources, each with three misspelt references (undeclared variables)."""
    return json.dumps({
        "variable": {"environment": {"default": "dev"}},
        "resource": {"terraform_data": {f"r{i}": {
            "input": f"ami-{i}", "triggers_replace": [f"${{var.environmnt{i}_{k}}}" for k in range(3)]}
            for i in range(RESOURCES)}},
    }, indent=2)


@pytest.fixture
def visits(monkeypatch) -> dict[str, list]:
    """The diagnostics moved one by one by the analysis (`incremental._moved`), those checked one by
    one against the previous version's (`diagnostic.is_moved`, `realigned`), and those whose LSP form
    was looked up one by one (`diagnostic_forms._one_line_key`)."""
    seen: dict[str, list] = {"moved": [], "checked": [], "keyed": []}
    for module, name, into in ((incremental, "_moved", "moved"), (diagnostic, "is_moved", "checked"),
                               (diagnostic_forms, "_one_line_key", "keyed")):
        real = getattr(module, name)

        def counting(d, *args, _real=real, _into=seen[into]):
            _into.append(d)
            return _real(d, *args)

        monkeypatch.setattr(module, name, counting)
    monkeypatch.setattr(diagnostics, "is_moved", diagnostic.is_moved)  # (imported by name there)
    return seen


def _edit_inside(workspace: Workspace, version: int, text: str) -> None:
    """`text` inserted in `r20`'s "ami-..." string, or a line break at the start of its body (no
    diagnostic changes; a line break moves the lines of every later one)."""
    current = workspace.get(URI).text
    block = current.index('"r20"')  # search: a generated document, edited: its block r20
    at = current.index("{", block) + 1 if text == "\n" else current.index('"ami-', block) + 5  # search: as above
    index = workspace.get(URI).line_index
    line, character = index.position(at, "utf-16")
    where = types.Position(line=line, character=character)
    workspace.change(URI, version, [types.TextDocumentContentChangePartial(
        range=types.Range(start=where, end=where), text=text)], "utf-16")


@pytest.mark.parametrize("max_per_code", [0, 50])
def test_after_the_tree_an_edit_inside_one_block_visits_that_block_alone(visits, max_per_code):
    workspace = Workspace()
    state = workspace.open(URI, _document(), 1, "terraform-json")
    forms = Forms()
    encode = lambda: forms.encode(gathered(workspace.snapshot(), URI, max_per_code=max_per_code),  # noqa: E731
                                  state.line_index, "utf-16", URI)
    encode()  # the quick open's forms
    assert not diagnostics.prepare(state) and state.built  # the tree; the quick open agreed
    encode()
    for version, text in enumerate(["x", "yz", "\n"], start=2):
        for seen in visits.values():
            seen.clear()
        _edit_inside(workspace, version, text)
        shown = gathered(workspace.snapshot(), URI, max_per_code=max_per_code)
        items = encode()
        fresh_workspace = Workspace()
        fresh_workspace.open(URI, state.text, 1, "terraform-json")
        expected = collect(fresh_workspace.snapshot(), URI, max_per_code=max_per_code)
        assert list(shown) == expected == collect(workspace.snapshot(), URI, max_per_code=max_per_code)
        assert len(expected) == (RESOURCES * 3 if not max_per_code else max_per_code + 1)
        block = workspace.get(URI).text.index('"r20"'), workspace.get(URI).text.index('"r21"')  # search: the edited text
        # Nothing before or after r20 was moved, checked or looked up one by one: kept as runs.
        assert not visits["checked"]
        assert all(block[0] <= d.start < block[1] for d in visits["moved"])
        assert all(block[0] <= d.start < block[1] for d in visits["keyed"] if d.code != diagnostics.TOO_MANY)
        assert isinstance(shown, Runs) and len(shown.runs) >= 2
        assert items == Forms().encode(expected, state.line_index, "utf-16", URI)  # (a fresh conversion)
