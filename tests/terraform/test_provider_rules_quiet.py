"""`provider_rules.quiet_test`, the quick open's one-pass test of a resource or data body on the C
scanner's values, never says "nothing to find" where a rule of `SCHEMA_RULES` finds something or asks
something the values cannot answer: hypothesis bodies of real resource and data types of every provider
schema of the test data (tests/data/provider-schemas, sources in its SOURCES.md), built from their own
attribute and block names, plausible and wrong values, repeated names, nested blocks, `lifecycle`
(with `ignore_changes` and postconditions), `provisioner`, `dynamic` and comments. It answers for the
bench document's bodies (what it is for), and there is no test for a registry it was not written for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import shared_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.hcljson.skim import Pairs
from hcljson_ls.hcljson.view import VALUES, Unanswerable
from hcljson_ls.terraform.rules import provider_rules as pr
from hcljson_ls.terraform.schemas import provider_schema as ps

FILES = shared_data.schema_files()
shared_data.require(*FILES)

#: (block type, schema) of every resource and data source type of the test data's schemas.
SITES: list[tuple[str, str, ps.SchemaBlock]] = []
for _path in FILES:
    _schemas = ps.load(_path)
    for _address in _schemas.providers():
        SITES.extend(("resource", t, s) for t in _schemas.resource_types(_address)
                     if (s := _schemas.resource(_address, t)) is not None)
        SITES.extend(("data", t, s) for t in _schemas.data_source_types(_address)
                     if (s := _schemas.data_source(_address, t)) is not None)

JUNK = [None, 0, 7, 2.5, -1, "", "x", "7", "true", "${var.x}", "%{ if a }b%{ endif }", True, False, [], [None],
        ["a", 1], [[1]], [Pairs()], Pairs(), Pairs([("a", "b")]), Pairs([("k", Pairs())])]
PRIMITIVE = {
    "string": ["x", "", "${var.a}", 1, 2.5, True, None],
    "number": [0, 7, 2.5, "7", " 8 ", "${var.n}", None, "seven"],
    "bool": [True, False, "true", "0", None, "yes"],
}


def typed_value(cty, depth: int = 0) -> st.SearchStrategy:
    """Values of type `cty` (mostly ones it takes, now and then a wrong one)."""
    junk = st.sampled_from(JUNK)
    if isinstance(cty, str):
        return st.one_of(st.sampled_from(PRIMITIVE.get(cty, JUNK)), junk) if cty in PRIMITIVE else junk
    if not isinstance(cty, list) or len(cty) < 2 or depth > 2:
        return junk
    outer, of = cty[0], cty[1]
    if outer in ("list", "set"):
        good = st.lists(typed_value(of, depth + 1), max_size=3)
    elif outer == "map":
        good = st.lists(st.tuples(st.sampled_from(["a", "b", "Name"]), typed_value(of, depth + 1)), max_size=3).map(Pairs)
    elif outer == "object" and isinstance(of, dict) and of:
        good = st.lists(st.sampled_from(sorted(of)).flatmap(lambda k: st.tuples(st.just(k), typed_value(of[k], depth + 1))),
                        max_size=4).map(Pairs)
    elif outer == "tuple" and isinstance(of, list):
        good = st.tuples(*(typed_value(t, depth + 1) for t in of)).map(list)
    else:
        return junk
    return st.one_of(good, good, junk)


@st.composite
def body(draw, schema: ps.SchemaBlock, top: str | None, depth: int = 0) -> Pairs:
    """A body of `schema` (`top`: the block type of a top-level body, else a nested one)."""
    attributes = sorted(schema.attributes)
    blocks = sorted(schema.block_types)
    members: list[tuple[str, object]] = []
    if draw(st.integers(0, 3)):  # mostly: every required attribute and the blocks a minimum asks for
        members.extend((n, draw(typed_value(a.cty))) for n, a in schema.attributes.items() if a.required)
        for n, bt in schema.block_types.items():
            for _ in range(bt.min_items or 0):
                members.append((n, draw(body(bt.block, None, depth + 1)) if depth < 2 else Pairs()))
    names = [*attributes, *blocks, "//", "not_a_name", (attributes or ["x"])[0] + "x"]
    if top is not None:
        names += ["count", "depends_on", "provider", "lifecycle", "provisioner", "dynamic", "connection", "for_each"]
    for name in draw(st.lists(st.sampled_from(names), max_size=8)):
        a = schema.attributes.get(name)
        bt = schema.block_types.get(name)
        if a is not None:
            value = draw(typed_value(a.cty))
        elif bt is not None and depth < 2:
            one = body(bt.block, None, depth + 1)
            value = draw(st.one_of(one, st.lists(one, max_size=2), st.sampled_from(JUNK)))
        elif name == "lifecycle":
            ignored = st.lists(st.sampled_from([*attributes[:3], *blocks[:2], "nope", "tags.x", "${var.a}", 1]), max_size=3)
            value = Pairs(draw(st.lists(st.one_of(
                st.tuples(st.just("ignore_changes"), st.one_of(ignored, st.sampled_from(["all", None]))),
                st.tuples(st.just("postcondition"), st.just(Pairs([("condition", "${self.id != \"\"}")]))),
                st.tuples(st.just("create_before_destroy"), st.booleans()),
            ), max_size=2)))
        elif name == "provisioner":
            value = Pairs([("local-exec", Pairs([("command", "echo ${self.nope}")]))])
        elif name == "dynamic":
            value = Pairs([((blocks or ["x"])[0], Pairs([("for_each", "${var.l}"), ("content", Pairs())]))])
        else:
            value = draw(st.sampled_from(JUNK))
        members.append((name, value))
    return Pairs(draw(st.permutations(members)) if len(members) < 8 else members)


@st.composite
def site_and_body(draw):
    block_type, type_name, schema = draw(st.sampled_from(SITES))
    return block_type, type_name, schema, draw(body(schema, block_type))


def rules_find_nothing(block_type: str, schema: ps.SchemaBlock, value: Pairs) -> bool:
    try:
        return not pr.schema_findings(VALUES, block_type, value, schema, "this block")
    except Unanswerable:
        return False


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(site_and_body())
def test_the_quiet_test_never_says_nothing_where_a_rule_finds_something(case) -> None:
    block_type, type_name, schema, value = case
    quiet = pr.quiet_test(block_type, schema)
    assert quiet is not None
    if quiet(value):
        assert rules_find_nothing(block_type, schema, value), (block_type, type_name, value)


def test_it_answers_for_the_bodies_it_is_made_for() -> None:
    """Every resource body of the bench document (real AWS types, comments, `count`, `depends_on`,
    `lifecycle.ignore_changes`, nested blocks, lists of objects): nothing to find, and the test says so."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import bench_schemas  # lazy: the bench directory is not a package on the test path
    finally:
        sys.path.pop(0)
    from hcljson_ls.hcljson.skim import _DECODER  # lazy: the scanner the quick open reads values with

    aws = ps.load(shared_data.AWS_SCHEMA)
    document = dict(_DECODER.decode(bench_schemas.make_aws(60_000)))
    bodies = [(t, b) for t, named in document["resource"] for _, b in named]
    assert len({t for t, _ in bodies}) >= 5
    for type_name, value in bodies:
        schema = aws.resource(bench_schemas.AWS, type_name)
        assert schema is not None and rules_find_nothing("resource", schema, value)
        assert pr.quiet_test("resource", schema)(value), (type_name, value)  # type: ignore[misc]


def test_no_test_for_a_registry_it_was_not_written_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule added to `SCHEMA_RULES` is not covered by the compiled test: there is none, and the quick
    open runs the rules."""
    block_type, _, schema = next(s for s in SITES if s[0] == "resource")
    assert pr.quiet_test(block_type, schema) is not None
    monkeypatch.setattr(pr, "SCHEMA_RULES", [*pr.SCHEMA_RULES, lambda view, bt, body, schema, where: []])
    assert pr.quiet_test(block_type, schema) is None
