"""End-to-end over stdio: initialize, document sync and diagnostics (push and pull).

Expected ranges come from `⟨...⟩` fixture markers (tests/fixture.py) and plain string arithmetic
(`helpers.lsp_range`), never from the server's own position code.
"""

from __future__ import annotations

import asyncio

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import (
    change_document,
    edit,
    initialize,
    lsp_position,
    lsp_range,
    open_document,
    published_for,
    wait_for,
    without_unused,
)

# A missing comma (range: the gap) after a string that holds 1-, 2- and 4-byte characters (😀 and 🎉
# are UTF-16 surrogate pairs), and a trailing comma after them on the same line.
EMOJI = parse_fixture("""\
{
  "locals": {
    "greeting": "héllo 😀 🎉" ⟨"n"⟩: [1, 2⟨,⟩]
  }
}
""").only
URI = "file:///nonexistent-hcljson-test/module/main.tf.json"
# One syntax error and nothing else (`"//"` is a comment property, which Terraform skips).
TRAILING = '{"//": [1,]}'


async def diagnostics_of(client: LanguageClient, uri: str, version: int | None = None) -> list[types.Diagnostic]:
    """The latest pushed diagnostics for `uri`, once one for `version` (when given) has arrived."""

    def latest():
        published = published_for(client, uri)
        if published and (version is None or published[-1].version == version):
            return published[-1]
        return None

    params = await wait_for(latest, what=f"diagnostics for {uri} version {version}")
    return list(params.diagnostics)


# -------------------------------------------------------------------------------------------- initialize


async def test_initialize_defaults_to_utf16_and_advertises_sync_and_diagnostics(client: LanguageClient):
    result = await initialize(client)
    caps = result.capabilities
    assert caps.position_encoding == types.PositionEncodingKind.Utf16
    sync = caps.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert sync.open_close is True
    assert isinstance(caps.diagnostic_provider, types.DiagnosticOptions)
    assert caps.diagnostic_provider.inter_file_dependencies is True  # a module's files depend on each other
    assert result.server_info is not None and result.server_info.name == "hcljson-ls"


@pytest.mark.parametrize(
    "offered, chosen",
    [
        (["utf-8", "utf-16"], "utf-8"),
        (["utf-32", "utf-16"], "utf-32"),
        (["utf-16", "utf-8"], "utf-16"),
        (["latin-1"], "utf-16"),
        ([], "utf-16"),
    ],
)
async def test_position_encoding_negotiation(client: LanguageClient, offered, chosen):
    result = await initialize(client, encodings=offered)
    assert result.capabilities.position_encoding == chosen


# -------------------------------------------------------------------------------------------- push


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
async def test_did_open_publishes_exact_ranges_after_emoji(client: LanguageClient, encoding):
    await initialize(client, encodings=[encoding])
    text, spans = EMOJI.text, EMOJI.ranges
    open_document(client, URI, text, version=7)
    diagnostics = without_unused(await diagnostics_of(client, URI, version=7))  # "greeting" is also unused
    assert [d.range for d in diagnostics] == [lsp_range(text, s, e, encoding) for s, e in spans]
    assert [d.code for d in diagnostics] == ["syntax/missing-comma", "syntax/trailing-comma"]
    for d in diagnostics:
        assert d.severity == types.DiagnosticSeverity.Error
        assert d.source == "hcljson-ls"
        assert d.message
    if encoding == "utf-16":
        # 28 code points before the key after the missing comma, two of them surrogate pairs in UTF-16
        assert diagnostics[0].range.start == types.Position(line=2, character=30)


