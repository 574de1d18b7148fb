"""Hover: what a reference or a function call means, or what a block type key, a label key or a
core argument is.

    hover(snapshot, uri, offset) -> Hover | None
    hover_in(body, text, offset) -> Hover | None     keys only, from a decoded body and its text

Contract
--------
* On a reference (`features.navigation.target_at`): a variable's type, default and description, a
  local value's expression, a module call's source, a child module's output, a resource or data
  source, a provider configuration, each with the file that declares it (open or not); on a call,
  the function's signature and description for the module's engine (a provider-defined function's
  from the module's provider schemas: `provider_functions.function_named`); on `path`, `terraform`,
  `count`, `each`, `self`, what they are. An undeclared name gets no hover (its diagnostic says it).
* Otherwise `hover` reads the document's analysis (`DocumentState.analysis`): its body is a `FileView`, of
  which only the top-level blocks around `offset` are built (`FileView.blocks_at`). `hover_in`
  takes any decoded root body of `text` (a `FileView` or a `Body`). `offset` is an absolute
  character offset; a key string is hovered when `start <= offset < end` (quotes included).
  Diagnostics are not repeated in hover: editors show them beside it.
* Block type keys: the native-syntax header (`resource "<type>" "<name>"`) and what the block is.
  Label keys: which label it is (`resource type`, `variable name`, ...) and what it names.
  Arguments the schema knows: what they are, required or not, and how JSON writes them (literal,
  reference string, template). Local values and module inputs get a one-line note. Values get
  nothing (`None`).
* Provider-defined keys (`provider_hover`, only when the module's provider schemas are loaded:
  `Snapshot.provider_schemas`): inside a resource or data body, at any depth (nested blocks,
  objects of protocol-6 nested attributes, `dynamic` `content`), a key the schema knows gets its
  type, required / optional / computed, sensitive, write-only and deprecated, and the schema's description
  (Markdown when its `description_kind` is `markdown`, else plain text escaped for Markdown); a
  nested block key its nesting mode and bounds. The resource or data type label gets the label
  hover plus the provider's address and the type's description (so do an ephemeral, action or query
  file `list` body and type label, and the keys of an `import` block's `identity` object: the
  identity attributes of the type its `to` names). Keys the schema does not know,
  and every key without a loaded schema, get the hover they had without schemas (usually none).
* State backend settings (`backend_hover`, `definition.backends` for the module's engine and
  version): a key of a `terraform.backend.<type>` body or of `terraform_remote_state`'s literal
  `config` object (nested objects too) gets its type, required / sensitive / deprecated and our
  one-line description; a key the backend does not have gets nothing.
* `Hover.markdown` is Markdown; `start`/`end` the exact range of the hovered key string.
* On the name key of a block of CDKTF output, its construct path and unique id come first (`cdktf`).
* Pure; no recursion along the document (a loop down the block chain).
"""

from __future__ import annotations

from ..hcljson import schema as S
from ..hcljson.incremental import FileView
from ..hcljson.locate import ARGUMENT_NAME, LABEL, UNKNOWN_NAME, VALUE, Context, locate
from ..hcljson.model import Attribute, Block, Body
from ..hcljson.values import quoted, string_text
from ..jsonsyntax.tree import STRING
from ..terraform.definition import catalogue, functions
from ..terraform.definition.backends import backend_keys
from ..terraform.definition.catalogue import LABEL_DESCRIPTIONS, meta_arguments
from ..terraform.definition.docs import absolute_links
from ..terraform.definition.language import introduced
from ..terraform.nativehcl.native import declaration_details
from ..terraform.resolution.references import Call, Reference, output_step
from ..terraform.rules.provider_rules import import_identity
from ..terraform.schemas.provider_lookup import block_address, block_schema, body_at, name_at, steps_of
from ..terraform.schemas.provider_schema import MAP, SINGLE, SchemaAttribute, SchemaBlock, SchemaBlockType, provider_of
from ..workspace import Snapshot
from . import kinds, module_inputs
from .cdktf import construct_hover
from .links import Link, docs_link_at, type_doc
from .native_preview import NativePreview, block_preview
from .navigation import Target, child_output, target_at
from .provider_functions import function_named
from .results import Hover
from .symbols import block_title

