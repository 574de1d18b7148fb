"""`hcljson-ls convert FILE...`, run for real as a subprocess (`python -m hcljson_ls`, the `cli`
fixture): native HCL on stdout, `--write` beside the JSON file without replacing anything unless
`--force`, problems on stderr with 1-based positions, exit statuses 0 / 1 / 2 and never a traceback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

MAIN = '{\n  "variable": {"region": {"type": "string", "default": "eu-west-1"}},\n  "output": {"r": {"value": "${var.region}"}}\n}\n'
MAIN_TF = 'variable "region" {\n  type    = string\n  default = "eu-west-1"\n}\n\noutput "r" {\n  value = var.region\n}\n'
#: A trailing comma (line 2, column 19) and a template that does not parse (line 3, column 29).
BROKEN = '{\n  "locals": {"a": 1,},\n  "output": {"o": {"value": "${"}}\n}\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def no_traceback(result) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout


def test_help_lists_convert(cli):
    result = cli("--help")
    assert result.returncode == 0 and "convert" in result.stdout
    result = cli("convert", "--help")
    assert result.returncode == 0 and "--write" in result.stdout and "--force" in result.stdout


def test_prints_native_hcl_and_exits_0(cli, tmp_path):
    path = write(tmp_path / "main.tf.json", MAIN)
    result = cli("convert", path)
    assert (result.returncode, result.stdout, result.stderr) == (0, MAIN_TF, "")
    assert not (tmp_path / "main.tf").exists()


def test_several_files_are_headed_by_a_comment_each(cli, tmp_path):
    a = write(tmp_path / "a.tf.json", MAIN)
    b = write(tmp_path / "b.tofu.json", '{"locals": {"x": 1}}')
    result = cli("convert", "a.tf.json", "b.tofu.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"# a.tf.json\n{MAIN_TF}\n# b.tofu.json\nlocals {{\n  x = 1\n}}\n"
    assert a.exists() and b.exists()


def test_broken_input_is_converted_as_far_as_possible_reported_and_exits_1(cli, tmp_path):
    write(tmp_path / "broken.tf.json", BROKEN)
    result = cli("convert", "broken.tf.json", cwd=tmp_path)
    no_traceback(result)
    assert result.returncode == 1
    assert result.stdout == 'locals {\n  a = 1\n}\n\noutput "o" {\n  value = "$${"\n}\n'
    assert result.stderr.splitlines() == [
        'broken.tf.json:2:20: error: Trailing comma: JSON does not allow a "," after the last property; remove it. [syntax/trailing-comma]',
        "broken.tf.json:3:29: error: This string does not parse as a template; it is kept as a quoted string. [convert/unreadable-string]",
    ]


def test_columns_count_characters(cli, tmp_path):
    write(tmp_path / "u.tf.json", '{"locals": {"é": "🎉", "b": "${"}}')
    result = cli("convert", "u.tf.json", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("u.tf.json:1:28: error: ") and result.stderr.count("\n") == 1


def test_write_puts_the_native_file_beside_the_json_file(cli, tmp_path):
    write(tmp_path / "main.tf.json", MAIN)
    write(tmp_path / "sub" / "net.tofu.json", '{"locals": {"x": 1}}')
    result = cli("convert", "--write", "main.tf.json", "sub/net.tofu.json", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "main.tf").read_text(encoding="utf-8") == MAIN_TF
    assert (tmp_path / "sub" / "net.tofu").read_text(encoding="utf-8") == "locals {\n  x = 1\n}\n"


def test_write_never_replaces_a_file_without_force(cli, tmp_path):
    write(tmp_path / "main.tf.json", MAIN)
    existing = write(tmp_path / "main.tf", "# mine\n")
    write(tmp_path / "other.tf.json", '{"locals": {"x": 1}}')
    result = cli("convert", "--write", "main.tf.json", "other.tf.json", cwd=tmp_path)
    no_traceback(result)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["hcljson-ls convert: error: main.tf.json: main.tf already exists (use --force to replace it)"]
    assert existing.read_text(encoding="utf-8") == "# mine\n"
    assert (tmp_path / "other.tf").exists()  # the other files are still converted
    result = cli("convert", "--write", "--force", "main.tf.json", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert existing.read_text(encoding="utf-8") == MAIN_TF


def test_write_leaves_out_a_file_that_could_not_be_converted_whole(cli, tmp_path):
    write(tmp_path / "broken.tf.json", BROKEN)
    result = cli("convert", "--write", "broken.tf.json", cwd=tmp_path)
    no_traceback(result)
    assert result.returncode == 1
    assert "not written" in result.stderr.splitlines()[-1]
    assert not (tmp_path / "broken.tf").exists()


@pytest.mark.parametrize(
    ("files", "args", "needle"),
    [
        ({}, ["missing.tf.json"], "missing.tf.json: no such file"),
        ({"d/x.tf.json": "{}"}, ["d"], "d: is a directory"),
        ({"x.json": "{}"}, ["--write", "x.json"], "x.json: not a Terraform file (its name does not end in .tf.json, .tofu.json or .tfvars.json); nothing converted"),
        ({"x.tf.json": "{}"}, ["--force", "x.tf.json"], "--force only applies with --write"),
    ],
)
def test_usage_and_io_problems_exit_2_with_one_line(cli, tmp_path, files, args, needle):
    for name, text in files.items():
        write(tmp_path / name, text)
    result = cli("convert", *args, cwd=tmp_path)
    no_traceback(result)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hcljson-ls convert: error: {needle}"), lines


def test_not_utf8_exits_2_and_the_other_files_are_converted(cli, tmp_path):
    (tmp_path / "latin1.tf.json").write_bytes(b'{\r\n  "locals": {"a": "\xc3\xa9t\xe9"}}')
    write(tmp_path / "ok.tf.json", '{"locals": {"x": 1}}')
    result = cli("convert", "latin1.tf.json", "ok.tf.json", cwd=tmp_path)
    assert result.returncode == 2
    # the place as people count it: line 2, after 21 characters (the UTF-8 "é" is one)
    assert result.stderr == "hcljson-ls convert: error: latin1.tf.json: not UTF-8 text (byte 0xe9 at line 2, column 22)\n"
    assert result.stdout == "# ok.tf.json\nlocals {\n  x = 1\n}\n"


def test_no_file_is_a_usage_error(cli):
    result = cli("convert")
    assert result.returncode == 2 and "FILE" in result.stderr
    no_traceback(result)


# -------------------------------------------------------------------------------------------- variable definitions, other files

TFVARS = '{"//": "for prod", "region": "eu-west-1", "tags": {"Team": "web", "cost center": "${cc}"}, "sizes": [1, 2e3], "on": true}\n'
TFVARS_NATIVE = (
    "# for prod\n"
    'region = "eu-west-1"\n'
    "tags = {\n"
    '  Team          = "web"\n'
    '  "cost center" = "$${cc}"\n'  # Terraform reads a tfvars.json string literally: the same characters
    "}\n"
    "sizes = [1, 2.0e3]\n"
    "on    = true\n"
)


def test_a_tfvars_file_becomes_a_native_tfvars_file(cli, tmp_path):
    write(tmp_path / "prod.auto.tfvars.json", TFVARS)
    result = cli("convert", "prod.auto.tfvars.json", cwd=tmp_path)
    no_traceback(result)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", TFVARS_NATIVE)  # no "Unknown block type"
    written = cli("convert", "--write", "prod.auto.tfvars.json", cwd=tmp_path)
    assert (written.returncode, written.stdout) == (0, "")
    assert (tmp_path / "prod.auto.tfvars").read_text(encoding="utf-8") == TFVARS_NATIVE


@pytest.mark.skipif(shutil.which("terraform") is None and os.environ.get("CI") != "true", reason="needs terraform on PATH")
def test_terraform_reads_the_same_values_from_both_tfvars_files(tmp_path):
    """The JSON and the converted native file give Terraform the same variable values."""
    from hcljson_ls.terraform.nativehcl.to_native import tfvars_to_native

    (tmp_path / "main.tf").write_text(
        'variable "region" {}\nvariable "tags" { type = map(string) }\nvariable "sizes" { type = list(number) }\n'
        'variable "on" { type = bool }\noutput "all" { value = jsonencode([var.region, var.tags, var.sizes, var.on]) }\n'
    )
    (tmp_path / "a.tfvars.json").write_text(TFVARS)
    (tmp_path / "b.tfvars").write_text(tfvars_to_native(TFVARS).text)
    env = dict(os.environ, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    subprocess.run(["terraform", "init", "-backend=false"], cwd=tmp_path, env=env, capture_output=True, check=True, timeout=120)

    def planned(var_file: str) -> str:
        plan = subprocess.run(["terraform", "plan", "-no-color", f"-var-file={var_file}"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert plan.returncode == 0, plan.stderr
        return plan.stdout[plan.stdout.index("all ="):]

    assert planned("a.tfvars.json") == planned("b.tfvars")
    assert '"cost center" = "${cc}"' in planned("b.tfvars")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("package.json", "not a Terraform file (its name does not end in .tf.json, .tofu.json or .tfvars.json)"),
        ("main.tftest.json", "a test file: convert reads configuration (*.tf.json, *.tofu.json) and variable definitions (*.tfvars.json) only"),
    ],
)
def test_a_file_that_is_not_terraform_is_refused_before_anything_is_converted(cli, tmp_path, name, why):
    write(tmp_path / name, '{"name": "app", "version": "1.0.0"}')
    write(tmp_path / "ok.tf.json", '{"locals": {"x": 1}}')
    result = cli("convert", "--write", "ok.tf.json", name, cwd=tmp_path)
    no_traceback(result)
    assert result.returncode == 2
    assert result.stderr == f"hcljson-ls convert: error: {name}: {why}; nothing converted\n"  # no "Unknown block type"
    assert not (tmp_path / "ok.tf").exists()  # nothing converted, not even the good file


def test_the_tfvars_example_of_the_docs_is_todays_output(cli, repo, tmp_path):
    docs = (repo / "docs" / "cli.md").read_text(encoding="utf-8")
    section = docs[docs.index("### Variable definitions files") :]
    example = section[section.index("```sh\n") + 6 : section.index("```", section.index("```sh\n") + 6)]
    lines = example.splitlines()
    assert lines[0] == "$ cat prod.tfvars.json" and lines[2] == "$ hcljson-ls convert prod.tfvars.json"
    write(tmp_path / "prod.tfvars.json", lines[1] + "\n")
    result = cli("convert", "prod.tfvars.json", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.splitlines() == lines[3:]
