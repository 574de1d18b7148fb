"""End to end over stdio: a document is part of a module with files the editor never opened, and
files written on disk and announced by `workspace/didChangeWatchedFiles` change what the module sees
(pushed again to push clients; new result ids and a refresh for pull clients). The watcher is
registered dynamically, and the background scan reports work-done progress."""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import PULL, change_document, edit, lsp_position, lsp_range, open_document, published_for, wait_for

MODULE = """
//- /stack/main.tf.json
{
  "variable": {"region": ⟨{⟩"type": "string"}},
  "resource": {"aws_instance": {$[web]"web": {"ami": "ami-1"}}}
}
//- /stack/variables.tf.json
{"variable": {⟨"region"⟩: {"default": "eu-west-1"}}}
//- /stack/outputs.tf.json
{"output": {"ip": {"value": "${aws_instance.web.public_ip}"}}}
"""


def _capabilities(*, pull: bool = False) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
            diagnostic=PULL if pull else None,
        ),
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
            workspace_folders=True,
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )


async def _start(client: LanguageClient, root: Path, *, pull: bool = False):
    fixture = parse_fixture(MODULE)
    paths = fixture.write(root)
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")
    await client.initialize_session(
        # These tests follow module-wide state through files opened, changed and deleted; the unused
        # declaration hints (on by default, tested in test_lsp_lens.py) would change with every step.
        types.InitializeParams(capabilities=_capabilities(pull=pull), workspace_folders=[folder],
                               initialization_options={"diagnostics": {"unusedDeclarations": False}})
    )
    uris = {name: uri_of_path(str(path)) for name, path in paths.items()}
    return fixture, paths, uris


def _watched(client: LanguageClient, uri: str, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=uri, type=kind)])
    )


async def test_a_module_of_unopened_files_and_the_watched_files_path_push(client: LanguageClient, tmp_path):
    fixture, paths, uris = await _start(client, tmp_path)
    main, variables = uris["/stack/main.tf.json"], uris["/stack/variables.tf.json"]
    text = fixture.files["/stack/main.tf.json"].text
    open_document(client, main, text)

    # The watcher was registered for Terraform files, and the background scan reported progress.
    [registration] = await wait_for(lambda: client.registrations, what="registerCapability")
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
        "**/*.{tf.json,tofu.json,tf,tofu}", "**/.terraform.lock.hcl",  # the lock file: provider schemas are fetched again
        "**/.terraform/modules/modules.json",  # installed modules: calls find their children again
    ]
    reports = await wait_for(lambda: [r for rs in client.progress_reports.values() for r in rs if r.kind == "end"] and client.progress_reports, what="progress end")
    [[begin, *_, end]] = reports.values()
    assert begin.kind == "begin" and begin.title == "Indexing Terraform modules" and end.kind == "end"

    # variables.tf.json was never opened, yet its declaration is what makes this one a duplicate.
    published = await wait_for(lambda: [p for p in published_for(client, main) if p.diagnostics], what="diagnostics")
    [d] = published[-1].diagnostics
    assert d.code == "structure/duplicate-block" and "also defined in variables.tf.json" in d.message
    assert d.range == lsp_range(text, *fixture.files["/stack/main.tf.json"].ranges[0])  # the body's `{`, as Terraform
    [related] = d.related_information
    assert related.location.uri == variables
    vtext = fixture.files["/stack/variables.tf.json"].text
    assert related.location.range == lsp_range(vtext, *fixture.files["/stack/variables.tf.json"].ranges[0])

    # Written on disk and announced: the module sees the new content, and the diagnostics follow.
    count = len(published_for(client, main))
    paths["/stack/variables.tf.json"].write_text('{"variable": {"zone": {}}}')
    _watched(client, variables, types.FileChangeType.Changed)
    await wait_for(lambda: len(published_for(client, main)) > count, what="a new publish")
    assert published_for(client, main)[-1].diagnostics == []

    extra = tmp_path / "stack" / "extra.tf.json"
    extra_marked = parse_fixture('{\n  "variable": {$[region]"region": {}}\n}\n').only
    extra.write_text(extra_marked.text)
    count = len(published_for(client, main))
    _watched(client, uri_of_path(str(extra)), types.FileChangeType.Created)
    await wait_for(lambda: len(published_for(client, main)) > count, what="a new publish")
    [d] = published_for(client, main)[-1].diagnostics
    assert d.related_information[0].location.uri == uri_of_path(str(extra))
    assert d.related_information[0].location.range.start == lsp_position(extra_marked.text, extra_marked.marks["region"])

    extra.unlink()
    count = len(published_for(client, main))
    _watched(client, uri_of_path(str(extra)), types.FileChangeType.Deleted)
    await wait_for(lambda: len(published_for(client, main)) > count, what="a new publish")
    assert published_for(client, main)[-1].diagnostics == []


async def test_pull_result_ids_follow_the_other_files_of_the_module(client: LanguageClient, tmp_path):
    fixture, paths, uris = await _start(client, tmp_path, pull=True)
    main, outputs = uris["/stack/main.tf.json"], uris["/stack/outputs.tf.json"]
    text = fixture.files["/stack/main.tf.json"].text
    open_document(client, main, text)
    open_document(client, outputs, fixture.files["/stack/outputs.tf.json"].text)

    async def pull(uri: str, previous: str | None = None):
        return await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
        )

    first = await pull(main)
    assert [d.code for d in first.items] == ["structure/duplicate-block"]
    out = await pull(outputs)
    assert list(out.items) == []
    assert (await pull(outputs, out.result_id)).kind == "unchanged"

    # Renaming a declaration in main.tf.json changes what the module declares: the other open file's
    # result id moves on, and the client is asked to pull again. main's own diagnostics are the same
    # (result ids name the content): "unchanged".
    refreshes = client.refreshes
    at = fixture.mark("web")[1]
    change_document(client, main, 2, edit(lsp_position(text, at), lsp_position(text, at + 5), '"app"'))
    renamed = await pull(main, first.result_id)
    assert renamed.kind == "unchanged" and renamed.result_id == first.result_id
    await wait_for(lambda: client.refreshes > refreshes, what="workspace/diagnostic/refresh")
    moved_on = await pull(outputs, out.result_id)
    assert moved_on.kind == "full" and [d.code for d in moved_on.items] == ["reference/undeclared"]

    # A file changed on disk: the duplicate goes, and main's result changes although main did not.
    latest = await pull(main)
    paths["/stack/variables.tf.json"].write_text('{"variable": {"zone": {}}}')
    refreshes = client.refreshes
    _watched(client, uris["/stack/variables.tf.json"], types.FileChangeType.Changed)
    await wait_for(lambda: client.refreshes > refreshes, what="workspace/diagnostic/refresh")
    again = await pull(main, latest.result_id)
    assert again.kind == "full" and list(again.items) == []
