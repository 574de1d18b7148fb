"""End to end over stdio: signature help, advertised with `(` and `,` as trigger characters (`,` also
retriggers), while a call is typed at the end of a line of a half-typed document (the string and
the object are not closed yet), after non-ASCII text on the same line."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import capabilities, change_document, edit, lsp_position, open_document

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"

# The line being typed ends the document's second line; nothing after it closes.
BEFORE = '{\n  "locals": {"é😀": "x", "name 😀": "'
AFTER = '\n'
FORMAT = "format(format string, args... any) string"


def _capabilities(encoding: str, label_offsets: bool) -> types.ClientCapabilities:
    caps = capabilities(encodings=[encoding])
    caps.text_document.signature_help = types.SignatureHelpClientCapabilities(
        signature_information=types.ClientSignatureInformationOptions(
            documentation_format=[types.MarkupKind.PlainText],
            parameter_information=types.ClientSignatureParameterInformationOptions(label_offset_support=label_offsets),
        ),
        context_support=True,
    )
    return caps


async def _start(client: LanguageClient, encoding: str = "utf-16", label_offsets: bool = True) -> types.InitializeResult:
    result = await client.initialize_session(types.InitializeParams(capabilities=_capabilities(encoding, label_offsets)))
    open_document(client, URI, BEFORE + AFTER)
    return result


def _type(client: LanguageClient, text_before: str, typed: str, version: int, encoding: str) -> str:
    """Insert `typed` at the end of `text_before` (the typed line); returns the new text before the cursor."""
    here = lsp_position(text_before, len(text_before), encoding)
    change_document(client, URI, version, edit(here, here, typed))
    return text_before + typed


async def _help(client: LanguageClient, before: str, encoding: str, trigger: str | None, active: types.SignatureHelp | None = None):
    context = types.SignatureHelpContext(
        trigger_kind=types.SignatureHelpTriggerKind.TriggerCharacter if trigger else types.SignatureHelpTriggerKind.Invoked,
        trigger_character=trigger,
        is_retrigger=active is not None,
        active_signature_help=active,
    )
    return await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=lsp_position(before, len(before), encoding),
        context=context,
    ))


async def test_trigger_characters_are_advertised(client: LanguageClient):
    result = await _start(client)
    provider = result.capabilities.signature_help_provider
    assert list(provider.trigger_characters) == ["(", ","]
    assert list(provider.retrigger_characters) == [","]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_typing_a_call_at_the_end_of_a_line(client: LanguageClient, encoding: str):
    await _start(client, encoding)
    before = _type(client, BEFORE, "${format(", 2, encoding)
    first = await _help(client, before, encoding, "(")
    assert first is not None and len(first.signatures) == 1
    signature = first.signatures[0]
    assert signature.label == FORMAT
    assert "printf" in signature.documentation
    assert [tuple(p.label) for p in signature.parameters] == [(7, 20), (22, 33)]
    assert [FORMAT[s:e] for s, e in (p.label for p in signature.parameters)] == ["format string", "args... any"]
    assert first.active_signature == 0 and first.active_parameter == 0

    before = _type(client, before, '\\"%s\\", var.x,', 3, encoding)
    second = await _help(client, before, encoding, ",", first)
    assert second.signatures[0].label == FORMAT and second.active_parameter == 1

    before = _type(client, before, " var.y, ", 4, encoding)
    third = await _help(client, before, encoding, None, second)
    assert third.signatures[0].label == FORMAT and third.active_parameter == 1  # still the variadic one

    before = _type(client, before, ")", 5, encoding)
    assert await _help(client, before, encoding, None, third) is None  # the call is closed: no more help


async def test_string_labels_for_clients_without_offsets(client: LanguageClient):
    await _start(client, label_offsets=False)
    before = _type(client, BEFORE, '${join(\\",\\", ', 2, "utf-16")
    found = await _help(client, before, "utf-16", ",")
    assert [p.label for p in found.signatures[0].parameters] == ["separator string", "lists... list(string)"]
    assert found.active_parameter == 1


async def test_no_help_outside_a_call_or_in_another_document(client: LanguageClient):
    await _start(client)
    assert await _help(client, BEFORE, "utf-16", None) is None
    missing = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=types.TextDocumentIdentifier(uri="file:///nonexistent-hcljson-test/stack/other.tf.json"),
        position=types.Position(line=0, character=0),
    ))
    assert missing is None
