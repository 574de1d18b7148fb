"""What Terraform and OpenTofu mean by the names of a configuration: one catalogue, read by every
layer that needs such knowledge (schema, rules, string checks, features, workspace, CLI).

Block types
    Label(name, role, what, description)        one label of a block header
    BlockType(name, labels, symbol_kind, namespace, address, referenceable, meta_arguments)
    BLOCKS                                      top-level block type -> BlockType (schema order)
    NESTED_LABELS                               labelled nested block type -> its labels
    block_labels(type_name, parent=None)        the labels of a block type where it appears
    LABEL_DESCRIPTIONS                          (block type, label index) -> what the label names
    NAMED_BLOCKS                                top-level types whose last label is a declared name
    MULTI_INSTANCE_BLOCKS                       types that take `count` / `for_each`
Arguments
    meta_arguments(type_name, parent=None)      the meta-arguments of a block type where it appears
    RESOURCE_META_ARGUMENTS, MODULE_META_ARGUMENTS, ACTION_META_ARGUMENTS
    RESERVED_VARIABLE_NAMES                     names no input variable may have
    ESCAPING_BLOCK                              a module call's block of input variables with any names
    KEYWORD_ARGUMENTS                           (block, argument) -> its keywords (None: not checked)
    IGNORE_CHANGES_KEYWORDS                     the keyword `ignore_changes` may be instead of a list
    REMOVED_PROVISIONERS                        provisioner types Terraform rejects as removed
    DESTROY_PROVISIONER_ROOTS / _REFERENCES     what a destroy-time provisioner may refer to
    PROVIDER_REFERENCE_ARGUMENTS                arguments whose references name provider configurations
    literal_settings_block(type_name, parent)   settings Terraform reads literally (backend, cloud)
Reference namespaces
    Namespace(name, kind, step, attributes, declared_by, valid_in, description)
    NAMESPACES                                  first name of a reference -> Namespace
    CONTEXT_OBJECTS                             `count`, `each`, `self`: meaningful only in some blocks
File names
    CONFIG_JSON, CONFIG_NATIVE, TFVARS_JSON, TEST_JSON, MOCK_JSON, QUERY_JSON   the kinds `file_kind` returns
    file_kind(name, ignore_case=False)          one of those kinds, or None
    base_name(path), extension(name), stem(name)
    is_override_file(name), is_opentofu_file(name), is_ignored_file(name), is_auto_tfvars(name)
    opentofu_twin(name)                         the `.tofu` name that hides `name`, or None
    hidden_by_opentofu(names) -> frozenset      the names OpenTofu ignores for a `.tofu` twin
    module_files(names, opentofu=True) -> list  the configuration files a module is made of

Contract
--------
* Plain frozen data (frozensets, tuples, `MappingProxyType`, frozen dataclasses) and pure functions.
  This module imports nothing from the package: `terraform.schema` reads its label names from here,
  never the other way round, and no other module keeps its own copy of these facts.
* `BLOCKS` has exactly the top-level block types of `schema.CONFIG_SCHEMA`, with the same label
  names; `NESTED_LABELS` those of the labelled nested blocks (tested).
* A meta-argument is an argument Terraform itself handles in a block whose other arguments belong to
  a provider or to a child module. Per block kind: resources, data sources and ephemeral resources
  take `count`, `for_each`, `provider`, `depends_on`, `lifecycle`; module calls `source`, `version`,
  `providers`, `count`, `for_each`, `depends_on` (`lifecycle` is only reserved there); actions
  `count`, `for_each`, `provider`. A `data` block inside a `check` is a data source like any other.
* Label roles say what a label names: `type` (a type defined elsewhere: a provider's resource type,
  a backend, a provisioner), `name` (a name this block declares), `provider` (a provider's local
  name), `block type` (the nested block type a `dynamic` block generates).
* A block's `namespace` is the first name of the references to what it declares: `var`, `local`,
  `module`, `data`, `ephemeral`, `action`, `check`, `output`; `""` for managed resources (no prefix:
  `aws_instance.web`); None when it declares nothing addressable. `referenceable` tells whether
  expressions of the same module refer to it that way (`check.<name>` and `output.<name>` are
  addresses of the CLI and of tests, not of expressions).
* File names follow Terraform's and OpenTofu's own loaders: suffixes match case-sensitively (as on
  Linux; `ignore_case=True` for editors that do not care); the functions take a bare name or a path
  (`/` or `\\` separated, a `file://` URI too: only the last segment counts, not percent-decoded).
  Configuration: `.tf.json`, `.tofu.json` (JSON) and `.tf`, `.tofu` (native). Override files: a
  configuration file whose stem is `override` or ends in `_override`. Variable definitions:
  `*.tfvars.json` (auto-loaded: `terraform.tfvars.json`, `*.auto.tfvars.json`). Tests:
  `*.tftest.json`, `*.tofutest.json` (in the module's directory or its `tests/` directory); mock data
  `*.tfmock.json`; query files `*.tfquery.json` (Terraform 1.14). OpenTofu ignores `x.tf` when `x.tofu` exists in the same
  directory, and likewise `x.tf.json` for `x.tofu.json`, `x.tftest.json` for `x.tofutest.json`
  (extension by extension: `x.tofu` does not hide `x.tf.json`); Terraform reads no `.tofu` file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

# ---- block types -------------------------------------------------------------------------------

# Label roles.
LABEL_TYPE = "type"  # a type defined elsewhere (provider, backend, provisioner)
LABEL_NAME = "name"  # a name this block declares
LABEL_PROVIDER = "provider"  # a provider's local name
LABEL_BLOCK_TYPE = "block type"  # the nested block type a `dynamic` block generates


@dataclass(frozen=True, slots=True)
class Label:
    name: str  # the schema's label name ("type", "name", "block type", "provider")
    role: str  # LABEL_TYPE / LABEL_NAME / LABEL_PROVIDER / LABEL_BLOCK_TYPE
    what: str  # a phrase for messages: "resource type"
    description: str  # what the label names (hover)


@dataclass(frozen=True, slots=True)
class BlockType:
    name: str
    labels: tuple[Label, ...]
    symbol_kind: str  # an LSP SymbolKind member name ("Class", "Variable", ...)
    namespace: str | None  # first name of references to what it declares ("" for resources), None: nothing
    address: str  # how what it declares is addressed ("var.<name>", "<type>.<name>"); "" when nothing
    referenceable: bool  # expressions of the same module refer to it by `address`
    meta_arguments: frozenset[str]


RESOURCE_META_ARGUMENTS = frozenset({"count", "for_each", "provider", "depends_on", "lifecycle"})
MODULE_META_ARGUMENTS = frozenset({"source", "version", "providers", "count", "for_each", "depends_on"})
ACTION_META_ARGUMENTS = frozenset({"count", "for_each", "provider"})
_NONE: frozenset[str] = frozenset()


def _typed(kind: str, ref: str) -> tuple[Label, Label]:
    """The (type, name) labels of a provider-defined object (`kind`: "action", ...)."""
    return (
        Label("type", LABEL_TYPE, f"{kind} type", f"The {kind} type, defined by a provider."),
        Label("name", LABEL_NAME, f"{kind} name", f"The local name of this {kind}; referenced as `{ref}`."),
    )


_RESOURCE_LABELS = (
    Label("type", LABEL_TYPE, "resource type",
          "The resource type, defined by a provider (the prefix before `_` names it, e.g. `aws`)."),
    Label("name", LABEL_NAME, "resource name",
          "The local name of this resource; with the type it forms the address `<type>.<name>`."),
)
_DATA_LABELS = (
    Label("type", LABEL_TYPE, "data source type", "The data source type, defined by a provider."),
    Label("name", LABEL_NAME, "data source name", "The local name of this data source; referenced as `data.<type>.<name>`."),
)
_EPHEMERAL_LABELS = _typed("ephemeral resource", "ephemeral.<type>.<name>")
_ACTION_LABELS = _typed("action", "action.<type>.<name>")


def _named(what: str, description: str) -> tuple[Label]:
    return (Label("name", LABEL_NAME, what, description),)


BLOCKS: Mapping[str, BlockType] = MappingProxyType({b.name: b for b in (
    BlockType("language", (), "Namespace", None, "", False, _NONE),
    BlockType("terraform", (), "Namespace", None, "", False, _NONE),
    BlockType(
        "provider",
        (Label("name", LABEL_PROVIDER, "provider name", "The local name of the provider (a key of `required_providers`)."),),
        "Package", None, "", False, _NONE,
    ),
    BlockType("variable", _named("variable name", "The name of the variable; referenced as `var.<name>`."),
              "Variable", "var", "var.<name>", True, _NONE),
    BlockType("locals", (), "Namespace", "local", "local.<name>", True, _NONE),
    BlockType("output", _named("output name", "The name of the output value."),
              "Property", "output", "output.<name>", False, _NONE),
    BlockType("module", _named("module name", "The name of the module call; referenced as `module.<name>`."),
              "Module", "module", "module.<name>", True, MODULE_META_ARGUMENTS),
    BlockType("resource", _RESOURCE_LABELS, "Class", "", "<type>.<name>", True, RESOURCE_META_ARGUMENTS),
    BlockType("data", _DATA_LABELS, "Struct", "data", "data.<type>.<name>", True, RESOURCE_META_ARGUMENTS),
    BlockType("ephemeral", _EPHEMERAL_LABELS, "Object", "ephemeral", "ephemeral.<type>.<name>", True, RESOURCE_META_ARGUMENTS),
    BlockType("action", _ACTION_LABELS, "Function", "action", "action.<type>.<name>", True, ACTION_META_ARGUMENTS),
    BlockType("moved", (), "Event", None, "", False, _NONE),
    BlockType("import", (), "Event", None, "", False, _NONE),
    BlockType("removed", (), "Event", None, "", False, _NONE),
    BlockType("check", _named("check name", "The name of the check."), "Interface", "check", "check.<name>", False, _NONE),
)})

# Labelled blocks nested in others (by type name: each has the same labels wherever it appears).
NESTED_LABELS: Mapping[str, tuple[Label, ...]] = MappingProxyType({
    "data": _DATA_LABELS,  # a data source scoped to a `check`
    "backend": (Label("type", LABEL_TYPE, "backend type", "The backend type, such as `s3`, `gcs`, `azurerm` or `local`."),),
    "state_store": (Label("type", LABEL_TYPE, "state store type", "The state store type, implemented by a provider."),),
    "provider_meta": (
        Label("provider", LABEL_PROVIDER, "provider name", "The local name of the provider that receives this metadata."),
    ),
    "provisioner": (
        Label("type", LABEL_TYPE, "provisioner type", "The provisioner type, such as `local-exec`, `remote-exec` or `file`."),
    ),
    "dynamic": (
        Label("block type", LABEL_BLOCK_TYPE, "dynamic block type", "The type of the nested blocks to generate, such as `ingress`."),
    ),
    # (a module call's `provider` block: reserved, read by no release; `language.RESERVED_BLOCKS`)
    "provider": (Label("type", LABEL_TYPE, "provider type", "Reserved in a module call: no release reads this block yet."),),
})


def block_labels(type_name: str, parent: str | None = None) -> tuple[Label, ...]:
    """The labels of block type `type_name` at the top level (`parent` None) or nested in `parent`."""
    if parent is None:
        b = BLOCKS.get(type_name)
        return b.labels if b is not None else ()
    return NESTED_LABELS.get(type_name, ())


def _label_descriptions() -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    for name, b in BLOCKS.items():
        for i, lab in enumerate(b.labels):
            out[(name, i)] = lab.description
    for name, labels in NESTED_LABELS.items():
        for i, lab in enumerate(labels):
            out.setdefault((name, i), lab.description)
    return out


# (block type, label index) -> what that label names.
LABEL_DESCRIPTIONS: Mapping[tuple[str, int], str] = MappingProxyType(_label_descriptions())

# Top-level blocks declaring a name in their last label (the duplicate rule's blocks besides
# `locals` and `provider`): resource, data, ephemeral, action, variable, output, module, check.
NAMED_BLOCKS = frozenset(t for t, b in BLOCKS.items() if b.labels and b.labels[-1].role == LABEL_NAME)

# Blocks that take `count` and `for_each` (one object per instance).
MULTI_INSTANCE_BLOCKS = frozenset(t for t, b in BLOCKS.items() if {"count", "for_each"} <= b.meta_arguments)


# ---- arguments ---------------------------------------------------------------------------------


def meta_arguments(type_name: str | None, parent: str | None = None) -> frozenset[str]:
    """The meta-arguments of block type `type_name` at the top level (`parent` None) or nested in
    `parent` (only a `check`'s `data` block has any there); empty for other blocks."""
    if parent is None:
        b = BLOCKS.get(type_name) if type_name is not None else None
        return b.meta_arguments if b is not None else _NONE
    if parent == "check" and type_name == "data":
        return RESOURCE_META_ARGUMENTS
    return _NONE


# Names an input variable may not have: a module call uses them itself (`lifecycle` and `locals`
# are reserved for future use).
RESERVED_VARIABLE_NAMES = frozenset({*MODULE_META_ARGUMENTS, "lifecycle", "locals"})

# A module call's block whose arguments are input variables whatever their names (`"_": {"count": 1}`):
# Terraform and OpenTofu merge its body into the call's (internal/configs/module_call.go).
ESCAPING_BLOCK = "_"

# Arguments whose plain-string value (or elements) are keywords, not references:
# (block type, argument) -> the accepted keywords, or None where the set is open / not checked.
KEYWORD_ARGUMENTS: Mapping[tuple[str, str], tuple[str, ...] | None] = MappingProxyType({
    ("provisioner", "when"): ("create", "destroy"),
    ("provisioner", "on_failure"): ("continue", "fail"),
    ("terraform", "language"): None,
    ("terraform", "experiments"): None,
    ("action_trigger", "events"): None,
    ("action_trigger", "on_failure"): ("halt", "taint", "continue"),
    ("language", "edition"): None,
})

# How a module source that is a local path starts (Terraform's moduleaddrs: also `.\\`, `..\\`,
# left out here: on this side they are not read as paths).
LOCAL_MODULE_PREFIXES = ("./", "../")

# Provisioner types Terraform (0.15 and later) and OpenTofu reject as removed (deprecated in 0.13.4):
# internal/configs/provisioner.go, decodeProvisionerBlock.
REMOVED_PROVISIONERS = frozenset({"chef", "habitat", "puppet", "salt-masterless"})

# What a destroy-time provisioner (and its connection) may refer to: these roots whole, and
# `count.index` / `each.key` exactly (internal/configs/provisioner.go, onlySelfRefs).
DESTROY_PROVISIONER_ROOTS = frozenset({"self", "path", "terraform"})
DESTROY_PROVISIONER_REFERENCES = frozenset({("count", "index"), ("each", "key")})

# `lifecycle.ignore_changes` is a list of argument names, or this keyword.
IGNORE_CHANGES_KEYWORDS = ("all",)

class _Identifier:
    """HCL's identifier, as Terraform and OpenTofu scan it: a letter (Unicode ``ID_Start``) or `_`,
    then letters, digits and marks (``ID_Continue``), `_` and `-`. `²` is a digit to `\\w` but
    neither, so ``"²x"`` and ``"x²"`` are no names (Terraform: "Invalid variable name")."""

    @staticmethod
    def match(name: str) -> bool:
        # str.isidentifier is Python's identifier rule: XID_Start or `_`, then XID_Continue (the
        # Unicode ID classes closed under NFKC, which differ from ID_Start/ID_Continue in a handful
        # of compatibility characters only); `-` may follow the first character.
        return name[:1] != "-" and name.replace("-", "_").isidentifier()


#: What a declared name may be (block labels, local values, a rename's new name): ``IDENTIFIER.match(name)``.
IDENTIFIER = _Identifier()

#: Core arguments whose value is a JSON object, array or bool whatever their mode says of strings
#: (completion's value placeholder, and `true`/`false` offered for the bools): (block type, argument)
#: -> "{}", "[]", or the bool's default ("false", "true").
VALUE_SHAPES: Mapping[tuple[str, str], str] = MappingProxyType({
    ("lifecycle", "create_before_destroy"): "false",
    ("lifecycle", "prevent_destroy"): "false",
    ("variable", "sensitive"): "false",
    ("variable", "nullable"): "true",
    ("variable", "ephemeral"): "false",
    ("output", "sensitive"): "false",
    ("output", "ephemeral"): "false",
    ("removed", "destroy"): "false",
    ("terraform", "required_providers"): "{}",
    ("terraform", "experiments"): "[]",
    ("module", "providers"): "{}",
    ("lifecycle", "ignore_changes"): "[]",
    ("lifecycle", "replace_triggered_by"): "[]",
})

#: How the strings of an argument refer, (block type at any depth, argument) -> role; an argument
#: not listed refers plainly (its templates' references). Roles: "skip" (keywords, a type, a bound
#: name, or addresses of what no longer exists: no references), "provider" (a provider
#: configuration), "provider-values" (a module's `providers` map: its values name provider
#: configurations), "address" (an address written as an expression), "may-be-undeclared" (an
#: address no block need declare: `moved.to`, Terraform internal/configs/moved.go),
#: "literal-if-broken" (a template that does not parse is read as a literal: it refers to nothing;
#: Terraform internal/configs/named_values.go decodeVariableValidationBlock). Read by both the JSON
#: side (`reference_walk`) and native files (`native`).
ARGUMENT_REFERENCES: Mapping[tuple[str, str], str] = MappingProxyType({
    **{key: "skip" for key in KEYWORD_ARGUMENTS},
    ("variable", "type"): "skip",
    ("moved", "from"): "skip",
    ("removed", "from"): "skip",
    ("lifecycle", "ignore_changes"): "skip",
    ("dynamic", "iterator"): "skip",
    ("moved", "to"): "may-be-undeclared",
    ("import", "provider"): "provider",
    ("lifecycle", "replace_triggered_by"): "address",
    ("import", "to"): "address",
    ("module", "providers"): "provider-values",
    ("validation", "error_message"): "literal-if-broken",
})

# Arguments whose references name provider configurations (`"aws.west"`), not objects: the
# `provider` of a resource, data source, ephemeral resource, action or import, a module's `providers`.
PROVIDER_REFERENCE_ARGUMENTS = frozenset({"provider", "providers"})

# Blocks whose provider-defined settings Terraform reads literally, with the parents they have there.
LITERAL_SETTINGS_BLOCKS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"backend": ("terraform",), "cloud": ("terraform",), "workspaces": ("cloud",)}
)


