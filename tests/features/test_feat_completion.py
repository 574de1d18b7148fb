"""Completion (`features.completion.complete`): what is offered where a user types in a Terraform JSON
file (inside `${...}` and `%{...}`, in static references and type constraints, on keys and labels), the
exact range each item replaces, and that accepting a key writes valid JSON; in modules of several files
(JSON and native, open or not), through JSON escapes and non-ASCII text, in half-typed documents; and
over the real corpus, at random offsets and in random truncations, never an exception and never a range
that does not end at (or cover) the cursor.

Fixtures (tests/fixture.py): `$0` is the cursor, `⟨⟩` the range every item must replace (the typed part
of the word; for a key, the whole key string with its quotes). Fixtures are JSON text: `\\"` in them is
a JSON escape, `\\u0024` a `$`.
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features.completion import CompletionItem, complete
from hcljson_ls.terraform.definition import functions
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

# ---- helpers ------------------------------------------------------------------------------------------


class Errors(logging.Handler):
    """`complete` turns an exception into an empty list and logs it: the tests fail on the log."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def explain(self) -> str:
        r = self.records[0]
        return f"{r.getMessage()}: {r.exc_info[1]!r}" if r.exc_info else r.getMessage()


@contextmanager
def no_logged_errors() -> Iterator[Errors]:
    handler = Errors()
    logger = logging.getLogger("hcljson_ls.features.completion")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    assert not handler.records, "complete() swallowed an exception: " + handler.explain()


class Done:
    """What `complete` answered at the fixture's cursor."""

    def __init__(self, tmp_path: Path, src: str, snippets: bool = True, engine: str = "auto") -> None:
        fw = parse_fixture(src).workspace(tmp_path, engine=engine)
        self.file = fw.fixture.cursor_file
        self.text = self.file.text
        self.uri, self.offset = fw.cursor
        with no_logged_errors():
            self.items = complete(fw.snapshot(), self.uri, self.offset, snippets)

    @property
    def labels(self) -> list[str]:
        return [i.label for i in self.items]

    def item(self, label: str) -> CompletionItem:
        found = [i for i in self.items if i.label == label]
        assert len(found) == 1, (label, self.labels)
        return found[0]

    def ranges(self) -> set[tuple[int, int]]:
        return {(i.start, i.end) for i in self.items}

    def expected_range(self) -> tuple[int, int]:
        assert len(self.file.ranges) == 1, "the fixture marks one expected range"
        return self.file.ranges[0]

    def applied(self, item: CompletionItem) -> str:
        return apply(self.text, item)


def done(tmp_path: Path, src: str, snippets: bool = True, engine: str = "auto") -> Done:
    return Done(tmp_path, src, snippets, engine)


_PLACEHOLDER = re.compile(r"\$\{\d+:([^{}]*)\}")
_TABSTOP = re.compile(r"\$\d+")


def plain(snippet: str) -> str:
    """A snippet's text as the editor writes it: `${1:x}` -> `x`, `$1` / `$0` -> nothing."""
    previous = None
    while previous != snippet:
        previous, snippet = snippet, _PLACEHOLDER.sub(r"\1", snippet)
    return _TABSTOP.sub("", snippet)


def apply(text: str, item: CompletionItem) -> str:
    insert = plain(item.insert_text) if item.snippet else item.insert_text
    return text[: item.start] + insert + text[item.end :]


def assert_valid_json_after_each(d: Done) -> None:
    for item in d.items:
        new = d.applied(item)
        try:
            json.loads(new)
        except ValueError as error:
            raise AssertionError(f"accepting {item.label!r} ({item.insert_text!r} over {item.start}..{item.end}) "
                                 f"gives invalid JSON ({error}):\n{new}") from None


def test_plain_removes_snippet_syntax() -> None:
    assert plain("upper(${1:str})") == "upper(str)"
    assert plain('"name": "$1"') == '"name": ""'
    assert plain("object({${1:name} = ${2:string}})") == "object({name = string})"
    assert plain("lookup(${1:inputMap}, ${2:key})$0") == "lookup(inputMap, key)"


# ---- a module of several files ------------------------------------------------------------------------

# `%s` is main.tf.json's `locals.a` value (a JSON string's content, with the markers). Only main.tf.json
# is opened; the other files are read from disk, two of them native.
MODULE = """
//- /stack/main.tf.json
{"locals": {"a": "%s"}, "module": {"net": {"source": "./net"}, "remote": {"source": "hashicorp/x/aws"}}}
//- /stack/variables.tf
variable "size" {
  default = "t3"
}
variable "zone" {}
//- /stack/vars.tf.json
{"variable": {"region": {"type": "string", "description": "where"}}, "locals": {"name": "n"}}
//- /stack/data.tf.json
{"data": {"aws_ami": {"ubuntu": {}}, "aws_vpc": {"main": {}}},
 "resource": {"aws_instance": {"web": {"ami": "x", "tags": {}}, "db": {}}}}
//- /stack/buckets.tf
resource "aws_s3_bucket" "logs" {
  bucket = "b"
}
locals { other = 1 }
//- /stack/net/outputs.tf.json
{"output": {"vpc_id": {"value": "v"}, "subnet_ids": {"value": []}}}
//- /stack/net/more.tf
output "cidr" { value = "x" }
"""

