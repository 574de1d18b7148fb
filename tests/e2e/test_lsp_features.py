"""End-to-end over stdio: document symbols, folding, selection ranges, hover and structure diagnostics.

Every expected position and range is marked in the fixture text (tests/fixture.py: `⟨⟩`, `$0`,
`$[name]`) and turned into LSP positions with plain string arithmetic (`helpers.lsp_range`), never
with the server's position code. The fixture has 2-byte (é) and 4-byte / surrogate-pair (😀)
characters before the positions that matter.
"""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import capabilities, lsp_position, lsp_range, open_document, published_for, wait_for, without_unused

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"

# Marked: ⟨⟩ are the document symbols, each symbol's full range then its name, in document order;
# `$[fold_...]` where folds start and end, `$[hover_...]` hover positions.
MARKED = parse_fixture("""\
{
  "//": "généré par cdktf 😀",
  "variable": {$[fold_variable]
    ⟨⟨"région"⟩: {$[fold_region]
      ⟨⟨"type"⟩: "string"⟩,
      ⟨⟨"default"⟩: "eu-west-1"⟩
    }⟩
  },
  "resource": {$[fold_resource] "aws_instance": {
      ⟨⟨"wéb"⟩: {$[fold_web] ⟨⟨"ami"⟩: "a$[hover_ami_value]mi-😀"⟩,
        ⟨⟨"tags"⟩: {$[fold_tags] "Név": "é😀",
          "Env": "😀" $[fold_tags_end]}⟩,
        ⟨⟨"$[hover_lifecycle]lifecycle"⟩: { ⟨⟨"prevent_destroy"⟩: true⟩ }⟩
      }⟩
  } $[fold_resource_end]},
  ⟨⟨"locals"⟩: { ⟨⟨"préfixe"⟩: "é😀"⟩, ⟨⟨"n$[hover_name]ame"⟩: "${local.préfixe}"⟩ }⟩
}
""").only
DOC = MARKED.text
# The same text with the selection ranges around the cursor in "Env" (outermost first).
SELECTION = parse_fixture("""\
⟨{
  "//": "généré par cdktf 😀",
  "variable": {
    "région": {
      "type": "string",
      "default": "eu-west-1"
    }
  },
  ⟨"resource": ⟨{ ⟨"aws_instance": ⟨{
      ⟨"wéb": ⟨{ "ami": "ami-😀",
        ⟨"tags": ⟨{ "Név": "é😀",
          ⟨"Env": ⟨"⟨😀⟩$0"⟩⟩ }⟩⟩,
        "lifecycle": { "prevent_destroy": true }
      }⟩⟩
  }⟩⟩ }⟩⟩,
  "locals": { "préfixe": "é😀", "name": "${local.préfixe}" }
}⟩
""").only


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

# (name, kind, full range, selection range, children) with ranges as offset pairs: MARKED's ranges,
# two per symbol in document order.
ATTRIBUTE = types.SymbolKind.Field
_SYMBOL_RANGES = iter(MARKED.ranges)


def _ranges() -> tuple[tuple[int, int], tuple[int, int]]:
    """The full and the name range of the next symbol."""
    return next(_SYMBOL_RANGES), next(_SYMBOL_RANGES)


EXPECTED_SYMBOLS = [
    (
        'variable "région"',
        types.SymbolKind.Variable,
        *_ranges(),
        [
            ("type", ATTRIBUTE, *_ranges(), []),
            ("default", ATTRIBUTE, *_ranges(), []),
        ],
    ),
    (
        'resource "aws_instance" "wéb"',
        types.SymbolKind.Class,
        *_ranges(),
        [
            ("ami", ATTRIBUTE, *_ranges(), []),
            ("tags", ATTRIBUTE, *_ranges(), []),
            (
                "lifecycle",
                types.SymbolKind.Struct,
                *_ranges(),
                [("prevent_destroy", ATTRIBUTE, *_ranges(), [])],
            ),
        ],
    ),
    (
        "locals",
        types.SymbolKind.Namespace,
        *_ranges(),
        [
            ("préfixe", types.SymbolKind.Constant, *_ranges(), []),
            ("name", types.SymbolKind.Constant, *_ranges(), []),
        ],
    ),
]
assert next(_SYMBOL_RANGES, None) is None  # every marked range is a symbol's
LIFECYCLE = EXPECTED_SYMBOLS[1][4][2]  # its full and name ranges
NAME = EXPECTED_SYMBOLS[2][4][1]


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
    assert lifecycle.location == types.Location(uri=URI, range=lsp_range(DOC, *LIFECYCLE[2]))