def literal_settings_block(type_name: str, parent: str | None) -> bool:
    """True for a block whose provider-defined arguments Terraform reads literally
    (`terraform.backend`, `terraform.cloud`, `cloud.workspaces`)."""
    parents = LITERAL_SETTINGS_BLOCKS.get(type_name)
    return parents is not None and parent in parents


# ---- reference namespaces ----------------------------------------------------------------------

# Namespace kinds.
DECLARED = "declared"  # holds what blocks of the module declare
BUILTIN = "builtin"  # fixed attributes, valid everywhere
CONTEXT = "context"  # an object meaningful only inside some blocks

# What the step after the namespace's name is.
STEP_NAME = "name"  # a declared name (`var.region`)
STEP_TYPE = "type"  # a provider-defined type, then a name (`data.aws_ami.ubuntu`)
STEP_ATTRIBUTE = "attribute"  # an attribute of the object (`path.module`, `each.key`, `self.id`)


@dataclass(frozen=True, slots=True)
class Namespace:
    name: str
    kind: str  # DECLARED / BUILTIN / CONTEXT
    step: str  # STEP_NAME / STEP_TYPE / STEP_ATTRIBUTE
    attributes: frozenset[str] | None = None  # the attributes it has, when fixed
    declared_by: str | None = None  # DECLARED: the block type declaring its names
    valid_in: frozenset[str] = _NONE  # CONTEXT: block types inside which (at any depth) it is defined
    description: str = ""