AFTER_DOT = [
    # (id, the locals.a value, the labels, exactly)
    ("var", "${var.⟨$0⟩}", ["region", "size", "zone"]),
    ("var-prefix", "${var.⟨r$0⟩}", ["region"]),
    ("var-prefix-any-case", "${var.⟨SI$0⟩}", ["size"]),
    ("local", "${local.⟨$0⟩}", ["name", "other"]),  # not `a` itself: the value being defined cannot refer to itself
    ("local-prefix", "${local.⟨n$0⟩}", ["name"]),
    ("module", "${module.⟨$0⟩}", ["net", "remote"]),
    ("module-outputs-of-a-local-child", "${module.net.⟨$0⟩}", ["cidr", "subnet_ids", "vpc_id"]),
    ("module-outputs-prefix", "${module.net.⟨v$0⟩}", ["vpc_id"]),
    ("module-outputs-of-a-registry-module", "${module.remote.⟨$0⟩}", []),
    ("data", "${data.⟨$0⟩}", ["aws_ami", "aws_vpc"]),
    ("data-type", "${data.aws_ami.⟨$0⟩}", ["ubuntu"]),
    ("resource", "${aws_instance.⟨$0⟩}", ["db", "web"]),
    ("resource-native", "${aws_s3_bucket.⟨$0⟩}", ["logs"]),
    ("resource-instance", "${aws_instance.web.⟨$0⟩}", ["ami", "id", "tags"]),
    ("resource-instance-prefix", "${aws_instance.web.⟨ta$0⟩}", ["tags"]),
    ("path", "${path.⟨$0⟩}", ["cwd", "module", "root"]),
    ("terraform", "${terraform.⟨$0⟩}", ["applying", "workspace"]),
    ("in-a-call", "${upper(var.⟨$0⟩)}", ["region", "size", "zone"]),
    ("in-a-for", "${[for x in var.⟨$0⟩ : x]}", ["region", "size", "zone"]),
    ("after-text-and-another-interpolation", "a-${local.name}-${var.⟨z$0⟩}", ["zone"]),
    ("in-a-directive", "%{ if var.⟨$0⟩ }x%{ endif }", ["region", "size", "zone"]),
    ("unknown-resource-type", "${aws_nothing.⟨$0⟩}", []),
]


@pytest.mark.parametrize("value, expected", [c[1:] for c in AFTER_DOT], ids=[c[0] for c in AFTER_DOT])
def test_after_a_dot_across_the_files_of_the_module(tmp_path: Path, value: str, expected: list[str]) -> None:
    d = done(tmp_path, MODULE % value)
    assert sorted(d.labels) == expected
    assert d.ranges() <= {d.expected_range()}
    assert all(i.insert_text == i.label and not i.snippet for i in d.items)


def test_variables_show_what_they_are(tmp_path: Path) -> None:
    d = done(tmp_path, MODULE % "${var.⟨$0⟩}")
    assert {i.kind for i in d.items} == {"Variable"}
    # The contract: "the module's variables (type and description shown)"; region is declared in vars.tf.json
    # with type "string" and description "where".
    region = d.item("region")
    shown = f"{region.detail}\n{region.documentation}"
    assert "string" in shown and "where" in shown, (region.detail, region.documentation)


def test_after_dollar_brace_the_namespaces_resource_types_functions_and_keywords(tmp_path: Path) -> None:
    d = done(tmp_path, MODULE % "${⟨$0⟩}")
    labels = set(d.labels)
    assert {"var", "local", "module", "data", "path", "terraform"} <= labels
    assert {"aws_instance", "aws_s3_bucket"} <= labels  # declared in data.tf.json and (native) buckets.tf
    assert {"upper", "lower", "format", "join", "lookup"} <= labels
    assert {"true", "false", "null", "for"} <= labels
    # Not valid in a local value.
    assert not labels & {"count", "each", "self"}
    # Data source types are reached through `data.`, not at the root.
    assert not labels & {"aws_ami", "aws_vpc"}
    assert d.ranges() == {d.expected_range()}
    # Declared names first, then namespaces, functions, keywords.
    kinds = [i.kind for i in sorted(d.items, key=lambda i: (i.sort, i.label))]
    assert kinds[:2] == ["Class", "Class"]
    last = {k: max(n for n, x in enumerate(kinds) if x == k) for k in set(kinds)}
    first = {k: min(n for n, x in enumerate(kinds) if x == k) for k in set(kinds)}
    assert last["Class"] < first["Module"] and last["Module"] < first["Function"] and last["Function"] < first["Keyword"]


def test_a_prefix_filters(tmp_path: Path) -> None:
    d = done(tmp_path, '{"locals": {"a": "${⟨upp$0⟩}"}}')
    assert d.labels == ["upper"]
    (item,) = d.items
    assert (item.start, item.end) == d.expected_range()
    assert d.applied(item) == '{"locals": {"a": "${upper(str)}"}}'


def test_a_prefix_filters_case_insensitively(tmp_path: Path) -> None:
    d = done(tmp_path, '{"locals": {"a": "${⟨UPP$0⟩}"}}')
    assert d.labels == ["upper"]


def test_a_prefix_in_the_middle_of_a_word_replaces_the_typed_part_only(tmp_path: Path) -> None:
    d = done(tmp_path, MODULE % "${var.⟨re$0⟩gion}")
    assert d.labels == ["region"]
    assert d.ranges() == {d.expected_range()}


def test_prefix_after_an_operator(tmp_path: Path) -> None:
    d = done(tmp_path, r'{"locals": {"a": "${1 == 2 ? ⟨lo$0⟩}"}}')
    assert set(d.labels) == {"local", "log", "lookup", "lower"}
    assert d.ranges() == {d.expected_range()}


