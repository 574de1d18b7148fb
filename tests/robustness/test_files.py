"""Files the server cannot or must not analyse: documents and files on disk over `maxFileSizeMB`,
invalid UTF-8, a symlink loop and an unreadable file in the workspace folder during the background
scan. Each is reported once (a diagnostic for an open document, a log line for a file on disk) and
the server is still right afterwards (`still_right`)."""

from __future__ import annotations

import ctypes
import os
import shutil
import time
from pathlib import Path

import pytest

from hcljson_ls.lsp.config import DEFAULT, settings_from
from hcljson_ls.workspace.files import MB, read_text, too_large, utf8_size

from .conftest import OPTIONS, VALID, VALID_HOVER, still_right
from .wire import SERVER, Wire

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"
SLOW = 240


def test_the_setting_is_an_integer_from_1_to_2048_default_40():
    assert DEFAULT.max_file_size_mb == 40
    assert settings_from({"maxFileSizeMB": 5})[0].max_file_size_mb == 5
    for bad in (0, 2049, "10", 1.5):
        settings, problems = settings_from({"maxFileSizeMB": bad})
        assert settings.max_file_size_mb == 40 and problems and problems[0].startswith("maxFileSizeMB: "), (bad, problems)


#: A character of each UTF-8 length and storage width: 1 (ASCII), 2 (stored in 1 byte, then 2), 3 (a
#: lone surrogate too, with ``surrogatepass`` as the size is taken), 4.
WIDTHS = ["a", "\u00e9", "\u0101", "\u20ac", "\ud800", "\U0001f600"]


@pytest.mark.parametrize("n", [1, 4095, 4096, 20_000])
@pytest.mark.parametrize("wide", WIDTHS)
def test_the_size_is_on_the_right_side_of_the_limit(n, wide):
    """`utf8_size` decides over or under as the encoded length does, also where it does not encode (a
    long text: its widest character bounds it), at every limit around each bound and the exact size;
    all of one character (the bound reached), and one among ASCII."""
    for text in (wide * n, "a" * (n - 1) + wide):
        exact = len(text.encode("utf-8", "surrogatepass"))
        for limit in sorted({max(1, b + d) for b in (*(w * n for w in (1, 2, 3, 4)), exact) for d in (-1, 0, 1)}):
            size = utf8_size(text, limit)
            assert (size > limit) == (exact > limit), (limit, size, exact)
            assert (too_large("f", size, limit) is None) == (exact <= limit)


def test_a_string_with_its_utf8_kept_by_cpython_is_still_sized_right():
    """CPython keeps a string's UTF-8 with it once asked for (`PyUnicode_AsUTF8AndSize`): its object
    is larger then, which only weakens the bound `utf8_size` reads from the object's size."""
    as_utf8 = ctypes.pythonapi.PyUnicode_AsUTF8AndSize
    as_utf8.restype, as_utf8.argtypes = ctypes.c_char_p, [ctypes.py_object, ctypes.c_void_p]
    for wide in WIDTHS[1:]:
        text = wide * 20_000
        exact = len(text.encode("utf-8", "surrogatepass"))
        if wide != "\ud800":  # (a lone surrogate has no UTF-8 of its own)
            as_utf8(text, None)
        for limit in (exact - 1, exact, 2 * len(text), 3 * len(text)):
            assert (utf8_size(text, limit) > limit) == (exact > limit), (wide, limit)

def test_a_file_on_disk_over_the_limit_is_not_read(tmp_path: Path):
    path = tmp_path / "big.tf.json"
    path.write_text('{"locals": {"a": "' + "x" * (2 * MB) + '"}}', encoding="utf-8")
    got = read_text(str(path), max_bytes=MB)
    assert got.text is None
    assert got.problem == f"{path} is 2.0 MB, larger than the limit of 1 MB (setting maxFileSizeMB); skipped."
    assert read_text(str(path), max_bytes=3 * MB).text is not None


