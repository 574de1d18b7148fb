"""Signature help (`features.signature_help`): the signature of the call around the `$0` cursor, its
parameters' ranges in the label and the active parameter, in template and native strings, through
JSON escapes, in half-typed documents; and, over the real corpus, at every offset, never a raise.

Fixtures are JSON text: `\\"` in them is a JSON escape (a quote of the expression)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.features.signature_help import SignatureHelp, help_for, signature_help
from hcljson_ls.terraform.definition import functions
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

FORMAT = "format(format string, args... any) string"
JOIN = "join(separator string, lists... list(string)) string"
UPPER = "upper(str string) string"


def help_at(tmp_path: Path, src: str, engine: str = "auto") -> SignatureHelp | None:
    fw = parse_fixture(src).workspace(tmp_path, engine=engine)
    uri, offset = fw.cursor
    return signature_help(fw.snapshot(), uri, offset)


def shown(h: SignatureHelp | None) -> tuple[str, int | None] | None:
    """(label, active parameter) of a help, for compact assertions."""
    return None if h is None else (h.label, h.active_parameter)


CASES = [
    # (id, fixture, (label, active parameter) or None)
    ("after-open-paren", r'{"locals": {"a": "${upper($0)}"}}', (UPPER, 0)),
    ("first-argument", r'{"locals": {"a": "${upper(var.x$0)}"}}', (UPPER, 0)),
    ("escaped-quotes-before", r'{"locals": {"a": "${format(\"%s\", $0)}"}}', (FORMAT, 1)),
    ("comma-in-string-is-no-separator", r'{"locals": {"a": "${format(\"a,b,%s\", $0)}"}}', (FORMAT, 1)),
    ("escaped-backslash-and-quote", r'{"locals": {"a": "${format(\"\\\"%s\", $0)}"}}', (FORMAT, 1)),
    ("unicode-escape-paren", r'{"locals": {"a": "${upper\u0028$0"}}', (UPPER, 0)),
    ("non-ascii", r'{"locals": {"é🌍": "Grüße 🌍 ${format(\"𝄞 %s %s\", \"ü\", $0)}"}}', (FORMAT, 1)),
    ("variadic-first", r'{"locals": {"a": "${format(\"%s %s %s\", a, $0)}"}}', (FORMAT, 1)),
    ("variadic-far", r'{"locals": {"a": "${format(\"%s %s %s\", a, b, c, $0)}"}}', (FORMAT, 1)),
    ("format-string-argument", r'{"locals": {"a": "${format($0\"%s\", a)}"}}', (FORMAT, 0)),
    ("join-separator", r'{"locals": {"a": "${join($0)}"}}', (JOIN, 0)),
    ("join-lists", r'{"locals": {"a": "${join(\",\", [\"a\"], $0)}"}}', (JOIN, 1)),
    ("nested-inner", r'{"locals": {"a": "${upper(format(\"%s\", $0))}"}}', (FORMAT, 1)),
    ("nested-back-to-outer", r'{"locals": {"a": "${upper(format(\"%s\", x)$0)}"}}', (UPPER, 0)),
    ("too-many-arguments", r'{"locals": {"a": "${upper(format(\"%s\", x), $0)}"}}', (UPPER, None)),
    ("limited-variadic", r'{"locals": {"a": "${lookup(m, \"k\", \"d\", $0)}"}}',
     ("lookup(inputMap any, key string, default... any) any", None)),
    ("lookup-default", r'{"locals": {"a": "${lookup(m, \"k\", $0)}"}}',
     ("lookup(inputMap any, key string, default... any) any", 2)),
    ("inside-brackets-is-one-argument", r'{"locals": {"a": "${join(\",\", [a, b, $0])}"}}', None),
    ("after-brackets", r'{"locals": {"a": "${join(\",\", [a, b], {k = 1, j = 2}, $0)}"}}', (JOIN, 1)),
    ("inside-string-argument", r'{"locals": {"a": "${format(\"%s, $0\", x)}"}}', (FORMAT, 0)),
    ("inside-second-string-argument", r'{"locals": {"a": "${join(\",\", \"x$0"}}', (JOIN, 1)),
    ("interpolation-in-string-argument", r'{"locals": {"a": "${format(\"${upper($0\")}"}}', (UPPER, 0)),
    ("core-namespace", r'{"locals": {"a": "${core::upper($0"}}', (UPPER, 0)),
    ("provider-function", r'{"locals": {"a": "${provider::aws::arn_parse($0)}"}}', None),
    ("provider-function-inner", r'{"locals": {"a": "${provider::aws::arn_parse(upper($0))}"}}', (UPPER, 0)),
    ("unknown-function", r'{"locals": {"a": "${nosuchfunction($0)}"}}', None),
    ("wrong-case", r'{"locals": {"a": "${Upper($0)}"}}', None),
    ("opentofu-only-in-terraform", r'{"locals": {"a": "${urldecode($0)}"}}', None),
    ("unterminated-at-end-of-line", '{"locals": {"a": "${format(\\"%s\\", var.x, $0\n}}', (FORMAT, 1)),
    ("unterminated-at-end-of-file", '{"locals": {"a": "${format(\\"%s\\", var.x, $0', (FORMAT, 1)),
    ("missing-closing-brace", r'{"locals": {"a": "${join(\"-\", $0)}"', (JOIN, 1)),
    ("resource-argument", r'{"resource": {"aws_instance": {"web": {"ami": "${lower($0)}"}}}}', ("lower(str string) string", 0)),
    ("template-key", r'{"locals": {"a": {"${upper($0)}": 1}}}', (UPPER, 0)),
    ("native-string", r'{"import": {"to": "aws_instance.web[upper($0)]", "id": "x"}}', (UPPER, 0)),
    ("native-list-element", r'{"resource": {"aws_instance": {"web": {"lifecycle": {"replace_triggered_by": ["x[format(\"%s\", $0)]"]}}}}}', (FORMAT, 1)),
    ("literal-text", r'{"locals": {"a": "upper($0)"}}', None),
    ("literal-mode", r'{"variable": {"v": {"default": "${upper($0)}"}}}', None),
    ("after-call", r'{"locals": {"a": "${upper(x)$0}"}}', None),
    ("on-the-name", r'{"locals": {"a": "${upp$0er(x)}"}}', None),
    ("after-closing-quote", r'{"locals": {"a": "${upper("$0}}', None),
    ("outside-strings", r'{"locals": {"a": $0"${upper(x)}"}}', None),
    ("number-value", r'{"locals": {"a": 1$02}}', None),
]


@pytest.mark.parametrize("src, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_signature_and_active_parameter(tmp_path: Path, src: str, expected) -> None:
    assert shown(help_at(tmp_path, src)) == expected


def test_the_whole_answer(tmp_path: Path) -> None:
    h = help_at(tmp_path, r'{"locals": {"a": "${format(\"%s\", $0)}"}}')
    fn = functions.lookup("format", "terraform")
    assert h == SignatureHelp(
        label=FORMAT,
        documentation=fn.description,
        parameters=h.parameters,
        active_parameter=1,
    )
    assert [(p.name, h.label[p.start : p.end]) for p in h.parameters] == [("format", "format string"), ("args", "args... any")]


def test_engine_specific_function_in_an_opentofu_module(tmp_path: Path) -> None:
    src = """
    //- /main.tofu.json
    {"locals": {"a": "${urldecode($0)}"}}
    """
    h = help_at(tmp_path, src)
    assert shown(h) == ("urldecode(str string) string", 0)
    # The same text in a Terraform module: not a function of Terraform.
    assert help_at(tmp_path / "tf", r'{"locals": {"a": "${urldecode($0)}"}}') is None


def test_the_signature_follows_the_engine(tmp_path: Path) -> None:
    """`templatestring` names its first parameter differently in the two engines."""
    text = r'{"locals": {"a": "${templatestring($0)}"}}'
    tf = help_at(tmp_path / "tf", text, engine="terraform")
    tofu = help_at(tmp_path / "tofu", text, engine="opentofu")
    assert tf.label[tf.parameters[0].start : tf.parameters[0].end] == "template string"
    assert tofu.label[tofu.parameters[0].start : tofu.parameters[0].end] == "data string"


def test_an_engine_setting_of_opentofu_applies_to_json_files(tmp_path: Path) -> None:
    assert shown(help_at(tmp_path, r'{"locals": {"a": "${urldecode($0)}"}}', engine="opentofu")) == (
        "urldecode(str string) string", 0)


def test_each_offset_of_a_call(tmp_path: Path) -> None:
    """Walking through `"${join(",", a, b)}"`: no help before `(` and after `)`, the separator up
    to the first comma at the call's level, then the variadic lists."""
    marked = parse_fixture(r'{"locals": {"a": "${join$[open](\",\"$[comma], a, b$[close])}"}}').only
    text, open_paren, close_paren, first_comma = marked.text, *(marked.marks[m] for m in ("open", "close", "comma"))
    fw = parse_fixture(text).workspace(tmp_path, open=["/main.tf.json"])
    uri = fw.uri("/main.tf.json")
    snap = fw.snapshot()
    got = [shown(signature_help(snap, uri, o)) for o in range(len(text) + 1)]
    for o, g in enumerate(got):
        if o <= open_paren or o > close_paren:
            assert g is None, (o, text[:o])
        elif o <= first_comma:
            assert g == (JOIN, 0), (o, text[:o])
        else:
            assert g == (JOIN, 1), (o, text[:o])