CONTEXTS = [
    # (id, fixture, must include, must not include)
    ("local-value", '{"locals": {"a": "${⟨$0⟩}"}}', set(), {"count", "each", "self"}),
    ("count", '{"resource": {"aws_instance": {"web": {"count": 2, "ami": "${⟨$0⟩}"}}}}', {"count"}, {"each", "self"}),
    ("for_each", '{"resource": {"aws_instance": {"web": {"for_each": {}, "ami": "${⟨$0⟩}"}}}}', {"each"},
     {"count", "self"}),
    ("module-count", '{"module": {"m": {"source": "./m", "count": 1, "x": "${⟨$0⟩}"}}}', {"count"}, {"each", "self"}),
    ("data-for_each", '{"data": {"aws_ami": {"u": {"for_each": {}, "name": "${⟨$0⟩}"}}}}', {"each"},
     {"count", "self"}),
    ("provisioner", '{"resource": {"aws_instance": {"web": {"provisioner": {"local-exec": {"command": "${⟨$0⟩}"}}}}}}',
     {"self"}, {"count", "each"}),
    ("connection", '{"resource": {"aws_instance": {"web": {"connection": {"host": "${⟨$0⟩}"}}}}}', {"self"},
     {"count", "each"}),
    ("postcondition", '{"resource": {"aws_instance": {"web": {"lifecycle": {"postcondition": '
                      '{"condition": "${⟨$0⟩}", "error_message": "m"}}}}}}', {"self"}, {"count", "each"}),
    ("self-prefix", '{"resource": {"aws_instance": {"web": {"provisioner": {"local-exec": {"command": "${⟨se$0⟩}"}}}}}}',
     {"self", "sensitive"}, {"var"}),
    ("resource-argument-without-meta", '{"resource": {"aws_instance": {"web": {"ami": "${⟨$0⟩}"}}}}', {"aws_instance"},
     {"count", "each", "self"}),
    ("output", '{"output": {"o": {"value": "${⟨$0⟩}"}}}', {"var", "upper"}, {"count", "each", "self"}),
]


@pytest.mark.parametrize("src, include, exclude", [c[1:] for c in CONTEXTS], ids=[c[0] for c in CONTEXTS])
def test_count_each_self_only_where_valid(tmp_path: Path, src: str, include: set, exclude: set) -> None:
    d = done(tmp_path, src)
    labels = set(d.labels)
    assert include <= labels
    assert not labels & exclude
    assert d.ranges() == {d.expected_range()}


def test_after_count_and_each(tmp_path: Path) -> None:
    d = done(tmp_path, '{"resource": {"aws_instance": {"web": {"count": 2, "ami": "${count.⟨$0⟩}"}}}}')
    assert d.labels == ["index"]
    d = done(tmp_path / "e", '{"resource": {"aws_instance": {"web": {"for_each": {}, "ami": "${each.⟨$0⟩}"}}}}')
    assert sorted(d.labels) == ["key", "value"]


def test_directives(tmp_path: Path) -> None:
    d = done(tmp_path, '{"locals": {"a": "%{⟨$0⟩}"}}')
    assert sorted(d.labels) == ["else", "endfor", "endif", "for", "if"]
    assert d.ranges() == {d.expected_range()}
    d = done(tmp_path / "2", '{"locals": {"a": "%{ if true }x%{ ⟨e$0⟩ }"}}')
    assert sorted(d.labels) == ["else", "endfor", "endif"]
    assert d.ranges() == {d.expected_range()}


def test_no_completion_in_literal_text_or_literal_strings(tmp_path: Path) -> None:
    assert done(tmp_path / "1", '{"locals": {"a": "plain $0 text"}}').items == []
    # `default` and `description` are taken literally: no `${` there.
    assert done(tmp_path / "2", '{"variable": {"v": {"default": "${$0}"}}}').items == []
    assert done(tmp_path / "3", '{"variable": {"v": {"description": "${$0}"}}}').items == []
    # After a complete interpolation.
    assert done(tmp_path / "4", '{"locals": {"a": "${upper(x)}$0"}}').items == []


# ---- functions ------------------------------------------------------------------------------------------


def test_functions_are_snippets_with_their_parameters(tmp_path: Path) -> None:
    d = done(tmp_path, '{"locals": {"a": "${⟨$0⟩}"}}')
    upper, lookup = d.item("upper"), d.item("lookup")
    assert upper.kind == "Function" and upper.snippet
    assert upper.insert_text == "upper(${1:str})"
    assert lookup.insert_text.startswith("lookup(${1:inputMap}, ${2:key}")
    assert upper.detail == "upper(str string) string"
    assert upper.documentation


def test_functions_are_plain_names_without_snippet_support(tmp_path: Path) -> None:
    d = done(tmp_path, '{"locals": {"a": "${⟨$0⟩}"}}', snippets=False)
    assert not any(i.snippet for i in d.items)
    assert d.item("upper").insert_text == "upper"
    assert all("$" not in i.insert_text for i in d.items)


def test_every_function_snippet_puts_a_tab_stop_between_its_parentheses(tmp_path: Path) -> None:
    # Accepting `merge` must leave the cursor inside `merge(...)`, not after `)`: a function that takes
    # arguments (fixed or variadic) gets a tab stop between its parentheses.
    d = done(tmp_path, '{"locals": {"a": "${⟨$0⟩}"}}')
    missing = []
    for item in d.items:
        if item.kind != "Function":
            continue
        fn = functions.lookup(item.label, "terraform")
        assert fn is not None
        if not fn.parameters and fn.variadic is None:
            continue  # timestamp(), uuid(), plantimestamp()
        inside = item.insert_text[item.insert_text.index("(") + 1 : item.insert_text.rindex(")")]
        if not _TABSTOP.search(inside) and not _PLACEHOLDER.search(inside):
            missing.append(item.insert_text)
    assert missing == []


def test_opentofu_only_functions_follow_the_engine(tmp_path: Path) -> None:
    only_tofu = sorted(set(functions.names("opentofu")) - set(functions.names("terraform")))
    assert only_tofu
    tf = done(tmp_path / "tf", '{"locals": {"a": "${⟨$0⟩}"}}', engine="terraform")
    tofu = done(tmp_path / "tofu", '{"locals": {"a": "${⟨$0⟩}"}}', engine="opentofu")
    assert not set(tf.labels) & set(only_tofu)
    assert set(only_tofu) <= set(tofu.labels)


