"""`convert.to_signature_help`: parameter label offsets in UTF-16 code units of the signature label,
string labels for clients without `labelOffsetSupport`, and no active parameter as an index past the
last parameter."""

from __future__ import annotations

import pytest
from lsprotocol import types

from hcljson_ls.features.signature_help import (
    SignatureHelp,
    SignatureParameter,
    help_for,
)
from hcljson_ls.lsp import convert
from hcljson_ls.terraform.definition import functions


def _help(label: str, names: list[str], active: int | None) -> SignatureHelp:
    params, at = [], 0
    for name in names:
        start = label.index(name, at)
        params.append(SignatureParameter(name, start, start + len(name)))
        at = start + len(name)
    return SignatureHelp(label, "Does things.", tuple(params), active)


def _utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def test_none_is_none() -> None:
    assert convert.to_signature_help(None) is None


def test_a_builtin() -> None:
    fn = functions.lookup("format", "terraform")
    got = convert.to_signature_help(help_for(fn, 3))
    assert got == types.SignatureHelp(
        signatures=[types.SignatureInformation(
            label="format(format string, args... any) string",
            documentation=fn.description,
            parameters=[types.ParameterInformation(label=(7, 20)), types.ParameterInformation(label=(22, 33))],
            active_parameter=1,
        )],
        active_signature=0,
        active_parameter=1,
    )


def test_offsets_count_utf16_code_units() -> None:
    label = "f(𝄞é x, ünï 😀 y, z) 😀"
    h = _help(label, ["𝄞é x", "ünï 😀 y", "z"], 1)
    got = convert.to_signature_help(h)
    offsets = [p.label for p in got.signatures[0].parameters]
    expected = []
    for p in h.parameters:
        start = _utf16(label[: p.start])
        expected.append((start, start + _utf16(label[p.start : p.end])))
    assert offsets == expected
    assert expected == [(2, 7), (9, 17), (19, 20)]  # astral characters are two units each
    encoded = label.encode("utf-16-le")
    assert [encoded[2 * s : 2 * e].decode("utf-16-le") for s, e in offsets] == ["𝄞é x", "ünï 😀 y", "z"]


def test_string_labels_without_label_offset_support() -> None:
    h = _help("f(𝄞 x, y) r", ["𝄞 x", "y"], 0)
    got = convert.to_signature_help(h, label_offsets=False)
    assert [p.label for p in got.signatures[0].parameters] == ["𝄞 x", "y"]


def test_no_active_parameter_is_past_the_last() -> None:
    got = convert.to_signature_help(help_for(functions.lookup("upper", "terraform"), 1))
    assert got.active_parameter == len(got.signatures[0].parameters) == 1


@pytest.mark.parametrize("active", [0, 1, None])
def test_each_signature_names_its_active_parameter_never_null(active: int | None) -> None:
    # LSP 3.18: a signature's own activeParameter, even null, overrides the top-level one, and
    # null means "no parameter is active"; lsprotocol writes an unset one as null.
    from lsprotocol.converters import get_converter

    got = convert.to_signature_help(_help("f(a, b)", ["a", "b"], active))
    wire = get_converter().unstructure(got, types.SignatureHelp)
    assert [s["activeParameter"] for s in wire["signatures"]] == [wire["activeParameter"]]
    assert wire["activeParameter"] == (2 if active is None else active)
