"""Features take Terraform meaning from `terraform.catalogue`: meta-arguments per block kind (not one
flat set for every block), the `action` reference namespace."""

from __future__ import annotations

from feat_support import decoded
from fixture import parse_fixture

from hcljson_ls.features.hover import hover_in
from hcljson_ls.features.semantic_tokens import tokens_for_body

MARKED = parse_fixture("""{
  "resource": {"aws_s3_object": {"o": {"$[source]source": "a.txt", "$[version]version": "1", "$[count]count": 1,
      "lifecycle": {"action_trigger": {"events": ["before_create"], "actions": ["$[ref]action.$[ref.type]aws_lambda_invoke.notify"]}}}}},
  "action": {"aws_lambda_invoke": {"notify": {"$[depends_on]depends_on": [], "$[provider]p$[provider.hover]rovider": "aws.west"}}},
  "module": {"net": {"$[module.source]source": "./net", "$[providers]providers": {}, "_": {"$[module.provider]provider": "x"}}},
  "check": {"c": {"data": {"http": {"h": {"$[check.count]c$[check.count.hover]ount": 1}}}, "assert": {"condition": true, "error_message": "m"}}}
}""").only
DOC = MARKED.text


def key_token(root, mark: str) -> tuple[str, str, tuple]:
    """(text, type, modifiers) of the token that starts at the mark `$[mark]` of DOC."""
    tokens = {s: (DOC[s:e], k, m) for s, e, k, m in tokens_for_body(DOC, root)}
    return tokens[MARKED.marks[mark]]


def test_meta_argument_tokens_follow_the_block_kind() -> None:
    _, body = decoded(DOC)
    lib = ("property", ("defaultLibrary",))
    plain = ("property", ())
    assert key_token(body, "source") == ("source", *plain)  # a provider-defined argument of aws_s3_object
    assert key_token(body, "version") == ("version", *plain)
    assert key_token(body, "count") == ("count", *lib)
    assert key_token(body, "depends_on") == ("depends_on", *plain)  # actions take count, for_each and provider only
    assert key_token(body, "provider") == ("provider", *lib)
    assert key_token(body, "module.source") == ("source", *lib)  # the module's
    assert key_token(body, "providers") == ("providers", *lib)
    assert key_token(body, "module.provider") == ("provider", *plain)  # a module input named "provider" (`_`)
    assert key_token(body, "check.count") == ("count", *lib)  # a check's scoped data source


def test_action_references_are_a_namespace() -> None:
    _, body = decoded(DOC)
    tokens = {s: (DOC[s:e], k, m) for s, e, k, m in tokens_for_body(DOC, body)}
    assert tokens[MARKED.marks["ref"]] == ("action", "namespace", ("defaultLibrary",))
    assert tokens[MARKED.marks["ref.type"]] == ("aws_lambda_invoke", "type", ())


def test_hover_says_meta_argument_by_block_kind() -> None:
    _, body = decoded(DOC)
    h = hover_in(body, DOC, MARKED.marks["check.count.hover"])
    assert h is not None and "meta-argument" in h.markdown
    h = hover_in(body, DOC, MARKED.marks["provider.hover"])
    assert h is not None and "meta-argument" in h.markdown