_MODE_NOTES = {
    S.EXPRESSION: "An expression: strings are templates, so `\"${...}\"` is evaluated.",
    S.LITERAL: "Taken literally: strings are not templates, `${...}` is not evaluated.",
    S.LITERAL_STRING: "A string taken literally: `${...}` is not evaluated.",
    S.MAP_OF_LITERAL_STRINGS: "An object of strings taken literally.",
    S.TRAVERSAL: "A reference written as a plain string, without `${}` (e.g. `\"aws.west\"`).",
    S.TRAVERSAL_LIST: "An array of references written as plain strings, without `${}`.",
    S.TRAVERSAL_MAP: "An object whose keys and values are references written as plain strings.",
    S.TYPE: "A type constraint written as a string, such as `\"map(string)\"`.",
    S.KEYWORD_OR_TRAVERSAL_LIST: "The keyword `\"all\"`, or an array of attribute names written as plain strings.",
    S.NATIVE: "An expression written as a plain string, without `${}`.",
    S.NATIVE_LIST: "An array of expressions written as plain strings, without `${}`.",
}

_LABEL_PLACEHOLDERS = {"block type": "type"}


def _touches(start: int, end: int, offset: int) -> bool:
    return start <= offset < end


def _header_template(block: Block) -> str:
    labels = " ".join(f'"<{_LABEL_PLACEHOLDERS.get(n, n)}>"' for n in block.schema.labels)
    return f"{block.type_name} {labels}".strip()


def _where(chain: list[Block]) -> str:
    return f"`{block_title(chain[-1])}`" if chain else "the file"


def _block_hover(block: Block, chain: list[Block]) -> Hover | None:
    desc = block.schema.description
    if not desc:
        return None
    inside = f" in {_where(chain)}" if chain else ""
    md = f"```terraform\n{_header_template(block)}\n```\n**{block.type_name}** block{inside}\n\n{desc}"
    return Hover(md + _since([*chain, block]), block.type_start, block.type_end)


def _since(chain: list, name: str | None = None) -> str:
    """"Available in ..." for a versioned block or argument (`language.introduced`), else ""."""
    path = [b.type_name for b in chain] + ([name] if name is not None else [])
    found = introduced(path)
    return f"\n\n*Available in: {found}.*" if found else ""


def _label_hover(block: Block, index: int, chain: list[Block]) -> Hover:
    lab = block.labels[index]
    names = block.schema.labels
    name = names[index] if index < len(names) else "label"
    # Labels after this one may differ between the blocks sharing this key: show placeholders.
    shown = [quoted(x.value) for x in block.labels[: index + 1]]
    shown += [f'"<{_LABEL_PLACEHOLDERS.get(n, n)}>"' for n in names[index + 1 :]]
    header = " ".join([block.type_name, *shown])
    desc = LABEL_DESCRIPTIONS.get((block.type_name, index)) or f"Label {index + 1} of the `{block.type_name}` block."
    md = f"`{lab.value}` — **{block.type_name} {name}**\n\n```terraform\n{header}\n```\n{desc}"
    return Hover(md, lab.start, lab.end)


def _attribute_hover(attr: Attribute, body: Body | FileView, chain: list[Block]) -> Hover | None:
    s = attr.schema
    where = _where(chain)
    if s is None:
        if body.schema.dynamic_attributes and chain and chain[-1].type_name == "locals":
            md = f"**{attr.name}** — local value\n\nReferenced as `local.{attr.name}`. Its value is an expression."
            return Hover(md, attr.name_start, attr.name_end)
        if len(chain) == 1 and chain[0].type_name == "module":
            md = (
                f"**{attr.name}** — input of {where}\n\nSets the child module's variable "
                f"{quoted(attr.name)}. Its value is an expression."
            )
            return Hover(md, attr.name_start, attr.name_end)
        return None
    parent = chain[-2].type_name if len(chain) > 1 else None
    meta = " meta-argument" if chain and attr.name in meta_arguments(chain[-1].type_name, parent) else " argument"
    need = "required" if s.required else "optional"
    parts = [f"**{attr.name}** — {need}{meta} of {where}"]
    if s.description:
        parts.append(s.description)
    note = _MODE_NOTES.get(s.mode)
    if note:
        parts.append(f"*{note}*")
    return Hover("\n\n".join(parts) + _since(chain, attr.name), attr.name_start, attr.name_end)


def hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    """Hover for the reference, call or key at `offset` of open document `uri` (see module doc), or None."""
    if (own := kinds.answer("hover", snapshot, uri, offset)) is not kinds.CONFIGURATION:
        return own
    state = snapshot.document(uri)
    if state is None:
        return None
    target = target_at(snapshot, uri, offset)
    if target is not None and target.kind == "reference" and (found := _attribute_step_hover(snapshot, uri, target, offset)):
        return found
    if target is not None and target.kind != "declaration":
        found = _reference_hover(snapshot, uri, target)
        if found is not None:
            return found
    found = provider_hover(snapshot, uri, offset) or backend_hover(snapshot, uri, offset)
    if found is not None:
        return _with_docs(found, docs_link_at(snapshot, uri, offset))
    if (answer := module_inputs.hover(snapshot, uri, offset)) is not None:  # the child module's variable
        return Hover(*answer)
    found = _with_native(hover_in(state.analysis.body, state.text, offset), block_preview(snapshot, uri, offset))
    construct = construct_hover(snapshot, uri, offset, found.markdown if found is not None else None)
    return Hover(*construct) if construct is not None else _with_docs(found, docs_link_at(snapshot, uri, offset))


#: The schema lookups of the objects whose attributes a reference reads (`<type>.<name>.<attribute>`).
_SCHEMA_KINDS = {"resource": "resource", "data": "data_source", "ephemeral": "ephemeral_resource"}


def _attribute_step_hover(snapshot: Snapshot, uri: str, target: Target, offset: int) -> Hover | None:
    """Hover on the attribute step of a reference to a resource, data source or ephemeral resource
    (`ephemeral.example_token.t.value`, cursor on `value`): the attribute as its provider schema
    describes it; None elsewhere or without the schema."""
    ref, key = target.item, target.key
    if not isinstance(ref, Reference) or key is None or key[0] not in _SCHEMA_KINDS or len(key) != 3:
        return None
    steps = list(ref.steps)
    at = next((i for i, st in enumerate(steps) if st.start == target.name_start), None)
    if at is None or at + 1 >= len(steps):
        return None
    step = steps[at + 1]
    schemas = snapshot.provider_schemas(uri)
    if schemas is None or not step.start <= offset <= step.end:
        return None
    address = provider_of(key[1], None, snapshot.required_providers(uri), snapshot.engine(uri))
    schema = getattr(schemas, _SCHEMA_KINDS[key[0]])(address, key[1]) if address is not None else None
    if schema is None:
        return None
    where = f"`{'' if key[0] == 'resource' else key[0] + '.'}{key[1]}`"
    if step.name in schema.attributes:
        return Hover(_schema_attribute_md(step.name, schema.attributes[step.name], where), step.start, step.end)
    if step.name in schema.block_types:
        return Hover(_schema_block_md(step.name, schema.block_types[step.name], where), step.start, step.end)
    return None


def _with_docs(found: Hover | None, link: Link | None) -> Hover | None:
    """`found` with the documentation link of the key it is on (`features.links`), after its
    first part (before a native preview)."""
    if found is None or link is None or not found.start <= link.start <= found.end:
        return found
    head, sep, tail = found.markdown.partition("\n\n---\n\n")
    return Hover(f"{head}\n\n[Documentation]({link.target}){sep}{tail}", found.start, found.end)


def _with_native(found: Hover | None, preview: NativePreview | None) -> Hover | None:
    """`found` followed by the block in native syntax (`features.native_preview`)."""
    if preview is None:
        return found
    code = f"```terraform\n{preview.text}\n```"
    if found is None:
        return Hover(code, preview.start, preview.end)
    return Hover(f"{found.markdown}\n\n---\n\n{code}", found.start, found.end)


# ---- provider-defined keys ---------------------------------------------------------------------


def resource_schema(snapshot: Snapshot, uri: str, block: Block, text) -> SchemaBlock | None:
    """The provider schema of the body of top-level resource or data `block` of `uri`, or None
    (no schemas loaded, another block, an unknown type)."""
    return block_schema(block, snapshot.provider_schemas(uri), text, snapshot.required_providers(uri), snapshot.engine(uri))