async def test_incremental_changes_publish_new_versions(client: LanguageClient):
    await initialize(client)
    marked = parse_fixture('{\n  "//": [1, 2$[comma]],\n  "//": {"😀": $[x]"x"}\n}\n').only
    text = marked.text
    open_document(client, URI, text, version=1)
    assert await diagnostics_of(client, URI, version=1) == []

    # insert a trailing comma after `2` (line 1), then a second problem on the emoji line
    comma_at = marked.marks["comma"]
    change_document(client, URI, 2, edit(lsp_position(text, comma_at), lsp_position(text, comma_at), ","))
    text = text[:comma_at] + "," + text[comma_at:]
    diagnostics = await diagnostics_of(client, URI, version=2)
    assert [(d.code, d.range) for d in diagnostics] == [
        ("syntax/trailing-comma", lsp_range(text, comma_at, comma_at + 1))
    ]

    # replace `"x"` by `x` (an unquoted word) with two changes in one notification
    value = marked.marks["x"] + len(",")  # after the comma inserted above
    first = edit(lsp_position(text, value + 2), lsp_position(text, value + 3), "")
    text = text[: value + 2] + text[value + 3 :]
    second = edit(lsp_position(text, value), lsp_position(text, value + 1), "")
    text = text[:value] + text[value + 1 :]
    change_document(client, URI, 3, first, second)
    diagnostics = await diagnostics_of(client, URI, version=3)
    assert diagnostics[0].code == "syntax/trailing-comma"
    assert len(diagnostics) == 2
    assert diagnostics[1].range.start == lsp_position(text, value)

    # a full replacement fixes everything
    change_document(client, URI, 4, types.TextDocumentContentChangeWholeDocument(text='{"//": [1, 2]}'))
    assert await diagnostics_of(client, URI, version=4) == []


async def test_burst_of_changes_ends_with_the_final_version(client: LanguageClient):
    await initialize(client, options={"diagnostics": {"debounceMs": 150}})
    text = "{\n}\n"
    open_document(client, URI, text, version=1)
    await diagnostics_of(client, URI, version=1)
    before = len(published_for(client, URI))

    # type `"//": [1,]` one character at a time, as fast as the client can send
    typed = '"//": [1,]'
    for i, ch in enumerate(typed):
        position = types.Position(line=0, character=1 + i)
        change_document(client, URI, 2 + i, edit(position, position, ch))
    final = 1 + len(typed)
    diagnostics = await diagnostics_of(client, URI, version=final)
    await asyncio.sleep(0.4)  # anything still pending would arrive now

    burst = published_for(client, URI)[before:]
    assert burst[-1].version == final
    assert [d.code for d in burst[-1].diagnostics] == ["syntax/trailing-comma"] == [d.code for d in diagnostics]
    versions = [p.version for p in burst]
    assert versions == sorted(versions), versions  # never an older version after a newer one
    assert len(burst) < len(typed), versions  # debounced: not one publish per keystroke


async def test_did_close_clears_diagnostics(client: LanguageClient):
    await initialize(client)
    open_document(client, URI, TRAILING, version=1)
    assert len(await diagnostics_of(client, URI, version=1)) == 1
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI)))
    await wait_for(lambda: published_for(client, URI)[-1].diagnostics == [], what="empty diagnostics after close")


async def test_close_during_debounce_never_publishes_stale_diagnostics(client: LanguageClient):
    await initialize(client, options={"diagnostics": {"debounceMs": 300}})
    open_document(client, URI, "{}", version=1)
    await diagnostics_of(client, URI, version=1)
    change_document(client, URI, 2, edit(types.Position(line=0, character=1), types.Position(line=0, character=1), "x"))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI)))
    # (The first push may come before the full server runs, `lsp.first_open`: the close's is awaited.)
    await wait_for(lambda: any(p.version is None for p in published_for(client, URI)), what="the close's empty list")
    await asyncio.sleep(0.6)
    last = published_for(client, URI)[-1]
    assert last.diagnostics == [] and last.version is None


async def test_json_language_id_with_tf_json_name_is_served(client: LanguageClient):
    await initialize(client)
    for uri in ("file:///w/x.tf.json", "file:///w/y.tofu.json", "file:///w/cdktf.out/stacks/dev/cdk.tf.json"):
        open_document(client, uri, TRAILING, language_id="json")
        assert [d.code for d in await diagnostics_of(client, uri, version=1)] == ["syntax/trailing-comma"]