def _too_large(wire: Wire, uri: str, text: str, limit_mb: int) -> None:
    wire.open(uri, text)
    [diagnostic] = wire.diagnostics(uri, version=1, timeout=SLOW)
    assert diagnostic["code"] == "limit/file-too-large"
    assert diagnostic["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    size = f"{len(text.encode()) / MB:.1f}"
    assert diagnostic["message"] == (
        f"File too large: main.tf.json is {size} MB, larger than the limit of {limit_mb} MB (setting maxFileSizeMB); "
        "it is not analysed. Only its JSON syntax is checked; raise the setting and reopen the file to analyse it."
    )
    # Not analysed: no answers about it, its edits are not analysed, logged once; the diagnostic is
    # left for the new version (the same set is not pushed again: diagnostics are pushed only when
    # they change), and a pull for it answers it.
    assert wire.hover(uri, 0, 3)["result"] is None
    assert wire.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"] is None
    wire.change(uri, 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "["}])
    report = wire.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=SLOW)["result"]
    assert report["kind"] == "full" and report["items"] == [diagnostic], report
    still_right(wire)
    assert [p["version"] for p in wire.published(uri)] == [1]
    assert wire.log().count(f"larger than the limit of {limit_mb} MB") == 1
    # Closing it clears the diagnostic; a smaller version opens as usual.
    wire.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert wire.diagnostics(uri, timeout=SLOW) == []
    wire.open(uri, VALID, version=3)
    assert wire.diagnostics(uri, version=3, timeout=SLOW) == []
    assert 'variable "region"' in wire.hover(uri, *VALID_HOVER)["result"]["contents"]["value"]


