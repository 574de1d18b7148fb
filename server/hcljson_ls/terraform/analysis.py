"""The Terraform analysis of one file: decode, Terraform rules, strings by mode -- the one place
it is computed, incrementally across edits.

    file_engine(path) -> IncrementalFile          one per open document, kept across its versions
    analyze_file(text, root, path=None) -> FileResult     the same from scratch
    TerraformChecks(override)                   the Terraform layer's part (`hcljson.incremental.FileChecks`)

`FileResult` (`hcljson.incremental`) has `body` (a `FileView` of the decoded root body), `structure`
(decoder and Terraform rule diagnostics, `structure/...`), `strings` (templates, references and
type constraints: `template/...`, `type/...`, `reference/...`), `resolved` (what references mean:
`resolve`'s `reference/...` codes) and `definitions()` (what the file declares, for the rules
across the files of a module: `validate.definitions` keys). `body.refs_at(offset)` and
`body.refs(key)` give the references themselves (`terraform.references`); `named()` the keys of
what they refer to (`references.subject`, as `references.index` counts them for files not open).

Contract
--------
* Per top-level block: `hcljson.decode.decode_top`, then `validate.block_diagnostics` (rules of the
  block and its nested blocks), `templates.check_block` (its strings by schema mode) and
  `validate.definitions` (what it defines); across blocks, `validate.duplicates` (not in override
  files). The engine (`hcljson.incremental.IncrementalFile`) keeps these per block, relative to the
  block's body, so an edit inside one block costs that block, not the file.
* The owner of a document (`workspace.document.DocumentState`) keeps one engine per document, tells
  it every edit (`note_edit`) and calls `update(text_buffer, root)` once per version; if a bug makes
  `update` raise, the owner calls `reset()` so the next version starts afresh.
* The schema follows the file's path (override files: `schema.is_json_override_file`).
* The language (engine and version) is the module's (`resolve.module_language`): each block's
  `language.LanguageSite`s (versioned names, a `required_version`) come last in its refs and are
  checked in `resolve` against it, with the key `language.LANGUAGE_CHANGED` in the block's `uses`,
  so a constraint changing in any file or the `engineVersion` setting re-checks exactly those blocks.
  Not under OpenTofu: nothing inside a block Terraform reserves without reading it (a module
  call's `lifecycle`, `language.RESERVED_BLOCKS`) is reported or resolved (`decoded` drops the
  decoder's diagnostics there too); the language check reports the block's name.
  Also here: `addresses.address_rules` (moved/import/removed), backend templates under OpenTofu
  (evaluated early: no "taken literally" warning). (A `validation.error_message` template that does
  not parse is one warning, `templates.check_block`'s `template/invalid-error-message`.)
* A `count` or `for_each` that is an input variable: a `repetition_sites.RepetitionSite` after the
  block's references, checked in `resolve` against the variable's type; a template string that
  reads input variables and computes something: a `typed_sites.TypedSite` among the references,
  evaluated again in `resolve` with the variables' types. Neither in override files.
* Module calls: each `module` block's `module_calls.CallSite` comes after its schema sites and before
  its language sites, and is checked in `resolve` against the child's variables
  (`Scope.module_inputs`) and, when the scope has `module_providers`, against the child's provider
  configurations with this module's side (`provider_passing`).
"""

from __future__ import annotations

from typing import Any

from ..diagnostic import Diagnostic
from ..hcljson.incremental import FileChecks, FileResult, IncrementalFile
from ..hcljson.model import Attribute, Block
from ..jsonsyntax.tree import Node
from .definition import catalogue
from .definition.catalogue import is_opentofu_file
from .definition.language import FEATURES, LANGUAGE_CHANGED, RESERVED_BLOCKS, LanguageSite, constraint_keys, language_sites
from .definition.language import check_sites as check_language
from .definition.schema import is_json_override_file, schema_for_path
from .expressions.templates import check_block, check_root
from .filekinds.mockfile import MOCK_SCHEMA, is_mock_file
from .filekinds.queryfile import QUERY_SCHEMA, QueryChecks, is_query_file
from .filekinds.testfile import TEST_SCHEMA, TestFileChecks, is_test_file
from .filekinds.tfvars import TFVARS_SCHEMA, is_tfvars
from .resolution.addresses import address_rules
from .resolution.argument_sites import ArgumentSite
from .resolution.module_calls import CallSite, call_sites, check_calls
from .resolution.provider_passing import CONFIGURED, caller_providers
from .resolution.reference_walk import block_references, references_and_sites
from .resolution.references import Reference, subject
from .resolution.repetition_sites import repetition_sites
from .resolution.resolve import (  # the requirement readers live with the scope; named here too
    SCHEMAS_CHANGED,
    Scope,
    affected,
    module_language,
    provider_sources,
    required_providers,
    resolve,
)
from .rules.conditions import condition_rules
from .rules.const_sources import check_const_sources
from .rules.provider_rules import SchemaSite, check_sites, schema_sites
from .rules.remote_state import remote_state_sites
from .rules.validate import TEMPLATE_IN_LITERAL, block_diagnostics, definitions, duplicates, duplicates_steps
from .schemas.provider_schema import TERRAFORM

