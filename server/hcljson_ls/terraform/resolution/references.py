"""What a Terraform file refers to: every reference and function call, with exact ranges, as plain data
shared by JSON files (`terraform.reference_walk`) and native ones (`terraform.native`).

    Step(name, start, end)                    one static step after the root: `.name` or `["key"]`
    Reference(root, start, end, steps, ...)   `var.region`, `aws_instance.web.id`, `each.key`, ...
    Call(name, start, end, args, ...)         `upper(x)`, `provider::aws::arn_parse(x)`
    subject(ref) -> (key, steps used)         the declaration key a reference names, see below
    name_step(ref) -> Step | None             the step holding that declared name
    index(refs) -> {key: ((start, end, name_start, name_end), ...)}

Contract
--------
* Offsets are absolute character offsets into the file's text (through JSON escapes for JSON files;
  characters, not bytes, for native files). A reference's `start`/`end` is its root name; each
  step's range is its name (an attribute's name without the dot, an index key's string literal with
  its quotes). Steps stop at the first step that is not static (a splat, a computed index, a
  numeric index, a legacy `.0`): what follows cannot name a declaration. `rest` holds the
  traversal's literal steps after them, starting with a numeric (or other non-string literal) index
  when the traversal goes on that way: its `name` is the key as written (`0`), `index` True; then
  attributes and keys as in `steps`. An index step's `outer` is the end of its `]`. `rest` is empty
  before a splat or a computed index (`aws_x.a[*]`, `aws_x.a[var.k]`): those are no literal steps.
* `context` says what the reference's place allows, as the union of the `IN_*` flags: `IN_COUNT`
  (the enclosing resource, data, module or ephemeral block sets `count`), `IN_FOR_EACH` (it sets
  `for_each`), `IN_SELF` (inside a provisioner, a connection block or a postcondition), and
  `STATIC` (the reference is written as a plain string that Terraform reads as an address:
  `depends_on`, `provider`, moved `from`/`to`, ... so no `${}`), and `PROVIDER` (it names a
  provider configuration: `"aws.west"` in a resource's `provider`, root `aws`, one step `west`).
  `GUARDED` and `UNEVALUATED` say where Terraform's evaluation may not reach (see their comments),
  `IN_TEXT` that the value is converted into a template's text.
* Names bound by the expression itself (`for` temporaries, a `dynamic` block's iterator) are not
  references: the walks leave them out, so every `Reference` is to something outside the expression.
* `subject` maps a reference to what it names as a declaration key (`terraform.validate.definitions`
  keys): `var.x` -> ("variable", "x"), `local.x` -> ("local", "x"), `module.m` -> ("module", "m"),
  `data.t.n` -> ("data", "t", "n"), `ephemeral.t.n` -> ("ephemeral", "t", "n"), `action.t.n`,
  `t.n` and `resource.t.n` -> ("resource", "t", "n"), a provider reference `aws.west` -> ("provider", "aws", "west")
  (`aws` alone: the default configuration, alias None); None for built-in objects (`path`,
  `terraform`, `count`, `each`, `self`) and for references too short to name anything (`var` alone).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..definition import catalogue

IN_COUNT = 1
IN_FOR_EACH = 2
IN_SELF = 4
STATIC = 8
PROVIDER = 16
#: A reference inside `depends_on` (Terraform: no attribute of a resource, module output only).
DEPENDS_ON = 32
#: An address written as an expression (`replace_triggered_by`, `import.to`) or a static traversal:
#: Terraform checks it by rules of its own.
ADDRESS = 64
#: An address that need not be declared (`moved.to`: internal/configs/moved.go): resolved for
#: navigation, never reported as undeclared.
MAY_BE_UNDECLARED = 128
#: A reference whose evaluation Terraform may skip or whose errors it suppresses: inside the
#: arguments of `try`/`can`, a conditional's branches, the body of a `for` expression or directive,
#: an `%{ if }` directive's branches, a splat's per-element part. Errors that follow from the
#: types of its values are not reported there (`resolve`); static ones (a resource's schema) are.
GUARDED = 256
#: A reference in a place `terraform validate` does not evaluate for certain (a `check` or
#: `removed` block, a `dynamic` block's content, a variable validation; test and query files):
#: nothing that follows from evaluation is reported there. (Native files' references are indexed,
#: never resolved.)
UNEVALUATED = 512
#: An address that is a top-level block's own argument (`import.to`: the catalogue's "address" role
#: in a block of `catalogue.BLOCKS`), besides `ADDRESS`: Terraform checks its instance key against
#: the target's `count` / `for_each` (`resolve`).
BLOCK_ADDRESS = 1024
#: A traversal a template interpolates alone among its other parts (`"x-${local.a}"`: the template's
#: `evaluate.text_interpolations`): its value is converted to a string there (`resolve`).
IN_TEXT = 2048

#: The meta-arguments that make a block declare several instances, and the block kinds (declaration
#: key kinds) whose references take an instance key because of them.
REPETITION = ("count", "for_each")
INSTANCED = catalogue.INSTANCED_BLOCKS


@dataclass(frozen=True, slots=True)
class Step:
    """`.name` (`index` False: the range is the name) or `["name"]` (`index` True: the range is the
    string literal, quotes included)."""

    name: str
    start: int
    end: int
    index: bool = False
    #: The end of the whole step, `]` included, for an index step when it is known (-1: `end`).
    outer: int = -1

    def __init__(self, name: str, start: int, end: int, index: bool = False, outer: int = -1) -> None:
        # The slots set directly (what the frozen dataclass's `__init__` does through
        # `object.__setattr__`, at a third of its cost): every reference of a file makes its steps
        # (25,000 undeclared ones in a 5 MB file, each placed twice by the quick open).
        _STEP_NAME(self, name)
        _STEP_START(self, start)
        _STEP_END(self, end)
        _STEP_INDEX(self, index)
        _STEP_OUTER(self, outer)

    @property
    def stop(self) -> int:
        """Where the step ends in the text: after its `]` when known, else its name's end."""
        return self.outer if self.outer >= 0 else self.end

    def shifted(self, delta: int) -> Step:
        return Step(self.name, self.start + delta, self.end + delta, self.index,
                    self.outer + delta if self.outer >= 0 else -1)


