"""The fixture helper itself (tests/fixture.py): markers are removed, offsets are right, files are
split at their header lines, and malformed fixtures are errors."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest
from fixture import CLOSE, CURSOR, DEFAULT_PATH, MARK, OPEN, Fixture, FixtureError, parse_fixture
from hypothesis import given, settings
from hypothesis import strategies as st
from source_files import python_sources

# Plain text: no marker can arise from it (no `0` after a `$`, no `//- ` line), but `$`, `{`, `/`,
# line ends and non-ASCII characters are there.
PLAIN = st.text(alphabet='${}"a1 \n\r\té😀/', min_size=1, max_size=6)


def strip_markers(marked: str) -> str:
    return MARK.sub("", marked.replace(CURSOR, "")).replace(OPEN, "").replace(CLOSE, "")


@st.composite
def marked_texts(draw, cursors: int = 1):
    """(marked source, [(index of ⟨ in it, index of its ⟩)], [indexes of $0])."""
    tokens: list[str] = []
    depth = 0
    for tok in draw(st.lists(st.one_of(PLAIN, st.just(OPEN), st.just(CLOSE)), max_size=14)):
        if tok == CLOSE and depth == 0:
            continue
        depth += {OPEN: 1, CLOSE: -1}.get(tok, 0)
        tokens.append(tok)
    tokens += [CLOSE] * depth
    for _ in range(draw(st.integers(0, cursors))):
        tokens.insert(draw(st.integers(0, len(tokens))), CURSOR)
    starts: list[int] = []
    pairs: list[tuple[int, int]] = []
    cursor_at: list[int] = []
    pos = 0
    for tok in tokens:
        if tok == OPEN:
            starts.append(len(pairs))
            pairs.append((pos, -1))
        elif tok == CLOSE:
            k = starts.pop()
            pairs[k] = (pairs[k][0], pos)
        elif tok == CURSOR:
            cursor_at.append(pos)
        pos += len(tok)
    return "".join(tokens), pairs, cursor_at


@settings(max_examples=300, deadline=None)
@given(marked_texts())
def test_markers_are_removed_and_each_range_is_the_text_it_enclosed(case) -> None:
    src, pairs, cursor_at = case
    f = parse_fixture(src).only
    assert f.path == DEFAULT_PATH
    assert f.text == strip_markers(src)
    # in the order of their opening marker; each range holds exactly what its markers enclosed
    assert len(f.ranges) == len(pairs)
    for (start, end), (i, j) in zip(f.ranges, pairs):
        assert start == len(strip_markers(src[:i]))
        assert f.text[start:end] == strip_markers(src[i + 1 : j])
    assert f.range_texts == [f.text[s:e] for s, e in f.ranges]
    if cursor_at:
        assert f.cursor == len(strip_markers(src[: cursor_at[0]])) and f.selection is None
    else:
        assert f.cursor is None and f.selection is None


@settings(max_examples=100, deadline=None)
@given(marked_texts(cursors=0), st.data())
def test_two_cursors_in_a_file_are_a_selection(case, data) -> None:
    src, _, _ = case
    a, b = sorted(data.draw(st.lists(st.integers(0, len(src)), min_size=2, max_size=2)))
    src = src[:a] + CURSOR + src[a:b] + CURSOR + src[b:]
    f = parse_fixture(src).only
    assert f.cursor is None
    assert f.selection == (len(strip_markers(src[:a])), len(strip_markers(src[: b + len(CURSOR)])))
    assert f.text == strip_markers(src)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.from_regex(r"/[a-z]{1,3}(/[a-z]{1,3})?\.tf\.json", fullmatch=True),
                          st.text(alphabet='{}"a1 \n\r\té😀', max_size=12)),
                min_size=1, max_size=4, unique_by=lambda f: f[0]))
def test_files_are_split_at_their_header_lines(files) -> None:
    src = "".join(f"//- {path}\n{text}" + ("\n" if text and not text.endswith("\n") else "") for path, text in files)
    fixture = parse_fixture(src)
    assert list(fixture.files) == [path for path, _ in files]
    for path, text in files:
        expected = text + ("\n" if text and not text.endswith("\n") else "")
        assert fixture.files[path].text == expected
        assert fixture.files[path].path == path


def test_a_fixture_without_header_is_main_tf_json_as_written() -> None:
    src = '\n  {"locals": {"a": "${var.x}-$${y}"}}\r\n'
    fixture = parse_fixture(src)
    assert list(fixture.files) == ["/main.tf.json"] and fixture.only.text == src


def test_terraform_templates_are_text_and_only_dollar_zero_is_a_cursor() -> None:
    f = parse_fixture('{"a": "${⟨var⟩.x}$${y}$$0"}').only
    assert f.text == '{"a": "${var.x}$${y}$"}'
    assert f.ranges == [(9, 12)] and f.range_texts == ["var"]
    assert f.text[: f.cursor].endswith("}$") and f.text[f.cursor :] == '"}'


def test_nested_ranges_are_listed_by_their_opening_marker() -> None:
    f = parse_fixture("⟨a⟨b⟩⟩⟨⟩c⟨⟨⟩⟩").only
    assert f.text == "abc"
    assert f.ranges == [(0, 2), (1, 2), (2, 2), (3, 3), (3, 3)]


def test_a_multi_file_fixture() -> None:
    fixture = parse_fixture(
        '//- /main.tf.json\r\n{"module": {"net": {"source": "./net"}}}\n'
        "//- /net/variables.tf.json\n"
        '{"variable": {⟨"cidr"⟩: {}}}\n'
        "\n"
        "//- /net/main.tf.json  \n"
        '{"resource": {"a": {"b": {"c": "${var.cid$0r}"}}}}'
    )
    main, variables, net = fixture.files.values()
    assert (main.path, main.text) == ("/main.tf.json", '{"module": {"net": {"source": "./net"}}}\n')
    assert variables.text == '{"variable": {"cidr": {}}}\n\n' and variables.range_texts == ['"cidr"']
    assert net.path == "/net/main.tf.json" and net.text == '{"resource": {"a": {"b": {"c": "${var.cidr}"}}}}'
    assert fixture.cursor_file is net and net.text[net.cursor :] == 'r}"}}}}'
    with pytest.raises(FixtureError, match="one-file"):
        fixture.only


def test_an_indented_multi_file_fixture_loses_the_indentation_of_its_first_header() -> None:
    fixture = parse_fixture("""
        //- /a.tf.json
        {
          "locals": {}
        }

        //- /b.tf.json
        []
        """)
    assert fixture.files["/a.tf.json"].text == '{\n  "locals": {}\n}\n\n'
    assert fixture.files["/b.tf.json"].text == "[]\n"


def test_write_puts_every_file_under_the_root_byte_for_byte(tmp_path) -> None:
    fixture = parse_fixture('//- /main.tf.json\n{"a": "é😀"}\r\n//- /modules/net/x.tf.json\n{}')
    written = fixture.write(tmp_path)
    assert written == {"/main.tf.json": tmp_path / "main.tf.json",
                       "/modules/net/x.tf.json": tmp_path / "modules" / "net" / "x.tf.json"}
    assert written["/main.tf.json"].read_bytes() == '{"a": "é😀"}\r\n'.encode()
    assert written["/modules/net/x.tf.json"].read_bytes() == b"{}"


@settings(max_examples=100, deadline=None)
@given(marked_texts(), st.data())
def test_named_marks_are_removed_and_keep_their_offsets(case, data) -> None:
    src, _, _ = case
    names = data.draw(st.lists(st.from_regex(r"[A-Za-z0-9_.-]{1,6}", fullmatch=True), max_size=4, unique=True))
    # each mark goes between two tokens of the generated text (never inside `$0`)
    cuts = sorted(data.draw(st.lists(st.sampled_from(_boundaries(src)), min_size=len(names), max_size=len(names))))
    marked, last, expected = "", 0, {}
    for name, cut in zip(names, cuts):
        marked += src[last:cut]
        expected[name] = len(strip_markers(marked))
        marked += f"$[{name}]"
        last = cut
    marked += src[last:]
    f = parse_fixture(marked).only
    assert f.marks == expected and list(f.marks) == names
    assert f.text == strip_markers(src) == parse_fixture(src).only.text
    assert f.ranges == parse_fixture(src).only.ranges and f.cursor == parse_fixture(src).only.cursor


def _boundaries(src: str) -> list[int]:
    """Offsets of `src` that split no `$0` (and no `$` from a following `0`)."""
    return [i for i in range(len(src) + 1) if not (0 < i < len(src) and src[i - 1] == "$")]


def test_named_marks_in_several_files() -> None:
    fixture = parse_fixture(
        "//- /a.tf.json\n"
        '{"locals": {$[name]"x": $[value]1}}\n'
        "//- /b.tf.json\n"
        '{"output": {$[name]"o": {"value": "${local.$0x}"}}}\n'
    )
    a, b = fixture.files.values()
    assert a.marks == {"name": 12, "value": 17} and b.marks == {"name": 12}
    assert fixture.mark("value") == ("/a.tf.json", 17)
    assert fixture.mark("name", "/b.tf.json") == ("/b.tf.json", 12) and b.text[12:15] == '"o"'
    with pytest.raises(FixtureError, match="in 2 files"):
        fixture.mark("name")
    with pytest.raises(FixtureError, match="in 0 files"):
        fixture.mark("missing")
    with pytest.raises(FixtureError, match="has no mark"):
        fixture.mark("value", "/b.tf.json")
    assert b.cursor == len('{"output": {"o": {"value": "${local.') and fixture.cursor_file is b


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("{⟨", "never closed"),
        ("{⟨⟨⟩}", "never closed"),
        ("⟩{}", "closes no"),
        ("{⟨}⟩⟩", "closes no"),
        ("$0a$0b$0", "3 \\$0"),
        ("//- /a.tf.json\n$0{}\n//- /b.tf.json\n{$0}", "more than one file"),
        ("//- /a.tf.json\n$0{}\n//- /b.tf.json\n{$0$0}", "more than one file"),
        ("//- /a.tf.json\n{}\n//- /a.tf.json\n[]", "appears twice"),
        ("//- a.tf.json\n{}", "absolute path"),
        ("//- \n{}", "absolute path"),
        ("//- /a b.tf.json\n{}", "absolute path"),
        ('{"a": 1}\n//- /b.tf.json\n{}', "before the first"),
        ("  //- /a.tf.json\n  {}\n []", "indented less"),
        ("//- /a.tf.json\n{⟨}\n//- /b.tf.json\n⟩", "never closed"),
        ('{"a": $[x]1, "b": $[x]2}', "appears twice"),
        ('{"a": "$[]"}', "not a mark"),
        ('{"a": "$[a b]"}', "not a mark"),
    ],
)
def test_malformed_fixtures_are_errors(src: str, message: str) -> None:
    with pytest.raises(FixtureError, match=message):
        parse_fixture(src)


def test_a_fixture_without_cursor_has_no_cursor_file() -> None:
    fixture = parse_fixture("{}")
    assert isinstance(fixture, Fixture) and fixture.only.cursor is None
    with pytest.raises(FixtureError, match="no \\$0"):
        fixture.cursor_file


# -------------------------------------------------------------------------------------------- workspace

MODULE = """
//- /app/main.tf.json
{"variable": {"region": {}}, "output": {"r": {"value": "${var.reg$0ion}"}}}
//- /app/variables.tf.json
{"variable": {⟨"zone"⟩: {}}}
//- /app/extra.tofu.json
{"locals": {}}
//- /app/native.tf
variable "n" {}
//- /app/notes.json
{}
//- /net/main.tf.json
{}
"""


def test_workspace_opens_the_cursor_file_and_leaves_its_siblings_on_disk(tmp_path) -> None:
    from hcljson_ls.workspace import Workspace
    from hcljson_ls.workspace.files import uri_of_path

    fixture = parse_fixture(MODULE)
    ws = fixture.workspace(tmp_path)
    assert isinstance(ws.workspace, Workspace) and ws.workspace.folders == (str(tmp_path),)
    assert ws.paths == fixture.write(tmp_path)  # written where `write` puts them
    assert ws.uris == {path: uri_of_path(str(p)) for path, p in ws.paths.items()}
    main = ws.uri("/app/main.tf.json")
    assert ws.workspace.uris() == [main]  # only the file holding $0
    assert ws.snapshot().document(main).text == fixture.files["/app/main.tf.json"].text  # without markers
    assert ws.snapshot().document(main).version == 1
    assert ws.cursor == (main, len('{"variable": {"region": {}}, "output": {"r": {"value": "${var.reg'))
    # The files not opened are the module's all the same (auto: a .tofu.json file makes it OpenTofu).
    assert ws.snapshot().module_files(main) == ["extra.tofu.json", "main.tf.json", "native.tf", "variables.tf.json"]
    assert ws.snapshot().document(ws.uri("/app/variables.tf.json")) is None
    assert ws.paths["/app/variables.tf.json"].read_text() == '{"variable": {"zone": {}}}\n'


def test_workspace_without_cursor_opens_every_terraform_json_file(tmp_path) -> None:
    fixture = parse_fixture(MODULE.replace("$0", ""))
    ws = fixture.workspace(tmp_path)
    opened = ["/app/main.tf.json", "/app/variables.tf.json", "/app/extra.tofu.json", "/net/main.tf.json"]
    assert ws.workspace.uris() == [ws.uri(p) for p in opened]  # not native.tf nor notes.json
    with pytest.raises(FixtureError, match="no \\$0"):
        ws.cursor


def test_workspace_opens_exactly_the_files_named(tmp_path) -> None:
    fixture = parse_fixture(MODULE)
    ws = fixture.workspace(tmp_path, open=["/app/variables.tf.json", "/net/main.tf.json"])
    assert ws.workspace.uris() == [ws.uri("/app/variables.tf.json"), ws.uri("/net/main.tf.json")]
    assert ws.snapshot().module_files(ws.uri("/app/variables.tf.json"))[-1] == "variables.tf.json"
    assert "main.tf.json" in ws.snapshot().module_files(ws.uri("/app/variables.tf.json"))
    assert ws.cursor[0] == ws.uri("/app/main.tf.json")  # the cursor's file need not be open
    none = parse_fixture(MODULE).workspace(tmp_path / "none", open=())
    assert none.workspace.uris() == [] and none.paths["/app/main.tf.json"].is_file()


def test_workspace_engine_and_selection(tmp_path) -> None:
    fixture = parse_fixture('//- /m/a.tf.json\n{"locals": {"x": $01$0}}\n//- /m/b.tofu.json\n{}')
    ws = fixture.workspace(tmp_path, engine="terraform")
    a = ws.uri("/m/a.tf.json")
    assert ws.workspace.engine == "terraform"
    assert ws.snapshot().module_files(a) == ["a.tf.json"]  # Terraform ignores .tofu.json files
    assert ws.selection == (a, (17, 18))
    with pytest.raises(FixtureError, match="selection"):
        ws.cursor


def test_workspace_opens_only_files_of_the_fixture(tmp_path) -> None:
    with pytest.raises(FixtureError, match="not files of the fixture"):
        parse_fixture(MODULE).workspace(tmp_path, open=["/app/missing.tf.json"])
    # Any file of the fixture opens when named: its language id is terraform-json whatever its name.
    ws = parse_fixture(MODULE).workspace(tmp_path / "named", open=["/app/notes.json"])
    assert ws.workspace.uris() == [ws.uri("/app/notes.json")]


def test_workspace_mark_is_the_uri_and_offset_of_a_named_mark(tmp_path) -> None:
    fixture = parse_fixture('//- /m/a.tf.json\n{"locals": {"x": $[one]1}}\n//- /m/b.tf.json\n{"locals": {$[two]"y": 2}}')
    ws = fixture.workspace(tmp_path)
    assert ws.mark("one") == (ws.uri("/m/a.tf.json"), 17)
    assert ws.mark("two") == (ws.uri("/m/b.tf.json"), 12)
    assert ws.snapshot().document(ws.uri("/m/b.tf.json")).text == '{"locals": {"y": 2}}'


# ------------------------------------------------------------------------------- one dialect, suite-wide

TESTS = Path(__file__).parent
#: Names a test module gives to its own way of marking a position (issue 21 §4).
POSITION_HELPERS = {"at", "_at"}


def _own_position_helpers(path: Path) -> list[str]:
    """What in the module at `path` marks a position outside the fixture dialect: a function named
    like a position helper, a `|` split into a before/after cursor, or a `$0` glued to a computed
    offset (`text[:i] + "$0" + text[i:]`)."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in POSITION_HELPERS:
            found.append(f"line {node.lineno}: def {node.name}(")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and side.value in (CURSOR, "$["):
                    found.append(f"line {node.lineno}: {side.value!r} added to a computed text")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split"
              and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == "|"
              and isinstance(node.func.value, ast.Name) and node.func.value.id in ("marker", "needle", "cursor")):
            found.append(f"line {node.lineno}: a | cursor in {node.func.value.id}")
    return found


