"""Hostile `providerSchemas.files` (issue 22 §5, issue 23): a device (`/dev/zero`, `/dev/stdin`), a
symbolic link to one or a FIFO is refused without being read, and never blocks the server (schema
files are read off the event loop); a file over `providerSchemas.maxFileSizeMB` is refused; a schema
document of the wrong shape is refused as a whole with one warning naming the file and the place
inside it (no false "Invalid resource type" or "Unsupported argument"); the setting given as one
string is a list of that one path. Each refusal is one warning (`window/showMessage`)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from hcljson_ls.lsp.config import DEFAULT, settings_from
from hcljson_ls.terraform.schemas.provider_schema import BUILTIN_TERRAFORM
from hcljson_ls.workspace.files import MB
from hcljson_ls.workspace.schema_fetch import LOCK_FILE, cache_key
from hcljson_ls.workspace.schemas import SCHEMA_MAX_BYTES, load_schema_file

from .conftest import still_right
from .wire import Wire

AWS = "registry.terraform.io/hashicorp/aws"


def schema_document(resource_schemas: object = None, attributes: object = None) -> dict:
    """A small `providers schema -json` document: `aws_instance` with the attributes `ami` and `id`."""
    if attributes is None:
        attributes = {"ami": {"type": "string", "optional": True}, "id": {"type": "string", "computed": True}}
    if resource_schemas is None:
        resource_schemas = {"aws_instance": {"version": 1, "block": {"attributes": attributes}}}
    return {"format_version": "1.0", "provider_schemas": {
        AWS: {"provider": {"version": 0, "block": {}}, "resource_schemas": resource_schemas, "data_source_schemas": {}}}}


#: A document with one misspelt argument (`amii`): with the schema, one `schema/unknown-argument`.
DOCUMENT = '{"resource": {"aws_instance": {"web": {"ami": "ami-1", "amii": "x"}}}}\n'


def _soon(fn, *args, seconds: float = 10):
    """`fn(*args)`, which must return within `seconds` (a read that blocks fails the test, not hangs it)."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, f"{fn.__name__}{args} did not return within {seconds} s"
    return out[0]


# -- the loader ---------------------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    path = tmp_path / "schema.fifo.json"
    os.mkfifo(path)
    return path


def test_devices_fifos_and_links_to_them_are_refused_unread(tmp_path: Path, fifo: Path):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    for path in ("/dev/zero", str(link), str(fifo), "/dev/stdin"):
        schemas, problems = _soon(load_schema_file, path)
        assert schemas is None, path
        if path == "/dev/stdin" and not os.path.exists(path):
            continue
        kind = "a named pipe" if path == str(fifo) else "a device" if path != "/dev/stdin" else problems[0].rsplit("(", 1)[-1][:-2]
        assert problems == [f"Provider schema file skipped: {path} is not a regular file ({kind})."], path


def test_a_lock_file_that_is_a_fifo_or_a_device_does_not_block_the_fetch(tmp_path: Path, fifo: Path):
    for i, target in enumerate((str(fifo), "/dev/zero")):
        module = tmp_path / f"m{i}"
        module.mkdir()
        (module / LOCK_FILE).symlink_to(target)
        twin = tmp_path / f"twin{i}"
        twin.mkdir()
        # Keyed by its path, as a module without a lock file is (no read of the FIFO or the device).
        assert _soon(cache_key, str(module), "terraform") != _soon(cache_key, str(twin), "terraform")
        (twin / LOCK_FILE).write_text("")
        assert cache_key(str(twin), "terraform") != cache_key(str(module), "terraform")


def test_a_file_over_the_limit_is_refused(tmp_path: Path):
    assert SCHEMA_MAX_BYTES == 512 * MB
    path = tmp_path / "big.json"
    path.write_text(json.dumps(schema_document()) + " " * (2 * MB), encoding="utf-8")
    schemas, problems = load_schema_file(str(path), max_bytes=MB)
    assert schemas is None
    assert problems == [f"Provider schema file skipped: {path} is 2.0 MB, larger than the limit of 1 MB "
                        "(setting providerSchemas.maxFileSizeMB)."]
    assert load_schema_file(str(path), max_bytes=3 * MB)[0] is not None