@dataclass(frozen=True, slots=True)
class Reference:
    root: str
    start: int
    end: int
    steps: tuple[Step, ...] = ()
    context: int = 0
    #: The traversal's steps after `steps` (see the module doc), for the rules about instance keys
    #: and what follows an address: empty when every step is static.
    rest: tuple[Step, ...] = ()

    def __init__(self, root: str, start: int, end: int, steps: tuple[Step, ...] = (), context: int = 0,
                 rest: tuple[Step, ...] = ()) -> None:
        # The slots set directly, as `Step.__init__` does.
        _REF_ROOT(self, root)
        _REF_START(self, start)
        _REF_END(self, end)
        _REF_STEPS(self, steps)
        _REF_CONTEXT(self, context)
        _REF_REST(self, rest)

    @property
    def range(self) -> tuple[int, int]:
        """From the root to the end of the last static step."""
        return (self.start, self.steps[-1].end if self.steps else self.end)

    def shifted(self, delta: int, flags: int = 0) -> Reference:
        """The same reference `delta` characters further on, its context widened by `flags`."""
        if not delta and not flags:
            return self
        # A direct constructor: `dataclasses.replace` cost twice as much (25,000 references placed
        # by the quick open of a file with a misspelt reference in every resource).
        return Reference(
            self.root, self.start + delta, self.end + delta, tuple([s.shifted(delta) for s in self.steps]),
            self.context | flags, tuple([s.shifted(delta) for s in self.rest]) if self.rest else (),
        )

    @property
    def end_all(self) -> int:
        """The end of the whole traversal, `rest` included."""
        last = self.rest[-1] if self.rest else self.steps[-1] if self.steps else None
        return last.stop if last is not None else self.end



# The slots' setters under the frozen dataclasses' own `__init__` (the dataclass keeps an `__init__`
# written in the class; `slots=True` makes a new class, so they are taken from it, after it is made).
_STEP_NAME, _STEP_START, _STEP_END, _STEP_INDEX, _STEP_OUTER = (
    Step.__dict__[f].__set__ for f in ("name", "start", "end", "index", "outer"))
_REF_ROOT, _REF_START, _REF_END, _REF_STEPS, _REF_CONTEXT, _REF_REST = (
    Reference.__dict__[f].__set__ for f in ("root", "start", "end", "steps", "context", "rest"))

@dataclass(frozen=True, slots=True)
class Call:
    """A function call: `name` as written (`provider::aws::arn_parse` included), the range of the
    name, how many arguments it passes (`expands` when the last one is `...`-expanded); where
    Terraform reports a wrong count, when known (-1, `()`: not): the end of its `(`, its `)`, and
    where each argument starts (`template.nodes.start_range`)."""

    name: str
    start: int
    end: int
    args: int
    expands: bool = False
    open_end: int = -1
    close: tuple[int, int] = (-1, -1)
    arg_starts: tuple[tuple[int, int], ...] = ()

    def shifted(self, delta: int) -> Call:
        if not delta:
            return self
        return replace(self, start=self.start + delta, end=self.end + delta,
                       open_end=self.open_end + delta if self.open_end >= 0 else -1,
                       close=(self.close[0] + delta, self.close[1] + delta) if self.close[0] >= 0 else self.close,
                       arg_starts=tuple([(s + delta, e + delta) for s, e in self.arg_starts]))