def test_unknown_document_and_offsets_out_of_range(tmp_path: Path) -> None:
    fw = parse_fixture(r'{"locals": {"a": "${upper($0"}}').workspace(tmp_path)
    uri, _ = fw.cursor
    snap = fw.snapshot()
    assert signature_help(snap, "file:///nowhere.tf.json", 0) is None
    assert signature_help(snap, uri, -1) is None
    assert signature_help(snap, uri, 10**6) is None


@pytest.mark.parametrize("engine", functions.ENGINES)
def test_parameter_ranges_of_every_builtin(engine: str) -> None:
    """For every built-in: each parameter's range is exactly its `name type` (`name... type` for
    the variadic one) in the label, in order, and the active parameter follows `parameter_at`."""
    for name in functions.names(engine):
        fn = functions.lookup(name, engine)
        h = help_for(fn, 0)
        assert h.label == functions.signature(fn)
        params = [*fn.parameters, *([fn.variadic] if fn.variadic else [])]
        assert [p.name for p in h.parameters] == [p.name for p in params]
        texts = [h.label[p.start : p.end] for p in h.parameters]
        assert texts == [f"{p.name} {p.type}" for p in fn.parameters] + (
            [f"{fn.variadic.name}... {fn.variadic.type}"] if fn.variadic else [])
        assert all(a.end < b.start for a, b in zip(h.parameters, h.parameters[1:]))
        for index in range(len(params) + 3):
            active = help_for(fn, index).active_parameter
            expected = functions.parameter_at(fn, index)
            if fn.max_args is not None and index >= fn.max_args:
                expected = None
            assert (h.parameters[active].name if active is not None else None) == (expected.name if expected else None)


