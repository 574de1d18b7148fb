"""The `backend` and `config` of a `terraform_remote_state` data source, checked as the built-in
provider checks them in `terraform validate`.

    remote_state_diagnostics(block, text, override=False) -> list[Diagnostic]    one `data` block
    remote_state_sites(block, text) -> list[LanguageSite]        what only some engines or releases have
    config_findings(view, backend, config, missing_at)          the config's rule, over `hcljson.view`
    backends() -> Mapping                                       backend name -> its config's top-level names (the union)

Data
----
`data/backends.json`, read by `definition.backends`: the state backends
(`internal/backend/init/init.go`) of the Terraform and OpenTofu releases it was read from, the keys
of each one's configuration; here the union of the top-level names over all of them, so no engine or
version gets a false error (null when not read), and the backends all of them removed, with
Terraform's reason; written by `tools/backend_schemas.py` from their source (`backends.NOTICE.md`
says which commits).

Contract
--------
Terraform judges the two arguments only when both are known during validate (the data source's
`ValidateDataResourceConfig`: `config` wholly known, `backend` known), so a block is judged only
when `backend` is a JSON string without a template sequence (or a number or boolean, which no
backend is named) and `config` is absent, null or a JSON value with no `${`/`%{` anywhere in its
text. Only data sources of type `terraform_remote_state` without a `provider` meta-argument count.
When either is not known, Terraform checks only that `config` is an object (`config-not-object`
below); `defaults` is always checked. In an override file, a block without its own `config` is not
judged (the merged configuration is another file's).

* `remote-state/unknown-backend` (error, on the `backend` value): no backend has that name ("_local"
  is read as "local"); a removed backend (etcd, swift, ...) says so, with "Did you mean ...?".
* `remote-state/unknown-config` (error, on the key): a key of a literal `config` object that the
  backend's configuration does not have ("unexpected attribute" in Terraform, reported there on the
  whole `config` value, first one only), with "Did you mean ...?" and a quick fix. A `"//"` key
  is a key like any other there (`config` is an expression, not a body: Terraform rejects it).
  The keys of a nested block (`remote.workspaces`, `kubernetes.exec`, `cos.assume_role` ...) are
  checked the same way; those of a nested object attribute (`s3.assume_role`) are not (cty drops
  the attributes an object type lacks).

What the backend's schema says of a literal `config` (Terraform: `CoerceValue` of the backend's
configuration schema, "Invalid backend configuration", one problem only; we report each), checked
as every engine and release with that backend agrees (`backends.common_config`), so the module's
version never makes it a false error:

* `remote-state/config-not-object` (error, on the value): `config` is not an object: a literal
  string, number, bool or array, or a string with a template that is not one `${...}` alone (its
  value is a string); likewise a nested block or nested object attribute given something else
  than an object (a list or set of blocks: an array or object of objects), and `defaults` that is
  not an object ("Invalid default values"; null and a lone `${...}` are fine).
* `remote-state/missing-config` (error): a key every engine and release requires without an
  environment default (`s3.bucket`, `remote.organization`, `assume_role.role_arn` ...), missing:
  on the `config` value (`null` counts as `{}`), or where the block's missing items go when there
  is no `config` (Terraform's ranges); a nested one on the nested object.
* `remote-state/config-type` (error, on the value): a JSON literal the key's type cannot take, as
  cty converts (`provider_rules.wrong_kinds`: a number or bool where a string is wanted is fine,
  `"true"`/`"1"` for a bool, a numeric string for a number; elements of lists, sets and maps too).

* `remote-state/invalid-config` (error, on the block's closing brace, Terraform's range): what a
  backend's own validation rejects once the schema accepts the configuration, where every engine
  and release agree and no environment takes part (`backends.OWN_CHECKS`): `local` `path` or
  `workspace_dir` "", `remote` `organization` "" or null, `remote` `workspaces` without exactly one
  of `name` and `prefix`. Only when nothing above is found (Terraform validates a configuration
  only once the schema accepts it).

Per engine and version: a backend or a config key (top level or in a nested block) that only some
engines or releases have is not judged here but sent as a `language.LanguageSite`
(`remote_state_sites`, kinds `SITE_BACKEND` / `SITE_BACKEND_KEY`, added to the block's refs by
`analysis`), which `language.check_sites` resolves against the module's language like a versioned
block: the same codes, `unknown-backend` / `unknown-config`, naming the version that lacks it. The
quick open sends every `terraform_remote_state` block to the full analysis of its small document
(`quick`), which resolves these sites as the full path does.

Not checked: the rest of a backend's own validation (an ARN's shape, an empty s3 `key`, a region
from the environment, a null for a required key, which some backends accept, a legacy block's
item count), and values of keys whose type, nesting or requiredness differ between engines and
releases (kubernetes `exec`). Pure: reads only its packaged data (once); never raises.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ...diagnostic import ERROR, Diagnostic
from ...hcljson import problems as P
from ...hcljson.model import Block
from ...hcljson.values import quoted, string_text
from ...hcljson.view import NO_VALUE, Finding, TreeValue, TreeView, ValueView, diagnostics_of
from ...jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE
from ..definition.backends import (
    OWN_CHECKS,
    UNKNOWN_BACKEND,
    UNKNOWN_CONFIG,
    CommonKey,
    aliases,
    all_backend_keys,
    common_config,
    everywhere,
    placeholder_of,
    removed,
)
from ..definition.language import SITE_BACKEND, SITE_BACKEND_KEY, LanguageSite
from .provider_rules import wrong_kinds

__all__ = ["CONFIG_NOT_OBJECT", "CONFIG_TYPE", "INVALID_CONFIG", "MISSING_CONFIG", "UNKNOWN_BACKEND", "UNKNOWN_CONFIG", "backends",
           "config_findings", "remote_state_diagnostics", "remote_state_sites"]

CONFIG_NOT_OBJECT = "remote-state/config-not-object"
MISSING_CONFIG = "remote-state/missing-config"
INVALID_CONFIG = "remote-state/invalid-config"
CONFIG_TYPE = "remote-state/config-type"

_SUMMARY = "Invalid backend configuration"

_TYPE = "terraform_remote_state"


def backends() -> Mapping[str, frozenset[str] | None]:
    """Backend name -> the top-level names of its configuration (None: not known)."""
    return all_backend_keys()


def _template_free(text: str, start: int, end: int) -> bool:
    raw = text[start:end]
    return "${" not in raw and "%{" not in raw


class _Judged(NamedTuple):
    """A `terraform_remote_state` block as Terraform's validate sees it (`_judged`)."""

    view: TreeView
    body: Any
    backend: Any  # its expression
    name: str | None  # the backend's name (aliases resolved), None when not known during validate
    config: Any  # the attribute, or None
    known: bool  # config wholly known (absent, or no template sequence anywhere)


