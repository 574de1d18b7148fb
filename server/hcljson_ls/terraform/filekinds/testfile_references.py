"""What the references of a Terraform/OpenTofu test file (`testfile`) mean: resolved against the module
under test, the file's own runs and variables.

    check_references(text, blocks, scope, opentofu=False, run_scopes=None) -> list[Diagnostic]
    reference_at(text, blocks, offset) -> Reference | None; declared_key(ref) -> tuple | None
    mock_sources(text, blocks) -> [(directory, start, end)]; missing_mock_source(...) -> Diagnostic
    run_module_sources(text, blocks) -> {run name: local module source}

Contract
--------
* `check_references` (the references of the file against the module under test, `scope`; None:
  nothing is known beyond the file, so nothing is reported as undeclared) -- codes:
  - `test/undeclared-run`: `run.<name>` with no such run in the file ("Did you mean");
  - `test/unavailable-run`: `run.<name>` of the run itself or of a later one (Terraform: "Reference
    to unavailable run block");
  - `test/unknown-run-output`: `run.<name>.<output>` where the module run `<name>` applies (the
    module under test, or its `module` block's when known) declares no such output (Terraform:
    "Unsupported attribute");
  - `test/invalid-expect-failures`: an `expect_failures` entry that is not a checkable object
    (input variable, output value, check block, resource or data source);
  - `test/unknown-checkable` (warning): an `expect_failures` entry the module does not declare
    (Terraform reports it only when the run fails with "Missing expected failure");
  - `test/unknown-override-target` (warning): an override target the module does not declare
    (Terraform's "Invalid override target" warning);
  - `test/unknown-provider`: a run's `providers` value that names no `provider`/`mock_provider`
    block of the file;
  - `test/invalid-reference`: in the file's `variables`, anything but `var.<name>` (Terraform: "You
    can only reference global variables within the test file variables block", and for `run.`
    "You can not reference run blocks from within the file variables block"; OpenTofu evaluates
    them with the runs before each run, so there `run.<name>` only has to name a run of the file);
    in a run's `variables`, anything but `var.<name>` and earlier `run.<name>`; `check.<name>` anywhere but in
    `expect_failures`. A `var.<name>` in `variables` is never undeclared (global variables come from
    the command line and the environment);
  - the configuration codes of `resolve` (`reference/undeclared` with "Did you mean",
    `reference/unknown-function`, ...; not `reference/unknown-provider-function`: provider-defined
    functions are never reported here) for the references of `assert` conditions and error messages
    (the module's resources, data sources, outputs, locals, variables, module calls);
    `output.<name>` must name an output of the module (`reference/undeclared`). There, `var.<name>`
    is declared by the module, by the file's `variables` or `variable` blocks or by the run's own
    `variables`.
  - `test/missing-mock-source` (`missing_mock_source`, for the caller that can look at the disk):
    a `mock_provider`'s `source` directory that does not exist (Terraform: "Failed to read mock data
    directory").
  A run with a `module` block tests another module: its assertions, `expect_failures`, overrides and
  the outputs other runs read from it are resolved against that module when its source is a local
  directory the caller knows (`run_scopes`), else not at all (only `run.` names are checked).
* Reading never raises: blocks that did not decode give what decoded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...diagnostic import ERROR, WARNING, Diagnostic, Fix
from ...hcljson.model import Attribute, Block, Body
from ...hcljson.problems import suggestion
from ...hcljson.values import quoted, string_text
from ...jsonsyntax.tree import STRING
from ..definition import catalogue
from ..definition.functions import is_provider_function
from ..resolution.reference_walk import block_references
from ..resolution.references import STATIC, UNEVALUATED, Reference, subject
from ..resolution.resolve import Scope, resolve

__all__ = [
    "check_references", "reference_at", "declared_key", "mock_sources", "missing_mock_source", "run_module_sources",
    "UNDECLARED_RUN", "UNAVAILABLE_RUN", "INVALID_EXPECT_FAILURES", "UNKNOWN_CHECKABLE", "UNKNOWN_OVERRIDE_TARGET",
    "UNKNOWN_PROVIDER", "INVALID_REFERENCE", "MISSING_MOCK_SOURCE", "UNKNOWN_RUN_OUTPUT",
]

UNDECLARED_RUN = "test/undeclared-run"
UNAVAILABLE_RUN = "test/unavailable-run"
INVALID_EXPECT_FAILURES = "test/invalid-expect-failures"
UNKNOWN_CHECKABLE = "test/unknown-checkable"
UNKNOWN_OVERRIDE_TARGET = "test/unknown-override-target"
UNKNOWN_PROVIDER = "test/unknown-provider"
INVALID_REFERENCE = "test/invalid-reference"
MISSING_MOCK_SOURCE = "test/missing-mock-source"
UNKNOWN_RUN_OUTPUT = "test/unknown-run-output"


#: The roots `expect_failures` accepts (checkable objects), and those it does not; any other root
#: is a resource type.
_CHECKABLE_ROOTS = catalogue.TEST_CHECKABLE_ROOTS
_NOT_CHECKABLE = catalogue.TEST_UNCHECKABLE_ROOTS


def _diag(start: int, end: int, code: str, summary: str, detail: str, severity: str = ERROR,
          fixes: tuple[Fix, ...] = ()) -> Diagnostic:
    return Diagnostic(start, end, severity, code, summary, detail, (), fixes)


def _inside(ref: Reference, attr: Attribute | None) -> bool:
    return attr is not None and attr.expr is not None and attr.expr.start <= ref.start < attr.expr.end


def _attribute_names(body: Body | None) -> set[str]:
    return {a.name for a in body.attributes} if body is not None else set()


def run_module_sources(text: str, blocks: Sequence[Block]) -> dict[str, str]:
    """run name -> the `source` of its `module` block when it is a local directory (`./x`, `../x`),
    relative to the module under test (where `terraform test` runs)."""
    out = {}
    for b in blocks:
        if b.type_name != "run" or not b.labels:
            continue
        for m in b.body.blocks_of("module"):
            source = m.body.attribute("source")
            if source is not None and source.expr is not None and source.expr.kind == STRING:
                value = string_text(text, source.expr.node, source.expr.start)
                if value.startswith(("./", "../")):
                    out[b.labels[0].value] = value
    return out


def mock_sources(text: str, blocks: Sequence[Block]) -> list[tuple[str, int, int]]:
    """`(directory, start, end)` of the `source` of each `mock_provider` block: a directory of mock
    data files, relative to where `terraform test` runs (the module under test), at the string's range."""
    out = []
    for b in blocks:
        source = b.body.attribute("source") if b.type_name == "mock_provider" else None
        if source is not None and source.expr is not None and source.expr.kind == STRING:
            out.append((string_text(text, source.expr.node, source.expr.start), source.expr.start, source.expr.end))
    return out


