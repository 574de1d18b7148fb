"""Hover, completion and semantic tokens from provider schemas (issue 12), through a real `Workspace`
over a temporary directory with the real `providers schema -json` files of the shared data loaded
(`Workspace.set_schema_files`): AWS 4.13 (+ null), random, local and the OpenTofu test provider
(protocol-6 `nested_type`).

Fixtures (tests/fixture.py): `$0` is the cursor, `⟨⟩` the range a hover must cover.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
import shared_data
from fixture import LANGUAGE_ID, parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features import completion
from hcljson_ls.features.completion import CompletionItem
from hcljson_ls.features.hover import hover
from hcljson_ls.features.semantic_tokens import legend, semantic_tokens
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

AWS, RANDOM = shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA
SCHEMA_FILES = [str(p) for p in (AWS, RANDOM, shared_data.LOCAL_SCHEMA, shared_data.TOFU_TEST_SCHEMA)]

shared_data.require(*map(Path, SCHEMA_FILES))


def open_fixture(root: Path, src: str, schemas: bool = True):
    fw = parse_fixture(src).workspace(root)
    if schemas:
        fw.workspace.set_schema_files(SCHEMA_FILES)
    return fw


# ---- hover ---------------------------------------------------------------------------------------------

HOVERS = [
    pytest.param(
        '{"resource": {"aws_instance": {"web": {⟨"instance_t$0ype"⟩: "t3.micro"}}}}',
        ['**instance_type** — optional argument of `resource "aws_instance" "web"`', "type: `string`",
         "computed: the provider sets it when it is not configured"],
        id="aws-argument",
    ),
    pytest.param(
        '{"resource": {"aws_instance": {"web": {⟨"ebs_block$0_device"⟩: [{"device_name": "/dev/sdb"}]}}}}',
        ['**ebs_block_device** — nested block of `resource "aws_instance" "web"`', "nesting: `set` · any number of blocks"],
        id="aws-nested-block",
    ),
    pytest.param(
        '{"resource": {"aws_instance": {"web": {"ebs_block_device": [{⟨"volume_$0size"⟩: 8}]}}}}',
        ["**volume_size** — optional argument of `ebs_block_device`", "type: `number`"],
        id="aws-argument-of-a-nested-block",
    ),
    pytest.param(
        '{"resource": {"aws_instance": {"web": {"dynamic": {"ebs_block_device": {"content": {⟨"volume_$0size"⟩: 8}}}}}}}',
        ["**volume_size** — optional argument of `ebs_block_device`"],
        id="aws-dynamic-content",
    ),
    pytest.param(
        '{"resource": {"aws_instance": {"web": {"root_block_device": {⟨"encr$0ypted"⟩: true}}}}}',
        ["**encrypted** — optional argument of `root_block_device`", "type: `bool`"],
        id="aws-nested-block-as-one-object",
    ),
    pytest.param(
        '{"resource": {"random_string": {"r": {⟨"len$0gth"⟩: 16}}}}',
        ['**length** — required argument of `resource "random_string" "r"`', "type: `number`",
         # A plain-text description is escaped for Markdown: its backquotes and underscores show as typed.
         "The length of the string desired.", "\\>= (\\`min\\_upper\\`"],
        id="random-argument",
    ),
    pytest.param(
        '{"resource": {"random_string": {"r": {"length": 16, ⟨"num$0ber"⟩: true}}}}',
        ["**number** — optional argument", "*Deprecated by the provider.*"],
        id="random-deprecated",
    ),
    pytest.param(
        '{"resource": {"random_password": {"p": {"length": 16, ⟨"res$0ult"⟩: "x"}}}}',
        ["**result** — computed attribute", "read-only: set by the provider", "sensitive"],
        id="random-sensitive-computed",
    ),
    pytest.param(
        '{"resource": {⟨"random_st$0ring"⟩: {"r": {"length": 16}}}}',
        ["**resource type**", 'resource "random_string" "<name>"',
         "A resource type of the provider `registry.terraform.io/hashicorp/random`.",
         "generates a random permutation of alphanumeric characters"],
        id="random-resource-type-label",
    ),
    pytest.param(
        '{"data": {⟨"aws_a$0mi"⟩: {"a": {}}}}',
        ["**data type**", "A data source of the provider `registry.terraform.io/hashicorp/aws`."],
        id="aws-data-source-label",
    ),
    pytest.param(
        '{"data": {"null_data_source": {"n": {⟨"inp$0uts"⟩: {}}}}}',
        # A Markdown description is kept as written.
        ["type: `map(string)`", "copied into the `outputs` attribute"],
        id="null-markdown-description",
    ),
    pytest.param(
        '{"resource": {"test_instance": {"t": {⟨"vol$0umes"⟩: [{"size": "1", "mount_point": "/"}]}}}}',
        ["**volumes** — optional argument", "type: `list(object({size = string, mount_point = string}))`",
         "nesting: `list`, objects of `size`, `mount_point`"],
        id="opentofu-nested-type-attribute",
    ),
    pytest.param(
        '{"resource": {"test_instance": {"t": {"volumes": [{⟨"mount_$0point"⟩: "/"}]}}}}',
        ["**mount_point** — required argument of `volumes`", "type: `string`"],
        id="opentofu-attribute-of-a-nested-type-object",
    ),
    pytest.param(
        '{"provider": {"aws": {⟨"reg$0ion"⟩: "eu-west-1"}}}',
        ['**region** — ', 'of `provider "aws"`', "type: `string`", "The region where AWS operations will take place."],
        id="aws-provider-configuration-argument",
    ),
    pytest.param(
        '{"provider": {"aws": [{"alias": "w", "assume_role": {⟨"role_$0arn"⟩: "arn:x"}}]}}',
        ["**role_arn** — optional argument of `assume_role`", "type: `string`"],
        id="aws-provider-configuration-nested-block",
    ),
]


@pytest.mark.parametrize(("src", "expected"), HOVERS)
def test_hover_from_the_schema(tmp_path: Path, src: str, expected: list[str]) -> None:
    fw = open_fixture(tmp_path, src)
    uri, offset = fw.cursor
    found = hover(fw.snapshot(), uri, offset)
    assert found is not None
    assert [(found.start, found.end)] == fw.fixture.cursor_file.ranges
    for part in expected:
        assert part in found.markdown


@pytest.mark.parametrize(
    "src",
    [
        '{"resource": {"aws_instance": {"web": {"instance_t$0ypo": "t3.micro"}}}}',  # unknown to the schema
        '{"resource": {"aws_instance": {"web": {"tags": {"Na$0me": "x"}}}}}',  # a key inside a map value
        '{"resource": {"aws_instance": {"web": {"ami": "ami-$0123"}}}}',  # a value
        '{"resource": {"acme_thing": {"x": {"na$0me": "x"}}}}',  # a provider without a loaded schema
    ],
)
def test_no_schema_hover_where_the_schema_says_nothing(tmp_path: Path, src: str) -> None:
    fw = open_fixture(tmp_path, src)
    uri, offset = fw.cursor
    assert hover(fw.snapshot(), uri, offset) is None


def test_without_schemas_hover_is_as_before(tmp_path: Path) -> None:
    src = '{"resource": {"$[label]aws_instance": {"web": {"instance_t$0ype": "t3.micro", "c$[count]ount": 1}}}}'
    fw = open_fixture(tmp_path, src, schemas=False)
    uri, offset = fw.cursor
    assert hover(fw.snapshot(), uri, offset) is None
    plain = hover(fw.snapshot(), *fw.mark("label"))
    assert plain is not None and "of the provider" not in plain.markdown
    # Core arguments keep their hover with schemas loaded.
    fw.workspace.set_schema_files(SCHEMA_FILES)
    meta = hover(fw.snapshot(), *fw.mark("count"))
    assert meta is not None and "meta-argument" in meta.markdown


# ---- completion ------------------------------------------------------------------------------------------


def completed(root: Path, src: str, snippets: bool = True, schemas: bool = True) -> tuple[str, list[CompletionItem]]:
    fw = open_fixture(root, src, schemas)
    uri, offset = fw.cursor
    return fw.fixture.cursor_file.text, completion._complete(fw.snapshot(), uri, offset, snippets)


def by_label(items: list[CompletionItem]) -> dict[str, CompletionItem]:
    return {i.label: i for i in items}


def accept(text: str, item: CompletionItem) -> str:
    return text[: item.start] + item.insert_text + text[item.end :]


def test_arguments_not_written_yet_without_computed_only_ones(tmp_path: Path) -> None:
    _, items = completed(tmp_path, '{"resource": {"aws_instance": {"web": {"ami": "a", "$0"}}}}')
    got = by_label(items)
    assert {"instance_type", "subnet_id", "ebs_block_device", "count", "lifecycle"} <= set(got)
    assert "ami" not in got  # written already
    assert "arn" not in got and "public_ip" not in got  # set by the provider only
    assert got["instance_type"].detail == "string" and got["instance_type"].kind == "Property"
    assert got["ebs_block_device"].detail == "nested block (set)" and got["ebs_block_device"].kind == "Struct"
    # The schema's names before the meta-arguments, arguments before nested blocks.
    order = [i.label for i in sorted(items, key=lambda i: i.sort + i.label)]
    assert order.index("instance_type") < order.index("ebs_block_device") < order.index("count")


def test_provider_configuration_arguments(tmp_path: Path) -> None:
    """A `provider` block's body completes from its provider's configuration schema, nested blocks
    too; `alias` and the other core arguments stay."""
    _, items = completed(tmp_path, '{"provider": {"aws": {"region": "eu-west-1", "$0"}}}')
    got = by_label(items)
    assert {"profile", "assume_role", "default_tags", "alias"} <= set(got)
    assert "region" not in got  # written already
    assert got["assume_role"].kind == "Struct" and got["profile"].detail.startswith("string")
    _, items = completed(tmp_path, '{"provider": {"aws": {"assume_role": {"$0"}}}}')
    assert {"role_arn", "session_name", "external_id"} <= set(by_label(items))
    _, items = completed(tmp_path, '{"provider": {"aws": {"dynamic": {"assume_role": {"content": {"$0"}}}}}}')
    assert {"role_arn", "session_name", "external_id"} <= set(by_label(items))  # a `dynamic` block's body
    _, items = completed(tmp_path, '{"provider": {"acme": {"$0"}}}')  # no schema of that provider
    assert "profile" not in by_label(items)


def test_required_first_and_deprecated_last_and_tagged(tmp_path: Path) -> None:
    _, items = completed(tmp_path, '{"resource": {"random_string": {"r": {$0}}}}')
    order = sorted(items, key=lambda i: i.sort + i.label)
    assert order[0].label == "length" and order[0].detail == "number, required"
    got = by_label(items)
    assert got["number"].deprecated and not got["numeric"].deprecated
    assert order.index(got["number"]) > order.index(got["upper"])
    assert "result" not in got  # computed only
    assert got["length"].documentation.startswith("The length of the string desired.")


@pytest.mark.parametrize(
    ("snippets", "expected"),
    [(True, '"length": ${1:0}'), (False, '"length": 0')],
)
def test_a_placeholder_of_the_argument_type(tmp_path: Path, snippets: bool, expected: str) -> None:
    _, items = completed(tmp_path, '{"resource": {"random_string": {"r": {"$0"}}}}', snippets)
    assert by_label(items)["length"].insert_text == expected


@pytest.mark.parametrize(
    ("label", "value"),
    [("length", 0), ("special", False), ("override_special", ""), ("keepers", {})],
)
def test_accepting_an_argument_writes_valid_json(tmp_path: Path, label: str, value: object) -> None:
    text, items = completed(tmp_path, '{"resource": {"random_string": {"r": {"upper": true, $0}}}}', snippets=False)
    after = json.loads(accept(text, by_label(items)[label]))
    assert after["resource"]["random_string"]["r"] == {"upper": True, label: value}


@pytest.mark.parametrize(
    "src",
    [
        '{"resource": {"aws_instance": {"web": {"ebs_block_device": [{"device_name": "x", $0}]}}}}',
        '{"resource": {"aws_instance": {"web": {"ebs_block_device": {"device_name": "x", "$0"}}}}}',
        '{"resource": {"aws_instance": {"web": {"dynamic": {"ebs_block_device": {"content": {"device_name": "x", "$0"}}}}}}}',
    ],
    ids=["array-of-objects", "one-object", "dynamic-content"],
)
def test_arguments_of_a_nested_block(tmp_path: Path, src: str) -> None:
    _, items = completed(tmp_path, src)
    got = by_label(items)
    assert {"volume_size", "volume_type", "encrypted"} <= set(got)
    assert "device_name" not in got and "instance_type" not in got
    assert "volume_id" not in got  # computed only


def test_nested_block_names_by_prefix(tmp_path: Path) -> None:
    text, items = completed(tmp_path, '{"resource": {"aws_instance": {"web": {"ami": "a", "ebs$0"}}}}', snippets=False)
    assert sorted(i.label for i in items) == ["ebs_block_device", "ebs_optimized"]
    item = by_label(items)["ebs_block_device"]
    assert item.kind == "Struct" and text[item.start : item.end] == '"ebs"'
    assert json.loads(accept(text, item))["resource"]["aws_instance"]["web"]["ebs_block_device"] == {}


def test_attributes_of_a_nested_type_object(tmp_path: Path) -> None:
    _, items = completed(tmp_path, '{"resource": {"test_instance": {"t": {"volumes": [{$0}]}}}}')
    assert sorted(by_label(items)) == ["mount_point", "size"]
    assert all(i.detail == "string, required" for i in items)


def test_resource_types_of_the_loaded_providers(tmp_path: Path) -> None:
    text, items = completed(tmp_path, '{"resource": {"random_s$0"}}')
    got = by_label(items)
    assert set(got) == {"random_shuffle", "random_string"}
    item = got["random_string"]
    assert item.detail == "registry.terraform.io/hashicorp/random" and item.kind == "Class"
    assert "generates a random permutation" in item.documentation
    assert text[item.start : item.end] == '"random_s"'  # the whole block is written (test_feat_completion_skeletons.py)
    _, data = completed(tmp_path / "data", '{"data": {"aws_ami$0"}}')
    assert [i.label for i in data] == ["aws_ami_ids"]  # data sources, not resource types
    _, every = completed(tmp_path / "all", '{"resource": {"$0"}}')
    assert len(every) >= 980 + 7 and not any(i.documentation for i in every)  # too many to parse each


def test_attributes_after_a_resource_address(tmp_path: Path) -> None:
    src = '{"resource": {"aws_instance": {"web": {"ami": "a"}}}, "output": {"ip": {"value": "${aws_instance.web.$0}"}}}'
    _, items = completed(tmp_path, src)
    got = by_label(items)
    assert {"ami", "arn", "public_ip", "id", "instance_type", "ebs_block_device"} <= set(got)
    assert got["arn"].detail == "string" and got["arn"].kind == "Field"
    assert got["ebs_block_device"].detail == "nested block (set)"
    assert got["ami"].sort < got["arn"].sort  # what the block writes first
    _, data = completed(tmp_path / "d", '{"data": {"aws_ami": {"a": {}}}, "output": {"o": {"value": "${data.aws_ami.a.ar$0}"}}}')
    assert [i.label for i in data] == ["architecture", "arn"]


def test_without_schemas_completion_is_as_before(tmp_path: Path) -> None:
    _, items = completed(tmp_path, '{"resource": {"aws_instance": {"web": {"$0"}}}}', schemas=False)
    assert "instance_type" not in by_label(items) and "count" in by_label(items)
    _, items = completed(tmp_path / "b", '{"resource": {"aws_instance": {"web": {"ebs_block_device": {$0}}}}}', schemas=False)
    assert items == []


# A resource document with every construct completion reads with schemas.
DOC = """{
  "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}}},
  "resource": {
    "aws_instance": {"web": {"ami": "ami-1", "instance_type": "t3.micro", "tags": {"Name": "${var.n}"},
      "ebs_block_device": [{"device_name": "/dev/sdb", "volume_size": 8}, {"dev": 1}],
      "root_block_device": {"encrypted": true},
      "dynamic": {"ebs_block_device": {"for_each": "${var.disks}", "content": {"device_name": "${ebs_block_device.value}"}}},
      "lifecycle": {"ignore_changes": ["tags"]}, "count": 2}},
    "random_string": {"r": {"length": 16, "number": true, "keepers": {"a": "b"}}},
    "test_instance": {"t": {"volumes": [{"size": "1", "mount_point": "/"}, {}]}}
  },
  "data": {"aws_ami": {"a": {"owners": ["self"], "filter": [{"name": "n", "values": ["v"]}]}}},
  "output": {"ip": {"value": "${aws_instance.web[0].public_ip} ${data.aws_ami.a.arn}"}}
}"""


@pytest.fixture(scope="module")
def loaded_doc():
    with tempfile.TemporaryDirectory() as root:
        path = Path(root) / "main.tf.json"
        path.write_text(DOC, encoding="utf-8")
        workspace = Workspace([root])
        workspace.set_schema_files(SCHEMA_FILES)
        uri = uri_of_path(str(path))
        workspace.open(uri, DOC, 1, LANGUAGE_ID)
        yield workspace, uri


def test_the_document_is_valid_and_completes_somewhere(loaded_doc) -> None:
    workspace, uri = loaded_doc
    json.loads(DOC)
    answered = sum(bool(completion._complete(workspace.snapshot(), uri, o, True)) for o in range(len(DOC) + 1))
    assert answered > len(DOC) // 4  # the property below is not vacuous


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(offset=st.integers(0, len(DOC)), snippets=st.booleans())
def test_completion_never_raises_with_schemas(loaded_doc, offset: int, snippets: bool) -> None:
    workspace, uri = loaded_doc
    for item in completion._complete(workspace.snapshot(), uri, offset, snippets):  # raises, unlike `complete`
        assert 0 <= item.start <= offset <= item.end <= len(DOC)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(DOC)), offset=st.integers(0, len(DOC)))
def test_completion_never_raises_in_a_truncated_document(loaded_doc, cut: int, offset: int) -> None:
    workspace, uri = loaded_doc
    text = DOC[:cut]
    other = uri.replace("main.tf.json", "cut.tf.json")
    workspace.open(other, text, 1, LANGUAGE_ID)
    try:
        for at in (cut, min(offset, cut)):
            completion._complete(workspace.snapshot(), other, at, True)
    finally:
        workspace.close(other)


# ---- semantic tokens ---------------------------------------------------------------------------------------


def tokens(root: Path, src: str, schemas: bool = True) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """key or word -> [(type, modifiers)] of each token over it, in document order."""
    fw = open_fixture(root, src, schemas)
    uri = fw.uri("/main.tf.json")
    text = fw.fixture.files["/main.tf.json"].text
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for s, e, kind, mods in semantic_tokens(fw.snapshot(), uri):
        out.setdefault(text[s:e], []).append((kind, mods))
    return out


SEMANTIC = (
    '{"resource": {"aws_instance": {"web": {"ami": "a", "$[ebs]ebs_block_device": [{"volume_size": 8, "bogus": 1}],'
    ' "dynamic": {"root_block_device": {"content": {"encrypted": true}}}, "count": 1}},'
    ' "random_string": {"r": {"length": 16, "number": true}},'
    ' "test_instance": {"t": {"volumes": [{"size": "1"}]}},'
    ' "aws_autoscaling_group": {"g": {"max_size": 1, "tags": [{"key": "k"}]}}}}'
)


def test_semantic_tokens_of_schema_keys(tmp_path: Path) -> None:
    got = tokens(tmp_path, SEMANTIC)
    assert got["ebs_block_device"] == [("keyword", ())]  # a nested block type, like block type keys
    assert got["ami"] == [("property", ())]
    assert got["volume_size"] == [("property", ())]  # inside the nested block's value
    assert got["encrypted"] == [("property", ())]  # dynamic content
    assert got["length"] == [("property", ())]
    assert got["number"] == [("property", ("deprecated",))]
    assert got["tags"] == [("property", ("deprecated",))]  # aws_autoscaling_group.tags, 4.13
    assert got["size"] == [("property", ())]  # an attribute of a nested-type object
    assert got["count"] == [("property", ("defaultLibrary",))]  # meta-arguments as before
    assert "bogus" not in got and "key" not in got  # unknown, or inside a value the schema does not describe
    assert "deprecated" in legend()[1]


def test_semantic_tokens_without_schemas_are_as_before(tmp_path: Path) -> None:
    got = tokens(tmp_path, SEMANTIC, schemas=False)
    assert got["ebs_block_device"] == [("property", ())]
    assert got["number"] == [("property", ())]
    assert "volume_size" not in got


def test_semantic_tokens_follow_a_schema_change(tmp_path: Path) -> None:
    """The per-block memo is keyed by the schemas: loading, changing and dropping them is seen at once."""
    fw = open_fixture(tmp_path, SEMANTIC, schemas=False)
    uri = fw.uri("/main.tf.json")
    _, at = fw.mark("ebs")

    def kind() -> str:
        return next(k for s, _, k, _ in semantic_tokens(fw.snapshot(), uri) if s == at)

    assert kind() == "property"
    fw.workspace.set_schema_files(SCHEMA_FILES)
    assert kind() == "keyword"
    ranged = semantic_tokens(fw.snapshot(), uri, at, at + 5)
    assert [(s, k) for s, _, k, _ in ranged if s == at] == [(at, "keyword")]
    fw.workspace.set_schema_files([str(RANDOM)])
    assert kind() == "property"
    fw.workspace.set_schema_files([])
    assert kind() == "property"