_FOR_EACH_BLOCKS = frozenset({*(t for t, b in BLOCKS.items() if "for_each" in b.meta_arguments), "import", "provider"})

NAMESPACES: Mapping[str, Namespace] = MappingProxyType({n.name: n for n in (
    Namespace("var", DECLARED, STEP_NAME, declared_by="variable", description="The module's input variables: `var.<name>`."),
    Namespace("local", DECLARED, STEP_NAME, declared_by="locals", description="The module's local values: `local.<name>`."),
    Namespace("module", DECLARED, STEP_NAME, declared_by="module",
              description="The outputs of the module's calls of child modules: `module.<name>.<output>`."),
    Namespace("data", DECLARED, STEP_TYPE, declared_by="data", description="The module's data sources: `data.<type>.<name>`."),
    Namespace("ephemeral", DECLARED, STEP_TYPE, declared_by="ephemeral",
              description="The module's ephemeral resources: `ephemeral.<type>.<name>`."),
    Namespace("action", DECLARED, STEP_TYPE, declared_by="action", description="The module's actions: `action.<type>.<name>`."),
    Namespace("path", BUILTIN, STEP_ATTRIBUTE, frozenset({"module", "root", "cwd"}),
              description="File system paths: `path.module`, `path.root`, `path.cwd`."),
    Namespace("terraform", BUILTIN, STEP_ATTRIBUTE, frozenset({"workspace", "applying"}),
              description="The run: `terraform.workspace` (the workspace name), `terraform.applying`."),
    Namespace("count", CONTEXT, STEP_ATTRIBUTE, frozenset({"index"}), valid_in=MULTI_INSTANCE_BLOCKS,
              description="`count.index`: the index of the instance, in a block with `count`."),
    Namespace("each", CONTEXT, STEP_ATTRIBUTE, frozenset({"key", "value"}), valid_in=_FOR_EACH_BLOCKS,
              description="`each.key`, `each.value`: the element of the instance, in a block with `for_each`."),
    Namespace("self", CONTEXT, STEP_ATTRIBUTE, valid_in=frozenset({"provisioner", "connection", "postcondition"}),
              description="The object itself, in its provisioners, connection and postconditions: `self.<attribute>`."),
)})

