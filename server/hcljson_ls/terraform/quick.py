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
  strings, references, in that order, sorted by position) and the same definitions (keys in
  source order, places on demand); tests compare both on the corpus and on generated and mutated
  documents. None means "not answered here": the caller takes the full path. It is None for text
  `hcljson.skim` refuses, for tfvars, test and override files, and when provider schemas are in
  use for the module (their checks need the tree).
* A block is *certified* when it is a `resource`, `data` or `output` body whose every member has
  one of the shapes below; its references are then read from the values and resolved with the
  module's declarations (`resolve.resolve`). A certified block whose references resolve with a
  diagnostic is analysed like any other block instead. Any other block (and any member outside
  these shapes) is analysed by the full path on a document of its own, whose positions are mapped
  back: inside the block's value by a shift, on its header keys key by key.
  - `"//"` (anything), `count` / `for_each` (a number, boolean, null or template string, not both),
    `provider` (a static reference string), `depends_on` (an array of `name(.name)*` strings);
  - resource/data: `lifecycle` as one object of `create_before_destroy` / `prevent_destroy`
    (booleans) and `ignore_changes` (`"all"` or an array of `name(.name)*` strings); any other
    name is a provider-defined argument: any JSON value whose object keys are distinct and
    hold no template sequence, whose strings are templates without diagnostics;
  - output: `value` (required; as above), `description` / `deprecated` (strings without a template
    sequence, or null), `sensitive` / `ephemeral` (booleans or null).
