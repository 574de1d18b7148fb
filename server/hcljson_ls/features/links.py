"""Document links: where the things a configuration file names are documented or live.

    document_links(snapshot, uri) -> list[Link]
    docs_link_at(snapshot, uri, offset) -> Link | None         the documentation link hover adds
    lock_versions(directory) -> {provider address: version}     the module's `.terraform.lock.hcl`
    type_doc(snapshot, uri, block) -> str | None                the registry page of a resource or data type
    module_source_file(snapshot, uri, offset) -> str | None     definition of a module call's `source`

Contract
--------
* Per top-level block (`DocumentState.analysis`): its block type key links to the language page of
  that block type for the module's engine (`terraform.docs.language_doc`; in JSON one key holds
  many blocks: one link per key); the type label of a `resource`, `data` or `ephemeral` block, and
  the name label of a `provider` block, link to the provider's registry documentation, at the
  version the module's lock file pins for that provider, else `latest`; a `module` block's literal
  `source` links to the module: a local path (`./net`) to the first configuration file of that
  directory (by name; nothing when there is none), a registry, git or http source per
  `terraform.docs.module_source_doc` (with the block's literal `version`).
* A link's range is the key string or the string value, inside its quotes.
* The lock file is read from disk (never more than 1 MB, never a non-regular file), parsed once per
  change of its size or modification time. A missing or broken lock file pins nothing.
* `module_source_file`: on a module call's literal `source` value (quotes included), the URI of the
  first configuration file of the directory of the module it calls (`Snapshot.module_call_child`: a
  local path, or a registry or git module `terraform init` installed), for "go to definition".
* Never raises on odd input; a document that is not ours has no links.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..hcljson.model import Block
from ..hcljson.values import string_text
from ..terraform.definition import docs
from ..terraform.definition.catalogue import CONFIG_JSON_SUFFIXES, CONFIG_NATIVE_SUFFIXES
from ..terraform.nativehcl.native_values import lock_versions as parse_lock
from ..terraform.schemas.provider_lookup import block_address
from ..terraform.schemas.provider_schema import normalize_address
from ..workspace import Snapshot
from ..workspace.files import list_directory, path_of_uri, read_bytes, uri_of_path

LOCK_FILE = ".terraform.lock.hcl"
_MAX_LOCK_BYTES = 1024 * 1024
_KIND_DOCS = {"resource": "resources", "data": "data-sources", "ephemeral": "ephemeral-resources"}


@dataclass(frozen=True, slots=True)
class Link:
    start: int
    end: int
    target: str
    tooltip: str


_lock_cache: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}


def lock_versions(directory: str) -> dict[str, str]:
    path = os.path.join(directory, LOCK_FILE)
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return {}
    stamp = (st.st_mtime_ns, st.st_size)
    cached = _lock_cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    read = read_bytes(path, _MAX_LOCK_BYTES, limit_words="limit for a lock file")
    versions = parse_lock(read.data.decode("utf-8", "replace")) if read.data is not None else {}
    _lock_cache[path] = (stamp, versions)
    return versions


def _inside(start: int, end: int) -> tuple[int, int]:
    return start + 1, max(start + 1, end - 1)


def _module_directory(snapshot: Snapshot, uri: str) -> str | None:
    key = snapshot.module_key(uri)
    return key if os.path.isabs(key) else None


def _versions(snapshot: Snapshot, uri: str) -> dict[str, str]:
    directory = _module_directory(snapshot, uri)
    return lock_versions(directory) if directory is not None else {}


def type_doc(snapshot: Snapshot, uri: str, block: Block, text: str | None = None) -> str | None:
    """The registry page of the type of `resource`/`data`/`ephemeral` `block` of `uri`."""
    kind = _KIND_DOCS.get(block.type_name)
    if kind is None or len(block.labels) < 2:
        return None
    text = snapshot.text_of(uri) if text is None else text
    address = block_address(block, text, snapshot.required_providers(uri), snapshot.engine(uri))
    if address is None:
        return None
    return docs.provider_doc(address, _versions(snapshot, uri).get(address), kind, block.labels[0].value)


def _provider_doc(snapshot: Snapshot, uri: str, local_name: str) -> str | None:
    source = snapshot.required_providers(uri).get(local_name) or f"hashicorp/{local_name}"
    try:
        address = normalize_address(source, snapshot.engine(uri))
    except ValueError:
        return None
    return docs.provider_doc(address, _versions(snapshot, uri).get(address))


def _string(text: str, block: Block, name: str) -> tuple[str, int, int] | None:
    attr = block.body.attribute(name)
    if attr is None or attr.expr is None or attr.expr.kind != "string":
        return None
    value = string_text(text, attr.expr.node, attr.expr.start)
    return (value, attr.expr.start, attr.expr.end) if "${" not in value and "%{" not in value else None


def _first_config_file(directory: str) -> str | None:
    suffixes = CONFIG_JSON_SUFFIXES + CONFIG_NATIVE_SUFFIXES
    for name in list_directory(directory).files:
        if name.endswith(suffixes):
            return os.path.join(directory, name)
    return None


def _module_link(snapshot: Snapshot, uri: str, text: str, block: Block) -> Link | None:
    found = _string(text, block, "source")
    if found is None:
        return None
    source, start, end = found
    if source.startswith(("./", "../")):
        here = _module_directory(snapshot, uri)
        first = _first_config_file(os.path.normpath(os.path.join(here, source))) if here is not None else None
        return Link(*_inside(start, end), uri_of_path(first), f"Open the module in {source}") if first else None
    version = _string(text, block, "version")
    target = docs.module_source_doc(source, version[0] if version else None)
    return Link(*_inside(start, end), target, "The module's page") if target else None


def _block_links(snapshot: Snapshot, uri: str, text: str, block: Block, opentofu: bool) -> list[Link]:
    out: list[Link] = []
    page = docs.language_doc(block.type_name, opentofu)
    if page is not None:
        out.append(Link(*_inside(block.type_start, block.type_end), page, f"Documentation of `{block.type_name}` blocks"))
    link: Link | None = None
    if block.type_name in _KIND_DOCS and len(block.labels) == 2:
        target = type_doc(snapshot, uri, block, text)
        lab = block.labels[0]
        link = Link(*_inside(lab.start, lab.end), target, f"Documentation of {lab.value}") if target else None
    elif block.type_name == "provider" and block.labels:
        target = _provider_doc(snapshot, uri, block.labels[0].value)
        lab = block.labels[0]
        link = Link(*_inside(lab.start, lab.end), target, f"Documentation of the {lab.value} provider") if target else None
    elif block.type_name == "module":
        link = _module_link(snapshot, uri, text, block)
    return out + ([link] if link is not None else [])


def document_links(snapshot: Snapshot, uri: str) -> list[Link]:
    state = snapshot.document(uri)
    if state is None or path_of_uri(uri) is None:
        return []
    text = state.text
    opentofu = snapshot.engine(uri) == "opentofu"
    out: dict[tuple[int, int], Link] = {}
    for block in state.analysis.body.blocks:
        for link in _block_links(snapshot, uri, text, block, opentofu):
            out.setdefault((link.start, link.end), link)
    return sorted(out.values(), key=lambda x: x.start)


def docs_link_at(snapshot: Snapshot, uri: str, offset: int) -> Link | None:
    """The documentation link (not a local module's file) whose key or string, quotes included,
    holds `offset`; only the top-level blocks around `offset` are read."""
    state = snapshot.document(uri)
    if state is None or path_of_uri(uri) is None:
        return None
    opentofu = snapshot.engine(uri) == "opentofu"
    for block in state.analysis.body.blocks_at(offset):
        for link in _block_links(snapshot, uri, state.text, block, opentofu):
            if link.start - 1 <= offset <= link.end and link.target.startswith("https://"):
                return link
    return None


def module_source_file(snapshot: Snapshot, uri: str, offset: int) -> str | None:
    """The URI of the first configuration file of the module that the module call whose literal
    `source` holds `offset` calls, or None (see the module doc)."""
    state = snapshot.document(uri)
    if state is None or path_of_uri(uri) is None:
        return None
    for block in state.analysis.body.blocks_at(offset):
        if block.type_name != "module" or not block.labels:
            continue
        found = _string(state.text, block, "source")
        if found is None or not found[1] <= offset <= found[2]:
            continue
        directory = snapshot.module_call_child(uri, block.labels[0].value)
        first = _first_config_file(directory) if directory is not None else None
        return uri_of_path(first) if first else None
    return None