# ---- escapes and non-ASCII text before the cursor -----------------------------------------------------

ESCAPES = [
    # (id, the locals.a value, labels)
    ("non-ascii-and-escaped-quotes", r'Grüße 🌍 \"q\" 𝄞 ${var.⟨$0⟩}', ["region", "size", "zone"]),
    ("non-ascii-prefix-typed", r'é🌍 ${var.⟨re$0⟩}', ["region"]),
    ("escaped-dollar", r'\u0024{var.⟨$0⟩}', ["region", "size", "zone"]),
    ("escaped-dollar-and-brace", r'\u0024\u007bvar.⟨s$0⟩}', ["size"]),
    ("escaped-dot", r'${var\u002e⟨$0⟩}', ["region", "size", "zone"]),
    ("escape-in-the-prefix", r'${var.⟨\u0072e$0⟩}', ["region"]),
    ("two-escapes-in-the-prefix", r'${var.⟨\u0072\u0065$0⟩}', ["region"]),
    ("escaped-surrogate-pair-before", r'${var.size} \ud83c\udf0d ${var.⟨z$0⟩}', ["zone"]),
    ("escaped-backslash-before", r'\\\\ 😀 ${var.⟨z$0⟩}', ["zone"]),
    ("string-argument-with-escapes-before", r'${format(\"%s 🌍 \\\" \", var.⟨$0⟩)}', ["region", "size", "zone"]),
    ("function-after-non-ascii", r'𝄞𝄞 ${⟨uppe$0⟩}', ["upper"]),
]


@pytest.mark.parametrize("value, expected", [c[1:] for c in ESCAPES], ids=[c[0] for c in ESCAPES])
def test_exact_ranges_through_escapes_and_non_ascii(tmp_path: Path, value: str, expected: list[str]) -> None:
    d = done(tmp_path, MODULE.replace('"a": "%s"', '"é🌍": "%s"') % value)
    assert sorted(d.labels) == expected
    assert d.ranges() == {d.expected_range()}


def test_non_ascii_names(tmp_path: Path) -> None:
    d = done(tmp_path, r'{"variable": {"région": {}, "rate": {}}, "locals": {"a": "${var.⟨r\u00e9$0⟩}"}}')
    assert d.labels == ["région"]
    assert d.ranges() == {d.expected_range()}


# ---- static references and type constraints -----------------------------------------------------------

STATIC = """
//- /stack/main.tf.json
{"resource": {"aws_instance": {"web": {%s}}},
 "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "us-west-2"}, {"alias": "east"}]}}
//- /stack/other.tf.json
{"data": {"aws_ami": {"ubuntu": {}, "debian": {}}}, "module": {"net": {"source": "./net"}},
 "resource": {"aws_s3_bucket": {"logs": {}}}}
//- /stack/more.tf
resource "aws_iam_role" "runner" {}
"""

STATIC_CASES = [
    # (id, the resource body, labels)
    ("depends_on-root", '"depends_on": ["⟨$0⟩"]', ["aws_iam_role", "aws_instance", "aws_s3_bucket", "data", "module"]),
    ("depends_on-prefix", '"depends_on": ["⟨aws_s$0⟩"]', ["aws_s3_bucket"]),
    ("depends_on-resource", '"depends_on": ["aws_s3_bucket.⟨$0⟩"]', ["logs"]),
    ("depends_on-native-resource", '"depends_on": ["aws_iam_role.⟨r$0⟩"]', ["runner"]),
    ("depends_on-data", '"depends_on": ["data.⟨$0⟩"]', ["aws_ami"]),
    ("depends_on-data-name", '"depends_on": ["data.aws_ami.⟨$0⟩"]', ["debian", "ubuntu"]),
    ("depends_on-module", '"depends_on": ["module.⟨$0⟩"]', ["net"]),
    ("depends_on-second-element", '"depends_on": ["data.aws_ami.ubuntu", "aws_s3_bucket.⟨l$0⟩"]', ["logs"]),
    ("depends_on-unterminated", '"depends_on": ["aws_s3_bucket.⟨$0⟩', ["logs"]),
    ("replace_triggered_by", '"lifecycle": {"replace_triggered_by": ["aws_s3_bucket.⟨$0⟩"]}', ["logs"]),
    ("provider", '"provider": "⟨$0⟩"', ["aws"]),
    ("provider-prefix", '"provider": "⟨a$0⟩"', ["aws"]),
    ("provider-alias", '"provider": "aws.⟨$0⟩"', ["east", "west"]),
    ("provider-alias-prefix", '"provider": "aws.⟨w$0⟩"', ["west"]),
]


@pytest.mark.parametrize("body, expected", [c[1:] for c in STATIC_CASES], ids=[c[0] for c in STATIC_CASES])
def test_static_references_offer_addresses_without_interpolation(tmp_path: Path, body: str, expected: list[str]) -> None:
    d = done(tmp_path, STATIC % body)
    assert sorted(d.labels) == expected
    assert d.ranges() == {d.expected_range()}
    assert all("${" not in i.insert_text and i.insert_text == i.label for i in d.items)


TYPE_WORDS = ["any", "bool", "list", "map", "number", "object", "optional", "set", "string", "tuple"]

TYPES = [
    # (id, the type string's content, labels)
    ("empty", "⟨$0⟩", TYPE_WORDS),
    ("prefix", "⟨s$0⟩", ["set", "string"]),
    ("inside-list", "list(⟨$0⟩)", TYPE_WORDS),
    ("inside-map-prefix", "map(⟨obj$0⟩)", ["object"]),
    ("unterminated", "list(⟨str$0⟩", ["string"]),
    ("object-attribute-type", "object({name = ⟨n$0⟩})", ["number"]),
    ("optional-in-object", "object({name = optional(⟨b$0⟩)})", ["bool"]),
    ("after-an-escape", r"map(\u0073tring) \u0020 ⟨t$0⟩", ["tuple"]),
]