__all__ = ["file_engine", "analyze_file", "TerraformChecks", "provider_sources", "required_providers"]

#: The refs that are blocks to check rather than references (after a block's references).
_SITES = (SchemaSite, CallSite)
#: What every resolution of a block with a schema site uses: the module's provider schemas.
_SCHEMAS_USED = frozenset({SCHEMAS_CHANGED})
#: Blocks whose addresses `addresses.address_rules` checks.
_ADDRESSED = catalogue.ADDRESS_BLOCKS
#: What every resolution of a block with a language site uses: the module's chosen language.
_LANGUAGE_USED = frozenset({LANGUAGE_CHANGED})


def _range(d: Diagnostic) -> tuple[int, int]:
    return (d.start, d.end)


class TerraformChecks(FileChecks):
    """Terraform's rules and string checks per top-level block; duplicates across blocks; each
    block's references (`reference_walk`), resolved against the file's own declarations and
    `scope`, what the other files of the module declare (`resolve`; None: the file alone)."""

    __slots__ = ("override", "scope", "tofu_file", "engine_hint", "_own_requirements")

    def __init__(self, override: bool = False, scope: Scope | None = None, tofu_file: bool = False,
                 engine_hint: str | None = None) -> None:
        self.override = override
        self.engine_hint = engine_hint  # the engine when there is no scope (the quick open's small documents)
        self.scope = scope
        self.tofu_file = tofu_file  # a `.tofu.json` file: its `required_version` is OpenTofu's
        self._own_requirements: tuple = (None, frozenset())

    def _requirements(self, own: frozenset) -> frozenset:
        """`own`'s `provider-requirement` keys, picked out once per `own` (one object for every block
        of an update), not once per resource block: that scan was 0.41 s of the open of a 2 MB
        document of 2,300 resource blocks with the AWS schema (bench/bench_schemas.py)."""
        if self._own_requirements[0] is not own:
            self._own_requirements = (own, frozenset(k for k in own if k[0] == "provider-requirement"))
        return self._own_requirements[1]

    def engine(self) -> str | None:
        """The engine reading the file's module (None: unknown, the file alone)."""
        return self.scope.engine if self.scope is not None else self.engine_hint

    def block(self, text: str, block: Block):
        return self.blocks(text, [block])[0]

    def blocks(self, text: str, blocks):
        # One kind of check over every block, then the next (see `FileChecks.blocks`).
        rules = [block_diagnostics(b, text, self.override) for b in blocks]
        if not self.override:  # an override file's addresses and conditions merge into blocks of other files
            for r, b in zip(rules, blocks):
                if b.type_name in _ADDRESSED:
                    r.extend(address_rules(b, text))
                r.extend(condition_rules(text, b))
        if self.engine() == "opentofu":  # OpenTofu 1.8+ evaluates variables and locals in backend settings
            rules = [[d for d in r if not _early_evaluated(d, b)] if b.type_name == "terraform" else r
                     for r, b in zip(rules, blocks)]
        strings = [check_block(text, b) for b in blocks]
        tofu = self.tofu_file
        defs = [[] for _ in blocks] if self.override else [definitions(b, text) + constraint_keys(b, text, tofu) for b in blocks]
        # Per block: its references and calls, then the sites checked once more is known.
        refs: list[list[Any]] = [(block_references if self.override else references_and_sites)(text, b) for b in blocks]
        engine = self.engine()
        for i, b in enumerate(blocks):  # nothing in a block the engine reserves is read
            spans = _reserved_spans(b, engine)
            if spans:
                rules[i], strings[i], refs[i] = (_outside(rules[i], spans), _outside(strings[i], spans),
                                                 _outside(refs[i], spans))
        for facts, b in zip(refs, blocks):
            if not self.override:  # an override file's resource bodies are partial: never checked alone
                facts.extend(repetition_sites(b, text))
                facts.extend(schema_sites(b))
                facts.extend(call_sites(b))
            facts.extend(language_sites(b, text, tofu))  # last: `resolve` finds them from the end
            if b.type_name == "data":
                facts.extend(remote_state_sites(b, text))  # (language sites too)
        return list(zip(rules, strings, defs, refs))

    def decoded(self, block: Block, found: list[Diagnostic]) -> list[Diagnostic]:
        spans = _reserved_spans(block, self.engine())
        return _outside(found, spans) if spans else found

    def let_go(self, refs) -> None:
        for r in refs:
            if type(r) is SchemaSite:
                r.release()  # decoded again from the tree when resolved (`SchemaSite.block_in`)

    def resolve(self, refs, own: frozenset, text):
        # Override files are merged into declarations made elsewhere: their names are not theirs to check.
        scope = None if self.override else self.scope
        language: list[Diagnostic] = []
        used_language = False
        if refs and type(refs[-1]) is LanguageSite:
            sites = [r for r in refs if type(r) is LanguageSite]
            refs = [r for r in refs if type(r) is not LanguageSite]
            if self.scope is not None:
                # Override files too: what they write must exist in the module's language.
                language = check_language(sites, module_language(own, self.scope))
                used_language = True
        out, uses = self._resolve(refs, own, scope, text)
        if refs and type(refs[-1]) in _SITES:
            for r in refs:
                if type(r) is SchemaSite:
                    r.release()  # resolved once with its decoded block: decoded again when resolved again
        if not used_language:
            return out, uses
        if language:
            out = sorted([*out, *language], key=_range)
        return out, uses | _LANGUAGE_USED

    def _resolve(self, refs, own: frozenset, scope, text):
        if not refs or type(refs[-1]) not in _SITES:  # the sites come last (before the language sites)
            return resolve(refs, own, scope)
        calls = [r for r in refs if type(r) is CallSite]
        sites = [r for r in refs if type(r) is SchemaSite]
        out, uses = resolve([r for r in refs if type(r) not in _SITES], own, scope)
        arguments: list[ArgumentSite] = []  # (values of arguments checked against their types: `argument_sites`)
        if calls:
            inputs = getattr(scope, "module_inputs", None)  # a scope of the protocol before module calls: none
            if inputs is not None:
                providers = getattr(scope, "module_providers", None)
                engine = scope.engine or TERRAFORM
                caller = None
                if providers is not None:
                    caller = caller_providers([*own, *scope.keys("provider-requirement"), *scope.keys(CONFIGURED)],
                                              required_providers(self._requirements(own), scope), engine)
                found, used = check_calls(calls, text, lambda name: inputs(name, own),
                                          None if providers is None else lambda name: providers(name, own), caller, engine,
                                          arguments)
                out.extend(found)
                uses = uses | used
            if scope is not None:
                found, used = check_const_sources([c.current for c in calls], text, module_language(own, scope), own, scope)
                out.extend(found)
                uses = uses | used | _LANGUAGE_USED
            if not sites:
                return _with_arguments(out, uses, arguments, own, scope)
        schemas = scope.provider_schemas if scope is not None else None
        if schemas is None:
            return _with_arguments(out, uses | _SCHEMAS_USED, arguments, own, scope)
        found, used = check_sites(sites, schemas, text, required_providers(self._requirements(own), scope), scope.engine or TERRAFORM,
                                  lambda configuration: _used(configuration, own, scope), arguments)
        out.extend(found)
        out, uses = _with_arguments(out, uses, arguments, own, scope)
        return out, uses | _SCHEMAS_USED | used

    def affected(self, changed: frozenset) -> frozenset:
        return affected(changed)

    def names(self, refs):
        # What `references.index` and `DeclarationIndex.reference_sites` count: a reference's subject.
        return [found[0] for r in refs if type(r) is Reference and (found := subject(r)) is not None and found[1]]

    def root(self, text: str, attributes: tuple[Attribute, ...]) -> tuple[list[Diagnostic], list[Diagnostic]]:
        return [], check_root(text, attributes)

    def cross(self, keys, place, text) -> list[Diagnostic]:
        return [] if self.override else duplicates(keys, place, text)

    def cross_steps(self, keys, place, every: int, text):
        if self.override:
            return []
        return (yield from duplicates_steps(keys, place, every, text))


