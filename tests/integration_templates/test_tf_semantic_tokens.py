"""Semantic tokens: exact tokens for a fixture document, range requests, and the LSP encoding in
UTF-16, UTF-8 and UTF-32 (tokens spanning lines, astral characters, CRLF), checked against an
independent computation."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from hypothesis import given, settings
from hypothesis import strategies as st
from tf_tpl_support import open_state, semantic_tokens

from hcljson_ls.features.semantic_tokens import legend
from hcljson_ls.lsp.semantic_encoding import encode
from hcljson_ls.template import TOKEN_MODIFIERS, TOKEN_TYPES
from hcljson_ls.text.line_index import LineIndex

# Every token of the document between ⟨ ⟩; KINDS gives each one's type and modifiers, in order.
FIXTURE = r'''{
  "⟨//⟩": {"metadata": {"path": "stack"}},
  "⟨terraform⟩": {"⟨backend⟩": {"⟨s3⟩": {"⟨key⟩": "${x}"}}},
  "⟨provider⟩": {"⟨aws⟩": [{"⟨alias⟩": "west", "⟨region⟩": "⟨${⟩⟨var⟩.⟨region⟩⟨}⟩"}]},
  "⟨variable⟩": {"⟨region⟩": {"⟨type⟩": "⟨map⟩(⟨string⟩)", "⟨default⟩": "${x}"}},
  "⟨locals⟩": {"⟨name⟩": "caf\u00e9-⟨${⟩⟨up$[upper]p$[upper_end]er⟩(⟨var⟩.⟨region⟩)⟨}⟩"},
  "⟨data⟩": {"⟨aws_ami⟩": {"⟨ubuntu⟩": {"⟨most_recent⟩": true}}},
  "⟨resource⟩": {"⟨aws_instance⟩": {"⟨web⟩": {
    "⟨//⟩": "CDKTF metadata",
    $[ami]"⟨ami⟩": "⟨${⟩⟨data⟩.⟨aws_ami⟩.⟨ubuntu⟩.⟨id⟩⟨}⟩",
    $[count]"⟨count⟩": 2,
    "⟨tags⟩": {"Name": "⟨${⟩⟨local⟩.⟨name⟩⟨}⟩-⟨${⟩⟨count⟩.⟨index⟩⟨}⟩", "⟨${⟩⟨each⟩.⟨key⟩⟨}⟩": "⟨%{⟩⟨if⟩ ⟨true⟩⟨}⟩x⟨%{⟩⟨endif⟩⟨}⟩"},
    "⟨provider⟩": "⟨aws⟩.⟨west⟩",
    "⟨depends_on⟩": ["⟨module⟩.⟨net⟩"],
    "⟨dynamic⟩": {"⟨ingress⟩": {"⟨for_each⟩": "⟨${⟩⟨var⟩.⟨rules⟩⟨}⟩", "⟨iterator⟩": "⟨rule⟩", "⟨content⟩": {"⟨port⟩": "⟨${⟩⟨rule⟩.⟨value⟩⟨}⟩"}}},
    "⟨lifecycle⟩": {"⟨ignore_changes⟩": ["⟨tags⟩"], "⟨replace_triggered_by⟩": ["⟨null_resource⟩.⟨a⟩.⟨id⟩"]},
    "⟨provisioner⟩": {"⟨local-exec⟩": {"⟨command⟩": "echo ⟨${⟩⟨self⟩.⟨id⟩⟨}⟩", "⟨when⟩": "⟨destroy⟩"}}
  }}},
  $[module]"⟨module⟩": {"⟨net⟩": {"⟨source⟩": "./net", "⟨providers⟩": {"⟨aws⟩": "⟨aws⟩.⟨west⟩"}, "⟨n⟩": "⟨${⟩[⟨for⟩ ⟨s⟩ ⟨in⟩ ⟨var⟩.⟨l⟩ : ⟨s⟩ ⟨if⟩ ⟨s⟩ ⟨!=⟩ ⟨\"\"⟩]⟨}⟩"}},
  "⟨output⟩": {"⟨id⟩": {"⟨value⟩": "⟨${⟩⟨aws_instance⟩.⟨web⟩[⟨0⟩].⟨id⟩⟨}⟩", "⟨description⟩": "${not parsed}"}}
}'''

_TYPES = {"C": "comment", "K": "keyword", "T": "type", "P": "property", "M": "macro", "N": "namespace",
          "V": "variable", "F": "function", "A": "parameter", "O": "operator", "S": "string", "#": "number"}
# Letter = type; then "d" = declaration, "L" = defaultLibrary.
KINDS = (
    "C K K T P K N P P M NL V M K Vd P T T P K Vd M F NL "
    "V M K T Vd P K T Vd C P M NL T P P M PL P M NL V M M "
    "VL P M M VL P M M K K M M K M PL N P PL NL V K P P M "
    "NL V M P Ad K P M A P M K P P P T P P K T P M VL P "
    "M P K K Vd PL PL N N P P M K Ad K NL V A K A O S M K "
    "Vd P M T P # P M P "
)


def expected_kinds() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for k in KINDS.split():
        mods = (("declaration",) if "d" in k[1:] else ()) + (("defaultLibrary",) if "L" in k[1:] else ())
        out.append((_TYPES[k[0]], mods))
    return out


def test_legend_extends_the_template_layer_legend() -> None:
    types, mods = legend()
    assert types[: len(TOKEN_TYPES)] == TOKEN_TYPES and "comment" in types
    assert TOKEN_MODIFIERS == ["declaration", "defaultLibrary"]
    assert mods == [*TOKEN_MODIFIERS, "deprecated"]  # provider schemas mark deprecated arguments


def test_fixture_tokens_are_exact() -> None:
    fixture = parse_fixture(FIXTURE).only
    text, ranges = fixture.text, fixture.ranges
    kinds = expected_kinds()
    assert len(ranges) == len(kinds)
    got = semantic_tokens(open_state(text))
    want = [(s, e, t, m) for (s, e), (t, m) in zip(ranges, kinds)]
    assert got == want, [(text[s:e], t, m) for s, e, t, m in got]


def test_range_requests_return_the_intersecting_tokens() -> None:
    fixture = parse_fixture(FIXTURE).only
    text, marks = fixture.text, fixture.marks
    state = open_state(text)
    full = semantic_tokens(state)
    for start, end in [(0, len(text)), (marks["ami"], marks["count"]), (marks["upper"], marks["upper_end"]),
                       (marks["module"], len(text)), (5, 5)]:
        assert semantic_tokens(state, start, end) == [t for t in full if t[0] < end and t[1] > start]


# ---- LSP encoding ------------------------------------------------------------------------------------

def reference_encode(text: str, tokens, encoding: str) -> list[int]:
    """The LSP encoding computed independently: split the text into lines by hand and measure
    columns by encoding the line prefix."""
    types, mods = legend()
    starts = [0]
    i = 0
    while i < len(text):
        if text[i] == "\r":
            i += 2 if text[i + 1 : i + 2] == "\n" else 1
            starts.append(i)
            continue
        if text[i] == "\n":
            starts.append(i + 1)
        i += 1

    def content_end(line: int) -> int:
        if line + 1 < len(starts):
            e = starts[line + 1]
            return e - 2 if text[e - 2 : e] == "\r\n" else e - 1
        return len(text)

    def units(s: str) -> int:
        if encoding == "utf-32":
            return len(s)
        if encoding == "utf-8":
            return len(s.encode("utf-8", "surrogatepass"))
        return len(s.encode("utf-16-le", "surrogatepass")) // 2

    out: list[int] = []
    prev = (0, 0)
    for s, e, t, m in tokens:
        for line in range(len(starts)):
            a, b = max(s, starts[line]), min(e, content_end(line))
            if b <= a:
                continue
            col = units(text[starts[line] : a])
            length = units(text[a:b])
            bits = sum(1 << mods.index(x) for x in m)
            dl = line - prev[0]
            out += [dl, col - prev[1] if dl == 0 else col, length, types.index(t), bits]
            prev = (line, col)
    return out


ENCODINGS = ["utf-16", "utf-8", "utf-32"]
MULTILINE = "a\U0001F600b\r\nc\u00e9\U0001F600d\n\ne\rf\U0001F600\u00e9g"


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_encode_splits_multiline_tokens_and_counts_units(encoding: str) -> None:
    text = MULTILINE
    tokens = [
        (0, 2, "keyword", ()),                      # "a😀"
        (2, 6, "string", ("declaration",)),         # "b\r\nc" across a CRLF
        (6, 12, "variable", ("declaration", "defaultLibrary")),  # "é😀d\n\ne" across an empty line
        (12, 13, "operator", ()),                   # "\r" alone: nothing to encode
        (13, len(text), "type", ()),                # "f😀ég"
        (len(text), len(text), "type", ()),         # empty: left out
    ]
    data = encode(tokens, LineIndex(text), encoding, legend())
    assert data == reference_encode(text, tokens, encoding)
    unit = {"utf-16": 2, "utf-8": 4, "utf-32": 1}[encoding]
    ti = legend()[0].index
    assert data[:5] == [0, 0, 1 + unit, ti("keyword"), 0]
    assert data[5:15] == [0, 1 + unit, 1, ti("string"), 1, 1, 0, 1, ti("string"), 1]


def test_encode_leaves_out_types_not_in_the_legend() -> None:
    assert encode([(0, 1, "nonsense", ()), (1, 2, "keyword", ("unknown",))], LineIndex("ab"), "utf-16") == [
        0, 1, 1, legend()[0].index("keyword"), 0]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a", "\u00e9", "\U0001F600", "\n", "\r\n", "\r", " ", "\u2028"]), max_size=30).map("".join),
       st.lists(st.integers(0, 40), max_size=12), st.sampled_from(ENCODINGS))
def test_encode_matches_the_reference(text: str, cuts: list[int], encoding: str) -> None:
    points = sorted({min(c, len(text)) for c in cuts})
    types = legend()[0]
    tokens = [(a, b, types[i % len(types)], ("declaration",) if i % 2 else ())
              for i, (a, b) in enumerate(zip(points, points[1:]))]
    assert encode(tokens, LineIndex(text), encoding) == reference_encode(text, tokens, encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_encode_the_fixture(encoding: str) -> None:
    text = parse_fixture(FIXTURE).only.text
    assert "caf\\u00e9" in text
    state = open_state(text.replace("caf\\u00e9", "caf\u00e9\U0001F600"))
    tokens = semantic_tokens(state)
    assert len(tokens) == len(expected_kinds())
    assert encode(tokens, state.line_index, encoding) == reference_encode(state.text, tokens, encoding)
