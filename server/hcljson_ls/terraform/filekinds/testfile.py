"""Terraform/OpenTofu test files in JSON (`*.tftest.json`, `*.tofutest.json`): their schema and their
own rules (their references: `testfile_references`).

    is_test_file(name) -> bool                        a test file, by name (any case): `catalogue.TEST_JSON`
    is_own_kind(name) -> bool                         a test, mock data or query file (own schemas, no quick open)
    TEST_SCHEMA                                       the root body of a test file
    OVERRIDE_RESOURCE, OVERRIDE_DATA, OVERRIDE_MODULE  override blocks (also in mock files, `mockfile`)
    TestFileChecks()                                  the analysis' part (`hcljson.incremental.FileChecks`)
    version_problems(text, blocks, language)          syntax newer than the version that reads the file

Contract
--------
* The schema is the one Terraform's `internal/configs/test_file.go` and `mock_provider.go` decode
  (the union with OpenTofu's: `mock_provider.for_each`): top-level `run "<name>"`, `variables`,
  `variable "<name>"` (1.13), `provider "<name>"`, `mock_provider "<name>"`, `override_resource`,
  `override_data`, `override_module` and `test`; a `run` has `command`, `providers`,
  `expect_failures`, `state_key`, `parallel`, `skip_cleanup` and the blocks `plan_options`,
  `assert`, `variables`, `module`, `override_*` and `backend "<type>"`. Anything else is unknown,
  as in a configuration file (`structure/unknown-...`).
* Modes: `command`, `plan_options.mode`, `override_during` and override `target`s are keywords or
  static addresses (traversal strings); `expect_failures`, `plan_options.replace`/`target` lists of
  addresses; `providers` a map of provider addresses; `module.source`/`version`,
  `mock_provider.alias`/`source` literal strings; `parallel`, `skip_cleanup`, `refresh` literal;
  `assert`, `variables` and override values are expressions.
* Rules of one block (`TestFileChecks`, `structure/...` codes of the configuration rules where the
  rule is the same): keywords (`command`: apply or plan; `mode`: normal or refresh-only;
  `override_during`: plan or apply) -> `structure/invalid-keyword`; run, mock provider and variable
  names -> `structure/invalid-name`; two runs, file variables, or (in a mock data file) mock blocks of
  one name -> `structure/duplicate-block`; `skip_cleanup` (in a run or the `test` block), which only
  experimental builds of Terraform accept -> `test/experimental-only`; a `backend` block in a run
  whose `command` is `plan` -> `test/backend-in-plan`. Strings are checked by their mode
  (`templates.check_block`).
  Nothing is declared for the module (a test file is none of its files).
* What the file's references mean: `testfile_references`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.incremental import FileChecks
from ...hcljson.model import Attribute, Block
from ...hcljson.schema import (
    EXPRESSION,
    LITERAL,
    LITERAL_STRING,
    TRAVERSAL,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
    BlockSchema,
    BodySchema,
)
from ...hcljson.schema import AttributeSchema as A
from ...hcljson.values import string_text
from ...jsonsyntax.tree import STRING
from ..definition import catalogue
from ..definition.language import Language, check_sites, test_file_sites
from ..definition.schema import PROVIDER, VARIABLE
from ..expressions.templates import check_block
from ..rules.conditions import condition_rules
from ..rules.validate import _invalid_name, _Validator, duplicates, valid_identifier

__all__ = [
    "TEST_SCHEMA", "OVERRIDE_RESOURCE", "OVERRIDE_DATA", "OVERRIDE_MODULE", "OVERRIDE_DURING", "MOCK_RESOURCE", "MOCK_DATA",
    "TestFileChecks", "is_test_file", "is_own_kind", "keyword_problems", "name_problem", "block_rules",
    "EXPERIMENTAL_ONLY", "BACKEND_IN_PLAN", "version_problems",
]

EXPERIMENTAL_ONLY = "test/experimental-only"
BACKEND_IN_PLAN = "test/backend-in-plan"


def is_test_file(name: str | None) -> bool:
    """True for a JSON test file name, path or URI (`x.tftest.json`, `x.tofutest.json`; any case)."""
    return bool(name) and catalogue.file_kind(name, ignore_case=True) == catalogue.TEST_JSON  # type: ignore[arg-type]


def is_own_kind(name: str | None) -> bool:
    """True for the files with a schema of their own besides tfvars: test, mock data and query files."""
    return name is not None and name != "" and catalogue.file_kind(name, ignore_case=True) in _OWN_KINDS


_OWN_KINDS = frozenset({catalogue.TEST_JSON, catalogue.MOCK_JSON, catalogue.QUERY_JSON})


# ---- the schema ---------------------------------------------------------------------------------

OVERRIDE_DURING = A("override_during", False, TRAVERSAL,
                    "When the values are used: `\"apply\"` (default: the plan sees unknown values) or `\"plan\"`.")
# Terraform checks `target` itself and reports its absence at the block's definition: the body's `{`.
_TARGET = A("target", True, TRAVERSAL, "The address overridden, such as `\"aws_instance.web\"`, without `${}`.", missing_at_open=True)


def _override(type_name: str, values: str, what: str) -> BlockSchema:
    return BlockSchema(
        type_name, (),
        BodySchema.of(attributes=[_TARGET, A(values, False, EXPRESSION, f"The {values} {what} gets instead (others are generated)."),
                                  OVERRIDE_DURING]),
        f"Values {what} takes in the test instead of the real ones.",
    )


OVERRIDE_RESOURCE = _override("override_resource", "values", "a resource")
OVERRIDE_DATA = _override("override_data", "values", "a data source")
OVERRIDE_MODULE = _override("override_module", "outputs", "a module call")
_OVERRIDES = (OVERRIDE_RESOURCE, OVERRIDE_DATA, OVERRIDE_MODULE)


def mock_block(type_name: str, what: str) -> BlockSchema:
    """`mock_resource "<type>"` / `mock_data "<type>"`: default values for every object of a type."""
    return BlockSchema(
        type_name, ("type",),
        BodySchema.of(attributes=[A("defaults", False, EXPRESSION, f"Values every {what} of this type gets (others are generated)."),
                                  OVERRIDE_DURING]),
        f"Default values for every {what} of a type the mock provider makes.",
    )


MOCK_RESOURCE = mock_block("mock_resource", "resource")
MOCK_DATA = mock_block("mock_data", "data source")

_RUN = BlockSchema(
    "run", ("name",),
    BodySchema.of(
        attributes=[
            A("command", False, TRAVERSAL, "`\"apply\"` (default) or `\"plan\"`: what the run does."),
            A("providers", False, TRAVERSAL_MAP, "The test file's provider configurations the module gets: `{\"aws\": \"aws.fake\"}`."),
            A("expect_failures", False, TRAVERSAL_LIST,
              "Checkable objects expected to fail: `\"var.x\"`, `\"output.y\"`, `\"check.z\"`, resources and data sources."),
            A("state_key", False, LITERAL_STRING, "The state file the run uses; runs with the same key share it (Terraform 1.11)."),
            A("parallel", False, LITERAL, "Whether the run may run in parallel with others (Terraform 1.12)."),
            A("skip_cleanup", False, LITERAL, "Keep what the run created at the end of the test (experimental)."),
        ],
        blocks=[
            BlockSchema("plan_options", (), BodySchema.of(attributes=[
                A("mode", False, TRAVERSAL, "`\"normal\"` (default) or `\"refresh-only\"`."),
                A("refresh", False, LITERAL, "Whether to refresh the state first (default true)."),
                A("replace", False, TRAVERSAL_LIST, "Resources to replace, as addresses without `${}`."),
                A("target", False, TRAVERSAL_LIST, "Resources to target, as addresses without `${}`."),
            ]), "Options of the plan the run makes.", max_items=1),
            BlockSchema("assert", (), BodySchema.of(attributes=[
                A("condition", True, EXPRESSION, "True when the run passes: may refer to the module's resources, outputs, variables and `run.<name>`."),
                A("error_message", True, EXPRESSION, "What the test reports when the condition is false."),
            ]), "A condition the run checks after its plan or apply."),
            BlockSchema("variables", (), BodySchema(dynamic_attributes=True),
                        "Values of the module's input variables for this run; may refer to `var` and earlier `run.<name>` outputs.",
                        max_items=1),
            BlockSchema("module", (), BodySchema.of(attributes=[
                # Required by a check of its own, at the block's definition (test_file.go: 'Missing "source"
                # attribute for module block', Terraform and OpenTofu).
                A("source", True, LITERAL_STRING, "The module the run tests instead of the one under test (a local or registry source).",
                  missing_at_open=True),
                A("version", False, LITERAL_STRING, "The version of a registry module."),
            ]), "Another module to run, such as a setup module.", max_items=1),
            *_OVERRIDES,
            BlockSchema("backend", ("type",), None, "A backend holding the run's state (Terraform 1.14)."),
        ],
    ),
    "A test run: a plan or apply of the module, with assertions.",
)

_MOCK_PROVIDER = BlockSchema(
    "mock_provider", ("name",),
    BodySchema.of(
        attributes=[
            A("alias", False, LITERAL_STRING, "A name for this configuration, referenced as `\"<name>.<alias>\"`."),
            A("source", False, LITERAL_STRING, "A directory of `.tfmock.json` / `.tfmock.hcl` files with more mock data (Terraform)."),
            OVERRIDE_DURING,
            A("for_each", False, EXPRESSION, "One mock provider per element (OpenTofu)."),
        ],
        blocks=[MOCK_RESOURCE, MOCK_DATA, OVERRIDE_RESOURCE, OVERRIDE_DATA],
    ),
    "A provider whose resources and data sources are mocked: nothing is created.",
)

TEST_SCHEMA = BodySchema.of(
    blocks=[
        _RUN,
        BlockSchema("variables", (), BodySchema(dynamic_attributes=True), "Values for the module's input variables in every run.",
                    max_items=1),
        BlockSchema("variable", VARIABLE.labels, VARIABLE.body, "A variable of the test file itself, referenced as `var.<name>` (Terraform 1.13)."),
        BlockSchema("provider", PROVIDER.labels, PROVIDER.body, "A provider configuration for the runs."),
        _MOCK_PROVIDER,
        *_OVERRIDES,
        BlockSchema("test", (), BodySchema.of(attributes=[
            A("parallel", False, LITERAL, "Whether the runs of the file may run in parallel (Terraform 1.12)."),
            A("skip_cleanup", False, LITERAL, "Keep what the runs created at the end of the test (experimental)."),
        ]), "Settings of the whole test file.", max_items=1),
    ],
    description="A Terraform test file: runs against the module of its directory (or the one above `tests/`).",
)

#: (block type, argument) -> the keywords it takes.
KEYWORDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("run", "command"): ("apply", "plan"),
    ("plan_options", "mode"): ("normal", "refresh-only"),
    **{(b, "override_during"): ("apply", "plan") for b in (
        "override_resource", "override_data", "override_module", "mock_provider", "mock_resource", "mock_data")},
}
#: Top-level blocks whose labels must be unique in the file (Terraform: Duplicate "run" block names,
#: Duplicate "variable" block names, Duplicate mock resource block, ...).
_UNIQUE = frozenset({"run", "variable", "mock_resource", "mock_data"})
#: Block type -> what its first label names (checked as an identifier).
NAMED = {"run": "run block name", "mock_provider": "provider name", "variable": "variable name", "list": "list block name"}


# ---- one block's rules ----------------------------------------------------------------------------

def keyword_problems(text: str, attr: Attribute, allowed: tuple[str, ...]) -> list[Diagnostic]:
    """`structure/invalid-keyword` when string argument `attr` is none of `allowed` (the
    configuration's rule and message: `validate`'s keyword check)."""
    check = _Validator(text, False)
    check.keyword(attr, allowed)
    return check.diags


def name_problem(block: Block) -> Diagnostic | None:
    """`structure/invalid-name` when the first label of a block `NAMED` lists is not an identifier
    (the configuration's rule and message, `validate`)."""
    what = NAMED.get(block.type_name)
    if what is None or not block.labels:
        return None
    label = block.labels[-1] if block.type_name == "list" else block.labels[0]
    return None if valid_identifier(label.value) else _invalid_name(label.start, label.end, label.value, what)


def block_rules(text: str, block: Block) -> list[Diagnostic]:
    """The rules of top-level `block` and its nested blocks: keywords and names (see the module doc)."""
    out: list[Diagnostic] = []
    stack = [block]
    while stack:
        b = stack.pop()
        found = name_problem(b)
        if found is not None:
            out.append(found)
        for a in b.body.attributes:
            allowed = KEYWORDS.get((b.type_name, a.name))
            if allowed is not None:
                out.extend(keyword_problems(text, a, allowed))
            elif a.name == "skip_cleanup" and b.type_name in ("run", "test") and b is block:
                out.append(Diagnostic(a.name_start, a.name_end, ERROR, EXPERIMENTAL_ONLY, "Invalid attribute",
                                      "The skip_cleanup attribute is only available in experimental builds of Terraform."))
        if b.type_name == "run" and b is block:
            out.extend(_backend_in_plan(text, b))
            out.extend(condition_rules(text, b))  # its asserts, decoded as the configuration's check rules
        stack.extend(b.body.blocks)
    return out


def _backend_in_plan(text: str, run: Block) -> list[Diagnostic]:
    """A `backend` block in a run whose `command` is `plan` (Terraform: "Invalid backend block")."""
    command = run.body.attribute("command")
    e = command.expr if command is not None else None
    if e is None or e.kind != STRING or string_text(text, e.node, e.start) != "plan":
        return []
    return [Diagnostic(b.type_start, b.type_end, ERROR, BACKEND_IN_PLAN, "Invalid backend block",
                       "A backend block can only be used in the first apply run block for a given internal state file. "
                       "It cannot be included in a block to run a plan command.") for b in run.body.blocks_of("backend")]


def version_problems(text: str, blocks: Sequence[Block], language: Language) -> list[Diagnostic]:
    """`language/newer-version` / `language/other-engine` for test file syntax that `language` (the
    module under test's, or OpenTofu's for a `.tofutest.json`) does not have (`language.FEATURES`
    under `TEST_FILE`: the `test` block, `run.parallel`, file-level `variable` blocks, ...)."""
    return check_sites([s for b in blocks for s in test_file_sites(b, text)], language)


class TestFileChecks(FileChecks):
    """A test, mock or query file's own rules and string checks per top-level block; it declares
    nothing for the module. References are resolved on request (`testfile_references.check_references`), against a
    module that is not the file's own."""

    __test__ = False  # not a pytest class

    def block(self, text: str, block: Block):
        named = block.type_name in _UNIQUE and len(block.labels) == len(block.schema.labels)
        defs = [((block.type_name, *block.label_values), *block.header_range)] if named else []
        return block_rules(text, block), check_block(text, block, evaluated=False), defs

    def cross(self, keys, place, text) -> list[Diagnostic]:
        # The configuration's rule (`validate.duplicates`); here a name's scope is the file.
        return [replace(d, detail=d.detail.replace("only once in a module", "only once in a file"))
                for d in duplicates(keys, place, text)]
