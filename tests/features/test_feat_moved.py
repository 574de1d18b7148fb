"""Rename with a `moved` entry (`features.moved`): the rename of `navigation.rename` plus
`{"from": old, "to": new}` in the file that declares the resource or module call, so Terraform keeps
the object in the state. A real `Workspace` over a real directory (`fixture`); the last test applies
the edits and asks the real Terraform (1.11.4, built-in `terraform_data`, local state) that the
renamed configuration plans no change after an apply of the old one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from fixture import parse_fixture

from hcljson_ls.features import moved
from hcljson_ls.features.navigation import RenameError

MAIN = "/m/main.tf.json"

MODULE = """
//- /m/main.tf.json
{
  "resource": {
    "terraform_data": {
      "$0web": {"input": 1}
    }
  },
  "module": {
    "net": {"source": "./net"}
  },
  "output": {
    "id": {"value": "${terraform_data.web.id}"}
  }
}
//- /m/other.tf.json
{"output": {"n": {"value": "${module.n$[net]et.x}"}}}
//- /m/net/main.tf.json
{"output": {"x": {"value": 1}}}
"""


def _apply(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: e.start] + e.new_text + text[e.end :]
    return text


def _renamed(tmp_path, src: str, new_name: str) -> dict[str, str]:
    """Every file of the fixture `src` after renaming to `new_name` at its `$0` (in MAIN)."""
    fw = parse_fixture(src).workspace(tmp_path, open=[MAIN])
    got = moved.rename_with_moved(fw.snapshot(), *fw.cursor, new_name)
    assert not isinstance(got, RenameError), got
    return {path: _apply(f.text, got.get(fw.uri(path), [])) for path, f in fw.fixture.files.items()}


def test_a_resource_rename_adds_a_moved_member_indented_like_the_document(tmp_path):
    files = _renamed(tmp_path, MODULE, "app")
    doc = json.loads(files[MAIN])
    assert doc["resource"]["terraform_data"] == {"app": {"input": 1}}
    assert doc["output"]["id"]["value"] == "${terraform_data.app.id}"
    assert doc["moved"] == [{"from": "terraform_data.web", "to": "terraform_data.app"}]
    assert files[MAIN].endswith(
        '  "moved": [\n    {\n      "from": "terraform_data.web",\n      "to": "terraform_data.app"\n    }\n  ]\n}\n')


def test_a_module_call_rename_moves_the_module_and_its_references_in_other_files(tmp_path):
    fw = parse_fixture(MODULE).workspace(tmp_path, open=[MAIN, "/m/other.tf.json"])
    other = fw.fixture.files["/m/other.tf.json"].text
    got = moved.rename_with_moved(fw.snapshot(), *fw.mark("net"), "network")
    assert not isinstance(got, RenameError), got
    main = json.loads(_apply(fw.fixture.files[MAIN].text, got[fw.uri(MAIN)]))
    assert main["moved"] == [{"from": "module.net", "to": "module.network"}]
    assert set(main["module"]) == {"network"}
    assert _apply(other, got[fw.uri("/m/other.tf.json")]) == '{"output": {"n": {"value": "${module.network.x}"}}}\n'


def test_an_existing_moved_array_gets_the_entry_appended(tmp_path):
    src = """
//- /m/main.tf.json
{
  "resource": {"terraform_data": {"$0web": {}, "db": {}}},
  "moved": [
    {"from": "terraform_data.old", "to": "terraform_data.db"}
  ]
}
"""
    files = _renamed(tmp_path, src, "app")
    assert json.loads(files[MAIN])["moved"] == [
        {"from": "terraform_data.old", "to": "terraform_data.db"},
        {"from": "terraform_data.web", "to": "terraform_data.app"},
    ]


def test_a_single_moved_object_becomes_an_array(tmp_path):
    src = """
//- /m/main.tf.json
{"resource": {"terraform_data": {"$0web": {}, "db": {}}}, "moved": {"from": "terraform_data.old", "to": "terraform_data.db"}}
"""
    files = _renamed(tmp_path, src, "app")
    assert json.loads(files[MAIN])["moved"] == [
        {"from": "terraform_data.old", "to": "terraform_data.db"},
        {"from": "terraform_data.web", "to": "terraform_data.app"},
    ]
    assert '"moved": [{"from": "terraform_data.old"' in files[MAIN]


def test_a_one_line_document_stays_on_one_line(tmp_path):
    src = """
//- /m/main.tf.json
{"resource": {"terraform_data": {"$0web": {}}}}
"""
    files = _renamed(tmp_path, src, "app")
    assert files[MAIN] == ('{"resource": {"terraform_data": {"app": {}}}, '
                           '"moved": [{"from": "terraform_data.web", "to": "terraform_data.app"}]}\n')


def test_a_rename_of_a_rename_stays_one_step(tmp_path):
    src = """
//- /m/main.tf.json
{
  "resource": {"terraform_data": {"$0app": {}}},
  "moved": [{"from": "terraform_data.web", "to": "terraform_data.app"}]
}
"""
    files = _renamed(tmp_path, src, "site")
    assert json.loads(files[MAIN])["moved"] == [{"from": "terraform_data.web", "to": "terraform_data.site"}]


@pytest.mark.parametrize("mark, why", [
    ("variable", "Only a resource or a module call"),  # a variable: no state
    ("data", "Only a resource or a module call"),  # a data source: no state to keep
])
def test_objects_without_state_are_refused(tmp_path, mark, why):
    src = """