#: Namespaces whose second step is a declared name: root -> declaration kind.
_NAMED = {"var": "variable", "local": "local", "module": "module"}
#: Namespaces followed by a type and a name.
_TYPED = {"data": "data", "ephemeral": "ephemeral", "action": "action"}
#: Roots that are objects of the language, never a resource type.
BUILTIN_ROOTS = frozenset({"path", "terraform", "count", "each", "self"})


def subject(ref: Reference) -> tuple[tuple, int] | None:
    """The declaration key `ref` names and how many of its steps that takes (see the module doc)."""
    root, steps = ref.root, ref.steps
    if ref.context & PROVIDER:
        return ("provider", root, steps[0].name if steps else None), min(len(steps), 1)
    kind = _NAMED.get(root)
    if kind is not None:
        return ((kind, steps[0].name), 1) if steps else None
    kind = _TYPED.get(root)
    if kind is not None:
        return ((kind, steps[0].name, steps[1].name), 2) if len(steps) >= 2 else None
    if root == "resource":  # `resource.t.n`: Terraform's escape for a type that clashes with a prefix
        return (("resource", steps[0].name, steps[1].name), 2) if len(steps) >= 2 else None
    if root in BUILTIN_ROOTS:
        return None
    return (("resource", root, steps[0].name), 1) if steps else None


def repetition_key(key: tuple, mode: str) -> tuple:
    """The fact that declaration `key` (`INSTANCED` kinds) sets `mode` (`count` or `for_each`): a
    `validate.REPEATABLE` definition, so a reference in another file knows its instance keys."""
    return ("repetition", mode, *key)


def address_length(ref: Reference) -> int | None:
    """How many of `ref.steps + ref.rest` make the address Terraform's reference parser reads (the
    rest it calls "remaining"): `var.x`, `path.module` -> 1; `aws_x.a`, `aws_x.a[0]` -> 1, 2;
    `data.t.n[0]` -> 3; `module.m[0].out` -> 3 (the call, its key, its output). None for `self`,
    provider references and references too short to be an address."""
    if ref.context & PROVIDER:
        return None
    root = ref.root
    steps = ref.steps + ref.rest
    if root in _NAMED or root in BUILTIN_ROOTS:
        if root == "self" or not steps or steps[0].index:
            return None
        if root != "module":
            return 1
        n = 2 if len(steps) > 1 and steps[1].index else 1
        return n + 1 if len(steps) > n and not steps[n].index else n
    names = 2 if root in _TYPED or root == "resource" else 1
    if len(steps) < names or any(s.index for s in steps[:names]):
        return None
    return names + 1 if len(steps) > names and steps[names].index else names


def output_step(ref: Reference) -> Step | None:
    """The output `module.m.<output>` names: the first attribute step after the module's name and
    its instance key, if any (`module.m["key"].out`, `module.m[0].out`: `out`), or None. None for an
    address (`ADDRESS`: `import.to`'s `module.m.aws_instance.a` names a resource of the module, not an
    output; `replace_triggered_by` may not refer to a module at all, its own rule says so)."""
    if ref.root != "module" or ref.context & (STATIC | PROVIDER | ADDRESS):
        return None
    n = address_length(ref)
    if n is None:
        return None
    step = (ref.steps + ref.rest)[n - 1]
    return None if step.index or n == 1 else step


def name_step(ref: Reference) -> Step | None:
    """The step holding the declared name `subject(ref)` names (what a rename rewrites): `region`
    of `var.region`, `web` of `aws_instance.web` and of `data.aws_ami.web`, `west` of `aws.west`."""
    found = subject(ref)
    if found is None or not found[1]:
        return None
    return ref.steps[found[1] - 1]


def index(refs) -> dict[tuple, tuple[tuple[int, int, int, int], ...]]:
    """declaration key -> `(start, end, name_start, name_end)` of each reference naming it (the
    reference's whole range and its `name_step`): what a file not open keeps of its references.
    `module.m.out` also counts under `("module-output", "m", "out")`, with the range of `out`."""
    out: dict[tuple, list[tuple[int, int, int, int]]] = {}
    for ref in refs:
        if type(ref) is not Reference:
            continue
        found = subject(ref)
        step = name_step(ref) if found is not None else None
        if found is None or step is None:
            continue
        start, end = ref.range
        out.setdefault(found[0], []).append((start, end, step.start, step.end))
        output = output_step(ref) if found[0][0] == "module" else None
        if output is not None:  # `module.m.out`: a reference to the child's output `out`
            out.setdefault(("module-output", found[0][1], output.name), []).append((start, end, output.start, output.end))
    return {k: tuple(v) for k, v in out.items()}

