"""The native HCL preview: hover on a block's name shows the block as `hcljson-ls convert` writes it
(with the module's provider schemas when loaded), cut to a sensible length; `file_native` is the
text of the "Show as native HCL" code action. Real `Workspace` over a real directory."""

from __future__ import annotations

import json
from pathlib import Path

import shared_data
from fixture import parse_fixture

from hcljson_ls.features.hover import hover
from hcljson_ls.features.native_preview import MAX_LINES, block_preview, file_native
from hcljson_ls.terraform.nativehcl.native import parse_native
from hcljson_ls.terraform.nativehcl.to_native import to_native

SRC = """
//- /main.tf.json
{"$[resource]resource": {"$[type]aws_instance": {"w$0eb": {"$[ami]ami": "ami-1", "tags": {"Name": "${var.env}-web"},
  "ebs_block_device": [{"device_name": "/dev/sdb"}], "depends_on": ["aws_s3_bucket.b"], "//": "a note"}}},
 "variable": {"$[env]env": {"type": "string", "default": "dev"}},
 "t$[terraform]erraform": {"required_version": ">= 1.5"}}
"""

WEB_NATIVE = '''resource "aws_instance" "web" {
  ami = "ami-1"
  tags = {
    Name = "${var.env}-web"
  }
  ebs_block_device = [
    {
      device_name = "/dev/sdb"
    },
  ]
  depends_on = [aws_s3_bucket.b]
  # a note
}'''


def _ws(tmp_path: Path, src: str = SRC):
    fw = parse_fixture(src).workspace(tmp_path)
    return fw, *fw.cursor


def test_hover_on_a_resource_name_shows_the_block_in_native_syntax_below_the_usual_hover(tmp_path: Path) -> None:
    fw, uri, offset = _ws(tmp_path)
    h = hover(fw.snapshot(), uri, offset)
    assert h is not None
    usual, _, preview = h.markdown.partition("\n\n---\n\n")
    assert "**resource name**" in usual
    assert preview == f"```terraform\n{WEB_NATIVE}\n```"
    text = fw.fixture.files["/main.tf.json"].text
    assert text[h.start : h.end] == '"web"'


def test_with_the_provider_schema_nested_blocks_are_blocks(tmp_path: Path) -> None:
    fw, uri, offset = _ws(tmp_path)
    fw.workspace.set_schema_files([str(shared_data.AWS_SCHEMA)])
    preview = block_preview(fw.snapshot(), uri, offset)
    assert preview is not None
    assert "  ebs_block_device {\n    device_name = \"/dev/sdb\"\n  }" in preview.text
    assert "ebs_block_device = [" not in preview.text


def test_a_provider_block_reads_its_nested_blocks_from_the_configuration_schema(tmp_path: Path) -> None:
    fw, uri, offset = _ws(tmp_path, '{"provider": {"a$0ws": {"region": "x", "assume_role": {"role_arn": "a"}}}}\n')
    assert "assume_role = {" in block_preview(fw.snapshot(), uri, offset).text  # no schema: an object
    fw.workspace.set_schema_files([str(shared_data.AWS_SCHEMA)])
    assert block_preview(fw.snapshot(), uri, offset).text == (
        'provider "aws" {\n  region = "x"\n\n  assume_role {\n    role_arn = "a"\n  }\n}')


def test_blocks_without_labels_preview_on_their_type_key_and_nothing_elsewhere(tmp_path: Path) -> None:
    fw, uri, _ = _ws(tmp_path)
    marks = fw.fixture.files["/main.tf.json"].marks
    snap = fw.snapshot()
    p = block_preview(snap, uri, marks["terraform"])
    assert p is not None and p.text == 'terraform {\n  required_version = ">= 1.5"\n}'
    assert block_preview(snap, uri, marks["env"]).text.startswith('variable "env" {')
    assert block_preview(snap, uri, marks["ami"]) is None  # an argument: not a block's name
    assert block_preview(snap, uri, marks["type"]) is None  # the type label, not the name
    assert block_preview(snap, uri, marks["resource"]) is None  # shared by every resource


def test_a_long_block_is_cut_with_a_note(tmp_path: Path) -> None:
    tags = {f"k{i}": f"v{i}" for i in range(100)}
    src = '//- /main.tf.json\n{"resource": {"aws_instance": {"$0big": {"tags": ' + json.dumps(tags) + "}}}}\n"
    fw = parse_fixture(src).workspace(tmp_path)
    p = block_preview(fw.snapshot(), *fw.cursor)
    lines = p.text.split("\n")
    assert len(lines) == MAX_LINES + 1
    assert lines[-1] == f"# ... {104 - MAX_LINES} more lines"  # 100 tags, the tags and block lines


def test_file_native_is_the_convert_output_and_parses_as_hcl(tmp_path: Path) -> None:
    fw, uri, _ = _ws(tmp_path)
    text = fw.fixture.files["/main.tf.json"].text
    native = file_native(fw.snapshot(), uri)
    assert native == to_native(text, "main.tf.json").text
    assert native.startswith("# a note\n") or "# a note" in native
    parsed = parse_native(native)
    assert [d.key for d in parsed.declarations] == [("resource", "aws_instance", "web"), ("provider-use", "aws", None),
                                                     ("variable", "env"),
                                                     ("variable-input", "env", "string", False),
                                                     ("version-constraint", "terraform", ">= 1.5")]


def test_a_broken_document_still_previews_what_it_can(tmp_path: Path) -> None:
    src = '//- /main.tf.json\n{"variable": {"$0a": {"default": 1}}, "locals": {"x": "${var.a"\n'
    fw = parse_fixture(src).workspace(tmp_path)
    uri, offset = fw.cursor
    p = block_preview(fw.snapshot(), uri, offset)
    assert p is not None and p.text == 'variable "a" {\n  default = 1\n}'
    assert 'variable "a"' in file_native(fw.snapshot(), uri)


def test_notes_are_comments_but_cdktf_metadata_objects_are_not(tmp_path: Path) -> None:
    src = ('//- /cdk.tf.json\n{"resource": {"aws_s3_bucket": {'
           '"$[logs]logs": {"//": {"metadata": {"path": "dev/Logs/Bucket", "uniqueId": "Logs_Bucket_1"}}, "bucket": "b"}, '
           '"$[notes]notes": {"//": "kept", "bucket": "c"}}}}\n')
    fw = parse_fixture(src).workspace(tmp_path)
    uri = fw.uri("/cdk.tf.json")
    logs = block_preview(fw.snapshot(), *fw.mark("logs"))
    assert logs is not None and logs.text == 'resource "aws_s3_bucket" "logs" {\n  bucket = "b"\n}'
    notes = block_preview(fw.snapshot(), *fw.mark("notes"))
    assert notes is not None and notes.text == 'resource "aws_s3_bucket" "notes" {\n  # kept\n  bucket = "c"\n}'
    assert "metadata" in file_native(fw.snapshot(), uri)  # the whole file keeps every comment, as `convert` does