# -------------------------------------------------------------------------------------------- folding


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_folding_ranges_from_bracket_lines(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc_id()))

    def column(mark: str) -> int:  # `$[fold_x]`: just after an opening bracket; `$[fold_x_end]`: on a closing one
        return lsp_position(DOC, MARKED.marks[mark], encoding).character

    expected = [
        # root: its closing bracket starts the last line, which stays visible
        types.FoldingRange(start_line=0, end_line=15, start_character=1),
        types.FoldingRange(start_line=2, end_line=6, start_character=column("fold_variable")),
        types.FoldingRange(start_line=3, end_line=5, start_character=column("fold_region")),
        # `"resource": { "aws_instance": {` : one range per line, the outer one; `} },` ends it
        # after the inner bracket, so the line stays in the fold and the end character is given
        types.FoldingRange(
            start_line=8, end_line=14, start_character=column("fold_resource"), end_character=column("fold_resource_end")
        ),
        types.FoldingRange(start_line=9, end_line=12, start_character=column("fold_web")),
        types.FoldingRange(
            start_line=10, end_line=11, start_character=column("fold_tags"), end_character=column("fold_tags_end")
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
    assert SELECTION.text == DOC
    cursor = SELECTION.cursor  # inside the string "😀" of "Env", after its surrogate pair
    positions = [lsp_position(DOC, cursor, encoding), lsp_position(DOC, 0, encoding)]
    [inner, root] = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc_id(), positions=positions)
    )
    chain = []
    r = inner
    while r is not None:
        chain.append(r.range)
        r = r.parent
    # string content, the string token, the member, the object, "tags": {...}, the block body, the
    # block, ..., "resource": {...}, the root object; then the whole document
    expected = [*reversed(SELECTION.ranges), (0, len(DOC))]
    assert chain == [lsp_range(DOC, s, e, encoding) for s, e in expected]
    assert root.range == lsp_range(DOC, *SELECTION.ranges[0], encoding)
    assert root.parent is not None and root.parent.range == lsp_range(DOC, 0, len(DOC), encoding)


# -------------------------------------------------------------------------------------------- hover


def _hover_params(offset: int, encoding: str = "utf-16", text: str = DOC) -> types.HoverParams:
    return types.HoverParams(text_document=doc_id(), position=lsp_position(text, offset, encoding))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_hover_on_a_key_after_non_ascii_text(client: LanguageClient, encoding):
    await start(client, encoding=encoding)
    hover = await client.text_document_hover_async(_hover_params(MARKED.marks["hover_name"], encoding))
    assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
    assert "local.name" in hover.contents.value
    assert hover.range == lsp_range(DOC, *NAME[3], encoding)
    lifecycle = await client.text_document_hover_async(_hover_params(MARKED.marks["hover_lifecycle"], encoding))
    assert "**lifecycle** block" in lifecycle.contents.value
    assert lifecycle.range == lsp_range(DOC, *LIFECYCLE[3], encoding)
    assert await client.text_document_hover_async(_hover_params(MARKED.marks["hover_ami_value"], encoding)) is None  # a value


# ⟨⟩: the unknown block type and the invalid name; `$[...]`: hover positions.
ERRORS_MARKED = parse_fixture("""\
{
  ⟨"re$[resources_hover]sources"⟩: { "aws_instance": { "wéb": {} } },
  "locals": { ⟨"é$[local_hover]😀"⟩: 1 },
  "variable": { "v": { "type": "string", "default": "x" } }
}
""").only
ERRORS = ERRORS_MARKED.text


async def test_hover_does_not_repeat_the_diagnostics_under_the_cursor(client: LanguageClient):
    # Editors show a diagnostic beside the hover already: hover says what the key is, nothing more.
    await start(client, text=ERRORS)
    hover = await client.text_document_hover_async(_hover_params(ERRORS_MARKED.marks["resources_hover"], text=ERRORS))
    assert hover is None  # an unknown block type is nothing to explain but the error itself

    hover = await client.text_document_hover_async(_hover_params(ERRORS_MARKED.marks["local_hover"], text=ERRORS))
    text = hover.contents.value
    assert "local value" in text and "structure/" not in text
    assert hover.range == lsp_range(ERRORS, *ERRORS_MARKED.ranges[1])

    changed = parse_fixture('{\n  "locals": { "é😀x": [1, 2$0,] }\n}\n').only
    text = changed.text
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    hover = await client.text_document_hover_async(_hover_params(changed.cursor, text=text))
    assert hover is None


