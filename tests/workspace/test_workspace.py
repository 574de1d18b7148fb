"""The workspace layer on a real directory tree: modules are directories, open buffers win over disk,
files not open are summarized, OpenTofu's and override rules, watched-file events, unreadable files,
the background scan, result ids and stale documents."""

from __future__ import annotations

import json
import os

import pytest
from documents import edit
from fixture import lsp_range, parse_fixture

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED, CREATED, DELETED, Workspace
from hcljson_ls.workspace.declaration_index import DeclarationIndex, OwnKeys
from hcljson_ls.workspace.files import module_key, read_text, uri_of_path

#: Per file with "region": its key, then where a duplicate is reported (the body's `{`, as Terraform).
MODULE = """
//- /app/main.tf.json
{"variable": {⟨"region"⟩: ⟨{⟩}}, "resource": {"aws_instance": {$[web]"web": {"ami": $[x]"x"}}}}
//- /app/variables.tf.json
{"variable": {⟨"region"⟩: ⟨{⟩"default": "eu-west-1"}, "zone": {}}}
//- /app/outputs.tf.json
{"output": {"ip": {"value": "$[ref]${aws_instance.web.public_ip}"}}}
//- /other/main.tf.json
{"variable": {"region": {}}}
"""


def codes(workspace, uri):
    """The codes of `uri`'s diagnostics (`workspace`: a Workspace or a FixtureWorkspace)."""
    return [d.code for d in collect(workspace.snapshot(), uri)]


