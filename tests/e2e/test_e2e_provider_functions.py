"""End to end over stdio: provider-defined functions (`provider::NAME::FUNCTION`) from the provider
schemas a module sees: the built-in `terraform` provider's (packaged) and those of a schema file
named in `providerSchemas.files` (hashicorp/terraform-json's example provider with one function,
and a resource with a write-only argument). Completion after `provider::` and `provider::NAME::`,
hover on a call, signature help inside its arguments, the pushed diagnostics (a provider the
module does not require, a function the provider lacks, too many arguments), and hover on a
write-only argument."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import shared_data
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .conftest import make_client
from .helpers import lsp_position, lsp_range, open_document, published_for, wait_for

EXAMPLE = shared_data.PROVIDER_SCHEMAS / "example-functions.terraform-1.8.schemas.json"
WRITE_ONLY = shared_data.PROVIDER_SCHEMAS / "write-only.terraform-1.11.schemas.json"
shared_data.require(EXAMPLE, WRITE_ONLY)

FIXTURE = r"""
//- /main.tf.json
{"terraform": {"required_providers": {"terraform": {}, "ex": {"source": "hashicorp/example"}}},
 "locals": {
   "a": "${$[name]pro$[hover]vider::terraform::$[builtins]encode_expr$[name_end](1$0)}",
   "b": "${⟨provider::nope::f⟩(1)}",
   "c": "${⟨provider::ex::exampel⟩(\"x\")}",
   "d": "${provider::ex::example(\"x\", \"⟨y⟩\")}",
   "e": "${provider::$[providers]}",
   "f": "${provider::ex::$[functions]}"
 }}
"""

WRITE_ONLY_FIXTURE = r"""
//- /wo/main.tf.json
{"resource": {"terraform_example": {"x": {"w$[wo]o_attr": "secret"}}}}
"""


async def _start(root: Path, tmp_path: Path, files: list[str]) -> LanguageClient:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client, server_env=env
    )
    client = await config.start()
    markup = [types.MarkupKind.Markdown, types.MarkupKind.PlainText]
    caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        completion=types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(
            snippet_support=True, documentation_format=markup)),
        hover=types.HoverClientCapabilities(content_format=markup),
        signature_help=types.SignatureHelpClientCapabilities(signature_information=types.ClientSignatureInformationOptions(
            documentation_format=[types.MarkupKind.PlainText],
            parameter_information=types.ClientSignatureParameterInformationOptions(label_offset_support=True))),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
    ))
    await client.initialize_session(types.InitializeParams(
        capabilities=caps,
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(root)), name="work")],
        initialization_options={"providerSchemas": {"files": files, "runTerraform": False}},
    ))
    return client


def _items(result) -> dict[str, types.CompletionItem]:
    return {i.label: i for i in (result.items if isinstance(result, types.CompletionList) else result or [])}


async def test_provider_functions_are_completed_hovered_signed_and_checked(tmp_path: Path) -> None:
    root = tmp_path / "work"
    fw = parse_fixture(FIXTURE)
    paths = fw.write(root)
    main = fw.files["/main.tf.json"]
    text = main.text
    uri = uri_of_path(str(paths["/main.tf.json"]))
    client = await _start(root, tmp_path, [str(EXAMPLE)])
    try:
        open_document(client, uri, text)
        doc = types.TextDocumentIdentifier(uri=uri)
        expected = [(lsp_range(text, s, e), code) for (s, e), code in zip(main.ranges, [
            "reference/unknown-provider-function", "reference/unknown-provider-function", "reference/argument-count"])]

        def diagnosed():
            for p in reversed(published_for(client, uri)):
                # (The half-typed `provider::` and `provider::ex::` are template errors of their own.)
                got = sorted(((d.range, d.code) for d in p.diagnostics
                              if str(d.code).startswith("reference/") and d.code != "reference/unused"),
                             key=lambda x: (x[0].start.line, x[0].start.character))
                return got == expected and got
            return None

        # The schema file is read in the background: wait until its function is checked.
        await wait_for(diagnosed, timeout=30, what="the provider-function diagnostics")

        # Completion after `provider::`: the module's required providers' local names.
        at = main.marks["providers"]
        names = _items(await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=lsp_position(text, at))))
        assert {"terraform", "ex"} <= set(names) and "nope" not in names
        assert isinstance(names["ex"].text_edit, types.TextEdit) and names["ex"].text_edit.new_text == "ex::"

        # After `provider::ex::`: that provider's functions, with signature and description.
        at = main.marks["functions"]
        fns = _items(await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=lsp_position(text, at))))
        assert list(fns) == ["example"]
        item = fns["example"]
        assert item.kind == types.CompletionItemKind.Function
        assert item.detail == "provider::ex::example(input string) string"
        doc_text = item.documentation.value if isinstance(item.documentation, types.MarkupContent) else item.documentation
        assert doc_text == "Echoes given argument as result"
        assert isinstance(item.text_edit, types.TextEdit) and item.text_edit.new_text == "example(${1:input})"

        # The built-in provider's functions after `provider::terraform::`.
        at = main.marks["builtins"]
        builtins = _items(await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=lsp_position(text, at))))
        assert {"encode_expr", "encode_tfvars", "decode_tfvars"} <= set(builtins)

        # Hover on the call.
        hovered = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=lsp_position(text, main.marks["hover"])))
        assert hovered is not None and isinstance(hovered.contents, types.MarkupContent)
        assert hovered.contents.value.startswith("```hcl\nprovider::terraform::encode_expr(value any) string\n```")
        assert "Terraform language expression syntax" in hovered.contents.value
        assert hovered.range == lsp_range(text, main.marks["name"], main.marks["name_end"])

        # Signature help inside its arguments.
        helped = await client.text_document_signature_help_async(types.SignatureHelpParams(
            text_document=doc, position=lsp_position(text, main.cursor)))
        assert helped is not None and len(helped.signatures) == 1
        sig = helped.signatures[0]
        assert sig.label == "provider::terraform::encode_expr(value any) string"
        assert [p.label for p in sig.parameters or []] == [(33, 42)] and helped.active_parameter == 0
    finally:
        await client.shutdown_session()


async def test_hover_on_a_write_only_argument(tmp_path: Path) -> None:
    root = tmp_path / "work"
    fw = parse_fixture(WRITE_ONLY_FIXTURE)
    paths = fw.write(root)
    text = fw.files["/wo/main.tf.json"].text
    uri = uri_of_path(str(paths["/wo/main.tf.json"]))
    client = await _start(root, tmp_path, [str(WRITE_ONLY)])
    try:
        open_document(client, uri, text)
        doc = types.TextDocumentIdentifier(uri=uri)
        at = fw.files["/wo/main.tf.json"].marks["wo"]
        value = ""
        for _ in range(300):  # the schema file is read in the background
            hovered = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=lsp_position(text, at)))
            value = getattr(getattr(hovered, "contents", None), "value", "")
            if "optional argument" in value:
                break
            await asyncio.sleep(0.1)
        assert value.startswith('**wo_attr** — optional argument of `resource "terraform_example" "x"`')
        assert "write-only" in value
    finally:
        await client.shutdown_session()
