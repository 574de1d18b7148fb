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
  scope (`features.diagnostics.file_diagnostics` of a fresh `DocumentState`: syntax, structure,
  strings, references with the provider schemas' checks, in that order, sorted by position) and
  the same definitions (keys in source order, places on demand); tests compare both on the corpus
  and on generated and mutated documents (tests/terraform/test_quick_corpus.py and
  test_quick_schemas.py).
  None means "not answered here": the caller takes the full path. It is None for text
  `hcljson.skim` refuses, and for tfvars, test and override files.
* A block is *certified* when it is a `resource`, `data` or `output` body whose labels are valid
  names (`validate.invalid_labels`, the full path's own rule) and for which every rule of
  `body_rules.BODY_RULES` (written once over `hcljson.view`, run here on the values) finds nothing
  and asks nothing the values cannot answer, and whose every member has one of the shapes below;
  its references are then read from the values and resolved with the module's declarations
  (`resolve.resolve`), each key once, its refs placed from an offset of its own as the template
  parser places them (`_refs_of`). A certified block with a key that resolves with a diagnostic
  gets that key's diagnostics moved to the places its raw text writes the key (`_locate`: the
  strings that make them, as `json.dumps` writes them); when they cannot be placed for sure, the
  block is analysed like any other block instead. Any other block (and any member outside
  these shapes) is analysed by the full path on a document of its own, whose positions are mapped
  back: inside the block's value by a shift, on its header keys key by key.
  - `"//"` (anything), `count` / `for_each` (any expression value: both together, and their
    literal values, are judged by the body rules),
    `provider` (a static reference string), `depends_on` (an array of `name(.name)*` strings);
  - resource: `lifecycle` as one object of `create_before_destroy` / `prevent_destroy`
    (booleans) and `ignore_changes` (`"all"` or an array of `name(.name)*` strings; with the
    provider's schema loaded, `provider_rules.unknown_ignored` finds nothing in them);
  - resource/data: any other name is a provider-defined argument: any JSON value whose object
    keys are distinct and hold no template sequence, whose strings are templates without
    diagnostics;
  - output: the arguments of the decoder's schema (`schema.OUTPUT`: its required ones present;
    none whose existence `language.FEATURES` versions), read in their modes: an expression as
    above; `sensitive` / `ephemeral` any value (judged by the body rule
    `output_rules.boolean_findings`, whose findings cover the decoder's literal check there);
    `description` / `deprecated` a string without a template sequence, or null (the decoder's
    literal-string mode, still restated here: `check_expression` reads the tree's raw text).
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
  scope) and their diagnostics mapped back. No schema rule is written here.
* `QuickResult.spans` (`terraform.around.Spans`): where the skim found each block, for the
  requests answered from the blocks around their offset before the tree is built; None after a
  syntax error.
* Never raises on any text (a bug in it is the caller's to log; it then takes the full path).
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..diagnostic import Deferred, Diagnostic
from ..hcljson.incremental import structure_key
from ..hcljson.schema import EXPRESSION, LITERAL_STRING
from ..hcljson.skim import Pairs, Skim, Skimmed, skim
from ..hcljson.view import VALUES, Unanswerable
from ..jsonsyntax import parse
from ..template.lexer import IDENTIFIER_PATTERN
from .analysis import TerraformChecks, file_engine, required_providers
from .around import Spans
from .definition import catalogue
from .definition.language import LanguageSite, versioned_names
from .definition.language import check_sites as check_language
from .definition.schema import OUTPUT, is_json_override_file, schema_for_path
from .expressions.templates import STATIC_REFERENCE, template_raw
from .filekinds.testfile import is_own_kind, is_test_file
from .filekinds.tfvars import is_tfvars
from .resolution.module_calls import CallSite
from .resolution.reference_walk import string_refs
from .resolution.references import ADDRESS, DEPENDS_ON, IN_COUNT, IN_FOR_EACH, INSTANCED, REPETITION, Call, Reference, Step, repetition_key
from .resolution.resolve import Scope, module_language, resolve
from .rules.body_rules import body_findings
from .rules.output_rules import OUTPUT_BOOLEANS
from .rules.provider_rules import SchemaSite, block_schema, quiet_test, schema_findings, where_of
from .rules.validate import DUPLICATE_BLOCK, duplicates, invalid_labels
from .schemas.provider_schema import TERRAFORM

__all__ = ["QuickResult", "quick_file"]

_TEMPLATE = "template"
_NATIVE = "native"
# A template whose sequences are all `${name.name...[0]...}`: its references read by a regex.
_NAME = IDENTIFIER_PATTERN
_TRAVERSAL = rf"{_NAME}(?:\.{_NAME}|\[[0-9]+\])*"
_PLAIN_TEXT = r"(?:[^$%\\]|\$(?![{$])|%(?![{%]))*"
_SIMPLE = re.compile(rf"{_PLAIN_TEXT}(?:\$\{{{_TRAVERSAL}\}}{_PLAIN_TEXT})*")
_INTERPOLATION = re.compile(rf"\$\{{({_TRAVERSAL})\}}")
_STEP = re.compile(rf"\.({_NAME})|\[[0-9]+\]")
_DOTTED = re.compile(rf"{_NAME}(?:\.{_NAME})*")
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')
_LIFECYCLE_BOOLEANS = frozenset({"create_before_destroy", "prevent_destroy"})
# An output's arguments as the decoder reads them (`schema.OUTPUT`): name -> mode, those whose
# existence depends on the module's language (`language.FEATURES`) left out (never certified).
_OUTPUT_ATTRIBUTES = OUTPUT.body.attributes if OUTPUT.body is not None else {}
_OUTPUT_MODES = {n: a.mode for n, a in _OUTPUT_ATTRIBUTES.items() if n not in versioned_names("output")}
_OUTPUT_REQUIRED = tuple(n for n, a in _OUTPUT_ATTRIBUTES.items() if a.required)
_RESOURCE_LIKE = frozenset(catalogue.RESOURCE_AND_DATA)
_KEYWORDS = frozenset({"null", "true", "false"})


class _Unsure(Exception):
    """This block needs the full analysis."""


class QuickResult:
    """The file's diagnostics (see the module doc) and its definitions, like
    `hcljson.incremental.FileResult.definitions`."""

    __slots__ = ("_keys", "_places", "analysed", "certified", "diagnostics", "located", "spans")

    def __init__(self, diagnostics: list[Diagnostic], keys: list[Hashable], places: Places,
                 certified: int, analysed: int, located: int = 0) -> None:
        self.diagnostics = diagnostics
        self._keys = keys
        self._places = places
        self.certified = certified  # blocks read from values
        self.analysed = analysed  # blocks sent through the full analysis
        self.located = located  # certified blocks whose references were placed in the raw text (`_locate`)
        self.spans: Spans | None = None  # where the skim found each block (`terraform.around`)

    def definitions(self) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        places = self._places
        return self._keys, places.__getitem__


class Places:
    """The places of a file's definitions, `places[i]` the `(start, end)` of the i-th: two ints a
    definition in one array. The quick result is alive while the tree is built; a list of tuples
    cost ~120 B a definition (3.6 MB of 30,000 tiny outputs' peak), this 16 B."""

    __slots__ = ("_flat",)

    def __init__(self) -> None:
        self._flat = array("q")

    def append(self, place: tuple[int, int]) -> None:
        self._flat.extend(place)

    def __getitem__(self, i: int) -> tuple[int, int]:
        flat = self._flat
        return (flat[2 * i], flat[2 * i + 1])

    def __len__(self) -> int:
        return len(self._flat) // 2


def quick_file(text: str, path: str | None = None, scope: Scope | None = None) -> QuickResult | None:
    """See the module doc."""
    if is_tfvars(path) or is_test_file(path) or (path and (is_json_override_file(path) or is_own_kind(path))):
        return None
    schema = schema_for_path(path)
    found = skim(text, schema)
    if found is None:
        return None
    result = _Quick(text, path, scope, found).run()
    if result is not None:
        result.spans = Spans.of(found)
    return result


class _Quick:
    __slots__ = ("checks", "path", "schemas", "scope", "skim", "text")

    def __init__(self, text: str, path: str | None, scope: Scope | None, found: Skim) -> None:
        self.text = text
        self.path = path
        self.scope = scope
        self.skim = found
        # The module's provider schemas (read once), and the full path's resolution of schema
        # sites for the blocks analysed on their own.
        self.schemas = getattr(scope, "provider_schemas", None) if scope is not None else None
        self.checks = TerraformChecks(False, scope) if scope is not None else None

    def run(self) -> QuickResult | None:
        blocks = self.skim.blocks
        # What each certified block refers to, as position-free keys (see `_certify`): a key is
        # resolved once however many blocks use it (`local.name_prefix` in every resource of a
        # CDKTF stack), then the blocks of a key that resolves with a diagnostic are analysed.
        users: dict[tuple, list[int]] = {}
        certified = [True] * len(blocks)
        analysed: dict[int, tuple] = {}
        located: dict[int, list[Diagnostic]] = {}  # certified blocks with a key that resolves with a diagnostic: those
        tail = self.skim.tail
        schemas = self.schemas
        if schemas is not None:
            # Each resource's provider is found as `check_sites` finds it, with the module's
            # `required_providers`: this file's are declared by its `terraform` blocks (never
            # certified) and perhaps its tail, analysed first for that.
            for i, b in enumerate(blocks):
                if b.type_name == "terraform":
                    got = self.analyse(b)
                    if got is None:
                        return None
                    analysed[i] = got
                    certified[i] = False
            if tail is not None:
                got = self.analyse(tail, self.skim.openers)
                if got is None:
                    return None
                analysed[len(blocks)] = got
            mine = frozenset(k for got in analysed.values() for k, _ in got[3] if k[0] == "provider-requirement")
            providers = required_providers(mine, self.scope)
            engine = self.scope.engine or TERRAFORM  # type: ignore[union-attr]
            lookups: dict[tuple, Any] = {}
        for i, b in enumerate(blocks):
            if not certified[i]:
                continue
            found: list[tuple] = []
            try:
                meta = _certify(b, found)
                if schemas is not None and b.type_name in _RESOURCE_LIKE:
                    _check_schema(b, meta, schemas, providers, engine, lookups)
            except _Unsure:
                certified[i] = False
                continue
            for key in found:
                listed = users.get(key)
                if listed is None:
                    users[key] = [i]
                else:
                    listed.append(i)
        for i, ok in enumerate(certified):
            if not ok and i not in analysed:
                got = self.analyse(blocks[i])
                if got is None:
                    return None
                analysed[i] = got
        if tail is not None:  # after a syntax error: the rest of the text, analysed as one piece
            if len(blocks) not in analysed:
                got = self.analyse(tail, self.skim.openers)
                if got is None:
                    return None
                analysed[len(blocks)] = got
            blocks = (*blocks, tail)
        keys, places = self.definitions(blocks, analysed)
        own = frozenset(keys)
        if users:
            # Each key resolved once, its refs placed from its own offset (`_refs_of`): a key's
            # diagnostics are those of every place it is written, moved there (`_locate`).
            order = list(users)
            refs: list = []
            starts: list[int] = []
            at = 0
            for key in order:
                starts.append(at)
                refs.extend(_refs_of(key, at))
                at += _span(key)
            problems, _ = resolve(refs, own, self.scope)
            if problems:
                # The blocks using a key that resolves with a diagnostic: its diagnostics moved to the
                # places the block writes it, found in the raw text (`_locate`), or else the block analysed.
                by_key: dict[tuple, tuple[int, list[Diagnostic]]] = {}
                for d in problems:  # (in the refs' order: the keys' order)
                    p = bisect_right(starts, d.start) - 1
                    got_key = by_key.get(order[p])
                    if got_key is None:
                        by_key[order[p]] = (starts[p], [d])
                    else:
                        got_key[1].append(d)
                wanted: dict[int, bool] = {}  # block -> whether its keys can be placed (templates')
                for key in by_key:
                    placeable = key[0] == _TRAVERSAL_KEY or key[0] == _TEMPLATE_KEY
                    for i in users[key]:
                        if i not in analysed:
                            wanted[i] = wanted.get(i, True) and placeable
                for i, placeable in wanted.items():
                    if placeable and i < len(self.skim.blocks):
                        placed = _locate(self.text, blocks[i], by_key)
                        if placed is not None:
                            located[i] = placed
                            continue
                    got = self.analyse(blocks[i])
                    if got is None:
                        return None
                    analysed[i] = got
                keys, places = self.definitions(blocks, analysed)
        syntax: list[Diagnostic] = []
        structure: list[tuple[Diagnostic, int]] = []
        strings: list[Diagnostic] = []
        resolved: list[Diagnostic] = []
        for placed in located.values():
            resolved.extend(placed)
        for i in sorted(analysed):
            s, t, refs_, _, x, sites = analysed[i]
            syntax.extend(x)
            structure.extend(s)
            strings.extend(t)
            if refs_:
                lang = [r for r in refs_ if type(r) is LanguageSite]  # (a small document may hold several blocks)
                if lang:
                    refs_ = [r for r in refs_ if type(r) is not LanguageSite]
                    if self.scope is not None:
                        resolved.extend(check_language(lang, module_language(own, self.scope)))
                found_, _ = resolve(refs_, own, self.scope)
                resolved.extend(found_)
            if sites is not None:  # the schema checks of the full path, on the small document
                sub, move, refs_ = sites
                found_, _ = self.checks.resolve(refs_, own, sub)  # type: ignore[union-attr]
                try:
                    resolved.extend(_moved(d, move) for d in found_)
                except _Unsure:
                    return None
        structure.extend((d, _RULES) for d in duplicates(keys, places.__getitem__))
        structure.sort(key=_by_structure_key)
        strings.sort(key=_range)
        resolved.sort(key=_range)
        out = syntax + [d for d, _ in structure] + strings + resolved
        out.sort(key=_range)
        return QuickResult(out, keys, places, len(blocks) - len(analysed), len(analysed), len(located))

    def definitions(self, blocks: Sequence[Skimmed], analysed: dict) -> tuple[list, Places]:
        keys: list[Hashable] = []
        places = Places()
        for i, b in enumerate(blocks):
            got = analysed.get(i)
            if got is None:
                lab = b.labels[-1]
                key = (b.type_name, *[x.value for x in b.labels])
                keys.append(key)
                places.append((lab.start, lab.end))
                if b.type_name in INSTANCED:  # as `validate.definitions`: the instance keys it takes
                    modes = [k for k, _ in b.value if k in REPETITION]  # type: ignore[attr-defined]
                    for mode in REPETITION:
                        if mode in modes:
                            keys.append(repetition_key(key, mode))
                            places.append((lab.start, lab.end))
            else:
                for k, p in got[3]:
                    keys.append(k)
                    places.append(p)
        return keys, places

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
                         if d.code != DUPLICATE_BLOCK]
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


_RULES = 1  # `hcljson.incremental`'s group of the later layer's structure diagnostics


def _by_structure_key(item: tuple[Diagnostic, int]) -> tuple:
    return structure_key(*item)


# ---- certification ---------------------------------------------------------------------------


def _certify(b: Skimmed, found: list) -> str | None:
    """Append what block value `b` refers to, as keys (`_refs_of`), to `found`, and return the
    value of its `provider` meta-argument (None without one); or `_Unsure`."""
    t = b.type_name
    body = b.value
    if type(body) is not Pairs or not body:
        raise _Unsure(t)
    labels = tuple([lab.value for lab in b.labels])
    if invalid_labels(t, labels):  # (the full path's rule: `validate.invalid_labels`)
        raise _Unsure("label")
    names = dict(body)  # in C: a set comprehension here was 5% of a 20 MB quick open
    if len(names) != len(body):
        raise _Unsure("repeated name")
    try:  # the rules written once over `hcljson.view`: a finding is the full analysis's to place
        if body_findings(VALUES, t, labels, body):
            raise _Unsure("body rule")
    except Unanswerable:
        raise _Unsure("body rule") from None
    if t in _RESOURCE_LIKE:
        if t == "data" and b.labels and b.labels[0].value == "terraform_remote_state":
            raise _Unsure("terraform_remote_state")  # its backend and config: `remote_state`
        ctx = (IN_COUNT if "count" in names else 0) | (IN_FOR_EACH if "for_each" in names else 0)
        meta = None
        for k, v in body:
            if k == "//":
                continue
            if k == "count" or k == "for_each":  # (their literal values: `body_rules`)
                _expression(v, ctx & ~(IN_COUNT if k == "count" else IN_FOR_EACH), found)
            elif k == "provider":
                if type(v) is not str or not STATIC_REFERENCE.fullmatch(v):
                    raise _Unsure(k)
                found.append((_PROVIDER, v, ctx))
                meta = v
            elif k == "depends_on":
                _static_list(v, ctx, found)
            elif k == "lifecycle":
                if t != "resource":  # a data source's lifecycle has only conditions (`schema.DATA`)
                    raise _Unsure(k)
                _lifecycle(v)
            elif k in catalogue.CORE_NESTED_BLOCKS:  # `lifecycle`: above
                raise _Unsure(k)
            else:  # `_expression` inline for the commonest values: a string, a number, a boolean
                tv = type(v)
                if tv is str:
                    if "${" in v or "%{" in v:
                        _template(v, ctx, found)
                elif tv is Pairs or tv is list:
                    _expression(v, ctx, found)
        return meta
    if t == "output":
        # The names, which are required and how each is read: the decoder's schema (`OUTPUT`).
        for name in _OUTPUT_REQUIRED:
            if name not in names:
                raise _Unsure(name)
        for k, v in body:
            if k == "//":
                continue
            mode = _OUTPUT_MODES.get(k)
            if mode is None:  # unknown to the decoder (its diagnostic), versioned, or a nested block
                raise _Unsure(k)
            if k in OUTPUT_BOOLEANS:  # (their values: the body rule `boolean_findings`)
                continue
            if mode == EXPRESSION:
                _expression(v, 0, found)
            elif mode == LITERAL_STRING:  # (the decoder's literal string, restated: see the module doc)
                if v is not None and (type(v) is not str or "${" in v or "%{" in v):
                    raise _Unsure(k)
            elif k == "depends_on":
                _static_list(v, 0, found)
            else:
                raise _Unsure(k)
        return None
    raise _Unsure(t)


# ---- provider schemas ---------------------------------------------------------------------------


_NO_SCHEMA = object()
_UNKNOWN_TYPE = object()


def _check_schema(b: Skimmed, meta: str | None, schemas: Any, providers: dict, engine: str, lookups: dict) -> None:
    """Nothing to report against its provider's schema in certified resource or data block `b`
    (whose `provider` meta-argument is `meta`): every rule of `provider_rules.SCHEMA_RULES` (written
    once over `hcljson.view`, run here on the values) finds nothing and asks nothing the values
    cannot answer (first by the rules' own one-pass test, compiled once per schema:
    `provider_rules.quiet_test`; when it cannot say, by running them); or `_Unsure`. `lookups`
    remembers each type's schema and test for the file."""
    type_name = b.labels[0].value
    key = (b.type_name, type_name, meta)
    found = lookups.get(key, _NO_SCHEMA)
    if found is _NO_SCHEMA:
        address, schema = block_schema(schemas, b.type_name, type_name, meta, providers, engine)
        if schema is not None:
            found = (schema, where_of(b.type_name, type_name), quiet_test(b.type_name, schema))
        elif schemas.has_provider(address):
            found = _UNKNOWN_TYPE  # `schema/unknown-resource-type`
        else:
            found = None  # the provider's schema is not loaded: nothing is reported
        lookups[key] = found
    if found is None:
        return
    if found is _UNKNOWN_TYPE:
        raise _Unsure("unknown resource type")
    schema, where, quiet = found
    if quiet is not None and quiet(b.value):  # the rules' own one-pass test: surely nothing to find
        return
    try:
        if schema_findings(VALUES, b.type_name, b.value, schema, where):
            raise _Unsure("schema rule")
    except Unanswerable:
        raise _Unsure("schema rule") from None


# Keys of what a block refers to: (kind, text, context flags).
_TRAVERSAL_KEY = "traversal"  # a `${name.name[0]...}` interpolation
_STATIC_KEY = "static"  # a static reference string (`depends_on`)
_PROVIDER = "provider"  # a resource's `provider` string
_TEMPLATE_KEY = "template"  # any other template without diagnostics: its text


def _refs_of(key: tuple, at: int) -> list:
    """The refs a key stands for, placed as if its text were written from offset `at`: a traversal's
    (or static reference's) root at `at`, each step where the template parser puts it
    (`_template_refs` of `${...}`, less its `${`; tests/terraform/test_quick_locate.py compares
    them); a template's refs at its raw text's positions from `at`; a provider string's at its
    own. A key's references and diagnostics lie in `[at, at + _span(key))`, so a diagnostic of the
    by-key resolution is moved to each place the key is written (`_locate`)."""
    kind, text, flags = key
    if (kind == _TRAVERSAL_KEY or kind == _STATIC_KEY) and "[" not in text:  # names only: `name(.name)*`
        names = text.split(".")
        root = names[0]
        if root in _KEYWORDS and (len(names) == 1 or kind == _TRAVERSAL_KEY):
            return []
        end = at + len(root)
        named: list[Step] = []
        for name in names[1:]:
            named.append(Step(name, end + 1, end + 1 + len(name)))
            end += 1 + len(name)
        return [Reference(root, at, at + len(root), tuple(named), flags)]
    if kind == _TRAVERSAL_KEY or kind == _STATIC_KEY:
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
    made: Sequence[Reference | Call] | None
    if kind == _PROVIDER:
        made = string_refs(text, _NATIVE, True)
    else:
        made = _template_refs(text)
        assert made is not None
    return [r.shifted(at, flags) if type(r) is Reference else r.shifted(at) for r in made]


def _span(key: tuple) -> int:
    """Room for the refs of `key` placed by `_refs_of`: its text as JSON writes it at the most
    (`\\u00XX`: six characters a character), and one more."""
    return 6 * len(key[1]) + 1


def _static_list(v: object, ctx: int, found: list) -> None:
    if type(v) is not list:
        raise _Unsure("static list")
    flags = ctx | DEPENDS_ON | ADDRESS  # what the full path reads: no `STATIC`, context is checked there too
    for x in v:
        if type(x) is not str or not _DOTTED.fullmatch(x):
            raise _Unsure("static reference")
        found.append((_STATIC_KEY, x, flags))


def _lifecycle(v: object) -> None:
    if type(v) is not Pairs or len(dict(v)) != len(v):
        raise _Unsure("lifecycle")
    for k, x in v:
        if k in _LIFECYCLE_BOOLEANS:
            if type(x) is not bool:
                raise _Unsure(k)
        elif k == "ignore_changes":
            if x == "all":
                continue
            # (names: `provider_rules.unknown_ignored`, when the provider's schema is loaded)
            if type(x) is not list or not all(type(e) is str and _DOTTED.fullmatch(e) for e in x):
                raise _Unsure(k)
        else:
            raise _Unsure(k)


def _expression(v: Any, ctx: int, found: list) -> None:
    """An expression-mode value (`json.loads`'s, dispatched on its exact type): every string a
    template, object keys distinct and plain."""
    t = type(v)
    if t is str:
        if "${" in v or "%{" in v:
            _template(v, ctx, found)
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
                    _template(x, ctx, found)
            elif tx is Pairs or tx is list:
                stack.append(x)


def _template(value: str, ctx: int, found: list) -> None:
    """A template string holding a sequence: the keys of its references, or `_Unsure` when it has
    diagnostics."""
    if _SIMPLE.fullmatch(value) is not None:
        for traversal in _INTERPOLATION.findall(value):
            found.append((_TRAVERSAL_KEY, traversal, ctx))
        return
    if _template_refs(value) is None:
        raise _Unsure("template")
    found.append((_TEMPLATE_KEY, value, ctx))


@lru_cache(maxsize=16384)
def _template_refs(value: str) -> tuple | None:
    """The refs of template `value` (positions relative to its text as JSON would write it), or
    None when it has diagnostics (cached by content: generated files repeat their templates)."""
    raw = value if _NEEDS_ESCAPE.search(value) is None else json.dumps(value, ensure_ascii=False)[1:-1]
    if template_raw(raw)[1]:
        return None
    return string_refs(raw, _TEMPLATE, False)


# ---- references at their places ------------------------------------------------------------------

#: Members of a certified resource, data or output body whose strings hold no template (`_certify`).
_NO_TEMPLATES = frozenset({"//", "provider", "depends_on", "lifecycle"})


def _locate(text: str, b: Skimmed, by_key: dict[tuple, tuple[int, list[Diagnostic]]]) -> list[Diagnostic] | None:
    """The diagnostics of certified block `b`'s references, at their places in `text`, as the full
    analysis gives them; or None, and the block is analysed. `by_key` holds each key that resolved
    with a diagnostic (template keys of `_certify` only: see `run`), with the offset its refs were
    placed from (`_refs_of`) and its diagnostics there.

    Each template string of the body that makes one of those keys is found in the block's raw text
    as `json.dumps` writes it (`str.find`, in C), and the key's diagnostics are moved to each place:
    a traversal's to where its `${...}` is in the written string, a template's to the string's
    raw text. The answer holds only when the places found are exactly the string's occurrences: as
    many as the body has, none after a backslash (inside another string), the string nowhere in the
    `"//"` metadata, always with the same context.

    Why: a certified block whose reference is undeclared was analysed alone, ~0.5 ms a block; a
    generated file with a misspelt reference in every resource (18,500 at 16 MB) made the open 16x
    that of the same file with the references right (bench/bench_undeclared.py). Moving the by-key
    diagnostics, instead of resolving the references again in place, resolves each key once."""
    body: Any = b.value  # (the skim's `Pairs` of the block's body)
    names = dict(body)
    ctx = (IN_COUNT if "count" in names else 0) | (IN_FOR_EACH if "for_each" in names else 0)
    wanted: dict[str, list[int]] = {}  # string -> [flags, occurrences]
    for k, v in body:
        if k in _NO_TEMPLATES:
            continue
        flags = ctx & ~(IN_COUNT if k == "count" else IN_FOR_EACH if k == "for_each" else 0)
        if not _count_templates(v, flags, wanted):
            return None
    metadata = names.get("//")
    in_metadata: set[str] | None = None
    out: list[Diagnostic] = []
    for x, (flags, count) in wanted.items():
        # (key offset, diagnostics, where the key's text starts in the string as written)
        moves: list[tuple[int, list[Diagnostic], int]]
        plain = _NEEDS_ESCAPE.search(x) is None  # written as it is, between its quotes
        if _SIMPLE.fullmatch(x) is not None:
            moves = [(*got, m.start(1) + 1) for m in _INTERPOLATION.finditer(x)
                     if (got := by_key.get((_TRAVERSAL_KEY, m.group(1), flags))) is not None]
            if moves and not plain:  # the interpolations' places in the escaped text
                moves = [(*got, m.start(1)) for m in _INTERPOLATION.finditer(json.dumps(x, ensure_ascii=False))
                         if (got := by_key.get((_TRAVERSAL_KEY, m.group(1), flags))) is not None]
        else:
            got = by_key.get((_TEMPLATE_KEY, x, flags))
            moves = [(*got, 1)] if got is not None else []
        if not moves:
            continue
        if metadata is not None:
            if in_metadata is None:
                in_metadata = _strings_of(metadata)
            if x in in_metadata:
                return None
        written = f'"{x}"' if plain else json.dumps(x, ensure_ascii=False)
        at = text.find(written, b.start, b.end)
        places = []
        while at >= 0:
            if text[at - 1] == "\\":
                return None
            places.append(at)
            at = text.find(written, at + len(written), b.end)
        if len(places) != count:
            return None
        for place in places:
            for key_at, found, offset in moves:
                delta = place + offset - key_at
                out.extend([d.shifted(delta) for d in found])
    return out


def _count_templates(v: object, flags: int, wanted: dict[str, list[int]]) -> bool:
    """Count in `wanted` (string -> [flags, occurrences]) the strings holding a template sequence
    among the values (not the keys) of JSON value `v`, read with context `flags`; False when one
    is also read with other flags."""
    stack = [v]
    while stack:
        node = stack.pop()
        t = type(node)
        if t is str:
            if "${" in node or "%{" in node:  # type: ignore[operator]
                got = wanted.get(node)  # type: ignore[call-overload]
                if got is None:
                    wanted[node] = [flags, 1]  # type: ignore[index]
                elif got[0] != flags:
                    return False
                else:
                    got[1] += 1
        elif t is Pairs:
            stack.extend([x for _, x in node])  # type: ignore[attr-defined]
        elif t is list:
            stack.extend(node)  # type: ignore[arg-type]
    return True


def _strings_of(v: object) -> set[str]:
    """Every string of JSON value `v`, keys included."""
    out: set[str] = set()
    stack = [v]
    while stack:
        node = stack.pop()
        t = type(node)
        if t is str:
            out.add(node)  # type: ignore[arg-type]
        elif t is Pairs:
            for k, x in node:  # type: ignore[attr-defined]
                out.add(k)
                stack.append(x)
        elif t is list:
            stack.extend(node)  # type: ignore[arg-type]
    return out