MISFITS = [
    ({"provider_schemas": 5}, "provider_schemas: expected an object, got the number 5"),
    (schema_document(resource_schemas="oops"),
     f'provider_schemas["{AWS}"].resource_schemas: expected an object, got the string "oops"'),
    (schema_document(attributes={"ami": "string"}),
     f'provider_schemas["{AWS}"].resource_schemas["aws_instance"].block.attributes["ami"]: expected an object, '
     'got the string "string"'),
    (schema_document(attributes={"ami": {"type": 5}}),
     f'provider_schemas["{AWS}"].resource_schemas["aws_instance"].block.attributes["ami"].type: expected a type '
     "(or a nested_type), got the number 5"),
    (schema_document(resource_schemas={"aws_instance": {"block": {"block_types": {"ebs": {"nesting_mode": "bag"}}}}}),
     f'provider_schemas["{AWS}"].resource_schemas["aws_instance"].block.block_types["ebs"].nesting_mode: expected '
     'single, list, set, map or group, got the string "bag"'),
    (schema_document(attributes={"ami": {"type": "string", "optional": "yes"}}),
     f'provider_schemas["{AWS}"].resource_schemas["aws_instance"].block.attributes["ami"].optional: expected true '
     'or false, got the string "yes"'),
]


@pytest.mark.parametrize(("document", "where"), MISFITS, ids=[w.split(":")[0][-40:] for _, w in MISFITS])
def test_a_schema_of_the_wrong_shape_is_refused_naming_the_place(tmp_path: Path, document: dict, where: str):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert load_schema_file(str(path)) == (
        None, [f"Provider schema file skipped: {path} is not a `providers schema -json` document: {where}."])


def test_the_settings_take_one_path_as_a_list_of_one_and_the_size_cap():
    assert settings_from({"providerSchemas": {"files": "schemas/aws.json"}}) == (
        settings_from({"providerSchemas": {"files": ["schemas/aws.json"]}})[0], [])
    settings, problems = settings_from({"providerSchemas": {"files": ["a.json", 7]}})
    assert settings.provider_schemas.files == () and problems == [
        "providerSchemas.files: expected a list of file paths (strings), got ['a.json', 7]"]
    assert DEFAULT.provider_schemas.max_file_size_mb == 512
    assert settings_from({"providerSchemas": {"maxFileSizeMB": 20}})[0].provider_schemas.max_file_size_mb == 20
    assert settings_from({"providerSchemas": {"maxFileSizeMB": 0}})[1] == [
        "providerSchemas.maxFileSizeMB: expected a number from 1 to 4096, got 0"]


# -- the real server ----------------------------------------------------------------------------


def _warnings(wire: Wire) -> list[str]:
    return [m["params"]["message"] for m in list(wire.received)
            if m.get("method") == "window/showMessage" and m["params"]["type"] == 2]


def _codes_once_schemas_arrive(wire: Wire, uri: str, want: list[str], timeout: float = 60) -> None:
    """Wait for a publication of `uri`'s diagnostics whose codes are `want` (schema files arrive in
    the background: the first publication may come before them)."""
    wire.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
              and [d["code"] for d in m["params"]["diagnostics"]] == want, timeout, f"diagnostics {want} of {uri}")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    (folder / "schemas").mkdir(parents=True)
    (folder / "main.tf.json").write_text(DOCUMENT, encoding="utf-8")
    (folder / "schemas" / "aws.json").write_text(json.dumps(schema_document()), encoding="utf-8")
    return folder


def test_hostile_schema_files_do_not_stop_the_server(wire: Wire, folder: Path, fifo: Path):
    (folder / "schemas" / "zero.json").symlink_to("/dev/zero")
    os.replace(fifo, folder / "schemas" / "fifo.json")
    hostile = ["schemas/fifo.json", "/dev/stdin", "/dev/zero", "schemas/zero.json"]
    # A relative path resolves against the workspace folder: a repository's own settings can name these.
    wire.initialize(root=str(folder), options={"providerSchemas": {"runTerraform": False,
                                                                    "files": [*hostile, "schemas/aws.json"]}})
    uri = (folder / "main.tf.json").as_uri()
    wire.open(uri, DOCUMENT)
    _codes_once_schemas_arrive(wire, uri, ["schema/unknown-argument"])  # the good file after them is read
    still_right(wire)
    warnings = _warnings(wire)
    for path, kind in ((folder / "schemas" / "fifo.json", "a named pipe"), ("/dev/zero", "a device"),
                       (folder / "schemas" / "zero.json", "a device")):
        assert warnings.count(f"Provider schema file skipped: {path} is not a regular file ({kind}).") == 1, warnings
    assert any(w.startswith("Provider schema file skipped: /dev/stdin ") for w in warnings), warnings