def provider_steps(ctx: Context) -> tuple[tuple[str | int, ...], tuple[int, int]] | None:
    """(steps from the resource body, range) of the provider-defined key under a located offset
    (`provider_lookup.steps_of`), or None when it is not such a key."""
    if not ctx.blocks or ctx.blocks[0].type_name not in catalogue.SCHEMA_BODY_BLOCKS:
        return None
    attr = ctx.attribute
    if attr is not None and attr.schema is not None:
        return None  # a meta-argument or core argument: `hover_in` answers
    if ctx.kind in (ARGUMENT_NAME, UNKNOWN_NAME) and ctx.name is not None and ctx.name_range is not None:
        steps = steps_of(ctx.blocks, (ctx.name,))
        return (steps, ctx.name_range) if steps is not None else None
    s = ctx.string
    if ctx.kind == VALUE and attr is not None and s is not None and s.is_key:
        steps = steps_of(ctx.blocks, (attr.name, *ctx.path))
        return (steps, (s.start, s.end)) if steps is not None else None
    return None


def provider_hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    """Hover from the provider schema at `offset` of `uri` (see the module doc), or None."""
    state = snapshot.document(uri)
    if state is None or snapshot.provider_schemas(uri) is None:
        return None
    text = state.text
    ctx = locate(text, state.analysis.body, offset)
    if ctx.kind == LABEL and not ctx.blocks and ctx.label_index == 0 and ctx.block is not None:
        return _type_label_hover(snapshot, uri, text, ctx.block, offset)
    if in_identity(ctx):
        return _identity_hover(snapshot, uri, text, ctx, offset)
    found = provider_steps(ctx)
    if found is None:
        return None
    steps, (start, end) = found
    schema = resource_schema(snapshot, uri, ctx.blocks[0], text)
    item = name_at(schema, steps)
    if item is None or not _touches(start, end, offset):
        return None
    where = _container(schema, steps) or f"`{block_title(ctx.blocks[0])}`"
    name = str(steps[-1])
    md = _schema_attribute_md(name, item, where) if isinstance(item, SchemaAttribute) else _schema_block_md(name, item, where)
    return Hover(md, start, end)


def backend_hover(snapshot: Snapshot, uri: str, offset: int) -> Hover | None:
    """A state backend's setting (`definition.backends`, for the module's engine and version): a
    key of the `terraform.backend.<type>` body, or of `terraform_remote_state`'s literal `config`
    object, at any depth of nested objects: its type, required / sensitive / deprecated and our
    description. None elsewhere or for a key the backend does not have."""
    state = snapshot.document(uri)
    if state is None:
        return None
    text = state.text
    ctx = locate(text, state.analysis.body, offset)
    blocks, attr, s = ctx.blocks, ctx.attribute, ctx.string
    if attr is None:
        return None
    steps: tuple[str | int, ...]
    if len(blocks) >= 2 and blocks[-1].type_name == "backend" and blocks[-2].type_name == "terraform" and blocks[-1].labels:
        backend = blocks[-1].labels[0].value
        if ctx.kind == ARGUMENT_NAME and ctx.name_range is not None:
            steps, (start, end) = (attr.name,), ctx.name_range
        elif ctx.kind == VALUE and s is not None and s.is_key:
            steps, (start, end) = (attr.name, *ctx.path), (s.start, s.end)
        else:
            return None
    elif (len(blocks) == 1 and blocks[0].type_name == "data" and blocks[0].labels
          and blocks[0].labels[0].value == "terraform_remote_state" and attr.name == "config"
          and ctx.kind == VALUE and s is not None and s.is_key and ctx.path):
        chosen = blocks[0].body.attribute("backend")
        if chosen is None or chosen.expr is None or chosen.expr.kind != STRING:
            return None
        backend = string_text(text, chosen.expr.node, chosen.expr.start)
        steps, (start, end) = tuple(ctx.path), (s.start, s.end)
    else:
        return None
    if not _touches(start, end, offset) or not all(isinstance(step, str) for step in steps):
        return None
    language = snapshot.language(uri)
    keys = backend_keys(language.engine, language.version, backend)
    key = None
    for step in steps:
        key = keys.get(str(step)) if keys is not None else None
        if key is None:
            return None
        keys = {k.name: k for k in key.nested}
    return Hover(key.markdown, start, end) if key is not None else None


def in_identity(ctx: Context) -> bool:
    """The located offset is inside the value of an `import` block's `identity` argument."""
    attr = ctx.attribute
    return (ctx.kind == VALUE and attr is not None and attr.name == "identity" and len(ctx.blocks) == 1
            and ctx.blocks[0].type_name == "import")