# -------------------------------------------------------------------------------------------- structure diagnostics


async def test_structure_diagnostics_are_pushed_with_a_suggestion(client: LanguageClient):
    await start(client, text=ERRORS)
    published = await wait_for(lambda: published_for(client, URI), what="diagnostics")
    diagnostics = without_unused(published[-1].diagnostics)
    by_code = {d.code: d for d in diagnostics}
    assert [d.code for d in diagnostics] == ["structure/unknown-block-type", "structure/invalid-name"]
    unknown = by_code["structure/unknown-block-type"]
    assert unknown.range == lsp_range(ERRORS, *ERRORS_MARKED.ranges[0])
    assert 'Did you mean "resource"?' in unknown.message
    assert unknown.severity == types.DiagnosticSeverity.Error
    invalid = by_code["structure/invalid-name"]
    # `"é😀"`: 4 code points, 5 UTF-16 units
    assert invalid.range == lsp_range(ERRORS, *ERRORS_MARKED.ranges[1])
    assert invalid.range.end.character - invalid.range.start.character == 5


async def test_structure_diagnostics_pulled_in_utf8(client: LanguageClient):
    await start(client, text=ERRORS, encoding="utf-8", pull=True)
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc_id()))
    invalid = [d for d in report.items if d.code == "structure/invalid-name"]
    assert [d.range for d in invalid] == [lsp_range(ERRORS, *ERRORS_MARKED.ranges[1], "utf-8")]
    assert invalid[0].range.end.character - invalid[0].range.start.character == 8  # 1 + 2 + 4 + 1 bytes


async def test_unknown_documents_answer_nothing(client: LanguageClient):
    await start(client)
    other = types.TextDocumentIdentifier(uri="file:///nonexistent-hcljson-test/stack/never-opened.tf.json")
    assert await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=other)) is None
    assert await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=other)) is None
    hover = types.HoverParams(text_document=other, position=types.Position(line=0, character=0))
    assert await client.text_document_hover_async(hover) is None


# -------------------------------------------------------------------------------------------- semantic tokens

# ⟨⟩: each semantic token, in document order; `$[ami_line]`: the line of "ami".
TOKENS_MARKED = parse_fixture("""\
{
  "⟨variable⟩": { "⟨région⟩": { "⟨type⟩": "⟨string⟩" } },
  "⟨resource⟩": { "⟨aws_instance⟩": { "⟨wéb⟩": {
    $[ami_line]"⟨ami⟩": "ami-😀-⟨${⟩⟨var⟩.⟨région⟩⟨}⟩", "⟨count⟩": 2
  } } }
}
""").only
TOKENS_DOC = TOKENS_MARKED.text

# (type, modifiers) of each marked token. Keys get tokens on their content (no quotes); template text
# outside `${...}` gets none.
EXPECTED_TOKENS = [
    ("keyword", ()),  # variable
    ("variable", ("declaration",)),  # région
    ("property", ()),  # type
    ("type", ()),  # string
    ("keyword", ()),  # resource
    ("type", ()),  # aws_instance
    ("variable", ("declaration",)),  # wéb
    ("property", ()),  # ami
    ("macro", ()),  # ${
    ("namespace", ("defaultLibrary",)),  # var
    ("variable", ()),  # région
    ("macro", ()),  # the `}` that closes `${var.région}`
    ("property", ("defaultLibrary",)),  # count
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
    assert len(TOKENS_MARKED.ranges) == len(EXPECTED_TOKENS)
    for (start, end), (kind, modifiers) in zip(TOKENS_MARKED.ranges, EXPECTED_TOKENS):
        first = lsp_position(TOKENS_DOC, start, encoding)
        last = lsp_position(TOKENS_DOC, end, encoding)
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
    line = lsp_position(TOKENS_DOC, TOKENS_MARKED.marks["ami_line"], encoding).line
    span_ = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line + 1, character=0))
    ranged = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=doc_id(), range=span_)
    )
    assert _decode_tokens(list(ranged.data), legend) == [t for t in expected if t[0] == line]
