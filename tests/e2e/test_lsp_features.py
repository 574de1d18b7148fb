"""End-to-end over stdio: document symbols, folding, selection ranges, hover and structure diagnostics.

Every expected range is computed from the fixture text with plain string arithmetic
(`helpers.lsp_range` on offsets found with `str.index`), never with the server's position code. The
fixture has 2-byte (é) and 4-byte / surrogate-pair (😀) characters before the positions that matter.
"""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import capabilities, lsp_position, lsp_range, open_document, published_for, wait_for, without_unused

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"

DOC = """\
{
  "//": "généré par cdktf 😀",
  "variable": {
    "région": {
      "type": "string",
      "default": "eu-west-1"
    }
  },
  "resource": { "aws_instance": {
      "wéb": { "ami": "ami-😀",
        "tags": { "Név": "é😀",
          "Env": "😀" },
        "lifecycle": { "prevent_destroy": true }
      }
  } },
  "locals": { "préfixe": "é😀", "name": "${local.préfixe}" }
}
"""


def at(needle: str, nth: int = 0, text: str = DOC) -> int:
    """Offset of the `nth` occurrence of `needle` in `text`."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return i


def span(needle: str, nth: int = 0, text: str = DOC) -> tuple[int, int]:
    start = at(needle, nth, text)
    return start, start + len(needle)


def through(start_needle: str, end_needle: str, text: str = DOC) -> tuple[int, int]:
    """From `start_needle` to the end of the first `end_needle` after it."""
    start = at(start_needle, text=text)
    end = text.index(end_needle, start) + len(end_needle)
    return start, end


async def start(
    client: LanguageClient,
    *,
    encoding: str = "utf-16",
    text: str = DOC,
    uri: str = URI,
    hierarchical: bool = True,
    line_folding_only: bool = False,
    pull: bool = False,
) -> types.InitializeResult:
    caps = capabilities(encodings=[encoding], pull=pull)
    caps.text_document.document_symbol = types.DocumentSymbolClientCapabilities(
        hierarchical_document_symbol_support=hierarchical
    )
    caps.text_document.folding_range = types.FoldingRangeClientCapabilities(line_folding_only=line_folding_only)
    caps.text_document.hover = types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown])
    result = await client.initialize_session(types.InitializeParams(capabilities=caps))
    open_document(client, uri, text)
    return result


def doc_id(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


# -------------------------------------------------------------------------------------------- capabilities


async def test_capabilities_advertise_the_registered_features(client: LanguageClient):
    result = await start(client)
    caps = result.capabilities
    assert caps.document_symbol_provider
    assert caps.folding_range_provider
    assert caps.selection_range_provider
    assert caps.hover_provider
    assert list(caps.completion_provider.trigger_characters) == [".", '"', "{", "$"]
    assert caps.definition_provider and caps.declaration_provider and caps.references_provider
    assert caps.document_highlight_provider and caps.workspace_symbol_provider
    assert caps.rename_provider  # with prepareRename for clients that announce prepareSupport
    assert list(caps.code_action_provider.code_action_kinds) == [
        types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, "source.showAsNativeHcl"]
    assert list(caps.execute_command_provider.commands) == [
        "hcljson.showAsNativeHcl", "hcljson.validate", "hcljson.applyRenameWithMoved"]


# -------------------------------------------------------------------------------------------- symbols

# (name, kind, full range, selection range, children) with ranges as offset pairs.
ATTRIBUTE = types.SymbolKind.Field


def _attr(name: str, full: tuple[int, int], kind=ATTRIBUTE):
    return (name, kind, full, span(f'"{name}"', text=DOC[: full[1]], nth=DOC[: full[1]].count(f'"{name}"') - 1), [])


EXPECTED_SYMBOLS = [
    (
        'variable "région"',
        types.SymbolKind.Variable,
        through('"région"', "}"),
        span('"région"'),
        [
            ("type", ATTRIBUTE, span('"type": "string"'), span('"type"'), []),
            ("default", ATTRIBUTE, span('"default": "eu-west-1"'), span('"default"'), []),
        ],
    ),
    (
        'resource "aws_instance" "wéb"',
        types.SymbolKind.Class,
        through('"wéb"', "}\n      }"),
        span('"wéb"'),
        [
            ("ami", ATTRIBUTE, span('"ami": "ami-😀"'), span('"ami"'), []),
            ("tags", ATTRIBUTE, through('"tags"', '"😀" }'), span('"tags"'), []),
            (
                "lifecycle",
                types.SymbolKind.Struct,
                through('"lifecycle"', "true }"),
                span('"lifecycle"'),
                [("prevent_destroy", ATTRIBUTE, span('"prevent_destroy": true'), span('"prevent_destroy"'), [])],
            ),
        ],
    ),
    (
        "locals",
        types.SymbolKind.Namespace,
        through('"locals"', '}" }'),
        span('"locals"'),
        [
            ("préfixe", types.SymbolKind.Constant, span('"préfixe": "é😀"'), span('"préfixe"'), []),
            ("name", types.SymbolKind.Constant, through('"name"', 'préfixe}"'), span('"name"'), []),
        ],
    ),
]


def _expected(symbols, encoding):
    return [
        (name, kind, lsp_range(DOC, *full, encoding), lsp_range(DOC, *sel, encoding), _expected(children, encoding))
        for name, kind, full, sel, children in symbols
    ]


def _actual(symbols):
    return [
        (s.name, s.kind, s.range, s.selection_range, _actual(s.children or [])) for s in symbols
    ]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_document_symbols_are_hierarchical_with_exact_ranges(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id()))
    assert all(isinstance(s, types.DocumentSymbol) for s in symbols)
    assert _actual(symbols) == _expected(EXPECTED_SYMBOLS, encoding)
    if encoding == "utf-16":  # "wéb" starts after 6 spaces; "préfixe"'s value ends after a surrogate pair
        assert symbols[1].selection_range.start == types.Position(line=9, character=6)
        assert symbols[2].children[0].range.end == types.Position(line=15, character=30)
    else:
        assert symbols[2].children[0].range.end == types.Position(line=15, character=34)


async def test_document_symbols_flat_for_clients_without_hierarchy(client: LanguageClient):
    await start(client, hierarchical=False)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id()))
    assert all(isinstance(s, types.SymbolInformation) for s in symbols)
    flat = [(s.name, s.container_name) for s in symbols]
    assert flat[:3] == [('variable "région"', None), ("type", 'variable "région"'), ("default", 'variable "région"')]
    assert ("prevent_destroy", "lifecycle") in flat
    lifecycle = next(s for s in symbols if s.name == "lifecycle")
    assert lifecycle.location == types.Location(uri=URI, range=lsp_range(DOC, *through('"lifecycle"', "true }")))


# -------------------------------------------------------------------------------------------- folding


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_folding_ranges_from_bracket_lines(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id()))

    def after(needle: str, nth: int = 0) -> int:  # the character just after an opening bracket
        return lsp_position(DOC, at(needle, nth) + len(needle), encoding).character

    def column(needle: str, inside: int) -> int:
        return lsp_position(DOC, at(needle) + inside, encoding).character

    expected = [
        # root: its closing bracket starts the last line, which stays visible
        types.FoldingRange(start_line=0, end_line=15, start_character=1),
        types.FoldingRange(start_line=2, end_line=6, start_character=after('"variable": {')),
        types.FoldingRange(start_line=3, end_line=5, start_character=after('"région": {')),
        # `"resource": { "aws_instance": {` : one range per line, the outer one; `} },` ends it
        # after the inner bracket, so the line stays in the fold and the end character is given
        types.FoldingRange(
            start_line=8, end_line=14, start_character=after('"resource": {'), end_character=column("  } },", 4)
        ),
        types.FoldingRange(start_line=9, end_line=12, start_character=after('"wéb": {')),
        types.FoldingRange(
            start_line=10, end_line=11, start_character=after('"tags": {'), end_character=column('"😀" }', 4)
        ),
    ]
    assert list(ranges) == expected
    if encoding == "utf-8":
        assert expected[4].start_character == 15 and expected[5].end_character == 24  # é, 😀 in bytes
    else:
        assert expected[4].start_character == 14 and expected[5].end_character == 22


async def test_folding_lines_only_when_the_client_says_so(client: LanguageClient):
    await start(client, line_folding_only=True)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id()))
    assert [(r.start_line, r.end_line, r.start_character, r.end_character) for r in ranges] == [
        (0, 15, None, None),
        (2, 6, None, None),
        (3, 5, None, None),
        (8, 14, None, None),
        (9, 12, None, None),
        (10, 11, None, None),
    ]


# -------------------------------------------------------------------------------------------- selection


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_selection_ranges_expand_outwards(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    cursor = at('😀" }') + 1  # inside the string "😀" of "Env", after its surrogate pair
    positions = [lsp_position(DOC, cursor, encoding), lsp_position(DOC, 0, encoding)]
    [inner, root] = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc_id(), positions=positions)
    )
    chain = []
    r = inner
    while r is not None:
        chain.append(r.range)
        r = r.parent
    env = at('"😀" }')
    expected = [
        (env + 1, env + 2),  # string content
        (env, env + 3),  # the string token
        through('"Env"', '"😀"'),  # the member
        through('{ "Név"', '"😀" }'),  # the object
        through('"tags"', '"😀" }'),  # "tags": {...}
        through('{ "ami"', "}\n      }"),  # the block body
        through('"wéb"', "}\n      }"),
        through('{\n      "wéb"', "}\n  }"),
        through('"aws_instance"', "}\n  }"),
        through('{ "aws_instance"', "} }"),
        through('"resource"', "} }"),
        (0, DOC.rindex("}") + 1),  # the root object
        (0, len(DOC)),  # the whole document
    ]
    assert chain == [lsp_range(DOC, s, e, encoding) for s, e in expected]
    assert root.range == lsp_range(DOC, 0, DOC.rindex("}") + 1, encoding)
    assert root.parent is not None and root.parent.range == lsp_range(DOC, 0, len(DOC), encoding)


# -------------------------------------------------------------------------------------------- hover


def _hover_params(offset: int, encoding: str = "utf-16", text: str = DOC) -> types.HoverParams:
    return types.HoverParams(text_document=doc_id(), position=lsp_position(text, offset, encoding))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_hover_on_a_key_after_non_ascii_text(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    hover = await client.text_document_hover_async(_hover_params(at('"name"') + 2, encoding))
    assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
    assert "local.name" in hover.contents.value
    assert hover.range == lsp_range(DOC, *span('"name"'), encoding)
    lifecycle = await client.text_document_hover_async(_hover_params(at('"lifecycle"') + 1, encoding))
    assert "**lifecycle** block" in lifecycle.contents.value
    assert lifecycle.range == lsp_range(DOC, *span('"lifecycle"'), encoding)
    assert await client.text_document_hover_async(_hover_params(at('"ami-😀"') + 2, encoding)) is None  # a value


ERRORS = """\
{
  "resources": { "aws_instance": { "wéb": {} } },
  "locals": { "é😀": 1 },
  "variable": { "v": { "type": "string", "default": "x" } }
}
"""


async def test_hover_does_not_repeat_the_diagnostics_under_the_cursor(client: LanguageClient):
    # Editors show a diagnostic beside the hover already: hover says what the key is, nothing more.
    await start(client, text=ERRORS)
    hover = await client.text_document_hover_async(_hover_params(at('"resources"', text=ERRORS) + 3, text=ERRORS))
    assert hover is None  # an unknown block type is nothing to explain but the error itself

    local = at('"é😀"', text=ERRORS)
    hover = await client.text_document_hover_async(_hover_params(local + 2, text=ERRORS))
    text = hover.contents.value
    assert "local value" in text and "structure/" not in text
    assert hover.range == lsp_range(ERRORS, local, local + len('"é😀"'))

    text = '{\n  "locals": { "é😀x": [1, 2,] }\n}\n'
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    hover = await client.text_document_hover_async(_hover_params(text.index(",]"), text=text))
    assert hover is None


# -------------------------------------------------------------------------------------------- structure diagnostics


async def test_structure_diagnostics_are_pushed_with_a_suggestion(client: LanguageClient):
    await start(client, text=ERRORS)
    published = await wait_for(lambda: published_for(client, URI), what="diagnostics")
    diagnostics = without_unused(published[-1].diagnostics)
    by_code = {d.code: d for d in diagnostics}
    assert [d.code for d in diagnostics] == ["structure/unknown-block-type", "structure/invalid-name"]
    unknown = by_code["structure/unknown-block-type"]
    assert unknown.range == lsp_range(ERRORS, *span('"resources"', text=ERRORS))
    assert 'Did you mean "resource"?' in unknown.message
    assert unknown.severity == types.DiagnosticSeverity.Error
    invalid = by_code["structure/invalid-name"]
    # `"é😀"`: 4 code points, 5 UTF-16 units
    assert invalid.range == lsp_range(ERRORS, *span('"é😀"', text=ERRORS))
    assert invalid.range.end.character - invalid.range.start.character == 5


async def test_structure_diagnostics_pulled_in_utf8(client: LanguageClient):
    await start(client, text=ERRORS, encoding="utf-8", pull=True)
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id()))
    invalid = [d for d in report.items if d.code == "structure/invalid-name"]
    assert [d.range for d in invalid] == [lsp_range(ERRORS, *span('"é😀"', text=ERRORS), "utf-8")]
    assert invalid[0].range.end.character - invalid[0].range.start.character == 8  # 1 + 2 + 4 + 1 bytes


async def test_unknown_documents_answer_nothing(client: LanguageClient):
    await start(client)
    other = types.TextDocumentIdentifier(uri="file:///nonexistent-hcljson-test/stack/never-opened.tf.json")
    assert await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=other)) is None
    assert await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=other)) is None
    hover = types.HoverParams(text_document=other, position=types.Position(line=0, character=0))
    assert await client.text_document_hover_async(hover) is None


# -------------------------------------------------------------------------------------------- semantic tokens

TOKENS_DOC = """\
{
  "variable": { "région": { "type": "string" } },
  "resource": { "aws_instance": { "wéb": {
    "ami": "ami-😀-${var.région}", "count": 2
  } } }
}
"""

# (text of the token, which occurrence of it, type, modifiers), in document order. Keys get tokens on
# their content (no quotes); template text outside `${...}` gets none.
EXPECTED_TOKENS = [
    ("variable", 0, "keyword", ()),
    ("région", 0, "variable", ("declaration",)),
    ("type", 0, "property", ()),
    ("string", 0, "type", ()),
    ("resource", 0, "keyword", ()),
    ("aws_instance", 0, "type", ()),
    ("wéb", 0, "variable", ("declaration",)),
    ("ami", 0, "property", ()),
    ("${", 0, "macro", ()),
    ("var", 1, "namespace", ("defaultLibrary",)),  # the first "var" is inside "variable"
    ("région", 1, "variable", ()),
    ("}", None, "macro", ()),  # the `}` that closes `${var.région}`
    ("count", 0, "property", ("defaultLibrary",)),
]


def _decode_tokens(data: list[int], legend: types.SemanticTokensLegend) -> list[tuple]:
    """LSP's relative encoding back to (line, character, length, type, modifiers)."""
    out, line, character = [], 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[i : i + 5]
        line += delta_line
        character = character + delta_start if delta_line == 0 else delta_start
        modifiers = tuple(m for j, m in enumerate(legend.token_modifiers) if bits >> j & 1)
        out.append((line, character, length, legend.token_types[kind], modifiers))
    return out