def test_a_document_over_the_setting_is_reported_once_and_not_analysed(wire: Wire):
    wire.initialize(options={**OPTIONS, "maxFileSizeMB": 1})
    _too_large(wire, URI, '{"locals": {"a": "' + "é" * (MB // 2) + '"}}', 1)  # 1 MB of characters, 2 MB of UTF-8


def test_an_oversized_document_still_gets_its_first_syntax_error(wire: Wire):
    wire.initialize(options={**OPTIONS, "maxFileSizeMB": 1})
    body = "".join('  "r%d": {"ami": "x"},\n' % i for i in range(60_000))
    text = '{"resource": {"aws_instance": {\n' + body + '  "last": {} "after": 1\n}}}\n'
    wire.open(URI, text)
    found = wire.diagnostics(URI, version=1, timeout=SLOW)
    assert [d["code"] for d in found] == ["limit/file-too-large", "limit/syntax-only"]
    line = text.count("\n", 0, text.index('"after"'))
    assert found[1]["range"]["start"] == {"line": line, "character": len('  "last": {} ')}
    assert found[1]["severity"] == 1 and found[1]["message"].startswith("Invalid JSON: Expecting ',' delimiter")
    still_right(wire)


def test_edits_of_an_oversized_document_get_diagnostics_for_their_version(wire: Wire):
    wire.initialize(options={**OPTIONS, "maxFileSizeMB": 1})
    body = "".join('  "r%d": {"ami": "x"},\n' % i for i in range(60_000))
    text = '{"resource": {"aws_instance": {\n' + body + '  "last": {} "after": 1\n}}}\n'
    wire.open(URI, text)
    warning, syntax = wire.diagnostics(URI, version=1, timeout=SLOW)
    # An incremental edit: the warning stays; the syntax error, whose place is no longer known, goes.
    wire.change(URI, 2, [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": " "}])
    assert wire.diagnostics(URI, version=2, timeout=SLOW) == [warning]
    # The whole text (a client without incremental sync): the syntax error is found again, where it is now.
    fixed = text.replace('{} "after"', '{}, "after"')
    wire.change(URI, 3, [{"text": "\n" + text}])
    assert [d["code"] for d in wire.diagnostics(URI, version=3, timeout=SLOW)] == ["limit/file-too-large", "limit/syntax-only"]
    assert wire.published(URI)[-1]["diagnostics"][1]["range"]["start"]["line"] == syntax["range"]["start"]["line"] + 1
    wire.change(URI, 4, [{"text": fixed}])
    assert wire.diagnostics(URI, version=4, timeout=SLOW) == [warning]
    still_right(wire)


def test_a_50_mb_document_is_over_the_default_limit(wire: Wire):
    wire.initialize(options=OPTIONS)
    line = '  "r%d": {"ami": "ami-0c55b159cbfafe1f0", "instance_type": "t3.micro", "tags": {"Name": "x"}},\n'
    body = "".join(line % i for i in range(50 * MB // len(line) + 1))
    _too_large(wire, URI, '{"resource": {"aws_instance": {\n' + body + '  "last": {}\n}}}\n', 40)


# -- files on disk, during the background scan ---------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    (folder / "sub").mkdir(parents=True)
    (folder / "main.tf.json").write_text(VALID, encoding="utf-8")
    (folder / "bad_utf8.tf.json").write_bytes(b'{"locals": {"a": "\xff\xfe"}}')
    os.symlink("loop.tf.json", folder / "loop.tf.json")  # a symlink to itself
    os.symlink("..", folder / "sub" / "up")  # a directory loop
    (folder / "sub" / "big.tf.json").write_text('{"locals": {"a": "' + "x" * (2 * MB) + '"}}', encoding="utf-8")
    (folder / "sub" / "ok.tf.json").write_text('{"variable": {"zone": {}}}', encoding="utf-8")
    return folder


def _scanned(env: dict[str, str], folder: Path, check, prefix: tuple[str, ...] = ()) -> None:
    with Wire.start(env=env, cwd=str(folder), command=[*prefix, *SERVER, "--log-level", "info"]) as wire:
        wire.initialize(root=str(folder), options={**OPTIONS, "maxFileSizeMB": 1})
        end = time.monotonic() + SLOW
        while "workspace scanned in" not in wire.log():
            assert time.monotonic() < end and wire.alive(), wire.log()[-3000:]
            time.sleep(0.05)
        check(wire)
        # The module's own file still works: its reference resolves and it has no diagnostics.
        uri = (folder / "main.tf.json").as_uri()
        wire.open(uri, VALID)
        assert wire.diagnostics(uri, version=1, timeout=SLOW) == []
        assert 'variable "region"' in wire.hover(uri, *VALID_HOVER)["result"]["contents"]["value"]
        still_right(wire)


def test_invalid_utf8_a_symlink_loop_and_a_big_file_on_disk_are_skipped_and_logged(env: dict[str, str], folder: Path):
    def check(wire: Wire) -> None:
        log = wire.log()
        assert log.count(f"{folder / 'bad_utf8.tf.json'} is not valid UTF-8 (byte 18); skipped.") == 1, log
        assert log.count(f"{folder / 'loop.tf.json'} cannot be read (Too many levels of symbolic links); skipped.") == 1, log
        assert log.count(f"{folder / 'sub' / 'big.tf.json'} is 2.0 MB, larger than the limit of 1 MB") == 1, log
        symbols = wire.request("workspace/symbol", {"query": "zone"})["result"]
        assert [s["name"] for s in symbols] == ["var.zone"], symbols  # the readable file beside them was scanned

    _scanned(env, folder, check)


def test_an_unreadable_file_on_disk_is_skipped_and_logged(env: dict[str, str], folder: Path):
    locked = folder / "locked.tf.json"
    locked.write_text('{"locals": {}}', encoding="utf-8")
    locked.chmod(0)
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        # Root reads a chmod 000 file (CAP_DAC_OVERRIDE): run the server without the two
        # capabilities that bypass file permissions (util-linux's setpriv), as an ordinary user would.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            message = "running as root without setpriv: chmod 000 does not stop root from reading the file"
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
        prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search", "--")
    try:

        def check(wire: Wire) -> None:
            assert wire.log().count(f"{locked} cannot be read (Permission denied); skipped.") == 1, wire.log()

        _scanned(env, folder, check, prefix)
    finally:
        locked.chmod(0o644)
