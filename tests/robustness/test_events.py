"""Hostile file events and URIs (issue 23, "silent corruption"): a `%00` in a watched-file or a
document URI, and `created`/`changed` events for files that do not exist. The server trusts the
disk, not the event; a URI that names no file is ignored (with a log line) without losing the rest
of the batch, and a document with such a URI still gets its diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.workspace import CHANGED, CREATED, DELETED, Workspace
from hcljson_ls.workspace.files import file_name, list_directory, path_of_uri, read_text, uri_of_path
from hcljson_ls.workspace.workspace import is_ours

from .conftest import OPTIONS, line_character, still_right
from .wire import SERVER, Wire

_MAIN = parse_fixture('{\n  "output": {"o": {"value": "${var.r$0egion}"}}\n}\n').only
MAIN = _MAIN.text
#: Line and character of `var.region` in MAIN (for a hover).
MAIN_HOVER = line_character(MAIN, _MAIN.cursor)
VARIABLES = '{"variable": {"region": {"description": "Where it runs."}}}\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    for module in ("app", "other"):
        (folder / module).mkdir(parents=True)
        (folder / module / "main.tf.json").write_text(MAIN, encoding="utf-8")
        (folder / module / "variables.tf.json").write_text(VARIABLES, encoding="utf-8")
    return folder


def _events(wire: Wire, *changes: tuple[str, int]) -> None:
    wire.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": u, "type": t} for u, t in changes]})


def _nul(uri: str) -> str:
    """`uri` with `%00` before its last segment's name."""
    head, _, name = uri.rpartition("/")
    return f"{head}/%00{name}"


# -- the files layer never raises on such a path -------------------------------------------------


def test_a_nul_in_a_file_uri_names_no_path_and_reads_do_not_raise(tmp_path: Path):
    assert path_of_uri("file:///tmp/a%00b/main.tf.json") is None
    assert path_of_uri("file:///tmp/ab/main.tf.json") == "/tmp/ab/main.tf.json"
    got = read_text(str(tmp_path / "a\0b.tf.json"))
    assert got.text is None and "is not a valid file path" in (got.problem or "")
    assert list_directory(str(tmp_path / "a\0b")).problem is not None
    # Its name still says what kind of file it is (a document opened with it is analysed as one).
    assert file_name("file:///tmp/a%00b/main_override.tf.json") == "main_override.tf.json"
    assert is_ours("file:///tmp/a%00b/main.tf.json", "json")


# -- the workspace, in process ------------------------------------------------------------------


def test_a_nul_event_in_a_batch_leaves_no_phantom_and_the_rest_still_applies(folder: Path):
    ws = Workspace([str(folder)])
    list(ws.scan())
    main = uri_of_path(str(folder / "app" / "main.tf.json"))
    ws.open(main, MAIN, 1, "terraform-json")
    bad = _nul(uri_of_path(str(folder / "app" / "variables.tf.json")))
    ws.file_changed(bad, CREATED)
    ws.file_changed(bad, CHANGED)
    assert ws.module_map.effective_names(str(folder / "app")) == ["main.tf.json", "variables.tf.json"]
    # A declaration change after it still sees the module whole.
    ws.change(main, 2, [{"text": MAIN.replace("}}\n}", '}, "p": {"value": "${var.region}"}}\n}')}], "utf-16")
    ws.declarations.sync(main)
    assert ws.declarations.key_index(str(folder / "app"))[("variable", "region")] == {"variables.tf.json"}


def test_events_for_files_that_do_not_exist_leave_no_phantom(folder: Path):
    ws = Workspace([str(folder)])
    list(ws.scan())
    app = folder / "app"
    for kind in (CREATED, CHANGED):
        ws.file_changed(uri_of_path(str(app / "variables.tofu.json")), kind)
        assert ws.module_map.effective_names(str(app)) == ["main.tf.json", "variables.tf.json"], kind
        assert not ws.module_map.is_opentofu(str(app))
    # And a "deleted" event for a file that is there (a delete and a create merged) keeps it.
    ws.file_changed(uri_of_path(str(app / "variables.tf.json")), DELETED)
    assert ws.module_map.effective_names(str(app)) == ["main.tf.json", "variables.tf.json"]
    assert ("variable", "region") in ws.declarations.key_index(str(app))


# -- the real server ----------------------------------------------------------------------------


def test_a_nul_watched_file_event_loses_nothing(env: dict[str, str], folder: Path):
    with Wire.start(env=env, cwd=str(folder), command=[*SERVER, "--log-level", "info"]) as wire:
        wire.initialize(root=str(folder), options=OPTIONS)
        main = (folder / "app" / "main.tf.json").as_uri()
        other = (folder / "other" / "main.tf.json").as_uri()
        # In one batch: a NUL in this module and in another one, then a real change after them.
        (folder / "app" / "variables.tf.json").write_text(
            '{"variable": {"region": {"description": "Where it runs, now."}, "zone": {}}}', encoding="utf-8")
        _events(wire,
                (_nul(main), 1), (_nul((folder / "app" / "variables.tf.json").as_uri()), 2),
                (_nul(other), 1), ((folder / "app" / "variables.tf.json").as_uri(), 2))
        wire.open(main, MAIN)
        assert wire.diagnostics(main, version=1, timeout=60) == []
        assert "Where it runs, now." in wire.hover(main, *MAIN_HOVER)["result"]["contents"]["value"]
        # A declaration change of the module: its hover and diagnostics stay right.
        wire.change(main, 2, [{"text": MAIN.replace("}}\n}", '}, "p": {"value": "${var.zone}"}}\n}')}])
        # (the diagnostics stay none: nothing is pushed again for them, so they are pulled)
        report = wire.request("textDocument/diagnostic", {"textDocument": {"uri": main}}, timeout=60)["result"]
        assert report["kind"] == "full" and report["items"] == [], report
        assert "Where it runs, now." in wire.hover(main, *MAIN_HOVER)["result"]["contents"]["value"]
        # Workspace symbols of every module are still there.
        symbols = wire.request("workspace/symbol", {"query": "region"})["result"]
        assert sorted(Path(s["location"]["uri"][len("file://"):]).parent.name for s in symbols) == ["app", "other"], symbols
        assert "names no file" in wire.log()
        still_right(wire)


def test_a_document_with_a_nul_in_its_directory_still_gets_diagnostics(wire: Wire, folder: Path):
    wire.initialize(root=str(folder), options=OPTIONS)
    uri = _nul((folder / "app").as_uri()) + "/main.tf.json"
    wire.open(uri, MAIN)
    [diagnostic] = wire.diagnostics(uri, version=1, timeout=60)
    assert diagnostic["message"].startswith("Reference to undeclared input variable"), diagnostic
    still_right(wire)


def test_phantom_created_events_do_not_flip_the_module_to_opentofu(env: dict[str, str], folder: Path):
    with Wire.start(env=env, cwd=str(folder)) as wire:
        wire.initialize(root=str(folder), options=OPTIONS)
        main = (folder / "app" / "main.tf.json").as_uri()
        phantom = (folder / "app" / "variables.tofu.json").as_uri()
        _events(wire, (phantom, 1), (phantom, 2))
        wire.open(main, MAIN)
        assert wire.diagnostics(main, version=1, timeout=60) == []
        assert "Where it runs." in wire.hover(main, *MAIN_HOVER)["result"]["contents"]["value"]
        still_right(wire)