def test_a_schema_over_the_size_setting_is_refused(wire: Wire, folder: Path):
    wire.initialize(root=str(folder), options={"providerSchemas": {"runTerraform": False, "maxFileSizeMB": 1,
                                                                    "files": ["schemas/big.json", "schemas/aws.json"]}})
    (folder / "schemas" / "big.json").write_text(" " * (2 * MB) + "{}", encoding="utf-8")
    uri = (folder / "main.tf.json").as_uri()
    wire.open(uri, DOCUMENT)
    _codes_once_schemas_arrive(wire, uri, ["schema/unknown-argument"])
    assert f"Provider schema file skipped: {folder / 'schemas' / 'big.json'} is 2.0 MB, larger than the limit of 1 MB " \
           "(setting providerSchemas.maxFileSizeMB)." in _warnings(wire)


def test_schemas_of_the_wrong_shape_give_no_false_errors_and_one_warning_each(wire: Wire, folder: Path):
    names = []
    for i, (document, _) in enumerate(MISFITS):
        names.append(f"schemas/bad{i}.json")
        (folder / names[-1]).write_text(json.dumps(document), encoding="utf-8")
    wire.initialize(root=str(folder), options={"providerSchemas": {"runTerraform": False, "files": names}})
    uri = (folder / "main.tf.json").as_uri()
    wire.open(uri, DOCUMENT)
    end = wire.wait(lambda m: m.get("method") == "window/showMessage" and f"bad{len(MISFITS) - 1}.json" in m["params"]["message"],
                    60, "the warning about the last file")
    assert end
    still_right(wire)
    # No schema: nothing about the resource (no "Invalid resource type", no "Unsupported argument").
    for published in wire.published(uri):
        assert published["diagnostics"] == [], published
    warnings = _warnings(wire)
    for name, (_, where) in zip(names, MISFITS):
        assert warnings.count(f"Provider schema file skipped: {folder / name} is not a \"providers schema -json\" "
                              f"document: {where}.") == 1, (name, warnings)


def test_the_files_setting_given_as_one_string_is_one_file(wire: Wire, folder: Path):
    wire.initialize(root=str(folder), options={"providerSchemas": {"runTerraform": False, "files": "schemas/aws.json"}})
    uri = (folder / "main.tf.json").as_uri()
    wire.open(uri, DOCUMENT)
    _codes_once_schemas_arrive(wire, uri, ["schema/unknown-argument"])
    assert _warnings(wire) == []


async def test_a_schema_file_read_that_outlasts_the_timeout_is_given_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A read that never ends (a hung network file system) stops nothing: the event loop goes on while
    it runs, and after `providerSchemas.timeoutSeconds` the file is given up with one warning."""
    import asyncio
    import dataclasses
    import time

    from hcljson_ls.lsp import schema_jobs
    from hcljson_ls.lsp.server import create_server

    server = create_server()
    settings = DEFAULT.provider_schemas
    server.settings = dataclasses.replace(DEFAULT, provider_schemas=dataclasses.replace(settings, timeout_seconds=1))
    shown: list[str] = []
    monkeypatch.setattr(server, "window_show_message", lambda params: shown.append(params.message))
    release = threading.Event()

    def hangs(path: str, max_bytes: int):
        release.wait(60)
        return None, []

    monkeypatch.setattr(schema_jobs, "load_schema_file", hangs)
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema_document()), encoding="utf-8")
    server.store.set_schema_files([str(path)])
    try:
        started = time.monotonic()
        # not there yet (the read runs elsewhere): the module sees only the built-in provider
        assert server.store.provider_schemas(str(tmp_path)).providers() == (BUILTIN_TERRAFORM,)
        ticks = 0
        while not shown and time.monotonic() - started < 30:
            await asyncio.sleep(0.05)
            ticks += 1
        assert shown == [f"Provider schema file skipped: reading {path} took longer than 1 second "
                         "(setting providerSchemas.timeoutSeconds)."]
        assert ticks >= 10  # the loop ran all along
        assert server.store.provider_schemas(str(tmp_path)).providers() == (BUILTIN_TERRAFORM,)
    finally:
        release.set()