CONTEXT_OBJECTS = frozenset(n for n, ns in NAMESPACES.items() if ns.kind == CONTEXT)


# ---- sets of block types -----------------------------------------------------------------------
# Every set of block-type names the server reads lives here (tests/terraform/test_catalogue_home.py
# fails on such a literal elsewhere): a rule needing another set adds it here, with what it means.

#: Blocks declaring an object of a provider-defined type, labelled (type, name): resource, data,
#: ephemeral, action.
TYPED_BLOCKS = tuple(t for t, b in BLOCKS.items() if b.labels and b.labels[0].role == LABEL_TYPE)
#: Blocks whose provider schema is the body of their one `config` block: an `action`, a query file's
#: `list` (`filekinds.queryfile`; not a configuration block, so not in `BLOCKS`).
CONFIG_SCHEMA_BLOCKS = ("action", "list")
#: Blocks whose bodies (or `config` body) a provider schema describes: the typed blocks, `list`, and
#: `provider` (the provider's configuration schema).
SCHEMA_BODY_BLOCKS = (*TYPED_BLOCKS, "list", "provider")
#: The modes of a provider-defined resource (managed, data, ephemeral): the typed blocks taking the
#: resource meta-arguments.
RESOURCE_MODES = tuple(t for t in TYPED_BLOCKS if BLOCKS[t].meta_arguments == RESOURCE_META_ARGUMENTS)
#: Managed resources and data sources: the typed blocks whose bodies are read against provider
#: schemas (their types completed, hovered and checked; ephemeral and action schemas are not read).
RESOURCE_AND_DATA = ("resource", "data")
#: Reference namespaces whose next step is a provider-defined type (`data.<type>.<name>`).
TYPED_NAMESPACES = tuple(n for n, ns in NAMESPACES.items() if ns.step == STEP_TYPE)
#: Namespaces an expression may start with in any block (not `action`: only an action trigger's
#: `actions` names actions; context objects only in their blocks), besides resource types.
EXPRESSION_NAMESPACES = tuple(n for n, ns in NAMESPACES.items() if ns.kind != CONTEXT and n != "action")
#: Namespaces of a static address (`depends_on`, `replace_triggered_by`) besides resource types.
STATIC_ADDRESS_NAMESPACES = ("data", "module")
#: First names of addresses of the CLI and of tests that expressions cannot use: `output`, `check`.
ADDRESS_ONLY_NAMESPACES = tuple(b.namespace for b in BLOCKS.values() if b.namespace and not b.referenceable)
#: Declarations whose references take an instance key when the block has `count` or `for_each`.
INSTANCED_BLOCKS = frozenset({*RESOURCE_MODES, "module"})
#: Blocks whose literal `count` / `for_each` Terraform evaluates at validate time (alike for all three).
EVALUATED_REPETITION_BLOCKS = frozenset({"resource", "data", "module"})
#: What a test's `override_resource`, `override_data` and `override_module` blocks target.
TEST_OVERRIDE_TARGETS = ("resource", "data", "module")
#: The top-level blocks an override file may only override, never declare (Terraform's mergeFile).
OVERRIDABLE_BLOCKS = frozenset({"variable", "locals", "output", "module", "resource", "data", "provider"})
#: Blocks whose arguments are addresses (`addresses.address_rules`): moved, import, removed.
ADDRESS_BLOCKS = frozenset({"moved", "import", "removed"})
#: Declaration kinds whose objects live in the state and that a `moved` block may name (a managed
#: resource and a module call; Terraform's configs/moved.go: data sources have no state to move).
MOVABLE_KINDS = frozenset({"resource", "module"})
#: The arguments of those that hold a resource address in which a reserved word is no resource type.
RESOURCE_ADDRESS_ARGUMENTS: Mapping[str, tuple[str, ...]] = MappingProxyType({"import": ("to",), "moved": ("from", "to")})
#: Top-level blocks whose expressions `terraform validate` does not evaluate (a check's assertions
#: run at plan time; a removed block's destroy provisioners at apply).
UNEVALUATED_BLOCKS = frozenset({"check", "removed"})
#: Nested blocks of a resource that Terraform itself defines, not the provider's schema.
CORE_NESTED_BLOCKS = frozenset({"lifecycle", "dynamic", "provisioner", "connection"})
#: Root names an address cannot take as a resource type: reference namespaces and reserved words
#: (internal/addrs/parse_target.go parseResourceInstanceUnderModule, v1.11.4); `resource.<type>`
#: is the way to name a resource type spelled like one.
RESERVED_ADDRESS_ROOTS = frozenset({"count", "each", "local", "module", "path", "self", "terraform", "var", "template", "lazy", "arg"})
#: The roots a test's `expect_failures` accepts (checkable objects); a root neither there nor in
#: `TEST_UNCHECKABLE_ROOTS` is a resource type.
TEST_CHECKABLE_ROOTS = frozenset({"var", "output", "check", "data", "resource"})
TEST_UNCHECKABLE_ROOTS = frozenset({"local", "module", "run", "ephemeral", "action", "path", "terraform", "count", "each", "self"})

