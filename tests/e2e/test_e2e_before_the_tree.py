"""End to end over stdio: a hover, a completion and a definition sent right after a large document's
quick open are answered before its tree is built (issue 21 §2), from the blocks around the cursor
(`features.around`), and they answer what the tree answers once built.

The order of events is the proof, not the time: the server says in the client's log who built the
tree (`HcljsonServer._log_build`: "in the background" when its own stepped build ended, "by a
request" when a request had to build what was left, as every request did before). The answers
come first, then the log line, and it says "in the background"; the same requests sent again after
it (answered by the built tree) give the same answers.
"""

from __future__ import annotations

import asyncio
import json

from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import initialize, lsp_position, open_document, wait_for

#: A CDKTF-like document of about 1.3 MB: its stepped build takes many slices, well over the few
#: milliseconds the requests take.
COUNT = 4_000
DOC = json.dumps(
    {
        "variable": {"env": {"type": "string", "description": "The environment"}},
        "resource": {"aws_instance": {
            f"r{i}": {"ami": f"ami-{i}", "count": 2, "tags": {"Name": "${var.env}-" + str(i), "Team": "t"},
                      "depends_on": [f"aws_instance.r{max(0, i - 1)}"],
                      "ebs_block_device": [{"device_name": "/dev/sdb", "volume_size": 8}]}
            for i in range(COUNT)}},
        "output": {f"o{i}": {"value": f"${{aws_instance.r{i}[0].id}}"} for i in range(0, COUNT, 7)},
    },
    indent=2,
)

BUILT = "built the tree of"


def _built(client: LanguageClient, uri: str) -> list[str]:
    return [m.message for m in client.log_messages if BUILT in m.message and uri in m.message]


async def _requests(client: LanguageClient, uri: str) -> tuple:
    """A hover on a `count` key, a completion after `${var.` and a definition of `var.env`, all
    in a resource in the middle of the document, sent at once."""
    middle = DOC.index(f'"r{COUNT // 2}"')
    count = DOC.index('"count"', middle) + 3
    env = DOC.index("${var.env}", middle) + len("${var.e")
    doc = types.TextDocumentIdentifier(uri=uri)
    return await asyncio.gather(
        client.text_document_hover_async(types.HoverParams(text_document=doc, position=lsp_position(DOC, count))),
        client.text_document_completion_async(types.CompletionParams(text_document=doc, position=lsp_position(DOC, env))),
        client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=lsp_position(DOC, env))),
    )


async def test_requests_right_after_the_open_are_answered_before_the_tree_is_built(client: LanguageClient, tmp_path):
    assert len(DOC) > 1_000_000
    await initialize(client, pull=True)
    uri = uri_of_path(str(tmp_path / "cdk.tf.json"))
    open_document(client, uri, DOC)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert list(report.items) == []  # the quick open's answer: the stepped build starts 50 ms after it

    early = await _requests(client, uri)
    assert _built(client, uri) == [], "a request waited for the tree"  # the answers came first

    [line] = await wait_for(lambda: _built(client, uri), timeout=300, what="the build's log line")
    assert "in the background" in line, line  # no request had to build the tree

    hover, items, definition = early
    assert hover is not None and hover.contents.value.startswith("**count** — optional meta-argument"), hover
    assert "env" in {i.label for i in (items.items if isinstance(items, types.CompletionList) else items)}
    declared = DOC.index('"env"')
    assert definition == [types.Location(uri=uri, range=types.Range(lsp_position(DOC, declared),
                                                                     lsp_position(DOC, declared + len('"env"'))))]
    assert await _requests(client, uri) == early  # the built tree's answers
