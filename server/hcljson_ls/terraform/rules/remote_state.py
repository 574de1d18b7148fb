"""The `backend` and `config` of a `terraform_remote_state` data source, checked as the built-in
provider checks them in `terraform validate`.

    remote_state_diagnostics(block, text) -> list[Diagnostic]    one `data` block
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

* `remote-state/unknown-backend` (error, on the `backend` value): no backend has that name ("_local"
  is read as "local"); a removed backend (etcd, swift, ...) says so, with "Did you mean ...?".
* `remote-state/unknown-config` (error, on the key): a key of a literal `config` object that the
  backend's configuration does not have ("unexpected attribute" in Terraform, reported there on the
  whole `config` value, first one only), with "Did you mean ...?" and a quick fix.
* What the backend itself requires (a `bucket`, a `region` ...) and the types of the values are not
  checked. Pure: reads only its packaged data (once); never raises.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...diagnostic import ERROR, Diagnostic
from ...hcljson import problems as P
from ...hcljson.model import Block
from ...hcljson.values import key_text, quoted, string_text
from ...jsonsyntax.tree import FALSE, NUMBER, OBJECT, STRING, TRUE
from ..definition.backends import aliases, all_backend_keys, removed

__all__ = ["UNKNOWN_BACKEND", "UNKNOWN_CONFIG", "backends", "remote_state_diagnostics"]

UNKNOWN_BACKEND = "remote-state/unknown-backend"
UNKNOWN_CONFIG = "remote-state/unknown-config"

_TYPE = "terraform_remote_state"


def backends() -> Mapping[str, frozenset[str] | None]:
    """Backend name -> the top-level names of its configuration (None: not known)."""
    return all_backend_keys()


def _template_free(text: str, start: int, end: int) -> bool:
    raw = text[start:end]
    return "${" not in raw and "%{" not in raw


def remote_state_diagnostics(block: Block, text: str) -> list[Diagnostic]:
    """The diagnostics of data source `block` when it is a `terraform_remote_state` (see the module doc)."""
    if block.type_name != "data" or not block.labels or block.labels[0].value != _TYPE:
        return []
    body = block.body
    backend = body.attribute("backend")
    if backend is None or backend.expr is None or body.attribute("provider") is not None:
        return []
    config = body.attribute("config")
    if config is not None and (config.expr is None or not _template_free(text, config.expr.start, config.expr.end)):
        return []
    e = backend.expr
    if e.kind == STRING:
        name = string_text(text, e.node, e.start)
        if not _template_free(name, 0, len(name)):
            return []
    elif e.kind in (NUMBER, TRUE, FALSE):
        name = text[e.start : e.end]
    else:
        return []  # null: the missing argument is reported elsewhere; an object or array: the schema rules
    known = all_backend_keys()
    name = aliases().get(name, name)
    if name not in known:
        gone = removed().get(name)
        hint = P.suggestion(name, sorted(known)) if e.kind == STRING else None
        detail = gone if gone else f"There is no backend type named {quoted(name)}."
        if hint:
            detail += f" Did you mean {quoted(hint)}?"
        return [Diagnostic(e.start, e.end, ERROR, UNKNOWN_BACKEND, "Invalid backend configuration", detail,
                           (), P.quoted_fix(e.start, e.end, hint) if hint else ())]
    names = known[name]
    if names is None or config is None or config.expr is None or config.expr.kind != OBJECT:
        return []
    out: list[Diagnostic] = []
    c = config.expr
    for m in c.node.items:  # type: ignore[attr-defined]
        k = m.key
        if k is None:
            continue
        start = c.start + k.start
        key = key_text(text, k, start)
        if key is None or key in names or key == "//":
            continue
        end = c.start + k.end
        hint = P.suggestion(key, sorted(names))
        out.append(Diagnostic(
            start, end, ERROR, UNKNOWN_CONFIG, "Invalid backend configuration",
            f"The configuration of backend {quoted(name)} has no argument {quoted(key)}."
            + (f" Did you mean {quoted(hint)}?" if hint else ""),
            (), P.quoted_fix(start, end, hint) if hint else (),
        ))
    return out