# Declaration kinds: the first element of a declaration key (`("local", "x")`: `local`, not `locals`).
#: The kinds of the names a module declares (a rename may change them).
DECLARATION_KINDS = frozenset({"variable", "local", "module", "resource", "data", "ephemeral", "action", "output", "check"})
#: The kinds whose references the editor counts (code lens).
COUNTED_KINDS = frozenset({"variable", "local", "output", "module", "resource", "data", "ephemeral"})
#: The kinds that are unnecessary when nothing refers to them (TFLint's choice).
UNUSED_KINDS = frozenset({"variable", "local", "data"})


# ---- file names --------------------------------------------------------------------------------

CONFIG_JSON = "config-json"  # .tf.json, .tofu.json: what this server reads
CONFIG_NATIVE = "config-native"  # .tf, .tofu: the same module's native-syntax files
TFVARS_JSON = "tfvars-json"  # *.tfvars.json: variable definitions
TEST_JSON = "test-json"  # *.tftest.json, *.tofutest.json: test files
MOCK_JSON = "mock-json"  # *.tfmock.json: mock data for a test's `mock_provider`
QUERY_JSON = "query-json"  # *.tfquery.json: `list` blocks of `terraform query` (Terraform 1.14)
#: The kinds this server reads (JSON files); those that make up a module (JSON and native
#: configuration); the JSON kinds that are none of a module's files (each read with its own schema).
JSON_KINDS = frozenset({CONFIG_JSON, TFVARS_JSON, TEST_JSON, MOCK_JSON, QUERY_JSON})
MODULE_KINDS = frozenset({CONFIG_JSON, CONFIG_NATIVE})
NOT_CONFIGURATION_KINDS = JSON_KINDS - {CONFIG_JSON}

