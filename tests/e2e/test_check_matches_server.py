"""`hcljson-ls check` reports what the language server reports: the same files, once checked by the
command (a subprocess) and once opened in the real server over stdio (pulled diagnostics), give the
same codes, ranges (UTF-16), severities and messages, file by file, including what comes from other
files of the module (a reference declared in another file, a declaration made twice)."""

from __future__ import annotations

import json
import subprocess
import sys

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import initialize, open_document

MODULES = """
//- /stack/variables.tf.json
{"variable": {"region": {"type": "string"}, "name": {"description": "Name of ${var.region}"}}}
//- /stack/main.tf.json
{
  "variable": {"name": {}},
  "locals": {"where": "${var.region}", "what": "${var.zone}", "it": "${local.it_self}"},
  "resource": {"aws_vpc": {"main": {"cidr_block": "10.0.0.0/16", "tags": {"Name": "${local.where}"}}}}
}
//- /stack/outputs.tf.json
{"output": {"vpc": {"value": "${aws_vpc.main.id}"}, "bad": {"value": "${aws_subnet.nope.id}"}}}
//- /other/broken.tf.json
{"locals": {"a": [1,], "b": "${var.x}"}
"""

SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}


async def test_check_and_the_server_agree(client: LanguageClient, tmp_path):
    fixture = parse_fixture(MODULES)
    paths = fixture.write(tmp_path)
    check = subprocess.run(
        [sys.executable, "-m", "hcljson_ls", "check", str(tmp_path), "--format", "json", "--jobs", "2"],
        capture_output=True, encoding="utf-8", timeout=120,
    )
    assert check.returncode == 1, check.stderr
    from_check = sorted(
        (r["file"], r["range"]["start"]["line"], r["range"]["start"]["character"], r["range"]["end"]["line"],
         r["range"]["end"]["character"], r["severity"], r["code"], r["message"])
        for r in json.loads(check.stdout)
    )

    await initialize(client, pull=True)
    for name, path in paths.items():
        open_document(client, uri_of_path(str(path)), fixture.files[name].text)
    from_server = []
    for path in paths.values():
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri_of_path(str(path))))
        )
        for d in report.items:
            if d.code == "reference/unused":
                continue  # an editor hint (on by default) that `hcljson-ls check` never reports, as documented
            r = d.range
            from_server.append((str(path), r.start.line, r.start.character, r.end.line, r.end.character,
                                SEVERITY[d.severity], d.code, d.message))
    assert from_check == sorted(from_server)
    codes = {entry[6] for entry in from_check}
    assert {"reference/undeclared", "structure/duplicate-block", "syntax/trailing-comma"} <= codes
