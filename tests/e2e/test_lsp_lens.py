"""End to end over stdio: document links, code lens with lazy resolve (the count and the
`editor.action.showReferences` command), inlay hints with values from a tfvars file and defaults,
and the settings that turn lenses and hints off."""

from __future__ import annotations

import asyncio

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import change_document, edit, initialize, lsp_position, lsp_range, open_document, published_for, wait_for

MODULE = r"""
//- /m/main.tf.json
{
  "$[link_variable]variable": {⟨"region"⟩: {"default": "eu-west-1"}, ⟨"zone"⟩: {"default": "a"}},
  "$[link_locals]locals": {⟨"name"⟩: "web 🌍", ⟨"spare"⟩: 1},
  $[from]"$[link_resource]resource": {"$[link_aws_instance]aws_instance": {⟨"web"⟩: {"ami": "${var.region$[hint_region]}/${var.zone$[hint_zone]}", "tags": {"Name": "${local.name$[hint_name]}"}}}},
  $[to]"$[link_module]module": {⟨"net"⟩: {"source": "$[link_net]./net"}},
  "$[link_output]output": {⟨"o"⟩: {"value": "${aws_instance.web.id}-${var.region$[hint_region_again]}"}}
}
//- /m/other.tf
output "r" {
  value = var.region
}
//- /m/terraform.tfvars.json
{"region": "us-east-1"}
//- /m/.terraform.lock.hcl
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
}
//- /m/net/main.tf.json
{}
"""
MAIN = "/m/main.tf.json"


async def start(client: LanguageClient, tmp_path, options=None):
    fixture = parse_fixture(MODULE)
    paths = fixture.write(tmp_path)
    uris = {p: uri_of_path(str(path)) for p, path in paths.items()}
    await initialize(client, options=options)
    text = fixture.files[MAIN].text
    open_document(client, uris[MAIN], text)
    return uris, text


MARKED = parse_fixture(MODULE).files[MAIN]  # its marks: links `$[link_...]`, hints `$[hint_...]`; ⟨⟩: the lensed names


def position(mark: str) -> types.Position:
    return lsp_position(MARKED.text, MARKED.marks[mark])


def whole(text: str) -> types.Range:
    return lsp_range(text, 0, len(text))


async def test_document_links(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    got = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uris[MAIN])))
    links = {(link.range.start.line, link.range.start.character): link.target for link in got}

    def link_at(mark: str) -> tuple[int, int]:
        p = position(mark)
        return p.line, p.character

    assert links[link_at("link_aws_instance")] == "https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs/resources/instance"
    assert links[link_at("link_resource")] == "https://developer.hashicorp.com/terraform/language/resources/syntax"
    assert links[link_at("link_net")] == uris["/m/net/main.tf.json"]
    assert set(links) == {link_at(f"link_{key}") for key in ("variable", "locals", "resource", "aws_instance", "module", "net", "output")}
    assert [link.tooltip for link in got] == [None] * 7  # the client did not say it shows tooltips


async def test_code_lens_counts_lazily_and_opens_the_references(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uris[MAIN])))
    assert [lens.command for lens in lenses] == [None] * len(lenses)  # counted on resolve
    assert [lens.range for lens in lenses] == [lsp_range(text, *r) for r in MARKED.ranges]  # region zone name spare web net o
    resolved = await client.code_lens_resolve_async(lenses[0])
    assert resolved.command.title == "4 references"  # the value set in terraform.tfvars.json is one
    assert resolved.command.command == "editor.action.showReferences"
    uri, position, locations = resolved.command.arguments
    assert uri == uris[MAIN] and position == {"line": lenses[0].range.start.line, "character": lenses[0].range.start.character}
    assert sorted(loc["uri"] for loc in locations) == sorted(
        [uris[MAIN], uris[MAIN], uris["/m/other.tf"], uris["/m/terraform.tfvars.json"]])
    assert (await client.code_lens_resolve_async(lenses[-1])).command.title == "0 references"


async def test_inlay_hints_show_values(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    got = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uris[MAIN]), range=whole(text)))
    shown = [(h.position, h.label) for h in got]
    assert shown == [
        (position("hint_region"), '= "us-east-1"'),
        (position("hint_zone"), '= "a"'),
        (position("hint_name"), '= "web 🌍"'),
        (position("hint_region_again"), '= "us-east-1"'),
    ]
    part = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uris[MAIN]), range=lsp_range(text, MARKED.marks["from"], MARKED.marks["to"])))
    assert [h.label for h in part] == ['= "us-east-1"', '= "a"', '= "web 🌍"']


async def test_settings_turn_lenses_and_hints_off(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path, options={"codeLens": {"referenceCounts": False}, "inlayHints": {"values": False}})
    doc = types.TextDocumentIdentifier(uri=uris[MAIN])
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
    assert not await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc, range=whole(text)))


