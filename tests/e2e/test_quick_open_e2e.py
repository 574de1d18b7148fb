"""End to end over stdio: the quick open (`terraform.quick`) of large generated documents, as an
editor sees it. Its diagnostics must be exactly the full analysis's (pull and push), requests that
need the tree work right after it, an edit that comes before the tree is built is applied to the
right text, and a change of the module's declarations drops it. In-process: when the analysis
built after the open disagrees with the quick result, the analysis wins (logged, new result id).

Expected ranges come from searching the planted substrings in the generated text
(`helpers.lsp_range`: plain string arithmetic); expected messages from the full path in-process
(a `Workspace` document whose tree and analysis are built first: `DocumentState.prepare`).
"""

from __future__ import annotations

import asyncio
import json
import logging

from fixture import parse_fixture
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import LanguageClient

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.terraform.quick import quick_file
from hcljson_ls.workspace import Workspace, document
from hcljson_ls.workspace.files import uri_of_path

from .helpers import (
    PULL,
    change_document,
    edit,
    initialize,
    lsp_position,
    lsp_range,
    open_document,
    published_for,
    wait_for,
)
from .test_lsp_inprocess import _open, server_and_wire  # noqa: F401  (a fixture, used by name)

# -------------------------------------------------------------------------------------------- documents