def _expected_tokens(encoding: str) -> list[tuple]:
    out = []
    for needle, nth, kind, modifiers in EXPECTED_TOKENS:
        if nth is None:
            start = TOKENS_DOC.index("}", TOKENS_DOC.index("${"))
        else:
            start = at(needle, nth, TOKENS_DOC)
        first = lsp_position(TOKENS_DOC, start, encoding)
        last = lsp_position(TOKENS_DOC, start + len(needle), encoding)
        out.append((first.line, first.character, last.character - first.character, kind, modifiers))
    return out


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_semantic_tokens_full_and_range(client: LanguageClient, encoding):
    result = await start(client, encoding=encoding, text=TOKENS_DOC)
    provider = result.capabilities.semantic_tokens_provider
    assert provider is not None and provider.full and provider.range
    legend = provider.legend
    assert {"keyword", "variable", "property", "namespace", "macro"} <= set(legend.token_types)
    assert {"declaration", "defaultLibrary"} <= set(legend.token_modifiers)

    full = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc_id()))
    expected = _expected_tokens(encoding)
    assert _decode_tokens(list(full.data), legend) == expected
    région = expected[10]
    assert région[2] == (7 if encoding == "utf-8" else 6)  # é is two bytes

    # the line of "ami": only its tokens, positions still absolute
    line = lsp_position(TOKENS_DOC, at('"ami"', text=TOKENS_DOC), encoding).line
    span_ = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line + 1, character=0))
    ranged = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=doc_id(), range=span_)
    )
    assert _decode_tokens(list(ranged.data), legend) == [t for t in expected if t[0] == line]