@pytest.mark.parametrize("content, expected", [c[1:] for c in TYPES], ids=[c[0] for c in TYPES])
def test_type_constraint_keywords(tmp_path: Path, content: str, expected: list[str]) -> None:
    d = done(tmp_path, '{"variable": {"v": {"type": "%s"}}}' % content)
    assert sorted(d.labels) == expected
    assert d.ranges() == {d.expected_range()}


def test_type_constraints_as_snippets_and_as_plain_text(tmp_path: Path) -> None:
    d = done(tmp_path, '{"variable": {"v": {"type": "⟨$0⟩"}}}')
    assert d.item("string").insert_text == "string" and not d.item("string").snippet
    for label, shape in [("list", "list("), ("map", "map("), ("set", "set("), ("object", "object({"),
                         ("tuple", "tuple(["), ("optional", "optional(")]:
        item = d.item(label)
        assert item.snippet and item.insert_text.startswith(shape), item
    assert plain(d.item("object").insert_text) == "object({name = string})"
    flat = done(tmp_path / "plain", '{"variable": {"v": {"type": "⟨$0⟩"}}}', snippets=False)
    assert all(not i.snippet and i.insert_text == i.label for i in flat.items)


def test_type_key_written_with_an_escape(tmp_path: Path) -> None:
    d = done(tmp_path, r'{"variable": {"v": {"\u0074ype": "⟨$0⟩"}}}')
    assert sorted(d.labels) == TYPE_WORDS


# ---- keys ---------------------------------------------------------------------------------------------

ROOT_BLOCKS = {"terraform", "provider", "variable", "locals", "output", "module", "resource", "data"}

KEYS = [
    # (id, fixture, must include, must not include)
    ("root-empty-key", '{⟨"$0"⟩}', ROOT_BLOCKS, set()),
    ("root-fresh-place", '{⟨$0⟩}', ROOT_BLOCKS, set()),
    ("root-after-a-member", '{"locals": {"a": 1}, ⟨"$0"⟩}', ROOT_BLOCKS, set()),
    ("root-fresh-after-a-member", '{\n  "locals": {},\n  ⟨$0⟩\n}', ROOT_BLOCKS, set()),
    ("root-prefix", '{⟨"lo$0"⟩}', {"locals"}, ROOT_BLOCKS - {"locals"}),
    ("variable", '{"variable": {"v": {⟨"$0"⟩}}}', {"type", "default", "description", "sensitive", "nullable",
                                                     "validation"}, set()),
    ("variable-fresh-after-type", '{"variable": {"v": {"type": "string", ⟨$0⟩}}}', {"default", "validation"}, {"type"}),
    ("output", '{"output": {"o": {⟨"$0"⟩}}}', {"value", "description", "sensitive", "depends_on", "precondition"},
     set()),
    ("output-without-value-again", '{"output": {"o": {"value": 1, ⟨"$0"⟩}}}', {"description"}, {"value"}),
    ("module", '{"module": {"m": {⟨"$0"⟩}}}', {"source", "version", "providers", "count", "for_each",
                                               "depends_on"}, set()),
    ("terraform", '{"terraform": {⟨"$0"⟩}}', {"required_version", "required_providers", "backend", "cloud"}, set()),
    ("resource-meta-arguments", '{"resource": {"aws_instance": {"web": {⟨"$0"⟩}}}}',
     {"count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection"}, set()),
    ("resource-present-argument-not-again", '{"resource": {"aws_instance": {"web": {"depends_on": [], ⟨"$0"⟩}}}}',
     {"count", "lifecycle"}, {"depends_on"}),
    ("data-meta-arguments", '{"data": {"aws_ami": {"u": {⟨"$0"⟩}}}}', {"count", "for_each", "provider",
                                                                      "depends_on"}, {"provisioner"}),
    ("lifecycle", '{"resource": {"aws_instance": {"web": {"lifecycle": {⟨"$0"⟩}}}}}',
     {"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "precondition",
      "postcondition"}, set()),
    ("prefix", '{"resource": {"aws_instance": {"web": {⟨"co$0"⟩}}}}', {"count", "connection"},
     {"for_each", "lifecycle"}),
    ("prefix-any-case", '{"resource": {"aws_instance": {"web": {⟨"CO$0"⟩}}}}', {"count", "connection"}, {"for_each"}),
    ("non-ascii-before", '{"locals": {"é🌍": "Grüße 🌍"}, "variable": {"v": {"description": "😀", ⟨"ty$0"⟩}}}',
     {"type"}, {"default"}),
    ("escape-before", r'{"locals": {"a": "\"\u0024{x}\""}, "output": {"o": {⟨"val$0"⟩}}}', {"value"}, set()),
]


@pytest.mark.parametrize("src, include, exclude", [c[1:] for c in KEYS], ids=[c[0] for c in KEYS])
def test_keys(tmp_path: Path, src: str, include: set, exclude: set) -> None:
    d = done(tmp_path, src)
    labels = set(d.labels)
    assert include <= labels, sorted(labels)
    assert not labels & exclude
    assert d.ranges() == {d.expected_range()}
    assert_valid_json_after_each(d)


def test_required_arguments_first(tmp_path: Path) -> None:
    d = done(tmp_path / "o", '{"output": {"o": {"$0"}}}')
    assert min(d.items, key=lambda i: (i.sort, i.label)).label == "value"
    d = done(tmp_path / "m", '{"module": {"m": {"$0"}}}')
    assert min(d.items, key=lambda i: (i.sort, i.label)).label == "source"