# -- never raises ------------------------------------------------------------------------------------


def _corpus_names() -> list[str]:
    return sorted(p.name for p in shared_data.REAL_CORPUS.iterdir() if p.name.endswith(".json"))


CORPUS = shared_data.params(_corpus_names, shared_data.REAL_CORPUS)

#: Strings longer than this (raw characters) are sampled, not walked: `locate` decodes the whole
#: string under the cursor on every call, so walking one is quadratic in its length (a 25,000
#: character escaped IAM policy in the corpus would take minutes for nothing new).
LONG_STRING = 1_000
#: In a long string: every STRIDE-th offset, plus its first and last EDGE offsets.
STRIDE, EDGE = 97, 4

_JSON_STRING = re.compile(r'"(?:[^"\\\n\r]|\\[^\n\r])*"?')


def offsets_to_check(text: str) -> list[int]:
    """Every offset of `text`, except inside long strings, which are sampled (see LONG_STRING)."""
    skip: set[int] = set()
    for m in _JSON_STRING.finditer(text):
        start, end = m.span()
        if end - start > LONG_STRING:
            keep = {*range(start, start + EDGE), *range(end - EDGE, end + 1), *range(start, end, STRIDE)}
            skip.update(o for o in range(start, end + 1) if o not in keep)
    return [o for o in range(len(text) + 1) if o not in skip]


