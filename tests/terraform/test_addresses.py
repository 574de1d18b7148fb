"""The address rules of `moved`, `import` and `removed` blocks (`terraform.addresses`).

Every case was run through the real `terraform validate -json` (1.11.4, offline) on 2026-11-26; its
verdict is recorded beside the case. Ranges are ours: the exact value, key or header (Terraform's
JSON ranges of a traversal inside a string start one character early)."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from tf_support import diagnostics

CODE = "structure/invalid-address"

CASES = [
    # validate: "Invalid import address" (Only managed resources can be imported.), on the argument.
    '{"import": [{⟨"to": "data.terraform_remote_state.x"⟩, "id": "a"}], "data": {"terraform_remote_state": {"x": {"backend": "local"}}}}',
    # validate: "Invalid address" and "Invalid import address".
    '{"import": [{⟨"to": "module.m"⟩, "id": "a"}]}',
    # validate: "Resource instance keys not allowed", on the key.
    '{"removed": [{"from": "terraform_data.a⟨[0]⟩", "lifecycle": {"destroy": false}}]}',
    # validate: "Data source address not allowed".
    '{"removed": [{"from": ⟨"data.terraform_remote_state.a"⟩}]}',
    # validate: 'Invalid "moved" addresses'.
    '{"moved": ⟨[⟩{"from": "terraform_data.a", "to": "module.b"}]}',
    # removed.go: "Provisioners are valid only when a removed block targets a managed resource".
    '{"removed": [{"from": "module.m", "provisioner": {"local-exec": ⟨{⟩"when": "destroy", "command": "x"}}}]}',
    # removed.go: "Only destroy-time provisioners are valid in \\"removed\\" blocks".
    '{"removed": [{"from": "terraform_data.a", "provisioner": {"local-exec": ⟨{⟩"command": "x"}}}]}',
    # validate: "Invalid address" (The keyword "var" is reserved and cannot be used to target a resource
    # address ...), from the keyword to the end of the address; the same for local, count, path, each,
    # self, terraform, template, lazy and arg, and after module steps.
    '{"moved": [{"from": "⟨var.a⟩", "to": "terraform_data.b"}], "resource": {"terraform_data": {"b": {}}}}',
    '{"moved": [{"from": "terraform_data.b", "to": "⟨local.a⟩"}], "resource": {"terraform_data": {"b": {}}}}',
    '{"moved": [{"from": "module.m.⟨count.x⟩", "to": "module.m.terraform_data.b"}]}',
    '{"moved": [{"from": "⟨lazy.x⟩", "to": "⟨arg.y⟩"}]}',
    # validate: "Invalid address" and "Invalid import address" (ours: the reference rules' undeclared variable).
    '{"import": [{"to": "⟨var.a⟩", "id": "x"}]}',
]

VALID = [
    '{"import": [{"to": "module.m.terraform_data.x[\\"a\\"]", "id": "a"}]}',  # validate: only the module is undeclared
    '{"removed": [{"from": "module.m.terraform_data.a", "lifecycle": {"destroy": false}}]}',  # validate: valid
    '{"removed": [{"from": "terraform_data.a", "provisioner": {"local-exec": {"when": "destroy", "command": "x"}}}]}',
    '{"moved": [{"from": "data.terraform_remote_state.a", "to": "data.terraform_remote_state.b"}]}',  # validate: valid
    '{"moved": [{"from": "module.a", "to": "module.b[\\"x\\"]"}]}',
    # validate: valid (the "resource." prefix names a type spelled like a keyword; removed has no such rule).
    '{"moved": [{"from": "resource.var.a", "to": "terraform_data.b"}], "resource": {"terraform_data": {"b": {}}}}',
    '{"removed": [{"from": "var.a", "lifecycle": {"destroy": false}}, {"from": "local.x", "lifecycle": {"destroy": false}}]}',
]


@pytest.mark.parametrize("text", CASES)
def test_invalid_addresses(text: str) -> None:
    f = parse_fixture(text).only
    got = [(d.start, d.end) for d in diagnostics(f.text, "main.tf.json")[1] if d.code == CODE]
    assert got == f.ranges


@pytest.mark.parametrize("text", VALID)
def test_valid_addresses(text: str) -> None:
    assert [d for d in diagnostics(text, "main.tf.json")[1] if d.code == CODE] == []