def test_a_document_knows_its_sibling_files_open_or_not(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    assert ws.snapshot().module_files(main) == ["main.tf.json", "outputs.tf.json", "variables.tf.json"]
    [duplicate] = collect(ws.snapshot(), main)
    assert duplicate.code == "structure/duplicate-block"
    assert (duplicate.start, duplicate.end) == ws.fixture.files["/app/main.tf.json"].ranges[1]
    assert "also defined in variables.tf.json" in duplicate.message
    [related] = duplicate.related
    assert related.uri == ws.uri("/app/variables.tf.json")  # a file the editor never opened
    assert (related.start, related.end) == ws.fixture.files["/app/variables.tf.json"].ranges[0]
    # Another directory is another module: its "region" is no duplicate.
    other = ws.uri("/other/main.tf.json")
    ws.workspace.open(other, ws.fixture.files["/other/main.tf.json"].text, 1, "terraform-json")
    assert codes(ws, other) == []


def test_both_places_report_when_both_files_are_open(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    for name, other in (("/app/main.tf.json", "/app/variables.tf.json"), ("/app/variables.tf.json", "/app/main.tf.json")):
        [d] = collect(ws.snapshot(), ws.uri(name))
        assert (d.start, d.end) == ws.fixture.files[name].ranges[1]
        assert [(r.uri, r.start, r.end) for r in d.related] == [(ws.uri(other), *ws.fixture.files[other].ranges[0])]


def test_facts_every_resource_states_are_no_duplicates_and_need_no_places(tmp_path, monkeypatch):
    # Each resource states the provider configuration it uses: one key, declared by every resource
    # of every file. It is never a duplicate, and the places of the module's declarations are not
    # listed for it (listing the other places once per declaration was quadratic: 0.5 s for a
    # variable renamed beside a 5 MB file of 5,750 resources, bench_module.py).
    listed = []
    real = DeclarationIndex._places
    monkeypatch.setattr(DeclarationIndex, "_places", lambda self, key: listed.append(key) or real(self, key))
    resources = lambda prefix: {f"{prefix}{i}": {"ami": "x"} for i in range(3)}  # noqa: E731
    ws = parse_fixture(
        "//- /app/main.tf.json\n" + json.dumps({"resource": {"aws_instance": resources("a")}}) + "\n"
        "//- /app/more.tf.json\n" + json.dumps({"resource": {"aws_instance": resources("b")}, "variable": {"v": {}}}) + "\n"
    ).workspace(tmp_path, open=["/app/main.tf.json", "/app/more.tf.json"])
    assert codes(ws, ws.uri("/app/main.tf.json")) == codes(ws, ws.uri("/app/more.tf.json")) == []
    assert listed == []
    # A real duplicate still is one (and its places are listed).
    main = ws.uri("/app/main.tf.json")
    text = ws.fixture.files["/app/main.tf.json"].text
    ws.workspace.change(main, 2, [{"range": lsp_range(text, len(text) - 2, len(text) - 2), "text": ', "variable": {"v": {}}'}],
                        "utf-32")
    assert codes(ws, main) == ["structure/duplicate-block"] and listed


def test_an_open_buffer_wins_over_the_file_on_disk(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    main, variables = ws.uri("/app/main.tf.json"), ws.uri("/app/variables.tf.json")
    assert codes(ws, main) == ["structure/duplicate-block"]
    text = ws.fixture.files["/app/variables.tf.json"].text
    region = ws.fixture.files["/app/variables.tf.json"].ranges[0]
    ws.workspace.change(variables, 2, [{"range": lsp_range(text, *region), "text": '"zone2"'}], "utf-32")
    assert codes(ws, main) == []  # the unsaved buffer, not the disk, counts
    assert main in ws.workspace.take_stale()
    ws.workspace.close(variables)  # the disk's version (still declaring "region") counts again
    assert codes(ws, main) == ["structure/duplicate-block"]


def test_a_declaration_edit_makes_the_other_open_documents_stale_and_moves_the_module_revision(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json", "/app/outputs.tf.json"])
    main, outputs = ws.uri("/app/main.tf.json"), ws.uri("/app/outputs.tf.json")
    collect(ws.snapshot(), main)
    collect(ws.snapshot(), outputs)
    ws.workspace.take_stale()
    module = ws.workspace.module_map.module(module_key(outputs))
    before = module.revision
    text = ws.workspace.get(main).text
    _, at = ws.mark("web")
    ws.workspace.change(main, 2, [{"range": lsp_range(text, at, at + 5), "text": '"app"'}], "utf-32")  # renames a declaration
    collect(ws.snapshot(), main)
    assert ws.workspace.take_stale() == {outputs}
    assert module.revision != before  # the module's indexes are made again
    # An edit that declares nothing new changes no other document.
    text = ws.workspace.get(main).text
    _, at = ws.mark("x")  # where it was: "web" became "app", of the same length
    ws.workspace.change(main, 3, [{"range": lsp_range(text, at, at + 3), "text": '"y"'}], "utf-32")
    collect(ws.snapshot(), main)
    assert ws.workspace.take_stale() == set()


@pytest.mark.parametrize("built", [False, True], ids=["quick", "tree"])
def test_a_provider_block_is_checked_once_a_resource_of_the_module_uses_it(tmp_path, built):
    """`terraform validate` reads a provider block only when a resource or data source of its module
    uses that configuration (tests/conformance: Terraform's verdicts). Whether one does follows the
    module: a resource added in the document, then one in another file on disk, each coming and
    going; before the document's tree is built and after. (The built-in `terraform` provider's
    configuration has no argument.)"""
    ws = parse_fixture("""
//- /app/main.tf.json
{"provider": {"terraform": {⟨"region"⟩: "x"}}, $0"locals": {"a": 1}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    [(start, end)] = ws.fixture.files["/app/main.tf.json"].ranges
    assert codes(ws, main) == []  # used by nothing
    state = ws.workspace.get(main)
    if built:
        state.prepare()
        assert state.quick() is None
    _, at = ws.cursor
    edit(state, at, at, '"resource": {"terraform_data": {"t": {}}}, ')
    assert [(d.code, d.start, d.end) for d in collect(ws.snapshot(), main)] == [("schema/unknown-argument", start, end)]
    edit(state, at, at + len('"resource": {"terraform_data": {"t": {}}}, '), "")
    assert codes(ws, main) == []
    ws.workspace.take_stale()
    other = tmp_path / "app" / "other.tf.json"
    other.write_text('{"data": {"terraform_remote_state": {"s": {"backend": "local"}}}}')
    ws.workspace.file_changed(uri_of_path(str(other)), CREATED)
    assert ws.workspace.take_stale() == {main}
    assert codes(ws, main) == ["schema/unknown-argument"]
    other.write_text('{"data": {"terraform_remote_state": {"s": {"backend": "local", "provider": "terraform.b"}}}}')
    ws.workspace.file_changed(uri_of_path(str(other)), CHANGED)
    assert ws.workspace.take_stale() == {main}
    assert codes(ws, main) == []  # another configuration of the provider: "terraform.b"


def test_a_provider_block_is_checked_when_a_child_module_inherits_its_configuration(tmp_path):
    """A call without `providers` passes its default configurations down: the block is read when
    the child's resources use it, or its own child's (Terraform's verdicts: tests/conformance), and
    no longer when the child stops using it or has a block of its own."""
    ws = parse_fixture("""
//- /app/main.tf.json
{"provider": {"terraform": {⟨"region"⟩: "x"}}, "module": {"c": {"source": "./child"}}}
//- /app/child/main.tf.json
{"resource": {"terraform_data": {"c": {}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    [(start, end)] = ws.fixture.files["/app/main.tf.json"].ranges
    assert [(d.code, d.start, d.end) for d in collect(ws.snapshot(), main)] == [("schema/unknown-argument", start, end)]
    child = tmp_path / "app" / "child" / "main.tf.json"
    (child.parent / "g").mkdir()
    (child.parent / "g" / "main.tf.json").write_text('{"resource": {"terraform_data": {"g": {}}}}')
    for text, expected in [
        ('{"locals": {"a": 1}}', []),  # the child uses no provider
        ('{"data": {"terraform_remote_state": {"s": {"backend": "local"}}}}', ["schema/unknown-argument"]),
        ('{"provider": {"terraform": {}}, "resource": {"terraform_data": {"c": {}}}}', []),  # its own block
        ('{"resource": {"terraform_data": {"c": {}}}}', ["schema/unknown-argument"]),
        ('{"module": {"g": {"source": "./g"}}}', ["schema/unknown-argument"]),  # passed on to a grandchild
        ('{"provider": {"terraform": {}}, "module": {"g": {"source": "./g"}}}', []),  # its block serves g
    ]:
        ws.workspace.take_stale()
        child.write_text(text)
        ws.workspace.file_changed(uri_of_path(str(child)), CHANGED)
        assert ws.workspace.take_stale() == {main}, text
        assert codes(ws, main) == expected, text


def test_a_provider_block_is_checked_when_a_calls_providers_map_passes_its_configuration(tmp_path):
    """A call's `providers` map sets the child's configurations it lists; every default one it does
    not set is still passed down, map or no map (Terraform 1.11's verdicts: tests/conformance,
    `module-calls/providers-*`). The map is edited in the open document, and the child on disk."""
    ws = parse_fixture("""
//- /app/main.tf.json
{"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}},
 "provider": {"terraform": [{⟨"region"⟩: "x"}, {"alias": "x", ⟨"zone"⟩: "y"}]},
 "module": {"c": {"source": "./child", "providers": {$0}}}}
//- /app/child/main.tf.json
{"resource": {"terraform_data": {"c": {}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    default, aliased = ws.fixture.files["/app/main.tf.json"].ranges
    state = ws.workspace.get(main)
    _, at = ws.cursor

    def reported():
        return [(d.start, d.end) for d in collect(ws.snapshot(), main) if d.code == "schema/unknown-argument"]

    assert reported() == [default]  # an empty map passes the default down
    edit(state, at, at, '"terraform": "terraform.x"')
    assert reported() == [aliased]  # the child's default is now the caller's "terraform.x"
    child = tmp_path / "app" / "child" / "main.tf.json"
    for text, expected in [
        ('{"locals": {"a": 1}}', []),  # the child uses no provider
        ('{"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform", '
         '"configuration_aliases": ["terraform.y"]}}}, "resource": {"terraform_data": {"c": {"provider": "terraform.y"}}}}',
         []),  # it uses "terraform.y", which the map does not set
    ]:
        ws.workspace.take_stale()
        child.write_text(text)
        ws.workspace.file_changed(uri_of_path(str(child)), CHANGED)
        assert ws.workspace.take_stale() == {main}, text
        assert reported() == expected, text
    text = state.text
    start = text.index('"terraform": "terraform.x"')  # search: the entry written above
    edit(state, start, start + len('"terraform": "terraform.x"'), '"terraform.y": "terraform.x"')
    assert reported() == [aliased]  # its "terraform.y" is the caller's "terraform.x"
    ws.workspace.take_stale()
    child.write_text(child.read_text().replace('{"provider": "terraform.y"}', "{}"))
    ws.workspace.file_changed(uri_of_path(str(child)), CHANGED)
    assert ws.workspace.take_stale() == {main}
    assert reported() == [default]  # its resource now uses its default: inherited, the map sets only "terraform.y"


def test_watched_file_events_change_what_the_module_sees(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json"])
    main = ws.uri("/app/main.tf.json")
    assert codes(ws, main) == ["structure/duplicate-block"]
    ws.workspace.take_stale()
    variables = tmp_path / "app" / "variables.tf.json"
    variables.write_text('{"variable": {"zone": {}}}')
    ws.workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert ws.workspace.take_stale() == {main}
    assert codes(ws, main) == []
    extra = tmp_path / "app" / "extra.tf.json"
    extra.write_text('{"variable": {"region": {}}}')
    ws.workspace.file_changed(uri_of_path(str(extra)), CREATED)
    assert ws.workspace.take_stale() == {main}
    assert codes(ws, main) == ["structure/duplicate-block"]
    extra.unlink()
    ws.workspace.file_changed(uri_of_path(str(extra)), DELETED)
    assert codes(ws, main) == []
    assert ws.snapshot().module_files(main) == ["main.tf.json", "outputs.tf.json", "variables.tf.json"]
    # A change that leaves the declarations as they were makes nothing stale.
    ws.workspace.take_stale()
    variables.write_text('{"variable": {"zone": {"description": "z"}}}')
    ws.workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert ws.workspace.take_stale() == set()
    # A default makes the variable optional for callers: a fact of the module, so it counts.
    variables.write_text('{"variable": {"zone": {"default": 1}}}')
    ws.workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert ws.workspace.take_stale() == {main}
    # Other files are none of the module's business.
    (tmp_path / "app" / "notes.json").write_text("{}")
    ws.workspace.file_changed(uri_of_path(str(tmp_path / "app" / "notes.json")), CREATED)
    assert ws.workspace.take_stale() == set()


def test_a_module_of_one_file_builds_no_key_index_until_a_second_file_comes(tmp_path):
    """The declarations made elsewhere too, of a module's only file: none, without `key_index` (which
    holds every key of the file: 12-18 ms of a 20 MB open); a second file is then looked at."""
    ws = parse_fixture('//- /solo/main.tf.json\n{"variable": {"region": {}}, "output": {"o": {"value": "${var.region}"}}}').workspace(
        tmp_path, open=["/solo/main.tf.json"])
    main = ws.uri("/solo/main.tf.json")
    module = ws.workspace.module_map.module(str(tmp_path / "solo"))
    assert codes(ws, main) == []
    assert module.key_index_cache is None or module.key_index_cache[0] != module.revision
    extra = tmp_path / "solo" / "extra.tf.json"
    extra.write_text('{"variable": {"region": {}}}')
    ws.workspace.file_changed(uri_of_path(str(extra)), CREATED)
    assert codes(ws, main) == ["structure/duplicate-block"]
    extra.unlink()
    ws.workspace.file_changed(uri_of_path(str(extra)), DELETED)
    assert codes(ws, main) == []


def test_what_a_module_of_one_file_declares_is_read_from_the_document_alone(tmp_path, monkeypatch):
    """`declared` (a hover's `required_providers`, completion) in a module whose only file is the
    document: its current keys, without going through `key_index` (built for the hover: 3-4 ms of
    a 5 MB file's first one); with a second file, that file's keys too."""
    ws = parse_fixture("""//- /solo/main.tf.json
{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}}},
 "variable": {"region": {}}, "output": {"o": {"value": "${var.region}"}}}
//- /child/variables.tf.json
{"variable": {"cidr": {}}}""").workspace(tmp_path, open=["/solo/main.tf.json"])
    main = ws.uri("/solo/main.tf.json")
    # A file never opened, its module's only one: from the disk (a module call's child's inputs).
    assert ws.workspace.declarations.declared(ws.uri("/child/variables.tf.json"), "variable") == {("variable", "cidr")}
    assert codes(ws, main) == []  # (analysed: the analysis reads the module's provider requirements)
    with monkeypatch.context() as patched:
        patched.setattr(ws.workspace.declarations, "key_index", lambda key: pytest.fail("key_index asked"))
        assert ws.snapshot().required_providers(main) == {"aws": "hashicorp/aws"}
        assert ws.workspace.declarations.declared(main, "variable") == {("variable", "region")}
        assert ws.workspace.declarations.declared(main, "module") == frozenset()
    extra = tmp_path / "solo" / "extra.tf.json"
    extra.write_text('{"variable": {"zone": {}}}')
    ws.workspace.file_changed(uri_of_path(str(extra)), CREATED)
    assert ws.workspace.declarations.declared(main, "variable") == {("variable", "region"), ("variable", "zone")}


def test_own_keys_gathers_each_kind_when_first_asked():
    keys = [("variable", "a"), ("resource", "t", "n"), ("variable", "b"), ("output", "o")]
    own = OwnKeys(keys)
    assert own.get("variable") == {("variable", "a"), ("variable", "b")}
    assert own.get("resource") == {("resource", "t", "n")}
    assert own.get("module") == frozenset()
    assert own.get("variable") is own.get("variable")  # (remembered)

def test_a_misspelt_reference_in_a_module_of_one_file_builds_no_key_index_for_its_suggestion(tmp_path, monkeypatch):
    """What other files declare (`ModuleScope.declared`, `keys`), asked by each undeclared reference
    and its "Did you mean ...?": nothing in a module of one file, without `key_index` (every key of
    the file: 16 ms at 5 MB, which the first misspelt reference in an open document waited for); a
    second file is then looked at."""
    ws = parse_fixture('//- /solo/main.tf.json\n{"variable": {"region": {}}, "output": {"o": {"value": "${var.regio}"}}}').workspace(
        tmp_path, open=["/solo/main.tf.json"])
    main = ws.uri("/solo/main.tf.json")
    built: list[str] = []  # the modules whose index was asked for
    key_index = DeclarationIndex.key_index
    monkeypatch.setattr(DeclarationIndex, "key_index", lambda self, key: built.append(key) or key_index(self, key))
    [undeclared] = collect(ws.snapshot(), main)
    assert undeclared.code == "reference/undeclared" and 'Did you mean "var.region"?' in undeclared.detail
    assert built == []
    extra = tmp_path / "solo" / "extra.tf.json"
    extra.write_text('{"variable": {"regio": {}}}')
    ws.workspace.file_changed(uri_of_path(str(extra)), CREATED)
    assert codes(ws, main) == []  # declared by the second file


def test_a_deleted_directory_takes_its_module_with_it(tmp_path):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json"])
    list(ws.workspace.scan())
    assert any(m.directory == str(tmp_path / "other") for m in ws.workspace.module_map.known())
    for f in (tmp_path / "other").iterdir():
        f.unlink()
    (tmp_path / "other").rmdir()
    ws.workspace.file_changed(uri_of_path(str(tmp_path / "other")), DELETED)
    assert all(m.directory != str(tmp_path / "other") for m in ws.workspace.module_map.known())


OPENTOFU = """
//- /m/main.tf.json
{"variable": {"a": {}}}
//- /m/main.tofu.json
{"variable": {⟨"a"⟩: {}}}
//- /m/extra.tf.json
{"variable": {⟨"a"⟩: {}}}
//- /m/main_override.tf.json
{"variable": {"a": {"default": 1}}}
"""


def test_opentofu_files_hide_their_terraform_twins(tmp_path):
    ws = parse_fixture(OPENTOFU).workspace(tmp_path, open=["/m/main.tofu.json"])
    tofu = ws.uri("/m/main.tofu.json")
    # auto: the module has a .tofu.json file, so OpenTofu's rule: main.tf.json is hidden; the
    # override file takes part but declares nothing.
    assert ws.snapshot().module_files(tofu) == ["extra.tf.json", "main.tofu.json", "main_override.tf.json"]
    [d] = collect(ws.snapshot(), tofu)
    assert [r.uri for r in d.related] == [ws.uri("/m/extra.tf.json")]
    # A hidden file is not part of the module: nothing across files is reported in it.
    hidden = ws.uri("/m/main.tf.json")
    ws.workspace.open(hidden, ws.fixture.files["/m/main.tf.json"].text, 1, "terraform-json")
    assert codes(ws, hidden) == []
    # Terraform ignores .tofu files altogether.
    ws.workspace.set_engine("terraform")
    assert ws.snapshot().module_files(hidden) == ["extra.tf.json", "main.tf.json", "main_override.tf.json"]
    assert codes(ws, hidden) == ["structure/duplicate-block"]
    assert codes(ws, tofu) == []


def test_an_unreadable_file_is_skipped_with_a_log_line(tmp_path, caplog, monkeypatch):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json"])
    path = tmp_path / "app" / "variables.tf.json"
    if os.name != "nt" and os.geteuid() != 0:
        path.chmod(0)  # the real thing
    else:  # root reads any file: the same refusal, from the one `os.open` the workspace reads with
        real_open = os.open

        def refusing_open(name, *args, **kwargs):
            if str(name) == str(path):
                raise PermissionError(13, "Permission denied", str(name))
            return real_open(name, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing_open)
    with caplog.at_level("INFO"):
        ws.workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert "cannot be read (Permission denied)" in caplog.text
    assert codes(ws, ws.uri("/app/main.tf.json")) == []


def test_files_that_cannot_be_read_are_skipped_and_logged(tmp_path, caplog):
    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json"])
    app = tmp_path / "app"
    (app / "latin1.tf.json").write_bytes(b'{"variable": {"caf\xe9": {}}}')
    (app / "dir.tf.json").mkdir()
    os.symlink(app / "loop.tf.json", app / "loop.tf.json")  # a symlink to itself
    os.symlink(tmp_path, app / "up")  # a symlink loop among directories
    with caplog.at_level("INFO"):
        steps = list(ws.workspace.scan())
        for name in ("latin1.tf.json", "dir.tf.json", "loop.tf.json"):
            ws.workspace.file_changed(uri_of_path(str(app / name)), CREATED)
    assert steps and steps[-1].phase == "files"
    assert "not valid UTF-8" in caplog.text and "cannot be read" in caplog.text
    main = ws.uri("/app/main.tf.json")
    assert codes(ws, main) == ["structure/duplicate-block"]  # the readable sibling still counts
    # A directory named like a file is no file of the module, whatever an event says (trust the disk).
    assert "dir.tf.json" not in ws.snapshot().module_files(main)
    assert read_text(str(app / "dir.tf.json")).problem == f"{app / 'dir.tf.json'} is a directory, not a file; skipped."
    assert read_text(str(app / "loop.tf.json")).problem is not None


def test_the_scan_finds_every_module_and_summarizes_files_without_keeping_trees(tmp_path):
    fixture = parse_fixture(MODULE + "//- /app/.terraform/modules/x/main.tf.json\n{}\n//- /deep/a/b/c.tf\nvariable \"x\" {}\n")
    workspace = fixture.workspace(tmp_path, open=()).workspace  # nothing open: the scan alone reads the files
    steps = list(workspace.scan())
    directories = sorted(os.path.relpath(m.directory, tmp_path) for m in workspace.module_map.known())
    assert directories == ["app", os.path.join("deep", "a", "b"), "other"]  # .terraform is not searched
    app = next(m for m in workspace.module_map.known() if m.directory.endswith("app"))
    summaries = {name: f.summary for name, f in app.disk.items()}
    assert [k for k in summaries["variables.tf.json"].keys if k[0] == "variable"] == [("variable", "region"), ("variable", "zone")]
    assert summaries["outputs.tf.json"].keys == (("output", "ip"),)
    assert [s.phase for s in steps].count("files") == 5  # four JSON files and one native one
    assert steps[-1].done == steps[-1].total == 5


def test_non_file_uris_and_unknown_documents_are_modules_of_their_own():
    workspace = Workspace()
    state = workspace.open("untitled:Untitled-1", '{"variable": {"a": {}}}', 1, "terraform-json")
    assert state is not None
    assert codes(workspace, "untitled:Untitled-1") == []
    assert collect(workspace.snapshot(), "file:///nowhere/x.tf.json") == []
    assert workspace.open("file:///nowhere/notes.json", "{}", 1, "json") is None  # not ours



def test_references_changed_in_another_file_make_the_open_documents_stale_and_move_the_hints(tmp_path):
    """What the module refers to (`Workspace.referenced`) follows open buffers and files on disk; when
    it changes with no declaration changing, the other open documents are stale (their unused hints)."""
    from hcljson_ls.features.lens import unused_declarations

    ws = parse_fixture(MODULE).workspace(tmp_path, open=["/app/main.tf.json", "/app/outputs.tf.json"])
    main, outputs = ws.uri("/app/main.tf.json"), ws.uri("/app/outputs.tf.json")
    workspace = ws.workspace

    def hinted() -> list[str]:
        return [d.message for d in unused_declarations(ws.snapshot(), main)]

    # main's "region" is declared twice (no hint); "zone" is on disk, not main's.
    assert hinted() == []
    assert ("resource", "aws_instance", "web") in ws.snapshot().referenced(main)
    workspace.take_stale()
    variables = tmp_path / "app" / "variables.tf.json"
    variables.write_text('{"variable": {"zone": {}}, "locals": {"r": "x"}}')
    workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert hinted() == ["Variable 'region' is declared but not used."]
    workspace.take_stale()
    # A file on disk that starts referring to it, its declarations the same: main is stale.
    variables.write_text('{"variable": {"zone": {}}, "locals": {"r": "${var.region}"}}')
    workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert workspace.take_stale() == {main, outputs}
    assert hinted() == []
    workspace.take_stale()
    # The open buffer of outputs.tf.json refers to it too: nothing more is referred to, nothing stale.
    at = ws.mark("ref")[1]
    workspace.change(outputs, 2, [{"range": {"start": {"line": 0, "character": at}, "end": {"line": 0, "character": at}},
                                   "text": "${var.region}"}], "utf-32")
    ws.snapshot().referenced(outputs)
    assert workspace.take_stale() == set()
    # The file on disk stops referring to it: still used by the buffer.
    variables.write_text('{"variable": {"zone": {}}, "locals": {"r": "x"}}')
    workspace.file_changed(ws.uri("/app/variables.tf.json"), CHANGED)
    assert workspace.take_stale() == {main, outputs}
    assert hinted() == []
    workspace.take_stale()
    # The buffer's reference goes: asked from outputs, main is stale (not outputs), and its hint is back.
    workspace.change(outputs, 3, [{"range": {"start": {"line": 0, "character": at}, "end": {"line": 0, "character": at + 13}},
                                   "text": ""}], "utf-32")
    ws.snapshot().referenced(outputs)
    assert workspace.take_stale() == {main}
    assert hinted() == ["Variable 'region' is declared but not used."]
