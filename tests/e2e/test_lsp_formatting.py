"""End to end over stdio: `textDocument/formatting` and `textDocument/rangeFormatting` on the real server.

The edits the server answers are applied here with plain string arithmetic (UTF-16 columns), then the
result is sent back as the new text and formatted again, which must give no edit (idempotence). Every
file kind we serve is formatted (`*.tf.json`, `*.tofu.json`, `cdk.tf.json`, `*.tfvars.json` opened as
plain `json`, `*.tftest.json`); the client's options decide the indentation and the final newlines;
a document with a syntax error gets no edit; a range formats only its lines."""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import change_document, initialize, lsp_range, open_document

MESSY = '{"//": {"metadata": {"version": "0.20.0"}},\n  "resource": {"terraform_data": {"a": {"input": [1, 2.50,  "\\u00e9\\n"],\n' \
    '"triggers_replace": [], "input": {}}}}, "locals": {"x": [{"y": null}]}}'

FORMATTED = """{
  "//": {
    "metadata": {
      "version": "0.20.0"
    }
  },
  "resource": {
    "terraform_data": {
      "a": {
        "input": [1, 2.50, "\\u00e9\\n"],
        "triggers_replace": [],
        "input": {}
      }
    }
  },
  "locals": {
    "x": [
      {
        "y": null
      }
    ]
  }
}"""


def _offset(text: str, position: types.Position) -> int:
    lines = text.split("\n")
    before = sum(len(line) + 1 for line in lines[: position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    # UTF-16 columns: count code units up to the column
    units = 0
    for k, ch in enumerate(line):
        if units >= position.character:
            return before + k
        units += 2 if ord(ch) > 0xFFFF else 1
    return before + len(line)


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    spans = sorted(((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def _options(tab_size: int = 2, insert_spaces: bool = True, **more) -> types.FormattingOptions:
    return types.FormattingOptions(tab_size=tab_size, insert_spaces=insert_spaces, **more)


async def _format(client: LanguageClient, uri: str, options: types.FormattingOptions | None = None) -> list[types.TextEdit]:
    found = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), options=options or _options()))
    assert found is not None
    return list(found)


async def _format_and_again(client: LanguageClient, uri: str, text: str, options: types.FormattingOptions | None = None) -> str:
    """Format `uri` (whose text is `text`), apply the edits, send the result, format again: no edit."""
    edits = await _format(client, uri, options)
    formatted = _apply(text, edits)
    change_document(client, uri, 2, types.TextDocumentContentChangeWholeDocument(text=formatted))
    assert await _format(client, uri, options) == []
    return formatted


@pytest.mark.asyncio
async def test_format_a_document_minimally_and_idempotently(client: LanguageClient, tmp_path):
    result = await initialize(client)
    assert result.capabilities.document_formatting_provider
    assert result.capabilities.document_range_formatting_provider
    uri = (tmp_path / "cdk.tf.json").as_uri()
    open_document(client, uri, MESSY)
    edits = await _format(client, uri)
    assert all(not e.new_text.strip() for e in edits), "only whitespace is ever inserted"
    assert 1 < len(edits) < MESSY.count(",") + MESSY.count("{") + MESSY.count(":") + 2
    formatted = await _format_and_again(client, uri, MESSY)
    assert formatted == FORMATTED
    # the values, their order and duplicates are those of the original
    assert json.loads(formatted, object_pairs_hook=list) == json.loads(MESSY, object_pairs_hook=list)


OPTIONS = [
    (_options(4, True), '{\n    "a": [1, 2],\n    "b": {\n        "c": true\n    }\n}\n\n'),
    (_options(4, False), '{\n\t"a": [1, 2],\n\t"b": {\n\t\t"c": true\n\t}\n}\n\n'),
    (_options(2, True, trim_final_newlines=True), '{\n  "a": [1, 2],\n  "b": {\n    "c": true\n  }\n}\n'),
    (_options(2, True, insert_final_newline=True, trim_final_newlines=True), '{\n  "a": [1, 2],\n  "b": {\n    "c": true\n  }\n}\n'),
]


@pytest.mark.asyncio
async def test_format_follows_the_client_options(client: LanguageClient, tmp_path):
    await initialize(client)
    text = '  {"a":[1,2],"b":{"c":true}}  \n \n'
    for k, (options, expected) in enumerate(OPTIONS):
        uri = (tmp_path / f"m{k}.tofu.json").as_uri()
        open_document(client, uri, text, language_id="opentofu-json")
        assert await _format_and_again(client, uri, text, options) == expected, options
    uri = (tmp_path / "main.tf.json").as_uri()
    open_document(client, uri, '{"a": 1}')
    assert await _format_and_again(client, uri, '{"a": 1}', _options(insert_final_newline=True)) == '{\n  "a": 1\n}\n'


@pytest.mark.asyncio
async def test_a_document_with_a_syntax_error_gets_no_edit(client: LanguageClient, tmp_path):
    await initialize(client)
    uri = (tmp_path / "main.tf.json").as_uri()
    open_document(client, uri, '{"a":   1 "b": 2}')
    assert await _format(client, uri) == []
    found = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=lsp_range('{"a":   1 "b": 2}', 0, 5),
        options=_options()))
    assert list(found or []) == []


@pytest.mark.asyncio
async def test_variable_and_test_files_are_formatted(client: LanguageClient, tmp_path):
    await initialize(client)
    text = '{"zones":["a","b"],"tags":{"team":"platform"}}\n'
    expected = '{\n  "zones": ["a", "b"],\n  "tags": {\n    "team": "platform"\n  }\n}\n'
    for name, language_id in [("terraform.tfvars.json", "json"), ("prod.auto.tfvars.json", "terraform-json"),
                              ("main.tftest.json", "terraform-json"), ("main.tofu.json", "terraform-json"),
                              ("cdk.tf.json", "terraform-json"), ("find.tfquery.json", "terraform-json"),
                              ("aws.tfmock.json", "terraform-json"), ("main.tofutest.json", "terraform-json")]:
        uri = (tmp_path / name).as_uri()
        open_document(client, uri, text, language_id=language_id)
        assert await _format_and_again(client, uri, text) == expected, name


@pytest.mark.asyncio
async def test_range_formatting_formats_the_range_lines_of_the_enclosing_container(client: LanguageClient, tmp_path):
    await initialize(client)
    fixture = parse_fixture(
        '{\n'
        '      "variable": {"region": {"type":"string",\n'
        '  $0"default" :  "eu-west-1"},\n'
        '"zones": {"type": "list(string)"$0}},\n'
        '"output": {"x": {"value":1}}}\n'
    ).only
    text = fixture.text
    uri = (tmp_path / "main.tf.json").as_uri()
    open_document(client, uri, text)
    start, end = fixture.selection
    found = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=lsp_range(text, start, end), options=_options()))
    # The smallest container around the range is the `variable` block's object: it is laid out from
    # the indentation of its line (6 spaces), and only lines 2 and 3 (the range's) change.
    assert _apply(text, list(found)) == (
        '{\n'
        '      "variable": {"region": {"type":"string",\n'
        '          "default": "eu-west-1"\n'
        '        },\n'
        '        "zones": {\n'
        '          "type": "list(string)"\n'
        '        }\n'
        '      },\n'
        '"output": {"x": {"value":1}}}\n'
    )