def missing_mock_source(directory: str, start: int, end: int) -> Diagnostic:
    """`test/missing-mock-source`: Terraform's "Failed to read mock data directory"."""
    return _diag(start, end, MISSING_MOCK_SOURCE, "Failed to read mock data directory",
                 f"Mock data directory {directory} does not exist or cannot be read (it is relative to the module under test).")


def reference_at(text: str, blocks: Sequence[Block], offset: int) -> Reference | None:
    """The reference of a test file's top-level `blocks` whose root or steps hold `offset`, or None."""
    for b in blocks:
        if not b.start <= offset <= b.end:
            continue
        for ref in block_references(text, b):
            if type(ref) is Reference and ref.start <= offset <= (ref.steps[-1].end if ref.steps else ref.end):
                return ref
    return None


def declared_key(ref: Reference) -> tuple | None:
    """What `ref` of a test file names: `("run", name)` for `run.<name>`, else the declaration key in
    the module under test (`output.x` -> `("output", "x")`, `check.c` -> `("check", "c")`, the
    configuration's keys otherwise: `references.subject`)."""
    if ref.root == "run":
        return ("run", ref.steps[0].name) if ref.steps else None
    return _module_key(ref)


def _module_key(ref: Reference) -> tuple | None:
    """The declaration key of the module under test `ref` names (`output.x` -> ("output", "x"),
    `check.c` -> ("check", "c")), else `references.subject`'s."""
    if ref.root in catalogue.ADDRESS_ONLY_NAMESPACES:
        return (ref.root, ref.steps[0].name) if ref.steps else None
    found = subject(ref)
    return found[0] if found is not None else None


