"""Rename refuses what Terraform would reject afterwards, with a message saying why: a name no variable
may have (`catalogue.RESERVED_VARIABLE_NAMES`), a name the module already declares for that kind (the
rename would silently make a duplicate), a name that is no HCL identifier (`catalogue.IDENTIFIER`,
Unicode `ID_Start`/`ID_Continue`: `²` is a digit to Python's `\\w` but not to Terraform).
A real `Workspace` over a real directory (`fixture`)."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features import diagnostics, navigation
from hcljson_ls.features.navigation import RenameError
from hcljson_ls.terraform.definition.catalogue import IDENTIFIER, RESERVED_VARIABLE_NAMES

MODULE = """
//- /stack/main.tf.json
{
  "variable": {"region": {}, "zone": {}},
  "locals": {"$[local.a]a": "${var.r$[var.region]egion}", "$[local.b]b": 1},
  "resource": {"aws_instance": {"$[web]web": {}, "db": {}}, "aws_s3_bucket": {"logs": {}}},
  "module": {"net": {"source": "./net"}},
  "output": {"o": {"value": "${module.n$[module.net]et.v$[vpc_id]pc_id}"}}
}
//- /stack/other.tf
locals {
  c = var.zone
}
//- /stack/net/main.tf.json
{"output": {"vpc_id": {"value": 1}, "subnet": {"value": 2}}}
"""
MAIN = "/stack/main.tf.json"


def _rename(tmp_path, mark: str, new_name: str):
    """Rename to `new_name` at the mark `$[mark]` of MODULE."""
    fw = parse_fixture(MODULE).workspace(tmp_path, open=[MAIN])
    return navigation.rename(fw.snapshot(), *fw.mark(mark), new_name)


@pytest.mark.parametrize("reserved", sorted(RESERVED_VARIABLE_NAMES))
def test_a_variable_is_not_renamed_to_a_reserved_name(tmp_path, reserved):
    got = _rename(tmp_path, "var.region", reserved)
    assert isinstance(got, RenameError), got
    assert f'"{reserved}" is reserved' in got.message


def test_a_reserved_variable_name_is_fine_for_a_local(tmp_path):
    got = _rename(tmp_path, "local.b", "count")
    assert not isinstance(got, RenameError), got


@pytest.mark.parametrize("mark, taken, said", [
    ("var.region", "zone", 'a variable named "zone" (in main.tf.json)'),
    ("local.a", "c", 'a local value named "c" (in other.tf)'),  # declared in a native file
    ("web", "db", 'a resource of type "aws_instance" named "db"'),
    ("module.net", "net", None),  # its own name: nothing to refuse
    ("vpc_id", "subnet", 'an output named "subnet"'),  # the child module's output
], ids=["variable", "local-in-native-file", "resource", "same-name", "child-output"])
def test_a_name_already_declared_is_refused(tmp_path, mark, taken, said):
    got = _rename(tmp_path, mark, taken)
    if said is None:
        assert not isinstance(got, RenameError), got
        return
    assert isinstance(got, RenameError), got
    assert said in got.message, got.message
    assert "twice" in got.message


def test_the_same_name_for_another_resource_type_is_fine(tmp_path):
    got = _rename(tmp_path, "web", "logs")  # aws_s3_bucket.logs is another type
    assert not isinstance(got, RenameError), got


@pytest.mark.parametrize("bad", ["²x", "x²", "-x", "x y", "٣x"])
def test_names_that_are_no_hcl_identifier_are_refused(tmp_path, bad):
    got = _rename(tmp_path, "var.region", bad)
    assert isinstance(got, RenameError) and "not a valid name" in got.message


@pytest.mark.parametrize("good", ["π", "ªa", "x-y", "_x", "é٣"])
def test_unicode_letters_are_names(good):
    assert IDENTIFIER.match(good)


def test_terraforms_invalid_name_is_reported_for_a_superscript(tmp_path):
    # Terraform 1.11: `"x²"` as a variable name is "Invalid variable name" (² is no ID_Continue).
    fw = parse_fixture('//- /m/main.tf.json\n{"variable": {"x²": {}, "²x": {}, "ok": {}}}\n').workspace(tmp_path, open=["/m/main.tf.json"])
    found = [d for d in diagnostics.collect(fw.snapshot(), fw.uri("/m/main.tf.json")) if "Invalid variable name" in d.message]
    text = fw.fixture.files["/m/main.tf.json"].text
    assert sorted(text[d.start : d.end] for d in found) == ['"x²"', '"²x"']


@pytest.mark.parametrize("mark, said", [
    ("renameable", None),
    ("nothing", None),  # nothing there
    ("undeclared", "Nothing in this module declares this name"),
    ("builtin", "built into Terraform"),
    ("function", "A built-in function cannot be renamed"),
], ids=["renameable", "nothing", "undeclared", "builtin", "function"])
def test_why_a_name_cannot_be_renamed(tmp_path, mark, said):
    src = ('//- /m/main.tf.json\n{"variable": {"region": {}}, "locals": {"a": "$[nothing]${var.r$[renameable]egion}", '
           '"b": "${var.no$[undeclared]where}", "c": "${pa$[builtin]th.module}", "d": "${up$[function]per(var.region)}"}}\n')
    fw = parse_fixture(src).workspace(tmp_path, open=["/m/main.tf.json"])
    _, offset = fw.mark(mark)
    why = navigation.why_not_renamed(fw.snapshot(), fw.uri("/m/main.tf.json"), offset)
    assert (why is None) if said is None else (said in why), why
    if said is not None:
        refused = navigation.rename(fw.snapshot(), fw.uri("/m/main.tf.json"), offset, "x")
        assert isinstance(refused, RenameError) and refused.message == why
