"""The outputs of modules `terraform init` installed (issue 20 §2 "Installed modules"): a call whose
child is listed in the root module's `.terraform/modules/modules.json` (a git or registry source)
gets what a local child gets -- completion after `module.x.`, hover, definition into the installed
file, references back from it, and the unknown-output error with "Did you mean" -- through a real
`Workspace` on a temporary directory; and a re-init (a changed manifest, its watched-file event)
updates them.

Terraform's verdicts on the same modules (Terraform 1.11.4, offline) are stored next to this file,
`installed_module_verdicts.json`, so the comparison runs without Terraform. To refresh them (needs
`terraform` and `git` on PATH):

    PYTHONPATH=server:tests python tests/workspace/test_installed_module_outputs.py --refresh

"git": a module with source `git::file://<repo>` (a local git repository), installed by `terraform
init -backend=false`; "registry": a hand-written registry-shaped manifest entry (`validate` reads the
manifest without any registry); "nested": an installed git module that calls another git module (its
manifest key `net.sub`), the unknown output used inside the installed module (Terraform validates
installed modules too); "changed-source": the "git" case after its call's `source` changed without a
new `init` (Terraform judges nothing of the module then: "Module source has changed").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fixture import parse_fixture

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features import completion, hover, navigation
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED, Workspace
from hcljson_ls.workspace.files import uri_of_path

VERDICTS = Path(__file__).with_name("installed_module_verdicts.json")

OUTPUTS = '{"output": {"vpc_id": {"value": "v-1", "description": "The VPC."}, "subnet_ids": {"value": ["s-1"]}}}\n'


def main_text(source: str, reference: str) -> str:
    """The root module: one call, one output that uses `reference`."""
    version = ', "version": "1.0.0"' if not source.startswith("git::") else ""
    return ('{\n  "module": {"net": {"source": "' + source + '"' + version + '}},\n'
            '  "output": {"x": {"value": "${' + reference + '}"}}\n}\n')


def manifest(source: str) -> str:
    """`modules.json` as `terraform init` writes it (a registry entry carries its version)."""
    entry = {"Key": "net", "Source": source, "Dir": ".terraform/modules/net"}
    if not source.startswith("git::"):
        entry["Version"] = "1.0.0"
    return json.dumps({"Modules": [{"Key": "", "Source": "", "Dir": "."}, entry]})


#: case -> (the call's source as written, the manifest's Source), `{repo}`: the git repository.
CASES = {
    "git": ("git::file://{repo}", "git::file://{repo}"),
    "registry": ("acme/net/aws", "registry.terraform.io/acme/net/aws"),
}
REFERENCE = "module.net.vpc_idd"


def write_installed(root: Path, case: str, repo: str = "/nonexistent/repo") -> Path:
    """The root module with its child installed, as `terraform init` leaves it."""
    call_source, manifest_source = (s.format(repo=repo) for s in CASES[case])
    (root / ".terraform" / "modules" / "net").mkdir(parents=True)
    (root / ".terraform" / "modules" / "net" / "outputs.tf.json").write_text(OUTPUTS)
    (root / ".terraform" / "modules" / "modules.json").write_text(manifest(manifest_source))
    main = root / "main.tf.json"
    main.write_text(main_text(call_source, REFERENCE))
    return main


def test_the_unknown_output_error_agrees_with_terraform(tmp_path: Path) -> None:
    verdicts = json.loads(VERDICTS.read_text())
    for case in CASES:
        root = tmp_path / case
        main = write_installed(root, case)
        ws = Workspace([str(root)])
        uri = uri_of_path(str(main))
        text = main.read_text()
        ws.open(uri, text, 1, "terraform-json")
        errors = [d for d in collect(ws.snapshot(), uri) if d.severity == ERROR]
        [theirs] = verdicts["cases"][case]["diagnostics"]
        assert [(d.code, d.summary) for d in errors] == [("reference/undeclared-output", theirs["summary"])], case
        [ours] = errors
        lines = text.split("\n")
        start = sum(len(line) + 1 for line in lines[: theirs["start"][0] - 1]) + theirs["start"][1] - 1
        end = sum(len(line) + 1 for line in lines[: theirs["end"][0] - 1]) + theirs["end"][1] - 1
        assert (ours.start, ours.end) == (start, end) and text[start:end] == ".vpc_idd", case
        assert 'Did you mean "vpc_id"?' in ours.detail and [f.new_text for f in ours.fixes] == ["vpc_id"]


def test_a_source_changed_since_init_is_not_judged(tmp_path: Path) -> None:
    theirs = json.loads(VERDICTS.read_text())["cases"]["changed-source"]["diagnostics"]
    assert [d["summary"] for d in theirs] == ["Module source has changed"]  # and no "Unsupported attribute"
    main = write_installed(tmp_path, "git", repo="/somewhere/repo")
    main.write_text(main_text("git::file:///somewhere/repo2", REFERENCE))
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    text = main.read_text()
    ws.open(uri, text, 1, "terraform-json")
    found = collect(ws.snapshot(), uri)
    assert [d.code for d in found if d.code.startswith("reference/")] == []
    assert ws.snapshot().module_call_child(uri, "net") is None
    # ... and says so as Terraform does: on the source value (its start is Terraform's line and column)
    [changed] = [d for d in found if d.severity == ERROR]
    [theirs] = theirs
    line, column = theirs["start"]
    assert (changed.code, changed.summary) == ("module/source-changed", theirs["summary"])
    assert text[changed.start:changed.end] == '"git::file:///somewhere/repo2"'
    assert changed.start == sum(len(x) + 1 for x in text.split("\n")[: line - 1]) + column - 1


def test_only_a_source_surely_not_the_installed_one_is_changed(tmp_path: Path) -> None:
    from hcljson_ls.workspace.installed_modules import changed_source

    assert changed_source("git::file:///a", "git::file:///b")
    assert changed_source("acme/net/aws", "registry.terraform.io/acme/vpc/aws")
    assert changed_source("acme/net/aws", "git::https://example.com/net.git")
    assert not changed_source("acme/net/aws", "registry.opentofu.org/acme/net/aws")  # the same address
    assert not changed_source("Acme/Net/aws", "registry.terraform.io/acme/net/aws")  # letter case: not judged
    assert not changed_source("github.com/o/r", "git::https://github.com/o/r.git")  # normalised by Terraform
    assert not changed_source("https://example.com/m.zip", "https://example.com/n.zip")  # not judged
    assert not changed_source("git::file:///a", None)  # nothing recorded
    # A call not in the manifest is "not installed", no change; a local source never reads the manifest.
    main = write_installed(tmp_path, "registry")
    main.write_text('{"module": {"other": {"source": "acme/other/aws", "version": "1.0.0"}, '
                    '"local": {"source": "./net"}}}\n')
    ws = Workspace([str(tmp_path)])
    uri = uri_of_path(str(main))
    ws.open(uri, main.read_text(), 1, "terraform-json")
    assert [d.code for d in collect(ws.snapshot(), uri) if d.code == "module/source-changed"] == []


NESTED_LEAF = '{"output": {"leaf": {"value": 1}}}\n'


def nested_text(repo_b: str) -> str:
    """The installed module `net`: uses an output that `sub` (another git module) lacks (the call
    written last, so that the columns do not depend on the repository's path)."""
    return '{"output": {"mid": {"value": "${module.sub.leaff}"}}, "module": {"sub": {"source": "git::file://' + repo_b + '"}}}\n'


def test_a_module_installed_by_an_installed_module(tmp_path: Path) -> None:
    [theirs] = json.loads(VERDICTS.read_text())["cases"]["nested"]["diagnostics"]
    root = tmp_path / "root"
    modules = root / ".terraform" / "modules"
    (modules / "net").mkdir(parents=True)
    (modules / "net.sub").mkdir()
    (modules / "net.sub" / "o.tf.json").write_text(NESTED_LEAF)
    net = modules / "net" / "o.tf.json"
    net.write_text(nested_text("/nonexistent/b"))
    (modules / "modules.json").write_text(json.dumps({"Modules": [
        {"Key": "", "Source": "", "Dir": "."},
        {"Key": "net", "Source": "git::file:///nonexistent/a", "Dir": ".terraform/modules/net"},
        {"Key": "net.sub", "Source": "git::file:///nonexistent/b", "Dir": ".terraform/modules/net.sub"}]}))
    (root / "main.tf.json").write_text('{"module": {"net": {"source": "git::file:///nonexistent/a"}}}\n')
    assert theirs["file"] == ".terraform/modules/net/o.tf.json" and theirs["start"][0] == theirs["end"][0] == 1
    ws = Workspace([str(root)])
    uri = uri_of_path(str(net))
    text = net.read_text()
    ws.open(uri, text, 1, "terraform-json")
    [ours] = [d for d in collect(ws.snapshot(), uri) if d.severity == ERROR]
    assert (ours.code, ours.summary) == ("reference/undeclared-output", theirs["summary"])
    assert (ours.start, ours.end) == (theirs["start"][1] - 1, theirs["end"][1] - 1) and text[ours.start:ours.end] == ".leaff"
    assert 'Did you mean "leaf"?' in ours.detail
    # The installed modules are called (by the root, through the manifest): no root modules.
    list(ws.scan())  # the root becomes known (the scan never enters `.terraform`)
    assert ws.snapshot().callers(uri_of_path(str(modules / "net.sub" / "o.tf.json"))) == [(str(modules / "net"), "sub")]
    assert ws.snapshot().callers(uri) == [(str(root), "net")]
    assert not ws.is_root_module(str(modules / "net")) and ws.is_root_module(str(root))


FIXTURE = """
//- /app/.terraform/modules/net/outputs.tf.json
{"output": {⟨"vpc_id"⟩: {"value": "v-1", "description": "The VPC."}, "subnet_ids": {"value": ["s-1"]}}}
//- /app/.terraform/modules/modules.json
{"Modules": [{"Key": "", "Source": "", "Dir": "."},
             {"Key": "net", "Source": "registry.terraform.io/acme/net/aws", "Version": "1.0.0", "Dir": ".terraform/modules/net"}]}
//- /app/main.tf.json
{"module": {"net": {"source": "acme/net/aws", "version": "1.0.0"}},
 "output": {"x": {"value": "${module.net.CURSOR}"}}}
"""


def test_completion_hover_definition_and_references(tmp_path: Path) -> None:
    fw = parse_fixture(FIXTURE.replace("CURSOR", "vpc_$0id")).workspace(tmp_path)
    uri, offset = fw.cursor
    snapshot = fw.snapshot()
    assert [i.label for i in completion.complete(snapshot, uri, offset)] == ["vpc_id"]
    got = hover.hover(snapshot, uri, offset)
    assert got is not None and 'output "vpc_id"' in got.markdown and "The VPC." in got.markdown
    assert "`app/.terraform/modules/net/outputs.tf.json`" in got.markdown
    child = fw.fixture.files["/app/.terraform/modules/net/outputs.tf.json"]
    child_uri = uri_of_path(str(tmp_path / "app/.terraform/modules/net/outputs.tf.json"))
    [loc] = navigation.definition(snapshot, uri, offset)
    assert (loc.uri, loc.start, loc.end) == (child_uri, *child.ranges[0])
    # From the installed output back to the root module's reference (the root calls it: `callers`).
    assert snapshot.callers(child_uri) == [(str(tmp_path / "app"), "net")]
    fw.workspace.open(child_uri, child.text, 1, "terraform-json")
    found = navigation.references(fw.snapshot(), child_uri, child.ranges[0][0] + 2, include_declaration=False)
    text = fw.fixture.files["/app/main.tf.json"].text
    assert [(r.uri, text[r.start:r.end]) for r in found] == [(uri, "module.net.vpc_id")]


def test_completion_after_the_dot_offers_every_output(tmp_path: Path) -> None:
    fw = parse_fixture(FIXTURE.replace("CURSOR", "$0")).workspace(tmp_path)
    labels = {i.label for i in completion.complete(fw.snapshot(), *fw.cursor)}
    assert {"vpc_id", "subnet_ids"} <= labels


def test_without_the_manifest_nothing_is_judged(tmp_path: Path) -> None:
    src = FIXTURE.replace("CURSOR", "nope").split("//- /app/.terraform/modules/modules.json")[0]
    src += '//- /app/main.tf.json\n{"module": {"net": {"source": "acme/net/aws"}}, "output": {"x": {"value": "${module.net.nope}"}}}\n'
    fw = parse_fixture(src).workspace(tmp_path, open=["/app/main.tf.json"])
    assert [d.code for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code.startswith("reference/")] == []


def test_a_reinit_updates_the_caller(tmp_path: Path) -> None:
    fw = parse_fixture(FIXTURE.replace("CURSOR", "subnet_ids")).workspace(tmp_path, open=["/app/main.tf.json"])
    uri = fw.uri("/app/main.tf.json")

    def codes() -> list[str]:
        return [d.code for d in collect(fw.snapshot(), uri) if d.code.startswith("reference/")]

    assert codes() == []
    # `terraform init -upgrade`: version 2.0.0 in another directory, without `subnet_ids`.
    app = tmp_path / "app"
    (app / ".terraform/modules/net2").mkdir()
    (app / ".terraform/modules/net2/outputs.tf.json").write_text('{"output": {"vpc_id": {"value": 1}, "subnets": {"value": 2}}}')
    moved = (app / ".terraform/modules/modules.json").read_text().replace('"Dir": ".terraform/modules/net"', '"Dir": ".terraform/modules/net2"')
    (app / ".terraform/modules/modules.json").write_text(moved.replace("1.0.0", "2.0.0"))
    fw.workspace.file_changed(uri_of_path(str(app / ".terraform/modules/modules.json")), CHANGED)
    assert uri in fw.workspace.take_stale()
    assert codes() == ["reference/undeclared-output"]
    [d] = [d for d in collect(fw.snapshot(), uri) if d.code.startswith("reference/")]
    assert 'Did you mean "subnets"?' in d.detail
    # An installed file changed in place (its watched-file event): the caller sees the new outputs.
    (app / ".terraform/modules/net2/outputs.tf.json").write_text('{"output": {"subnet_ids": {"value": 2}}}')
    fw.workspace.file_changed(uri_of_path(str(app / ".terraform/modules/net2/outputs.tf.json")), CHANGED)
    assert uri in fw.workspace.take_stale()
    assert codes() == []
    # The same as a fresh workspace over the files as they are now.
    fresh = Workspace([str(tmp_path)])
    fresh.open(uri, fw.fixture.files["/app/main.tf.json"].text, 1, "terraform-json")
    assert collect(fresh.snapshot(), uri) == collect(fw.snapshot(), uri)


# -- refreshing the stored verdicts (needs terraform and git) -----------------------------------------

def _terraform_verdict(case: str, scratch: Path) -> dict:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"}
    root = scratch / case / "root"
    root.mkdir(parents=True)
    if case == "git":
        repo = scratch / case / "repo"
        _git_repo(repo, "outputs.tf.json", OUTPUTS)
        (root / "main.tf.json").write_text(main_text(CASES[case][0].format(repo=repo), REFERENCE))
        subprocess.run(["terraform", "init", "-backend=false", "-input=false", "-no-color"], cwd=root, env=env,
                       check=True, capture_output=True)
        got = json.loads((root / ".terraform/modules/modules.json").read_text())
        assert {m["Key"]: m["Source"] for m in got["Modules"]}["net"] == CASES[case][1].format(repo=repo)
    else:
        write_installed(root, case)
    return _validate(root)


def _git_repo(path: Path, name: str, text: str) -> None:
    path.mkdir(parents=True)
    (path / name).write_text(text)
    git = ["git", "-C", str(path), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "module"]):
        subprocess.run([*git, *args], check=True)


