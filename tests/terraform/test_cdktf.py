"""CDKTF metadata, stack traces and source maps (`terraform.cdktf`, pure), and resolving frames in a
real project directory (`workspace.cdktf`); the real corpus's CDKTF files are read whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import shared_data
from tf_support import diagnostics

from hcljson_ls.terraform.filekinds.cdktf import (
    ConstructMetadata,
    Frame,
    NoUserFrame,
    OriginalPosition,
    data_url_text,
    is_user_code,
    metadata_of,
    original_position,
    parse_frame,
    parse_source_map,
    path_parts,
    source_map_reference,
    user_frame,
)
from hcljson_ls.workspace.cdktf import construct_source, frame_source, project_directory, resolve_in_project

TSC = Path(__file__).parent / "cdktf_tsc"  # a real tsc build: see its README.md
#: The stack trace Node printed for `new S3Bucket(...)` in main.ts, as CDKTF records it.
TRACE = tuple(json.loads((TSC / "stack-trace.json").read_text(encoding="utf-8")))


# ---- metadata -----------------------------------------------------------------------------------------


def _blocks(text: str):
    body, _ = diagnostics(text, "cdk.tf.json")
    return body.blocks


def test_metadata_is_read_from_a_block_body() -> None:
    text = json.dumps({"resource": {"aws_s3_bucket": {"Logs_Bucket_1A2B": {
        "//": {"metadata": {"path": "dev/Logs/Bucket", "uniqueId": "Logs_Bucket_1A2B", "stackTrace": ["a (/x/m.js:1:2)", 7]}},
        "bucket": "b"}}}})
    (block,) = _blocks(text)
    assert metadata_of(text, block.body) == ConstructMetadata("dev/Logs/Bucket", "Logs_Bucket_1A2B", ("a (/x/m.js:1:2)",))


def test_metadata_in_the_array_form_and_its_absence() -> None:
    text = json.dumps({
        "resource": {"null_resource": {"a": [{"triggers": {}}, {"//": {"metadata": {"path": "s/a", "uniqueId": "a"}}}]}},
        "data": {"aws_region": {"r": {"//": "just a comment"}}},
        "module": {"m": {"//": {"metadata": {"uniqueId": "m"}}, "source": "./m"}},
    })
    found = [metadata_of(text, b.body) for b in _blocks(text)]
    assert ConstructMetadata("s/a", "a") in found
    assert found[-2:] == [None, None]  # a plain comment; metadata without a path


# ---- stack traces -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "frame"), [
    ("new MyStack (/home/alice/app/main.js:30:9)", Frame("new MyStack", "/home/alice/app/main.js", 30, 9)),
    ("    at new MyStack (/home/alice/app/main.js:30:9)", Frame("new MyStack", "/home/alice/app/main.js", 30, 9)),
    ("at /home/alice/app/main.js:128:1", Frame("", "/home/alice/app/main.js", 128, 1)),
    ("/home/alice/app/main.js:128:1", Frame("", "/home/alice/app/main.js", 128, 1)),
    ("new CdktfStack (C:\\X\\cdktf-ts-aws\\main.js:13:22)", Frame("new CdktfStack", "C:\\X\\cdktf-ts-aws\\main.js", 13, 22)),
    ("at C:\\X\\app\\main.js:173:1", Frame("", "C:\\X\\app\\main.js", 173, 1)),
    ("at Object.<anonymous> (C:\\Program Files (x86)\\app\\main.js:2:3)",
     Frame("Object.<anonymous>", "C:\\Program Files (x86)\\app\\main.js", 2, 3)),
    ("Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:79:12)",
     Frame("Function.executeUserEntryPoint [as runMain]", "node:internal/modules/run_main", 79, 12)),
    ("internal/main/run_main_module.js:17:47", Frame("", "internal/main/run_main_module.js", 17, 47)),
    ("at file:///home/alice/my%20app/main.mjs:4:5", Frame("", "/home/alice/my app/main.mjs", 4, 5)),
    ("at Logs (file:///C:/app/main.mjs:4:5)", Frame("Logs", "C:/app/main.mjs", 4, 5)),
    ("new Promise (<anonymous>)", None),
    ("async Promise.all (index 0)", None),
    ("", None),
])
def test_frames_in_both_formats_posix_and_windows(line: str, frame: Frame | None) -> None:
    assert parse_frame(line) == frame


@pytest.mark.parametrize(("path", "user"), [
    ("/home/alice/app/main.js", True),
    ("C:\\X\\app\\src\\stack.js", True),
    ("\\\\server\\share\\app\\main.js", True),
    ("/home/alice/app/node_modules/cdktf/lib/terraform-element.js", False),
    ("C:\\X\\app\\node_modules\\cdktf\\lib\\terraform-resource.js", False),
    ("C:\\X\\app\\.gen\\providers\\aws\\iam-role.js", False),
    ("node:internal/modules/cjs/loader", False),
    ("internal/modules/cjs/loader.js", False),
    ("module.js", False),  # Node 8's internals
])
def test_user_code_is_absolute_and_outside_libraries(path: str, user: bool) -> None:
    assert is_user_code(path) is user


def test_the_user_frame_is_the_first_one_of_the_users_code() -> None:
    assert user_frame(TRACE) == Frame("new Logs", "/tmp/tsgen/proj/main.js", 9, 9)
    windows = [
        "new TerraformElement (C:\\u\\app\\node_modules\\cdktf\\lib\\terraform-element.js:19:28)",
        "new IamRole (C:\\u\\app\\.gen\\providers\\aws\\iam-role.js:13:9)",
        "Module._compile (internal/modules/cjs/loader.js:1063:30)",
        "new CdktfStack (C:\\u\\app\\main.js:13:22)",
        "Object.<anonymous> (C:\\u\\app\\main.js:173:1)",
    ]
    assert user_frame(windows) == Frame("new CdktfStack", "C:\\u\\app\\main.js", 13, 22)


def test_no_user_frame_says_why() -> None:
    assert isinstance(user_frame(()), NoUserFrame)
    assert "file location" in user_frame(["new Promise (<anonymous>)"]).reason  # type: ignore[union-attr]
    only_libraries = user_frame(["a (/u/app/node_modules/x.js:1:1)", "b (node:internal/x:1:1)"])
    assert isinstance(only_libraries, NoUserFrame) and "node_modules" in only_libraries.reason


def test_path_parts() -> None:
    assert path_parts("C:\\u\\app\\src\\main.js") == ("u", "app", "src", "main.js")
    assert path_parts("/home/a/./app//lib/../main.js") == ("home", "a", "app", "main.js")
    assert path_parts("\\\\host\\share\\main.js") == ("host", "share", "main.js")


# ---- source maps ------------------------------------------------------------------------------------------


def test_a_real_tsc_map_maps_the_frame_back_to_typescript() -> None:
    source_map = parse_source_map((TSC / "main.js.map").read_text(encoding="utf-8"))
    assert source_map is not None and source_map.sources == ("main.ts",)
    ts = (TSC / "main.ts").read_text(encoding="utf-8").split("\n")
    # main.js:9:9 `new s3_bucket_1.S3Bucket(` <- main.ts:8:5 `new S3Bucket(`; 0-based both sides.
    assert original_position(source_map, 8, 8) == OriginalPosition("main.ts", 7, 4)
    assert ts[7][4:].startswith("new S3Bucket(")
    # main.js:17:9 `new Logs(` and main.js:21:1 `new MyStack(app, "dev")`
    assert original_position(source_map, 16, 8) == OriginalPosition("main.ts", 16, 4)
    assert original_position(source_map, 20, 0) == OriginalPosition("main.ts", 21, 0)
    assert ts[21].startswith('new MyStack(app, "dev")')
    # Between segments: the segment at or before the column. Past the mapped lines: nothing.
    assert original_position(source_map, 8, 12).line == 7  # type: ignore[union-attr]
    assert original_position(source_map, 0, 0) is None  # "use strict" maps nowhere
    assert original_position(source_map, 500, 0) is None


def test_the_inline_map_of_cdktfs_default_tsconfig() -> None:
    js = (TSC / "main.inline.js").read_text(encoding="utf-8")
    url = source_map_reference(js)
    assert url is not None and url.startswith("data:application/json;base64,")
    text = data_url_text(url)
    assert text is not None and json.loads(text)["sourcesContent"][0] == (TSC / "main.ts").read_text(encoding="utf-8")
    assert original_position(parse_source_map(text), 8, 8).line == 7  # type: ignore[arg-type, union-attr]


def test_source_map_odds_and_ends() -> None:
    assert source_map_reference("x();\n//# sourceMappingURL=a.js.map\n//# sourceMappingURL=b.js.map\n") == "b.js.map"
    assert source_map_reference('x = "//# sourceMappingURL=no.map";') is None
    assert data_url_text("data:application/json,%7B%7D") == "{}"
    assert data_url_text("main.js.map") is None
    assert parse_source_map("not json") is None
    assert parse_source_map('{"version": 3, "sources": ["a.ts"], "mappings": "!!"}') is None
    assert parse_source_map('{"version": 3, "sections": []}') is None  # index maps are not read
    rooted = parse_source_map(')]}\'\n{"version": 3, "sourceRoot": "src/", "sources": ["a.ts"], "mappings": "AAAA;ACCA"}')
    assert rooted is not None and rooted.sources == ("src/a.ts",)
    # "ACCA": column +0, source +1 (out of range: dropped), line +1, column +0.
    assert original_position(rooted, 0, 0) == OriginalPosition("src/a.ts", 0, 0)
    assert original_position(rooted, 1, 0) is None


# ---- frames to files of the project (a real directory) ------------------------------------------------


def _project(root: Path) -> Path:
    (root / "cdktf.json").write_text('{"language": "typescript", "app": "npx ts-node main.ts"}', encoding="utf-8")
    for name in ("main.ts", "main.js", "main.js.map"):
        (root / name).write_bytes((TSC / name).read_bytes())
    stack = root / "cdktf.out" / "stacks" / "dev"
    stack.mkdir(parents=True)
    (stack / "cdk.tf.json").write_text("{}", encoding="utf-8")
    return stack / "cdk.tf.json"


def test_project_directory_walks_up_to_cdktf_json(tmp_path: Path) -> None:
    output = _project(tmp_path)
    assert project_directory(str(output)) == str(tmp_path)
    assert project_directory(str(tmp_path.parent / "elsewhere" / "cdk.tf.json")) is None


def test_the_longest_path_suffix_wins(tmp_path: Path) -> None:
    (tmp_path / "src" / "stacks").mkdir(parents=True)
    (tmp_path / "src" / "stacks" / "logs.js").write_text("deep", encoding="utf-8")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "logs.js").write_text("shallow", encoding="utf-8")
    (tmp_path / "logs.js").write_text("top", encoding="utf-8")
    assert resolve_in_project(str(tmp_path), "C:\\ci\\build\\src\\stacks\\logs.js").text == "deep"  # type: ignore[union-attr]
    assert resolve_in_project(str(tmp_path), "/ci/build/lib/stacks/logs.js").text == "shallow"  # type: ignore[union-attr]
    assert resolve_in_project(str(tmp_path), "/ci/other/logs.js").text == "top"  # type: ignore[union-attr]
    assert resolve_in_project(str(tmp_path), "/ci/build/missing.js") is None


def test_a_frame_lands_on_the_typescript_line(tmp_path: Path) -> None:
    output = _project(tmp_path)
    found = construct_source(str(output), TRACE)
    assert found is not None and found.mapped
    assert (found.path, found.line, found.column) == (str(tmp_path / "main.ts"), 7, 4)
    # Without the map: the script's own line and column.
    (tmp_path / "main.js.map").unlink()
    (tmp_path / "main.js").write_text((TSC / "main.js").read_text(encoding="utf-8").replace("//# sourceMappingURL=main.js.map", ""), encoding="utf-8")
    plain = frame_source(str(tmp_path), Frame("new Logs", "C:\\synth\\proj\\main.js", 9, 9))
    assert plain is not None and not plain.mapped and (Path(plain.path).name, plain.line, plain.column) == ("main.js", 8, 8)


def test_an_inline_map_and_an_absolute_source(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "main.js.map").unlink()
    (tmp_path / "main.js").write_bytes((TSC / "main.inline.js").read_bytes())
    found = frame_source(str(tmp_path), Frame("new Logs", "/synth/proj/main.js", 9, 9))
    assert found is not None and found.mapped and (Path(found.path).name, found.line) == ("main.ts", 7)
    # A map naming its source by the synth machine's absolute path: found in the project by suffix.
    source_map = json.loads((TSC / "main.js.map").read_text(encoding="utf-8"))
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "main.js").write_bytes((TSC / "main.js").read_bytes())
    (tmp_path / "lib" / "main.js.map").write_text(json.dumps({**source_map, "sources": ["C:\\synth\\proj\\main.ts"]}), encoding="utf-8")
    found = frame_source(str(tmp_path), Frame("new Logs", "/synth/proj/lib/main.js", 9, 9))
    assert found is not None and found.mapped and (found.path, found.line) == (str(tmp_path / "main.ts"), 7)


# ---- the real corpus ----------------------------------------------------------------------------------------


def _cdktf_files() -> list[str]:
    names = sorted(p.name for p in shared_data.REAL_CORPUS.iterdir() if p.name.endswith(".tf.json"))
    return [n for n in names if '"stackName"' in (shared_data.REAL_CORPUS / n).read_text(encoding="utf-8", errors="replace")]


#: Why a corpus block's stack trace has no user frame, when it has none: the only documented reason.
NO_TRACE = "the block has no stack trace"


@pytest.mark.parametrize("name", shared_data.params(_cdktf_files, shared_data.REAL_SOURCES))
def test_corpus_cdktf_metadata_and_stack_traces(name: str) -> None:
    text = (shared_data.REAL_CORPUS / name).read_text(encoding="utf-8")
    raw = _loads(text)
    expected = {(kind, *labels): (body.get("//") or {}).get("metadata")
                for kind, labels, body in _raw_blocks(raw) if isinstance(body, dict) and "//" in body}
    read: dict[tuple, ConstructMetadata | None] = {}
    for block in _blocks(text):
        read[(block.type_name, *block.label_values)] = metadata_of(text, block.body)
    for key, metadata in expected.items():
        got = read[key]
        if not isinstance(metadata, dict):
            assert got is None, key  # a plain "//" comment
            continue
        assert got is not None, key
        assert (got.path, got.unique_id, got.stack_trace) == (metadata["path"], metadata["uniqueId"], tuple(metadata.get("stackTrace", ())))
        frame = user_frame(got.stack_trace)
        if isinstance(frame, NoUserFrame):
            assert frame.reason.startswith(NO_TRACE), (key, frame.reason)
        else:
            assert is_user_code(frame.path) and Path(frame.path.replace("\\", "/")).name == "main.js"


def _loads(text: str):
    """The JSON of `text`; Wing's snapshots in the corpus have trailing commas, dropped first."""
    try:
        return json.loads(text)
    except ValueError:
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", text))


def _raw_blocks(raw: dict):
    for kind in ("resource", "data"):
        for type_name, named in (raw.get(kind) or {}).items():
            for name, body in named.items():
                yield kind, (type_name, name), body
    for name, body in (raw.get("module") or {}).items():
        yield "module", (name,), body


def test_the_corpus_has_cdktf_files_with_stack_traces() -> None:
    shared_data.require(shared_data.REAL_SOURCES)
    names = _cdktf_files()
    traced = [n for n in names if '"stackTrace"' in (shared_data.REAL_CORPUS / n).read_text(encoding="utf-8")]
    assert len(names) >= 20 and len(traced) >= 2
    blocks = sum(1 for n in names for _, _, body in _raw_blocks(_loads((shared_data.REAL_CORPUS / n).read_text(encoding="utf-8")))
                 if isinstance(body, dict) and isinstance((body.get("//") or {}).get("metadata"), dict))
    assert blocks >= 240  # resources, data sources and module calls with construct metadata