CONFIG_JSON_SUFFIXES = (".tf.json", ".tofu.json")
CONFIG_NATIVE_SUFFIXES = (".tf", ".tofu")
TFVARS_JSON_SUFFIXES = (".tfvars.json",)
TEST_JSON_SUFFIXES = (".tftest.json", ".tofutest.json")
TFVARS_NATIVE_SUFFIXES = (".tfvars",)
TEST_NATIVE_SUFFIXES = (".tftest.hcl", ".tofutest.hcl")
MOCK_JSON_SUFFIXES = (".tfmock.json",)
QUERY_JSON_SUFFIXES = (".tfquery.json",)
MOCK_QUERY_NATIVE_SUFFIXES = (".tfmock.hcl", ".tfquery.hcl")
#: The directory `terraform test` also reads test files from (`-test-directory`'s default); the module
#: under test of a test file there is the directory above it.
TEST_DIRECTORY = "tests"

# Every extension Terraform or OpenTofu gives meaning to, with its kind (None: native files this
# server does not read); matched in this order.
_EXTENSIONS: tuple[tuple[str, str | None], ...] = (
    *((s, TEST_JSON) for s in TEST_JSON_SUFFIXES),
    *((s, None) for s in TEST_NATIVE_SUFFIXES),
    *((s, MOCK_JSON) for s in MOCK_JSON_SUFFIXES),
    *((s, QUERY_JSON) for s in QUERY_JSON_SUFFIXES),
    *((s, None) for s in MOCK_QUERY_NATIVE_SUFFIXES),
    *((s, TFVARS_JSON) for s in TFVARS_JSON_SUFFIXES),
    *((s, CONFIG_JSON) for s in CONFIG_JSON_SUFFIXES),
    *((s, None) for s in TFVARS_NATIVE_SUFFIXES),
    *((s, CONFIG_NATIVE) for s in CONFIG_NATIVE_SUFFIXES),
)
_CONFIG_EXTENSIONS = frozenset({*CONFIG_JSON_SUFFIXES, *CONFIG_NATIVE_SUFFIXES})
_OPENTOFU_EXTENSIONS = frozenset({".tofu", ".tofu.json", ".tofutest.json", ".tofutest.hcl"})
_AUTO_TFVARS = frozenset({"terraform.tfvars", "terraform.tfvars.json"})