#: The text of each module the guards below have read, read once for both of them.
_READ: dict[Path, str] = {}


def _source(path: Path) -> str:
    if path not in _READ:
        _READ[path] = path.read_text(encoding="utf-8")
    return _READ[path]


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed module at `path` (parsed once for both guards below)."""
    return ast.parse(_source(path))


def _test_modules() -> list[Path]:
    """The test modules there when they are read (their texts kept for `_source`)."""
    found = python_sources(TESTS, lambda p: p.name != "fixture.py" and "data" not in p.relative_to(TESTS).parts[:1])
    _READ.update(found)
    return [path for path, _ in found]


def test_no_test_module_marks_positions_its_own_way() -> None:
    own = {p.relative_to(TESTS).as_posix(): h for p in _test_modules() if (h := _own_position_helpers(p))}
    assert not own, f"mark positions with tests/fixture.py ($0, $[name], ⟨⟩), not a helper of your own: {own}"


def test_the_helper_detector_finds_each_way(tmp_path) -> None:
    ways = {
        "def at(needle):\n    return DOC.index(needle)\n": "def at(",
        "def f():\n    def _at(n):\n        return 1\n": "def _at(",
        'def f(marker):\n    before, after = marker.split("|")\n': "| cursor",
        'x = DOC[:i] + "$0" + DOC[i:]\n': "'$0' added",
    }
    for n, (source, what) in enumerate(ways.items()):
        module = tmp_path / f"m{n}.py"
        module.write_text(source)
        assert [what in line for line in _own_position_helpers(module)] == [True], source
    fine = tmp_path / "fine.py"
    fine.write_text('rows = line.strip("|").split("|")\nf = parse_fixture(\'{"a": $01}\')\ni = text.index("x")\n')
    assert _own_position_helpers(fine) == []


#: The string methods a test uses to find a position by searching for a piece of text.
SEARCHES = {"index", "find", "rindex", "rfind"}
#: Searching for a line end finds a line, not a position of interest (line/column arithmetic).
LINE_ENDS = ("\n", "\r", "\r\n")
#: A search that is not about marking a position (an offset into a text a hypothesis test edited, a
#: text the server wrote) says so on its line: `# search: <reason>`.
SEARCH_PRAGMA = re.compile(r"#\s*search:\s*\S")


def _documents(assigned: dict[str, list[ast.expr]], outer: set[str] = frozenset()) -> set[str]:
    """The names of `assigned` bound to a hand-written document: a string literal, a fixture's text
    (`....text`), or an expression made of those (`DOC.replace(...)`, `A + B`), plus the names of
    `outer` (the module's documents) the scope does not bind itself."""
    names = {n for n in outer if n not in assigned}
    while True:
        more = {n for n, values in assigned.items() if n not in names and any(_is_document(v, names) for v in values)}
        if not more:
            return names
        names |= more


def _is_document(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr == "text"
    if isinstance(node, ast.BinOp):  # a document and more, or two literals (a literal glued to a slice is an edit)
        literal = (ast.Constant, ast.JoinedStr)
        sides = [side for side in (node.left, node.right) if _is_document(side, names)]
        return len(sides) == 2 or any(not isinstance(side, literal) for side in sides)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("replace", "format", "strip", "lstrip", "rstrip") and _is_document(node.func.value, names)
    return False


def _searched_positions(path: Path) -> list[str]:
    """Where the module at `path` finds a position by searching a hand-written document for a piece of
    text (`TEXT.index('"web"')`, `fixture.only.text.find("x")`, `'{"a": 1}'.index("1")`) instead of
    marking it in the document with `$0`, `$[name]` or `⟨⟩`. Searching anything else (a list, server
    output, a generated document held by a name no literal is bound to, a line end) is not this."""
    tree = _tree(path)
    lines = _source(path).splitlines()
    # One walk: per scope (the module, each function), what its plain `name = ...` bind and its searches.
    bound: dict[ast.AST, dict[str, list[ast.expr]]] = {tree: {}}
    searches: dict[ast.AST, list[ast.Call]] = {tree: []}
    todo: list[tuple[ast.AST, ast.AST]] = [(child, tree) for child in ast.iter_child_nodes(tree)]
    while todo:
        node, scope = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            bound[node], searches[node] = {}, []
            todo.extend((child, node) for child in ast.iter_child_nodes(node))
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound[scope].setdefault(node.targets[0].id, []).append(node.value)
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)
              and isinstance(node.value, ast.Tuple) and len(node.targets[0].elts) == len(node.value.elts)):
            for target, value in zip(node.targets[0].elts, node.value.elts):  # a, b = A.text, B.text
                if isinstance(target, ast.Name):
                    bound[scope].setdefault(target.id, []).append(value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            bound[scope].setdefault(node.target.id, []).append(node.value)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SEARCHES
              and node.args and isinstance(node.args[0], (ast.Constant, ast.JoinedStr))
              and not (isinstance(node.args[0], ast.Constant) and node.args[0].value in LINE_ENDS)):
            searches[scope].append(node)
        todo.extend((child, scope) for child in ast.iter_child_nodes(node))
    module = _documents(bound[tree])
    found = []
    for scope, calls in searches.items():
        documents = module if scope is tree or not calls else _documents(bound[scope], module)
        found += [(c.lineno, f"line {c.lineno}: .{c.func.attr}({ast.unparse(c.args[0])})")
                  for c in calls if _is_document(c.func.value, documents)
                  and not any(SEARCH_PRAGMA.search(line) for line in lines[c.lineno - 1 : c.end_lineno])]
    return [line for _, line in sorted(found)]