def _judged(block: Block, text: str) -> _Judged | None:
    if block.type_name != "data" or not block.labels or block.labels[0].value != _TYPE:
        return None
    body = block.body
    if body.attribute("provider") is not None:
        return None
    view = TreeView(text)
    backend = body.attribute("backend")
    e = backend.expr if backend is not None else None
    config = body.attribute("config")
    known = config is None or (config.expr is not None and _template_free(text, config.expr.start, config.expr.end))
    name: str | None
    if e is None or e.kind not in (STRING, NUMBER, TRUE, FALSE):
        name = None  # null: the missing argument is reported elsewhere; an object or array: the schema rules
    elif e.kind == STRING:
        name = string_text(text, e.node, e.start)
        if not _template_free(name, 0, len(name)):
            name = None  # known at plan time only: Terraform checks the config's type alone
    else:
        name = text[e.start : e.end]
    if name is not None:
        name = aliases().get(name, name)
    return _Judged(view, body, e, name, config, known)


def remote_state_diagnostics(block: Block, text: str, override: bool = False) -> list[Diagnostic]:
    """The diagnostics of data source `block` when it is a `terraform_remote_state` (see the module doc).
    In an override file (`override`) the block is merged into another file's: without its own
    `config`, the merged one's is not known here, so nothing of the configuration is judged."""
    j = _judged(block, text)
    if j is None or (override and j.config is None):
        return []
    view, e, config = j.view, j.backend, j.config
    out = diagnostics_of(view, _defaults_findings(view, _handle(j.body.attribute("defaults"))))
    if e is None or e.kind not in (STRING, NUMBER, TRUE, FALSE):
        return out
    if j.known and j.name is not None and j.name not in all_backend_keys():
        return out + _unknown_backend(j.name, e.start, e.end, e.kind == STRING)
    if not j.known or j.name is None:  # Terraform then checks only that `config` is an object
        if config is not None and config.expr is not None:
            out.extend(diagnostics_of(view, _shape_findings(view, TreeValue(config.expr.node, config.expr.start))))
        return out
    findings = config_findings(view, j.name, _handle(config), view.missing_place(j.body)[0])
    out.extend(_unknown_keys(view, findings))
    out.extend(diagnostics_of(view, [f for f in findings if f.code != UNKNOWN_CONFIG]))
    return out