def _stack(count: int, *, planted: bool = True, declare_region: bool = True, missing: bool = False) -> str:
    """A CDKTF-like stack (`json.dumps(indent=2)`, ~370 bytes a resource): `count` instances and
    buckets whose templates use declared variables and locals, outputs, a provider, a data source.
    `planted`: five problems of different kinds (see `_planted`), one of them (a second `"output"`
    member of the root) written by hand in the text. `declare_region=False`: `var.region` is
    declared by another file; `missing`: one resource refers to `var.missing`."""
    variables = {"env": {"type": "string", "default": "dev"}, "x": {"type": "number", "default": 1}}
    if declare_region:
        variables = {"region": {"type": "string", "default": "eu-west-1"}, **variables}
    instances: dict = {}
    buckets: dict = {}
    for i in range(count):
        instances[f"web{i}"] = {
            "ami": "${data.aws_ami.base.id}",
            "instance_type": "t3.micro",
            "availability_zone": "${var.region}a" if i % 50 == 0 else "eu-west-1a",
            "tags": {"Name": f"${{local.prefix}}-web-{i}", "Index": str(i), "Env": "${var.env}"},
            "user_data": f"#!/bin/sh\necho ${{var.x}} > /tmp/n{i}\n",
            "depends_on": [f"aws_s3_bucket.b{i}"],
        }
        buckets[f"b{i}"] = {"bucket": f"${{local.prefix}}-{i}", "acl": "private", "tags": "${local.tags}"}
    if missing:
        instances["web0"]["key_name"] = "${var.missing}"
    if planted:
        instances["nope"] = {"ami": "${var.nope}"}  # reference/undeclared
        instances["both"] = {"count": 2, "for_each": "${local.tags}", "ami": "a"}  # conflicting arguments
        instances["bad label!"] = {"ami": "a"}  # invalid name
        instances["broken"] = {"ami": "x-${"}  # template without its expression
    outputs = {f"ip{i}": {"value": f"${{aws_instance.web{i}.public_ip}}", "description": f"ip {i}"} for i in range(count // 2)}
    if planted:
        outputs["dup"] = {"value": "${var.x}"}
    stack = {
        "//": {"metadata": {"version": "0.20.0", "stackName": "dev"}},
        "provider": {"aws": [{"region": "${var.region}"}]},
        "variable": variables,
        "locals": {"prefix": "${var.env}-app", "tags": {"Env": "${var.env}", "Region": "${var.region}"}},
        "data": {"aws_ami": {"base": {"most_recent": True, "owners": ["amazon"]}}},
        "resource": {"aws_instance": instances, "aws_s3_bucket": buckets},
        "output": outputs,
    }
    text = json.dumps(stack, indent=2) + "\n"
    if planted:  # the same output again under a second "output" member: a dict cannot say that
        assert text.endswith("\n  }\n}\n")
        text = text[: -len("\n}\n")] + ',\n  "output": {\n    "dup": {\n      "value": "${var.region}"\n    }\n  }\n}\n'
    return text


SIZE = 500  # resources of each type: ~290 KB
STACK = _stack(SIZE)


def _planted(text: str) -> list[tuple[str, int, int]]:
    """`(code, start, end)` of the planted problems, found in the text, in document order."""
    nope = text.index("${var.nope}") + len("${")
    both = text.index('"both"')
    broken = text.index('"x-${"') + len('"x-${')
    dup = text.index("{", text.rindex('"dup"'))  # the second one's body, where Terraform reports it
    return [
        ("reference/undeclared", nope, nope + len("var.nope")),  # on the address, as Terraform
        ("structure/conflicting-arguments", text.index('"for_each"', both), text.index('"for_each"', both) + len('"for_each"')),
        ("structure/invalid-name", text.index('"bad label!"'), text.index('"bad label!"') + len('"bad label!"')),
        ("template/missing-expression", broken, broken),  # at the end of the template
        ("structure/duplicate-block", dup, dup + 1),
    ]


def _full_path_messages(text: str, uri: str) -> list[tuple[str, str]]:
    """`(code, message)` of the full path: the document's tree and analysis built before its
    diagnostics are read (never the quick result), in a module of its own like the server's."""
    workspace = Workspace()
    state = workspace.open(uri, text, 1, "terraform-json")
    state.prepare()
    assert state.quick() is None
    return [(d.code, d.plain_message) for d in collect(workspace.snapshot(), uri)]


def _answered_quickly(text: str, path: str) -> None:
    """The document is one the quick open answers, mostly from values (else the tests below would
    only test the full path)."""
    quick = quick_file(text, path)
    assert quick is not None
    assert quick.certified > 10 * quick.analysed, (quick.certified, quick.analysed)


def _described(diagnostics) -> list[tuple]:
    return [(d.code, d.range) for d in diagnostics]


def _expected(text: str) -> list[tuple]:
    return [(code, lsp_range(text, start, end)) for code, start, end in _planted(text)]


async def _pull(client: LanguageClient, uri: str, previous: str | None = None) -> types.DocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
    )


async def _pull_sent(client: LanguageClient, uri: str) -> asyncio.Task:
    """A pull whose request is written now, its answer awaited later: what the client sends next
    reaches the server after it (pytest-lsp's requests are coroutines, sent when first run)."""
    task = asyncio.ensure_future(_pull(client, uri))
    await asyncio.sleep(0)  # the task runs up to its wait for the answer: the request is written
    return task


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


# -------------------------------------------------------------------------------------------- pull


def test_the_generated_stack_is_quick_opened():
    assert 200_000 < len(STACK) < 400_000
    _answered_quickly(STACK, "/m/cdk.tf.json")


async def test_pull_after_open_gives_the_planted_problems_exactly(client: LanguageClient, tmp_path):
    await initialize(client, pull=True)
    uri = uri_of_path(str(tmp_path / "cdk.tf.json"))
    open_document(client, uri, STACK)
    report = await _pull(client, uri)
    assert report.kind == "full"
    assert _described(report.items) == _expected(STACK)
    assert [(d.code, d.message) for d in report.items] == _full_path_messages(STACK, uri)
    assert all(d.severity == types.DiagnosticSeverity.Error for d in report.items)
    dup = report.items[-1]
    [related] = dup.related_information
    first = STACK.index('"dup"')
    assert related.location == types.Location(uri=uri, range=lsp_range(STACK, first, first + len('"dup"')))


async def test_requests_needing_the_tree_work_right_after_the_quick_answer(client: LanguageClient, tmp_path):
    await initialize(client, pull=True)
    uri = uri_of_path(str(tmp_path / "cdk.tf.json"))
    open_document(client, uri, STACK)
    assert _described((await _pull(client, uri)).items) == _expected(STACK)

    # Both sent at once, right after the answer (before the server builds the tree on its own):
    # each of them builds it.
    name = STACK.index('"web7"')
    x = STACK.index("${var.x}", name) + len("${var.")
    hover, definition = await asyncio.gather(
        client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=lsp_position(STACK, name + 2))),
        client.text_document_definition_async(types.DefinitionParams(text_document=_doc(uri), position=lsp_position(STACK, x))),
    )
    assert hover is not None and hover.range == lsp_range(STACK, name, name + len('"web7"')), hover
    assert hover.contents.value.startswith("`web7` — **resource name**")
    assert 'resource "aws_instance" "web7"' in hover.contents.value
    declared = STACK.index('"x"', STACK.index('"variable"'))
    assert definition == [types.Location(uri=uri, range=lsp_range(STACK, declared, declared + len('"x"')))]