def identity_schema(snapshot: Snapshot, uri: str, ctx: Context, text) -> tuple[str, SchemaBlock] | None:
    """(resource type, identity schema) of the `import` block around a located offset
    (`provider_rules.import_identity`: the type its `to` names), or None."""
    schemas = snapshot.provider_schemas(uri)
    if schemas is None or not ctx.blocks:
        return None
    found = import_identity(ctx.blocks[0], schemas, text, snapshot.required_providers(uri), snapshot.engine(uri))
    if found is None or found[2] is None:
        return None
    return found[1], found[2]


def _identity_hover(snapshot: Snapshot, uri: str, text: str, ctx: Context, offset: int) -> Hover | None:
    """An identity attribute's key inside `"identity": {...}` of an `import` block."""
    s = ctx.string
    if s is None or not s.is_key or len(ctx.path) != 1 or not _touches(s.start, s.end, offset):
        return None
    found = identity_schema(snapshot, uri, ctx, text)
    item = found[1].attributes.get(str(ctx.path[0])) if found is not None else None
    if found is None or item is None:
        return None
    return Hover(_schema_attribute_md(str(ctx.path[0]), item, f"the identity of `{found[0]}`"), s.start, s.end)


def _type_label_hover(snapshot: Snapshot, uri: str, text: str, block: Block, offset: int) -> Hover | None:
    if block.type_name not in catalogue.SCHEMA_BODY_BLOCKS or len(block.labels) < 2:
        return None
    lab = block.labels[0]
    schema = resource_schema(snapshot, uri, block, text)
    if schema is None or not _touches(lab.start, lab.end, offset):
        return None
    base = _label_hover(block, 0, [])
    address = block_address(block, text, snapshot.required_providers(uri), snapshot.engine(uri))
    what = {"data": "data source", "ephemeral": "ephemeral resource type", "action": "action type",
            "list": "list resource type"}.get(block.type_name, "resource type")
    parts = [base.markdown, f"{'An' if what[0] in 'aeiou' else 'A'} {what} of the provider `{address}`."]
    if schema.deprecated:
        parts.append("*Deprecated by the provider.*")
    parts.append(_schema_description(schema.description, schema.description_kind))
    return Hover("\n\n".join(p for p in parts if p), base.start, base.end)


def _container(schema: SchemaBlock | None, steps: tuple[str | int, ...]) -> str | None:
    """"`<name>`" of the nested block or nested attribute holding `steps[-1]`, None at the top."""
    for i in range(len(steps) - 2, -1, -1):
        step = steps[i]
        if not isinstance(step, str):
            continue
        if name_at(schema, steps[: i + 1]) is not None or body_at(schema, (*steps[: i + 1], "content")) is not None:
            return f"`{step}`"  # a nested block or attribute, or the type a `dynamic` block generates
    return None


# Characters Markdown may read as syntax in a plain-text description.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~")


def _escape_markdown(text: str) -> str:
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in text)


def _schema_description(description: str, kind: str) -> str:
    description = description.strip()
    # A provider's relative links point into its registry site: broken here, so only their text stays.
    return absolute_links(description) if kind == "markdown" else _escape_markdown(description)


def _schema_attribute_md(name: str, a: SchemaAttribute, where: str) -> str:
    if a.required:
        need = "required argument"
    elif a.optional:
        need = "optional argument"
    else:
        need = "computed attribute"
    flags = [f"type: `{a.type}`"]
    if a.computed and a.optional:
        flags.append("computed: the provider sets it when it is not configured")
    elif a.computed_only:
        flags.append("read-only: set by the provider")
    if a.sensitive:
        flags.append("sensitive")
    if a.write_only:
        flags.append("write-only: the provider never stores its value (not in the plan or state)")
    parts = [f"**{name}** — {need} of {where}", " · ".join(flags)]
    if a.nested is not None:
        inner = ", ".join(f"`{n}`" for n in a.nested.attributes)
        parts.append(f"nesting: `{a.nested.nesting}`" + (f", objects of {inner}" if inner else ""))
    parts.append(_schema_description(a.description, a.description_kind))
    if a.deprecated:
        parts.append("*Deprecated by the provider.*")
    return "\n\n".join(p for p in parts if p)


