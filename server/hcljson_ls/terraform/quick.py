"""The diagnostics of a whole file on open, without its tree: the analysis of `terraform.analysis`
computed from the values the C `json` scanner builds, for the blocks that can be read that way.

    quick_file(text, path=None, scope=None) -> QuickResult | None

Why: opening a 5 MB generated file through the full path (JSON tree, decoded model, per-block
checks) costs ~0.65 s, almost all of it Python objects made once and visited once. Most blocks of
a generated file are resources and outputs of a few regular shapes: this module reads those from
`hcljson.skim` values (C), proves they have no diagnostic, and sends every other block through the
full analysis of a small document made of that block alone. The tree and the incremental state
are then built only when an edit or a request needs them (`workspace.document`).

Contract
--------
* A `QuickResult` has exactly the diagnostics the full path gives for the same text, path and
  scope (`features.diagnostics.own_diagnostics` of a fresh `DocumentState`: syntax, structure,
  strings, references with the provider schemas' checks, in that order, sorted by position) and
  the same definitions (keys in source order, places on demand); tests compare both on the corpus
  and on generated and mutated documents (tests/terraform/test_quick_corpus.py and
  test_quick_schemas.py).
  None means "not answered here": the caller takes the full path. It is None for text
  `hcljson.skim` refuses, and for tfvars, test and override files.
* A block is *certified* when it is a `resource`, `data` or `output` body whose labels are valid
  names (`validate.invalid_labels`, the full path's own rule) and for which every rule of
  `body_rules.BODY_RULES` (written once over `hcljson.view`, run here on the values) finds nothing
  and asks nothing the values cannot answer, and whose members are read as the decoder reads them (below);
  its references are then read from the values and resolved with the module's declarations
  (`resolve.resolve`), each key once, its refs placed from an offset of its own as the template
  parser places them (`_refs_of`). A certified block with a key that resolves with a diagnostic
  gets that key's diagnostics moved to the places its raw text writes the key (`_locate`: the
  strings that make them, as `json.dumps` writes them); when they cannot be placed for sure, the
  block is analysed like any other block instead. That placing is done when one of the block's
  diagnostics is first read (`diagnostic.Piece`: the result's diagnostics are then `Runs` of
  `Pieces`, a piece per such block, whose count, codes and severities are known without placing
  them); the same diagnostics either way. Any other block (and any member outside
  these shapes) is analysed by the full path on a document of its own, whose positions are mapped
  back: inside the block's value by a shift, on its header keys key by key.
* How members are read: no rule is written here. The names, which are required and each one's mode
  come from the decoder's schema of the block (`schema.RESOURCE`, `DATA`, `OUTPUT`: `_Reading`),
  leaving out the names whose existence `language.FEATURES` versions; a name the schema does not
  know is a provider-defined argument (an expression) where the body is open, else `_Unsure` (the
  decoder's diagnostic). By mode:
  - an expression (`count`, `for_each`, `value`, provider-defined arguments): any JSON value
    whose object keys are distinct and hold no template sequence, whose strings are templates
    without diagnostics (`templates.template_raw`, the strings check's own);
  - a literal string (an output's `description`): a value of `values.LITERAL_STRING_KINDS`, a
    string without `values.has_template_sequence` (both the decoder's rule, written once);
  - the boolean settings (an output's `sensitive`, a lifecycle's `create_before_destroy` and
    `prevent_destroy`): any value, judged by `boolean_settings.boolean_findings` (through the body
    rule `output_rules.boolean_findings` for an output); a template in `prevent_destroy` is an
    expression, which the rule says is `tree_only`, so such a block goes to the full analysis;
  - the other modes (a resource's `provider`, `depends_on`, `ignore_changes`): strings where the
    mode's table `schema.STRING_MODES` places them (the value, or the elements of an array), each
    judged by the full path's own test for its string mode (`_quiet_string`: a keyword of
    `validate.keywords_of`, a static reference by `templates.STATIC_REFERENCE`, the strings
    check's test for "nothing to report"); their references are the full path's reading of them
    (`reference_walk.string_refs`, the roles of `catalogue.ARGUMENT_REFERENCES`). A value of any
    other shape is the decoder's or `validate`'s to report: `_Unsure`.
  Nested blocks: only a resource's or data source's `lifecycle` is read here (`_nested`), by its
  own schema as above, when it is one object of distinct names; another shape (an array of
  blocks, a repeated name), a nested condition or action block, an argument whose rule reads the
  tree (`validate.TREE_ONLY`: `replace_triggered_by`), and every other nested block (`dynamic`,
  `provisioner`, `connection`: labels and content the decoder must see) send the block to the full
  analysis, as does a `terraform_remote_state` data source (`remote_state`'s rules read the tree).
  With the provider's schema loaded, `ignore_changes` names are judged by
  `provider_rules.unknown_ignored` (below).
* Provider schemas (`Scope.provider_schemas`): a resource or data block is certified only when
  `provider_rules.check_sites` has nothing to report for it. Its provider and schema are found as
  there (`provider_rules.block_schema`: the type's prefix or the `provider` meta-argument, the
  module's `required_providers`, this file's from its `terraform` blocks, analysed first; the
  engine); then either that provider's schema is not loaded (nothing is checked), or every rule of
  `provider_rules.SCHEMA_RULES` (written once over `hcljson.view`, run here on the values: the body
  against the schema, `ignore_changes` names, `self` names) finds nothing and asks nothing the
  values cannot answer (`_check_schema`). An unknown type of a loaded provider, a finding, and
  anything unanswerable send the block to the full analysis of its small document, whose schema
  sites are resolved as the full path resolves them (`TerraformChecks.resolve`, with the module's
  scope) and their diagnostics mapped back. No schema rule is written here. (A `provider` block is
  never certified: the full path reads it, `provider_rules.provider_config_findings` included.)
* `QuickResult.spans` (`terraform.around.Spans`): where the skim found each block, for the
  requests answered from the blocks around their offset before the tree is built (after a syntax
  error, the blocks before it, and where the broken rest starts). For an edit inside one block
  (`terraform.quick_edit`) it also keeps, per block, how it was read (`blocks`: `CERTIFIED`,
  `ANALYSED`, `LOCATED`) and where its definitions end
  (`block_ends`), whether a duplicate across blocks was reported, the `required_providers` used,
  and `declared`, which names the definitions' keys (kept by an edit that leaves them as they were).
* `quick_blocks(text, path, scope, skim, own, providers)` reads some blocks of a file alone with
  the same code (`_Quick.run`), resolved against `own`, the whole file's definitions: what
  `quick_file` gives inside those blocks, in its order, without the duplicates across blocks.
* Never raises on any text (a bug in it is the caller's to log; it then takes the full path).
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any

from ..diagnostic import Deferred, Diagnostic, Piece, Pieces, Runs, moved_unshared, start_of
from ..hcljson.incremental import structure_key
from ..hcljson.schema import (
    AT_ELEMENT,
    AT_ROOT,
    EXPRESSION,
    LITERAL_STRING,
    STRING_KEYWORD,
    STRING_MODES,
    STRING_NATIVE,
    STRING_TEMPLATE,
    STRING_TRAVERSAL,
    BlockSchema,
)
from ..hcljson.skim import Pairs, Skim, Skimmed, skim
from ..hcljson.values import LITERAL_STRING_KINDS, has_template_sequence
from ..hcljson.view import VALUES, Unanswerable, python_types
from ..jsonsyntax import parse
from ..template.lexer import IDENTIFIER_PATTERN
from ..text.offsets import Offsets
from .analysis import TerraformChecks, file_engine, required_providers
from .around import Spans
from .definition import catalogue
from .definition.catalogue import ARGUMENT_REFERENCES
from .definition.language import LanguageSite, versioned_names
from .definition.language import check_sites as check_language
from .definition.schema import DATA, OUTPUT, RESOURCE, is_json_override_file, schema_for_path
from .expressions.evaluate import typed_candidate
from .expressions.templates import STATIC_REFERENCE, template_raw
from .filekinds.testfile import is_own_kind, is_test_file
from .filekinds.tfvars import is_tfvars
from .resolution.argument_sites import argument_site, needs_site, type_text
from .resolution.module_calls import CallSite
from .resolution.reference_walk import string_refs
from .resolution.references import ADDRESS, DEPENDS_ON, IN_COUNT, IN_FOR_EACH, IN_TEXT, INSTANCED, REPETITION, Call, Reference, Step, repetition_key
from .resolution.repetition_sites import repetition_candidate, site_of
from .resolution.resolve import Scope, module_language, resolve
from .resolution.typed_sites import TypedSite
from .rules.body_rules import body_findings
from .rules.boolean_settings import BOOLEAN_SETTINGS, boolean_findings
from .rules.provider_rules import SchemaSite, block_schema, quiet_test, schema_findings, typed_arguments, where_of
from .rules.validate import DUPLICATE_CODES, TREE_ONLY, duplicates, implied_provider_problem, invalid_labels, keywords_of
from .schemas.provider_lookup import configuration_used
from .schemas.provider_schema import TERRAFORM

__all__ = ["QuickResult", "quick_blocks", "quick_file"]

_TEMPLATE = "template"
# A template whose sequences are all `${name.name...[0]...}`: its references read by a regex.
_NAME = IDENTIFIER_PATTERN
_TRAVERSAL = rf"{_NAME}(?:\.{_NAME}|\[[0-9]+\])*"
# (A run of plain characters, then each `$` or `%` that starts no sequence with the run after it:
# one character at a time, the alternation cost ~15% more on a CDKTF file's templates.)
_PLAIN_TEXT = r"[^$%\\]*(?:(?:\$(?![{$])|%(?![{%]))[^$%\\]*)*"
_SIMPLE = re.compile(rf"{_PLAIN_TEXT}(?:\$\{{(?!null\b){_TRAVERSAL}\}}{_PLAIN_TEXT})*")  # (`${null}`: the template's rules)
_INTERPOLATION = re.compile(rf"\$\{{({_TRAVERSAL})\}}")
_STEP = re.compile(rf"\.({_NAME})|\[[0-9]+\]")
_NAMES_ONLY = re.compile(rf"{_NAME}(?:\.{_NAME})*")
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')
_RESOURCE_LIKE = frozenset(catalogue.RESOURCE_AND_DATA)
_RESOURCE_MODES = frozenset(catalogue.RESOURCE_MODES)
#: A named tuple made without its `__new__` in Python (`Skimmed._replace` cost 4x more, a located block each).
_NEW_TUPLE = tuple.__new__
_KEYWORDS = frozenset({"null", "true", "false"})


class _Unsure(Exception):
    """This block needs the full analysis."""


class _NoAnswer(Exception):
    """A position of a block analysed alone cannot be mapped back: no quick result (`_Quick.run`)."""


class QuickResult:
    """The file's diagnostics (see the module doc) and its definitions, like
    `hcljson.incremental.FileResult.definitions`."""

    __slots__ = ("_keys", "_places", "analysed", "block_ends", "blocks", "certified", "declared", "diagnostics",
                 "duplicated", "located", "own", "providers", "spans")

    def __init__(self, diagnostics: Sequence[Diagnostic], keys: list[Hashable], places: Places,
                 certified: int, analysed: int, located: int = 0) -> None:
        self.diagnostics = diagnostics
        self._keys = keys
        self._places = places
        self.certified = certified  # blocks read from values
        self.analysed = analysed  # blocks sent through the full analysis
        self.located = located  # certified blocks whose references were placed in the raw text (`_locate`)
        self.spans: Spans | None = None  # where the skim found each block (`terraform.around`)
        # What a re-run after an edit inside one block reuses (`terraform.quick_edit`): per block,
        # how it was read (`CERTIFIED`, `ANALYSED`, `LOCATED`) and the end of its definitions among
        # `definitions()`; whether a duplicate was reported; the `required_providers` used.
        self.blocks = bytearray()
        self.block_ends = array("l")
        self.duplicated = False
        self.providers: dict | None = None
        # Names the definitions' keys (in order): shared by a result after an edit that kept them.
        self.declared: object = object()
        #: The definitions' keys as the set the references were resolved against: the same object
        #: in a result after an edit that kept them (`quick_edit`), so what the resolution keeps
        #: per set of keys (`resolve._candidates`, `module_language`) is found again by identity.
        self.own: frozenset | None = None

    def definitions(self) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        places = self._places
        return self._keys, places.__getitem__


class Places:
    """The places of a file's definitions, `places[i]` the `(start, end)` of the i-th: two ints a
    definition in one array (`flat`: start, end, start, end, ...), moved by an edit without
    rewriting it (`text.offsets`, `terraform.quick_edit`). The quick result is alive while the tree
    is built; a list of tuples cost ~120 B a definition (3.6 MB of 30,000 tiny outputs' peak), this
    16 B."""

    __slots__ = ("flat",)

    def __init__(self, flat: Offsets) -> None:
        self.flat = flat

    def __getitem__(self, i: int) -> tuple[int, int]:
        flat = self.flat
        return (flat[2 * i], flat[2 * i + 1])

    def __len__(self) -> int:
        return len(self.flat) // 2


#: How a block was read (`QuickResult.blocks`).
CERTIFIED, ANALYSED, LOCATED = 0, 1, 2


def quick_file(text: str, path: str | None = None, scope: Scope | None = None,
               leftovers: list | None = None) -> QuickResult | None:
    """See the module doc. With `leftovers`, the skimmed blocks (each with its decoded value, which
    the result does not keep) are appended to it instead of being freed on return, for a caller
    that frees them after answering, a few at a time (the server): freeing them is 10-13 ms of a
    5 MB open's ~160 ms."""
    if not quick_kind(path):
        return None
    schema = schema_for_path(path)
    found = skim(text, schema)
    if found is None:
        return None
    if leftovers is not None:
        leftovers.extend(found.blocks)
        if found.tail is not None:
            leftovers.append(found.tail)
    result = _Quick(text, path, scope, found).run()
    if result is not None:
        result.spans = Spans.of(found)
    return result


def quick_kind(path: str | None) -> bool:
    """Whether a file of this path has a quick open (not tfvars, test, override, mock or query files)."""
    return not (is_tfvars(path) or is_test_file(path) or (path and (is_json_override_file(path) or is_own_kind(path))))


def quick_blocks(text: str, path: str | None, scope: Scope | None, found: Skim, own: frozenset,
                 providers: dict | None) -> QuickResult | None:
    """The quick result of the blocks of `found` alone (some top-level blocks of `text`, no tail),
    read exactly as `quick_file` reads them, their references resolved against `own` (the whole
    file's definitions) and, with provider schemas, `providers` (the module's `required_providers`
    as `quick_file` found them): its diagnostics are those `quick_file` gives inside these blocks,
    in its order; no duplicate across blocks is looked for (`terraform.quick_edit`)."""
    return _Quick(text, path, scope, found, own, providers).run()


class _Quick:
    __slots__ = ("checks", "configurations", "own", "path", "providers", "repeats", "schemas", "scope", "skim", "strings", "text")

    def __init__(self, text: str, path: str | None, scope: Scope | None, found: Skim, own: frozenset | None = None,
                 providers: dict | None = None) -> None:
        self.text = text
        self.path = path
        self.scope = scope
        self.skim = found
        self.own = own  # the file's definitions, given: only some of its blocks are read (`quick_blocks`)
        self.providers = providers
        # The module's provider schemas (read once), and the full path's resolution of schema
        # sites for the blocks analysed on their own.
        self.schemas = getattr(scope, "provider_schemas", None) if scope is not None else None
        self.checks = TerraformChecks(False, scope) if scope is not None else None
        # Per certified block with templates, its template strings as `_certify` read them: (string, flags).
        self.strings: dict[int, list[tuple[str, int]]] = {}
        # Per block, the repetition arguments `_certify` found in its body (`IN_COUNT`, `IN_FOR_EACH`):
        # the instance keys `definitions` gives a certified block.
        self.repeats = bytearray(len(found.blocks))
        # Per certified resource-like block, the provider configuration it uses (`configuration_used`,
        # a definition of it as `validate.definitions` gives it); absent where it names none.
        self.configurations: dict[int, tuple] = {}

    def run(self) -> QuickResult | None:
        """The quick result of the skimmed blocks (and tail), or None when a position of a block
        analysed alone cannot be mapped back, in phases: the schema prelude (`prelude`), the
        certification of the blocks read from their values (`certify_blocks`), the full analysis of
        the others and of the tail (`analyse_uncertified`), the definitions, the resolution of the
        certified blocks' references by key (`resolve_keys`, `place_or_analyse`), and the
        diagnostics gathered in the full path's order (`gather`, `result`)."""
        blocks: Sequence[Skimmed] = self.skim.blocks
        certified = [True] * len(blocks)
        analysed: dict[int, tuple] = {}  # block (the tail is `len(self.skim.blocks)`) -> `analyse`'s answer
        try:
            providers = self.prelude(certified, analysed)
            users = self.certify_blocks(certified, providers)
            blocks = self.analyse_uncertified(certified, analysed)
            keys, places, ends = self.definitions(blocks, analysed)
            own = frozenset(keys) if self.own is None else self.own
            kept: frozenset | None = own  # what the result keeps as its keys' set (`QuickResult.own`)
            located: dict[int, Piece] = {}
            by_key = self.resolve_keys(users, own)
            if by_key:
                before = len(analysed)
                located = self.place_or_analyse(by_key, users, blocks, analysed, own)
                if len(analysed) != before:  # (a block analysed now may define more, or other, keys)
                    keys, places, ends = self.definitions(blocks, analysed)
                    kept = None if self.own is None else own  # (`own` is no longer these keys' set)
            twice = duplicates(keys, places.__getitem__, self.text) if self.own is None else []
            out = self.gather(analysed, located, own, twice)
        except _NoAnswer:
            return None
        if located:  # (the pieces keep this object: not the blocks' values, which they do not read)
            self.skim = Skim((), 0, 0)
            self.strings = {}
        result = QuickResult(out, keys, places, len(blocks) - len(analysed), len(analysed), len(located))
        result.own = kept
        status = result.blocks = bytearray(len(blocks))  # (`CERTIFIED` is 0)
        for i in analysed:
            status[i] = ANALYSED
        for i in located:
            status[i] = LOCATED
        result.block_ends = ends
        result.duplicated = bool(twice)
        result.providers = providers
        return result

    def prelude(self, certified: list[bool], analysed: dict[int, tuple]) -> dict | None:
        """With provider schemas, the `required_providers` each resource's provider is found with
        (as `check_sites` finds it): the module's, of which this file's are declared by its
        `terraform` blocks (never certified: marked so in `certified`) and perhaps its tail, both
        analysed first for that (into `analysed`). None without provider schemas."""
        if self.schemas is None:
            return None
        blocks = self.skim.blocks
        for i, b in enumerate(blocks):
            if b.type_name == "terraform":
                analysed[i] = self.must_analyse(b)
                certified[i] = False
        if self.skim.tail is not None:
            analysed[len(blocks)] = self.must_analyse(self.skim.tail, self.skim.openers)
        if self.own is not None:
            return self.providers or {}
        mine = frozenset(k for got in analysed.values() for k, _ in got[3] if k[0] == "provider-requirement")
        return required_providers(mine, self.scope)

    def certify_blocks(self, certified: list[bool], providers: dict | None) -> dict[tuple, list[int]]:
        """Each block still marked in `certified` certified (`_certify`, and `_check_schema` with
        provider schemas), or unmarked. What each certified block refers to, as position-free keys:
        key -> the blocks using it, so that a key is resolved once however many blocks use it
        (`local.name_prefix` in every resource of a CDKTF stack). The template strings of each
        certified block are kept in `strings`, for `_locate`."""
        users: dict[tuple, list[int]] = {}
        schemas = self.schemas
        if schemas is not None:
            engine = self.scope.engine or TERRAFORM  # type: ignore[union-attr]
            lookups: dict[tuple, Any] = {}
        for i, b in enumerate(self.skim.blocks):
            if not certified[i]:
                continue
            found: list[tuple] = []
            strings: list[tuple[str, int]] = []
            templated: list[tuple[str, str]] = []
            try:
                meta, self.repeats[i] = _certify(b, found, strings, templated)
                if b.type_name in _RESOURCE_MODES:
                    used = configuration_used(b.labels[0].value, meta)
                    if used is not None:
                        self.configurations[i] = used
                if schemas is not None and b.type_name in _RESOURCE_LIKE:
                    schema = _check_schema(b, meta, schemas, providers, engine, lookups)  # type: ignore[arg-type]
                    if schema is not None and templated:
                        _argument_keys(b, templated, schema, self.repeats[i], found)
            except _Unsure:
                certified[i] = False
                continue
            if strings:
                self.strings[i] = strings
            for key in found:
                listed = users.get(key)
                if listed is None:
                    users[key] = [i]
                else:
                    listed.append(i)
        return users

    def analyse_uncertified(self, certified: list[bool], analysed: dict[int, tuple]) -> Sequence[Skimmed]:
        """The full analysis of each block not certified and of the tail (after a syntax error: the
        rest of the text, analysed as one piece), unless the prelude did it: the blocks, the tail
        last."""
        blocks = self.skim.blocks
        for i, ok in enumerate(certified):
            if not ok and i not in analysed:
                analysed[i] = self.must_analyse(blocks[i])
        tail = self.skim.tail
        if tail is None:
            return blocks
        if len(blocks) not in analysed:
            analysed[len(blocks)] = self.must_analyse(tail, self.skim.openers)
        return (*blocks, tail)

    def resolve_keys(self, users: dict[tuple, list[int]], own: frozenset) -> dict[tuple, list]:
        """Each key of the certified blocks resolved once against `own`, its refs placed from an
        offset of its own (`_refs_of`): the keys that resolve with a diagnostic, each with
        `[offset, diagnostics there, placed]` (`_locate` moves them, and says when it did)."""
        by_key: dict[tuple, list] = {}
        if not users:
            return by_key
        order = list(users)
        refs: list = []
        starts: list[int] = []
        at = 0
        for key in order:
            starts.append(at)
            refs.extend(_refs_of(key, at))
            at += _span(key)
        problems, _ = resolve(refs, own, self.scope)
        for d in problems:  # (in the refs' order: the keys' order)
            p = bisect_right(starts, d.start) - 1
            got = by_key.get(order[p])
            if got is None:
                by_key[order[p]] = [starts[p], [d], False]
            else:
                got[1].append(d)
        return by_key

    def place_or_analyse(self, by_key: dict[tuple, list], users: dict[tuple, list[int]],
                         blocks: Sequence[Skimmed], analysed: dict[int, tuple], own: frozenset) -> dict[int, Piece]:
        """The certified blocks using a key of `by_key` (one that resolves with a diagnostic): the
        block analysed (into `analysed`) when one of its keys cannot be placed (not a template's),
        else a `Piece` of its diagnostics, made when first read (`_place`). Returns the pieces.

        Why a piece: placing a block's references in its raw text (`_locate`) was ~25% of the open
        of 5 MB with 24,750 undeclared references (0.14 s of 0.62 s in-process), of which a client is
        shown 1,000 (`diagnostics.maxPerCode`); what the others count is known without placing
        them: `users` lists a block once per reference to a key, and the key's diagnostics are
        placed once at each (`_locate`), so a block's count, codes and severities are those of its
        keys' diagnostics, once per use."""
        located: dict[int, Piece] = {}
        uses: dict[int, list[list[Diagnostic]]] = {}  # block -> its keys' diagnostics, once per use
        unplaceable: list[int] = []  # blocks with a key that cannot be placed (not a template's)
        whole: dict[int, set[tuple]] = {}  # block -> its whole-string keys with diagnostics (`_locate`)
        for key, entry in by_key.items():
            placeable = key[0] in _PLACEABLE
            found = entry[1]
            for i in users[key]:
                if i in analysed:
                    continue
                got = uses.get(i)
                if got is None:
                    uses[i] = [found]
                else:
                    got.append(found)
                if not placeable:
                    unplaceable.append(i)
                elif key[0] in _WHOLE_STRING_KEYS:
                    whole.setdefault(i, set()).add(key)
        count = len(self.skim.blocks)
        for i in [*unplaceable, *(i for i in uses if i >= count)]:  # (the tail is analysed already)
            if uses.pop(i, None) is not None:
                analysed[i] = self.must_analyse(blocks[i])
        for i, found in uses.items():
            b = blocks[i]
            kinds = {(d.code, d.severity) for ds in found for d in ds}
            severities: dict[str, set[str]] = {}
            for code, severity in kinds:
                severities.setdefault(code, set()).add(severity)
            # What `_locate` reads of the block: its value's range and its `"//"` member (one at
            # most: certified), usually its first.
            first = b.value[0]  # type: ignore[index]  # (a certified body is not empty)
            comment = first if first[0] == "//" else next((m for m in b.value if m[0] == "//"), None)  # type: ignore[attr-defined]
            light = _NEW_TUPLE(Skimmed, (*b[:6], Pairs(() if comment is None else (comment,))))
            # Its references lie in strings inside the value: within its braces, `[start + 1, end - 1]`
            # (not `end`: a search for the next block's diagnostics does not make the piece to know).
            located[i] = Piece(sum(map(len, found)), next(iter(severities)) if len(severities) == 1 else None,
                               severities, b.start + 1, b.end - 1,
                               partial(self._place, light, self.strings.get(i, ()), by_key, own, whole.get(i, ())))
        return located

    def _place(self, b: Skimmed, strings: Sequence[tuple[str, int]], by_key: dict[tuple, list],
               own: frozenset, whole: Collection[tuple] = ()) -> list[Diagnostic]:
        """The diagnostics of certified block `b` that uses keys of `by_key`, in the full path's
        order: placed where its raw text writes them (`_locate`), or else from its full analysis."""
        placed = _locate(self.text, b, by_key, strings, whole)
        if placed is None:
            got = self.analyse(b)
            if got is None:
                raise RuntimeError("a certified block's analysis cannot be placed")
            return list(self.gather({0: got}, {}, own, []))
        placed.sort(key=_range)
        return placed

    def gather(self, analysed: dict[int, tuple], located: dict[int, Piece], own: frozenset,
               twice: list[Diagnostic]) -> Sequence[Diagnostic]:
        """The file's diagnostics in the full path's order: syntax, structure (with `twice`, the
        duplicates across blocks), strings, then the references (the located blocks', and the
        analysed blocks' resolved against `own` with their schema sites), sorted by position. With
        located blocks, `Runs` of `Pieces` where each piece is one block's (`_pieced`)."""
        syntax: list[Diagnostic] = []
        structure: list[tuple[Diagnostic, int]] = []
        strings: list[Diagnostic] = []
        resolved: list[Diagnostic] = []
        for i in sorted(analysed):
            s, t, refs, _, x, sites = analysed[i]
            syntax.extend(x)
            structure.extend(s)
            strings.extend(t)
            if refs:
                lang = [r for r in refs if type(r) is LanguageSite]  # (a small document may hold several blocks)
                if lang:
                    refs = [r for r in refs if type(r) is not LanguageSite]
                    if self.scope is not None:
                        resolved.extend(check_language(lang, module_language(own, self.scope)))
                found, _ = resolve(refs, own, self.scope)
                resolved.extend(found)
            if sites is not None:  # the schema checks of the full path, on the small document
                sub, move, refs = sites
                found, _ = self.checks.resolve(refs, own, sub)  # type: ignore[union-attr]
                try:
                    resolved.extend(_moved(d, move) for d in found)
                except _Unsure:
                    raise _NoAnswer from None
        structure.extend((d, _RULES) for d in twice)
        structure.sort(key=_by_structure_key)
        strings.sort(key=_range)
        resolved.sort(key=_range)
        out = syntax + [d for d, _ in structure] + strings + resolved
        out.sort(key=_range)
        return _pieced(out, located) if located else out

    def definitions(self, blocks: Sequence[Skimmed], analysed: dict) -> tuple[list, Places, array]:
        """The definitions' keys and places, and the end of each block's among them."""
        keys: list[Hashable] = []
        flat: list[int] = []  # (the places' ints, made an array once: `Places.append` a definition
        ends: list[int] = []  # was ~15% of this, 10,000 of them in 5 MB)
        for i, b in enumerate(blocks):
            got = analysed.get(i)
            if got is None:
                labels = b.labels
                lab = labels[-1]
                key = (b.type_name, labels[0].value) if len(labels) == 1 else (b.type_name, *[x.value for x in labels])
                keys.append(key)
                flat += (lab.start, lab.end)
                repeats = self.repeats[i]
                if repeats and b.type_name in INSTANCED:  # as `validate.definitions`: the instance keys it takes
                    for mode, flag in _REPETITION_FLAGS:
                        if repeats & flag:
                            keys.append(repetition_key(key, mode))
                            flat += (lab.start, lab.end)
                used = self.configurations.get(i)
                if used is not None:  # as `validate.definitions`: the provider configuration it uses
                    keys.append(used)
                    flat += (lab.start, lab.end)
            else:
                for k, p in got[3]:
                    keys.append(k)
                    flat += p
            ends.append(len(keys))
        return keys, Places(Offsets(array("q", flat))), array("l", ends)

    def must_analyse(self, b: Skimmed, openers: tuple[int, ...] = ()) -> tuple:
        """`analyse`'s answer for `b`, or `_NoAnswer` when it has none."""
        got = self.analyse(b, openers)
        if got is None:
            raise _NoAnswer
        return got

    def analyse(self, b: Skimmed, openers: tuple[int, ...] = ()) -> tuple | None:
        """The full analysis of block value `b` alone: (structure, strings, refs, definitions,
        syntax) at the document's positions, or None when a position cannot be mapped back. With
        `openers` (the positions of the `{` on the way to it), `b` is the skim's tail: its value
        runs to the end of the text, which closes the levels the small document opens."""
        text = self.text
        tail = bool(openers)
        parts = ["{"]
        marks: list[tuple[int, int, int]] = []  # (synthetic start, real start, length): the header keys
        brackets: list[tuple[int, int, int]] = []  # the same for the tail's `{` (after the keys: a
        if tail:                                   # key starting right after a `{` is the key's)
            brackets.append((0, openers[0], 1))
        at = 1
        heads = ((b.type_start, b.type_end), *((x.start, x.end) for x in b.labels))
        for n, (s, e) in enumerate(heads):
            raw = text[s:e]
            marks.append((at, s, e - s))
            parts.append(raw)
            at += len(raw)
            if n < len(b.labels):
                if tail:
                    brackets.append((at + 1, openers[n + 1], 1))
                parts.append(":{")
                at += 2
            else:
                parts.append(":")
                at += 1
        value = text[b.start : b.end]
        delta = b.start - at
        parts.append(value)
        if not tail:
            parts.append("}" * (len(b.labels) + 1))
        sub = "".join(parts)
        lo, hi = at, at + len(value)
        marks.extend(brackets)

        def move(a: int, b: int) -> tuple[int, int]:
            """Range `[a, b)` of the small document in the text (a range lies in the value or
            in one header key or bracket: a bare offset where a key meets a bracket is ambiguous)."""
            if lo <= a and b <= hi:
                return a + delta, b + delta
            for ss, rs, n in marks:
                if ss <= a and b <= ss + n:
                    return rs + (a - ss), rs + (b - ss)
            raise _Unsure(a)

        parsed = parse(sub)
        result = file_engine(self.path, None, self.scope.engine if self.scope is not None else None).update(sub, parsed.root)
        try:
            syntax = [_moved(d, move) for d in parsed.diagnostics]
            # (diagnostic, group) pairs: merged with the other blocks' in the full path's order.
            structure = [(_moved(d, move), g) for d, g in zip(result.structure, result.structure_groups)
                         if d.code not in DUPLICATE_CODES]
            strings = [_moved(d, move) for d in result.strings]
            keys_, place = result.definitions()
            defs = [(k, move(*place(j))) for j, k in enumerate(keys_)]
        except _Unsure:
            return None
        refs: list = []
        sites: list = []
        for r in result.body.refs():
            if type(r) is SchemaSite or type(r) is CallSite:
                sites.append(r)
            elif type(r) is LanguageSite:  # on a header key too (`action`): moved like a diagnostic
                try:
                    refs.append(LanguageSite(r.kind, r.path, *move(r.start, r.end)))
                except _Unsure:
                    return None
            else:
                refs.append(r.shifted(delta))
        # Schema sites (and module call sites) check nothing without a scope; with one, they are
        # checked as the full path checks them (`TerraformChecks.resolve`) in the small document's
        # positions, and their diagnostics moved back (`move`).
        checked = (sub, move, sites) if sites and self.checks is not None else None
        return structure, strings, refs, defs, syntax, checked


def _moved(d: Diagnostic, move: Callable[[int, int], tuple[int, int]]) -> Diagnostic:
    start, end = move(d.start, d.end)
    if type(d) is Deferred and d.deferred and not d.related and end - start == d.end - d.start:
        return d.at(start)  # its suggestion not looked for yet (`diagnostic.Deferred`): it stays so
    return replace(
        d, start=start, end=end,
        related=tuple(replace(r, start=x, end=y) if r.uri is None else r for r in d.related for x, y in (move(r.start, r.end),)),
        fixes=tuple(replace(f, start=x, end=y) for f in d.fixes for x, y in (move(f.start, f.end),)),
    )


def _range(d: Diagnostic) -> tuple[int, int]:
    return (d.start, d.end)


def _pieced(out: list[Diagnostic], located: dict[int, Piece]) -> Runs:
    """`out` (the other diagnostics, sorted) with each block's piece where its value is: every
    diagnostic of a located block lies inside its value (references in its strings), and no other
    one does but a duplicate's at its `{` (`validate.reported_range`), which comes first, or a
    duplicate local value's. Should one lie inside it after all, the pieces are made now and sorted
    in (the order `gather` gives)."""
    parts: list[list[Diagnostic] | Piece] = []
    at = 0
    for i in sorted(located):
        piece = located[i]
        cut = bisect_left(out, piece.low, at, key=start_of)  # (`low` is just after the value's `{`)
        if cut < len(out) and out[cut].start <= piece.high:
            made = out + [d for p in located.values() for d in p.make()]
            made.sort(key=_range)
            return Runs.of(made)
        parts.append(out[at:cut])
        parts.append(piece)
        at = cut
    parts.append(out[at:])
    items = Pieces(parts)
    return Runs((Runs.new(items),))


_RULES = 1  # `hcljson.incremental`'s group of the later layer's structure diagnostics


def _by_structure_key(item: tuple[Diagnostic, int]) -> tuple:
    return structure_key(*item)


# ---- certification ---------------------------------------------------------------------------


def _certify(b: Skimmed, found: list, strings: list, templated: list) -> tuple[str | None, int]:
    """Append what block value `b` refers to, as keys (`_refs_of`), to `found`, and each string
    of it holding a template sequence, with the flags it is read with, to `strings` (`_locate`),
    each provider-defined argument whose value is such a string to `templated` (`_argument_keys`);
    return the value of its `provider` meta-argument (None without one) and the repetition
    arguments it sets (`IN_COUNT`, `IN_FOR_EACH`: its instance keys, for `definitions`); or `_Unsure`."""
    t = b.type_name
    body = b.value
    reading = _READINGS.get(t)
    if reading is None or type(body) is not Pairs or not body:
        raise _Unsure(t)
    labels = tuple([lab.value for lab in b.labels])
    if invalid_labels(t, labels):  # (the full path's rule: `validate.invalid_labels`)
        raise _Unsure("label")
    names = dict(body)  # in C: a set comprehension here was 5% of a 20 MB quick open
    if len(names) != len(body):
        raise _Unsure("repeated name")
    if implied_provider_problem(t, labels, "provider" in names):  # (the full path's rule)
        raise _Unsure("implied provider")
    try:  # the rules written once over `hcljson.view`: a finding is the full analysis's to place
        if body_findings(VALUES, t, labels, body):
            raise _Unsure("body rule")
    except Unanswerable:
        raise _Unsure("body rule") from None
    if t == "data" and labels and labels[0] == "terraform_remote_state":
        raise _Unsure("terraform_remote_state")  # its backend and config: `remote_state`, on the tree
    for name in reading.required:
        if name not in names:
            raise _Unsure(name)
    ctx = (IN_COUNT if "count" in names else 0) | (IN_FOR_EACH if "for_each" in names else 0)
    if ctx and t != "output":  # (not both: `conflict_findings` above)
        name = "count" if ctx & IN_COUNT else "for_each"
        v = names[name]  # an input variable or a local there: what validate knows decides (a `RepetitionSite`)
        if type(v) is str and repetition_candidate(v):
            found.append((_REPETITION_KEYS[name], v, ctx & ~_OWN_CONTEXT[name]))
    modes = reading.modes
    named = reading.named
    is_open = reading.open
    meta = None
    for k, v in body:
        if k not in named:
            if not is_open:
                raise _Unsure(k)  # unknown to the decoder: its diagnostic
            # A provider-defined argument: `_expression` inline for the commonest values.
            tv = type(v)
            if tv is str:
                if "${" in v or "%{" in v:
                    _template(v, ctx, found, strings)
                    templated.append((k, v))
            elif tv is Pairs or tv is list:
                _expression(v, ctx, found, strings)
            continue
        if k == "//":
            continue
        mode = modes.get(k)
        if mode is None:  # a nested block (a `lifecycle` is read: `_nested`) or a versioned name
            nested = reading.blocks.get(k)
            if nested is None:
                raise _Unsure(k)
            _nested(v, nested, t)
        elif k in reading.booleans:
            continue  # judged by the body rule (`boolean_settings`, through `output_rules`)
        elif mode == EXPRESSION:
            _expression(v, ctx & ~_OWN_CONTEXT.get(k, 0), found, strings)
        else:
            meta = _moded(t, k, mode, v, ctx, found) or meta
    return meta, ctx


class _Reading:
    """How `_certify` reads the body of one block type: from the decoder's schema of it."""

    __slots__ = ("blocks", "booleans", "modes", "named", "open", "required")

    def __init__(self, block: BlockSchema, *path: str) -> None:
        body = block.body
        assert body is not None
        t = block.type_name
        versioned = versioned_names(*path, t)
        #: argument -> mode, for the arguments the decoder reads itself (not the versioned ones)
        self.modes = {n: a.mode for n, a in body.attributes.items() if n not in versioned}
        self.required = tuple(n for n, a in body.attributes.items() if a.required)
        #: the boolean settings (`boolean_settings`, run here as a body rule or by `_nested`)
        self.booleans = frozenset(BOOLEAN_SETTINGS.get(t, ()))
        #: the nested blocks read here: only a resource's or data source's `lifecycle` (any other
        #: nested block the decoder must see: labels, `dynamic` content, provisioners' rules)
        self.blocks = {n: s for n, s in body.blocks.items() if n == "lifecycle" and n not in versioned}
        self.open = body.open_attributes  # other names: provider-defined arguments (expressions)
        #: the names the decoder reads itself, and comments (any other: `open` or unknown)
        self.named = frozenset(body.attributes) | frozenset(body.blocks) | {"//"}


#: The flags an argument's own references lose: `count` cannot use `count.index`, nor `for_each` `each.*`.
_OWN_CONTEXT = {"count": IN_COUNT, "for_each": IN_FOR_EACH}
_READINGS = {s.type_name: _Reading(s) for s in (RESOURCE, DATA, OUTPUT)}
_LIFECYCLES = {t: _Reading(r.blocks["lifecycle"], t) for t, r in _READINGS.items() if "lifecycle" in r.blocks}
#: Each repetition argument (in `REPETITION`'s order) with its flag.
_REPETITION_FLAGS = tuple((mode, _OWN_CONTEXT[mode]) for mode in REPETITION)
_LITERAL_STRING_TYPES = python_types(LITERAL_STRING_KINDS)


def _nested(v: object, block: BlockSchema, owner: str) -> None:
    """A nested block of a certified body (a `lifecycle`), read by its schema: one object of
    distinct names, each an argument of the decoder's schema read in its mode, the boolean settings
    judged by their rule (`boolean_settings.boolean_findings`); or `_Unsure`. Any other shape (an
    array of blocks, a repeated name, a nested condition block) is the decoder's to read, and a
    name whose rule reads the tree (`validate.TREE_ONLY`) the full analysis's."""
    if type(v) is not Pairs or len(dict(v)) != len(v):
        raise _Unsure(block.type_name)
    reading = _LIFECYCLES[owner]
    try:
        if boolean_findings(VALUES, block.type_name, v):
            raise _Unsure("boolean setting")
    except Unanswerable:
        raise _Unsure("boolean setting") from None
    for k, x in v:
        if k == "//":
            continue
        mode = reading.modes.get(k)
        if mode is None or (block.type_name, k) in TREE_ONLY:
            raise _Unsure(k)
        if k not in reading.booleans:
            _moded(block.type_name, k, mode, x, 0, [])


def _moded(owner: str, name: str, mode: str, v: object, ctx: int, found: list) -> str | None:
    """Argument `name` of a `owner` block read in the decoder's `mode` (not an expression): its
    strings where the mode's table (`schema.STRING_MODES`) places them, each judged by the full
    path's own test for its string mode (`_quiet_string`); a value of any other shape (which the
    decoder or `validate` reports, or reads as an expression) is `_Unsure`. Appends the keys of its
    references; returns a resource's `provider` reference."""
    if mode == LITERAL_STRING:  # (`values.LITERAL_STRING_KINDS`, `has_template_sequence`: the decoder's rule)
        if type(v) not in _LITERAL_STRING_TYPES or (type(v) is str and has_template_sequence(v)):
            raise _Unsure(name)
        return None
    places = STRING_MODES[mode]
    if type(v) is str and AT_ROOT in places:
        smode = places[AT_ROOT]
        strings: list = [v]
    elif type(v) is list and places.get(AT_ELEMENT) not in (None, STRING_TEMPLATE):
        # (An array whose elements are templates is an expression, `provider = []` one the full
        # path reports: even empty, not this reading's to judge.)
        smode = places[AT_ELEMENT]
        strings = v
    else:
        raise _Unsure(name)
    role = ARGUMENT_REFERENCES.get((owner, name))
    for x in strings:
        if type(x) is not str or not _quiet_string(owner, name, x, smode):
            raise _Unsure(name)
        if role == "skip" or smode == STRING_KEYWORD:
            continue
        if smode == STRING_NATIVE and name == "provider":  # (`reference_walk`: a provider reference)
            found.append((_PROVIDER, x, ctx))
            return x
        if smode != STRING_TRAVERSAL or role is not None:
            raise _Unsure(name)
        found.append((_ADDRESS_KEY, x, ctx | (DEPENDS_ON if name == "depends_on" else 0)))
    return None


def _quiet_string(owner: str, name: str, value: str, smode: str | None) -> bool:
    """Whether string `value` of argument `name`, read in string mode `smode`, surely has no
    diagnostic of the full path: a keyword its rule accepts (`validate.keywords_of`); a traversal
    or native string that is a static reference (`templates.STATIC_REFERENCE`: the strings check's
    own test for "nothing to report", which also leaves out the values `language` reads as
    features, such as a provider instance `aws.by_region[each.key]`); anything else is not sure."""
    if smode == STRING_KEYWORD:
        allowed = keywords_of(owner, name)
        return allowed is not None and value in allowed
    if smode == STRING_TRAVERSAL or smode == STRING_NATIVE:
        return STATIC_REFERENCE.fullmatch(value) is not None
    return False


# ---- provider schemas ---------------------------------------------------------------------------


_NO_SCHEMA = object()
_UNKNOWN_TYPE = object()


def _check_schema(b: Skimmed, meta: str | None, schemas: Any, providers: dict, engine: str, lookups: dict) -> Any:
    """Nothing to report against its provider's schema in certified resource or data block `b`
    (whose `provider` meta-argument is `meta`): every rule of `provider_rules.SCHEMA_RULES` (written
    once over `hcljson.view`, run here on the values) finds nothing and asks nothing the values
    cannot answer (first by the rules' own one-pass test, compiled once per schema:
    `provider_rules.quiet_test`; when it cannot say, by running them); or `_Unsure`. `lookups`
    remembers each type's schema and test for the file. Returns the schema (None without one)."""
    type_name = b.labels[0].value
    key = (b.type_name, type_name, meta)
    found = lookups.get(key, _NO_SCHEMA)
    if found is _NO_SCHEMA:
        address, schema = block_schema(schemas, b.type_name, type_name, meta, providers, engine)
        if schema is not None:
            found = (schema, where_of(b.type_name, type_name), quiet_test(b.type_name, schema))
        elif address is not None and schemas.has_provider(address):
            found = _UNKNOWN_TYPE  # `schema/unknown-resource-type`
        else:
            found = None  # the provider's schema is not loaded: nothing is reported
        lookups[key] = found
    if found is None:
        return None
    if found is _UNKNOWN_TYPE:
        raise _Unsure("unknown resource type")
    schema, where, quiet = found
    if quiet is not None and quiet(b.value):  # the rules' own one-pass test: surely nothing to find
        return schema
    try:
        if schema_findings(VALUES, b.type_name, b.value, schema, where):
            raise _Unsure("schema rule")
    except Unanswerable:
        raise _Unsure("schema rule") from None
    return schema


def _argument_keys(b: Skimmed, templated: list[tuple[str, str]], schema: Any, ctx: int, found: list) -> None:
    """The keys of the argument values of certified block `b` that its `schema` gives a type to
    (`provider_rules.typed_arguments` of `templated`, its provider-defined arguments holding a
    template, which `_certify` read: the body's members again cost ~4 us a block), each read with
    the block's repetition flags `ctx` (as `_certify` read the string), its argument's name and
    type. (A site's string written more than once in the block is analysed by `_locate`.)"""
    for v, name, cty in typed_arguments(VALUES, b.type_name, templated, schema):
        expects = type_text(cty)
        if needs_site(v, expects):
            found.append((_ARGUMENT_KEY, v, ctx, name, expects))


# Keys of what a block refers to: (kind, text, context flags).
_TRAVERSAL_KEY = "traversal"  # a `${name.name[0]...}` interpolation
_ADDRESS_KEY = "address"  # a static reference string read as an address (`depends_on`)
_PROVIDER = "provider"  # a resource's `provider` string
_TEMPLATE_KEY = "template"  # any other template without diagnostics: its text
#: A `count` or `for_each` value that is an input variable (`repetition_sites.site_of`): its text.
_REPETITION_KEYS = {"count": "count-value", "for_each": "for-each-value"}
_REPETITION_NAMED = {kind: name for name, kind in _REPETITION_KEYS.items()}
#: A template string that reads input variables (`typed_sites.typed_site`): its text.
_TYPED_KEY = "typed"
#: An argument's value that its schema gives a type to (`argument_sites`): (kind, text, flags, name, type).
_ARGUMENT_KEY = "argument-value"
#: The keys of a whole string (`_locate`): where their refs start in the string as JSON writes it.
_WHOLE_STRING_KEYS = {_TYPED_KEY: 1, _ARGUMENT_KEY: 0, **{kind: 0 for kind in _REPETITION_NAMED}}
#: The keys whose diagnostics `_locate` places (any other's block is analysed).
_PLACEABLE = frozenset({_TRAVERSAL_KEY, _TEMPLATE_KEY, *_WHOLE_STRING_KEYS})


def _refs_of(key: tuple, at: int) -> list:
    """The refs a key stands for, placed as if its text were written from offset `at`: a traversal's
    (or static reference's) root at `at`, each step where the template parser puts it
    (`_template_refs` of `${...}`, less its `${`; tests/terraform/test_quick_locate.py compares
    them); a template's refs at its raw text's positions from `at`; a provider string's at its
    own; a `count` / `for_each` value's site (`repetition_sites.site_of`) with its quote at `at`.
    A key's references and diagnostics lie in `[at, at + _span(key))`, so a diagnostic of the
    by-key resolution is moved to each place the key is written (`_locate`)."""
    kind, text, flags = key[0], key[1], key[2]
    if kind == _ADDRESS_KEY and _NAMES_ONLY.fullmatch(text) is not None:
        # Names only (`aws_x.a` of a `depends_on`): the traversal reader's refs, one `ADDRESS` (what
        # `string_refs` gives in traversal mode, a parse of ~18 us: tests/terraform/test_quick_locate.py).
        kind, flags = _TRAVERSAL_KEY, flags | ADDRESS
    if kind == _TRAVERSAL_KEY and "[" not in text:  # names only: `name(.name)*`
        names = text.split(".")
        root = names[0]
        if root in _KEYWORDS:
            return []  # `${null}`, `${true.x}`: a literal (an attribute of one: no reference either)
        end = at + len(root)
        named: list[Step] = []
        for name in names[1:]:
            named.append(Step(name, end + 1, end + 1 + len(name)))
            end += 1 + len(name)
        return [Reference(root, at, at + len(root), tuple(named), flags)]
    if kind == _TRAVERSAL_KEY:
        head = _STEP.search(text)
        root = text if head is None else text[: head.start()]
        if root in _KEYWORDS and (head is None or kind == _TRAVERSAL_KEY):
            return []  # `${null}`, `${true.x}`: a literal (an attribute of one: no reference either)
        steps: list[Step] = []
        rest: list[Step] = []
        if head is not None:
            for s in _STEP.finditer(text, head.start()):
                name = s.group(1)
                if name is None:  # a numeric index ends the static steps
                    a, b = s.span()
                    rest.append(Step(text[a + 1 : b - 1], at + a + 1, at + b - 1, True, at + b))
                    continue
                (rest if rest else steps).append(Step(name, at + s.start(1), at + s.end(1)))
        return [Reference(root, at, at + len(root), tuple(steps), flags, tuple(rest))]
    if kind in _WHOLE_STRING_KEYS:
        raw = text if _NEEDS_ESCAPE.search(text) is None else json.dumps(text, ensure_ascii=False)[1:-1]
        if kind == _TYPED_KEY:  # its content from `at`
            return [TypedSite(at, raw)]
        if kind == _ARGUMENT_KEY:  # the whole string, from its quote at `at`
            argument = argument_site(at, at + len(raw) + 2, text, key[3], key[4])
            return [] if argument is None else [argument]
        site = site_of(_REPETITION_NAMED[kind], at, raw, text)  # the whole string, from its quote at `at`
        return [] if site is None else [site]
    made: Sequence[Reference | Call] | None
    if kind == _PROVIDER:
        made = string_refs(text, STRING_NATIVE, True)
    elif kind == _ADDRESS_KEY:  # (a static reference: its text is as JSON writes it)
        made = string_refs(text, STRING_TRAVERSAL, False)
    else:
        made = _template_refs(text)
        assert made is not None
    return [r.shifted(at, flags) if type(r) is Reference else r.shifted(at) for r in made]


def _span(key: tuple) -> int:
    """Room for the refs of `key` placed by `_refs_of`: its text as JSON writes it at the most
    (`\\u00XX`: six characters a character), and one more."""
    return 6 * len(key[1]) + 1


def _expression(v: Any, ctx: int, found: list, strings: list) -> None:
    """An expression-mode value (`json.loads`'s, dispatched on its exact type): every string a
    template, object keys distinct and plain."""
    t = type(v)
    if t is str:
        if "${" in v or "%{" in v:
            _template(v, ctx, found, strings)
        return
    if t is not Pairs and t is not list:
        return
    stack = [v]
    while stack:
        node = stack.pop()
        if type(node) is Pairs:
            if len(node) > 1 and len(dict(node)) != len(node):
                raise _Unsure("repeated key")
            for k, _ in node:
                if "${" in k or "%{" in k:
                    raise _Unsure("template key")
            node = [x for _, x in node]
        for x in node:
            tx = type(x)
            if tx is str:
                if "${" in x or "%{" in x:
                    _template(x, ctx, found, strings)
            elif tx is Pairs or tx is list:
                stack.append(x)


def _template(value: str, ctx: int, found: list, strings: list) -> None:
    """A template string holding a sequence: the keys of its references (and the string with `ctx`
    in `strings`), or `_Unsure` when it has diagnostics. One that reads input variables and computes
    something is also a `_TYPED_KEY` (`typed_sites`: its types decide more; never one of traversals
    only, whose steps their resolution checks)."""
    strings.append((value, ctx))
    traversals = _simple_traversals(value)
    if traversals is not None:
        flags = ctx | _text_flag(value, traversals)
        for traversal in traversals:
            found.append((_TRAVERSAL_KEY, traversal, flags))
        return
    if typed_candidate(value):
        found.append((_TYPED_KEY, value, ctx))
    if _template_refs(value) is None:
        raise _Unsure("template")
    found.append((_TEMPLATE_KEY, value, ctx))


@lru_cache(maxsize=16384)
def _simple_traversals(value: str) -> tuple[str, ...] | None:
    """The traversals of template `value` when all its sequences are `${name.name...[0]...}`
    (`_SIMPLE`), else None (cached by content: a CDKTF file repeats its templates, half of them in
    the benchmark's document)."""
    if _SIMPLE.fullmatch(value) is None:
        return None
    return tuple(_INTERPOLATION.findall(value))


def _text_flag(value: str, traversals: tuple[str, ...]) -> int:
    """`IN_TEXT` for the `traversals` of simple template `value` (`_simple_traversals`) unless it is
    one interpolation alone, `${` + its one traversal + `}` (`evaluate.text_interpolations`, which
    the template parser's refs follow)."""
    return 0 if len(traversals) == 1 and len(value) == len(traversals[0]) + 3 else IN_TEXT


@lru_cache(maxsize=16384)
def _template_refs(value: str) -> tuple | None:
    """The refs of template `value` (positions relative to its text as JSON would write it), or
    None when it has diagnostics (cached by content: generated files repeat their templates)."""
    raw = value if _NEEDS_ESCAPE.search(value) is None else json.dumps(value, ensure_ascii=False)[1:-1]
    if template_raw(raw)[1]:
        return None
    return string_refs(raw, _TEMPLATE, False)


# ---- references at their places ------------------------------------------------------------------

def _moves(x: str, flags: int, plain: bool, by_key: dict[tuple, list], whole: Collection[tuple]) -> list[tuple[list, int]]:
    """The keys of `by_key` that template string `x` (read with `flags`) makes, each with where its
    text starts in the string as JSON writes it (with its quotes; `plain`: written as it is)."""
    moves: list[tuple[list, int]]
    traversals = _simple_traversals(x)
    if traversals is not None:
        named = flags | _text_flag(x, traversals)
        moves = [(got, m.start(1) + 1) for m in _INTERPOLATION.finditer(x)
                 if (got := by_key.get((_TRAVERSAL_KEY, m.group(1), named))) is not None]
        if moves and not plain:  # the interpolations' places in the escaped text
            moves = [(got, m.start(1)) for m in _INTERPOLATION.finditer(json.dumps(x, ensure_ascii=False))
                     if (got := by_key.get((_TRAVERSAL_KEY, m.group(1), named))) is not None]
    else:
        got = by_key.get((_TEMPLATE_KEY, x, flags))
        moves = [(got, 1)] if got is not None else []
    for key in whole:  # (sites of the whole string, the block's own)
        if key[1] == x and key[2] == flags:
            moves.append((by_key[key], _WHOLE_STRING_KEYS[key[0]]))
    return moves


def _locate(text: str, b: Skimmed, by_key: dict[tuple, list], strings: Sequence[tuple[str, int]],
            whole: Collection[tuple] = ()) -> list[Diagnostic] | None:
    """The diagnostics of certified block `b`'s references, at their places in `text`, as the full
    analysis gives them; or None, and the block is analysed. `by_key` holds each key that resolved
    with a diagnostic (template keys of `_certify` only: see `run`), with `[offset, diagnostics,
    placed]`: the offset its refs were placed from (`_refs_of`), its diagnostics there, and whether
    they were placed already; `strings` are the block's template strings as `_certify` read them
    (each occurrence, with the flags it was read with); `whole` the block's own keys of a whole
    string (`_WHOLE_STRING_KEYS`) in `by_key` (another block's `count` of the same string is not
    this block's `for_each`). A key's diagnostics are moved themselves to
    its first place (`diagnostic.moved_unshared`: nothing else holds them), copies to the others.

    Each template string of the body that makes one of those keys is found in the block's raw text
    as `json.dumps` writes it (`str.find`, in C), and the key's diagnostics are moved to each place:
    a traversal's to where its `${...}` is in the written string, a template's to the string's
    raw text. The answer holds only when the places found are exactly the string's occurrences: as
    many as the body has, none after a backslash (inside another string), the string nowhere in the
    `"//"` metadata, always with the same context, and written once if it is an argument's value
    with a site (`_ARGUMENT_KEY`: its diagnostics are that argument's only).

    Why: a certified block whose reference is undeclared was analysed alone, ~0.5 ms a block; a
    generated file with a misspelt reference in every resource (18,500 at 16 MB) made the open 16x
    that of the same file with the references right (bench/bench_undeclared.py). Moving the by-key
    diagnostics, instead of resolving the references again in place, resolves each key once; the
    strings come from the certification, which read them already (walking the body again here was
    ~40% of this function on that file)."""
    wanted: dict[str, list[int]] = {}  # string -> [flags, occurrences]
    for x, flags in strings:
        got = wanted.get(x)
        if got is None:
            wanted[x] = [flags, 1]
        elif got[0] != flags:
            return None
        else:
            got[1] += 1
    metadata: str | None = None  # the `"//"` member's value as `json.dumps` writes it
    placed: list[tuple[int, list]] = []  # (where the key's text starts in the text, by_key's entry)
    for x, (flags, count) in wanted.items():
        plain = _NEEDS_ESCAPE.search(x) is None  # written as it is, between its quotes
        moves = _moves(x, flags, plain, by_key, whole)
        if not moves:
            continue
        if count > 1 and any(k[0] == _ARGUMENT_KEY and k[1] == x for k in whole):
            return None  # one argument's value, written elsewhere in the block too: not that argument there
        written = f'"{x}"' if plain else json.dumps(x, ensure_ascii=False)
        if metadata is None:
            comment = [v for k, v in b.value if k == "//"]  # type: ignore[attr-defined]
            metadata = json.dumps(comment, ensure_ascii=False) if comment else ""
        if written in metadata:  # (a string of it, as written; or, rarely, the end of one: analysed then)
            return None
        at = text.find(written, b.start, b.end)
        places = []
        while at >= 0:
            if text[at - 1] == "\\":
                return None
            places.append(at)
            at = text.find(written, at + len(written), b.end)
        if len(places) != count:
            return None
        placed.extend((place + offset, entry) for place in places for entry, offset in moves)
    out: list[Diagnostic] = []
    for at, entry in placed:  # (the block is placed: its keys' diagnostics are moved now)
        key_at, found, moved = entry
        delta = at - key_at
        if moved:
            out.extend([d.shifted(delta) for d in found])
        else:  # (the diagnostics at `at` from now on: copies of them go to the key's other places)
            entry[0], entry[2] = at, True
            entry[1] = moved = [moved_unshared(d, delta) for d in found]
            out.extend(moved)
    return out