def test_accepting_a_key_writes_the_key_a_colon_and_a_placeholder(tmp_path: Path) -> None:
    d = done(tmp_path, '{"resource": {"aws_instance": {"web": {⟨"$0"⟩}}}}')
    expected = {
        "count": '"count": "$1"',
        "depends_on": '"depends_on": [$1]',
        "lifecycle": '"lifecycle": {$1}',
        "provisioner": '"provisioner": {$1}',
    }
    for label, insert in expected.items():
        item = d.item(label)
        assert item.snippet and item.insert_text == insert
        assert item.filter == f'"{label}"'  # the range starts at the quote: clients match from there
    assert d.applied(d.item("depends_on")) == '{"resource": {"aws_instance": {"web": {"depends_on": []}}}}'
    assert d.applied(d.item("count")) == '{"resource": {"aws_instance": {"web": {"count": ""}}}}'


def test_accepting_a_key_without_snippet_support(tmp_path: Path) -> None:
    d = done(tmp_path, '{"output": {"o": {⟨"$0"⟩}}}', snippets=False)
    assert not any(i.snippet for i in d.items)
    assert d.item("value").insert_text == '"value": ""'
    assert d.item("depends_on").insert_text == '"depends_on": []'
    assert d.item("precondition").insert_text == '"precondition": {}'
    assert_valid_json_after_each(d)


def test_placeholders_fit_the_argument(tmp_path: Path) -> None:
    # `required_providers` takes an object (local name -> requirements), not a string.
    d = done(tmp_path, '{"terraform": {⟨"$0"⟩}}', snippets=False)
    assert d.item("required_version").insert_text == '"required_version": ""'
    assert d.item("backend").insert_text == '"backend": {}'
    assert d.item("required_providers").insert_text == '"required_providers": {}'


def test_a_colon_that_follows_is_kept(tmp_path: Path) -> None:
    d = done(tmp_path, '{"resource": {"aws_instance": {"web": {⟨"co$0"⟩: 1}}}}')
    assert d.item("count").insert_text == '"count"' and not d.item("count").snippet
    assert d.applied(d.item("count")) == '{"resource": {"aws_instance": {"web": {"count": 1}}}}'
    d = done(tmp_path / "2", '{"resource": {"aws_instance": {"web": {⟨"co$0unt"⟩ \n : 1}}}}')
    assert d.applied(d.item("connection")) == '{"resource": {"aws_instance": {"web": {"connection" \n : 1}}}}'


def test_an_unterminated_key_at_the_end_of_a_line(tmp_path: Path) -> None:
    d = done(tmp_path, '{\n  "locals": {},\n  ⟨"outp$0⟩\n}\n')
    assert d.labels == ["output"]
    assert d.ranges() == {d.expected_range()}
    assert json.loads(d.applied(d.item("output"))) == {"locals": {}, "output": {}}


def test_a_key_typed_before_another_member_writes_valid_json(tmp_path: Path) -> None:
    # The user opens a line between two members and types `"` (auto-closed): the key needs a comma.
    d = done(tmp_path, '{\n  "locals": {},\n  ⟨"$0"⟩\n  "output": {}\n}\n')
    assert "variable" in d.labels
    assert_valid_json_after_each(d)


def test_a_fresh_place_before_another_member_writes_valid_json(tmp_path: Path) -> None:
    d = done(tmp_path, '{⟨$0⟩ "locals": {}}')
    assert "variable" in d.labels
    assert_valid_json_after_each(d)


# ---- labels -------------------------------------------------------------------------------------------

LABELS = """
//- /stack/main.tf.json
%s
//- /stack/other.tf.json
{"resource": {"aws_instance": {"web": {}}, "aws_s3_bucket": {"logs": {}}, "google_storage_bucket": {"g": {}}},
 "data": {"aws_ami": {"ubuntu": {}}}}
//- /stack/more.tf
resource "aws_iam_role" "runner" {}
data "aws_vpc" "main" {}
provider "google" {}
"""

LABEL_CASES = [
    ("resource-type", '{"resource": {"⟨aws_$0⟩": {}}}', ["aws_iam_role", "aws_instance", "aws_s3_bucket"]),
    ("resource-type-empty", '{"resource": {"⟨$0⟩": {}}}',
     ["aws_iam_role", "aws_instance", "aws_s3_bucket", "google_storage_bucket", "terraform_data"]),  # built in
    ("data-type", '{"data": {"⟨$0⟩": {}}}', ["aws_ami", "aws_vpc", "terraform_remote_state"]),
    ("provider-name", '{"provider": {"⟨$0⟩": {}}}', ["aws", "google"]),
    ("provider-name-prefix", '{"provider": {"⟨g$0⟩": {}}}', ["google"]),
    ("after-non-ascii", '{"locals": {"é": "🌍"}, "resource": {"⟨aws_s$0⟩": {}}}', ["aws_s3_bucket"]),
    ("escaped-prefix", r'{"resource": {"⟨aws\u005fs$0⟩": {}}}', ["aws_s3_bucket"]),
]


@pytest.mark.parametrize("main, expected", [c[1:] for c in LABEL_CASES], ids=[c[0] for c in LABEL_CASES])
def test_labels(tmp_path: Path, main: str, expected: list[str]) -> None:
    d = done(tmp_path, LABELS % main)
    assert sorted(d.labels) == expected
    assert d.ranges() == {d.expected_range()}
    assert all(i.insert_text == i.label and not i.snippet for i in d.items)


# ---- half-typed documents -----------------------------------------------------------------------------

