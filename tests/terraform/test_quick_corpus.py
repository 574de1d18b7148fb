"""The quick open (`terraform.quick`) against the full analysis on real files: wherever it answers,
its diagnostics and definitions are exactly the full path's; and it does answer most real files.

The full path is `internals.file_diagnostics(state, PROVIDERS)` (explicit providers: never
the quick result) of a fresh `DocumentState`, alone and in a real `Workspace` module on disk."""

from __future__ import annotations

import json
import shutil

import pytest
from internals import file_diagnostics
from shared_data import HCL_JSON_CASES, REAL_CORPUS, require

from hcljson_ls.features.diagnostics import PROVIDERS
from hcljson_ls.terraform.quick import quick_file
from hcljson_ls.workspace import DocumentState, Workspace
from hcljson_ls.workspace.files import uri_of_path

require(REAL_CORPUS, HCL_JSON_CASES)

REAL = sorted(p for p in REAL_CORPUS.iterdir() if p.name.endswith(".json"))


def _full(text: str, uri: str, scope=None) -> tuple[list, list, list]:
    state = DocumentState.open(uri, text, 1, "terraform-json", scope)
    diags = file_diagnostics(state, PROVIDERS)
    keys, place = state.analysis.definitions()
    return diags, keys, [place(i) for i in range(len(keys))]


def _same(text: str, name: str) -> bool:
    """True when the quick open answered (and it must then equal the full path)."""
    uri = f"file:///m/{name}"
    quick = quick_file(text, f"/m/{name}")
    if quick is None:
        return False
    diags, keys, places = _full(text, uri)
    qkeys, qplace = quick.definitions()
    assert quick.diagnostics == diags, name
    assert qkeys == keys, name
    assert [qplace(i) for i in range(len(qkeys))] == places, name
    return True


def test_every_real_file_answered_quickly_is_answered_exactly() -> None:
    answered = [p.name for p in REAL if _same(p.read_text(encoding="utf-8", errors="surrogatepass"), p.name)]
    # Most real files are valid JSON with the shapes `hcljson.skim` follows: a quick open that
    # quietly stopped answering would make this test pass vacuously.
    assert len(answered) >= 75, (len(answered), len(REAL))


def test_quick_open_certifies_the_bulk_of_the_cdktf_stacks() -> None:
    certified = analysed = 0
    for p in REAL:
        if "cdk.tf.json" not in p.name:
            continue
        quick = quick_file(p.read_text(encoding="utf-8"), f"/m/{p.name}")
        if quick is not None:
            certified += quick.certified
            analysed += quick.analysed
    assert certified > analysed, (certified, analysed)


def _hcl_cases():
    with open(HCL_JSON_CASES, encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            if isinstance(case.get("input"), str):
                yield case["input"]


def test_hcl_json_cases_answered_quickly_are_answered_exactly() -> None:
    for i, text in enumerate(_hcl_cases()):
        _same(text, f"case{i}.tf.json")


def test_in_a_module_on_disk_the_quick_open_resolves_like_the_analysis(tmp_path) -> None:
    """Each real file opened in a module whose other files (on disk) declare what it refers to,
    and what it does not: the quick open reads the same scope as the analysis."""
    checked = 0
    for p in REAL[:40]:
        module = tmp_path / p.name.replace(".", "_")
        module.mkdir()
        target = module / "main.tf.json"
        shutil.copy(p, target)
        (module / "other.tf.json").write_text(json.dumps({
            "variable": {"region": {}, "environment": {}},
            "locals": {"name_prefix": "x"},
            "resource": {"aws_s3_bucket": {"b": {}}},
        }), encoding="utf-8")
        text = target.read_text(encoding="utf-8", errors="surrogatepass")
        ws = Workspace([str(tmp_path)])
        uri = uri_of_path(str(target))
        state = ws.open(uri, text, 1, "terraform-json")
        assert state is not None
        quick = state.quick()
        if quick is None:
            continue
        checked += 1
        got = list(quick.diagnostics)
        ws2 = Workspace([str(tmp_path)])
        state2 = ws2.open(uri, text, 1, "terraform-json")
        state2.prepare()
        assert state2.quick() is None
        assert got == file_diagnostics(state2), p.name
    assert checked >= 20


@pytest.mark.parametrize("text", [
    '{"resource": {"aws_instance": {"a": {"count": 1, "for_each": {}}}}}',
    '{"resource": {"aws_instance": {"a": {"ami": "${var.nope}"}}}}',
    '{"resource": {"aws_instance": {"a": {"ami": "${count.index}"}}}}',
    '{"resource": {"aws_instance": {"a": {"ami": "x"}, "a ": {}}}}',
    '{"output": {"o": {"value": "${upper(1, 2)}"}}, "variable": {"v": {}}}',
    '{"output": {"o": {"description": "x"}}}',
    '{"output": {"o": {"value": 1}, "o": {"value": 2}}}',
    '{"resource": {"aws_instance": {"a": {"x": 1}}}, "resource ": {}}',
    '{"resource": {"aws_instance": {"a": {"x": {"k": 1, "k": 2}}}}}',
    '{"resource": {"aws_instance": {"a": {"lifecycle": {"ignore_changes": ["*"]}}}}}',
    '{"resource": {"aws_instance": {"a": {"provider": "aws.west"}}}}',
    '{"resource": {"aws_instance": {"a": {"depends_on": ["aws_instance.b"]}, "b": {}}}}',
    '{"resource": {"aws_instance": {"a": {"x": "${aws_instance.a.id}"}}}, "data": {"d": {"e": {"f": "${data.d.e}"}}}}',
    '{"resource": {"aws_instance": {"a": {"x": "${each.key}", "for_each": "${toset([])}"}}}}',
    '{"resource": {"aws_instance": {"a": {"x": "${"}}}}',
    '{"locals": {"a": 1, "a": 2}, "resource": {"t": {"n": {"x": "${local.a}"}}}}',
    '{"//": "x", "resource": {"t": {"n": {"//": {"a": 1}, "x": "${path.nope}"}}}}',
    '{"resource": {"t": {"n": {"x": "a\\u0024{var.v}"}}}, "variable": {"v": {}}}',
    '{"resource": {"t": {"n": {"x": NaN}}}}',
    '\ufeff{"resource": {}}',
    '{"resource": {"t": {"n": {}}}} x',
])
def test_small_documents_answer_exactly(text: str) -> None:
    quick = quick_file(text, "/m/main.tf.json")
    if quick is not None:
        assert _same(text, "main.tf.json")