def test_no_test_module_searches_its_documents_for_positions() -> None:
    found = {p.relative_to(TESTS).as_posix(): s for p in _test_modules() if (s := _searched_positions(p))}
    assert not found, (
        "mark positions in the document with tests/fixture.py ($0, $[name], ⟨⟩) instead of searching it, "
        f"or say why a search marks nothing (# search: <reason>): {found}")


def test_the_search_detector_finds_each_way(tmp_path) -> None:
    ways = [
        'DOC = """{"a": 1}"""\ni = DOC.index(\'"a"\')\n',
        'i = \'{"a": 1}\'.find("1")\n',
        'def f(state):\n    return state.text.rindex(\'"a"\') + 1\n',
        'TEXT = parse_fixture(SRC).only.text\nEDITED = TEXT.replace("1", "2")\ni = EDITED.index(f"{2}")\n',
        'def f():\n    text = "{}" + "[]"\n    return text.rfind("[")\n',
        'def f(fx):\n    a, b = fx.files["/a"].text, 1\n    return a.index("x")\n',
        'async def f():\n    async def g():\n        return DOC.find("x")\nDOC = "{}"\n',
    ]
    for n, source in enumerate(ways):
        module = tmp_path / f"m{n}.py"
        module.write_text(source)
        assert len(_searched_positions(module)) == 1, source
    fine = tmp_path / "fine.py"
    fine.write_text(
        'rows = ["a", "b"]\ni = rows.index("b")\n'                     # a list
        'out = run().stdout\nj = out.index("error")\n'                   # server output
        'big = generate(5000)\nk = big.index(\'"web7"\', len(big) // 2)\n'  # a generated document
        'new = text[:at] + "x" + text[at:]\nj = new.index("x")\n'  # an edited generated document
        'text = "{}"\ndef g():\n    text = generate(9)\n    return text.index("x")\n'  # a name of its own
        'f = parse_fixture(\'{"a": $01}\').only\nc = f.cursor\n'
        'line = TEXT.rfind("\\n", 0, c) + 1\n'                          # a line start
        'e = TEXT.index("x")  # search: the text the hypothesis test edited\n')  # said why
    assert _searched_positions(fine) == []
