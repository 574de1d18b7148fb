"""`indexing.ignorePaths`: the directories the workspace scan leaves out, and `check`'s walk too.

A real `Workspace` over a temporary directory, the real `hcljson-ls check`, and the real server over
stdio for the setting's round trip.
"""

from __future__ import annotations

import json
import os

from fixture import parse_fixture

from hcljson_ls.workspace.ignore_paths import IgnorePaths

TREE = """\
//- /live/main.tf.json
{"variable": {"v": {}}}
//- /vendor/mod/main.tf.json
{"output": {"o": {"value": "${var.nope}"}}}
//- /envs/prod/generated/main.tf.json
{"output": {"o": {"value": "${var.nope}"}}}
//- /envs/prod/main.tf.json
{"variable": {"v": {}}}
//- /live/.terragrunt-cache/abc/main.tf.json
{"output": {"o": {"value": "${var.nope}"}}}
"""


def _modules(workspace, root) -> list[str]:
    return sorted(os.path.relpath(m.directory, root).replace(os.sep, "/") for m in workspace.module_map.known())


def test_each_kind_of_pattern(tmp_path):
    root = str(tmp_path)
    ignore = IgnorePaths.of(("vendor/**", "envs/*/generated/", ".terragrunt-cache", str(tmp_path / "abs"), "  "), (root,))
    skipped = [p for p in ("vendor", "vendor/mod", "envs/prod/generated", "envs/prod", "live/.terragrunt-cache",
                           "live", "abs", "abs/x", "absent", "vendorx") if ignore.skips(os.path.join(root, p))]
    assert skipped == ["vendor", "vendor/mod", "envs/prod/generated", "live/.terragrunt-cache", "abs", "abs/x"]
    assert not IgnorePaths.of((), (root,)) and not IgnorePaths.of(("", "  ", "/**"), (root,))  # blanks: nothing
    assert not ignore.skips(os.path.join(str(tmp_path.parent), "vendor-elsewhere"))  # relative: only under a root


def test_the_scan_leaves_out_ignored_directories_and_finds_them_again(tmp_path):
    ws = parse_fixture(TREE).workspace(tmp_path, open=()).workspace
    list(ws.scan())
    everything = ["envs/prod", "envs/prod/generated", "live", "live/.terragrunt-cache/abc", "vendor/mod"]
    assert _modules(ws, tmp_path) == everything
    assert ws.set_ignore_paths(["vendor", "envs/*/generated", ".terragrunt-cache"])
    assert _modules(ws, tmp_path) == ["envs/prod", "live"]  # forgotten at once
    list(ws.scan())
    assert _modules(ws, tmp_path) == ["envs/prod", "live"]
    assert not ws.set_ignore_paths(["vendor", "envs/*/generated", ".terragrunt-cache"])  # unchanged: no new scan
    assert ws.set_ignore_paths([])
    list(ws.scan())
    assert _modules(ws, tmp_path) == everything


def test_a_file_opened_in_an_ignored_directory_is_analysed(tmp_path):
    fixture = parse_fixture(TREE)
    fw = fixture.workspace(tmp_path, open=["/vendor/mod/main.tf.json"])
    fw.workspace.set_ignore_paths(["vendor"])
    list(fw.workspace.scan())
    assert "vendor/mod" in _modules(fw.workspace, tmp_path)  # open: kept
    from hcljson_ls.features import diagnostics

    codes = [d.code for d in diagnostics.collect(fw.snapshot(), fw.uri("/vendor/mod/main.tf.json"))]
    assert codes == ["reference/undeclared"]


def test_check_walks_without_the_directories_its_configuration_ignores(cli, tmp_path):
    parse_fixture(TREE).write(tmp_path)

    def files(*extra: str) -> list[str]:
        result = cli("check", *extra, "--format", "json")
        assert result.stderr == "", result.stderr
        return sorted({os.path.relpath(r["file"], tmp_path).replace(os.sep, "/") for r in json.loads(result.stdout)})

    assert files(str(tmp_path)) == ["envs/prod/generated/main.tf.json", "live/.terragrunt-cache/abc/main.tf.json",
                                    "vendor/mod/main.tf.json"]
    (tmp_path / ".hcljson-ls.json").write_text('{"hcljson": {"indexing": {"ignorePaths": ["vendor", "envs/*/generated"]}}}')
    assert files(str(tmp_path)) == ["live/.terragrunt-cache/abc/main.tf.json"]
    assert files(str(tmp_path / "envs")) == []  # relative to the configuration file, wherever the walk starts
    assert files(str(tmp_path / "vendor" / "mod" / "main.tf.json")) == ["vendor/mod/main.tf.json"]  # named: checked
    config = tmp_path / "other.json"
    config.write_text('{"indexing": {"ignorePaths": [".terragrunt-cache"]}}')
    assert files(str(tmp_path), "--config", str(config)) == ["envs/prod/generated/main.tf.json", "vendor/mod/main.tf.json"]