HALF_TYPED = [
    # (id, fixture, labels (exactly))
    ("dollar-brace-var-dot-at-end-of-line",
     '{\n  "variable": {"x": {}, "y": {}},\n  "locals": {"a": "é ${var.⟨$0⟩\n  }\n}\n', ["x", "y"]),
    ("dollar-brace-var-dot-at-end-of-file", '{"variable": {"x": {}, "y": {}}, "locals": {"a": "${var.⟨$0⟩', ["x", "y"]),
    ("dollar-brace-var-dot-closing-quote", '{"variable": {"x": {}, "y": {}}, "locals": {"a": "${var.⟨$0⟩"\n', ["x", "y"]),
    ("missing-closing-brace", '{"variable": {"x": {}, "y": {}}, "locals": {"a": "${var.⟨$0⟩}"', ["x", "y"]),
    ("missing-comma-after", '{"variable": {"x": {}}, "locals": {"a": "${var.⟨$0⟩}" "b": 1}}', ["x"]),
    ("function-unterminated", '{"locals": {"a": "${⟨upp$0⟩', ["upper"]),
    ("call-unterminated", '{"variable": {"x": {}}, "locals": {"a": "${upper(var.⟨$0⟩', ["x"]),
    ("type-unterminated", '{"variable": {"v": {"type": "⟨$0⟩', TYPE_WORDS),
    ("key-unterminated", '{"variable": {"v": {⟨"de$0⟩', ["default", "deprecated", "description"]),
    ("label-unterminated", '{"resource": {"aws_instance": {"web": {}}}, "data": {"aws_ami": {}}, "resource": {⟨"a$0⟩',
     ["aws_instance"]),  # the whole block: features/test_feat_completion_skeletons.py
    ("a-later-error", '{"variable": {"x": {}}, "locals": {"a": "${var.⟨$0⟩}"}, "output": {,,]', ["x"]),
]


@pytest.mark.parametrize("src, expected", [c[1:] for c in HALF_TYPED], ids=[c[0] for c in HALF_TYPED])
def test_half_typed_documents(tmp_path: Path, src: str, expected: list[str]) -> None:
    d = done(tmp_path, src)
    assert sorted(d.labels) == expected
    assert d.ranges() == {d.expected_range()}


@pytest.mark.parametrize("src", ["$0", "  \n\t$0\n", "\n\n$0"], ids=["empty", "blank", "newlines"])
def test_an_empty_file_offers_the_root_block_types_as_valid_json(tmp_path: Path, src: str) -> None:
    d = done(tmp_path, src)
    assert ROOT_BLOCKS <= set(d.labels)
    assert d.ranges() == {(d.offset, d.offset)}
    # Accepting one in an empty file gives a valid configuration, e.g. `{"variable": {}}`.
    assert_valid_json_after_each(d)


def test_a_lone_open_brace(tmp_path: Path) -> None:
    d = done(tmp_path, "{⟨$0⟩")
    assert ROOT_BLOCKS <= set(d.labels)
    assert d.ranges() == {d.expected_range()}


# ---- where nothing fits: an empty list ------------------------------------------------------------------

NOTHING = [
    ("after-the-root-object", '{"locals": {"a": 1}}$0'),
    ("after-the-root-object-newline", '{"locals": {"a": 1}}\n$0'),
    ("in-a-root-array", "[$0]"),
    ("in-a-root-string", '"ab$0c"'),
    ("after-a-root-literal", "null$0"),
    ("in-a-local-value-key", '{"locals": {"$0"}}'),
    ("inside-an-escape-in-an-expression", r'{"locals": {"a": "${upper(\$0"x\")}"}}'),
    ("inside-a-unicode-escape", r'{"locals": {"a": "${upper(\u00$024)}"}}'),
    ("before-the-opening-quote-of-a-type", '{"variable": {"v": {"type": $0"bool"}}}'),
    ("after-the-closing-quote-of-a-type", '{"variable": {"v": {"type": "map(string)"$0}}}'),
    ("after-the-closing-quote-of-a-type-word", '{"variable": {"v": {"type": "string"$0, "default": "x"}}}'),
    ("after-the-closing-quote-of-a-reference", '{"resource": {"aws_instance": {"web": {"depends_on": ["aws_instance.web"$0]}}}}'),
    ("before-the-opening-quote-of-a-label", '{"resource": {$0"aws_instance": {"web": {}}}}'),
    ("before-the-opening-quote-of-a-provider-name", '{"provider": {$0"aws": {}}, "resource": {"aws_instance": {"web": {}}}}'),
    ("after-an-interpolation", '{"locals": {"a": "${var.x}"$0}}'),
    ("in-a-number", '{"resource": {"aws_instance": {"web": {"count": 1$02}}}}'),
    ("provider-function-namespace", '{"locals": {"a": "${provider::aws::ar$0}"}}'),
]


@pytest.mark.parametrize("src", [c[1] for c in NOTHING], ids=[c[0] for c in NOTHING])
def test_nothing_to_complete(tmp_path: Path, src: str) -> None:
    d = done(tmp_path, src)
    assert d.items == [], [(i.label, i.start, i.end) for i in d.items[:5]]


def test_a_document_that_is_not_open(tmp_path: Path) -> None:
    fw = parse_fixture('{"variable": {"x": {}}, "locals": {"a": "${var.$0}"}}').workspace(tmp_path, open=[])
    uri, offset = fw.cursor
    with no_logged_errors():
        assert complete(fw.snapshot(), uri, offset) == []
        assert complete(fw.snapshot(), "file:///nowhere/main.tf.json", 0) == []


# ---- over the real corpus ------------------------------------------------------------------------------


def _corpus_files() -> list[Path]:
    return sorted(p for p in shared_data.REAL_CORPUS.iterdir() if p.name.endswith(".json"))


def _open_alone(root: Path, text: str) -> tuple[Workspace, str]:
    path = root / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([str(root)])
    uri = uri_of_path(str(path))
    workspace.open(uri, text, 1, "terraform-json")
    return workspace, uri


