"""Documentation URLs (`terraform.docs`) and the native values they need (`terraform.native_values`):
module sources of every kind Terraform accepts, provider pages, and the lock file and native tfvars
read with tree-sitter-hcl."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.terraform.definition.docs import exact_version, language_doc, module_source_doc, provider_doc
from hcljson_ls.terraform.nativehcl.native_values import assignments, lock_versions, written_at

REGISTRY = "https://registry.terraform.io/modules/"


@pytest.mark.parametrize(("source", "version", "url"), [
    ("hashicorp/consul/aws", None, REGISTRY + "hashicorp/consul/aws/latest"),
    ("hashicorp/consul/aws", "~> 0.11", REGISTRY + "hashicorp/consul/aws/latest"),
    ("hashicorp/consul/aws", "= 0.11.2", REGISTRY + "hashicorp/consul/aws/0.11.2"),
    ("registry.terraform.io/hashicorp/consul/aws//modules/server", "0.11.2", REGISTRY + "hashicorp/consul/aws/0.11.2"),
    ("app.terraform.io/example-corp/k8s-cluster/azurerm", None, None),  # a private registry
    ("github.com/hashicorp/example", None, "https://github.com/hashicorp/example"),
    ("github.com/hashicorp/example.git//modules/vpc?ref=v1.2.0", None, "https://github.com/hashicorp/example"),
    ("git@github.com:hashicorp/example.git", None, "https://github.com/hashicorp/example"),
    ("git::ssh://git@example.com/storage.git", None, None),  # no web page known
    ("git::https://example.com/network.git//modules/vpc?ref=v1.2.0", None, "https://example.com/network"),
    ("https://example.com/vpc-module.zip", None, "https://example.com/vpc-module.zip"),
    ("s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", None, None),
    ("gcs::https://www.googleapis.com/storage/v1/modules/foomodule.zip", None, None),
    ("./net", None, None),
    ("", None, None),
])
def test_module_sources(source: str, version: str | None, url: str | None) -> None:
    assert module_source_doc(source, version) == url


def test_provider_pages() -> None:
    base = "https://registry.terraform.io/providers/"
    assert provider_doc("registry.terraform.io/hashicorp/aws", "5.31.0", "resources", "aws_instance") == base + "hashicorp/aws/5.31.0/docs/resources/instance"
    assert provider_doc("registry.opentofu.org/hashicorp/google", None, "data-sources", "google_project") == base + "hashicorp/google/latest/docs/data-sources/project"
    assert provider_doc("registry.terraform.io/integrations/github") == base + "integrations/github/latest/docs"
    assert provider_doc("terraform.io/builtin/terraform", None, "resources", "terraform_data") is None
    assert provider_doc("example.com/corp/internal") is None
    assert exact_version("v1.2.3") == "1.2.3" and exact_version(">= 1.2.3") is None


def test_language_pages_per_engine() -> None:
    assert language_doc("moved") == "https://developer.hashicorp.com/terraform/language/modules/develop/refactoring"
    assert language_doc("ephemeral", opentofu=True) == "https://opentofu.org/docs/language/ephemerality/ephemeral-resources/"
    assert language_doc("dynamic") is None


def test_lock_file_and_native_values() -> None:
    lock = '''# generated
provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
  hashes      = ["h1:abc=", "zh:def"]
}
provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.${x}"
}
provider "registry.terraform.io/hashicorp/null" {
'''
    assert lock_versions(lock) == {"registry.terraform.io/hashicorp/aws": "5.31.0"}
    assert lock_versions("") == {} and lock_versions("\x00{{") == {}
    tfvars = 'region = "eu-west-1"\nzones  = ["a",\n  "b"]\nbroken =\n'
    assert assignments(tfvars) == {"region": '"eu-west-1"', "zones": '["a",\n  "b"]'}
    native = parse_fixture('variable $[label]"é" {\n  default = { a = 1 }\n}\nlocals {\n  $[x]x = "y"\n}\n').only
    assert written_at(native.text, native.marks["label"], "default") == "{ a = 1 }"
    assert written_at(native.text, native.marks["x"]) == '"y"'
    assert written_at(native.text, 0) is None
