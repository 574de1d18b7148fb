"""Views of the server's internals that only tests need (moved out of `server/`, issue 21 §4).

    materialize(view) -> Body                 the whole decoded root body of an `IncrementalFile`
                                              view (`FileView`) as a plain `hcljson.model.Body`
    validate_block(block, schemas, text, required_providers=None, engine=TERRAFORM) -> list[Diagnostic]
                                              the provider-schema diagnostics of one `resource` or
                                              `data` block, through the analysis's own
                                              `provider_rules.schema_sites` + `check_sites`
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hcljson_ls.diagnostic import Diagnostic
from hcljson_ls.hcljson.model import Block, Body
from hcljson_ls.terraform.rules import provider_rules
from hcljson_ls.terraform.schemas.provider_schema import TERRAFORM, ProviderSchemas


def materialize(view: Any) -> Body:
    """`view`'s root body with every top-level attribute and block built."""
    return Body(view.node, view.start, view.end, view.schema, view.attributes, view.blocks)


def validate_block(
    block: Block,
    schemas: ProviderSchemas,
    text: str,
    required_providers: Mapping[str, Any] | None = None,
    engine: str = TERRAFORM,
) -> list[Diagnostic]:
    """Every provider-schema diagnostic of `block` when it is a labelled `resource` or `data` block."""
    if block.type_name not in ("resource", "data"):
        return []
    sites = provider_rules.schema_sites(block)
    return provider_rules.check_sites(sites, schemas, text, required_providers or {}, engine)[0]
