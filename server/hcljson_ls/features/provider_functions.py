"""Provider-defined functions (`provider::NAME::FUNCTION`) as the features see them: which local
names a module may call functions of, and the functions its loaded provider schemas describe.

    local_names(snapshot, uri) -> list[str]                   the module's `required_providers` names
    functions_of(snapshot, uri, local) -> Mapping[str, Function] | None
    function_named(snapshot, uri, name) -> Function | None    a built-in or a provider's function

Contract
--------
* A provider's functions are known only where the module of `uri` requires it (its
  `required_providers`, any of its files) and its schema, loaded, lists `functions`
  (`ProviderSchemas.functions`: the built-in `terraform` provider's always are). Otherwise None:
  nothing is guessed.
* The provider of a local name is found as the analysis finds it (`provider_schema.provider_address`,
  the module's engine).
* `function_named` answers for every call name: a built-in of the module's engine
  (`functions.lookup`, `core::` included) or a provider's (`provider::NAME::FUNCTION`, and
  OpenTofu's `provider::NAME::ALIAS::FUNCTION`). A provider's function comes back under the name
  as called (`provider::aws::arn_parse`), so `functions.signature` shows it so.
* Pure: reads the snapshot only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..terraform.definition import functions
from ..terraform.definition.functions import Function
from ..terraform.schemas.provider_schema import provider_address
from ..workspace import Snapshot


def local_names(snapshot: Snapshot, uri: str) -> list[str]:
    """The local names the `required_providers` of the module of `uri` declares, sorted."""
    return sorted({k[1] for k in snapshot.declared(uri, "provider-requirement") if len(k) > 1})


def functions_of(snapshot: Snapshot, uri: str, local: str) -> Mapping[str, Function] | None:
    """The functions of the provider the module of `uri` requires as `local` (see the module doc)."""
    if local not in local_names(snapshot, uri):
        return None
    schemas = snapshot.provider_schemas(uri)
    if schemas is None:
        return None
    return schemas.functions(provider_address(local, snapshot.required_providers(uri), snapshot.engine(uri)))


def function_named(snapshot: Snapshot, uri: str, name: str) -> Function | None:
    """The function a call of `name` calls in the module of `uri`, or None when it is not known."""
    parts = functions.provider_function_parts(name)
    if parts is None:
        return functions.lookup(name, snapshot.engine(uri))
    if len(name.split("::")) == 4 and not snapshot.is_opentofu(uri):
        return None  # only OpenTofu reads `provider::NAME::ALIAS::FUNCTION`
    offered = functions_of(snapshot, uri, parts[0])
    fn = offered.get(parts[1]) if offered is not None else None
    return replace(fn, name=name) if fn is not None else None