//- /m/main.tf.json
{"variable": {"$[variable]v": {}}, "data": {"terraform_remote_state": {"$[data]d": {"backend": "local"}}}}
"""
    fw = parse_fixture(src).workspace(tmp_path, open=[MAIN])
    got = moved.rename_with_moved(fw.snapshot(), *fw.mark(mark), "x")
    assert isinstance(got, RenameError) and why in got.message
    assert moved.movable(fw.snapshot(), *fw.mark(mark)) is None


def test_a_duplicate_name_is_refused_like_a_rename(tmp_path):
    src = """
//- /m/main.tf.json
{"resource": {"terraform_data": {"$0web": {}, "db": {}}}}
"""
    fw = parse_fixture(src).workspace(tmp_path, open=[MAIN])
    got = moved.rename_with_moved(fw.snapshot(), *fw.cursor, "db")
    assert isinstance(got, RenameError) and "already declares" in got.message


def test_a_native_declaration_gets_a_native_moved_block(tmp_path):
    src = """
//- /m/main.tf
resource "terraform_data" "web" {
}
//- /m/main.tf.json
{"output": {"o": {"value": "${terraform_data.$0web.id}"}}}
"""
    fw = parse_fixture(src).workspace(tmp_path, open=[MAIN])
    got = moved.rename_with_moved(fw.snapshot(), *fw.cursor, "app")
    assert not isinstance(got, RenameError), got
    native = _apply(fw.fixture.files["/m/main.tf"].text, got[fw.uri("/m/main.tf")])
    assert native.endswith('}\n\nmoved {\n  from = terraform_data.web\n  to   = terraform_data.app\n}\n')


@pytest.mark.skipif(shutil.which("terraform") is None and os.environ.get("CI") != "true", reason="needs terraform on PATH")
def test_terraform_keeps_the_state_of_the_renamed_resource(tmp_path):
    """Apply the old configuration, rename with a moved entry: validate is clean and the plan moves
    the object (no destroy, no create)."""
    src = """
//- /m/main.tf.json
{
  "resource": {"terraform_data": {"$0web": {"input": "x"}}},
  "moved": [{"from": "terraform_data.gone", "to": "terraform_data.other"}],
  "module": {"net": {"source": "./net"}},
  "output": {"id": {"value": "${terraform_data.web.id}"}}
}
//- /m/main2.tf.json
{"resource": {"terraform_data": {"other": {}}}}
//- /m/net/main.tf.json
{"resource": {"terraform_data": {"inner": {}}}}
"""
    fw = parse_fixture(src).workspace(tmp_path, open=[MAIN])
    module = tmp_path / "m"
    env = dict(os.environ, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")

    def tf(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["terraform", *args], cwd=module, env=env, capture_output=True, text=True, timeout=120)

    assert tf("init", "-backend=false").returncode == 0
    assert tf("apply", "-auto-approve", "-input=false").returncode == 0
    text = fw.fixture.files[MAIN].text
    got = moved.rename_with_moved(fw.snapshot(), *fw.cursor, "app")
    assert not isinstance(got, RenameError), got
    renamed = _apply(text, got[fw.uri(MAIN)])  # the server's edit applied: its text is the server's
    (module / "main.tf.json").write_text(renamed)
    fw.workspace.close(fw.uri(MAIN))
    fw.workspace.open(fw.uri(MAIN), renamed, 2, "terraform-json")
    got = moved.rename_with_moved(fw.snapshot(), fw.uri(MAIN), renamed.index('"net"') + 1, "network")
    assert not isinstance(got, RenameError), got
    (module / "main.tf.json").write_text(_apply(renamed, got[fw.uri(MAIN)]))
    assert tf("init", "-backend=false").returncode == 0  # a renamed module call is installed under its new name
    validate = tf("validate", "-json")
    assert json.loads(validate.stdout)["valid"], validate.stdout
    plan = tf("plan", "-no-color", "-input=false")
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert "Plan: 0 to add, 0 to change, 0 to destroy." in plan.stdout  # moved, not replaced
    assert "terraform_data.web has moved to terraform_data.app" in plan.stdout
    assert "module.net.terraform_data.inner has moved to module.network.terraform_data.inner" in plan.stdout


@pytest.mark.parametrize("entries, left", [
    ('[{"from": "terraform_data.web", "to": "terraform_data.app"}]', []),
    ('[{"from": "terraform_data.web", "to": "terraform_data.app"}, {"from": "terraform_data.x", "to": "terraform_data.y"}]',
     [{"from": "terraform_data.x", "to": "terraform_data.y"}]),
    ('[{"from": "terraform_data.x", "to": "terraform_data.y"}, {"from": "terraform_data.web", "to": "terraform_data.app"}]',
     [{"from": "terraform_data.x", "to": "terraform_data.y"}]),
])
def test_a_rename_back_deletes_the_entry(tmp_path, entries, left):
    """Renaming `app` back to `web` with `web -> app` recorded: the entry goes, since Terraform's plan
    rejects a move to the same address ("Redundant move statement")."""
    src = '//- /m/main.tf.json\n{"resource": {"terraform_data": {"$0app": {}, "y": {}}}, "moved": %s}\n' % entries
    files = _renamed(tmp_path, src, "web")
    doc = json.loads(files[MAIN])
    assert doc["moved"] == left
    assert set(doc["resource"]["terraform_data"]) == {"web", "y"}