def _bounds(bt: SchemaBlockType) -> str:
    low = bt.min_items or 0
    high = bt.max_items if bt.max_items is not None else (1 if bt.nesting == SINGLE else None)
    if bt.nesting == MAP:
        unit = "one block per key"
    elif high == 1:
        unit = "at most one block" if low == 0 else "exactly one block"
    elif high is not None:
        unit = f"{low} to {high} blocks"
    else:
        unit = f"at least {low} block{'s' if low != 1 else ''}" if low else "any number of blocks"
    return f"nesting: `{bt.nesting}` · {unit}"


def _schema_block_md(name: str, bt: SchemaBlockType, where: str) -> str:
    parts = [f"**{name}** — nested block of {where}", _bounds(bt)]
    parts.append(_schema_description(bt.block.description, bt.block.description_kind))
    if bt.block.deprecated:
        parts.append("*Deprecated by the provider.*")
    return "\n\n".join(p for p in parts if p)


# ---- references and calls ----------------------------------------------------------------------

_MAX_VALUE = 300  # characters of a value shown (a local's expression, a default)


def _reference_hover(snapshot: Snapshot, uri: str, target: Target) -> Hover | None:
    item = target.item
    if target.kind == "call" and isinstance(item, Call):
        fn = function_named(snapshot, uri, item.name)
        if fn is None:
            return None
        only = "" if len(fn.engines) > 1 else " (OpenTofu only)" if fn.engines == ("opentofu",) else " (Terraform only)"
        return Hover(f"```hcl\n{functions.signature(fn)}\n```\n\n{fn.description}{only}", item.start, item.end)
    if target.kind == "builtin" and isinstance(item, Reference):
        ns = catalogue.NAMESPACES.get(item.root)
        return Hover(f"**{item.root}**\n\n{ns.description}", target.start, target.end) if ns is not None else None
    key = target.key
    if key is None:
        return None
    if target.kind == "output":
        return _output_hover(snapshot, uri, target)
    sites = snapshot.declaration_sites(uri, key)
    if not sites:
        return None  # undeclared: the diagnostic says so
    site_uri, start, end = sites[0]
    where = f"Declared in `{snapshot.display_name(site_uri)}`" + (f" and {len(sites) - 1} more place(s)" if len(sites) > 1 else "") + "."
    block = _declaring_block(snapshot, site_uri, start, end)
    parts = [f"```hcl\n{_header(key)}\n```"]
    if key[0] == "module":
        outputs = snapshot.module_outputs(uri, key[1])
        if outputs:
            parts.append("outputs: " + ", ".join(f"`{o}`" for o in outputs))
    if block is not None:
        text, b = block
        parts.extend(_details(key, text, b, start, end))
        doc = type_doc(snapshot, site_uri, b, text)  # a resource or data source: its registry page
        if doc is not None:
            parts.append(f"[Documentation]({doc})")
    elif catalogue.file_kind(site_uri) == catalogue.CONFIG_NATIVE:
        parts.extend(_native_details(key, snapshot.text_of(site_uri) or "", start))
    parts.append(where)
    return Hover("\n\n".join(p for p in parts if p), target.start, target.end)


def _header(key: tuple) -> str:
    kind = key[0]
    if kind == "local":
        return f"local.{key[1]}"
    if kind == "provider":
        return f'provider "{key[1]}"' + (f' (alias "{key[2]}")' if key[2] else "")
    return " ".join([kind, *(f'"{k}"' for k in key[1:])])


def _declaring_block(snapshot: Snapshot, uri: str, start: int, end: int) -> tuple[str, Block] | None:
    view = snapshot.view_of(uri)
    if view is None:
        return None
    text, body = view
    for block in body.blocks_at(start):
        h = block.header_range
        if (h[0] <= start and end <= h[1]) or (block.body.start <= start and end <= block.body.end):
            return text, block
    return None


def _details(key: tuple, text: str, block: Block, start: int, end: int) -> list[str]:
    kind = key[0]
    body = block.body
    out: list[str] = []
    if kind == "variable":
        shown = _type_of(text, body)
        if shown:
            out.append(f"type: `{shown}`")
        default = body.attribute("default")
        if default is not None and default.expr is not None:
            out.append(f"default: `{_value(text, default.expr.start, default.expr.end)}`")
        out.append(_description(text, body))
    elif kind == "local":
        for attr in body.attributes:
            if attr.name_start == start and attr.expr is not None:
                out.append(f"```json\n{_value(text, attr.expr.start, attr.expr.end)}\n```")
    elif kind == "output":
        out.append(_description(text, body))
    elif kind == "module":
        source = body.attribute("source")
        if source is not None and source.expr is not None:
            out.append(f"source: `{_value(text, source.expr.start, source.expr.end)}`")
    elif kind in catalogue.RESOURCE_MODES:
        for meta in ("count", "for_each"):
            if body.attribute(meta) is not None:
                out.append(f"Has `{meta}`: refer to one instance with "
                           + ("`[index]`." if meta == "count" else "`[key]`."))
    return out


