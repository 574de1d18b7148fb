"""Lark's parser tables cached where the edge says (`template.grammars.set_table_cache`): written on
the first build, read on the next, the same parses either way, and nothing written by default."""

from __future__ import annotations

import os

import pytest

from hcljson_ls.template import grammars
from hcljson_ls.template import parse as tparse
from hcljson_ls.template import types as ttypes

TEMPLATE = 'a ${var.x == "p" ? upper(local.y) : 1} %{ for k, v in m }${k}%{ endfor }'


@pytest.fixture
def fresh_parsers():
    """Parsers built again inside the test, and as they were after it."""
    def clear():
        tparse._template_parser.cache_clear()
        ttypes._type_parser.cache_clear()
        tparse.parse_template_relative.cache_clear()
        ttypes.parse_type_relative.cache_clear()
    clear()
    yield
    grammars.set_table_cache(None)
    clear()


def test_tables_are_written_then_read_with_the_same_parses(tmp_path, fresh_parsers) -> None:
    before = tparse.parse_template_relative(TEMPLATE)
    before_type = ttypes.parse_type_relative("map(object({a = list(string)}))")
    tparse._template_parser.cache_clear()
    ttypes._type_parser.cache_clear()
    tparse.parse_template_relative.cache_clear()
    ttypes.parse_type_relative.cache_clear()

    grammars.set_table_cache(str(tmp_path / "tables"))
    tparse._template_parser()
    ttypes._type_parser()
    written = sorted(os.listdir(tmp_path / "tables"))
    assert written == ["template.lark-tables", "types.lark-tables"]
    stamps = [os.stat(tmp_path / "tables" / n).st_mtime_ns for n in written]

    tparse._template_parser.cache_clear()
    ttypes._type_parser.cache_clear()
    assert tparse.parse_template_relative(TEMPLATE) == before  # parsers loaded from the files
    assert ttypes.parse_type_relative("map(object({a = list(string)}))") == before_type
    assert [os.stat(tmp_path / "tables" / n).st_mtime_ns for n in written] == stamps  # read, not rewritten


def test_a_damaged_table_file_is_rebuilt(tmp_path, fresh_parsers) -> None:
    expected = tparse.parse_template_relative(TEMPLATE)
    tparse._template_parser.cache_clear()
    tparse.parse_template_relative.cache_clear()
    (tmp_path / "template.lark-tables").write_bytes(b"not a table file\n\x00\x01")
    grammars.set_table_cache(str(tmp_path))
    assert tparse.parse_template_relative(TEMPLATE) == expected
    assert (tmp_path / "template.lark-tables").read_bytes()[:16] != b"not a table file"


def test_nothing_is_written_unless_asked(fresh_parsers) -> None:
    assert grammars.table_cache("template") is False
