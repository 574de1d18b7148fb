"""Views of the server's internals that only tests need (moved out of `server/`, issue 21 §4).

    materialize(view) -> Body                 the whole decoded root body of an `IncrementalFile`
                                              view (`FileView`) as a plain `hcljson.model.Body`
    validate_block(block, schemas, text, required_providers=None, engine=TERRAFORM) -> list[Diagnostic]
                                              the provider-schema diagnostics of one `resource` or
                                              `data` block, through the analysis's own
                                              `provider_rules.schema_sites` + `check_sites`
    file_diagnostics(state, providers=None) -> list[Diagnostic]
                                              the document's own diagnostics as a new list; with
                                              `providers`, theirs run on the state and merged by
                                              position, stably (the full path: never the quick open)
    found_in(fw, codes, path="/app/main.tf.json") -> [(code, text)]
                                              the diagnostics of a fixture workspace's file that have
                                              one of `codes`, each as its code and the text it covers
    quick_and_full(directory, text) -> (QuickResult, list[Diagnostic])
                                              `text` written as `directory`/main.tf.json and opened
                                              twice, each in a `Workspace` of `directory`: the quick
                                              open's answer, and the full path's diagnostics
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hcljson_ls.diagnostic import Diagnostic
from hcljson_ls.features.diagnostics import Provider, own_diagnostics
from hcljson_ls.hcljson.model import Block, Body
from hcljson_ls.terraform.quick import QuickResult
from hcljson_ls.terraform.rules import provider_rules
from hcljson_ls.terraform.schemas.provider_schema import TERRAFORM, ProviderSchemas
from hcljson_ls.workspace import DocumentState, Workspace
from hcljson_ls.workspace.files import uri_of_path


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


def file_diagnostics(state: DocumentState, providers: Iterable[tuple[str, Provider]] | None = None) -> list[Diagnostic]:
    """`state`'s own diagnostics (`own_diagnostics`) as a list of its own; with `providers`, each
    one's run on `state` and merged by position, stably in the providers' order, as
    `features.diagnostics` merges them (a provider that raises fails the test)."""
    if providers is None:
        return list(own_diagnostics(state))
    return sorted((d for _, provider in providers for d in provider(state)), key=lambda d: (d.start, d.end))


def quick_and_full(directory: Path, text: str) -> tuple[QuickResult, list[Diagnostic]]:
    """The quick open's answer for `text` as `directory`/main.tf.json (which must answer), and the
    full path's diagnostics of the same file opened in a second `Workspace` and built."""
    path = directory / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    uri = uri_of_path(str(path))
    quick = Workspace([str(directory)]).open(uri, text, 1, "terraform-json").quick()
    assert quick is not None
    full_state = Workspace([str(directory)]).open(uri, text, 1, "terraform-json")
    full_state.prepare()
    assert full_state.quick() is None
    return quick, file_diagnostics(full_state)


def found_in(fw: Any, codes: Iterable[str], path: str = "/app/main.tf.json") -> list[tuple[str, str]]:
    """The diagnostics of file `path` of fixture workspace `fw` (`fixture.FixtureWorkspace`) whose
    code is one of `codes`, in order, each as `(code, the text it covers)`."""
    from hcljson_ls.features.diagnostics import collect

    wanted = frozenset(codes)
    text = fw.fixture.files[path].text
    return [(d.code, text[d.start:d.end]) for d in collect(fw.snapshot(), fw.uri(path)) if d.code in wanted]
