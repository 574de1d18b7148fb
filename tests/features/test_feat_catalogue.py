"""Features take Terraform meaning from `terraform.catalogue`: meta-arguments per block kind (not one
flat set for every block), the `action` reference namespace."""

from __future__ import annotations

from feat_support import decoded

from hcljson_ls.features.hover import hover_in
from hcljson_ls.features.semantic_tokens import tokens_for_body

DOC = """{
  "resource": {"aws_s3_object": {"o": {"source": "a.txt", "version": "1", "count": 1,
      "lifecycle": {"action_trigger": {"events": ["before_create"], "actions": ["action.aws_lambda_invoke.notify"]}}}}},
  "action": {"aws_lambda_invoke": {"notify": {"depends_on": [], "provider": "aws.west"}}},
  "module": {"net": {"source": "./net", "providers": {}, "provider": "x"}},
  "check": {"c": {"data": {"http": {"h": {"count": 1}}}, "assert": {"condition": true, "error_message": "m"}}}
}"""


def key_token(root, needle: str, nth: int = 0):
    """The token on the key `needle` (quotes excluded), the `nth` occurrence in DOC."""
    i = -1
    for _ in range(nth + 1):
        i = DOC.index(f'"{needle}"', i + 1)
    tokens = {(s, e): (k, m) for s, e, k, m in tokens_for_body(DOC, root)}
    return tokens[(i + 1, i + 1 + len(needle))]


def test_meta_argument_tokens_follow_the_block_kind() -> None:
    _, body = decoded(DOC)
    lib = ("property", ("defaultLibrary",))
    plain = ("property", ())
    assert key_token(body, "source") == plain  # a provider-defined argument of aws_s3_object
    assert key_token(body, "version") == plain
    assert key_token(body, "count") == lib
    assert key_token(body, "depends_on") == plain  # actions take count, for_each and provider only
    assert key_token(body, "provider") == lib
    assert key_token(body, "source", 1) == lib  # the module's
    assert key_token(body, "providers") == lib
    assert key_token(body, "provider", 1) == plain  # a module input named "provider"
    assert key_token(body, "count", 1) == lib  # a check's scoped data source


def test_action_references_are_a_namespace() -> None:
    _, body = decoded(DOC)
    tokens = {s: (DOC[s:e], k, m) for s, e, k, m in tokens_for_body(DOC, body)}
    ref = DOC.index("action.aws_lambda_invoke.notify")
    assert tokens[ref] == ("action", "namespace", ("defaultLibrary",))
    assert tokens[ref + len("action.")] == ("aws_lambda_invoke", "type", ())


def test_hover_says_meta_argument_by_block_kind() -> None:
    _, body = decoded(DOC)
    count = DOC.index('"count"', DOC.index('"check"')) + 2
    h = hover_in(body, DOC, count)
    assert h is not None and "meta-argument" in h.markdown
    provider = DOC.index('"provider"', DOC.index('"action"')) + 2
    h = hover_in(body, DOC, provider)
    assert h is not None and "meta-argument" in h.markdown