def _with_arguments(out: list[Diagnostic], uses: frozenset, arguments: list[ArgumentSite], own: frozenset,
                    scope: Scope | None) -> tuple[list[Diagnostic], frozenset]:
    """`out` with the diagnostics of `arguments` (`argument_sites`: module inputs and schema
    arguments) resolved against `own` and `scope`, sorted by place; `uses` with what they read."""
    if arguments:
        found, more = resolve(arguments, own, scope)
        out.extend(found)
        uses = uses | more
    out.sort(key=_range)
    return out, uses


def _reserved_spans(block: Block, engine: str | None) -> list[tuple[int, int]]:
    """The bodies of the nested blocks of `block` that `engine` (None: Terraform's) reserves without
    reading them: `language.RESERVED_BLOCKS` that no release of the engine has (a module call's
    `lifecycle` in Terraform; its `locals` and `provider` in both). Their names are reported by the
    language check (`language/other-engine`, `structure/reserved-block`)."""
    engine = engine or TERRAFORM
    return [(n.body.start, n.body.end) for n in block.body.blocks
            if (path := (block.type_name, n.type_name)) in RESERVED_BLOCKS and engine not in FEATURES[path].since]


def _outside(found: list, spans: list[tuple[int, int]]) -> list:
    """The diagnostics or references of `found` that start outside every span."""
    return [x for x in found if not any(s <= x.start < e for s, e in spans)]


