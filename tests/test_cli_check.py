"""`hcljson-ls check` at scale: modules (references and duplicates across files), `--jobs` (the same
output whatever the number of processes), `--format sarif|github`, `--severity`, the pre-commit hook.

Run for real as a subprocess (`cli` fixture) on real temp directories; expected places come from
`⟨...⟩` markers (tests/fixture.py), turned into lines and columns with plain string arithmetic.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls import __version__
from hcljson_ls import cli as cli_module
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.rule_docs import RULES

#: Two modules: `net` refers across its files (one reference is declared nowhere), `app` declares a
#: variable in two files, and its description holds a template sequence (a warning).
MODULES = """
//- /repo/net/variables.tf.json
{"variable": {"region": {"type": "string"}, "cidr": {"type": "string"}}}
//- /repo/net/main.tf.json
{
  "locals": {"name": "${var.region}-net"},
  "resource": {"aws_vpc": {"main": {
    "cidr_block": "${var.cidr}",
    "tags": {"Name": "${local.name}", "Zone": "${⟨var.zone⟩}"}
  }}}
}
//- /repo/net/outputs.tf.json
{"output": {"vpc": {"value": "${aws_vpc.main.id}"}}}
//- /repo/app/a.tf.json
{"variable": {⟨"name"⟩: ⟨{⟩"description": "The ⟨${⟩name}"}}}
//- /repo/app/b.tf.json
{"variable": {⟨"name"⟩: ⟨{⟩}}}
"""


def line_col(text: str, offset: int) -> tuple[int, int, int]:
    """0-based line, column in code points, column in UTF-16 code units (lines end at \\n)."""
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return line, len(column), len(column.encode("utf-16-le")) // 2


@pytest.fixture
def repo_modules(tmp_path):
    fixture = parse_fixture(MODULES)
    fixture.write(tmp_path)
    return fixture, tmp_path / "repo"


def expected_places(fixture, root: Path, path: str) -> list[tuple[str, int, int]]:
    """(display path, 1-based line, 1-based column) of each marked range of fixture file `path`."""
    f = fixture.files[path]
    display = str(root.parent / path.lstrip("/"))
    return [(display, line_col(f.text, start)[0] + 1, line_col(f.text, start)[1] + 1) for start, _ in f.ranges]


# -------------------------------------------------------------------------------------------- modules


def test_references_resolve_across_the_files_of_a_module(cli, repo_modules):
    fixture, root = repo_modules
    result = cli("check", root)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    undeclared = [line for line in lines if line.endswith("[reference/undeclared]")]
    # var.region, var.cidr (variables.tf.json), local.name and aws_vpc.main resolve: only var.zone does not
    [(display, line, column)] = expected_places(fixture, root, "/repo/net/main.tf.json")
    assert len(undeclared) == 1 and undeclared[0].startswith(f"{display}:{line}:{column}: error: ")
    assert '"var.zone"' in undeclared[0]
    assert not any("/net/outputs.tf.json" in line or "/net/variables.tf.json" in line for line in lines)
    assert "in 5 files" in result.stderr


def test_a_file_named_alone_still_sees_its_module(cli, repo_modules):
    fixture, root = repo_modules
    result = cli("check", root / "net" / "main.tf.json", "--format", "json")
    records = json.loads(result.stdout)
    assert [r["code"] for r in records] == ["reference/undeclared"]


def test_duplicates_across_files_name_the_other_file(cli, repo_modules):
    fixture, root = repo_modules
    result = cli("check", root / "app")
    lines = result.stdout.splitlines()
    # Each side at its body's `{` (where Terraform reports the later one), the other's key as a note.
    a_key, a_body, _ = expected_places(fixture, root, "/repo/app/a.tf.json")
    b_key, b_body = expected_places(fixture, root, "/repo/app/b.tf.json")
    assert lines[lines.index(next(x for x in lines if x.startswith("{}:{}:{}: error: ".format(*a_body)))) + 1] == (
        "{}:{}:{}: note: also defined in b.tf.json".format(*b_key)
    )
    assert "{}:{}:{}: error: ".format(*b_body) in result.stdout
    assert result.stdout.count("[structure/duplicate-block]") == 2


def test_check_reports_what_the_server_reports(cli, repo_modules, tmp_path):
    """The same files opened together in one Workspace, as the server holds them (every file open),
    give exactly the diagnostics `check` prints as JSON."""
    fixture, root = repo_modules
    result = cli("check", root, "--format", "json")
    got = sorted((r["file"], r["range"]["start"]["line"], r["range"]["start"]["character"], r["code"], r["message"])
                 for r in json.loads(result.stdout))
    ws = fixture.workspace(tmp_path)
    expected = []
    for path in fixture.files:
        uri = ws.uri(path)
        state = ws.workspace.get(uri)
        for d in collect(ws.snapshot(), uri):
            line, character = state.line_index.position(d.start, "utf-16")
            expected.append((str(tmp_path / path.lstrip("/")), line, character, d.code, d.plain_message))
    assert got == sorted(expected)
    assert len(got) == 4  # var.zone, the two duplicates, the template in a description


# -------------------------------------------------------------------------------------------- walking


def test_directories_are_walked_as_the_workspace_scan_walks_them(cli, tmp_path):
    for skipped in ("node_modules", ".terraform", ".git", "__pycache__"):
        (tmp_path / skipped / "m").mkdir(parents=True)
        (tmp_path / skipped / "m" / "x.tf.json").write_text('{"locals": {"a": [1,]}}')
    (tmp_path / "stack").mkdir()
    (tmp_path / "stack" / "x.tf.json").write_text('{"locals": {"a": [1,]}}')
    (tmp_path / "linked").symlink_to(tmp_path / "stack", target_is_directory=True)  # not followed
    result = cli("check", tmp_path, "--format", "json")
    assert [r["file"] for r in json.loads(result.stdout)] == [str(tmp_path / "stack" / "x.tf.json")]


def test_a_file_reached_through_a_symbolic_link_is_checked_once(cli, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.tf.json").write_text('{"locals": {"a": [1,]}}')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "link.tf.json").symlink_to(tmp_path / "a" / "x.tf.json")
    result = cli("check", tmp_path, "--format", "json")
    assert [r["file"] for r in json.loads(result.stdout)] == [str(tmp_path / "a" / "x.tf.json")]
    result = cli("check", tmp_path / "b", "--format", "json")
    assert [r["file"] for r in json.loads(result.stdout)] == [str(tmp_path / "b" / "link.tf.json")]


# -------------------------------------------------------------------------------------------- --jobs


def many_modules(root: Path, count: int) -> None:
    for i in range(count):
        d = root / f"m{i:02d}"
        d.mkdir(parents=True)
        (d / "variables.tf.json").write_text(json.dumps({"variable": {"v": {"type": "string"}}}))
        refs = {"a": "${var.v}", "b": f"${{var.missing_{i}}}"} if i % 3 else {"a": "${var.v}"}
        (d / "main.tf.json").write_text(json.dumps({"locals": refs}, indent=1) + ("\n{}" if i % 7 == 0 else ""))


@pytest.mark.parametrize("output_format", ["text", "sarif", "github", "json"])
def test_the_output_does_not_depend_on_the_number_of_processes(cli, tmp_path, output_format):
    many_modules(tmp_path, 30)
    one = cli("check", tmp_path, "--jobs", "1", "--format", output_format)
    two = cli("check", tmp_path, "--jobs", "2", "--format", output_format)
    every_cpu = cli("check", tmp_path, "-j", "0", "--format", output_format)
    assert one.returncode == two.returncode == every_cpu.returncode == 1
    assert one.stdout == two.stdout == every_cpu.stdout
    assert one.stderr == two.stderr == every_cpu.stderr
    if output_format == "text":
        files = [line.split(":", 1)[0] for line in one.stdout.splitlines()]
        assert files == sorted(files)  # module by module, in the order the walk found them
        # undeclared references (i % 3) and data after the root value (i % 7 == 0)
        assert sorted(set(files)) == [str(tmp_path / f"m{i:02d}" / "main.tf.json") for i in range(30) if i % 3 or i % 7 == 0]


def test_a_pool_gives_each_module_in_order(tmp_path):
    many_modules(tmp_path, 12)
    modules = cli_module.by_module(cli_module.find_sources([str(tmp_path)]))
    assert len(modules) == 12
    batches = cli_module.batches(modules, 2)
    assert [m for b in batches for m in b] == modules
    assert list(cli_module.check_all(modules, 2)) == list(cli_module.check_all(modules, 1))


@pytest.mark.parametrize("jobs", ["-1", "two", ""])
def test_bad_jobs_is_a_usage_error(cli, tmp_path, jobs):
    result = cli("check", tmp_path, "--jobs", jobs)
    assert result.returncode == 2 and "--jobs" in result.stderr and "Traceback" not in result.stderr


# -------------------------------------------------------------------------------------------- SARIF

EMOJI = '{\n  "locals": {"e": "é😀🎉", "x": "${⟨var.nope⟩}"}\n}\n'


def test_sarif_log_has_the_required_structure(cli, tmp_path):
    fixture = parse_fixture(EMOJI).only
    (tmp_path / "m").mkdir()
    f = tmp_path / "m" / "e.tf.json"
    f.write_text(fixture.text, encoding="utf-8")
    (tmp_path / "m" / "dup.tf.json").write_text('{"locals": {"e": 1}}')
    result = cli("check", "--format", "sarif", "--docs-url", "https://example.com/docs/diagnostics.md", tmp_path)
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    assert log["$schema"].startswith("https://") and log["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "hcljson-ls" and driver["version"] == __version__
    rules = driver["rules"]
    assert len({r["id"] for r in rules}) == len(rules)
    assert run.get("columnKind", "utf16CodeUnits") == "utf16CodeUnits"
    assert run["invocations"][0]["executionSuccessful"] is True
    results = run["results"]
    assert {r["ruleId"] for r in results} == {r["id"] for r in rules}
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] in ("error", "warning", "note", "none")
        assert isinstance(r["message"]["text"], str) and r["message"]["text"]
        for location in r["locations"] + r.get("relatedLocations", []):
            physical = location["physicalLocation"]
            assert not Path(physical["artifactLocation"]["uri"]).is_absolute() or physical["artifactLocation"]["uri"].startswith("file:///")
            region = physical["region"]
            assert all(isinstance(region[k], int) and region[k] >= 1 for k in ("startLine", "startColumn", "endLine", "endColumn"))
            assert (region["startLine"], region["startColumn"]) <= (region["endLine"], region["endColumn"])
    [undeclared] = [r for r in results if r["ruleId"] == "reference/undeclared"]
    start, end = fixture.ranges[0]
    (line, _, col16), (end_line, _, end_col16) = line_col(fixture.text, start), line_col(fixture.text, end)
    assert undeclared["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": (tmp_path / "m" / "e.tf.json").as_uri()},
        "region": {"startLine": line + 1, "startColumn": col16 + 1, "endLine": end_line + 1, "endColumn": end_col16 + 1},
    }
    assert col16 == line_col(fixture.text, start)[1] + 2  # the two emoji count two code units each
    [duplicate] = [r for r in results if r["ruleId"] == "structure/duplicate-block" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/e.tf.json")]
    [related] = duplicate["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"]["uri"].endswith("/m/dup.tf.json")
    assert related["message"]["text"]
    for rule in rules:
        section, short, full = RULES[rule["id"]]
        # what the rule is, from docs/diagnostics.md; the link goes to the section documenting it
        assert rule["shortDescription"] == {"text": short} and rule["fullDescription"] == {"text": full}
        assert rule["helpUri"] == f"https://example.com/docs/diagnostics.md#{section}"
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id["reference/undeclared"]["helpUri"].endswith("#reference-resolution-diagnostics")


def test_sarif_paths_given_relative_stay_relative(cli, repo_modules):
    fixture, root = repo_modules
    result = cli("check", "--format", "sarif", "app", cwd=root)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(result.stdout)["runs"][0]["results"]}
    assert uris == {"app/a.tf.json", "app/b.tf.json"}


def test_sarif_reports_an_unreadable_file_as_a_notification(cli, tmp_path):
    (tmp_path / "bad.tf.json").write_bytes(b'{"a": "caf\xe9"}')
    result = cli("check", "--format", "sarif", tmp_path)
    assert result.returncode == 2
    invocation = json.loads(result.stdout)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and "not UTF-8" in note["message"]["text"]


def test_the_default_docs_url_is_the_checkouts_diagnostics_page(tmp_path, monkeypatch):
    # Running from a checkout (an editable install): server/hcljson_ls/cli.py beside docs/.
    checkout = tmp_path / "checkout"
    (checkout / "server" / "hcljson_ls").mkdir(parents=True)
    (checkout / "docs").mkdir()
    (checkout / "docs" / "diagnostics.md").write_text("# Diagnostics\n", encoding="utf-8")
    monkeypatch.setattr(cli_module, "__file__", str(checkout / "server" / "hcljson_ls" / "cli.py"))
    assert cli_module.default_docs_url() == (checkout / "docs" / "diagnostics.md").resolve().as_uri()
    # Installed into site-packages (as CI installs it): the copy the package ships (setup.py puts it
    # there; tests/test_packaging.py checks a real wheel), else no links.
    site = tmp_path / "venv" / "lib" / "site-packages" / "hcljson_ls"
    site.mkdir(parents=True)
    monkeypatch.setattr(cli_module, "__file__", str(site / "cli.py"))
    assert cli_module.default_docs_url() is None
    (site / "docs").mkdir()
    (site / "docs" / "diagnostics.md").write_text("# Diagnostics\n", encoding="utf-8")
    assert cli_module.default_docs_url() == (site / "docs" / "diagnostics.md").resolve().as_uri()


# -------------------------------------------------------------------------------------------- GitHub

_COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def unescape(text: str) -> str:
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m.group(1)], text)


def parse_command(line: str) -> tuple[str, dict[str, str], str]:
    m = _COMMAND.match(line)
    assert m, line
    properties = dict(p.split("=", 1) for p in m.group(2).split(","))
    return m.group(1), {k: unescape(v) for k, v in properties.items()}, unescape(m.group(3))


def test_github_escaping():
    assert cli_module.github_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert cli_module.github_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    for text in ("50%", "a,b:c", "x\ny\rz", "%0A literally"):
        assert unescape(cli_module.github_property(text)) == text
        assert unescape(cli_module.github_data(text)) == text


def test_github_annotations(cli, tmp_path):
    fixture = parse_fixture('//- /m/a,b:c.tf.json\n{"variable": {"name": ⟨{⟩}}}\n//- /m/other.tf.json\n{"variable": {"name": {}}}\n')
    fixture.write(tmp_path)
    result = cli("check", "--format", "github", "./m/a,b:c.tf.json", cwd=tmp_path)
    assert result.returncode == 1
    [line] = result.stdout.splitlines()
    assert "file=m/a%2Cb%3Ac.tf.json," in line
    command, properties, message = parse_command(line)
    f = fixture.files["/m/a,b:c.tf.json"]
    (start, end), = f.ranges
    (sl, sc, _), (el, ec, _) = line_col(f.text, start), line_col(f.text, end)
    assert command == "error"
    assert properties == {
        "file": "m/a,b:c.tf.json", "line": str(sl + 1), "col": str(sc + 1),
        "endLine": str(el + 1), "endColumn": str(ec + 1), "title": "structure/duplicate-block",
    }
    first, note = message.split("\n")
    assert "also defined in other.tf.json" in first
    assert note.startswith("note: m/other.tf.json:1:15: ")
    assert "hcljson-ls: 1 error, 0 warnings in 1 file" in result.stderr


# -------------------------------------------------------------------------------------------- --severity


@pytest.mark.parametrize(
    "severity, codes, status",
    [
        (None, ["structure/duplicate-block", "structure/template-in-literal"], 1),
        ("error", ["structure/duplicate-block"], 1),
        ("warning", ["structure/duplicate-block", "structure/template-in-literal"], 1),
        ("info", ["structure/duplicate-block", "structure/template-in-literal"], 1),
    ],
)
def test_severity_filters_what_is_reported(cli, repo_modules, severity, codes, status):
    fixture, root = repo_modules
    args = ["check", root / "app" / "a.tf.json", "--format", "json"] + (["--severity", severity] if severity else [])
    result = cli(*args)
    assert result.returncode == status
    assert [r["code"] for r in json.loads(result.stdout)] == codes


@pytest.mark.parametrize("severity, status", [(None, 0), ("error", 0), ("warning", 1), ("info", 1)])
def test_a_warning_alone_fails_from_severity_warning(cli, tmp_path, severity, status):
    (tmp_path / "w.tf.json").write_text('{"variable": {"x": {"description": "${a}"}}}')
    result = cli("check", tmp_path, *(["--severity", severity] if severity else []))
    assert result.returncode == status, result.stderr
    assert ("[structure/template-in-literal]" in result.stdout) == (severity != "error")


def test_the_summary_says_how_many_diagnostics_severity_hid(cli, tmp_path):
    (tmp_path / "w.tf.json").write_text(
        '{"variable": {"x": {"description": "${a}"}, "y": {"description": "${b}"}},'
        ' "output": {"o": {"value": "${var.z}"}}}'
    )
    summary = cli("check", tmp_path, "--severity", "error").stderr.splitlines()[-1]
    assert summary == "hcljson-ls: 1 error, 0 warnings in 1 file; 2 warnings hidden by --severity error"
    assert cli("check", tmp_path).stderr.splitlines()[-1] == "hcljson-ls: 1 error, 2 warnings in 1 file"


def test_the_summary_counts_hidden_information_apart(monkeypatch, tmp_path, capsys):
    from hcljson_ls.diagnostic import INFORMATION, Diagnostic
    from hcljson_ls.features import diagnostics

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("test", lambda state: [Diagnostic(1, 4, INFORMATION, "test/info", "For your information")])])
    f = tmp_path / "i.tf.json"
    f.write_text("{}\n")
    assert cli_module.main(["check", str(f), "--severity", "warning"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "hcljson-ls: 0 errors, 0 warnings in 1 file; 1 information/hint diagnostic hidden by --severity warning"
    )


def test_an_info_diagnostic_counts_only_from_severity_info(monkeypatch, tmp_path, capsys):
    from hcljson_ls.diagnostic import INFORMATION, Diagnostic
    from hcljson_ls.features import diagnostics

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("test", lambda state: [Diagnostic(1, 4, INFORMATION, "test/info", "For your information")])])
    f = tmp_path / "i.tf.json"
    f.write_text("{}\n")
    assert cli_module.main(["check", str(f)]) == 0
    assert "information: For your information [test/info]" in capsys.readouterr().out
    assert cli_module.main(["check", str(f), "--severity", "warning"]) == 0
    assert capsys.readouterr().out == ""
    assert cli_module.main(["check", str(f), "--severity", "info", "--format", "github"]) == 1
    assert capsys.readouterr().out.startswith(f"::notice file={f},line=1,col=2,")


# -------------------------------------------------------------------------------------------- docs


def test_the_text_example_of_the_docs_is_todays_output(cli, repo):
    docs = (repo / "docs" / "cli.md").read_text(encoding="utf-8")
    section = docs[docs.index("### Text output") :]
    example = section[section.index("```text\n") + 8 : section.index("```", section.index("```text\n") + 8)]
    result = cli("check", "examples/module")
    for line in example.splitlines():
        assert line in result.stdout.splitlines(), line


# -------------------------------------------------------------------------------------------- pre-commit


def parse_hooks_yaml(text: str) -> list[dict]:
    """The subset of YAML a `.pre-commit-hooks.yaml` needs: a list of mappings of scalars (plain,
    'single' or "double" quoted) and flow sequences of such scalars; comments and blank lines.
    Anything else is an error, so the file stays in the subset this can check."""

    def scalar(value: str):
        if value.startswith("'"):
            assert value.endswith("'") and len(value) >= 2, value
            return value[1:-1].replace("''", "'")
        if value.startswith('"'):
            return json.loads(value)
        if value.startswith("["):
            assert value.endswith("]"), value
            inner = value[1:-1].strip()
            return [scalar(v.strip()) for v in inner.split(",")] if inner else []
        assert not value.startswith(("{", "&", "*", "!", "|", ">", "%", "@", "`")), value
        return {"true": True, "false": False}.get(value, value)

    hooks: list[dict] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw.startswith("- "):
            hooks.append({})
            raw = "  " + raw[2:]
        assert raw.startswith("  ") and not raw.startswith("   ") and hooks, raw
        key, sep, value = raw.strip().partition(": ")
        assert sep and re.fullmatch(r"[a-z_]+", key) and key not in hooks[-1], raw
        hooks[-1][key] = scalar(value.strip())
    return hooks


def test_pre_commit_hooks_file(repo):
    text = (repo / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = parse_hooks_yaml(text)
    try:
        import yaml
    except ImportError:
        pass
    else:
        assert yaml.safe_load(text) == hooks
    [hook] = hooks
    assert hook["id"] == "hcljson-ls-check"
    assert hook["entry"].split()[:2] == ["hcljson-ls", "check"]
    assert hook["language"] == "python"
    assert set(hook) <= {"id", "name", "description", "entry", "language", "files", "types", "args", "require_serial", "pass_filenames", "minimum_pre_commit_version"}
    pattern = re.compile(hook["files"])
    # every kind `check` reads (variable definitions and test files too), nothing else
    for name in ("main.tf.json", "x/y/cdk.tf.json", "a.tofu.json", "terraform.tfvars.json", "x/prod.auto.tfvars.json",
                 "t.tftest.json", "t.tofutest.json"):
        assert pattern.search(name), name
    for name in ("main.tf", "package.json", "x.tf.json.bak", "tf.json", "prod.tfvars", "t.tftest.hcl"):
        assert not pattern.search(name), name


def test_the_hooks_parser_rejects_what_it_does_not_understand():
    with pytest.raises(AssertionError):
        parse_hooks_yaml("- id: x\n  nested:\n    a: 1\n")
    with pytest.raises(AssertionError):
        parse_hooks_yaml("- id: x\n  files: |\n")
    assert parse_hooks_yaml("# c\n- id: 'a''b'\n  args: [\"--x\", y]\n") == [{"id": "a'b", "args": ["--x", "y"]}]


# -------------------------------------------------------------------------------------------- robustness


def test_a_bug_on_one_file_is_one_line_and_the_others_are_still_checked(monkeypatch, tmp_path, capsys):
    real = cli_module.collect

    def failing(snapshot, uri, **settings):
        if uri.endswith("/bad.tf.json"):
            raise RuntimeError("boom")
        return real(snapshot, uri, **settings)

    monkeypatch.setattr(cli_module, "collect", failing)
    (tmp_path / "bad.tf.json").write_text("{}")
    (tmp_path / "good.tf.json").write_text('{"a": [1,]}')
    assert cli_module.main(["check", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert "[syntax/trailing-comma]" in out.out
    [line] = [x for x in out.err.splitlines() if ": error: " in x]
    assert line == f"hcljson-ls check: error: {tmp_path / 'bad.tf.json'}: internal error while checking this file (RuntimeError: boom)"
    assert "Traceback" not in out.err


def test_each_modules_workspace_is_freed_when_it_is_checked(tmp_path):
    """A workspace is cyclic: were it left to a full collection, thousands of modules would pile up."""
    import gc

    from hcljson_ls.workspace import Workspace

    many_modules(tmp_path, 5)
    modules = cli_module.by_module(cli_module.find_sources([str(tmp_path)]))
    gc.collect()
    alive = {id(o) for o in gc.get_objects() if isinstance(o, Workspace)}  # other tests' (e.g. in a failure's traceback)
    was_enabled = gc.isenabled()
    for module in modules:
        assert cli_module.check_module(module)
        assert not [o for o in gc.get_objects() if isinstance(o, Workspace) and id(o) not in alive]
    assert gc.isenabled() == was_enabled


# -------------------------------------------------------------------------------------------- status 2 and the JSON formats


def test_json_for_a_file_that_is_not_terraform_is_an_empty_array_and_status_2(cli, tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x"}')
    result = cli("check", "--format", "json", tmp_path / "package.json")
    assert result.returncode == 2
    assert json.loads(result.stdout) == []  # still a JSON document: what was checked (nothing)
    assert result.stderr.splitlines() == [
        f"hcljson-ls check: error: {tmp_path / 'package.json'}: not a Terraform file (its name does not end in"
        " .tf.json, .tofu.json, .tfvars.json, .tftest.json, .tofutest.json, .tfmock.json or .tfquery.json); not checked"
    ]
    sarif = json.loads(cli("check", "--format", "sarif", tmp_path / "package.json").stdout)
    assert sarif["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_json_for_a_path_that_stops_the_run_is_nothing_and_status_2(cli, tmp_path):
    result = cli("check", "--format", "json", tmp_path / "missing.tf.json")
    assert result.returncode == 2
    assert result.stdout == ""  # the run never started: no document at all
    assert result.stderr == f"hcljson-ls check: error: {tmp_path / 'missing.tf.json'}: no such file or directory\n"


# -------------------------------------------------------------------------------------------- --schema, --config

RANDOM_SCHEMA = Path(__file__).parent / "data" / "cli" / "random-3.5.1.terraform-1.5.schemas.json"
#: A misspelt `random_string` argument (`uper` for `upper`): the server reports it with the schema.
_MISSPELT = parse_fixture('{"resource": {"random_string": {"x": {"length": 8, $[uper]"uper": true}}}}\n').only
MISSPELT = _MISSPELT.text
MISSPELT_COLUMN = _MISSPELT.marks["uper"] + 1  # 1-based; the range is the key, its quotes included
MISSPELT_LINE = f':1:{MISSPELT_COLUMN}: error: Unsupported argument "uper"'


def test_schema_files_give_the_provider_diagnostics_the_editor_gives(cli, tmp_path):
    (tmp_path / "main.tf.json").write_text(MISSPELT)
    without = cli("check", tmp_path)
    assert without.returncode == 0 and without.stdout == ""  # no schema: nothing can be said
    result = cli("check", tmp_path, "--schema", RANDOM_SCHEMA)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith(f"{tmp_path / 'main.tf.json'}{MISSPELT_LINE}")
    assert 'Did you mean "upper"?' in result.stdout and "[schema/unknown-argument]" in result.stdout
    # the editor, given the same file in `providerSchemas.files`, says the same
    from hcljson_ls.workspace import Workspace

    workspace = Workspace()
    workspace.set_schema_files([str(RANDOM_SCHEMA)])
    uri = (tmp_path / "main.tf.json").as_uri()
    workspace.open(uri, MISSPELT, 0, "terraform-json")
    assert [d.code for d in collect(workspace.snapshot(), uri)] == ["schema/unknown-argument"]


def test_a_schema_file_that_cannot_be_loaded_is_one_error_line_and_status_2(cli, tmp_path):
    (tmp_path / "main.tf.json").write_text(MISSPELT)
    result = cli("check", tmp_path, "--schema", tmp_path / "missing.json", "--schema", RANDOM_SCHEMA)
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if "error:" in line] == [
        f"hcljson-ls check: error: Provider schema file skipped: {tmp_path / 'missing.json'} cannot be read (No such file or directory)."
    ]
    assert MISSPELT_LINE in result.stdout  # the other schema file still counts


def test_worker_processes_see_the_schemas_and_settings_too(cli, tmp_path):
    """With a pool, each module's settings go to the worker with it, and the schema files loaded
    once in the parent are the workers' too: the output is the same as in one process."""
    for i in range(12):
        (tmp_path / f"m{i:02d}").mkdir()
        (tmp_path / f"m{i:02d}" / "main.tf.json").write_text(MISSPELT)
    (tmp_path / "m05" / ".hcljson-ls.json").write_text('{"providerSchemas": {"files": []}}')  # still --schema's
    args = ["check", tmp_path, "--schema", RANDOM_SCHEMA, "--format", "json"]
    one, two = cli(*args, "--jobs", "1"), cli(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert [r["code"] for r in json.loads(two.stdout)] == ["schema/unknown-argument"] * 12


def test_the_nearest_config_file_gives_each_module_its_settings(cli, tmp_path):
    """`.hcljson-ls.json` in a module's directory or a parent: the server's settings section, with
    `providerSchemas.files` relative to the file, and `engine`."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "random.json").write_bytes(RANDOM_SCHEMA.read_bytes())
    (tmp_path / ".hcljson-ls.json").write_text('{"hcljson": {"providerSchemas": {"files": ["schemas/random.json"]}}}')
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / "a" / "deep" / "main.tf.json").write_text(MISSPELT)
    # a module where x.tofu.json hides x.tf.json (OpenTofu's rule, the default "auto" engine here),
    # so var.v is declared nowhere; with engine "terraform" both are read and var.v is declared
    both = tmp_path / "both"
    both.mkdir()
    (both / "x.tf.json").write_text('{"variable": {"v": {}}, "output": {"o": {"value": "${var.v}"}}}')
    (both / "x.tofu.json").write_text('{"output": {"p": {"value": "${var.v}"}}}')

    def found() -> set[tuple[str, str]]:
        result = cli("check", tmp_path, "--format", "json")
        assert result.returncode == 1 and result.stderr == "", result.stderr
        return {(Path(r["file"]).relative_to(tmp_path).as_posix(), r["code"]) for r in json.loads(result.stdout)}

    assert found() == {("a/deep/main.tf.json", "schema/unknown-argument"), ("both/x.tofu.json", "reference/undeclared")}
    (both / ".hcljson-ls.json").write_text('{"engine": "terraform"}')  # the nearest file wins: no schema there
    assert found() == {("a/deep/main.tf.json", "schema/unknown-argument")}


def test_without_a_config_file_a_module_is_checked_with_the_servers_defaults():
    from hcljson_ls.check_settings import CheckSettings
    from hcljson_ls.lsp.config import DEFAULT

    assert CheckSettings.of(DEFAULT) == cli_module.NO_SETTINGS


def test_max_file_size_applies_to_the_modules_files_on_disk(cli, tmp_path):
    """As the server's scan: a file of the module over `maxFileSizeMB` is skipped, so what it
    declares is not there."""
    (tmp_path / "variables.tf.json").write_text(json.dumps({"variable": {"v": {"description": "x" * (1024 * 1024)}}}))
    (tmp_path / "main.tf.json").write_text('{"output": {"o": {"value": "${var.v}"}}}')
    assert cli("check", tmp_path / "main.tf.json").returncode == 0
    (tmp_path / ".hcljson-ls.json").write_text('{"maxFileSizeMB": 1}')
    result = cli("check", tmp_path / "main.tf.json")
    assert result.returncode == 1 and "[reference/undeclared]" in result.stdout


def test_config_names_one_file_for_every_module(cli, tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "main.tf.json").write_text(MISSPELT)
    (tmp_path / "m" / ".hcljson-ls.json").write_text('{"providerSchemas": {"files": []}}')  # not read: --config wins
    config = tmp_path / "ci-settings.json"
    config.write_text(json.dumps({"providerSchemas": {"files": [str(RANDOM_SCHEMA)]}}))
    result = cli("check", tmp_path / "m", "--config", config)
    assert result.returncode == 1 and MISSPELT_LINE in result.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "the configuration file is not JSON"),
        ("[1]", 'the configuration file must hold a JSON object (the "hcljson" settings)'),
    ],
)
def test_a_config_file_that_cannot_be_used_stops_the_run(cli, tmp_path, text, message):
    (tmp_path / "main.tf.json").write_text("{}")
    (tmp_path / ".hcljson-ls.json").write_text(text)
    result = cli("check", tmp_path, "--format", "json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"hcljson-ls check: error: {tmp_path / '.hcljson-ls.json'}: {message}")
    assert len(result.stderr.splitlines()) == 1


def test_a_bad_setting_value_is_reported_and_the_rest_still_applies(cli, tmp_path):
    (tmp_path / "main.tf.json").write_text(MISSPELT)
    (tmp_path / ".hcljson-ls.json").write_text(json.dumps(
        {"engine": 5, "providerSchemas": {"files": [str(RANDOM_SCHEMA)]}}
    ))
    result = cli("check", tmp_path)
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if "error:" in line] == [
        f"hcljson-ls check: error: {tmp_path / '.hcljson-ls.json'}: engine: expected a string, got 5"
    ]
    assert MISSPELT_LINE in result.stdout


# -------------------------------------------------------------------------------------------- --shard


def _modules_for_shards(root: Path, count: int) -> None:
    """`count` modules, each with a diagnostic naming its directory (so each record says where it
    came from), one of them two files."""
    for i in range(count):
        module = root / f"m{i:02d}" / ("nested" if i % 3 else "")
        module.mkdir(parents=True, exist_ok=True)
        (module / "main.tf.json").write_text(json.dumps({"output": {f"o{i}": {"value": f"${{var.v{i}}}"}}}))
        if i == 4:
            (module / "more.tf.json").write_text('{"locals": {"a": [1,]}}')


def _check_json(capsys, *args: str) -> tuple[int, list[dict]]:
    status = cli_module.main(["check", *args, "--format", "json", "--jobs", "1"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 12])
def test_the_shards_together_are_one_full_run_each_module_in_exactly_one(tmp_path, capsys, n):
    _modules_for_shards(tmp_path, 8)
    full_status, full = _check_json(capsys, str(tmp_path))
    assert full_status == 1 and len(full) == 9
    shards = [_check_json(capsys, str(tmp_path), "--shard", f"{k}/{n}") for k in range(1, n + 1)]
    union = [record for _, records in shards for record in records]
    key = lambda r: (r["file"], r["range"]["start"]["line"], r["range"]["start"]["character"], r["code"])  # noqa: E731
    assert sorted(union, key=key) == sorted(full, key=key)  # nothing lost, nothing twice
    modules_of = [{os.path.dirname(r["file"]) for r in records} for _, records in shards]
    for a in range(n):
        for b in range(a + 1, n):
            assert not modules_of[a] & modules_of[b]  # a module's files all in one shard
    sizes = sorted(len(m) for m in modules_of)
    assert sizes[-1] - sizes[0] <= 1  # about equal shares
    assert max(status for status, _ in shards) == full_status
    # deterministic: the same shard twice is the same output
    assert _check_json(capsys, str(tmp_path), "--shard", f"1/{n}") == shards[0]


def test_a_shard_without_modules_is_an_empty_successful_run(tmp_path, capsys):
    _modules_for_shards(tmp_path, 2)
    assert cli_module.main(["check", str(tmp_path), "--shard", "3/3", "--format", "sarif"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["runs"][0]["results"] == []  # still a log to upload
    assert captured.err.splitlines()[0] == "hcljson-ls check: shard 3/3 has no module to check"


def test_what_the_walk_met_is_reported_by_shard_1_only(tmp_path, capsys):
    _modules_for_shards(tmp_path, 2)
    (tmp_path / "package.json").write_text("{}")
    args = ["check", str(tmp_path), str(tmp_path / "package.json"), "--format", "json"]
    assert cli_module.main([*args, "--shard", "1/2"]) == 2
    assert "package.json: not a Terraform file" in capsys.readouterr().err
    assert cli_module.main([*args, "--shard", "2/2"]) == 1
    assert "package.json" not in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0/2", "3/2", "2", "a/b", "1/0"])
def test_a_bad_shard_is_a_usage_error(capsys, value):
    with pytest.raises(SystemExit) as exit_:
        cli_module.main(["check", "examples", "--shard", value])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("hcljson-ls check: error: argument --shard: expected K/N with 1 <= K <= N")


# -------------------------------------------------------------------------------------------- what check reads


def test_help_names_every_kind_of_file_check_reads(cli):
    text = " ".join(cli("check", "--help").stdout.split())
    for kind in ("*.tf.json", "*.tofu.json", "*.tfvars.json", "*.tftest.json", "*.tofutest.json"):
        assert kind in text, kind


def test_a_tfvars_file_given_alone_is_checked_against_its_modules_variables(cli, tmp_path):
    (tmp_path / "variables.tf.json").write_text('{"variable": {"region": {"type": "string"}, "size": {"type": "number"}}}')
    tfvars = tmp_path / "prod.auto.tfvars.json"
    tfvars.write_text('{"regoin": "eu-west-1", "size": "large"}')
    result = cli("check", tfvars, "--format", "json")
    assert result.returncode == 1
    assert [(r["file"], r["code"]) for r in json.loads(result.stdout)] == [
        (str(tfvars), "tfvars/undeclared-variable"),  # declared in variables.tf.json: "region"
        (str(tfvars), "tfvars/wrong-type"),  # size is a number there
    ]


def test_docs_and_readme_name_every_check_option(repo):
    docs = (repo / "docs" / "cli.md").read_text(encoding="utf-8")
    readme = (repo / "README.md").read_text(encoding="utf-8")
    parser = cli_module.build_parser()
    [check] = [a.choices["check"] for a in parser._actions if getattr(a, "choices", None) and "check" in a.choices]
    options = [o for a in check._actions for o in a.option_strings if o.startswith("--") and o != "--help"]
    assert {"--schema", "--config", "--shard"} <= set(options)
    for option in options:
        assert f"| `{option}" in docs, option  # a row of the options table
    synopsis = readme[readme.index("hcljson-ls check PATH...") :]
    synopsis = synopsis[: synopsis.index("```")]
    for option in ("--format", "--severity", "--jobs", "--schema", "--config", "--shard"):
        assert option in synopsis, option
    for kind in ("*.tf.json", "*.tofu.json", "*.tfvars.json", "*.tftest.json", "*.tofutest.json"):
        assert f"`{kind}`" in readme, kind


def test_runaway_repeats_are_collapsed_as_in_the_editor_by_the_configured_max_per_code(cli, tmp_path):
    refs = {f"v{i}": f"${{var.missing{i}}}" for i in range(4)}
    (tmp_path / "main.tf.json").write_text(json.dumps({"locals": refs}, indent=2))
    (tmp_path / ".hcljson-ls.json").write_text('{"diagnostics": {"maxPerCode": 3}}')
    found = json.loads(cli("check", tmp_path, "--format", "json").stdout)
    assert [d["code"] for d in found] == ["reference/undeclared"] * 3 + ["limit/too-many"]
    assert found[3]["range"] == found[2]["range"] | {"start": {"line": 5, "character": 13}, "end": {"line": 5, "character": 25}}
    assert "missing3" in found[3]["message"]  # the first one not shown, where it is
    (tmp_path / ".hcljson-ls.json").write_text('{"diagnostics": {"maxPerCode": 0}}')
    found = json.loads(cli("check", tmp_path, "--format", "json").stdout)
    assert [d["code"] for d in found] == ["reference/undeclared"] * 4