async def test_other_json_documents_are_ignored(client: LanguageClient):
    await initialize(client, pull=False)
    open_document(client, "file:///w/package.json", '{"a": [1,]}', language_id="json")
    open_document(client, "file:///w/notes.txt", "{", language_id="plaintext")
    open_document(client, URI, "{}")  # a document of ours, opened last, as a marker
    await diagnostics_of(client, URI, version=1)
    await asyncio.sleep(0.2)
    assert {p.uri for p in client.published} == {URI}
    # changes and pulls for the ignored document are harmless
    change_document(client, "file:///w/package.json", 2, types.TextDocumentContentChangeWholeDocument(text="{"))
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri="file:///w/package.json"))
    )
    assert list(report.items) == []


# -------------------------------------------------------------------------------------------- pull


async def test_pull_diagnostics_and_no_double_push(client: LanguageClient):
    await initialize(client, pull=True)
    text, spans = EMOJI.text, EMOJI.ranges
    open_document(client, URI, text)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert report.kind == "full"
    assert [d.range for d in without_unused(report.items)] == [lsp_range(text, s, e) for s, e in spans]
    assert report.result_id

    # unchanged document: the client may keep what it has
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=report.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id

    # after a change, the new state (and a new result id)
    change_document(client, URI, 2, types.TextDocumentContentChangeWholeDocument(text="{}"))
    fixed = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=report.result_id
        )
    )
    assert fixed.kind == "full" and list(fixed.items) == [] and fixed.result_id != report.result_id

    await asyncio.sleep(0.3)
    assert published_for(client, URI) == []  # a pulling client gets no pushed duplicates


async def test_push_can_be_forced_for_pulling_clients(client: LanguageClient):
    await initialize(client, pull=True, options={"hcljson": {"diagnostics": {"push": "always"}}})
    open_document(client, URI, TRAILING)
    assert len(await diagnostics_of(client, URI, version=1)) == 1


# -------------------------------------------------------------------------------------------- settings


async def test_settings_change_republishes_and_bad_values_are_reported(client: LanguageClient):
    await initialize(client, options={"diagnostics": {"debounceMs": "fast"}})
    await wait_for(lambda: client.messages, what="a warning about the bad setting")
    assert "debounceMs" in client.messages[0].message
    assert client.messages[0].type == types.MessageType.Warning

    open_document(client, URI, TRAILING)
    assert len(await diagnostics_of(client, URI, version=1)) == 1
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hcljson": {"diagnostics": {"enable": False}}})
    )
    await wait_for(lambda: published_for(client, URI)[-1].diagnostics == [], what="diagnostics turned off")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hcljson": {"diagnostics": {"enable": True}}})
    )
    await wait_for(lambda: len(published_for(client, URI)[-1].diagnostics) == 1, what="diagnostics back on")


async def test_code_description_links_to_docs_when_configured(client: LanguageClient):
    await initialize(client, options={"diagnostics": {"docsUrl": "https://example.invalid/diagnostics.md"}})
    open_document(client, URI, TRAILING)
    [d] = await diagnostics_of(client, URI, version=1)
    assert d.code_description is not None
    assert d.code_description.href == "https://example.invalid/diagnostics.md#syntaxtrailing-comma"


async def test_settings_are_read_with_workspace_configuration(client: LanguageClient):
    client.set_configuration({"diagnostics": {"enable": False}}, section="hcljson")
    await initialize(client, configuration=True)
    open_document(client, URI, TRAILING)
    await wait_for(lambda: published_for(client, URI), what="a publish")
    # turned off by the client's configuration (asked for after `initialized`: a publish before its
    # answer has the settings of `initializationOptions`, longer when it comes from `lsp.first_open`)
    await wait_for(lambda: published_for(client, URI)[-1].diagnostics == [], what="diagnostics turned off")
    await asyncio.sleep(0.2)
    assert published_for(client, URI)[-1].diagnostics == []

    # a "pull style" didChangeConfiguration (no settings) makes the server ask again
    client.set_configuration({"diagnostics": {"enable": True}}, section="hcljson")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: len(published_for(client, URI)[-1].diagnostics) == 1, what="diagnostics back on")