def remote_state_sites(block: Block, text: str) -> list[LanguageSite]:
    """What of a `terraform_remote_state` block only some engines or releases have, for the module's
    language to judge (`language.check_sites`): its backend, and the keys of its literal `config`
    (top level and nested blocks) that `backends.common_config` does not have everywhere."""
    j = _judged(block, text)
    if j is None or j.name is None or not j.known or j.name not in all_backend_keys():
        return []
    e = j.backend
    out = [] if everywhere(j.name) else [LanguageSite(SITE_BACKEND, (j.name,), e.start, e.end)]
    keys = common_config(j.name)
    config = _handle(j.config)
    if keys is not None and config is not None and config is not NO_VALUE:
        _versioned_keys(j.view, config, keys, (j.name,), out)
    return out


def _versioned_keys(view: TreeView, v: Any, keys: Mapping[str, CommonKey], path: tuple[str, ...],
                    out: list[LanguageSite]) -> None:
    if view.kind(v) != OBJECT:
        return
    for name, key_at, value in view.fields(v):
        key = keys.get(name)
        if key is None:
            continue  # unknown everywhere: `config_findings`
        if not key.everywhere:
            out.append(LanguageSite(SITE_BACKEND_KEY, (*path, name), *view.range(key_at)))
        if key.type != "block" or value is NO_VALUE:
            continue
        if key.nesting == "single":
            _versioned_keys(view, value, key.keys, (*path, name), out)
        elif key.nesting in ("list", "set"):
            kind = view.kind(value)
            elements = view.items(value) if kind == ARRAY else (x for _, x in view.members(value)) if kind == OBJECT else ()
            for x in elements:
                _versioned_keys(view, x, key.keys, (*path, name), out)


def _handle(attr: Any) -> Any:
    """The value handle of an attribute (None: absent; `NO_VALUE`: written without a value)."""
    if attr is None:
        return None
    return NO_VALUE if attr.expr is None else TreeValue(attr.expr.node, attr.expr.start)


def _unknown_backend(name: str, start: int, end: int, is_string: bool) -> list[Diagnostic]:
    known = all_backend_keys()
    gone = removed().get(name)
    hint = P.suggestion(name, sorted(known)) if is_string else None
    detail = gone if gone else f"There is no backend type named {quoted(name)}."
    if hint:
        detail += f" Did you mean {quoted(hint)}?"
    return [Diagnostic(start, end, ERROR, UNKNOWN_BACKEND, _SUMMARY, detail, (),
                       P.quoted_fix(start, end, hint) if hint else ())]


def _unknown_keys(view: TreeView, findings: list[Finding]) -> list[Diagnostic]:
    """The unknown-key findings (on key spans) with "Did you mean ...?" and its quick fix."""
    out = []
    for f in findings:
        if f.code != UNKNOWN_CONFIG:
            continue
        start, end = view.range(f.at)
        hint = f.fixes[0][0] if f.fixes else None
        out.append(Diagnostic(start, end, ERROR, UNKNOWN_CONFIG, f.summary,
                              f.detail + (f" Did you mean {quoted(hint)}?" if hint else ""),
                              (), P.quoted_fix(start, end, hint) if hint else ()))
    return out


# ---- the rule, over a view ---------------------------------------------------------------------

#: A string that may be one interpolation alone (its value is then the expression's, of any type).
_LONE_INTERPOLATION = re.compile(r"\A\$\{.*\}\Z", re.S)
_KIND_WORDS = {ARRAY: "a JSON array", STRING: "a string", NUMBER: "a number", TRUE: "a bool", FALSE: "a bool"}