def _open_alone(root: Path, name: str, text: str) -> tuple[Workspace, str]:
    path = root / name
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([str(root)])
    uri = uri_of_path(str(path))
    workspace.open(uri, text, 1, "terraform-json")
    return workspace, uri


def _check(h: SignatureHelp) -> None:
    assert h.label.startswith(h.parameters[0].name, h.parameters[0].start) if h.parameters else True
    for p in h.parameters:
        assert 0 <= p.start < p.end <= len(h.label)
    assert h.active_parameter is None or 0 <= h.active_parameter < len(h.parameters)


@pytest.mark.parametrize("name", CORPUS)
def test_every_offset_of_a_corpus_file(name: str, tmp_path: Path) -> None:
    """At every offset of a real-world file (alone in its own workspace): an answer or None, never
    an exception, and any answer is well formed."""
    text = (shared_data.REAL_CORPUS / name).read_text(encoding="utf-8")
    workspace, uri = _open_alone(tmp_path, "main.tf.json", text)
    snap = workspace.snapshot()
    for offset in offsets_to_check(text):
        h = signature_help(snap, uri, offset)
        if h is not None:
            _check(h)


def test_the_corpus_has_calls_to_help_with(tmp_path: Path) -> None:
    """The test above is not vacuous: just after the `(` of the corpus's calls, help answers."""
    shared_data.require(shared_data.REAL_CORPUS)
    answered = set()
    for k, name in enumerate(_corpus_names()):
        text = (shared_data.REAL_CORPUS / name).read_text(encoding="utf-8")
        root = tmp_path / str(k)
        root.mkdir()
        workspace, uri = _open_alone(root, "main.tf.json", text)
        snap = workspace.snapshot()
        for m in re.finditer(r"\$\{([a-z]+)\(", text):
            h = signature_help(snap, uri, m.end())
            if h is not None:
                assert h.label.startswith(m.group(1) + "(") and h.active_parameter == 0
                answered.add(m.group(1))
    assert len(answered) >= 5, answered


_MANGLE = st.sampled_from(["", "(", ")", ",", '"', '\\"', "${", "}", "{", "[", "]", "\\", "format(", "core::", "é", "\n"])


@shared_data.requires(shared_data.REAL_CORPUS)
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_mangled_corpus_files_never_raise(data) -> None:
    """Any corpus file with a few random edits (brackets, quotes, escapes, half a call): offsets
    anywhere, and around the edits, still get an answer or None."""
    name = data.draw(st.sampled_from(_corpus_names()), label="file")
    text = (shared_data.REAL_CORPUS / name).read_text(encoding="utf-8")
    edited = []
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        start = data.draw(st.integers(0, len(text)), label="start")
        length = data.draw(st.integers(0, 20), label="length")
        text = text[:start] + data.draw(_MANGLE, label="insert") + text[start + length :]
        edited.append(start)
    with tempfile.TemporaryDirectory() as root:
        workspace, uri = _open_alone(Path(root), "main.tf.json", text)
        snap = workspace.snapshot()
        offsets = data.draw(st.lists(st.integers(0, len(text)), max_size=30), label="offsets")
        offsets += [o for e in edited for o in range(max(0, e - 3), min(len(text), e + 25) + 1)]
        for offset in offsets:
            h = signature_help(snap, uri, offset)
            if h is not None:
                _check(h)