def _native_details(key: tuple, text: str, start: int) -> list[str]:
    """`_details` for a declaration in a native file (`terraform.native.declaration_details`)."""
    found = declaration_details(text, start)
    kind = key[0]
    if kind == "variable":
        return [*(f"{n}: `{_short(found[n])}`" for n in ("type", "default") if n in found), found.get("description", "")]
    if kind == "local" and "value" in found:
        return [f"```hcl\n{_short(found['value'])}\n```"]
    if kind == "output":
        return [found.get("description", "")]
    if kind == "module" and "source" in found:
        return [f"source: `{_short(found['source'])}`"]
    return []


def _short(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) <= _MAX_VALUE else value[: _MAX_VALUE - 1] + "…"


def variable_summary(snapshot: Snapshot, uri: str, key: tuple) -> tuple[str, str]:
    """(type as written, description) of variable `key` of the module of `uri` ("" for what it lacks)."""
    sites = snapshot.declaration_sites(uri, key)
    if not sites:
        return "", ""
    site_uri, start, end = sites[0]
    block = _declaring_block(snapshot, site_uri, start, end)
    if block is not None:
        text, b = block
        return _type_of(text, b.body), _description(text, b.body)
    if catalogue.file_kind(site_uri) == catalogue.CONFIG_NATIVE:
        found = declaration_details(snapshot.text_of(site_uri) or "", start)
        return _short(found.get("type", "")), found.get("description", "")
    return "", ""


def _description(text: str, body: Body) -> str:
    attr = body.attribute("description")
    if attr is None or attr.expr is None or attr.expr.kind != "string":
        return ""
    return string_text(text, attr.expr.node, attr.expr.start)


def _value(text: str, start: int, end: int) -> str:
    return _short(text[start:end])


def _type_of(text: str, body: Body) -> str:
    """A variable's type constraint as Terraform writes it: a JSON string's value, unquoted ("" without one)."""
    attr = body.attribute("type")
    if attr is None or attr.expr is None:
        return ""
    e = attr.expr
    return string_text(text, e.node, e.start) if e.kind == "string" else _value(text, e.start, e.end)


def _output_hover(snapshot: Snapshot, uri: str, target: Target) -> Hover | None:
    item = target.item
    step = output_step(item) if isinstance(item, Reference) else None
    if step is None:
        return None
    module, output = item.steps[0].name, step.name  # type: ignore[union-attr]
    site = child_output(snapshot, uri, target)
    if site is None:
        return None
    parts = [f"```hcl\noutput \"{output}\"\n```", f'An output of the module called "{module}".']
    block = _declaring_block(snapshot, *site)
    if block is not None:
        parts.append(_description(block[0], block[1].body))
    elif catalogue.file_kind(site[0]) == catalogue.CONFIG_NATIVE:
        parts.extend(_native_details(("output", output), snapshot.text_of(site[0]) or "", site[1]))
    parts.append(f"Declared in `{snapshot.display_name(site[0])}`.")
    return Hover("\n\n".join(p for p in parts if p), target.start, target.end)


def hover_in(body: Body | FileView | None, text: str, offset: int) -> Hover | None:
    """Hover for the key at `offset` of `text`, whose decoded root body is `body`, or None."""
    if body is None:
        return None
    chain: list[Block] = []
    current = body
    while True:
        inner: Block | None = None
        blocks = current.blocks_at(offset) if isinstance(current, FileView) else current.blocks
        for block in blocks:
            if _touches(block.type_start, block.type_end, offset):
                return _block_hover(block, chain)
            for i, lab in enumerate(block.labels):
                if _touches(lab.start, lab.end, offset):
                    return _label_hover(block, i, chain)
            if inner is None and block.body.start < offset < block.body.end:
                inner = block
        for attr in current.attributes:
            if _touches(attr.name_start, attr.name_end, offset):
                return _attribute_hover(attr, current, chain)
        if inner is None:
            return None
        chain.append(inner)
        current = inner.body