def check_references(text: str, blocks: Sequence[Block], scope: Scope | None, opentofu: bool = False,
                     run_scopes: Mapping[str, Scope] | None = None) -> list[Diagnostic]:
    """The diagnostics of the references of a test file's top-level `blocks` (absolute positions, in
    source order): `run.` references against the file's runs, the rest against `scope`, the
    declarations of the module under test (see the module doc); `opentofu`: the file is read by
    OpenTofu (a `.tofutest.json`, or a module under test read by OpenTofu), whose file-level
    `variables` may refer to runs. `run_scopes`: run name -> the declarations of the module its
    `module` block names, when known (a local directory: `run_module_sources`); the other runs with a
    `module` block are not resolved."""
    runs = [b for b in blocks if b.type_name == "run" and b.labels]
    run_names = [b.labels[0].value for b in runs]
    scopes = {b.labels[0].value: (run_scopes or {}).get(b.labels[0].value) if b.body.blocks_of("module") else scope
              for b in runs}
    # The outputs of each run's module, when known.
    run_outputs = {name: frozenset(k[1] for k in here.keys("output")) for name, here in scopes.items() if here is not None}
    file_variables: set[str] = set()
    providers: set[str] = set()
    for b in blocks:
        if b.type_name == "variables":
            file_variables |= _attribute_names(b.body)
        elif b.type_name == "variable" and b.labels:
            file_variables.add(b.labels[0].value)
        elif b.type_name in ("provider", "mock_provider") and b.labels:
            alias = b.body.attribute("alias")
            name = b.labels[0].value
            providers.add(name)
            if alias is not None and alias.expr is not None and alias.expr.kind == STRING:
                providers.add(f"{name}.{string_text(text, alias.expr.node, alias.expr.start)}")
    out: list[Diagnostic] = []
    for b in blocks:
        if b.type_name in ("run", "variables", "override_resource", "override_data", "override_module"):
            position = run_names.index(b.labels[0].value) if b.type_name == "run" and b.labels else len(runs)
            here = scopes.get(b.labels[0].value) if b.type_name == "run" and b.labels else scope
            out.extend(_block_references(text, b, position, run_names, run_outputs, file_variables, providers, here, opentofu))
    out.sort(key=lambda d: (d.start, d.end))
    return out


