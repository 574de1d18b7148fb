"""Document links through a real `Workspace` on a real directory: language pages per block type and
engine, provider registry pages at the version the lock file pins, and module sources (a local
directory's first file, the registry, git and http).

Fixtures: `//- /path` starts a file, `⟨⟩` mark the expected link ranges (tests/fixture.py).
"""

from __future__ import annotations

from fixture import parse_fixture

from hcljson_ls.features.links import document_links
from hcljson_ls.terraform.definition.docs import absolute_links

LOCK = """# This file is maintained automatically by "terraform init".
provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
  hashes = ["h1:abc="]
}
"""

MAIN = r"""
//- /app/main.tf.json
{
  "⟨r$[type]esource⟩": {"⟨a$[label]ws_instance⟩": {"w$[name]eb": {"ami": "x"}}},
  "⟨data⟩": {"⟨random_id⟩": {"x": {}}},
  "⟨module⟩": {
    "net": {"source": "⟨./net⟩"},
    "consul": {"source": "⟨hashicorp/consul/aws⟩", "version": "0.11.0"},
    "vpc": {"source": "⟨git::https://example.com/vpc.git?ref=v1.2.0⟩"},
    "dyn": {"source": "./${var.x}"}
  },
  "⟨provider⟩": {"⟨aws⟩": {"region": "eu-west-1"}},
  "⟨output⟩": {"id": {"value": "${aws$[reference]_instance.web.id}"}},
  "⟨locals⟩": {"a": 1}
}
//- /app/net/b.tf.json
{}
//- /app/net/a.tf
# first by name
"""


def links_of(tmp_path, src: str, lock: str | None = LOCK):
    fw = parse_fixture(src).workspace(tmp_path, open=["/app/main.tf.json"])
    if lock is not None:
        (fw.paths["/app/main.tf.json"].parent / ".terraform.lock.hcl").write_text(lock)
    f = fw.fixture.files["/app/main.tf.json"]
    found = document_links(fw.snapshot(), fw.uri("/app/main.tf.json"))
    assert [(link.start, link.end) for link in found] == sorted(f.ranges)
    return fw, {f.text[link.start:link.end]: link.target for link in found}


def test_links_of_a_terraform_module(tmp_path) -> None:
    fw, links = links_of(tmp_path, MAIN)
    docs = "https://developer.hashicorp.com/terraform/language/"
    assert links["resource"] == docs + "resources/syntax"
    assert links["data"] == docs + "data-sources"
    assert links["module"] == docs + "modules/syntax"
    assert links["locals"] == docs + "values/locals"
    assert links["aws_instance"] == "https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs/resources/instance"
    assert links["random_id"] == "https://registry.terraform.io/providers/hashicorp/random/latest/docs/data-sources/id"
    assert links["aws"] == "https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs"
    assert links["./net"] == fw.uri("/app/net/a.tf")
    assert links["hashicorp/consul/aws"] == "https://registry.terraform.io/modules/hashicorp/consul/aws/0.11.0"
    assert links["git::https://example.com/vpc.git?ref=v1.2.0"] == "https://example.com/vpc"


def test_without_a_lock_file_providers_link_to_latest(tmp_path) -> None:
    _, links = links_of(tmp_path, MAIN, lock=None)
    assert links["aws_instance"] == "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance"


def test_a_broken_lock_file_pins_nothing(tmp_path) -> None:
    _, links = links_of(tmp_path, MAIN, lock='provider "registry.terraform.io/hashicorp/aws" {\n  version = \n')
    assert links["aws"] == "https://registry.terraform.io/providers/hashicorp/aws/latest/docs"


def test_opentofu_module_links_to_opentofu_language_docs(tmp_path) -> None:
    src = r"""
//- /app/main.tf.json
{"⟨variable⟩": {"x": {}}, "⟨output⟩": {"o": {"value": 1}}}
//- /app/other.tofu.json
{}
"""
    _, links = links_of(tmp_path, src)
    assert links == {"variable": "https://opentofu.org/docs/language/values/variables/",
                     "output": "https://opentofu.org/docs/language/values/outputs/"}


def test_provider_descriptions_lose_relative_links() -> None:
    md = "Use [a guide](/docs/guides/x.html) or [AWS](https://aws.amazon.com/ec2/); ![logo](img.png)"
    assert absolute_links(md) == "Use a guide or [AWS](https://aws.amazon.com/ec2/); "


def test_hover_carries_the_documentation_link(tmp_path) -> None:
    from hcljson_ls.features.hover import hover

    fw = parse_fixture(MAIN).workspace(tmp_path, open=["/app/main.tf.json"])
    (fw.paths["/app/main.tf.json"].parent / ".terraform.lock.hcl").write_text(LOCK)
    on_type = hover(fw.snapshot(), *fw.mark("type"))
    assert "[Documentation](https://developer.hashicorp.com/terraform/language/resources/syntax)" in on_type.markdown
    on_label = hover(fw.snapshot(), *fw.mark("label"))
    assert on_label.markdown.split("\n\n---\n\n")[0].endswith(
        "[Documentation](https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs/resources/instance)")
    assert "Documentation" not in hover(fw.snapshot(), *fw.mark("name")).markdown
    on_reference = hover(fw.snapshot(), *fw.mark("reference"))
    assert "[Documentation](https://registry.terraform.io/providers/hashicorp/aws/5.31.0/docs/resources/instance)" in on_reference.markdown