def _string_typed(view: ValueView, v: Any) -> bool:
    """Whether a string value is surely of type string (not one `${...}` alone)."""
    return not _LONE_INTERPOLATION.match(view.string(v))


def _not_object(view: ValueView, v: Any) -> str | None:
    """What `v` is when it is surely no object (nor null, nor of a type known only later)."""
    kind = view.kind(v)
    if kind in (ARRAY, NUMBER, TRUE, FALSE) or (kind == STRING and _string_typed(view, v)):
        return _KIND_WORDS[kind]
    return None


def _defaults_findings(view: ValueView, v: Any) -> list[Finding]:
    if v is None or v is NO_VALUE:
        return []
    what = _not_object(view, v)
    if what is None:
        return []
    return [Finding(v, ERROR, CONFIG_NOT_OBJECT, "Invalid default values",
                    f"The default values of the outputs must be given as an object, not {what}.")]


def _shape_findings(view: ValueView, v: Any, backend: str | None = None) -> list[Finding]:
    what = _not_object(view, v)
    if what is None:
        return []
    whose = f" of backend {quoted(backend)}" if backend else ""
    return [Finding(v, ERROR, CONFIG_NOT_OBJECT, _SUMMARY,
                    f"The configuration{whose} must be an object (a JSON object of its arguments), not {what}.")]


def config_findings(view: ValueView, backend: str, config: Any, missing_at: Any) -> list[Finding]:
    """What `backend`'s schema says of its literal configuration `config` (a value handle; None when
    the block has none, when `missing_at` is where its missing keys are reported): the findings of
    the codes of the module doc. Unknown keys are findings on their key, with the closest known name
    as the fix's text."""
    keys = common_config(backend)
    if keys is None or config is NO_VALUE:
        return []
    if config is None or view.kind(config) == NULL:
        at = missing_at if config is None else config
        return _missing(view, keys, set(), at, backend, "", None)
    if view.kind(config) != OBJECT:
        return _shape_findings(view, config, backend)
    found = _object(view, config, keys, backend, "", config, unknown=True)
    return found or _own_findings(view, backend, config, missing_at)


def _own_findings(view: ValueView, backend: str, config: Any, missing_at: Any) -> list[Finding]:
    """`backends.OWN_CHECKS` of a configuration the schema accepts (Terraform's range: the block's
    closing brace, where its validation's attribute paths lead in the data source's body)."""
    values = {name: value for name, _, value in view.fields(config)}

    def text_of(v: Any) -> str | None:  # the value as a string ("" for null; None: not known here)
        if v is None or v is NO_VALUE or view.kind(v) == NULL:
            return ""
        return view.string(v) if view.kind(v) == STRING else None if view.kind(v) not in (NUMBER, TRUE, FALSE) else "x"

    out = []
    for c in OWN_CHECKS:
        if c.backend != backend:
            continue
        v = values.get(c.key)
        if c.one_of:
            fields = {n: x for n, _, x in view.fields(v)} if v is not None and v is not NO_VALUE and view.kind(v) == OBJECT else {}
            given = [text_of(fields.get(n)) for n in c.one_of]
            if None in given:
                continue
            names = " or ".join(quoted(n) for n in c.one_of)
            count = sum(1 for g in given if g)
            if count != 1:
                detail = (f"{quoted(c.key)} of backend {quoted(backend)} needs one of {names} (not empty)." if count == 0
                          else f"{quoted(c.key)} of backend {quoted(backend)} takes only one of {names}.")
                out.append(Finding(missing_at, ERROR, INVALID_CONFIG, c.summary, detail))
            continue
        if v is None or v is NO_VALUE or (view.kind(v) == NULL and not c.null_too):
            continue
        if text_of(v) == "":
            out.append(Finding(missing_at, ERROR, INVALID_CONFIG, c.summary,
                               f"The {quoted(c.key)} of backend {quoted(backend)} must not be empty."))
    return out


