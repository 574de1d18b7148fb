"""Every valid Terraform JSON configuration of the real corpus: no template, type or reference
error (except the known legacy fixture), and semantic tokens that encode cleanly."""

from __future__ import annotations

import pytest
import shared_data
from tf_tpl_corpus import CORPUS, COUNTS, FILES, KNOWN, config_files
from tf_tpl_support import open_state, semantic_tokens

from hcljson_ls.lsp.semantic_encoding import encode
from hcljson_ls.terraform.expressions.templates import check_strings, new_counts

shared_data.require(shared_data.REAL_SOURCES)

FILES_ = config_files()


def test_the_corpus_has_configuration_files() -> None:
    assert len(FILES_) >= 80
    assert set(KNOWN) <= set(FILES_)


@pytest.mark.parametrize("name", FILES_)
def test_corpus_file_strings_parse(name: str) -> None:
    state = open_state((CORPUS / name).read_text(encoding="utf-8"), name)
    analysis = state.analysis
    counts = new_counts()
    diags = check_strings(state.text, analysis.body, counts)
    assert diags == analysis.strings
    for k, v in counts.items():
        COUNTS[k] = COUNTS.get(k, 0) + v
    FILES[0] += 1
    assert [d.code for d in diags] == KNOWN.get(name, []), [(d.code, state.text[d.start : d.end][:60], d.message) for d in diags]

    tokens = semantic_tokens(state)
    assert all(a[1] <= b[0] for a, b in zip(tokens, tokens[1:])), "sorted, non-overlapping"
    assert all(s < e for s, e, _, _ in tokens)
    data = encode(tokens, state.line_index, "utf-16")
    assert len(data) % 5 == 0 and len(data) >= 5 * len(tokens)