def base_name(path: str) -> str:
    """The last segment of a file name, path or `file://` URI (`/` and `\\` both separate)."""
    path = path.replace("\\", "/")
    if path.startswith("file://"):
        path = path[len("file://") :]
    return posixpath.basename(path)


def extension(name: str) -> str:
    """The Terraform/OpenTofu extension `name` ends with (`".tf.json"`, `".tfvars.json"`, `".tofu"`, ...),
    or `""` when none."""
    for suffix, _ in _EXTENSIONS:
        if name.endswith(suffix):
            return suffix
    return ""


def stem(name: str) -> str:
    """The base name of `name` without its Terraform/OpenTofu extension (`main.tf.json` -> `main`,
    `x.auto.tfvars.json` -> `x.auto`); the whole base name when it has none."""
    name = base_name(name)
    ext = extension(name)
    return name[: len(name) - len(ext)]


def file_kind(name: str, ignore_case: bool = False) -> str | None:
    """`CONFIG_JSON`, `CONFIG_NATIVE`, `TFVARS_JSON`, `TEST_JSON`, `MOCK_JSON` or `QUERY_JSON` by the
    name's suffix, else None (native tfvars, test, mock and query files included: this server reads
    JSON only)."""
    name = base_name(name)
    if ignore_case:
        name = name.lower()
    for suffix, kind in _EXTENSIONS:
        if name.endswith(suffix):
            return kind
    return None