def _object(view: ValueView, v: Any, keys: Mapping[str, CommonKey], backend: str, path: str, missing_at: Any,
            unknown: bool) -> list[Finding]:
    out: list[Finding] = []
    seen: set[str] = set()
    for name, key_at, value in view.fields(v):
        seen.add(name)
        key = keys.get(name)
        if key is None:
            if unknown:
                hint = P.suggestion(name, sorted(keys))
                where = f"the {quoted(path.rstrip('.'))} block of " if path else ""
                out.append(Finding(key_at, ERROR, UNKNOWN_CONFIG, _SUMMARY,
                                   f"The configuration of {where}backend {quoted(backend)} has no argument {quoted(name)}.",
                                   fixes=((hint, ""),) if hint else ()))
            continue
        if value is not NO_VALUE:
            out.extend(_value(view, value, key, backend, f"{path}{name}"))
    out.extend(_missing(view, keys, seen, missing_at, backend, path, v))
    return out


def _missing(view: ValueView, keys: Mapping[str, CommonKey], seen: set[str], at: Any, backend: str, path: str,
             into: Any) -> list[Finding]:
    """A finding per required key not in `seen`, at `at`; with a fix inserting it after the `{` of
    object `into` (None: no fix)."""
    where = f"Its {quoted(path.rstrip('.'))} object" if path else f"The configuration of backend {quoted(backend)}"
    out = []
    for k in keys.values():
        if not k.required or k.name in seen:
            continue
        fixes: tuple[tuple[str, str], ...] = ()
        fix_at = None
        if into is not None:
            new = f"{json.dumps(k.name)}: {placeholder_of(k.type)}" + (", " if seen else "")
            fixes, fix_at = ((new, f"Add {quoted(k.name)}"),), view.point(into, 1)
        out.append(Finding(at, ERROR, MISSING_CONFIG, _SUMMARY, f"{where} needs the argument {quoted(k.name)}.",
                           fixes=fixes, fix_at=fix_at))
    return out


def _value(view: ValueView, v: Any, key: CommonKey, backend: str, path: str) -> list[Finding]:
    kind = view.kind(v)
    if kind == NULL or key.type is None:
        return []
    if key.type == "block":
        return _blocks(view, v, key, backend, path)
    if key.type == "object":
        if kind == OBJECT:
            return _object(view, v, key.keys, backend, f"{path}.", v, unknown=False)
        return _nested_not_object(view, v, backend, path)
    found: list[Finding] = []
    wrong_kinds(view, v, _cty(key.type), path, found)
    return [Finding(f.at, ERROR, CONFIG_TYPE, _SUMMARY, f"In the configuration of backend {quoted(backend)}: {f.detail}")
            for f in found]


def _nested_not_object(view: ValueView, v: Any, backend: str, path: str, what: str = "an object") -> list[Finding]:
    kind = view.kind(v)
    if kind == OBJECT or kind not in _KIND_WORDS:
        return []
    return [Finding(v, ERROR, CONFIG_NOT_OBJECT, _SUMMARY,
                    f"{quoted(path)} in the configuration of backend {quoted(backend)} must be {what}, "
                    f"not {_KIND_WORDS[kind]}.")]


def _blocks(view: ValueView, v: Any, key: CommonKey, backend: str, path: str) -> list[Finding]:
    kind = view.kind(v)
    if key.nesting == "single":
        if kind == OBJECT:
            return _object(view, v, key.keys, backend, f"{path}.", v, unknown=True)
        return _nested_not_object(view, v, backend, path)
    if key.nesting not in ("list", "set"):
        return []
    if kind == ARRAY:
        elements = list(view.items(v))
    elif kind == OBJECT:
        elements = [x for _, x in view.members(v)]  # cty iterates an object's attribute values
    else:
        return _nested_not_object(view, v, backend, path, "a list of objects")
    out: list[Finding] = []
    for x in elements:
        k = view.kind(x)
        if k == OBJECT:
            out.extend(_object(view, x, key.keys, backend, f"{path}.", x, unknown=True))
        elif k != NULL:
            out.extend(_nested_not_object(view, x, backend, f"{path}[...]"))
    return out


_COLLECTION = re.compile(r"(list|set|map)\((\w+)\)")


def _cty(type_text: str) -> Any:
    """A backend key's type (`backends.json`) as cty's JSON encoding ("any": dynamic)."""
    m = _COLLECTION.fullmatch(type_text)
    if m:
        return [m.group(1), _cty(m.group(2))]
    return "dynamic" if type_text == "any" else type_text
