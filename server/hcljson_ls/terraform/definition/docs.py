"""Where the documentation of a Terraform thing lives: the one place that knows the URLs.

    language_doc(block_type, opentofu=False) -> str | None     a top-level block type's language page
    backend_doc(backend, opentofu=False) -> str | None         a state backend's page
    provider_doc(address, version=None, kind=None, type_name=None) -> str | None
    module_source_doc(source, version=None) -> str | None      a registry, git or http module source
    absolute_links(markdown) -> str                             relative Markdown links dropped

Contract
--------
* Terraform's language pages are under `https://developer.hashicorp.com/terraform/language/`,
  OpenTofu's under `https://opentofu.org/docs/language/`; a block type without a page is None.
* Provider documentation is the public registry's (`registry.terraform.io/providers/<ns>/<name>/
  <version or latest>/docs[/<kind>/<type without the provider prefix>]`), for the providers of the
  public registries (`registry.terraform.io` and OpenTofu's `registry.opentofu.org`, which mirrors
  the same providers); other hosts and the built-in provider have none. `kind` is "resources",
  "data-sources" or "ephemeral-resources".
* A module source: a registry address `ns/name/system` (optionally on a public registry host, and
  with a `//subdirectory`) links to its registry page at `version` when that is one exact version,
  else `latest`; `github.com/...`, `bitbucket.org/...`, `git::https://...`, `git@github.com:...` (GitHub, GitLab, Bitbucket)
  and `https://...` sources link to the repository or archive (no `?ref=`, no `//subdirectory`);
  local paths and other sources (S3, GCS, Mercurial, private registries) are None here.
* `absolute_links` keeps Markdown links whose target is an absolute `http(s)` or `mailto` URL and
  turns the others (relative links of provider schema descriptions, broken outside the registry
  site) into their text.
"""

from __future__ import annotations

import re

TERRAFORM_LANGUAGE = "https://developer.hashicorp.com/terraform/language/"
OPENTOFU_LANGUAGE = "https://opentofu.org/docs/language/"
REGISTRY = "https://registry.terraform.io"
PUBLIC_REGISTRIES = ("registry.terraform.io", "registry.opentofu.org")

#: Block type -> (Terraform page, OpenTofu page); None: no page in that engine's docs.
_LANGUAGE_PAGES: dict[str, tuple[str | None, str | None]] = {
    "resource": ("resources/syntax", "resources/syntax/"),
    "data": ("data-sources", "data-sources/"),
    "ephemeral": ("resources/ephemeral", "ephemerality/ephemeral-resources/"),
    "variable": ("values/variables", "values/variables/"),
    "output": ("values/outputs", "values/outputs/"),
    "locals": ("values/locals", "values/locals/"),
    "module": ("modules/syntax", "modules/syntax/"),
    "provider": ("providers/configuration", "providers/configuration/"),
    "terraform": ("settings", "settings/"),
    "moved": ("modules/develop/refactoring", "modules/develop/refactoring/"),
    "import": ("import", "import/"),
    "removed": ("resources/syntax#removing-resources", "resources/syntax/#removing-resources"),
    "check": ("checks", "checks/"),
}

_EXACT_VERSION = re.compile(r"^\s*=?\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$")
_REGISTRY_SOURCE = re.compile(
    r"^(?:(?P<host>[A-Za-z0-9.-]+\.[A-Za-z]{2,})/)?(?P<ns>[A-Za-z0-9][A-Za-z0-9_-]{0,63})/"
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9_-]{0,63})/(?P<system>[a-z0-9]{1,64})(?://.*)?$"
)
_HOSTED = re.compile(r"^(?P<host>github\.com|bitbucket\.org)/(?P<path>[^?]+?)(?:\.git)?(?://[^?]*)?(?:\?.*)?$")
_SCP_GIT = re.compile(r"^(?:git::)?(?:ssh://)?git@(?P<host>github\.com|gitlab\.com|bitbucket\.org)[:/](?P<path>[^?]+?)(?:\.git)?(?://[^?]*)?(?:\?.*)?$")
_HTTP = re.compile(r"^(?:git::|hg::)?(?P<url>https?://[^?]+?)(?://[^?/][^?]*)?(?:\?.*)?$")
_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^()\s]*)(?:\s+\"[^\"\n]*\")?\)")


def language_doc(block_type: str, opentofu: bool = False) -> str | None:
    pages = _LANGUAGE_PAGES.get(block_type)
    page = pages[1 if opentofu else 0] if pages else None
    if page is None:
        return None
    return (OPENTOFU_LANGUAGE if opentofu else TERRAFORM_LANGUAGE) + page


#: State backends without a page of their own (`inmem` is for tests, `cloud` is the `cloud` block's).
_UNDOCUMENTED_BACKENDS = frozenset({"inmem", "cloud"})


def backend_doc(backend: str, opentofu: bool = False) -> str | None:
    if backend in _UNDOCUMENTED_BACKENDS or not re.fullmatch(r"[a-z0-9]+", backend):
        return None
    if opentofu:
        return f"{OPENTOFU_LANGUAGE}settings/backends/{backend}/"
    return f"{TERRAFORM_LANGUAGE}backend/{backend}"


def exact_version(constraint: str | None) -> str | None:
    """The version `constraint` pins (`"1.2.3"`, `"= 1.2.3"`), else None."""
    m = _EXACT_VERSION.match(constraint or "")
    return m.group(1) if m else None


def provider_doc(address: str, version: str | None = None, kind: str | None = None, type_name: str | None = None) -> str | None:
    parts = address.split("/")
    if len(parts) != 3 or parts[0] not in PUBLIC_REGISTRIES:
        return None
    _, ns, name = parts
    url = f"{REGISTRY}/providers/{ns}/{name}/{version or 'latest'}/docs"
    if kind is None or not type_name:
        return url
    short = type_name[len(name) + 1 :] if type_name.startswith(name + "_") else type_name.split("_", 1)[-1]
    return f"{url}/{kind}/{short}" if short else url


def module_source_doc(source: str, version: str | None = None) -> str | None:
    source = source.strip()
    if not source or source.startswith(("./", "../", "/")):
        return None
    m = _REGISTRY_SOURCE.match(source)
    if m and "." not in m.group("ns") and (m.group("host") or "registry.terraform.io") in PUBLIC_REGISTRIES:
        return f"{REGISTRY}/modules/{m.group('ns')}/{m.group('name')}/{m.group('system')}/{exact_version(version) or 'latest'}"
    for pattern in (_HOSTED, _SCP_GIT):
        m = pattern.match(source.removeprefix("git::"))
        if m:
            return f"https://{m.group('host')}/{m.group('path')}"
    m = _HTTP.match(source)
    if m:
        url = m.group("url")
        return url.removesuffix(".git") if source.startswith("git::") else url
    return None


def absolute_links(markdown: str) -> str:
    def replace(m: re.Match) -> str:
        bang, label, target = m.groups()
        if target.startswith(("https://", "http://", "mailto:")):
            return m.group(0)
        return label if not bang else ""

    return _LINK.sub(replace, markdown)