def _check_items(text: str, offset: int, items: list[CompletionItem]) -> None:
    """Every item replaces a range of the text that ends at the cursor, or covers it: a key (the whole
    key string), a keyword value or a module source directory (the whole string content) or a bool
    value (the whole literal)."""
    for i in items:
        where = f"{i.label!r} {i.start}..{i.end} at {offset}: {text[max(0, offset - 40):offset]!r}‸{text[offset:offset + 10]!r}"
        assert 0 <= i.start <= i.end <= len(text), where
        assert i.start <= offset <= i.end, where
        if i.end != offset:
            whole_value = i.kind in ("Value", "EnumMember", "Folder") and i.insert_text == i.label
            assert whole_value or (i.insert_text.startswith('"') and text[i.start] == '"'), where
        assert i.label and i.insert_text, where


def _complete_at(snap, uri: str, text: str, offsets) -> int:
    answered = 0
    with no_logged_errors():
        for offset in offsets:
            items = complete(snap, uri, offset)
            answered += bool(items)
            _check_items(text, offset, items)
    return answered


@shared_data.requires(shared_data.REAL_CORPUS)
def test_corpus_files_at_evenly_spread_offsets(tmp_path: Path) -> None:
    """About 300 offsets spread over each real-world file (each alone in its own workspace)."""
    answered = 0
    for k, source in enumerate(_corpus_files()):
        text = source.read_text(encoding="utf-8")
        root = tmp_path / str(k)
        root.mkdir()
        workspace, uri = _open_alone(root, text)
        answered += _complete_at(workspace.snapshot(), uri, text, range(0, len(text) + 1, max(1, len(text) // 300)))
    assert answered > 1000  # the property is not vacuous


@shared_data.requires(shared_data.REAL_CORPUS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_corpus_files_at_random_offsets(data) -> None:
    source = data.draw(st.sampled_from(_corpus_files()), label="file")
    text = source.read_text(encoding="utf-8")
    # Uniform offsets, and offsets at the edges of strings and escapes (next to a `"` or a `\\`).
    edges = [i for i, c in enumerate(text) if c in '"\\'] or [0]
    near = st.builds(lambda i, d: min(max(i + d, 0), len(text)), st.sampled_from(edges), st.integers(-1, 2))
    offsets = data.draw(st.lists(st.one_of(st.integers(0, len(text)), near), min_size=1, max_size=60), label="offsets")
    with tempfile.TemporaryDirectory() as root:
        workspace, uri = _open_alone(Path(root), text)
        _complete_at(workspace.snapshot(), uri, text, offsets)


@shared_data.requires(shared_data.REAL_CORPUS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_truncated_corpus_files(data) -> None:
    """A file cut anywhere (what an editor has while the user types it from the top): at the end and at
    random offsets, never an exception, ranges within the text."""
    source = data.draw(st.sampled_from(_corpus_files()), label="file")
    full = source.read_text(encoding="utf-8")
    text = full[: data.draw(st.integers(0, len(full)), label="cut")]
    offsets = [len(text), *data.draw(st.lists(st.integers(0, len(text)), max_size=30), label="offsets")]
    with tempfile.TemporaryDirectory() as root:
        workspace, uri = _open_alone(Path(root), text)
        _complete_at(workspace.snapshot(), uri, text, offsets)


_TYPED = st.sampled_from(['"${', "${var.", "${local.", '"${data.', "${module.", "%{", '"', '"fo', "${upp", "${aws_",
                          '\\"', "\\u0024{", "é🌍", "${format(\\\"%s\\\", var.", "${[for x in ", "\n"])


@shared_data.requires(shared_data.REAL_CORPUS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_typing_into_corpus_files(data) -> None:
    """Something half-typed (`"${var.`, `"fo`, an escape, non-ASCII) inserted anywhere in a real file, the
    cursor right after it: every item's range ends at the cursor or covers it."""
    source = data.draw(st.sampled_from(_corpus_files()), label="file")
    full = source.read_text(encoding="utf-8")
    at = data.draw(st.integers(0, len(full)), label="at")
    typed = data.draw(_TYPED, label="typed")
    text = full[:at] + typed + full[at:]
    with tempfile.TemporaryDirectory() as root:
        workspace, uri = _open_alone(Path(root), text)
        _complete_at(workspace.snapshot(), uri, text, [at + len(typed)])


def test_a_blank_type_left_by_a_half_typed_key_does_not_fail_completion(tmp_path: Path) -> None:
    # A quote typed at a line's start makes the rest of the line a key: the next key string, blank
    # (`"    "`), is then a resource type that names no provider. The type items' skeletons carry no
    # schema for it instead of failing (a ValueError from its address; hypothesis found it in a corpus file).
    fixture = parse_fixture('{\n  "resource" : {\n"$0    "aws_security_group" : {\n      "allow_all" : {}\n    }\n  }\n}').only
    workspace, uri = _open_alone(tmp_path, fixture.text)
    assert workspace.snapshot().provider_schemas(uri) is not None  # (the path that asks for the type's provider)
    with no_logged_errors():
        complete(workspace.snapshot(), uri, fixture.cursor)


@pytest.mark.parametrize("type_name", ["_", "_x"])
def test_a_data_source_type_without_a_provider_local_name_does_not_fail_completion(tmp_path: Path, type_name: str) -> None:
    # The implied provider local name of `_x` is empty (Terraform: "Invalid provider local name"):
    # completion used to fail on the provider check (a ValueError from the address). Reached while
    # typing: a closing quote left out turns a later line's `": {` into an empty type name.
    text = '{\n "data": {\n  "%s": {\n   "a": {}\n  }\n }\n}' % type_name
    workspace, uri = _open_alone(tmp_path, text)
    with no_logged_errors():
        complete(workspace.snapshot(), uri, text.index('"a"') + 1)
