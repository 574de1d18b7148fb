"""What references mean: each reference of a block checked against what the module declares.

    Scope                                  what the module declares beyond the file (a protocol)
    resolve(refs, own, scope) -> (diagnostics, uses)
    affected(changed) -> frozenset         the `uses` keys a change of declarations reaches

Codes (documented in docs/diagnostics.md):

* `reference/undeclared` -- `var.x`, `local.x`, `module.x`, `data.t.n`, `ephemeral.t.n`, `t.n`
  that no file of the module declares; "Did you mean ...?" with a quick fix when a declared name of
  the same kind is close.
* `reference/undeclared-output` -- `module.m.x` where `m` is a local module (`source: "./..."`)
  whose files declare no output `x`.
* `reference/out-of-context` -- `count.*` where the block sets no `count`, `each.*` without
  `for_each`, `self` outside a provisioner, connection or postcondition.
* `reference/unknown-attribute` -- `path.x` other than `module`, `root`, `cwd`; `terraform.x`
  other than `workspace` (and `applying`); `count.x` other than `index`; `each.x` other than `key`,
  `value`.
* `reference/unknown-provider` -- a provider configuration with an alias (`aws.west`) that neither a
  `provider` block nor `configuration_aliases` declares.
* `reference/unknown-function` -- a call of a function that is not built into the engine (Terraform
  or OpenTofu: `Scope.engine`); "Did you mean ...?" with a quick fix; a function of the other engine
  says so. Provider-defined functions (`provider::aws::arn_parse`) are the next code's.
* `reference/unknown-provider-function` -- `provider::NAME::FUNCTION` where the module's
  `required_providers` (any of its files) declares no provider named NAME (both engines); under
  Terraform also where NAME's provider schema is loaded with its `functions` and has no FUNCTION,
  and a name of another shape (`provider::a::b::f`; OpenTofu reads that as a configuration alias).
  Nothing is said where the provider is required but its functions are not known (no schema, or a
  schema without `functions`), nor, under OpenTofu, of a function its schema lacks (a configured
  provider may offer more).
* `reference/argument-count` -- a built-in or provider-defined function (with a known signature)
  called with too few or too many arguments.
* `reference/deprecated-output` -- (warning) `module.m.x` where output `x` of the local module `m`
  is `deprecated` ("Deprecated value used", its message as detail).

Contract
--------
* `own` are the declaration keys of the file itself (`validate.definitions` keys), `scope` answers
  for the other files of the module (None: nothing is known beyond the file, so nothing is
  reported as undeclared: a file alone is never taken for a whole module).
* `uses` is what the answer depends on: the key each reference names, and `(UNDECLARED, kind)`
  for each kind with an undeclared reference (its suggestion depends on every name of that
  kind). `affected(changed)` maps changed declaration keys to those, so an engine resolves again
  exactly the blocks a change of declarations can change.
* Ranges are Terraform's: an undeclared name on the address the reference parser reads
  (`var.region` of `var.region.x`, `aws_instance.web[0]`, `module.m.out`), context errors on the
  root, an unknown attribute of a built-in object on the whole traversal (`path.nope`), an
  unexpected instance key on the address with its key, a missing one on the address, what
  follows an address in `depends_on` on what follows it (`.id`), an output a child module does
  not declare on its step with the dot (`.nope`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from ...diagnostic import ERROR, WARNING, Deferred, Diagnostic, Fix
from ...hcljson.problems import suggestion
from ...hcljson.schema import STRING_TEMPLATE
from ...hcljson.values import quoted
from ..definition import catalogue, functions
from ..definition.catalogue import NAMESPACES, STEP_TYPE
from ..definition.ctytypes import render_type
from ..definition.language import (
    CONSTRAINT_KIND,
    FUNCTIONS_SINCE,
    LANGUAGE_CHANGED,
    NEWER_VERSION,
    Language,
    choose,
    function_available,
    module_constraints,
)
from ..expressions.conversion import conversion_problem
from ..expressions.evaluate import (
    DYNAMIC,
    INVALID_INDEX,
    INVALID_INTERPOLATION,
    UNSUPPORTED_ATTRIBUTE,
    Val,
    get_attr,
    get_index,
    interpolation_problem,
    type_value,
    typed_problems,
    typed_value,
)
from ..expressions.repetition import (
    INVALID_COUNT,
    INVALID_FOR_EACH,
    count_problem,
    for_each_problem,
    template_value,
    whole_expression,
    whole_reference,
)
from ..expressions.templates import string_tree
from ..schemas.provider_lookup import INHERITED_USES, MODULE_PROVIDERS, PROVIDER_USE
from ..schemas.provider_schema import BUILTIN_TERRAFORM, provider_address, provider_of
from ..schemas.provider_schema import builtin as builtin_schemas
from .argument_sites import WRONG_TYPE, ArgumentSite, expected_type
from .local_cycles import LOCAL_USES, LOCAL_USES_USED, CycleSite, cycle_of
from .local_values import LOCAL_REFERENCE, LOCAL_VALUE, LOCAL_VALUE_USED, local_value
from .module_calls import INPUTS_OF, VARIABLE_INPUT
from .module_calls import WRONG_TYPE as WRONG_INPUT_TYPE
from .provider_passing import CONFIGURED
from .references import (
    ADDRESS,
    BLOCK_ADDRESS,
    DEPENDS_ON,
    GUARDED,
    IN_COUNT,
    IN_FOR_EACH,
    IN_SELF,
    IN_TEXT,
    INSTANCED,
    MAY_BE_UNDECLARED,
    PROVIDER,
    REPETITION,
    STATIC,
    UNEVALUATED,
    Call,
    Reference,
    address_length,
    output_step,
    repetition_key,
    subject,
)
from .repetition_sites import RepetitionSite
from .typed_sites import TypedSite

UNDECLARED = "reference/undeclared"
UNDECLARED_OUTPUT = "reference/undeclared-output"
DEPRECATED_OUTPUT = "reference/deprecated-output"
OUT_OF_CONTEXT = "reference/out-of-context"
UNKNOWN_ATTRIBUTE = "reference/unknown-attribute"
UNKNOWN_PROVIDER = "reference/unknown-provider"
UNKNOWN_FUNCTION = "reference/unknown-function"
UNKNOWN_PROVIDER_FUNCTION = "reference/unknown-provider-function"
ARGUMENT_COUNT = "reference/argument-count"
INVALID_REFERENCE = "reference/invalid"
UNEXPECTED_KEY = "reference/unexpected-instance-key"
MISSING_KEY = "reference/missing-instance-key"
IMPORT_KEY = "reference/import-instance-key"
DEPENDS_ON_ATTRIBUTE = "reference/depends-on-attribute"
CYCLE = "reference/cycle"

#: Fixed attributes of the built-in objects.
BUILTIN_ATTRIBUTES = {
    "path": ("module", "root", "cwd"),
    "terraform": ("workspace", "applying"),
    "count": ("index",),
    "each": ("key", "value"),
}
#: Key kind -> how Terraform's summary of an undeclared reference names it (a data source and an
#: ephemeral resource are resources there; the detail says which).
_TERRAFORM_WHAT = {"module": "module", "data": "resource", "ephemeral": "resource"}
#: Key kind -> how a message names it.
_WHAT = {
    "variable": "input variable",
    "local": "local value",
    "module": "module call",
    "data": "data source",
    "ephemeral": "ephemeral resource",
    "action": "action",
    "resource": "resource",
}
_PREFIX = {"variable": "var.", "local": "local.", "module": "module.", "data": "data.", "ephemeral": "ephemeral.",
           "action": "action.", "resource": ""}


class Scope(Protocol):
    """What the other files of the module declare."""

    def declared(self, key: tuple) -> bool: ...

    def keys(self, kind: str) -> Iterable[tuple]:
        """Every declaration key of `kind` (for suggestions)."""
        ...

    @property
    def engine(self) -> str | None:
        """"terraform" or "opentofu": whose built-in functions exist (None: either engine's)."""
        ...

    def module_outputs(self, name: str, own: frozenset) -> frozenset[str] | None:
        """The outputs of module call `name` when its source is a local directory, else None (`own`:
        the file's own declarations, where the module call may be)."""
        ...

    def module_inputs(self, name: str, own: frozenset) -> Mapping[str, Any] | None:
        """The input variables (`module_calls.ChildVariable` by name) of module call `name` when its
        child module is known (a local directory, or installed), else None."""
        ...

    def module_providers(self, name: str, own: frozenset) -> Any:
        """What the child of module call `name` says of provider configurations
        (`provider_passing.ChildProviders`), or None when it is not known. A scope may lack it."""
        ...

    @property
    def engine_version(self) -> str | None:
        """The `engineVersion` setting ("1.11", "1.16.0-rc1"), or None: chosen from `required_version`
        (`language.choose`). A scope may lack it (None). When it changes, the owner tells the engine
        `language.LANGUAGE_CHANGED`."""
        ...

    @property
    def provider_schemas(self) -> Any:
        """The provider schemas known for the module (`provider_schema.ProviderSchemas`), or None.
        When they change, the owner tells the engine `SCHEMAS_CHANGED` (`IncrementalFile.rescope`)."""
        ...


#: Declaration kinds whose change changes what `module.<name>.<output>` means in calling modules.
OUTPUT_KINDS = frozenset({"output", "module-source", "output-deprecated"})

#: The key every resolution that read `Scope.provider_schemas` uses.
SCHEMAS_CHANGED = ("provider-schemas",)


#: Definitions whose change may let a child module inherit a configuration of a `provider` block, or
#: no longer: a call's source or `providers`, a child's uses and its own provider blocks.
_INHERITANCE_KINDS = frozenset({PROVIDER_USE, MODULE_PROVIDERS, "module-source", "provider"})
#: What a module call's checks read of its child and of its own module (`module_calls`: inputs,
#: and the provider configurations passed, `provider_passing`).
_CALL_KINDS = frozenset({"variable-input", "module-source", "provider", CONFIGURED, "provider-requirement",
                         "provider-alias"})
#: Every kind of key a caller in another module reads of its child (outputs, input variables, the
#: call and provider facts): a change of one is told to the open documents of other modules
#: (`workspace.Workspace._tell_callers`).
CHILD_KINDS = OUTPUT_KINDS | _INHERITANCE_KINDS | _CALL_KINDS


def affected(changed: frozenset) -> frozenset:
    """The `uses` keys that declarations `changed` (appeared or went) reach."""
    out = set(changed)
    for key in changed:
        if isinstance(key, tuple) and key:
            out.add((UNDECLARED, key[0]))
            if key[0] in OUTPUT_KINDS:
                out.add(("output-of",))
            if key[0] in _CALL_KINDS:
                out.add(INPUTS_OF)
            if key[0] in _INHERITANCE_KINDS:
                out.add(INHERITED_USES)
            if key[0] == PROVIDER_USE:
                out.add(_PROVIDER_USES)
            if key[0] == VARIABLE_INPUT and len(key) > 1:
                out.add((VARIABLE_TYPE_USED, key[1]))
            elif key[0] == LOCAL_VALUE or key[0] == LOCAL_REFERENCE:
                out.add((LOCAL_VALUE_USED, key[1]))
            elif key[0] == LOCAL_USES:
                out.add(LOCAL_USES_USED)
            elif key[0] == "provider-requirement" and len(key) > 1:
                out.add(("provider-source", key[1]))
            elif key[0] == CONSTRAINT_KIND:
                out.add(LANGUAGE_CHANGED)
    return frozenset(out)


_LANGUAGES: dict[tuple, tuple[frozenset, Language]] = {}


def module_language(own: frozenset, scope: Scope) -> Language:
    """The language (engine and version) the module of a file is read by: `scope.engine`, its
    `engine_version` setting, and the version constraints of the file (`own`) and of the module's
    other files (`language.choose`); remembered per (own keys, scope revision, setting)."""
    engine = scope.engine or "terraform"
    setting = getattr(scope, "engine_version", None)
    token = (id(own), len(own), id(scope), getattr(scope, "revision", None), engine, setting)
    cached = _LANGUAGES.get(token)
    if cached is not None and cached[0] is own:
        return cached[1]
    keys = [k for k in own if k[0] == CONSTRAINT_KIND]
    keys.extend(scope.keys(CONSTRAINT_KIND))
    got = choose(engine, setting, module_constraints(keys, engine))
    if len(_LANGUAGES) > 64:
        _LANGUAGES.clear()
    _LANGUAGES[token] = (own, got)
    return got


def resolve(refs: Sequence[Reference | Call | RepetitionSite | TypedSite | ArgumentSite | CycleSite], own: frozenset,
            scope: Scope | None) -> tuple[list[Diagnostic], frozenset]:
    out: list[Diagnostic] = []
    uses: set = set()
    engine = scope.engine if scope is not None else None
    candidates: dict[str, tuple] = {}  # kind -> `_candidates`, for this call's undeclared references
    schemas_seen: dict[tuple, Any] = {}  # (kind, type) -> `_referenced_schema`'s answer, for this call
    for ref in refs:
        if type(ref) is not Reference:
            out.extend(_site_problems(ref, own, scope, uses, engine, schemas_seen))  # type: ignore[arg-type]
            continue
        problem = _invalid(ref) or _context(ref) or _depends_on(ref)
        if problem is not None:
            out.append(problem)
            continue
        found = subject(ref)
        if found is None:
            continue
        key, used = found
        uses.add(key)
        if scope is None:
            continue
        if ref.context & PROVIDER:
            if key[2] is not None and key not in own and not scope.declared(key) and not _aliased(key, own, scope):
                out.append(_unknown_provider(ref, key))
            continue
        if ref.context & MAY_BE_UNDECLARED:
            continue  # `moved.to`: a reference for navigation, declared or not
        if key in own or scope.declared(key):
            if ref.context & BLOCK_ADDRESS and key[0] == "resource" and not ref.context & IN_FOR_EACH:
                problem = _import_key(ref, key, used, own, scope, uses)
                if problem is not None:
                    out.append(problem)
                    continue
            if key[0] in INSTANCED:
                problem = (_module_instances if key[0] == "module" else _instance_key)(ref, key, used, own, scope, uses)
                if problem is not None:
                    out.append(problem)
                    continue
            problem = _typed(ref, key, own, scope, uses, schemas_seen)
            if problem is not None:
                out.append(problem)
                continue
            if key[0] == "module" and output_step(ref) is not None and not _single_indexed(ref, key, own, scope, uses):
                uses.add(("output-of",))
                problem = _module_output(ref, scope, own)
                if problem is not None:
                    out.append(problem)
            continue
        kind = key[0]
        declared = candidates.get(kind)
        if declared is None:  # (the first undeclared reference of its kind in this call)
            uses.add((UNDECLARED, kind))
            declared = candidates[kind] = _candidates(own, scope, kind)
        out.append(_undeclared(ref, key, used, declared))
    return out, frozenset(uses)


def _site_problems(ref: Call | RepetitionSite | TypedSite | ArgumentSite | CycleSite, own: frozenset,
                   scope: Scope | None, uses: set, engine: str | None, seen: dict) -> list[Diagnostic]:
    """What `resolve` says of a site or a function call (`seen`: the call's memo), each kind by its
    own rule: the module's declarations decide them (nothing without a `scope`), except a built-in
    function's arguments count."""
    t = type(ref)
    if t is TypedSite:
        return _typed_template(ref, own, scope, uses) if scope is not None else []  # type: ignore[arg-type]
    if t is RepetitionSite:
        problem = _repetition_value(ref, own, scope, uses) if scope is not None else None  # type: ignore[arg-type]
    elif t is ArgumentSite:
        problem = _argument_value(ref, own, scope, uses) if scope is not None else None  # type: ignore[arg-type]
    elif t is CycleSite:
        problem = _local_cycle(ref, own, scope, uses, seen) if scope is not None else None  # type: ignore[arg-type]
    elif functions.is_provider_function(ref.name):  # type: ignore[union-attr]
        problem = _provider_call(ref, own, scope, uses) if scope is not None else None  # type: ignore[arg-type]
    else:
        problem = _call(ref, engine)  # type: ignore[arg-type]
        if problem is None and scope is not None and ref.name in _VERSIONED_FUNCTIONS:  # type: ignore[union-attr]
            uses.add(LANGUAGE_CHANGED)
            problem = _call_version(ref, module_language(own, scope))  # type: ignore[arg-type]
    return [] if problem is None else [problem]


def _context(ref: Reference) -> Diagnostic | None:
    root, ctx = ref.root, ref.context
    if ctx & (STATIC | PROVIDER):
        return None
    # `count.index`, `each.key`: the address Terraform reports (its root and attribute).
    if root == "count" and not ctx & IN_COUNT:
        return _diag(ref.start, _attribute_end(ref), OUT_OF_CONTEXT, '"count" is not available here',
                     'count.index is only available in a block that sets "count".')
    if root == "each" and not ctx & IN_FOR_EACH:
        return _diag(ref.start, _attribute_end(ref), OUT_OF_CONTEXT, '"each" is not available here',
                     'each.key and each.value are only available in a block that sets "for_each".')
    if root == "self" and not ctx & IN_SELF:
        return _diag(ref.start, ref.end, OUT_OF_CONTEXT, '"self" is not available here',
                     "self is only available in provisioner and connection blocks and in postconditions.")
    allowed = BUILTIN_ATTRIBUTES.get(root)
    if allowed is not None and ref.steps and ref.steps[0].name not in allowed:
        step = ref.steps[0]
        hint = suggestion(step.name, allowed)
        return _diag(ref.start, step.end, UNKNOWN_ATTRIBUTE, f'Invalid "{root}" attribute',
                     f'"{root}" has no attribute {quoted(step.name)}; it has ' + ", ".join(quoted(a) for a in allowed) + "."
                     + (f" Did you mean {quoted(hint)}?" if hint else ""),
                     (Fix(step.start, step.end, hint, f"Change to {quoted(hint)}"),) if hint else ())
    return None


def _attribute_end(ref: Reference) -> int:
    """The end of `ref`'s root and first attribute (`count.index`), or of its root alone."""
    return ref.steps[0].end if ref.steps and not ref.steps[0].index else ref.end


_TYPED_ROOTS = frozenset(catalogue.TYPED_BLOCKS)
#: What the type step of a typed namespace names, as Terraform's messages say it.
_TYPE_NOUN = {"data": "data source", "ephemeral": "ephemeral resource", "action": "action", "resource": "resource"}


def _invalid(ref: Reference) -> Diagnostic | None:
    """What Terraform's reference parser rejects before anything is looked up: a namespace or a
    built-in object alone (`var`, `path`), a typed namespace without its type and name (`data.x`),
    a resource type without a name (`foo`). Provider references and static addresses other than
    `depends_on` have rules of their own."""
    root = ref.root
    first = ref.steps[0] if ref.steps else None
    if first is not None and not first.index and root not in _TYPED_ROOTS:
        return None  # the common case, `var.x`, `aws_x.a`: nothing more to read
    ctx = ref.context
    if ctx & PROVIDER or (ctx & (STATIC | ADDRESS) and not ctx & DEPENDS_ON):
        return None
    steps = ref.steps + ref.rest
    namespace = NAMESPACES.get(root)
    if root == "resource" or (namespace is not None and namespace.step == STEP_TYPE):
        if len(steps) >= 2 and not steps[0].index and not steps[1].index:
            return None
        return _diag(ref.start, ref.end_all, INVALID_REFERENCE, "Invalid reference",
                     f'The "{root}" object must be followed by two attribute names: the {_TYPE_NOUN.get(root, root)} '
                     "type and the resource name.")
    if namespace is not None:
        if root == "self" or (steps and not steps[0].index):
            return None
        if steps:  # `var["x"]`: HCL reads it, Terraform does not
            return _diag(ref.end, steps[0].stop, INVALID_REFERENCE, "Invalid reference",
                         f'The "{root}" object does not support this operation.')
        return _diag(ref.start, ref.end, INVALID_REFERENCE, "Invalid reference",
                     f'The "{root}" object cannot be accessed directly. Instead, access one of its attributes.')
    if steps and not steps[0].index:
        return None
    return _diag(ref.start, ref.end, INVALID_REFERENCE, "Invalid reference",
                 "A reference to a resource type must be followed by at least one attribute access, "
                 "specifying the resource name.")


def _depends_on(ref: Reference) -> Diagnostic | None:
    """An element of `depends_on` that goes on after its address (`aws_x.a.id`): Terraform waits
    for whole objects only. The range is what follows the address, as Terraform's."""
    if not ref.context & DEPENDS_ON:
        return None
    n = address_length(ref)
    steps = ref.steps + ref.rest
    if n is None or len(steps) <= n:
        return None
    return _diag(steps[n - 1].stop, ref.end_all, DEPENDS_ON_ATTRIBUTE, "Invalid depends_on reference",
                 "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.")


def _address(key: tuple) -> str:
    """`aws_x.a`, `data.t.n`: the resource an instance-key message names."""
    return ".".join(key[1:]) if key[0] == "resource" else ".".join(key)


def _repetition(key: tuple, own: frozenset, scope: Scope, uses: set) -> str | None:
    """`count` or `for_each` when declaration `key` sets it, else None (its uses recorded)."""
    found = None
    for mode in REPETITION:
        fact = repetition_key(key, mode)
        uses.add(fact)
        if found is None and (fact in own or scope.declared(fact)):
            found = mode
    return found


def _instance_key(ref: Reference, key: tuple, used: int, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """Terraform's static checks of the step after a resource's (or data source's) name: an index
    key needs `count` or `for_each` (a computed key or a splat is never checked); an attribute
    needs an instance key when the resource has either."""
    steps = ref.steps + ref.rest
    if len(steps) <= used or (ref.context & (STATIC | ADDRESS) and not ref.context & DEPENDS_ON):
        return None  # `moved.to`, `import.to`, `replace_triggered_by` have rules of their own
    after = steps[used]
    mode = _repetition(key, own, scope, uses)
    address = _address(key)
    if after.index:
        if mode is not None:
            return None
        return _diag(ref.start, after.stop, UNEXPECTED_KEY, "Unexpected resource instance key",
                     f'Because {address} does not have "count" or "for_each" set, references to it must not include '
                     "an index key. Remove the bracketed index to refer to the single instance of this resource.")
    if mode is None or ref.context & (STATIC | ADDRESS):
        return None
    example = f"{address}[count.index]" if mode == "count" else f"{address}[each.key]"
    return _diag(ref.start, steps[used - 1].stop, MISSING_KEY, "Missing resource instance key",
                 f'Because {address} has "{mode}" set, its attributes must be accessed on specific instances. '
                 f"For example, to correlate with indices of a referring resource, use: {example}")


def _import_key(ref: Reference, key: tuple, used: int, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """An import block's `to` (without the import's own `for_each`) whose instance key does not fit
    the resource's `count` / `for_each`: a string key needs `for_each`, a number `count`, no key
    neither (Terraform's "Invalid import 'to' expression"), on the whole address."""
    steps = ref.steps + ref.rest
    mode = _repetition(key, own, scope, uses)
    after = steps[used] if len(steps) > used else None
    end = (after.stop if after is not None else steps[used - 1].end) if used else ref.end
    if after is None:
        why = None if mode is None else f"is using {mode}"
    elif not after.index:
        return None
    elif used < len(ref.steps):  # a static step: a string key
        why = None if mode == "for_each" else "does not use for_each"
    elif after.name.isdigit():  # a number key (read past the static steps)
        why = None if mode == "count" else "does not use count"
    else:
        return None  # a key Terraform works out later
    if why is None:
        return None
    if after is None:
        needs = f'has "{mode}" set, so the address needs an instance key ([0] for count, ["key"] for for_each).'
    else:
        needs = f"takes {_IMPORT_KEYS[mode]}."
    return _diag(ref.start, end, IMPORT_KEY, "Invalid import 'to' expression", f"The target resource {why}: {_address(key)} {needs}")


#: What instance keys a resource takes, by its repetition (`_import_key`'s detail).
_IMPORT_KEYS = {None: "no instance key", "count": "number keys ([0])", "for_each": 'string keys (["key"])'}


def _single_indexed(ref: Reference, key: tuple, own: frozenset, scope: Scope, uses: set) -> bool:
    """`module.m[0].out` where the call sets neither `count` nor `for_each`: Terraform's validate
    checks nothing there (the call is one object, and indexing it is left to the plan)."""
    steps = ref.steps + ref.rest
    return len(steps) > 1 and steps[1].index and _repetition(key, own, scope, uses) is None


def _module_instances(ref: Reference, key: tuple, used: int, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """An output read straight off a module call with `count` (`module.m.out`): the call is a list
    of objects then, as Terraform says. (With `for_each` it is a map, whose keys Terraform does not
    know while validating: nothing is reported; an index on a single call is not checked either.)"""
    steps = ref.steps + ref.rest
    if ref.context & (STATIC | ADDRESS) or len(steps) <= used or steps[used].index:
        return None
    if _repetition(key, own, scope, uses) != "count":
        return None
    step = steps[used]
    return _diag(steps[used - 1].stop, step.end, MISSING_KEY, "Unsupported attribute",
                 f"Can't access attributes on a list of objects. Did you mean to access attribute {quoted(step.name)} "
                 "for a specific element of the list, or across all elements of the list?")


def _undeclared(ref: Reference, key: tuple, used: int, declared: tuple[dict[str, Candidates], Candidates]) -> Diagnostic:
    """`reference/undeclared` on `ref` (`key` with its `used` steps), its detail and suggestion
    deferred (the suggestion to look for among `declared`, `_candidates` of its kind)."""
    kind = key[0]
    steps = ref.steps
    # The range: the address, as Terraform's (`var.region`, `aws_x.a[0]`, `module.m.out`).
    n = address_length(ref)
    start = ref.start
    end = (steps[n - 1] if n <= len(steps) else ref.rest[n - 1 - len(steps)]).stop if n else steps[used - 1].end
    last = steps[used - 1]
    # The type: the root, or the first step after a `resource.` prefix.
    ts, te = (steps[0].start, steps[0].end) if ref.root == "resource" else (start, ref.end)
    later = _NEW_TUPLE(_Suggestion, (kind, key, declared[0] if kind == "resource" or len(key) == 3 else declared[1],
                                     last.start - start, last.end - start, ts - start, te - start))
    return Deferred(start, end, ERROR, UNDECLARED, _UNDECLARED_SUMMARY.get(kind) or _undeclared_summary(kind),
                    "", (), (), later)


#: `_Suggestion(...)` without its `__new__` in Python (one per undeclared reference: 25,000 in a 5 MB file).
_NEW_TUPLE = tuple.__new__


def _undeclared_summary(kind: str) -> str:
    """Terraform's summary of an undeclared reference of `kind`."""
    return f"Reference to undeclared {_TERRAFORM_WHAT.get(kind, _WHAT.get(kind, kind))}"


_UNDECLARED_SUMMARY = {kind: _undeclared_summary(kind) for kind in (*_WHAT, *_TERRAFORM_WHAT)}


class _Suggestion(NamedTuple):
    """The detail of an undeclared reference ("No file of this module declares ...", then "Did you
    mean ...?") and its quick fix, written when its diagnostic is read (`diagnostic.Deferred`: only
    shown diagnostics are; a file with 24,750 undeclared references shows 1,000 by default): the
    closest declared name of the same kind (and type), else, for a resource, a type that declares
    the name. `declared` is the `_candidates` answer it searches (by type, or the names); the spans
    are the last name step's and the type's, from the diagnostic's start. A tuple (made 25,000 times
    by the open of a file with a misspelt reference in every resource: a frozen dataclass cost 3x
    more); equal when asked of the same candidates (tuple equality: the same object, or equal content)."""

    kind: str
    key: tuple
    declared: Any
    name_from: int
    name_to: int
    type_from: int
    type_to: int

    def __call__(self, base: int) -> tuple[str, tuple[Fix, ...]]:
        kind, key = self.kind, self.key
        # The address as written (`var.x`, `aws_x.a`, `data.t.n`): the key's names after the kind's prefix.
        written = f"{key[1]}.{key[2]}" if kind == "resource" else _PREFIX.get(kind, "") + ".".join(key[1:])
        known = f"No file of this module declares the {_WHAT.get(kind, kind)} {quoted(written)}."
        hint, fixes = self.suggested(base)
        return known + hint, fixes

    def suggested(self, base: int) -> tuple[str, tuple[Fix, ...]]:
        """" Did you mean ...?" and its quick fix, or nothing."""
        kind, key, prefix = self.kind, self.key, _PREFIX.get(self.kind, "")
        if kind == "resource" or len(key) == 3:
            name = _near(key[2], self.declared.get(key[1]))
            if name is not None:
                hint = f"{prefix}{key[1]}.{name}"
                return _did_you_mean(hint, Fix(base + self.name_from, base + self.name_to, name, f"Change to {quoted(hint)}"))
            if kind == "resource":
                # No such name of this type: maybe the type is misspelled.
                t = _near(key[1], _types_declaring(self.declared, key[2]))
                if t is not None:
                    hint = f"{t}.{key[2]}"
                    return _did_you_mean(hint, Fix(base + self.type_from, base + self.type_to, t, f"Change to {quoted(hint)}"))
            return "", ()
        name = _near(key[1], self.declared)
        if name is None:
            return "", ()
        hint = f"{prefix}{name}"
        return _did_you_mean(hint, Fix(base + self.name_from, base + self.name_to, name, f"Change to {quoted(hint)}"))


def _did_you_mean(hint: str, fix: Fix) -> tuple[str, tuple[Fix, ...]]:
    return f" Did you mean {quoted(hint)}?", (fix,)


# Candidates for suggestions, per (own declarations, scope revision, kind): a file with many undeclared
# references of one kind asks for the same candidates again and again (measured: without this, opening
# a 5 MB file with ~4,000 undeclared resources took 14 s instead of 0.6 s).
_CANDIDATES: dict[tuple, tuple[dict[str, Candidates], Candidates, frozenset]] = {}


# The same, by content: the quick open and the analysis after it resolve against equal but distinct
# sets of the file's keys, and the module's revision moves on in between (the open registers the
# file's declarations), so `_CANDIDATES` misses and every `Candidates` -- with every suggestion it
# remembered -- would be built again: 1.6 s of the 4.3 MB undeclared benchmark's prepare (of 1.1 s
# resolvable). Few entries: each holds a set of the file's keys.
_CANDIDATES_BY_CONTENT: dict[tuple, tuple[dict[str, Candidates], Candidates]] = {}


def _candidates(own: frozenset, scope: Scope, kind: str) -> tuple[dict[str, Candidates], Candidates]:
    """(type -> declared names of that type, declared names) of `kind` in the file and the module."""
    token = (id(own), len(own), id(scope), getattr(scope, "revision", None), kind)
    got = _CANDIDATES.get(token)
    if got is not None and got[2] is own:
        return got[0], got[1]
    others = frozenset(scope.keys(kind))
    content = (own, kind, others)
    made = _CANDIDATES_BY_CONTENT.get(content)
    if made is None:
        keys = [k for k in own if k[0] == kind]
        keys.extend(others)
        by_type: dict[str, set[str]] = {}
        for k in keys:
            if len(k) == 3:
                by_type.setdefault(k[1], set()).add(k[2])
        names = Candidates({k[1] for k in keys if len(k) == 2})
        made = ({t: Candidates(v) for t, v in by_type.items()}, names)
        if len(_CANDIDATES_BY_CONTENT) >= 8:  # the oldest goes: emptying it all could drop the entry the
            del _CANDIDATES_BY_CONTENT[next(iter(_CANDIDATES_BY_CONTENT))]  # build is about to ask again
        _CANDIDATES_BY_CONTENT[content] = made
    if len(_CANDIDATES) >= 64:
        del _CANDIDATES[next(iter(_CANDIDATES))]
    _CANDIDATES[token] = (*made, own)
    return made


class Candidates:
    """Declared names to suggest from. Few: `suggestion` (difflib's closest match) over them all.
    Many (generated configurations declare thousands of similar names): the names at one edit from
    the query (an insertion, deletion, substitution or adjacent swap), found through an index of
    every name with one character deleted. What a query needs beyond the names (their sorted order,
    the index, the names by lower case) is built once, on first need, so a query costs no more than
    the search itself (the issue: sorting and lower-casing every name for each of 18,500 undeclared
    references made a 16 MB document take 24.8 s)."""

    __slots__ = ("_answers", "_deletions", "_lower", "_sorted", "names")

    FEW = 100

    def __init__(self, names) -> None:
        self.names = frozenset(names)
        self._sorted: list[str] | None = None
        self._lower: dict[str, str] | None = None
        self._deletions: dict[str, list[str]] | None = None
        self._answers: dict[str, str | None] = {}  # the quick open asks twice: by key, then in place

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def __len__(self) -> int:
        return len(self.names)

    def near(self, name: str) -> str | None:
        answers = self._answers
        if name in answers:
            return answers[name]
        if len(answers) > 100_000:
            answers.clear()
        answers[name] = found = self._near(name)
        return found

    def _near(self, name: str) -> str | None:
        if self._sorted is None:
            self._sorted = sorted(self.names)
        if len(self.names) <= self.FEW:
            return suggestion(name, self._sorted)
        if self._lower is None:
            lower: dict[str, str] = {}
            for c in self._sorted:
                lower.setdefault(c.lower(), c)  # the first in sorted order, as a scan finds it
            self._lower = lower
        same = self._lower.get(name.lower())
        if same is not None:
            return same
        index = self._index()
        found: set[str] = set(index.get(name, ()))  # one insertion into `name` gives them
        for variant in _deleted(name):
            if variant in self.names:
                found.add(variant)  # one deletion
            found.update(index.get(variant, ()))  # one substitution or adjacent swap
        found.discard(name)
        return min(found, key=lambda c: (abs(len(c) - len(name)), c)) if found else None

    def _index(self) -> dict[str, list[str]]:
        if self._deletions is None:
            index: dict[str, list[str]] = {}
            for c in self.names:
                for variant in _deleted(c):
                    index.setdefault(variant, []).append(c)
            self._deletions = index
        return self._deletions


_NO_CANDIDATES = Candidates(())


def _deleted(name: str) -> set[str]:
    return {name[:i] + name[i + 1 :] for i in range(len(name))}


# (id of a `_candidates` type mapping) -> (that mapping, name -> the types declaring it): a file with
# many misspelt resource types asks for the same index again and again.
_TYPES_BY_NAME: dict[int, tuple[dict, dict[str, Candidates]]] = {}


def _types_declaring(by_type: dict[str, Candidates], name: str) -> Candidates:
    """The types of `by_type` that declare `name`, as candidates (an index built once per mapping)."""
    got = _TYPES_BY_NAME.get(id(by_type))
    if got is None or got[0] is not by_type:
        index: dict[str, set[str]] = {}
        for t, declared in by_type.items():
            for n in declared.names:
                index.setdefault(n, set()).add(t)
        if len(_TYPES_BY_NAME) > 64:
            _TYPES_BY_NAME.clear()
        got = (by_type, {n: Candidates(ts) for n, ts in index.items()})
        _TYPES_BY_NAME[id(by_type)] = got
    return got[1].get(name) or _NO_CANDIDATES


def _near(name: str, candidates) -> str | None:
    if not candidates:
        return None
    if isinstance(candidates, Candidates):
        return candidates.near(name)
    return suggestion(name, list(candidates))


def _module_output(ref: Reference, scope: Scope, own: frozenset) -> Diagnostic | None:
    outputs = scope.module_outputs(ref.steps[0].name, own)
    if outputs is None:
        return None
    step = output_step(ref)
    if step is None:
        return None
    if step.name in outputs:
        return _deprecated_output(ref, step, scope, own)
    hint = suggestion(step.name, outputs)
    module = ref.steps[0].name
    steps = ref.steps + ref.rest
    dot = steps[steps.index(step) - 1].stop  # Terraform's range: `.out`, the dot included
    return _diag(
        dot, step.end, UNDECLARED_OUTPUT, "Unsupported attribute",
        f'Module "{module}" has no output {quoted(step.name)}: the module called "{module}" declares ' + (", ".join(quoted(o) for o in sorted(outputs)) if outputs else "no outputs")
        + "." + (f" Did you mean {quoted(hint)}?" if hint else ""),
        (Fix(step.start, step.end, hint, f"Change to {quoted(hint)}"),) if hint else (),
    )


def _deprecated_output(ref: Reference, step, scope: Scope, own: frozenset) -> Diagnostic | None:
    """A warning where a deprecated output of a local child module is used (Terraform 1.15
    internal/deprecation/deprecation.go: "Deprecated value used", the output's message as detail)."""
    deprecated = getattr(scope, "deprecated_outputs", None)
    message = deprecated(ref.steps[0].name, own).get(step.name) if deprecated is not None else None
    if message is None:
        return None
    return Diagnostic(ref.start, step.end, WARNING, DEPRECATED_OUTPUT, "Deprecated value used",
                      message or f"The output {quoted(step.name)} of module \"{ref.steps[0].name}\" is deprecated.")


_ENGINE_NAMES = {"terraform": "Terraform", "opentofu": "OpenTofu"}
_VERSIONED_FUNCTIONS = frozenset(name for _, name in FUNCTIONS_SINCE)


def _call_version(call: Call, language: Language) -> Diagnostic | None:
    since = function_available(call.name, language)
    if since is None:
        return None
    name = _ENGINE_NAMES[language.engine]
    return _diag(call.start, call.end, NEWER_VERSION, f"{language.name} does not have the function {quoted(call.name)}",
                 f"{quoted(call.name)} was introduced in {name} {since}; this module is read by {language.name}.")


def _call(call: Call, engine: str | None) -> Diagnostic | None:
    name = call.name
    if functions.is_provider_function(name):
        return None
    fn = functions.lookup(name, engine)
    if fn is None:
        elsewhere = functions.lookup(name, None) if engine is not None else None
        if elsewhere is not None:
            others = " and ".join(_ENGINE_NAMES[e] for e in elsewhere.engines)
            return _diag(call.start, call.end, UNKNOWN_FUNCTION, f"Function {quoted(name)} is not available in {_ENGINE_NAMES[engine]}",  # type: ignore[index]
                         f"{quoted(name)} exists only in {others}; this module is read by {_ENGINE_NAMES[engine]} "  # type: ignore[index]
                         "(see the \"engine\" setting).")
        hint = functions.closest(name, engine)
        return _diag(call.start, call.end, UNKNOWN_FUNCTION, f"Call to unknown function {quoted(name)}",
                     f"There is no built-in function named {quoted(name)}." + (f" Did you mean {quoted(hint)}?" if hint else ""),
                     (Fix(call.start, call.end, hint, f"Change to {quoted(hint)}"),) if hint else ())
    return _arguments(call, fn)


def _arguments(call: Call, fn: functions.Function) -> Diagnostic | None:
    """Too few or too many arguments for `fn`, a built-in or a provider's function, where Terraform
    reports it (`_count_range`)."""
    if functions.accepts(fn, call.args, call.expands):
        return None
    name = call.name
    return _diag(*_count_range(call, fn), ARGUMENT_COUNT, f"Wrong number of arguments to {quoted(name)}",
                 f"{quoted(name)} takes {_arity(fn)}, but this call passes {call.args}: {functions.signature(fn)}.")


def _count_range(call: Call, fn: functions.Function) -> tuple[int, int]:
    """Where HCL reports a call's wrong argument count: fewer than the signature's parameters at the
    `)` ("Not enough function arguments"), more than a function without a variadic parameter takes
    at the first one too many ("Too many function arguments", its `StartRange`); a count only the
    function's own code rejects (`join` with one argument) at the name through the `(` ("Error in
    function call"). The name when the call's parts are not known."""
    fixed = len(fn.parameters)
    if not call.expands and call.args < fixed and call.close[0] >= 0:
        return call.close
    given = call.args - 1 if call.expands else call.args  # (the expressions before an expanded list)
    if fn.variadic is None and given > fixed and len(call.arg_starts) > fixed:
        return call.arg_starts[fixed]
    return (call.start, call.open_end) if call.open_end >= 0 else (call.start, call.end)


def _provider_call(call: Call, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """A call of a provider-defined function, `provider::NAME::FUNCTION` (see the module doc)."""
    parts = call.name.split("::")
    engine = scope.engine
    tofu = engine == "opentofu"
    if len(parts) < 3 or not parts[1] or not parts[-1]:
        return None  # `provider::f`: no provider name; left to the parser's rules
    local, name = parts[1], parts[-1]
    uses.add(("provider-source", local))
    uses.add((UNDECLARED, "provider-requirement"))
    requirements = [k for k in own if k[0] == "provider-requirement"]
    requirements.extend(scope.keys("provider-requirement"))
    declared = sorted({k[1] for k in requirements if len(k) > 1})
    if local not in declared:
        hint = suggestion(local, declared)
        fixed = f"provider::{hint}::{'::'.join(parts[2:])}" if hint else None
        return _diag(call.start, call.end, UNKNOWN_PROVIDER_FUNCTION, "Unknown provider function",
                     f"{quoted(call.name)} calls a function of the provider {quoted(local)}, but this module's "
                     f"required_providers declares no provider named {quoted(local)}: a provider's functions "
                     "are only available where the module requires it." + (f" Did you mean {quoted(fixed)}?" if fixed else ""),
                     (Fix(call.start, call.end, fixed, f"Change to {quoted(fixed)}"),) if fixed else ())
    if len(parts) > 3 and not tofu:
        return _diag(call.start, call.end, UNKNOWN_PROVIDER_FUNCTION, "Unknown provider function",
                     f"{quoted(call.name)} is not a function name: a provider's function is called as "
                     f"provider::{local}::FUNCTION.")
    if len(parts) > 4:
        return None
    uses.add(SCHEMAS_CHANGED)
    schemas = scope.provider_schemas
    if schemas is None:
        return None
    sources = provider_sources(requirements)
    address = provider_address(local, sources, engine or "terraform")
    offered = schemas.functions(address)
    if offered is None:
        return None  # the provider's functions are not known
    fn = offered.get(name)
    if fn is not None:
        return _arguments(call, replace(fn, name=call.name))  # its signature shown as called
    if engine != "terraform":
        return None  # OpenTofu: a configured provider may offer functions its schema does not list
    if not offered:
        return _diag(call.start, call.end, UNKNOWN_PROVIDER_FUNCTION, "Unknown provider function",
                     f"The provider {quoted(local)} ({address}) offers no functions, so there is no {quoted(call.name)}.")
    hint = suggestion(name, offered)
    fixed = f"provider::{local}::{hint}" if hint else None
    return _diag(call.start, call.end, UNKNOWN_PROVIDER_FUNCTION, "Unknown provider function",
                 f"The provider {quoted(local)} ({address}) has no function {quoted(name)}; it offers "
                 + ", ".join(quoted(n) for n in sorted(offered)) + "." + (f" Did you mean {quoted(fixed)}?" if fixed else ""),
                 (Fix(call.start, call.end, fixed, f"Change to {quoted(fixed)}"),) if fixed else ())


def _arity(fn) -> str:
    low, high = fn.min_args, fn.max_args
    if high is None:
        return f"at least {low} argument{'s' if low != 1 else ''}"
    if low == high:
        return f"{low} argument{'s' if low != 1 else ''}"
    return f"{low} to {high} arguments"


def _aliased(key: tuple, own: frozenset, scope: Scope) -> bool:
    alias_key = ("provider-alias", key[1], key[2])
    return alias_key in own or scope.declared(alias_key)


def _unknown_provider(ref: Reference, key: tuple) -> Diagnostic:
    step = ref.steps[0]
    return _diag(
        ref.start, step.end, UNKNOWN_PROVIDER, f"Reference to undeclared provider configuration {quoted(f'{key[1]}.{key[2]}')}",
        f'No provider "{key[1]}" block of this module has alias {quoted(key[2])}, and no configuration_aliases lists it.',
    )


def _diag(start: int, end: int, code: str, summary: str, detail: str, fixes: tuple[Fix, ...] = ()) -> Diagnostic:
    return Diagnostic(start, end, ERROR, code, summary, detail, (), fixes)


# ---- what the types of values say (`evaluate`) ----------------------------------------------------

#: Contexts where a reference is not a value Terraform evaluates here.
_NOT_VALUES = STATIC | ADDRESS | PROVIDER | DEPENDS_ON | UNEVALUATED
_VARIABLE_TYPES: dict[int, tuple[frozenset, dict[str, set[str]]]] = {}


def _own_variable_types(own: frozenset) -> dict[str, set[str]]:
    """name -> the type constraints (as written) the file's own `variable-input` facts give it."""
    cached = _VARIABLE_TYPES.get(id(own))
    if cached is not None and cached[0] is own:
        return cached[1]
    found: dict[str, set[str]] = {}
    for k in own:
        if k[0] == VARIABLE_INPUT and len(k) == 4 and isinstance(k[2], str):
            found.setdefault(k[1], set()).add(k[2])
    if len(_VARIABLE_TYPES) > 64:
        _VARIABLE_TYPES.clear()
    _VARIABLE_TYPES[id(own)] = (own, found)
    return found


#: What a reader of input variable NAME's type holds in its `uses`: `(VARIABLE_TYPE_USED, NAME)`,
#: which a change of that variable's `variable-input` fact reaches (`affected`); not `INPUTS_OF`,
#: which every variable's change reaches (a block per resource reading `var.x == "prod"` was then
#: resolved again on renaming any variable of the module: 7.7 s at 5 MB, `bench_module.py`).
VARIABLE_TYPE_USED = "variable-type-of"


def _variable_type(name: str, own: frozenset, scope: Scope) -> str | None:
    """The type constraint of input variable `name` as written ("" for none), or None when its
    declarations disagree or none gives it, or the module has an override file (which may give
    it another type, and states no facts: Terraform judges the merged declaration)."""
    if getattr(scope, "has_override_files", False):
        return None
    texts = set(_own_variable_types(own).get(name, ()))
    texts.update(k[2] for k in scope.keys(VARIABLE_INPUT) if len(k) == 4 and k[1] == name and isinstance(k[2], str))
    return texts.pop() if len(texts) == 1 else None


def _walk(val: Val, steps: Sequence, floor: int) -> Diagnostic | None:
    """The first error of applying reference steps to `val` (`evaluate.get_attr`/`get_index`), on
    the step with its dot or brackets (never before `floor`, the reference's start: a reader of
    values places every step there)."""
    return _walked(val, steps, floor)[1]


def _walked(val: Val, steps: Sequence, floor: int) -> tuple[Val, Diagnostic | None]:
    """`_walk`, with the value the steps reach (`DYNAMIC` after an error)."""
    for s in steps:
        if s.index:
            key = Val("string", s.name) if s.name else DYNAMIC
            val, problem = get_index(val, key)
            code, span = INVALID_INDEX, (max(s.start - 1, floor), s.stop if s.outer >= 0 else s.end + 1)
        else:
            of = val.type
            val, problem = get_attr(val, s.name)
            code, span = UNSUPPORTED_ATTRIBUTE, (max(s.start - 1, floor), s.end)
            if problem is not None and type(of) is list and of[0] == "object":  # a misspelt attribute?
                hint = suggestion(s.name, of[1])
                if hint is not None:
                    return DYNAMIC, _diag(span[0], span[1], code, problem[0], f'{problem[1]} Did you mean "{hint}"?',
                                          (Fix(s.start, s.end, hint, f'Change to "{hint}"'),))
        if problem is not None:
            return DYNAMIC, _diag(span[0], span[1], code, problem[0], problem[1])
    return val, None


def _local_steps(ref: Reference, key: tuple, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """What `validate` says of a local value it knows (`_known`: a literal local, or the one
    reference it is), outside `try` and the other `GUARDED` places: the first error of the steps
    after its name (`local.settings.regoin`, `local.names[5]`: HCL's, on the step), else, where it
    is interpolated among a template's other parts (`IN_TEXT`: `"x-${local.names}"`), its
    conversion to a string (`evaluate.interpolation_problem`, on the whole traversal: Terraform's
    range, the interpolated expression)."""
    steps = (ref.steps + ref.rest)[1:]
    if ref.context & GUARDED or not (steps or ref.context & IN_TEXT):
        return None
    val, failed = _walked(_known("local", key[1], own, scope, uses), steps, ref.start)
    if failed is not None or not ref.context & IN_TEXT:
        return failed
    problem = interpolation_problem(val)
    if problem is None:
        return None
    return _diag(ref.start, ref.end_all, INVALID_INTERPOLATION, problem[0], problem[1])


def _local_cycle(site: CycleSite, own: frozenset, scope: Scope, uses: set, seen: dict) -> Diagnostic | None:
    """`reference/cycle` on the name of a local value that refers, through other local values,
    back to itself (`local_cycles`): the module's `LOCAL_USES` facts, this file's and the others',
    as one graph per `resolve` call (`seen`). Nothing in a module with an override file."""
    uses.add(LOCAL_USES_USED)
    if getattr(scope, "has_override_files", False):
        return None
    graph = seen.get(LOCAL_USES_USED)
    if graph is None:
        graph = seen[LOCAL_USES_USED] = {}
        for k in (*(k for k in own if k[0] == LOCAL_USES), *scope.keys(LOCAL_USES)):
            graph.setdefault(k[1], set()).update(k[2])
    cycle = cycle_of(site.name, graph)
    if cycle is None:
        return None
    names = [f"local.{n}" for n in cycle]
    return _diag(site.start, site.end, CYCLE, f"Cycle: {', '.join(names)}",
                 f"The local value {quoted(site.name)} refers to {' -> '.join(names[1:])}, which refers back to "
                 f"{names[0]}: Terraform cannot work out values that depend on each other. One of them must "
                 "not refer to the others.")


def _repetition_value(site: RepetitionSite, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """A `count` or `for_each` that is an input variable or a local value (`repetition_sites`),
    judged on what `validate` knows of it (`_known`: a variable's type, a literal local's value) by
    `expressions.repetition`'s rule, on the whole value as Terraform's. A `for_each` list or tuple
    of strings gets the quick fix that makes it a set (`toset()`), a `count` bool the one that
    counts 1 when it is true (`? 1 : 0`)."""
    val = _value_of(site.value, own, scope, uses)
    if val is None:
        return None  # an error of its own (the template's checks)
    if site.name == "count":
        problem, code = count_problem(val), INVALID_COUNT
    else:
        problem, code = for_each_problem(val), INVALID_FOR_EACH
    if problem is None:
        return None
    fixes: tuple[Fix, ...] = ()
    strings = val.type == ["list", "string"] or (type(val.type) is list and val.type[0] == "tuple" and val.type[1]
                                                  and all(t == "string" for t in val.type[1]))
    if site.inner is None:
        pass
    elif code == INVALID_FOR_EACH and strings:
        fixes = (Fix(site.start + 1, site.end - 1, f"${{toset({site.inner})}}", "Make it a set: toset()"),)
    elif code == INVALID_COUNT and val.type == "bool":  # the idiom for "one instance when true"
        condition = site.inner if whole_reference(site.value) is not None else f"({site.inner})"
        fixes = (Fix(site.start + 1, site.end - 1, f"${{{condition} ? 1 : 0}}", "Count 1 when true, else 0"),)
    return _diag(site.start, site.end, code, problem[0], problem[1], fixes)


def _argument_value(site: ArgumentSite, own: frozenset, scope: Scope, uses: set) -> Diagnostic | None:
    """An argument's template value (`argument_sites`), evaluated as `validate` evaluates it
    (`_known`; a template that is not one interpolation is a string) and converted to the
    argument's type (`conversion_problem`): on the whole value, as Terraform's "Incorrect attribute
    value type" (a module input: "Invalid value for input variable")."""
    val = _value_of(site.value, own, scope, uses)
    if val is None:
        return None  # an error of its own (the template's checks)
    want = expected_type(site)
    why = conversion_problem(val, want)
    if why is None:
        return None
    if site.call:
        return _diag(site.start, site.end, WRONG_INPUT_TYPE, "Invalid value for input variable",
                     f"The given value is not suitable for module.{site.call}.var.{site.name} "
                     f"(type {render_type(want)}): {why}.")
    return _diag(site.start, site.end, WRONG_TYPE, "Incorrect attribute value type",
                 f"The argument {quoted(site.name)} cannot take this value: {why}.")


def _value_of(value: str, own: frozenset, scope: Scope, uses: set) -> Val | None:
    """What `validate` knows of template string `value` (decoded): the value of its expression
    when it is one interpolation, evaluated with what is known of variables and locals (`_known`),
    else a string (`template_value`); None when it has an error of its own."""
    expr = whole_expression(value)
    if expr is None:
        return template_value(value)
    return typed_value(expr, lambda root, name: _known(root, name, own, scope, uses))


def _typed_template(site: TypedSite, own: frozenset, scope: Scope, uses: set) -> list[Diagnostic]:
    """A template string evaluated with each input variable an unknown value of its type (the
    errors that `evaluate.constant_problems` did not find without the types), at its positions."""
    tree = string_tree(site.raw, STRING_TEMPLATE)
    if tree is None:
        return []
    return [d.shifted(site.start) for d in typed_problems(tree, lambda root, name: _known(root, name, own, scope, uses))]


def _known(root: str, name: str, own: frozenset, scope: Scope, uses: set, depth: int = 0) -> Val:
    """What `validate` knows of `var.NAME` (an unknown value of its type) or `local.NAME` (its
    value, when written as a literal, or what the one reference it is names: `local_values`),
    recording what that depends on in `uses`. A chain of locals is followed `_CHAIN` deep (a
    cycle is Terraform's error of its own)."""
    if root == "var":
        uses.add(("variable", name))
        uses.add((VARIABLE_TYPE_USED, name))
        type_text = _variable_type(name, own, scope)
        return DYNAMIC if type_text is None else type_value(type_text)
    uses.add((LOCAL_VALUE_USED, name))
    found = local_value(name, own, scope)
    if type(found) is tuple:
        if depth >= _CHAIN:
            return DYNAMIC
        target, names = found
        val = _known(target, names[0], own, scope, uses, depth + 1)
        for step in names[1:]:
            val, problem = get_attr(val, step)
            if problem is not None:
                return DYNAMIC  # (the local's own reference reports it)
        return val
    return DYNAMIC if found is None else found  # type: ignore[return-value]


#: How many locals naming one another `_known` follows.
_CHAIN = 8


def _typed(ref: Reference, key: tuple, own: frozenset, scope: Scope, uses: set, seen: dict) -> Diagnostic | None:
    """What Terraform's `validate` says of the steps after a declared name, from types alone:
    an input variable's are applied to an unknown value of its type constraint (HCL's errors,
    suppressed where `GUARDED`); a resource's or data source's first step must name an argument,
    block or attribute of its schema (Terraform's static check of references, made even inside
    `try`): a built-in one's, or a provider's loaded schema (`_referenced_schema`); the steps after
    an attribute apply to its type; a known local value's steps apply to it, and its value must
    convert to a string where it is interpolated among text (`_local_steps`). `seen` remembers the
    schemas found in this `resolve` call."""
    if ref.context & _NOT_VALUES:
        return None
    kind = key[0]
    if kind == "local":
        return _local_steps(ref, key, own, scope, uses)
    if kind == "variable":
        steps = (ref.steps + ref.rest)[1:]
        if not steps or ref.context & GUARDED:
            return None
        uses.add((VARIABLE_TYPE_USED, key[1]))
        type_text = _variable_type(key[1], own, scope)
        return None if type_text is None else _walk(type_value(type_text), steps, ref.start)
    if kind not in catalogue.RESOURCE_AND_DATA:
        return None
    schemas = builtin_schemas()
    schema = (schemas.resource if kind == "resource" else schemas.data_source)(BUILTIN_TERRAFORM, key[1])
    if schema is None:
        found = seen.get((kind, key[1]))
        if found is None:
            found = seen[(kind, key[1])] = _referenced_schema(kind, key[1], own, scope)
        schema, used = found
        uses.update(used)
        if schema is None:
            return None
    n = address_length(ref)
    rest = (ref.steps + ref.rest)[n:] if n is not None else ()
    if not rest or rest[0].index or rest[0].name == "count":
        return None  # an index or `count` here: other errors of Terraform's
    first = rest[0]
    attribute = schema.attributes.get(first.name)
    if attribute is not None:
        if len(rest) == 1 or attribute.cty is None:
            return None
        return _walk(Val(attribute.cty) if attribute.cty != "dynamic" else DYNAMIC, rest[1:], ref.start)
    if first.name in schema.block_types:
        return None
    near = suggestion(first.name, schema.names())
    hint = f' Did you mean "{near}"?' if near is not None else ""
    return _diag(max(first.start - 1, ref.start), first.end, UNSUPPORTED_ATTRIBUTE, "Unsupported attribute",
                 f'This object has no argument, nested block, or exported attribute named "{first.name}".{hint}')


def _referenced_schema(kind: str, type_name: str, own: frozenset, scope: Scope) -> tuple[Any, frozenset]:
    """The schema of the resource (or data source) type `type_name` that a reference to one reads,
    from the module's provider schemas, when they settle which provider it is: the provider its type
    implies, unless another provider a resource of the module uses (`PROVIDER_USE`) could be it too
    (a different address whose schema is not loaded or has the type: `google-beta` beside `google`).
    None when not settled or not known; with the `uses` keys of the answer. Remembered per module
    state (`_PROVIDERS_SEEN`) and, by the caller, per `resolve` call (5,645 references of a 5 MB
    document, each asking: +4.9% of its open's instructions before both)."""
    schemas = scope.provider_schemas
    local = type_name.split("_", 1)[0]
    if schemas is None:
        return None, _NO_SCHEMA_USES
    engine = scope.engine or "terraform"
    token = (id(own), len(own), id(scope), getattr(scope, "revision", None), id(schemas), engine)
    seen = _PROVIDERS_SEEN.get(token)
    if seen is None or seen[0] is not own:
        sources = required_providers(own, scope)
        used = {k[1] for k in own if k[0] == PROVIDER_USE}
        used.update(k[1] for k in scope.keys(PROVIDER_USE))
        addresses = {name: provider_address(name, sources, engine) for name in sorted(used)}
        if len(_PROVIDERS_SEEN) > 64:
            _PROVIDERS_SEEN.clear()
        seen = _PROVIDERS_SEEN[token] = (own, sources, addresses, _SCHEMA_USES | {("provider-source", n) for n in addresses})
    _, sources, addresses, uses = seen
    uses = uses | {("provider-source", local)}
    lookup = schemas.resource if kind == "resource" else schemas.data_source
    address = provider_of(type_name, None, sources, engine)
    schema = None if address is None else lookup(address, type_name)
    if schema is not None and any(other != address and (not schemas.has_provider(other) or lookup(other, type_name) is not None)
                                  for other in addresses.values()):
        schema = None  # another provider of the module may be the one
    return schema, uses


#: What every answer of `_referenced_schema` depends on: the schemas, and (with schemas) the
#: `PROVIDER_USE` facts, through a key of their own (`affected`): `INHERITED_USES` is also reached by
#: every keystroke in a module call's `source`.
_NO_SCHEMA_USES = frozenset({SCHEMAS_CHANGED})
_PROVIDER_USES = ("provider-uses-changed",)
_SCHEMA_USES = frozenset({SCHEMAS_CHANGED, _PROVIDER_USES})
#: Per module state (own keys, scope and its revision, schemas): the providers' sources, the
#: addresses of the local names resources use, and the `uses` keys of both.
_PROVIDERS_SEEN: dict[tuple, tuple[frozenset, dict, dict, frozenset]] = {}


def required_providers(own: frozenset, scope: Scope | None) -> dict[str, str]:
    """local name -> source of the module's `required_providers` (this file's `own` keys and the
    other files'); see `provider_sources`."""
    keys = [k for k in own if k[0] == "provider-requirement"]
    if scope is not None:
        keys.extend(scope.keys("provider-requirement"))
    return provider_sources(keys)


def provider_sources(keys: Iterable[tuple]) -> dict[str, str]:
    """local name -> source from `("provider-requirement", name, source)` keys; a name without a
    source is left out (its source is implied); when files disagree, the last key in `repr` order
    wins, whatever order the keys come in."""
    return {k[1]: k[2] for k in sorted(keys, key=repr) if len(k) > 2 and k[2]}