async def test_unused_declarations_are_faded_hints_by_default(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    # The quick open answers first without them; they follow once the background build ends.
    published = await wait_for(lambda: [p for p in published_for(client, uris[MAIN]) if p.diagnostics], what="unused hints")
    assert [(d.code, d.severity, list(d.tags or ()), d.range) for d in published[-1].diagnostics] == [
        ("reference/unused", types.DiagnosticSeverity.Hint, [types.DiagnosticTag.Unnecessary],
         lsp_range(text, *MARKED.ranges[3])),  # "spare"
    ]


async def test_unused_declarations_are_not_reported_when_turned_off(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path, options={"diagnostics": {"unusedDeclarations": False}})  # "spare" is unused, as above
    await wait_for(lambda: published_for(client, uris[MAIN]), what="diagnostics")
    # A request that needs the tree, then time for the background build and a debounced publish.
    await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uris[MAIN])))
    await asyncio.sleep(0.5)
    assert [[d.code for d in p.diagnostics] for p in published_for(client, uris[MAIN])] == [[]]


def spare_hints(client: LanguageClient, uri: str, text: str) -> list | None:
    """The last diagnostics published for `uri` when they are the one unused hint on "spare", [] when
    they are empty, else None (nothing published yet, or something else)."""
    published = published_for(client, uri)
    if not published:
        return None
    last = published[-1].diagnostics
    if [(d.code, d.range) for d in last] == [("reference/unused", lsp_range(text, *MARKED.ranges[3]))]:  # "spare"
        return last
    return [] if not last else None


async def test_unused_hints_follow_references_edited_in_another_open_file(client: LanguageClient, tmp_path):
    (tmp_path / "m").mkdir()
    uses_marked = parse_fixture('{"output": {"u": {"value": ⟨"x"⟩}}}').only
    uses_text, ((at, at_end),) = uses_marked.text, uses_marked.ranges
    (tmp_path / "m" / "uses.tf.json").write_text(uses_text)
    uris, text = await start(client, tmp_path)
    await wait_for(lambda: spare_hints(client, uris[MAIN], text), what="the unused hint on local.spare")
    uses = uri_of_path(str(tmp_path / "m" / "uses.tf.json"))
    open_document(client, uses, uses_text)
    reference = '"${local.spare}"'
    change_document(client, uses, 2, edit(lsp_position(uses_text, at), lsp_position(uses_text, at_end), reference))
    # The other file now refers to local.spare: the main document is published again, without the hint.
    await wait_for(lambda: spare_hints(client, uris[MAIN], text) == [], what="main's hint gone")
    edited = uses_text[:at] + reference + uses_text[at_end:]
    change_document(client, uses, 3, edit(lsp_position(edited, at), lsp_position(edited, at + len(reference)), '"y"'))
    await wait_for(lambda: spare_hints(client, uris[MAIN], text), what="main's hint back")
    assert not [d for p in published_for(client, uses) for d in p.diagnostics]  # the other file has no hint of its own


async def test_turning_the_setting_off_removes_published_hints(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    await wait_for(lambda: spare_hints(client, uris[MAIN], text), what="the unused hint on local.spare")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"hcljson": {"diagnostics": {"unusedDeclarations": False}}}))
    await wait_for(lambda: spare_hints(client, uris[MAIN], text) == [], what="the hint removed")


async def test_changed_settings_make_the_client_ask_again(client: LanguageClient, tmp_path):
    asked: list[str] = []
    client.feature(types.WORKSPACE_CODE_LENS_REFRESH)(lambda params: asked.append("codeLens"))
    client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)(lambda params: asked.append("inlayHint"))
    caps = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
        code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
        inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True)))
    await client.initialize_session(types.InitializeParams(capabilities=caps))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"hcljson": {"inlayHints": {"values": False}}}))
    await wait_for(lambda: asked == ["inlayHint"], what="an inlay hint refresh")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"hcljson": {"codeLens": {"referenceCounts": False}}}))
    await wait_for(lambda: asked == ["inlayHint", "codeLens"], what="a code lens refresh")


async def test_odd_lenses_and_documents_are_answered_not_failed(client: LanguageClient, tmp_path):
    uris, text = await start(client, tmp_path)
    zero = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=1))
    for data in (None, 5, {"uri": 5}, {"uri": "file:///never-opened/x.tf.json"}, {"uri": uris[MAIN], "extra": [1]}):
        lens = await client.code_lens_resolve_async(types.CodeLens(range=zero, data=data))
        assert lens.range == zero and (lens.command is None or lens.command.title == "0 references")
    far = types.Range(start=types.Position(line=999, character=0), end=types.Position(line=1999, character=5))
    unknown = types.TextDocumentIdentifier(uri="file:///never-opened/x.tf.json")
    assert list(await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uris[MAIN]), range=far))) == []
    assert await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=unknown, range=far)) is None
    assert await client.text_document_document_link_async(types.DocumentLinkParams(text_document=unknown)) is None
    assert await client.text_document_code_lens_async(types.CodeLensParams(text_document=unknown)) is None