* Never raises on any text (a bug in it is the caller's to log; it then takes the full path).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..diagnostic import Diagnostic
from ..hcljson.skim import Pairs, Skim, Skimmed, skim
from ..jsonsyntax import parse
from .analysis import file_engine
from .provider_rules import SchemaSite
from .catalogue import IDENTIFIER
from .reference_walk import string_refs
from .references import IN_COUNT, IN_FOR_EACH, STATIC, Reference, Step
from .resolve import Scope, resolve
from .schema import is_override_file, schema_for_path
from .templates import STATIC_REFERENCE, template_raw
from .testfile import is_test_file
from .tfvars import is_tfvars
from .validate import DUPLICATE_BLOCK, duplicates

__all__ = ["QuickResult", "quick_file"]

_IDENT = IDENTIFIER.match
_TEMPLATE = "template"
_NATIVE = "native"
# A template whose sequences are all `${name.name...[0]...}`: its references read by a regex.
_NAME = r"[^\W\d][\w-]*"
_TRAVERSAL = rf"{_NAME}(?:\.{_NAME}|\[[0-9]+\])*"
_PLAIN_TEXT = r"(?:[^$%\\]|\$(?![{$])|%(?![{%]))*"
_SIMPLE = re.compile(rf"{_PLAIN_TEXT}(?:\$\{{{_TRAVERSAL}\}}{_PLAIN_TEXT})*")
_INTERPOLATION = re.compile(rf"\$\{{({_TRAVERSAL})\}}")
_STEP = re.compile(rf"\.({_NAME})|\[[0-9]+\]")
_DOTTED = re.compile(rf"{_NAME}(?:\.{_NAME})*")
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')
_LIFECYCLE_BOOLEANS = frozenset({"create_before_destroy", "prevent_destroy"})
_OUTPUT_LITERALS = frozenset({"description", "deprecated"})
_OUTPUT_BOOLEANS = frozenset({"sensitive", "ephemeral"})
_RESOURCE_LIKE = frozenset({"resource", "data"})


class _Unsure(Exception):
    """This block needs the full analysis."""


class QuickResult:
    """The file's diagnostics (see the module doc) and its definitions, like
    `hcljson.incremental.FileResult.definitions`."""

    __slots__ = ("diagnostics", "_keys", "_places", "certified", "analysed")

    def __init__(self, diagnostics: list[Diagnostic], keys: list[Hashable], places: list[tuple[int, int]],
                 certified: int, analysed: int) -> None:
        self.diagnostics = diagnostics
        self._keys = keys
        self._places = places
        self.certified = certified  # blocks read from values
        self.analysed = analysed  # blocks sent through the full analysis

    def definitions(self) -> tuple[list[Hashable], Callable[[int], tuple[int, int]]]:
        places = self._places
        return self._keys, places.__getitem__


def quick_file(text: str, path: str | None = None, scope: Scope | None = None) -> QuickResult | None:
    """See the module doc."""
    if is_tfvars(path) or is_test_file(path) or (path and is_override_file(path)):
        return None
    if scope is not None and getattr(scope, "provider_schemas", None) is not None:
        return None
    schema = schema_for_path(path)
    found = skim(text, schema)
    if found is None:
        return None
    return _Quick(text, path, scope, found).run()


class _Quick:
    __slots__ = ("text", "path", "scope", "skim")

    def __init__(self, text: str, path: str | None, scope: Scope | None, found: Skim) -> None:
        self.text = text
        self.path = path
        self.scope = scope
        self.skim = found

    def run(self) -> QuickResult | None:
        blocks = self.skim.blocks
        # What each certified block refers to, as position-free keys (see `_certify`): a key is
        # resolved once however many blocks use it (`local.name_prefix` in every resource of a
        # CDKTF stack), then the blocks of a key that resolves with a diagnostic are analysed.
        users: dict[tuple, list[int]] = {}
        certified = [True] * len(blocks)
        for i, b in enumerate(blocks):
            found: list[tuple] = []
            try:
                _certify(b, found)
            except _Unsure:
                certified[i] = False
                continue
            for key in found:
                got = users.get(key)
                if got is None:
                    users[key] = [i]
                else:
                    got.append(i)
        analysed: dict[int, tuple] = {}
        for i, ok in enumerate(certified):
            if not ok:
                got = self.analyse(blocks[i])
                if got is None:
                    return None
                analysed[i] = got
        tail = self.skim.tail
        if tail is not None:  # after a syntax error: the rest of the text, analysed as one piece
            got = self.analyse(tail, self.skim.openers)
            if got is None:
                return None
            analysed[len(blocks)] = got
            blocks = (*blocks, tail)
        keys, places = self.definitions(blocks, analysed)
        own = frozenset(keys)
        if users:
            order = list(users)
            refs: list = []
            for p, key in enumerate(order):
                refs.extend(_refs_of(key, p))
            problems, _ = resolve(refs, own, self.scope)
            if problems:
                for p in sorted({d.start for d in problems}):
                    for i in users[order[p]]:
                        if i not in analysed:
                            got = self.analyse(blocks[i])
                            if got is None:
                                return None
                            analysed[i] = got
                keys, places = self.definitions(blocks, analysed)
        syntax: list[Diagnostic] = []
        structure: list[Diagnostic] = []
        strings: list[Diagnostic] = []
        resolved: list[Diagnostic] = []
        for i in sorted(analysed):
            s, t, refs_, _, x = analysed[i]
            syntax.extend(x)
            structure.extend(s)
            strings.extend(t)
            if refs_:
                found_, _ = resolve(refs_, own, self.scope)
                resolved.extend(found_)
        structure.extend(duplicates(keys, places.__getitem__))  # type: ignore[arg-type]
        structure.sort(key=_range)
        strings.sort(key=_range)
        resolved.sort(key=_range)
        out = syntax + structure + strings + resolved
        out.sort(key=_range)
        return QuickResult(out, keys, places, len(blocks) - len(analysed), len(analysed))

    def definitions(self, blocks: Sequence[Skimmed], analysed: dict) -> tuple[list, list]:
        keys: list[Hashable] = []
        places: list[tuple[int, int]] = []
        for i, b in enumerate(blocks):
            got = analysed.get(i)
            if got is None:
                lab = b.labels[-1]
                keys.append((b.type_name, *[x.value for x in b.labels]))
                places.append((lab.start, lab.end))
            else:
                keys.extend(k for k, _ in got[3])
                places.extend(p for _, p in got[3])
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
        result = file_engine(self.path, None).update(sub, parsed.root)
        try:
            syntax = [_moved(d, move) for d in parsed.diagnostics]
            structure = [_moved(d, move) for d in result.structure if d.code != DUPLICATE_BLOCK]
            strings = [_moved(d, move) for d in result.strings]
            keys_, place = result.definitions()
            defs = [(k, move(*place(j))) for j, k in enumerate(keys_)]
        except _Unsure:
            return None
        # Schema sites check nothing without provider schemas (the quick open's condition).
        refs = [r.shifted(delta) for r in result.body.refs() if type(r) is not SchemaSite]
        return structure, strings, refs, defs, syntax


def _moved(d: Diagnostic, move: Callable[[int, int], tuple[int, int]]) -> Diagnostic:
    start, end = move(d.start, d.end)
    return replace(
        d, start=start, end=end,
        related=tuple(replace(r, start=x, end=y) if r.uri is None else r for r in d.related for x, y in (move(r.start, r.end),)),
        fixes=tuple(replace(f, start=x, end=y) for f in d.fixes for x, y in (move(f.start, f.end),)),
    )


def _range(d: Diagnostic) -> tuple[int, int]:
    return (d.start, d.end)


def _structure_key(d: Diagnostic) -> tuple:
    return (d.start, d.end, d.code, d.summary, d.detail)


# ---- certification ---------------------------------------------------------------------------


def _certify(b: Skimmed, found: list) -> None:
    """Append what block value `b` refers to, as keys (`_refs_of`), to `found`; or `_Unsure`."""
    t = b.type_name
    body = b.value
    if type(body) is not Pairs or not body:
        raise _Unsure(t)
    for lab in b.labels:
        if not _IDENT(lab.value):
            raise _Unsure(lab.value)
    names = {k for k, _ in body}
    if len(names) != len(body):
        raise _Unsure("repeated name")
    if t in _RESOURCE_LIKE:
        if "count" in names and "for_each" in names:
            raise _Unsure("count and for_each")
        ctx = (IN_COUNT if "count" in names else 0) | (IN_FOR_EACH if "for_each" in names else 0)
        for k, v in body:
            if k == "//":
                continue
            if k == "count" or k == "for_each":
                if type(v) in (Pairs, list):
                    raise _Unsure(k)
                _expression(v, ctx & ~(IN_COUNT if k == "count" else IN_FOR_EACH), found)
            elif k == "provider":
                if type(v) is not str or not STATIC_REFERENCE.fullmatch(v):
                    raise _Unsure(k)
                found.append((_PROVIDER, v, ctx))
            elif k == "depends_on":
                _static_list(v, ctx, found)
            elif k == "lifecycle":
                _lifecycle(v)
            elif k in ("dynamic", "provisioner", "connection"):
                raise _Unsure(k)
            else:
                _expression(v, ctx, found)
        return
    if t == "output":
        if "value" not in names:
            raise _Unsure("value")
        for k, v in body:
            if k == "//":
                continue
            if k == "value":
                _expression(v, 0, found)
            elif k in _OUTPUT_LITERALS:
                if v is not None and (type(v) is not str or "${" in v or "%{" in v):
                    raise _Unsure(k)
            elif k in _OUTPUT_BOOLEANS:
                if v is not None and type(v) is not bool:
                    raise _Unsure(k)
            elif k == "depends_on":
                _static_list(v, 0, found)
            else:
                raise _Unsure(k)
        return
    raise _Unsure(t)


# Keys of what a block refers to: (kind, text, context flags).
_TRAVERSAL_KEY = "traversal"  # a `${name.name[0]...}` interpolation or a static reference string
_PROVIDER = "provider"  # a resource's `provider` string
_TEMPLATE_KEY = "template"  # any other template without diagnostics: its text


def _refs_of(key: tuple, at: int) -> list:
    """The refs a key stands for, every position `at`."""
    kind, text, flags = key
    if kind == _TRAVERSAL_KEY:
        head = _STEP.search(text)
        root = text if head is None else text[: head.start()]
        steps: list[Step] = []
        if head is not None:
            for s in _STEP.finditer(text, head.start()):
                name = s.group(1)
                if name is None:  # a numeric index ends the static steps
                    break
                steps.append(Step(name, at, at))
        return [Reference(root, at, at, tuple(steps), flags)]
    if kind == _PROVIDER:
        made = string_refs(text, _NATIVE, True)
    else:
        made = _template_refs(text)
        assert made is not None
    return [_at(r, at, flags) for r in made]


def _at(r: Any, at: int, flags: int) -> Any:
    """`r` at offset `at` (steps included), its context widened by `flags`."""
    if type(r) is Reference:
        return Reference(r.root, at, at, tuple([Step(s.name, at, at, s.index) for s in r.steps]), r.context | flags)
    return replace(r, start=at, end=at)


def _static_list(v: object, ctx: int, found: list) -> None:
    if type(v) is not list:
        raise _Unsure("static list")
    flags = STATIC | ctx
    for x in v:
        if type(x) is not str or not _DOTTED.fullmatch(x):
            raise _Unsure("static reference")
        found.append((_TRAVERSAL_KEY, x, flags))


def _lifecycle(v: object) -> None:
    if type(v) is not Pairs or len({k for k, _ in v}) != len(v):
        raise _Unsure("lifecycle")
    for k, x in v:
        if k in _LIFECYCLE_BOOLEANS:
            if type(x) is not bool:
                raise _Unsure(k)
        elif k == "ignore_changes":
            if x == "all":
                continue
            if type(x) is not list or not all(type(e) is str and _DOTTED.fullmatch(e) for e in x):
                raise _Unsure(k)
        else:
            raise _Unsure(k)


def _expression(v: object, ctx: int, found: list) -> None:
    """An expression-mode value: every string a template, object keys distinct and plain."""
    t = type(v)
    if t is str:
        if "${" in v or "%{" in v:  # type: ignore[operator]
            _template(v, ctx, found)  # type: ignore[arg-type]
        return
    if t is not Pairs and t is not list:
        return
    stack = [v]
    while stack:
        node = stack.pop()
        if type(node) is Pairs:
            if len(node) > 1 and len({k for k, _ in node}) != len(node):
                raise _Unsure("repeated key")
            for k, x in node:
                if "${" in k or "%{" in k:
                    raise _Unsure("template key")
                tx = type(x)
                if tx is str:
                    if "${" in x or "%{" in x:
                        _template(x, ctx, found)
                elif tx is Pairs or tx is list:
                    stack.append(x)
        else:
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
