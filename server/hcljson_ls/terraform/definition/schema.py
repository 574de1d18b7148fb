"""The Terraform / OpenTofu configuration file schema, expressed with `hcljson.schema`.

    CONFIG_SCHEMA                 root body schema of a `.tf.json` / `.tofu.json` file
    OVERRIDE_SCHEMA               the same for override files: nothing is required
    is_json_override_file(path)   `override.tf.json`, `*_override.tf.json` (and `.tofu.json`)
    is_config_file(path)          `*.tf.json` / `*.tofu.json` (CDKTF `cdk.tf.json` included)
    schema_for_path(path)         CONFIG_SCHEMA or OVERRIDE_SCHEMA

What the names mean beyond decoding (labels, meta-arguments, namespaces, file names) is
`terraform.catalogue`'s; the label names of the blocks here are read from it.

Contract
--------
* Value modes follow the Terraform JSON syntax page (`shared/spec/terraform-json-syntax.md`) and
  Terraform's own decoding: `terraform` settings, `variable` arguments, `module` source/version,
  `provider` alias/version, output description/sensitive and `connection.type` are literal;
  `depends_on`, `moved`/`removed` addresses, `provisioner.when`/`on_failure`, `dynamic.iterator`,
  `terraform.experiments` are static traversals or keywords; `ignore_changes` is a keyword or a
  traversal list; `replace_triggered_by`, the resource `provider` and `import.to` are native
  expressions in a string (OpenTofu allows `"null.blah[each.key]"` there); everything else is a
  full expression.
* Bodies whose content is defined by a provider, a backend or a provisioner are open: unknown
  names are accepted as expression arguments (or nested blocks) with no error.
* Every block, label and argument has a one-line `description` (used by hover and completion).
* Schemas are built once at import and never mutated afterwards. The `dynamic` block's `content`
  body refers back to the provider-defined body schema (nested `dynamic` blocks), so the schema
  graph has a cycle: walk it with a visited set.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from ...hcljson.schema import (
    EXPRESSION,
    KEYWORD_OR_TRAVERSAL_LIST,
    LITERAL,
    LITERAL_STRING,
    NATIVE,
    NATIVE_LIST,
    TRAVERSAL,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
    TYPE,
    AttributeSchema,
    BlockSchema,
    BodySchema,
)
from . import catalogue

A = AttributeSchema


def _labels(type_name: str, nested: bool = False) -> tuple[str, ...]:
    """The label names of a block type, from the catalogue (top-level, or nested in another block)."""
    return tuple(lab.name for lab in catalogue.block_labels(type_name, "" if nested else None))


def _body(
    attributes: Iterable[AttributeSchema] = (),
    blocks: Iterable[BlockSchema] = (),
    *,
    open_attributes: bool = False,
    open_blocks: bool = False,
    dynamic_attributes: bool = False,
    description: str = "",
) -> BodySchema:
    return BodySchema(
        attributes={a.name: a for a in attributes},
        blocks={b.type_name: b for b in blocks},
        open_attributes=open_attributes,
        open_blocks=open_blocks,
        dynamic_attributes=dynamic_attributes,
        description=description,
    )


# ---- shared pieces ---------------------------------------------------------------------------

def _condition_block(type_name: str, description: str) -> BlockSchema:
    return BlockSchema(
        type_name,
        body=_body(
            [
                A("condition", True, EXPRESSION, "An expression that must be true; otherwise Terraform reports the error message."),
                A("error_message", True, EXPRESSION, "The message shown when the condition is false."),
            ]
        ),
        description=description,
    )


PRECONDITION = _condition_block("precondition", "A check made before the object is evaluated; it fails the run when false.")
POSTCONDITION = _condition_block("postcondition", "A check made after the object is evaluated; it fails the run when false.")

COUNT = A("count", False, EXPRESSION, "How many instances to create; `count.index` numbers them. Conflicts with `for_each`.")
FOR_EACH = A("for_each", False, EXPRESSION, "A map or set of strings; one instance is made per element (`each.key`, `each.value`). Conflicts with `count`.")
DEPENDS_ON = A("depends_on", False, TRAVERSAL_LIST, "Explicit dependencies: an array of references such as `\"aws_iam_role.app\"`, written without `${}`.")
RESOURCE_PROVIDER = A("provider", False, NATIVE, "The provider configuration to use, as `\"<name>.<alias>\"` without `${}`.")

CONNECTION = BlockSchema(
    "connection",
    body=_body(
        [
            A("type", False, LITERAL_STRING, "The connection protocol, `\"ssh\"` (the default) or `\"winrm\"`; taken literally."),
            A("host", False, EXPRESSION, "The address of the machine to connect to."),
            A("user", False, EXPRESSION, "The user to connect as."),
            A("password", False, EXPRESSION, "The password for the connection."),
            A("port", False, EXPRESSION, "The port to connect to (22 for SSH, 5985 for WinRM by default)."),
            A("timeout", False, EXPRESSION, "How long to wait for the connection to become available, such as `\"5m\"`."),
            A("private_key", False, EXPRESSION, "The contents of an SSH private key to authenticate with."),
            A("agent", False, EXPRESSION, "Whether to use the SSH agent for authentication."),
            A("bastion_host", False, EXPRESSION, "A bastion host to connect through."),
            A("script_path", False, EXPRESSION, "Where on the remote machine scripts are uploaded before they run."),
        ],
        open_attributes=True,
    ),
    description="How provisioners reach the remote machine (SSH or WinRM).",
    max_items=1,
)

PROVISIONER = BlockSchema(
    "provisioner",
    labels=_labels("provisioner", nested=True),
    body=_body(
        [
            A("when", False, TRAVERSAL, "When the provisioner runs: `\"create\"` (default) or `\"destroy\"`."),
            A("on_failure", False, TRAVERSAL, "What a failure does: `\"fail\"` (default) or `\"continue\"`."),
        ],
        [CONNECTION],
        open_attributes=True,
    ),
    description="An action run on the local or remote machine when the resource is created or destroyed.",
)

ACTION_TRIGGER = BlockSchema(
    "action_trigger",
    body=_body(
        [
            A("events", True, TRAVERSAL_LIST, "The lifecycle events that trigger the actions, such as `\"before_create\"`."),
            A("actions", True, NATIVE_LIST, "The actions to invoke, as references such as `\"action.aws_lambda_invoke.notify\"`."),
            A("condition", False, EXPRESSION, "The actions run only when this expression is true."),
            A("on_failure", False, TRAVERSAL, "What a failed action does: `\"halt\"`, `\"taint\"` or `\"continue\"`."),
        ]
    ),
    description="Invokes actions on lifecycle events of this resource.",
)

RESOURCE_LIFECYCLE = BlockSchema(
    "lifecycle",
    body=_body(
        [
            A("create_before_destroy", False, LITERAL, "Create the replacement object before destroying the old one."),
            A("prevent_destroy", False, EXPRESSION, "Refuse any plan that would destroy this object (a literal boolean, or an expression where the engine allows it)."),
            A("ignore_changes", False, KEYWORD_OR_TRAVERSAL_LIST, "Arguments whose changes are ignored: `\"all\"`, or an array of attribute names such as `[\"tags\"]`."),
            A("replace_triggered_by", False, NATIVE_LIST, "Replace this resource when any of the referenced objects or attributes change."),
            A("enabled", False, EXPRESSION, "Whether the resource exists at all."),
            A("destroy", False, LITERAL, "Set to false to forget the object instead of destroying it when it leaves the configuration."),
        ],
        [PRECONDITION, POSTCONDITION, ACTION_TRIGGER],
    ),
    description="Settings that change how Terraform creates, updates and destroys this object.",
    max_items=1,
)

CONDITIONS_LIFECYCLE = BlockSchema(
    "lifecycle",
    body=_body(
        [A("enabled", False, EXPRESSION, "Whether the object exists at all.")],
        [PRECONDITION, POSTCONDITION],
    ),
    description="Pre- and postconditions checked for this object.",
    max_items=1,
)

# The provider-defined body of a resource/data source: open, but `dynamic` is understood, also
# inside `dynamic.content` (a cycle, closed below).
_dynamic_content_blocks: dict[str, BlockSchema] = {}
PROVIDER_DEFINED_BODY = BodySchema(
    blocks=MappingProxyType(_dynamic_content_blocks),
    open_attributes=True,
    open_blocks=True,
    description="Arguments and nested blocks defined by the provider.",
)

DYNAMIC = BlockSchema(
    "dynamic",
    labels=_labels("dynamic", nested=True),
    body=_body(
        [
            A("for_each", True, EXPRESSION, "The collection to repeat over; one nested block is generated per element."),
            A("iterator", False, TRAVERSAL, "The name of the temporary variable for the current element (default: the block type)."),
            A("labels", False, EXPRESSION, "The labels of each generated block, as an array of strings."),
        ],
        [
            BlockSchema(
                "content",
                body=PROVIDER_DEFINED_BODY,
                description="The body of each generated block.",
                min_items=1,
                max_items=1,
            )
        ],
    ),
    description="Generates repeated nested blocks from a collection.",
)
_dynamic_content_blocks["dynamic"] = DYNAMIC


def _resource_like(
    type_name: str,
    description: str,
    lifecycle: BlockSchema,
    extra_blocks: Iterable[BlockSchema] = (),
    extra_attributes: Iterable[AttributeSchema] = (),
    nested: bool = False,
) -> BlockSchema:
    return BlockSchema(
        type_name,
        labels=_labels(type_name, nested),
        body=_body(
            [COUNT, FOR_EACH, RESOURCE_PROVIDER, DEPENDS_ON, *extra_attributes],
            [lifecycle, DYNAMIC, *extra_blocks],
            open_attributes=True,
            open_blocks=True,
        ),
        description=description,
    )


RESOURCE = _resource_like(
    "resource",
    "A managed infrastructure object of the given type, created and kept up to date by Terraform.",
    RESOURCE_LIFECYCLE,
    [PROVISIONER, CONNECTION],
)
DATA = _resource_like("data", "A data source: information read from a provider, used elsewhere in the configuration.", CONDITIONS_LIFECYCLE)
EPHEMERAL = _resource_like(
    "ephemeral", "An ephemeral resource: opened for each run and never stored in plan or state.", CONDITIONS_LIFECYCLE
)
ACTION = BlockSchema(
    "action",
    labels=_labels("action"),
    body=_body(
        [COUNT, FOR_EACH, RESOURCE_PROVIDER],
        [BlockSchema("config", body=None, description="The action's provider-defined arguments.", max_items=1)],
        open_attributes=True,
        open_blocks=True,
    ),
    description="A provider-defined action that lifecycle triggers or the CLI can invoke.",
)

# ---- top-level blocks ------------------------------------------------------------------------

TERRAFORM = BlockSchema(
    "terraform",
    body=_body(
        [
            A("required_version", False, LITERAL_STRING, "The Terraform versions this configuration works with, such as `\">= 1.5\"`."),
            A("required_providers", False, LITERAL, "The providers this module needs: local name -> `{\"source\": ..., \"version\": ...}`."),
            A("experiments", False, TRAVERSAL_LIST, "Opt-in language experiments to enable in this module."),
            A("language", False, TRAVERSAL, "The language edition this module is written for."),
        ],
        [
            BlockSchema("backend", labels=_labels("backend", nested=True), body=None, description="Where Terraform stores state; the body is the backend's own settings."),
            BlockSchema(
                "cloud",
                body=_body(
                    [
                        A("organization", False, LITERAL_STRING, "The HCP Terraform organization."),
                        A("hostname", False, LITERAL_STRING, "The HCP Terraform / Terraform Enterprise host name."),
                        A("token", False, LITERAL_STRING, "An API token (prefer the CLI credentials file)."),
                        A("project", False, LITERAL_STRING, "The project new workspaces are created in."),
                    ],
                    [
                        BlockSchema(
                            "workspaces",
                            body=_body(
                                [
                                    A("name", False, LITERAL_STRING, "The single workspace to use."),
                                    A("tags", False, LITERAL, "Use the workspaces carrying these tags."),
                                    A("project", False, LITERAL_STRING, "The project of the workspaces."),
                                ],
                                open_attributes=True,
                            ),
                            description="Which remote workspaces this configuration uses.",
                        )
                    ],
                    open_attributes=True,
                ),
                description="Connects this configuration to HCP Terraform or Terraform Enterprise.",
            ),
            BlockSchema("provider_meta", labels=_labels("provider_meta", nested=True), body=None, description="Module metadata passed to the named provider."),
            BlockSchema("state_store", labels=_labels("state_store", nested=True), body=None,
                        description="Where state is stored, by a provider (Terraform alpha builds with experiments only).", max_items=1),
            BlockSchema("encryption", body=None, description="State and plan encryption settings."),
        ],
    ),
    description="Settings for Terraform itself: required versions and providers, backend, cloud.",
)

PROVIDER = BlockSchema(
    "provider",
    labels=_labels("provider"),
    body=_body(
        [
            A("alias", False, LITERAL_STRING, "A name for an additional configuration of this provider, referenced as `\"<name>.<alias>\"`."),
            A("version", False, LITERAL_STRING, "Deprecated version constraint; use `required_providers` instead."),
            A("for_each", False, EXPRESSION, "One provider configuration per element, each addressed by key."),
        ],
        [DYNAMIC],  # (Terraform expands `dynamic` blocks in a provider block, as in a resource)
        open_attributes=True,
        open_blocks=True,
    ),
    description="A configuration of a provider plugin; the arguments are defined by the provider.",
)

VARIABLE = BlockSchema(
    "variable",
    labels=_labels("variable"),
    body=_body(
        [
            A("type", False, TYPE, "The type constraint of the value, such as `\"string\"` or `\"list(object({ name = string }))\"`."),
            A("default", False, LITERAL, "The value used when none is given; taken literally (no `${}`)."),
            A("description", False, LITERAL_STRING, "Documentation for the variable; taken literally."),
            A("sensitive", False, LITERAL, "Hide the value in plan and apply output."),
            A("nullable", False, LITERAL, "Whether `null` is an acceptable value (default true)."),
            A("ephemeral", False, LITERAL, "The value is available during the run only and never stored."),
            A("deprecated", False, LITERAL_STRING, "A message shown when a caller sets this variable."),
            A("const", False, LITERAL, "The value is known while the configuration loads and may be used where only constants are allowed."),
        ],
        [_condition_block("validation", "A custom rule the value must satisfy, with the error shown otherwise.")],
    ),
    description="An input variable of the module, referenced as `var.<name>`.",
)

LOCALS = BlockSchema(
    "locals",
    body=_body(dynamic_attributes=True, description="Named local values."),
    description="Named local values, referenced as `local.<name>`.",
)

OUTPUT = BlockSchema(
    "output",
    labels=_labels("output"),
    body=_body(
        [
            A("value", True, EXPRESSION, "The value this output exposes."),
            A("description", False, LITERAL_STRING, "Documentation for the output; taken literally."),
            A("sensitive", False, LITERAL, "Hide the value in CLI output."),
            A("ephemeral", False, LITERAL, "The value is passed between modules during the run only and never stored."),
            A("deprecated", False, LITERAL_STRING, "A message shown when this output is used."),
            A("type", False, TYPE, "The type constraint the value is converted to, such as `\"string\"`."),
            DEPENDS_ON,
        ],
        [PRECONDITION],
    ),
    description="An output value of the module, shown after apply or read as `module.<name>.<output>`.",
)

MODULE = BlockSchema(
    "module",
    labels=_labels("module"),
    body=_body(
        [
            A("source", True, EXPRESSION, "Where the module's code is: a local path, a registry address or a URL; variables and locals are allowed."),
            A("version", False, EXPRESSION, "The accepted versions of a registry module, such as `\"~> 5.0\"`; variables and locals are allowed."),
            A("providers", False, TRAVERSAL_MAP, "Provider configurations passed to the module: `{\"aws\": \"aws.west\"}`."),
            COUNT,
            FOR_EACH,
            DEPENDS_ON,
        ],
        [
            BlockSchema(
                "lifecycle",
                body=_body([A("enabled", False, EXPRESSION, "Whether the module call exists at all.")]),
                description="Settings of the module call.",
                max_items=1,
            ),
            BlockSchema(
                catalogue.ESCAPING_BLOCK,
                body=_body(open_attributes=True),
                description="Input variables of the called module whose names are meta-arguments (`source`, `count`, ...): "
                            "its arguments are read as input variables, whatever their names.",
                max_items=1,
            ),
            # Reserved by Terraform and OpenTofu for a future version (`language.RESERVED_BLOCKS`).
            BlockSchema("locals", body=_body(open_attributes=True, open_blocks=True), description="Reserved."),
            BlockSchema("provider", labels=_labels("provider", nested=True), body=_body(open_attributes=True, open_blocks=True),
                        description="Reserved."),
        ],
        open_attributes=True,
    ),
    description="A call of a child module; the other arguments are its input variables.",
)

MOVED = BlockSchema(
    "moved",
    body=_body(
        [
            A("from", True, TRAVERSAL, "The old address of the object, such as `\"aws_instance.a\"`."),
            A("to", True, TRAVERSAL, "The new address of the object."),
        ]
    ),
    description="Records that an object moved to a new address, so it is not destroyed and re-created.",
)

IMPORT = BlockSchema(
    "import",
    body=_body(
        [
            A("to", True, NATIVE, "The resource address to import into, such as `\"aws_instance.web\"`."),
            A("id", False, EXPRESSION, "The provider's identifier of the existing object."),
            A("identity", False, EXPRESSION, "The resource identity of the existing object, as an object (instead of `id`)."),
            A("provider", False, TRAVERSAL, "The provider configuration used for the import."),
            FOR_EACH,
        ]
    ),
    description="Brings an existing infrastructure object under Terraform's management.",
)

REMOVED = BlockSchema(
    "removed",
    body=_body(
        [A("from", True, TRAVERSAL, "The address of the resource or module removed from the configuration.")],
        [
            BlockSchema(
                "lifecycle",
                body=_body([A("destroy", False, LITERAL, "Whether to destroy the object (true) or only forget it (false).")]),
                description="What happens to the removed object.",
                max_items=1,
            ),
            PROVISIONER,
            CONNECTION,
        ],
    ),
    description="Removes an object from the configuration, destroying it or only forgetting it.",
)

CHECK = BlockSchema(
    "check",
    labels=_labels("check"),
    body=_body(
        [],
        [
            _resource_like("data", "A data source read only within this check.", CONDITIONS_LIFECYCLE, nested=True),
            BlockSchema(
                "assert",
                body=_body(
                    [
                        A("condition", True, EXPRESSION, "An expression that should be true; a warning is shown otherwise."),
                        A("error_message", True, EXPRESSION, "The warning shown when the condition is false."),
                    ]
                ),
                description="An assertion; a false condition gives a warning, not an error.",
                min_items=1,
                missing_at_open=True,  # Terraform's own check ("Zero assert blocks"), at the check's definition
            ),
        ],
    ),
    description="A validation of the infrastructure that warns, without blocking, when it fails.",
)

LANGUAGE = BlockSchema(
    "language",
    body=_body(
        [
            A("edition", False, TRAVERSAL, "The language edition this module is written for (`tofu2024`)."),
            A("experiments", False, TRAVERSAL_LIST, "Opt-in language experiments (reserved)."),
        ],
        [
            BlockSchema(
                "compatible_with",
                body=_body(
                    [A("opentofu", False, LITERAL_STRING, "The OpenTofu versions this module works with, such as `\">= 1.12\"`.")],
                    open_attributes=True,
                ),
                description="The versions of each tool this module works with.",
                max_items=1,
            )
        ],
    ),
    description="Language settings of the module: edition and tool versions.",
)

TOP_LEVEL_BLOCKS: tuple[BlockSchema, ...] = (
    LANGUAGE,
    TERRAFORM,
    PROVIDER,
    VARIABLE,
    LOCALS,
    OUTPUT,
    MODULE,
    RESOURCE,
    DATA,
    EPHEMERAL,
    ACTION,
    MOVED,
    IMPORT,
    REMOVED,
    CHECK,
)

CONFIG_SCHEMA = BodySchema(blocks={b.type_name: b for b in TOP_LEVEL_BLOCKS}, description="A Terraform configuration file.")


# ---- override files --------------------------------------------------------------------------

def _relaxed(schema: BodySchema, memo: dict[int, BodySchema], block_memo: dict[int, BlockSchema]) -> BodySchema:
    """`schema` with nothing required (no required argument, no minimum block count).

    Memoized by identity, so shared schemas stay shared and the `dynamic.content` cycle is kept."""
    if id(schema) in memo:
        return memo[id(schema)]
    blocks: dict[str, BlockSchema] = {}
    out = BodySchema(
        attributes={n: (A(a.name, False, a.mode, a.description) if a.required else a) for n, a in schema.attributes.items()},
        blocks=MappingProxyType(blocks),
        dynamic_attributes=schema.dynamic_attributes,
        open_attributes=schema.open_attributes,
        open_blocks=schema.open_blocks,
        description=schema.description,
    )
    memo[id(schema)] = out
    for name, b in schema.blocks.items():
        done = block_memo.get(id(b))
        if done is None:
            done = block_memo[id(b)] = BlockSchema(
                b.type_name,
                b.labels,
                None if b.body is None else _relaxed(b.body, memo, block_memo),
                b.description,
                None,
                b.max_items,
            )
        blocks[name] = done
    return out


OVERRIDE_SCHEMA = _relaxed(CONFIG_SCHEMA, {}, {})

def is_config_file(path: str) -> bool:
    """True for a Terraform/OpenTofu JSON configuration file name (path or URI): `catalogue.CONFIG_JSON`."""
    return catalogue.file_kind(path) == catalogue.CONFIG_JSON


def is_json_override_file(path: str) -> bool:
    """True for `override.tf.json`, `*_override.tf.json` and their `.tofu.json` twins (JSON
    configuration files only: `catalogue.is_override_file` covers native files too).

    Terraform merges such files over the rest of the module, so they may set only some arguments."""
    return is_config_file(path) and catalogue.is_override_file(path)


def schema_for_path(path: str | None) -> BodySchema:
    """The root schema to decode the file at `path` with (`OVERRIDE_SCHEMA` for override files)."""
    return OVERRIDE_SCHEMA if path and is_json_override_file(path) else CONFIG_SCHEMA

