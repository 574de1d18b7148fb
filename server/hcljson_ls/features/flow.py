"""Where sensitive and ephemeral values go in a module: `terraform.flow`'s rules for one document.

    diagnostics(snapshot, uri) -> list[Diagnostic]

Contract
--------
* Reads the flow facts of every JSON file of the module of `uri` (`Snapshot.module_flow`), whether
  the module is a root module (`Snapshot.is_root_module`: no module of the workspace calls it, and
  `check` was not told that another module of its run does), the variables of local child modules
  and the provider schemas (the built-in provider's always; others when loaded), and returns the
  findings in `uri` (`terraform.flow.check`). Never cached per version: other files and modules
  take part (the workspace marks the documents concerned stale, `Workspace._flow_may_differ`).
* A document that is no configuration file of its module has none.
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..terraform.rules.flow import check
from ..terraform.schemas.provider_schema import BUILTIN_TERRAFORM, builtin, provider_of
from ..workspace import Snapshot

__all__ = ["diagnostics"]


def diagnostics(snapshot: Snapshot, uri: str) -> list[Diagnostic]:
    got = snapshot.module_flow(uri)
    if got is None:
        return []
    own, module = got
    if not any(f.has_marks for f in module):
        return []
    engine = snapshot.engine(uri)
    schemas = snapshot.provider_schemas(uri)
    required = snapshot.required_providers(uri)
    children: dict[str, dict[str, bool] | None] = {}

    def child_inputs(call: str) -> dict[str, bool] | None:
        if call not in children:
            children[call] = snapshot.child_flow_variables(uri, call)
        return children[call]

    def write_only(mode: str, type_name: str, provider: str | None, argument: str) -> bool | None:
        address = provider_of(type_name, provider, required, engine)
        known = builtin() if address == BUILTIN_TERRAFORM else schemas
        if known is None or address is None:
            return None
        block = known.resource(address, type_name) if mode == "resource" else known.data_source(address, type_name)
        attribute = block.attributes.get(argument) if block is not None else None
        return None if attribute is None else attribute.write_only

    return check(own, module, snapshot.is_root_module(uri), child_inputs, write_only, engine)
