"""Terraform-specific structural diagnostics on a decoded configuration file.

    block_diagnostics(block, text, override=False) -> list[Diagnostic]   one top-level block
    definitions(block, text) / duplicates(keys, place, text)       the duplicate check, per block / across
    duplicates_steps(keys, place, every, text)                     the same across, a generator pausing every `every` keys
    valid_identifier(name) -> bool

Contract
--------
`block` is a top-level block of the root `hcljson.model.Body` decoded with `schema.CONFIG_SCHEMA`
(or `OVERRIDE_SCHEMA`); `terraform.analysis` runs these rules on every block of a file. The
generic HCL JSON checks (unknown names, JSON shapes, missing labels, missing required arguments,
literal-only strings holding `${`) are the decoder's; this module adds what only Terraform knows.
Codes (documented in docs/diagnostics.md, "Terraform structure diagnostics"):

* `structure/conflicting-arguments`  `count` with `for_each`; `import` with both `id` and `identity`
* `structure/invalid-name`           a resource/data/ephemeral/action type or name, variable, output,
                                     module, check, local value name or provider alias that is
                                     not an identifier (letters, digits, `_`, `-`; first a letter
                                     or `_`)
* `structure/reserved-name`          a variable named like a module meta-argument
* `structure/duplicate-block`        the same resource/data/variable/output/module/check/provider
                                     configuration (or local value), a second backend or cloud
                                     block or `required_providers` block, defined in the file
                                     (not in override files, which are meant to repeat names),
                                     on the second one where Terraform reports it
                                     (`reported_range`)
* `structure/invalid-keyword`        `provisioner.when` / `on_failure`, the `ignore_changes` keyword
* `structure/value-type`             a resource `provider`, `import.to` or `replace_triggered_by`
                                     element that is not a string; a boolean setting that is not
                                     a boolean; a `required_providers` entry that is not an object
                                     or a version string
* `reference/invalid-replace-trigger` an element of `replace_triggered_by` that refers to something
                                     other than one resource, `count.index` and `each.key`
* `module/invalid-source`            a module call with `version` whose `source` is a local path
                                     (Terraform then reads it as a registry address)
* `structure/missing-argument`       an `import` with neither `id` nor `identity` (not in override files)
* `structure/unknown-argument`       a `required_providers` entry key other than `source`, `version`,
                                     `configuration_aliases`
* `variable/invalid-default`         a variable's `default` that does not fit its `type`
                                     (`variable_rules`)
* `meta-argument/invalid-count`, `meta-argument/invalid-for-each`   a literal `count` / `for_each`
                                     Terraform cannot use (`repetition_values`)
* `remote-state/unknown-backend`, `remote-state/unknown-config`   a `terraform_remote_state`'s
                                     backend and config keys (`remote_state`)
* `schema/...`, `provisioner/invalid-config`   the bodies of built-in provisioners and of
                                     `connection` blocks (`provisioners`)
* `structure/invalid-version-constraint`, `structure/invalid-provider-source`   a `terraform`
                                     block's requirements (`requirement_rules`)
* `structure/template-in-literal`    (warning) `${`/`%{` in backend or cloud settings, which
                                     Terraform reads literally

Blocks are visited iteratively; the cost is linear in the number of blocks and attributes. The rules
of a top-level block depend on that block alone (`block_diagnostics`), except the duplicate check,
which compares position-free keys (`definitions`) across blocks; `terraform.analysis` keeps both per
block across edits. Never raises on any body the decoder produces (attributes may lack a value
mid-edit).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence

from ...diagnostic import ERROR, WARNING, Diagnostic, Related
from ...hcljson import problems as P
from ...hcljson.model import Attribute, Block, Body
from ...hcljson.values import defined_at, kind_phrase, quoted, string_text, value_end
from ...hcljson.view import TreeView, diagnostics_of
from ...jsonsyntax import strings
from ...jsonsyntax.tree import ARRAY, NULL, OBJECT, STRING, Container, Node
from ...steps import run_out
from ..definition import catalogue
from ..definition.catalogue import (
    BLOCKS,
    IDENTIFIER,
    IGNORE_CHANGES_KEYWORDS,
    KEYWORD_ARGUMENTS,
    LOCAL_MODULE_PREFIXES,
    MULTI_INSTANCE_BLOCKS,
    NAMED_BLOCKS,
    REMOVED_PROVISIONERS,
    RESERVED_VARIABLE_NAMES,
    RESOURCE_AND_DATA,
    RESOURCE_MODES,
    literal_settings_block,
)
from ..definition.language import CONSTRAINT_KIND
from ..resolution.addresses import import_target
from ..resolution.local_cycles import LOCAL_USES, local_uses_fact, may_name_locals
from ..resolution.local_values import LOCAL_REFERENCE, LOCAL_VALUE, local_value_fact
from ..resolution.module_calls import VARIABLE_INPUT, variable_fact
from ..resolution.provider_passing import CONFIGURED
from ..resolution.provider_passing import META as PROVIDER_META
from ..resolution.reference_walk import expression_references
from ..resolution.references import BUILTIN_ROOTS, INSTANCED, REPETITION, Reference, repetition_key, subject
from ..schemas.provider_lookup import (
    MODULE_PROVIDERS,
    PROVIDER_USE,
    configuration_declared,
    configuration_used,
    meta_provider,
    passed_configurations,
)
from .body_rules import body_diagnostics
from .boolean_settings import BOOLEAN_SETTINGS, boolean_findings
from .const_sources import VARIABLE_CONST, const_fact
from .provisioners import provisioner_diagnostics
from .remote_state import remote_state_diagnostics
from .repetition_values import CONFLICTING_ARGUMENTS
from .requirement_rules import requirement_diagnostics
from .variable_rules import variable_diagnostics

INVALID_NAME = "structure/invalid-name"
RESERVED_NAME = "structure/reserved-name"
PROVIDER_VERSION = "structure/provider-version"
INVALID_IMPLIED_PROVIDER = "structure/invalid-implied-provider"
SELF_REFERENCE = "reference/self-referencing-local"
DUPLICATE_BLOCK = "structure/duplicate-block"
DUPLICATE_IMPORT = "structure/duplicate-import"
#: The codes of `duplicates` (the rule across the blocks of a file).
DUPLICATE_CODES = frozenset({DUPLICATE_BLOCK, DUPLICATE_IMPORT})
INVALID_KEYWORD = "structure/invalid-keyword"
INVALID_MODULE_SOURCE = "module/invalid-source"
INVALID_TRIGGER = "reference/invalid-replace-trigger"
#: `replace_triggered_by`: the context objects it may use, with the one attribute each.
_TRIGGER_ATTRIBUTES = {"count": "index", "each": "key"}
#: What Terraform's reference parser reads as a resource there (`action.t.n` is a resource of type
#: "action" before actions existed).
_TRIGGER_KINDS = frozenset(catalogue.TYPED_BLOCKS)
VALUE_TYPE = P.VALUE_TYPE
MISSING_ARGUMENT = P.MISSING_ARGUMENT
TEMPLATE_IN_LITERAL = P.TEMPLATE_IN_LITERAL

_IDENTIFIER = IDENTIFIER

# What the labels of a declaring block name, for messages: block type -> one phrase per label.
_LABEL_WHAT = {t: tuple(lab.what for lab in BLOCKS[t].labels) for t in NAMED_BLOCKS}
_INSTANCE_BLOCKS = MULTI_INSTANCE_BLOCKS
#: The blocks whose boolean settings `validate` checks (`boolean_settings`; an output's: the body
#: rule `output_rules.boolean_findings`).
_BOOLEAN_SETTINGS = {t: BOOLEAN_SETTINGS[t] for t in ("variable", "lifecycle")}
_REQUIREMENT_KEYS = ("source", "version", "configuration_aliases")


#: (block type, argument) -> the keywords a keyword argument accepts (`structure/invalid-keyword`
#: for any other string; None: any keyword is read, none checked).
_KEYWORDS = {**KEYWORD_ARGUMENTS, ("lifecycle", "ignore_changes"): IGNORE_CHANGES_KEYWORDS}
#: The arguments whose rules here read the tree only (`replace_triggers`: what each element refers
#: to): the quick open sends a block holding one to the full analysis (`quick._certify`).
TREE_ONLY = frozenset({("lifecycle", "replace_triggered_by")})


def keywords_of(block_type: str, name: str) -> tuple[str, ...] | None:
    """The keywords argument `name` of a `block_type` block accepts as its string (the rule of
    `keyword`, for the quick open too), or None when none is checked."""
    return _KEYWORDS.get((block_type, name))


def valid_identifier(name: str) -> bool:
    """Terraform's identifier rule: letters, digits, `_` and `-`, starting with a letter or `_`
    (letters and digits in the Unicode sense, so `π` is a valid name)."""
    return bool(_IDENTIFIER.match(name))


def invalid_labels(block_type: str, labels: Sequence[str]) -> list[tuple[int, str]]:
    """The labels of a `block_type` block (top-level, or in a `check`) that are not valid names
    (`valid_identifier`): `(index, what the label names)` each, in order. The full path reports
    each (`structure/invalid-name`, on the label); the quick open sends a
    block with any to the full analysis (`quick._certify`)."""
    what = _LABEL_WHAT.get(block_type)
    if what is None:
        return []
    match = _IDENTIFIER.match
    for name in labels:
        if not match(name):
            break
    else:
        return []  # (the usual case, without building pairs: the quick open asks for every block)
    return [(i, w) for i, (name, w) in enumerate(zip(labels, what)) if not _IDENTIFIER.match(name)]


def implied_provider_problem(block_type: str, labels: Sequence[str], has_provider: bool) -> str | None:
    """Why the provider local name Terraform implies from the type of a `resource` or `data` block
    without a `provider` argument (its type up to the first `_`) is no valid provider name
    (Terraform's `ParseProviderPart`), or None. The full path reports it
    (`structure/invalid-implied-provider`, on the block's definition); the quick open sends such a
    block to the full analysis (`quick._certify`)."""
    if block_type not in RESOURCE_AND_DATA or has_provider or not labels:
        return None
    type_name = labels[0]
    if type_name[:1] != "_" and "-" not in type_name:
        return None  # (the usual case: a letter first, no dash)
    local = type_name.split("_", 1)[0]
    if not _IDENTIFIER.match(type_name):
        return None  # `structure/invalid-name` speaks of it
    if not local:
        return "must have at least one character"
    if "--" in local:
        return "cannot use multiple consecutive dashes"
    if local.endswith("-"):
        return "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
    return None


def _identifier_suggestion(name: str) -> str | None:
    # Spaces and punctuation become "_"; symbols such as an emoji are dropped (not "_" each).
    fixed = "".join(c if _IDENTIFIER.match("a" + c) else "_" if c.isspace() or c in ".,:;/+" else "" for c in name)
    if fixed and not _IDENTIFIER.match(fixed):
        fixed = "_" + fixed
    return fixed if fixed and fixed != name and _IDENTIFIER.match(fixed) else None


def _why_invalid(name: str) -> str:
    if not name:
        return "it is empty"
    if not _IDENTIFIER.match(name[0]):
        return f"it starts with {quoted(name[0])}"
    for c in name:
        if not _IDENTIFIER.match("a" + c):
            return f"it contains {quoted(c)}"
    return "it is not an identifier"  # pragma: no cover - unreachable for invalid names


def _invalid_name(start: int, end: int, name: str, what: str) -> Diagnostic:
    s = _identifier_suggestion(name)
    hint = f" Did you mean {quoted(s)}?" if s else ""
    return Diagnostic(
        start, end, ERROR, INVALID_NAME, f"Invalid {what}",
        f"A {what} must start with a letter or underscore and contain only letters, digits, underscores "
        f"and dashes, but {quoted(name)} is not valid: {_why_invalid(name)}.{hint}",
        (), P.quoted_fix(start, end, s) if s else (),
    )


def _first_attributes(body: Body) -> dict[str, Attribute]:
    """The first attribute of each name in `body` (what `Body.attribute` returns, for many names)."""
    out: dict[str, Attribute] = {}
    for a in reversed(body.attributes):
        out[a.name] = a
    return out



class _Validator:
    __slots__ = ("text", "override", "diags")

    def __init__(self, text: str, override: bool) -> None:
        self.text = text
        self.override = override
        self.diags: list[Diagnostic] = []

    # ---- helpers ---------------------------------------------------------------------------
    def string_value(self, node: Node, start: int) -> str:
        return string_text(self.text, node, start)

    def check_name(self, name: str, start: int, end: int, what: str) -> None:
        if not _IDENTIFIER.match(name):
            self.diags.append(_invalid_name(start, end, name, what))

    def conflicts(self, attrs: dict[str, Attribute], a: str, b: str, where: str, why: str) -> None:
        x, y = attrs.get(a), attrs.get(b)
        if x is None or y is None:
            return
        first, second = (x, y) if x.name_start <= y.name_start else (y, x)
        self.diags.append(
            Diagnostic(
                second.name_start, second.name_end, ERROR, CONFLICTING_ARGUMENTS,
                f"Invalid combination of {quoted(a)} and {quoted(b)}",
                f"{where} cannot use both {quoted(a)} and {quoted(b)}: {why}",
                (Related(first.name_start, first.name_end, f"{quoted(first.name)} is set here"),),
            )
        )

    def expect_string(self, attr: Attribute | None, expected: str) -> None:
        if attr is None or attr.expr is None:
            return
        e = attr.expr
        if e.kind != STRING:
            self.diags.append(P.value_type(e.node, e.start, e.end, attr.name, expected))

    def expect_booleans(self, block: Block, attrs: dict[str, Attribute], names: Iterable[str]) -> None:
        """`boolean_settings.boolean_findings` (the rule written once over the view) of the names the
        decoder knows in `block`, placed."""
        known = [n for n in names if (a := attrs.get(n)) is not None and a.expr is not None and a.schema is not None]
        if known:
            view = TreeView(self.text)
            self.diags.extend(diagnostics_of(view, boolean_findings(view, block.type_name, block.body, known)))

    def keyword(self, attr: Attribute | None, allowed: tuple[str, ...] | None) -> None:
        """A keyword argument's value is one of `allowed` (None: any keyword is read, none checked)."""
        if attr is None or attr.expr is None or attr.expr.kind != STRING or allowed is None:
            return  # the decoder reports non-strings
        e = attr.expr
        value = self.string_value(e.node, e.start)
        if value in allowed:
            return
        s = P.suggestion(value, allowed)
        hint = f" Did you mean {quoted(s)}?" if s else ""
        choices = " or ".join(quoted(k) for k in allowed)
        self.diags.append(
            Diagnostic(
                e.start, e.end, ERROR, INVALID_KEYWORD, f"Invalid {quoted(attr.name)} keyword",
                f"The argument {quoted(attr.name)} takes {choices}, but this is {quoted(value)}.{hint}",
                (), P.quoted_fix(e.start, e.end, s) if s else (),
            )
        )

    def literal_strings(self, attr: Attribute, where: str) -> None:
        """Warn about `${`/`%{` in strings anywhere in an open attribute read literally."""
        e = attr.expr
        if e is None:
            return
        text = self.text
        stack: list[tuple[Node, int]] = [(e.node, e.start - e.node.start)]
        while stack:
            node, base = stack.pop()
            if node.kind == STRING:
                start = base + node.start
                raw = text[start : base + node.end]
                if "{" not in raw and "\\u" not in raw:
                    continue
                decoded = strings.decode(text, start, node)  # type: ignore[arg-type]
                found = [j for j in (decoded.value.find("${"), decoded.value.find("%{")) if j >= 0]
                if found:
                    i = min(found)
                    self.diags.append(
                        Diagnostic(
                            decoded.offsets[i], decoded.offsets[i + 2], WARNING, TEMPLATE_IN_LITERAL,
                            "Template sequence in a literal value",
                            f"Terraform reads {where} literally, so this template sequence in "
                            f"{quoted(attr.name)} is not evaluated and stays in the value as written.",
                        )
                    )
            elif isinstance(node, Container):
                inner = base + node.start
                for m in node.items:
                    if m.value is not None:
                        stack.append((m.value, inner))

    # ---- per block -------------------------------------------------------------------------
    def block(self, block: Block, parent: str | None) -> None:
        """Every rule of one block, in a fixed order: its labels, the rules of a definition (a
        top-level block, or a `check`'s data source), its boolean settings, then its nested kind."""
        t = block.type_name
        # The first attribute of each name, looked up by the rules below (several per block).
        attrs = _first_attributes(block.body)
        if parent in (None, "check"):
            labels = block.labels
            for i, w in invalid_labels(t, [lab.value for lab in labels]):
                lab = labels[i]
                self.diags.append(_invalid_name(lab.start, lab.end, lab.value, w))
        if parent is None or (parent == "check" and t == "data"):
            self.definition(block, parent, attrs)
        booleans = _BOOLEAN_SETTINGS.get(t)
        if booleans is not None and block.schema.body is not None:
            self.expect_booleans(block, attrs, booleans)
        self.settings(block, parent, attrs)

    def definition(self, block: Block, parent: str | None, attrs: dict[str, Attribute]) -> None:
        """The rules of a top-level block (or of a `check`'s data source): the shared body rules,
        then those of its type (a variable's name, a provider's alias, local names, an import)."""
        t = block.type_name
        labels = block.labels
        if t in _INSTANCE_BLOCKS and t != "module":
            self.expect_string(attrs.get("provider"), "a provider reference given as a string, such as \"aws.west\"")
        why = implied_provider_problem(t, [lab.value for lab in labels], "provider" in attrs) if parent is None else None
        if why is not None:
            local = labels[0].value.split("_", 1)[0]
            at = defined_at(self.text, block.header_range)
            self.diags.append(Diagnostic(
                at[0], at[1], ERROR, INVALID_IMPLIED_PROVIDER, "Invalid provider local name",
                f"{quoted(local)} (the type's name up to its first \"_\") is the local name of the provider this "
                f"{'data source' if t == 'data' else 'resource'} implies, and it is invalid: it {why}. "
                "Rename the type, or name its provider with the \"provider\" argument.",
            ))
        # The rules written once over `hcljson.view` (`body_rules`: `count` with `for_each`, their literals).
        self.diags.extend(body_diagnostics(block, self.text, self.override))
        if t == "variable":
            self.diags.extend(variable_diagnostics(block, self.text))
        elif t == "data":
            self.diags.extend(remote_state_diagnostics(block, self.text, self.override))
        elif t == "resource" and parent is None:
            self.diags.extend(provisioner_diagnostics(block, self.text))
        if t == "variable" and labels:
            lab = labels[0]
            if lab.value in RESERVED_VARIABLE_NAMES:
                self.diags.append(
                    Diagnostic(
                        lab.start, lab.end, ERROR, RESERVED_NAME, "Invalid variable name",
                        f"The name {quoted(lab.value)} is reserved: a module call uses it as a meta-argument, "
                        "so no input variable can have it. Choose another name.",
                    )
                )
        elif t == "provider":
            alias = attrs.get("alias")
            if alias is not None and alias.expr is not None and alias.expr.kind == STRING:
                value = self.string_value(alias.expr.node, alias.expr.start)
                self.check_name(value, alias.expr.start, alias.expr.end, "provider alias")
            version = attrs.get("version")
            if version is not None and version.expr is not None:
                self.diags.append(
                    Diagnostic(
                        version.expr.start, version.expr.end, WARNING, PROVIDER_VERSION,
                        "Version constraints inside provider configuration blocks are deprecated",
                        "A provider's version constraint belongs in the module's required_providers "
                        "(terraform { required_providers { ... } }); Terraform will stop reading it here. "
                        "Move it there to silence this warning.",
                    )
                )
        elif t == "locals":
            for a in block.body.attributes:
                self.check_name(a.name, a.name_start, a.name_end, "local value name")
                self.self_reference(a)
        elif t == "import":
            self.import_block(block.body, attrs)

    def self_reference(self, local: Attribute) -> None:
        """Each reference of local value `local`'s expression to `local.<its name>`: Terraform's
        "Self-referencing local value", on the reference's `local.<name>`."""
        e = local.expr
        if e is None:
            return
        refs = [r for r in expression_references(self.text, e) if type(r) is Reference and r.root == "local"
                and r.steps and r.steps[0].name == local.name and not r.steps[0].index]
        for r in sorted(refs, key=lambda r: r.start):
            self.diags.append(
                Diagnostic(
                    r.start, r.steps[0].end, ERROR, SELF_REFERENCE, "Self-referencing local value",
                    f"The local value {quoted(local.name)} uses its own result (local.{local.name}) in its "
                    "expression, so Terraform cannot work it out. Refer to what it is made of instead.",
                )
            )

    def import_block(self, body: Body, attrs: dict[str, Attribute]) -> None:
        """`import.to` is a string; exactly one of `id` and `identity` is set."""
        self.expect_string(attrs.get("to"), "a resource address given as a string")
        self.conflicts(
            attrs, "id", "identity", "An import block",
            "\"id\" names the object by its import ID and \"identity\" by its resource identity. Keep one of them.",
        )
        if not self.override and attrs.get("id") is None and attrs.get("identity") is None and body.node is not None:
            h = body.missing_item_range
            self.diags.append(
                Diagnostic(
                    h[0], h[1], ERROR, MISSING_ARGUMENT, "Missing required argument \"id\"",
                    "An import block must say which existing object to import, with \"id\" (its import ID) "
                    "or \"identity\" (its resource identity), but neither is set.",
                )
            )

    def settings(self, block: Block, parent: str | None, attrs: dict[str, Attribute]) -> None:
        """The rules of the block's kind, nested or not: `lifecycle`, a module call's source,
        a provisioner's keywords, `terraform`'s requirements, backend and cloud literals."""
        t = block.type_name
        labels = block.labels
        attribute = attrs.get
        if t == "lifecycle":
            self.lifecycle(attrs)
        elif t == "module" and parent is None:
            # An expression since Terraform 1.15 / OpenTofu 1.8, but still one that gives a string.
            for name in ("source", "version"):
                given = attribute(name)
                if given is not None and given.expr is not None and given.expr.kind in (ARRAY, OBJECT):
                    self.diags.append(P.value_type(given.expr.node, given.expr.start, given.expr.end, name, "a string"))
            self.registry_source(attribute("source"), attribute("version"))
        elif t == "provisioner" and not (labels and labels[0].value in REMOVED_PROVISIONERS):
            # (a removed provisioner: Terraform reads nothing of it; `provisioners` says so)
            self.keyword(attribute("when"), keywords_of(t, "when"))
            self.keyword(attribute("on_failure"), keywords_of(t, "on_failure"))
        elif t == "terraform" and parent is None:
            self.diags.extend(requirement_diagnostics(block, self.text))
            rp = attribute("required_providers")
            if rp is not None and rp.expr is not None:
                self.required_providers(rp)
        elif literal_settings_block(t, parent):
            where = "backend settings" if t == "backend" else "cloud settings"
            for a in block.body.attributes:
                if a.schema is None:
                    self.literal_strings(a, where)

    def lifecycle(self, attrs: dict[str, Attribute]) -> None:
        """`replace_triggered_by`: its elements are strings, each one reference; the
        `ignore_changes` keyword."""
        rtb = attrs.get("replace_triggered_by")
        if rtb is not None and rtb.expr is not None and rtb.expr.kind == ARRAY:
            e = rtb.expr
            for m in e.node.items:  # type: ignore[attr-defined]
                v = m.value
                if v is not None and v.kind not in (STRING, "error", "bare"):
                    self.diags.append(
                        P.element_type(v, e.start + v.start, e.start + v.end, rtb.name, "a reference given as a string, such as \"aws_instance.web.id\"")
                    )
            self.replace_triggers(rtb)
        ic = attrs.get("ignore_changes")
        if ic is not None and ic.expr is not None and ic.expr.kind == STRING:
            self.keyword(ic, keywords_of("lifecycle", "ignore_changes"))

    def replace_triggers(self, rtb: Attribute) -> None:
        """Each string of `replace_triggered_by` must name exactly one resource (or data source, or
        ephemeral resource) and otherwise only `count.index` and `each.key` (Terraform's
        `decodeReplaceTriggeredBy`). Elements with a template sequence, or a reference too short
        to parse, are left to the reference rules."""
        e = rtb.expr
        assert e is not None
        elements: list[tuple[int, int, list[Reference]]] = []
        for m in e.node.items:  # type: ignore[attr-defined]
            v = m.value
            if v is None or v.kind != STRING:
                continue
            start, end = e.start + v.start, e.start + v.end
            if "${" in self.text[start:end] or "%{" in self.text[start:end]:
                continue
            elements.append((start, end, []))
        if not elements:
            return
        for ref in expression_references(self.text, e):
            if isinstance(ref, Reference):
                for start, end, refs in elements:
                    if start <= ref.start < end:
                        refs.append(ref)
        for start, end, refs in elements:
            resources = 0
            wrong: list[str] = []
            what = ""  # "count" or "each" when the first wrong reference is one of them
            for ref in refs:
                root = ref.root
                if root in _TRIGGER_ATTRIBUTES:
                    if not ref.steps:
                        break  # a parse error in Terraform: not judged here
                    if ref.steps[0].name != _TRIGGER_ATTRIBUTES[root]:
                        wrong.append(f"{root}.{ref.steps[0].name}")
                        what = root if len(wrong) == 1 else what
                    continue
                found = subject(ref) if root not in BUILTIN_ROOTS else None
                if found is not None and found[0][0] in _TRIGGER_KINDS:
                    resources += 1
                elif found is None and root not in BUILTIN_ROOTS:
                    break  # too short to parse (`var`, `aws_instance`): the reference rules say so
                else:
                    wrong.append(".".join([root, *(s.name for s in ref.steps if not s.index)]))
                    what = what if len(wrong) > 1 else ""
            else:
                if not wrong and resources == 1:
                    continue
                if not refs:
                    continue  # a literal, or a string that does not parse: other rules speak of it
                if wrong:
                    kind = f"{what} " if what else ""
                    summary = f"Invalid {kind}reference in replace_triggered_by expression"
                    detail = (f"Only resources, count.index and each.key may be used in replace_triggered_by, "
                              f"but this refers to {quoted(wrong[0])}.")
                elif resources == 0:
                    summary, detail = "Invalid replace_triggered_by expression", \
                        "Each element of replace_triggered_by must refer to a resource, such as \"aws_instance.web\" or \"aws_instance.web.id\"."
                else:
                    summary, detail = "Invalid replace_triggered_by expression", \
                        "Each element of replace_triggered_by must refer to exactly one resource, but this refers to several."
                if wrong and resources != 1:
                    detail += " It must refer to exactly one resource."
                self.diags.append(Diagnostic(start, end, ERROR, INVALID_TRIGGER, summary, detail))

    def registry_source(self, source: Attribute | None, version: Attribute | None) -> None:
        """With `version`, Terraform reads `source` as a registry address, which a local path is not."""
        if source is None or version is None or source.expr is None:
            return
        e = source.expr
        if e.kind != STRING:
            return
        value = self.string_value(e.node, e.start)
        if not value.startswith(LOCAL_MODULE_PREFIXES):  # (a template too: whatever it makes starts so)
            return
        self.diags.append(
            Diagnostic(
                e.start, e.end, ERROR, INVALID_MODULE_SOURCE, "Invalid registry module source address",
                f"The module call sets \"version\", which only registry modules have, so its source must be a "
                f"registry address, but {quoted(value)} is a local directory. Remove \"version\": a local module "
                "is used as it is on disk.",
            )
        )

    def required_providers(self, attr: Attribute) -> None:
        """`required_providers`: local name -> version string (legacy) or an object with
        `source`, `version` and `configuration_aliases` only."""
        e = attr.expr
        assert e is not None
        node = e.node
        objects = _requirement_objects(node, e.start)
        if node.kind == ARRAY:  # several required_providers blocks written as an array
            for m in node.items:  # type: ignore[attr-defined]
                v = m.value
                if v is not None and v.kind not in (OBJECT, "error", "bare"):
                    self.diags.append(P.element_type(v, e.start + v.start, e.start + v.end, attr.name, "a JSON object of provider requirements"))
        elif node.kind != OBJECT:
            if node.kind != NULL:
                self.diags.append(P.value_type(node, e.start, e.end, attr.name, "a JSON object of provider requirements"))
            return
        text = self.text
        for obj, start in objects:
            for m in obj.items:  # type: ignore[attr-defined]
                v = m.value
                if v is None or v.kind in (STRING, "error", "bare"):
                    continue
                if v.kind != OBJECT:
                    self.diags.append(
                        Diagnostic(
                            start + v.start, start + v.end, ERROR, VALUE_TYPE, "Expected a provider requirement",
                            "Each provider in \"required_providers\" takes an object such as "
                            "{\"source\": \"hashicorp/aws\", \"version\": \"~> 5.0\"} (or a version string), "
                            f"but this is {kind_phrase(v)}.",
                        )
                    )
                    continue
                inner = start + v.start
                for mm in v.items:
                    k = mm.key
                    if k is None or k.kind != STRING:
                        continue
                    name = string_text(text, k, inner + k.start)
                    if name in _REQUIREMENT_KEYS:
                        if name == "configuration_aliases" and mm.value is not None:
                            self.aliases_list(mm.value, inner)
                        continue
                    hint = P.suggestion(name, _REQUIREMENT_KEYS)
                    self.diags.append(
                        Diagnostic(
                            inner + k.start, inner + k.end, ERROR, P.UNKNOWN_ARGUMENT, f"Unsupported argument {quoted(name)}",
                            "A provider requirement takes only \"source\", \"version\" and \"configuration_aliases\"."
                            + (f" Did you mean {quoted(hint)}?" if hint else ""),
                            (), P.quoted_fix(inner + k.start, inner + k.end, hint) if hint else (),
                        )
                    )

    def aliases_list(self, node: Node, base: int) -> None:
        start = base + node.start
        if node.kind != ARRAY:
            if node.kind not in ("error", "bare"):
                self.diags.append(P.value_type(node, start, base + node.end, "configuration_aliases", "an array of provider references given as strings"))
            return
        for m in node.items:  # type: ignore[attr-defined]
            v = m.value
            if v is not None and v.kind not in (STRING, "error", "bare"):
                self.diags.append(P.element_type(v, start + v.start, start + v.end, "configuration_aliases", "a provider reference given as a string, such as \"aws.west\""))

    def tree(self, block: Block) -> list[Diagnostic]:
        """The rules for top-level `block` and every block nested in it, in visiting order."""
        stack: list[tuple[Block, str | None]] = [(block, None)]
        while stack:
            b, parent = stack.pop()
            self.block(b, parent)
            nested = b.body.blocks
            if nested:
                t = b.type_name
                stack.extend((x, t) for x in reversed(nested))
        return self.diags


# ---- duplicates --------------------------------------------------------------------------------

_NAMED_BLOCKS = NAMED_BLOCKS
_LOCAL = "local"


def definitions(block: Block, text: str) -> list[tuple[tuple, int, int]]:
    """What top-level `block` defines, for the duplicate check: `(key, start, end)` per name, `key`
    a position-free tuple and `start`/`end` the range a duplicate is reported on (the block's
    header key, or a local value's name). Empty for blocks that define nothing checkable."""
    t = block.type_name
    if t == "import":  # the resource instance it imports into, when its address is static
        to = block.body.attribute("to")
        target = import_target(text, to)
        return [] if target is None else [((IMPORT_TARGET, *target), to.expr.start, to.expr.end)]  # type: ignore[union-attr]
    if t == "locals":  # each local, and the value of one written as a literal (`local_values`)
        out: list[tuple[tuple, int, int]] = []
        for a in block.body.attributes:
            out.append(((_LOCAL, a.name), a.name_start, a.name_end))
            fact = local_value_fact(a, text)
            if fact is not None:
                out.append((fact, a.name_start, a.name_end))
            e = a.expr
            uses = local_uses_fact(a.name, expression_references(text, e)) if e is not None and may_name_locals(
                text, e) else None
            if uses is not None:
                out.append((uses, a.name_start, a.name_end))
        return out
    if t == "terraform":
        return _provider_requirements(block, text) + _state_storage(block) + _required_providers_blocks(block)
    if t in _NAMED_BLOCKS:
        if len(block.labels) != len(block.schema.labels):
            return []
        key: tuple = (t, *block.label_values)
    elif t == "provider" and block.labels:
        declared = configuration_declared(block, text)
        if declared is None:
            return []
        if block.body.attribute("for_each") is not None:
            # Instances of one configuration (OpenTofu): it declares its alias, never a duplicate, and
            # configures them (no caller passes them: `provider_passing`).
            return [(("provider-alias", *declared), *block.header_range), ((CONFIGURED, *declared), *block.header_range)]
        key = (t, *declared)
    else:
        return []
    h = block.header_range
    out = [(key, h[0], h[1])]
    if t == "provider" and _holds_configuration(block):  # what a caller may not override (`provider_passing`)
        out.append(((CONFIGURED, *key[1:]), h[0], h[1]))
    if t == "variable":
        fact = variable_fact(block, text)
        if fact is not None:
            out.append((fact, h[0], h[1]))
        const = const_fact(block)
        if const is not None:
            out.append((const, h[0], h[1]))
    if t in INSTANCED:  # the instance keys its references take
        out.extend((repetition_key(key, mode), h[0], h[1]) for mode in REPETITION if block.body.attribute(mode) is not None)
    if t in RESOURCE_MODES:  # the provider configuration it uses (`provider_lookup.configuration_used`)
        used = configuration_used(key[1], meta_provider(block, text))
        if used is not None:
            out.append((used, h[0], h[1]))
    if t == "output":  # `deprecated` (Terraform 1.15, OpenTofu 1.10): callers using it get a warning
        dep = block.body.attribute("deprecated")
        if dep is not None and dep.expr is not None and dep.expr.kind == STRING:
            out.append((("output-deprecated", key[1], string_text(text, dep.expr.node, dep.expr.start)), h[0], h[1]))
    if t == "check":  # its scoped data sources are data sources of the module (Terraform's module.go)
        for d in block.body.blocks_of("data"):
            if len(d.labels) == 2:
                out.append((("data", *d.label_values), *d.header_range))
    if t == "module":
        source = block.body.attribute("source")
        if source is not None and source.expr is not None and source.expr.kind == STRING:
            value = string_text(text, source.expr.node, source.expr.start)
            out.append((("module-source", key[1], value), source.expr.start, source.expr.end))
        out.extend((fact, *at) for fact, at, _ in passed_configurations(block, key[1], text))
    return out


def _holds_configuration(block: Block) -> bool:
    """Whether `provider` block `block` holds a configuration (`provider_passing.CONFIGURED`): a member
    other than its meta-arguments, or a `version` that is not null."""
    body = block.body
    if body.blocks or any(a.name not in PROVIDER_META for a in body.attributes):
        return True
    version = body.attribute("version")
    return version is not None and version.expr is not None and version.expr.kind != NULL


#: Definitions that are facts about a declaration rather than declarations (a module lists the provider
#: aliases it expects from its callers as often as it likes; a module call's source): never duplicates.
REPEATABLE = frozenset({"provider-alias", "module-source", "provider-requirement", "repetition", CONSTRAINT_KIND,
                        "output-deprecated", VARIABLE_INPUT, VARIABLE_CONST, PROVIDER_USE, MODULE_PROVIDERS, CONFIGURED,
                        LOCAL_VALUE, LOCAL_REFERENCE, LOCAL_USES})


def _requirement_objects(node: Node, start: int) -> list[tuple[Node, int]]:
    """The objects of a `required_providers` value (absolute start `start`): the value itself, or
    the objects of an array of them (several blocks written as an array), with their starts."""
    if node.kind == OBJECT:
        return [(node, start)]
    if node.kind == ARRAY:
        return [(m.value, start + m.value.start) for m in node.items if m.value is not None and m.value.kind == OBJECT]  # type: ignore[attr-defined]
    return []


def _requirement_source(text: str, node: Node, start: int) -> str | None:
    """The `source` string of one `required_providers` entry (absolute start `start`), or None (a
    bare version string, no source, a template)."""
    if node.kind != OBJECT:
        return None
    for m in node.items:  # type: ignore[attr-defined]
        k, v = m.key, m.value
        if k is None or k.kind != STRING or v is None or v.kind != STRING:
            continue
        if string_text(text, k, start + k.start) == "source":
            value = string_text(text, v, start + v.start)
            return value if value and "${" not in value else None
    return None


def _provider_requirements(block: Block, text: str) -> list[tuple[tuple, int, int]]:
    """What the block's `required_providers` declares: `("provider-requirement", name, source)` for each
    provider's local name, and `("provider-alias", name, alias)` for each `"name.alias"` string of
    `configuration_aliases` (provider configurations the module's callers pass in)."""
    attr = block.body.attribute("required_providers")
    if attr is None or attr.expr is None:
        return []
    out: list[tuple[tuple, int, int]] = []
    for obj, at in _requirement_objects(attr.expr.node, attr.expr.start):
        for m in obj.items:  # type: ignore[attr-defined]
            v, key = m.value, m.key
            if key is not None and key.kind == STRING:
                # The provider's local name the module requires and its source (None: implied by
                # the name), for completion and for finding its schema; never a duplicate.
                local = string_text(text, key, at + key.start)
                source = _requirement_source(text, v, at + v.start) if v is not None else None
                out.append((("provider-requirement", local, source), at + key.start, at + key.end))
            if v is None or v.kind != OBJECT:
                continue
            inner = at + v.start
            for mm in v.items:
                k, aliases = mm.key, mm.value
                if k is None or k.kind != STRING or aliases is None or aliases.kind != ARRAY:
                    continue
                if string_text(text, k, inner + k.start) != "configuration_aliases":
                    continue
                base = inner + aliases.start
                for el in aliases.items:
                    sv = el.value
                    if sv is None or sv.kind != STRING:
                        continue
                    value = string_text(text, sv, base + sv.start)
                    if value and value.count(".") == 1:
                        name, alias = value.split(".")
                        out.append((("provider-alias", name, alias), base + sv.start, base + sv.end))
    return out


#: The key of a `backend` or `cloud` block: a module stores its state in one place, so any two of
#: them, in one file or across files, are duplicates (Terraform's module.go: "Duplicate backend
#: configuration", "Both a backend and cloud configuration are present").
STATE_STORAGE = ("state-storage",)


#: The key of a `required_providers` block: a module has one, in one of its primary files
#: (Terraform's module.go: "Duplicate required providers configuration").
REQUIRED_PROVIDERS = ("required-providers",)

#: The key of an `import` block: `(IMPORT_TARGET, instance, resource)`, the static address its `to`
#: names (`addresses.import_target`), at the `to` value. A module imports into a resource instance
#: once (Terraform's module.go: "Duplicate import configuration for ...").
IMPORT_TARGET = "import"

#: Definition kinds that name nothing a reference, a rename or a symbol reaches: the facts
#: (`REPEATABLE`), the one-per-module markers of state storage and provider requirements, and
#: the targets of import blocks.
UNNAMED = REPEATABLE | {STATE_STORAGE[0], REQUIRED_PROVIDERS[0], IMPORT_TARGET}


def _state_storage(block: Block) -> list[tuple[tuple, int, int]]:
    return [(STATE_STORAGE, *b.header_range) for b in block.body.blocks if b.type_name in ("backend", "cloud")]


def _required_providers_blocks(block: Block) -> list[tuple[tuple, int, int]]:
    """`REQUIRED_PROVIDERS` for each `required_providers` block of a `terraform` block, at its key:
    an object is one block, an array one per object element, `null` none (any other element is
    the value-type error Terraform stops at before it compares blocks)."""
    out: list[tuple[tuple, int, int]] = []
    for a in block.body.attributes:
        if a.name != "required_providers" or a.expr is None:
            continue
        node = a.expr.node
        count = 0
        if node.kind == OBJECT:
            count = 1
        elif isinstance(node, Container):
            count = len([m for m in node.items if m.value is not None and m.value.kind == OBJECT])
        out.extend([(REQUIRED_PROVIDERS, a.name_start, a.name_end)] * count)
    return out


def definition_title(key: tuple) -> str:
    """How a definition key reads in a message: `variable "region"`, `local value "x"`,
    `provider "aws" with alias "west"`, `resource "aws_instance" "web"`."""
    if key[0] == _LOCAL:
        return f"local value {quoted(key[1])}"
    if key == STATE_STORAGE:
        return "backend or cloud configuration"
    if key == REQUIRED_PROVIDERS:
        return "required providers configuration"
    if key[0] == "provider":
        alias_value = key[2]
        return f"provider {quoted(key[1])}" + (f" with alias {quoted(alias_value)}" if alias_value else " (default configuration)")
    return " ".join([key[0], *(quoted(v) for v in key[1:])])


def reported_range(key: tuple, place: tuple[int, int], text) -> tuple[int, int]:
    """Where a duplicate of definition `key` at `place` (its range from `definitions`: the block's
    header key, a local value's name) is reported: where Terraform reports it. Every declaration
    but a local value is a block, whose `DeclRange` Terraform 1.11's configs take from HCL's
    `Block.DefRange`, in JSON the `{` or `[` after the header key (`values.definition_range`),
    in one file and across files alike (module.go, test_file.go, query_file.go). A local value's is
    its attribute's whole range (`hcl.Attribute.Range`), from its name to the end of its value
    (`values.value_end`). The key is kept when the text after it is no `:` then a bracket, or no
    whole value (mid-edit)."""
    if key[0] == IMPORT_TARGET:  # an import target is reported at its `to` value
        return place
    if key[0] == _LOCAL:
        end = value_end(text, place[1])
        return place if end is None else (place[0], end)
    return defined_at(text, place)


def duplicates(keys: Sequence[tuple], place: Callable[[int], tuple[int, int]], text) -> list[Diagnostic]:
    """`structure/duplicate-block` for every definition whose key an earlier one has. `keys` are
    the definitions' keys in source order (see `definitions`); `place(i)` gives the range of
    definition `i`, asked only for the definitions a diagnostic is about; `text` the file's text
    (a `str` or a `text.TextBuffer`), where the second one is reported (`reported_range`); the
    first one is related information at its `place`."""
    return run_out(duplicates_steps(keys, place, 0, text))


def duplicate_import(key: tuple, start: int, end: int, where: str, related: tuple[Related, ...]) -> Diagnostic:
    """`structure/duplicate-import` at `start`-`end` (a later `import` block's `to`) for import target
    `key` that another import block of the module (`where`: "in this file", "in b.tf.json") has."""
    resource = quoted(key[2])
    return Diagnostic(
        start, end, ERROR, DUPLICATE_IMPORT, f"Duplicate import configuration for {resource}",
        f"An import block for the resource {resource} was already declared {where}. A resource can have only "
        "one import block: remove one of them.",
        related,
    )


def duplicates_steps(keys: Sequence[tuple], place: Callable[[int], tuple[int, int]],
                     every: int, text) -> Generator[None, None, list[Diagnostic]]:
    """`duplicates` as a generator that pauses (yields None) after every `every` keys (0: never),
    for a build in steps (`hcljson.incremental.IncrementalFile.build_steps`: 300,000 tiny outputs
    in one piece held the event loop ~0.1 s)."""
    seen: dict[tuple, int] = {}
    out: list[Diagnostic] = []
    for i, key in enumerate(keys):
        if every and i % every == 0 and i:
            yield
        if key[0] in REPEATABLE:
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = i
            continue
        start, end = reported_range(key, place(i), text)
        prev = place(first)
        if key[0] == IMPORT_TARGET:
            out.append(duplicate_import(key, start, end, "in this file", (Related(prev[0], prev[1], "first declared here"),)))
            continue
        if key[0] == _LOCAL:
            name = key[1]
            out.append(
                Diagnostic(
                    start, end, ERROR, DUPLICATE_BLOCK, f"Duplicate local value {quoted(name)}",
                    f"The local value {quoted(name)} is already defined in this file; each local value "
                    "name can be defined only once in a module.",
                    (Related(prev[0], prev[1], f"{quoted(name)} first defined here"),),
                )
            )
            continue
        title = definition_title(key)
        out.append(
            Diagnostic(
                start, end, ERROR, DUPLICATE_BLOCK, f"Duplicate {title}",
                f"{title[0].upper()}{title[1:]} is already defined in this file; each must be defined only once in a module.",
                (Related(prev[0], prev[1], "first defined here"),),
            )
        )
    return out


def block_diagnostics(block: Block, text: str, override: bool = False) -> list[Diagnostic]:
    """The Terraform rules for one top-level `block` and its nested blocks (not the duplicate
    check, which spans blocks: `definitions` / `duplicates`), in visiting order."""
    return _Validator(text, override).tree(block)