def _nested_verdict(scratch: Path) -> dict:
    """Root -> git module `net` -> git module `sub`, installed by `init` (keys `net`, `net.sub`)."""
    b, a, root = scratch / "nested" / "b", scratch / "nested" / "a", scratch / "nested" / "root"
    _git_repo(b, "o.tf.json", NESTED_LEAF)
    _git_repo(a, "o.tf.json", nested_text(str(b)))
    root.mkdir()
    (root / "main.tf.json").write_text('{"module": {"net": {"source": "git::file://' + str(a) + '"}}}\n')
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"}
    subprocess.run(["terraform", "init", "-backend=false", "-input=false", "-no-color"], cwd=root, env=env,
                   check=True, capture_output=True)
    keys = {m["Key"]: m["Dir"] for m in json.loads((root / ".terraform/modules/modules.json").read_text())["Modules"]}
    assert keys == {"": ".", "net": ".terraform/modules/net", "net.sub": ".terraform/modules/net.sub"}, keys
    return _validate(root)


def _validate(root: Path) -> dict:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"}
    out = subprocess.run(["terraform", "validate", "-json", "-no-color"], cwd=root, env=env, capture_output=True, text=True)
    result = json.loads(out.stdout)
    version = json.loads(subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True).stdout)
    return {"terraform": version["terraform_version"], "diagnostics": [
        {"severity": d["severity"], "summary": d["summary"], "detail": d["detail"], "file": d["range"]["filename"],
         "start": [d["range"]["start"]["line"], d["range"]["start"]["column"]],
         "end": [d["range"]["end"]["line"], d["range"]["end"]["column"]]} for d in result["diagnostics"]]}


def refresh() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="installed-verdicts-"))
    try:
        cases = {case: _terraform_verdict(case, scratch) for case in CASES}
        cases["nested"] = _nested_verdict(scratch)
        # The "git" case's root with its call's source changed since `init`.
        root = scratch / "git" / "root"
        (root / "main.tf.json").write_text(main_text(CASES["git"][0].format(repo=scratch / "git" / "repo2"), REFERENCE))
        cases["changed-source"] = _validate(root)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    VERDICTS.write_text(json.dumps({"reference": REFERENCE, "cases": cases}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__" and sys.argv[1:] == ["--refresh"]:
    refresh()