def is_override_file(name: str) -> bool:
    """True for a configuration file (JSON or native) Terraform merges over the rest of the module:
    stem `override` or ending in `_override` (`override.tf.json`, `db_override.tofu`, ...)."""
    if extension(base_name(name)) not in _CONFIG_EXTENSIONS:
        return False
    s = stem(name)
    return s == "override" or s.endswith("_override")


def is_opentofu_file(name: str) -> bool:
    """True for the OpenTofu-only extensions: `.tofu`, `.tofu.json`, `.tofutest.json`, `.tofutest.hcl`."""
    return extension(base_name(name)) in _OPENTOFU_EXTENSIONS


def is_ignored_file(name: str) -> bool:
    """True for names both loaders skip in a module directory: hidden (`.x`), editor backups (`x~`,
    `#x#`)."""
    name = base_name(name)
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def is_auto_tfvars(name: str) -> bool:
    """True for variable-definition files loaded without `-var-file`: `terraform.tfvars(.json)`,
    `*.auto.tfvars(.json)`."""
    name = base_name(name)
    return name in _AUTO_TFVARS or name.endswith((".auto.tfvars", ".auto.tfvars.json"))


def opentofu_twin(name: str) -> str | None:
    """The name (same directory, if `name` is a path) whose presence makes OpenTofu ignore `name`:
    `x.tf` -> `x.tofu`, `x.tf.json` -> `x.tofu.json`, `x.tftest.json` -> `x.tofutest.json`,
    `x.tftest.hcl` -> `x.tofutest.hcl`; None for other names."""
    ext = extension(base_name(name))
    if ext not in (".tf", ".tf.json", ".tftest.json", ".tftest.hcl"):
        return None
    return name[: len(name) - len(ext)] + ext.replace(".tf", ".tofu", 1)


def hidden_by_opentofu(names: Iterable[str]) -> frozenset[str]:
    """The names of `names` (files of one directory: bare names or paths, as long as they are
    consistent) that OpenTofu ignores because their `.tofu` twin is among them too."""
    present = set(names)
    return frozenset(n for n in present if (twin := opentofu_twin(n)) is not None and twin in present)


def module_files(names: Iterable[str], opentofu: bool = True) -> list[str]:
    """The configuration files (JSON and native, overrides included) a module directory holding
    `names` is made of, in the given order: not ignored, and with OpenTofu without the files hidden
    by a `.tofu` twin, with Terraform without `.tofu` files."""
    config = [n for n in names if file_kind(n) in (CONFIG_JSON, CONFIG_NATIVE) and not is_ignored_file(n)]
    if opentofu:
        hidden = hidden_by_opentofu(config)
        return [n for n in config if n not in hidden]
    return [n for n in config if not is_opentofu_file(n)]