def _block_references(text: str, block: Block, position: int, run_names: list[str], run_outputs: dict[str, frozenset],
                      file_variables: set[str], providers: set[str], scope: Scope | None, opentofu: bool) -> list[Diagnostic]:
    # `scope`: the declarations of the module this block's references name (a run's own module), or None.
    body = block.body
    is_run = block.type_name == "run"
    run_variables = set().union(*(_attribute_names(v.body) for v in body.blocks_of("variables"))) if is_run else set()
    expect = body.attribute("expect_failures") if is_run else None
    provider_map = body.attribute("providers") if is_run else None
    plan_options = body.blocks_of("plan_options") if is_run else ()
    targets = [o.body.attribute("target") for o in (*body.blocks_of("override_resource"), *body.blocks_of("override_data"),
                                                      *body.blocks_of("override_module"))]
    if block.type_name.startswith("override_"):
        targets.append(body.attribute("target"))
    addresses = [o.body.attribute(n) for o in plan_options for n in ("replace", "target")]
    values = [v.body for v in body.blocks_of("variables")] if is_run else [body] if block.type_name == "variables" else []
    out: list[Diagnostic] = []
    for ref in block_references(text, block):
        if not isinstance(ref, Reference):  # a function call: the configuration's rule
            # (A provider's function: which ones a test file may call is not known here; never reported.)
            if scope is not None and not is_provider_function(ref.name):
                out.extend(resolve([ref], frozenset(), scope)[0])
            continue
        if _inside(ref, provider_map):
            out.extend(_provider_value(text, ref, provider_map, providers))  # type: ignore[arg-type]
            continue
        if any(_inside(ref, t) for t in targets):
            if scope is not None:
                out.extend(_override_target(ref, scope))
            continue
        if any(_inside(ref, a) for a in addresses):
            continue  # addresses of the plan: what Terraform finds when planning
        if _inside(ref, expect):
            out.extend(_expected_failure(ref, scope))
            continue
        if ref.context & STATIC:
            continue  # keywords (`command`, `mode`, `override_during`)
        if any(v.start <= ref.start < v.end for v in values):
            # Values of variables: `var` (file or global variables: these cannot be known here) and,
            # in a run, earlier runs; OpenTofu evaluates the file's variables for each run, with the
            # runs before it (any run of the file may be one).
            if ref.root == "run" and (is_run or opentofu):
                out.extend(_run_reference(ref, position, run_names, {} if not is_run else run_outputs))
            elif ref.root != "var":
                out.append(_invalid_in_variables(ref, is_run))
            continue
        if ref.root == "run":
            out.extend(_run_reference(ref, position, run_names, run_outputs))
            continue
        if ref.root == "check":
            out.append(_diag(ref.start, ref.steps[-1].end if ref.steps else ref.end, INVALID_REFERENCE,
                             'Reference to "check" in invalid context',
                             'The "check" object can only be referenced from an "expect_failures" attribute within a '
                             'Terraform testing "run" block.'))
            continue
        if scope is None:
            continue
        if ref.root == "var":
            if ref.steps and (ref.steps[0].name in file_variables or ref.steps[0].name in run_variables):
                continue
        elif ref.root == "output":
            out.extend(_undeclared_output(ref, scope))
            continue
        # UNEVALUATED: what `terraform test` says of the types of values is not known here.
        out.extend(resolve([replace(ref, context=ref.context | UNEVALUATED)], frozenset(), scope)[0])
    return out


def _invalid_in_variables(ref: Reference, in_run: bool) -> Diagnostic:
    end = ref.steps[-1].end if ref.steps else ref.end
    if in_run:
        detail = ("You can only reference earlier run blocks, file level, and global variables while defining "
                  "variables from inside a run block.")
    elif ref.root == "run":
        detail = "You can not reference run blocks from within the file variables block."
    else:
        detail = "You can only reference global variables within the test file variables block."
    return _diag(ref.start, end, INVALID_REFERENCE, "Invalid reference", detail)


def _run_reference(ref: Reference, position: int, run_names: list[str], run_outputs: dict[str, frozenset]) -> list[Diagnostic]:
    if not ref.steps:
        return []
    step = ref.steps[0]
    name = step.name
    if name not in run_names:
        hint = suggestion(name, run_names)
        return [_diag(step.start, step.end, UNDECLARED_RUN, "Reference to undeclared run block",
                      f"There is no run {quoted(name)} in this test file." + (f" Did you mean {quoted(hint)}?" if hint else ""),
                      fixes=(Fix(step.start, step.end, hint, f"Change to {quoted('run.' + hint)}"),) if hint else ())]
    if run_names.index(name) >= position:
        return [_diag(ref.start, step.end, UNAVAILABLE_RUN, "Reference to unavailable run block",
                      f"The run block {quoted(name)} has not executed yet. Only the run blocks of this file "
                      "that execute before this one can be referenced.")]
    outputs = run_outputs.get(name)
    if outputs is None or len(ref.steps) < 2 or ref.steps[1].index or ref.steps[1].name in outputs:
        return []
    out_step = ref.steps[1]
    hint = suggestion(out_step.name, sorted(outputs))
    return [_diag(out_step.start, out_step.end, UNKNOWN_RUN_OUTPUT, "Unsupported attribute",
                  f"The module run {quoted(name)} applies declares "
                  + (", ".join(quoted(o) for o in sorted(outputs)) if outputs else "no outputs")
                  + f", not {quoted(out_step.name)}." + (f" Did you mean {quoted(hint)}?" if hint else ""),
                  fixes=(Fix(out_step.start, out_step.end, hint, f"Change to {quoted(hint)}"),) if hint else ())]