def _early_evaluated(d: Diagnostic, block: Block) -> bool:
    """A template-in-literal warning inside `terraform.backend`, which OpenTofu evaluates."""
    if d.code != TEMPLATE_IN_LITERAL:
        return False
    return any(nested.start <= d.start < nested.end for nested in block.body.blocks_of("backend"))


def file_engine(path: str | None, scope: Scope | None = None, engine_hint: str | None = None) -> IncrementalFile:
    """A fresh engine for the file at `path` (its name picks the schema and the override rules);
    `scope` answers for the other files of its module (see `TerraformChecks`). A variable definitions
    file (`tfvars.is_tfvars`) is decoded as one attribute per variable without Terraform's rules; a
    test file (`testfile.is_test_file`) and a mock data file (`mockfile.is_mock_file`) with their own
    schema and rules (`testfile.TestFileChecks`: their references are resolved against the module
    under test on request, `testfile_references.check_references`); a query file (`queryfile.is_query_file`)
    with its own schema, rules and references (`queryfile.QueryChecks`, against `scope`)."""
    if is_tfvars(path):
        return IncrementalFile(TFVARS_SCHEMA, FileChecks())
    if is_test_file(path):
        return IncrementalFile(TEST_SCHEMA, TestFileChecks())
    if is_mock_file(path):
        return IncrementalFile(MOCK_SCHEMA, TestFileChecks())
    if is_query_file(path):
        return IncrementalFile(QUERY_SCHEMA, QueryChecks(scope))
    override = bool(path) and is_json_override_file(path)  # type: ignore[arg-type]
    return IncrementalFile(schema_for_path(path), TerraformChecks(override, scope, bool(path) and is_opentofu_file(path), engine_hint))  # type: ignore[arg-type]


def analyze_file(text: str, root: Node | None, path: str | None = None) -> FileResult:
    """The analysis of `text` (JSON tree `root`) for a file at `path`, from scratch."""
    return file_engine(path).update(text, root)


def _used(configuration: tuple, own: frozenset, scope: Any) -> bool:
    """Whether something uses provider configuration `configuration` (`provider_lookup.
    configuration_used`): a resource of this file or of another file of the module, or a child
    module inheriting it (`Scope.passes_down`, when the scope knows the module's calls)."""
    if configuration in own or scope.declared(configuration):
        return True
    passes_down = getattr(scope, "passes_down", None)
    return passes_down is not None and passes_down(configuration, own)