def _comparable(diagnostics) -> list[tuple]:
    """What must not depend on how the document came to its text (the URI left out)."""
    return [
        (d.code, d.range, d.message, d.severity, [r.location.range for r in d.related_information or ()])
        for d in diagnostics
    ]


async def test_an_edit_right_after_the_quick_answer_gives_what_a_fresh_open_gives(client: LanguageClient, tmp_path):
    await initialize(client, pull=True)
    edited_uri = uri_of_path(str(tmp_path / "edited" / "cdk.tf.json"))
    fresh_uri = uri_of_path(str(tmp_path / "fresh" / "cdk.tf.json"))  # another module: no duplicates across files
    # Inside a string of web3: "t3.micro" becomes "${var.typo}" (one more undeclared variable).
    at = STACK.index('"t3.micro"', STACK.index('"web3"')) + 1
    typed = "${var.typo}"
    edited = STACK[:at] + typed + STACK[at + len("t3.micro") :]

    # Sent back to back: the server answers the first pull from the quick open, then applies the
    # edit long before its 50 ms timer would build the tree of the opened text.
    open_document(client, edited_uri, STACK)
    first = await _pull_sent(client, edited_uri)
    change_document(client, edited_uri, 2, edit(lsp_position(STACK, at), lsp_position(STACK, at + len("t3.micro")), typed))
    second = await _pull_sent(client, edited_uri)
    first, second = await first, await second
    assert _described(first.items) == _expected(STACK)
    typo = at + len("${")
    assert _described(second.items) == [("reference/undeclared", lsp_range(edited, typo, typo + len("var.typo"))), *_expected(edited)]

    open_document(client, fresh_uri, edited)
    fresh = await _pull(client, fresh_uri)
    assert _comparable(second.items) == _comparable(fresh.items)

    # The server's 50 ms timer then finds no quick answer to check (the edit ended it): nothing moves.
    await asyncio.sleep(0.3)
    assert (await _pull(client, edited_uri, second.result_id)).kind == "unchanged"


# -------------------------------------------------------------------------------------------- push


async def test_push_publishes_the_quick_answer_once_and_the_analysis_agrees(client: LanguageClient, tmp_path):
    await initialize(client, pull=False)
    uri = uri_of_path(str(tmp_path / "cdk.tf.json"))
    open_document(client, uri, STACK, version=3)
    published = await wait_for(lambda: [p for p in published_for(client, uri) if p.version == 3], what="a publish of version 3")
    diagnostics = published[0].diagnostics
    assert _described(diagnostics) == _expected(STACK)  # what a pull gives (see above)
    assert [(d.code, d.message) for d in diagnostics] == _full_path_messages(STACK, uri)

    # The server builds the tree and the analysis 50 ms after the publish; had they disagreed with
    # the quick answer, the analysis's diagnostics would be published again (debounced: 100 ms).
    # The request in between is answered after that build (one thread), and touches no document
    # (one that built the tree first would leave nothing to compare).
    await asyncio.sleep(0.3)
    elsewhere = types.TextDocumentIdentifier(uri=uri_of_path(str(tmp_path / "not-open.tf.json")))
    assert await client.text_document_hover_async(types.HoverParams(text_document=elsewhere, position=types.Position(0, 0))) is None
    await asyncio.sleep(0.3)
    again = published_for(client, uri)
    assert [p.version for p in again] == [3] * len(again)
    assert all(p.diagnostics == diagnostics for p in again), [_comparable(p.diagnostics) for p in again]


# -------------------------------------------------------------------------------------------- module