def _undeclared_output(ref: Reference, scope: Scope) -> list[Diagnostic]:
    if not ref.steps or scope.declared(("output", ref.steps[0].name)):
        return []
    step = ref.steps[0]
    names = sorted(k[1] for k in scope.keys("output"))
    hint = suggestion(step.name, names)
    # (the range: `output.name` whole, as Terraform's; the quick fix changes the name)
    return [_diag(ref.start, step.end, "reference/undeclared", f"Reference to undeclared output value {quoted('output.' + step.name)}",
                  f"The module under test declares no output {quoted(step.name)}." + (f" Did you mean {quoted('output.' + hint)}?" if hint else ""),
                  fixes=(Fix(step.start, step.end, hint, f"Change to {quoted('output.' + hint)}"),) if hint else ())]


def _expected_failure(ref: Reference, scope: Scope | None) -> list[Diagnostic]:
    if ref.root in _NOT_CHECKABLE or (ref.root not in _CHECKABLE_ROOTS and not ref.steps):
        return [_diag(ref.start, ref.steps[-1].end if ref.steps else ref.end, INVALID_EXPECT_FAILURES, "Invalid `expect_failures` reference",
                      f"You cannot expect failures from {quoted(ref.root)} references. You can only expect failures from checkable "
                      "objects such as input variables, output values, check blocks, managed resources and data sources.")]
    key = _module_key(ref)
    if scope is None or key is None or scope.declared(key):
        return []
    end = ref.steps[1].end if key[0] in ("data",) and len(ref.steps) > 1 else ref.steps[0].end
    return [_diag(ref.start, end, UNKNOWN_CHECKABLE, "Expected failure of an undeclared object",
                  f"The module under test declares no {_address(key)}, so this run can never report its failure "
                  "(Terraform then fails the run with \"Missing expected failure\").", WARNING)]


def _override_target(ref: Reference, scope: Scope) -> list[Diagnostic]:
    key = _module_key(ref)
    if key is None or key[0] not in catalogue.TEST_OVERRIDE_TARGETS or scope.declared(key):
        return []
    end = ref.steps[1].end if key[0] == "data" and len(ref.steps) > 1 else ref.steps[0].end
    return [_diag(ref.start, end, UNKNOWN_OVERRIDE_TARGET, "Invalid override target",
                  f"The override target {_address(key)} does not exist within the configuration under test. This could "
                  "indicate a typo in the target address or an unnecessary override.", WARNING)]


def _provider_value(text: str, ref: Reference, attr: Attribute, providers: set[str]) -> list[Diagnostic]:
    # Keys name the module's providers; values the test file's configurations.
    node = attr.expr.node  # type: ignore[union-attr]
    base = attr.expr.start - node.start  # type: ignore[union-attr]
    inner = base + node.start
    for member in getattr(node, "items", ()):
        value = member.value
        if value is None or value.kind != STRING or not (inner + value.start <= ref.start < inner + value.end):
            continue
        written = ".".join([ref.root, *(s.name for s in ref.steps)])
        if written in providers:
            return []
        hint = suggestion(written, sorted(providers))
        return [_diag(ref.start, ref.steps[-1].end if ref.steps else ref.end, UNKNOWN_PROVIDER,
                      f"Missing provider definition for {written}",
                      "This provider block references a provider definition that does not exist in this test file."
                      + (f" Did you mean {quoted(hint)}?" if hint else ""))]
    return []


def _address(key: tuple) -> str:
    kind = key[0]
    if kind == "resource":
        return f"resource {key[1]}.{key[2]}"
    if kind == "data":
        return f"data source data.{key[1]}.{key[2]}"
    prefix = {"variable": "var", "output": "output", "check": "check", "module": "module"}.get(kind, kind)
    return f"{prefix}.{key[1]}"
