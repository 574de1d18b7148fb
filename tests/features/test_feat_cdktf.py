"""CDK for Terraform output, navigable: hover, go to definition, grouped document symbols and workspace
symbols on a real directory laid out like a CDKTF project (`cdktf.json`, `main.ts` built by a real
`tsc` into `main.js` + `main.js.map`, and two stacks under `cdktf.out/stacks/` with the same names).

Every fixture is a real directory with a real `Workspace` over it (`fixture.parse_fixture(...)
.workspace(tmp_path, open=[...])`); expected ranges are `⟨⟩` markers, the cursor is `$0`.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fixture import FixtureWorkspace, parse_fixture

from hcljson_ls.features import diagnostics, navigation
from hcljson_ls.features.hover import hover, hover_in
from hcljson_ls.features.symbols import document_symbols, symbols_in
from hcljson_ls.lsp.server import create_server

TSC = Path(__file__).parents[1] / "terraform" / "cdktf_tsc"  # a real tsc build: see its README.md
#: What Node printed for `new S3Bucket(...)` in main.ts (main.js:9:9), on the machine that ran it.
TRACE = json.loads((TSC / "stack-trace.json").read_text(encoding="utf-8"))
#: The same frames as a Windows synth machine writes them.
WINDOWS_TRACE = [line.replace("/tmp/tsgen/proj/", "C:\\Users\\alice\\proj\\").replace("/", "\\") if "/tmp/" in line else line
                 for line in TRACE]

STACK = """{
  "//": {"metadata": {"backend": "local", "stackName": "STACK", "version": "0.20.8"}},
  "resource": {
    "$[bucket_type]aws_s3_bucket": {
      "Lo$[bucket]gs_Bucket_83BEA1D6": {
        "//": {"metadata": {"path": "STACK/Logs/Bucket", "uniqueId": "Logs_Bucket_83BEA1D6", "stackTrace": TRACE}},
        "$[prefix]bucket_prefix": "logs-"
      }
    },
    "aws_iam_role": {
      "Net_Vpc_Role_5F1A2B3C": {
        "//": {"metadata": {"path": "STACK/Net/Vpc/Role", "uniqueId": "Net_Vpc_Role_5F1A2B3C"}},
        "name": "role"
      }
    },
    "aws_s3_bucket_policy": {
      "Lo$[policy]gs_Policy_0A1B2C3D": {
        "//": {"metadata": {"path": "STACK/Logs/Policy", "uniqueId": "Logs_Policy_0A1B2C3D"}},
        "bucket": "${aws_s3_bucket.Logs_Bucket_83BEA1D6.id}"
      }
    },
    "aws_sns_topic": {
      "Topic": {
        "//": {"metadata": {"path": "STACK/Topic", "uniqueId": "Topic"}}
      }
    }
  },
  "$[output]output": {"bucket": {"value": "${aws_s3_bucket.Logs_Bucket_83BEA1D6.bucket}"}}
}
"""


def _stack(name: str, trace: list[str]) -> str:
    return STACK.replace("STACK", name).replace("TRACE", json.dumps(trace))


def project(cursor: str | None = None, main_ts: str | None = None) -> str:
    """The fixture text of the project; `cursor` (`$0` markers and all) replaces the dev stack's
    `"Logs_Bucket_83BEA1D6": {` line, `main_ts` the TypeScript source (with markers). Both stacks
    have the marks of STACK (`$[bucket]`, ...)."""
    dev = _stack("dev", TRACE)
    if cursor is not None:
        dev = dev.replace('"Lo$[bucket]gs_Bucket_83BEA1D6": {\n', cursor + "\n", 1)
    files = {
        "/app/cdktf.json": '{"language": "typescript", "app": "npx ts-node main.ts", "projectId": "p"}\n',
        "/app/main.ts": main_ts if main_ts is not None else (TSC / "main.ts").read_text(encoding="utf-8"),
        "/app/main.js": (TSC / "main.js").read_text(encoding="utf-8") + "\n",
        "/app/main.js.map": (TSC / "main.js.map").read_text(encoding="utf-8") + "\n",
        "/app/cdktf.out/stacks/dev/cdk.tf.json": dev,
        "/app/cdktf.out/stacks/prod/cdk.tf.json": _stack("prod", WINDOWS_TRACE),
    }
    return "".join(f"//- {path}\n{text}" for path, text in files.items())


def build(tmp_path: Path, src: str, open: list[str] | None = None) -> FixtureWorkspace:
    return parse_fixture(src).workspace(tmp_path, open=open)


DEV = "/app/cdktf.out/stacks/dev/cdk.tf.json"
PROD = "/app/cdktf.out/stacks/prod/cdk.tf.json"


# ---- hover ---------------------------------------------------------------------------------------------


def test_hover_on_a_resource_name_shows_the_construct_above_the_label_hover(tmp_path):
    fw = build(tmp_path, project(cursor='      ⟨"Logs_Bucket$0_83BEA1D6"⟩: {'))
    uri, offset = fw.cursor
    got = hover(fw.snapshot(), uri, offset)
    assert got is not None and (got.start, got.end) == fw.fixture.files[DEV].ranges[0]
    state = fw.snapshot().document(uri)
    below = hover_in(state.analysis.body, state.text, offset)  # what the key shows without CDKTF
    assert below is not None
    head = "**CDKTF construct** `dev/Logs/Bucket`\n\nunique id: `Logs_Bucket_83BEA1D6`\n\n---\n\n" + below.markdown
    # ... then the block in native syntax (features.native_preview), below the construct path
    assert got.markdown.startswith(head + "\n\n---\n\n```terraform\nresource \"aws_s3_bucket\" \"Logs_Bucket_83BEA1D6\" {")


def test_hover_elsewhere_is_unchanged(tmp_path):
    fw = build(tmp_path, project(), open=[DEV])
    snap = fw.snapshot()
    for mark in ("bucket_type", "prefix", "output"):
        uri, offset = fw.mark(mark, DEV)
        got = hover(snap, uri, offset)
        assert got is None or "CDKTF" not in got.markdown, mark


# ---- go to definition ------------------------------------------------------------------------------------


def _marked_main_ts() -> str:
    return (TSC / "main.ts").read_text(encoding="utf-8").replace("new S3Bucket(", "⟨new S3Bucket⟩(", 1)


def test_definition_lands_on_the_typescript_line_that_created_the_construct(tmp_path):
    fw = build(tmp_path, project(cursor='      "Logs_Bucket$0_83BEA1D6": {', main_ts=_marked_main_ts()))
    uri, offset = fw.cursor
    (found,) = navigation.definition(fw.snapshot(), uri, offset)
    assert found.uri == fw.uri("/app/main.ts")
    assert (found.start, found.end) == fw.fixture.files["/app/main.ts"].ranges[0]


def test_definition_from_a_stack_synthesized_on_windows(tmp_path):
    fw = build(tmp_path, project(main_ts=_marked_main_ts()), open=[PROD])
    uri, offset = fw.mark("bucket", PROD)
    (found,) = navigation.definition(fw.snapshot(), uri, offset)
    assert (found.uri, found.start, found.end) == (fw.uri("/app/main.ts"), *fw.fixture.files["/app/main.ts"].ranges[0])


def test_definition_without_a_source_map_is_the_script_line(tmp_path):
    src = project()
    files = parse_fixture(src).files
    js = files["/app/main.js"].text.replace("//# sourceMappingURL=main.js.map", "")
    src = src.replace(files["/app/main.js"].text, js).replace("//- /app/main.js.map\n" + files["/app/main.js.map"].text, "")
    fw = build(tmp_path, src, open=[DEV])
    uri, offset = fw.mark("bucket", DEV)
    (found,) = navigation.definition(fw.snapshot(), uri, offset)
    assert found.uri == fw.uri("/app/main.js")
    assert js[found.start : found.end] == "new s3_bucket_1.S3Bucket"  # main.js:9:9


def test_definition_falls_back_to_the_name_without_a_stack_trace_or_project(tmp_path):
    fw = build(tmp_path, project(), open=[DEV])
    uri, offset = fw.mark("policy", DEV)  # no stack trace: the declaration itself
    text = fw.fixture.files[DEV].text
    (found,) = navigation.definition(fw.snapshot(), uri, offset)
    assert (found.uri, text[found.start : found.end]) == (uri, '"Logs_Policy_0A1B2C3D"')
    (tmp_path / "app" / "cdktf.json").unlink()  # no project: the same
    uri, offset = fw.mark("bucket", DEV)
    (found,) = navigation.definition(fw.snapshot(), uri, offset)
    assert (found.uri, text[found.start : found.end]) == (uri, '"Logs_Bucket_83BEA1D6"')


# ---- every stack is its own module -----------------------------------------------------------------------


def test_stacks_are_modules_of_their_own_without_false_duplicates(tmp_path):
    fw = build(tmp_path, project(), open=[DEV, PROD])
    snap = fw.snapshot()
    dev, prod = fw.uri(DEV), fw.uri(PROD)
    assert snap.module_key(dev) != snap.module_key(prod)
    assert snap.module_files(dev) == snap.module_files(prod) == ["cdk.tf.json"]
    both = {u: diagnostics.collect(snap, u) for u in (dev, prod)}
    assert not [d for ds in both.values() for d in ds if "duplicate" in d.code]
    alone = build(tmp_path / "alone", "//- /dev/cdk.tf.json\n" + fw.fixture.files[DEV].text)
    only = diagnostics.collect(alone.snapshot(), alone.uri("/dev/cdk.tf.json"))
    assert [(d.code, d.start, d.end) for d in both[dev]] == [(d.code, d.start, d.end) for d in only]
    # The same names in one module are duplicates: the check is on, the stacks are apart.
    one = build(tmp_path / "one", "//- /m/a.tf.json\n" + fw.fixture.files[DEV].text + "//- /m/b.tf.json\n" + fw.fixture.files[PROD].text)
    assert any(d.code == "structure/duplicate-block" for d in diagnostics.collect(one.snapshot(), one.uri("/m/a.tf.json")))


# ---- document symbols ----------------------------------------------------------------------------------------


def outline(symbols, depth: int = 0) -> list[str]:
    out = []
    for s in symbols:
        out.append("  " * depth + f"{s.name} [{s.kind}] {s.detail}".rstrip())
        out.extend(outline(s.children, depth + 1))
    return out


def test_symbols_grouped_by_construct_path(tmp_path):
    fw = build(tmp_path, project(), open=[DEV])
    snap, uri = fw.snapshot(), fw.uri(DEV)
    grouped = document_symbols(snap, uri, group_by_construct_path=True)
    assert [line for line in outline(grouped) if not line.lstrip().startswith(("bucket", "name", "value"))] == [
        "Logs [Namespace] dev/Logs",
        '  resource "aws_s3_bucket" "Logs_Bucket_83BEA1D6" [Class] dev/Logs/Bucket',
        '  resource "aws_s3_bucket_policy" "Logs_Policy_0A1B2C3D" [Class] dev/Logs/Policy',
        "Net [Namespace] dev/Net",
        "  Vpc [Namespace] dev/Net/Vpc",
        '    resource "aws_iam_role" "Net_Vpc_Role_5F1A2B3C" [Class] dev/Net/Vpc/Role',
        'resource "aws_sns_topic" "Topic" [Class] dev/Topic',
        'output "bucket" [Property]',
    ]
    logs = grouped[0]
    first, policy = logs.children
    assert (logs.start, logs.end) == (first.start, policy.end)
    assert (logs.selection_start, logs.selection_end) == (first.selection_start, first.selection_end)
    # Off by default: the symbols as they always were.
    state = snap.document(uri)
    assert document_symbols(snap, uri) == symbols_in(state.analysis.body)


def test_the_setting_reaches_document_symbols_through_the_server(tmp_path):
    fw = build(tmp_path, project(), open=[])
    server = create_server()
    sent: list[dict] = []

    class Wire:
        def write(self, data: bytes) -> None:
            sent.append(json.loads(data.split(b"\r\n\r\n", 1)[1]))

        def close(self) -> None:
            pass

    server.protocol.set_writer(Wire())

    loop = asyncio.new_event_loop()  # documentSymbol is a coroutine (cancellable): it runs on a loop

    def send(method: str, params: dict, msg_id: int | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params, **({"id": msg_id} if msg_id else {})}
        asyncio.set_event_loop(loop)
        try:
            server.protocol.handle_message(json.loads(json.dumps(message), object_hook=server.protocol.structure_message))
            for _ in range(5):
                loop.run_until_complete(asyncio.sleep(0))
        finally:
            asyncio.set_event_loop(None)

    uri = fw.uri(DEV)
    send("initialize", {"capabilities": {"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}},
                        "initializationOptions": {"symbols": {"groupByConstructPath": True}}}, 1)
    send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": fw.fixture.files[DEV].text}})
    send("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, 2)
    (answer,) = [m for m in sent if m.get("id") == 2]
    assert [(s["name"], s["kind"]) for s in answer["result"]][:2] == [("Logs", 3), ("Net", 3)]  # 3: Namespace
    loop.close()


# ---- workspace symbols -------------------------------------------------------------------------------------------


def test_workspace_symbols_match_construct_paths(tmp_path):
    fw = build(tmp_path, project(), open=[DEV])
    for _ in fw.workspace.scan():  # as the server does in the background: prod is read from disk
        pass
    snap = fw.snapshot()
    path_of = {u: p for p, u in fw.uris.items()}
    got = navigation.workspace_symbols(snap, "Logs/Bucket")
    assert sorted((s.name, path_of[s.uri]) for s in got) == [
        ("dev/Logs/Bucket (aws_s3_bucket.Logs_Bucket_83BEA1D6)", DEV),
        ("prod/Logs/Bucket (aws_s3_bucket.Logs_Bucket_83BEA1D6)", PROD),
    ]
    text = fw.fixture.files[DEV].text
    dev = next(s for s in got if s.uri == fw.uri(DEV))
    assert text[dev.start : dev.end] == '"Logs_Bucket_83BEA1D6"'
    # A query the Terraform name matches keeps the Terraform name.
    assert {s.name for s in navigation.workspace_symbols(snap, "Logs_Bucket")} == {"aws_s3_bucket.Logs_Bucket_83BEA1D6"}
    assert navigation.workspace_symbols(snap, "Net/Vpc/Role")[0].name.startswith(("dev/Net/Vpc/Role", "prod/Net/Vpc/Role"))