async def test_a_declaration_removed_in_another_file_reaches_the_quick_answer(client: LanguageClient, tmp_path):
    main_text = _stack(SIZE, planted=False, declare_region=False, missing=True)
    assert 200_000 < len(main_text) < 400_000
    _answered_quickly(main_text, "/m/main.tf.json")
    variables_marked = parse_fixture('{\n  "variable": {\n    "$[region]region": {"type": "string", "default": "eu-west-1"}\n  }\n}\n').only
    variables_text = variables_marked.text
    (tmp_path / "main.tf.json").write_text(main_text, encoding="utf-8")
    (tmp_path / "variables.tf.json").write_text(variables_text, encoding="utf-8")
    main, variables = (uri_of_path(str(tmp_path / name)) for name in ("main.tf.json", "variables.tf.json"))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    caps = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(diagnostic=PULL),
        workspace=types.WorkspaceClientCapabilities(
            workspace_folders=True, diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        ),
    )
    await client.initialize_session(types.InitializeParams(capabilities=caps, workspace_folders=[folder]))

    def undeclared(*names: str) -> list[tuple]:
        found = []
        for name in names:
            needle = f"${{var.{name}}}"
            at = main_text.find(needle)
            while at >= 0:
                start = at + len("${")
                found.append((start, ("reference/undeclared", lsp_range(main_text, start, start + len("var.") + len(name)))))
                at = main_text.find(needle, at + 1)
        return [d for _, d in sorted(found, key=lambda f: f[0])]

    # Sent back to back: the module's declarations change (variables.tf.json opened and edited)
    # before the server builds main.tf.json's analysis, while its quick answer stands.
    open_document(client, main, main_text)
    before = await _pull_sent(client, main)
    open_document(client, variables, variables_text)
    at = variables_marked.marks["region"]
    change_document(client, variables, 2, edit(lsp_position(variables_text, at), lsp_position(variables_text, at + len("region")), "zone"))
    after = await _pull_sent(client, main)
    before, after = await before, await after

    assert _described(before.items) == undeclared("missing")
    assert len(undeclared("region")) == SIZE // 50 + 2  # provider, locals and every 50th instance
    assert _described(after.items) == undeclared("region", "missing")
    assert after.result_id != before.result_id
    # The quick answer computed again against the new declarations is what the analysis says.
    await asyncio.sleep(0.3)
    again = await _pull(client, main, after.result_id)
    assert again.kind == "unchanged", _described(again.items)


# -------------------------------------------------------------------------------------------- in-process


def test_a_quick_answer_the_analysis_disagrees_with_gives_way_to_it(server_and_wire, monkeypatch, caplog):
    """The safety net of `lsp.server._prepare`: a (deliberately) wrong quick answer, published on
    open, is replaced by the analysis's once the tree is built; the error is logged."""
    server, wire = server_and_wire
    real = document.quick_file

    def wrong(*args):
        quick = real(*args)
        assert quick is not None and quick.diagnostics  # a document with problems, answered quickly
        quick.diagnostics = []
        return quick

    monkeypatch.setattr(document, "quick_file", wrong)
    uri = "file:///m/cdk.tf.json"
    _open(server, STACK, uri=uri)
    [published] = wire.notifications("textDocument/publishDiagnostics")  # a push client: on open
    assert published["diagnostics"] == [] and published["version"] == 1  # the wrong quick answer
    assert server.compute_diagnostics(uri) == (1, [])
    result_id = server.result_ids.of(uri, server.compute_diagnostics(uri)[1])  # as a pull answers

    with caplog.at_level(logging.ERROR):
        async def build_then_publish() -> None:  # the background build the server starts after answering
            await server._prepare(uri)
            await asyncio.sleep(server.settings.diagnostics.debounce_ms / 1000 + 0.05)  # the debounced push

        asyncio.run(build_then_publish())
    [error] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "disagreed" in error.getMessage() and uri in error.getMessage()
    version, diagnostics = server.compute_diagnostics(uri)  # their JSON texts
    assert server.result_ids.of(uri, diagnostics) != result_id  # a pulling client gets the new diagnostics
    assert version == 1
    assert _described([get_converter().structure(json.loads(x), types.Diagnostic) for x in diagnostics]) == _expected(STACK)
    republished = wire.notifications("textDocument/publishDiagnostics")[1:]  # a push client gets them again
    assert [(p["version"], [d["code"] for d in p["diagnostics"]]) for p in republished] == [
        (1, [code for code, _, _ in _planted(STACK)])
    ]
