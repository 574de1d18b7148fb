"""Terraform's rules for literal `count`/`for_each`, removed and destroy-time provisioners, a second
`connection`, `version` with a local module source, `replace_triggered_by` and the backend of a
`terraform_remote_state` (issue 19: "say what Terraform says").

Every case, valid or not, was run through `terraform validate -json` (1.11.4, `init -backend=false`,
only the built-in provider): the invalid ones are errors there at the marked place (for
`remote-state/unknown-config` Terraform marks the whole `config`; we mark the key), the valid ones
are accepted. Fixtures (tests/fixture.py): `⟨⟩` marks each expected range, in order; `check` also
runs the array form of each fixture.
"""

from __future__ import annotations

import pytest
from tf_support import check, diagnostics

COUNT = "meta-argument/invalid-count"
FOR_EACH = "meta-argument/invalid-for-each"
REMOVED = "provisioner/removed"
DESTROY = "provisioner/destroy-reference"
MANY = "structure/too-many-blocks"
SOURCE = "module/invalid-source"
TRIGGER = "reference/invalid-replace-trigger"
BACKEND = "remote-state/unknown-backend"
CONFIG = "remote-state/unknown-config"


def _td(body: str) -> str:
    return '{"resource": {"terraform_data": {"t": ' + body + "}}}"


CASES = [
    # ---- count: a literal Terraform cannot use
    (_td('{"count": ⟨"two"⟩}'), [COUNT]),
    (_td('{"count": ⟨-1⟩}'), [COUNT]),
    (_td('{"count": ⟨1.5⟩}'), [COUNT]),
    (_td('{"count": ⟨[1]⟩}'), [COUNT]),
    (_td('{"count": ⟨{}⟩}'), [COUNT]),
    (_td('{"count": ⟨true⟩}'), [COUNT]),
    (_td('{"count": ⟨null⟩}'), [COUNT]),
    (_td('{"count": ⟨" 3"⟩}'), [COUNT]),
    (_td('{"count": ⟨"0x10"⟩}'), [COUNT]),
    (_td('{"count": ⟨"-1"⟩}'), [COUNT]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "local", "count": ⟨"two"⟩}}}}', [COUNT]),
    ('{"module": {"m": {"source": "./m", "count": ⟨-2⟩}}}', [COUNT]),
    # ... and what it accepts (numeric strings, whole floats, expressions of any value)
    (_td('{"count": 3}'), []),
    (_td('{"count": 0}'), []),
    (_td('{"count": "3"}'), []),
    (_td('{"count": "3.0"}'), []),
    (_td('{"count": "1e1"}'), []),
    (_td('{"count": 3.0}'), []),
    (_td('{"count": 1e2}'), []),
    (_td('{"count": "${var.n}"}'), []),
    (_td('{"count": "${length(var.l)}"}'), []),
    # ---- for_each: only a map or a set of strings
    (_td('{"for_each": ⟨["a", "b"]⟩}'), [FOR_EACH]),
    (_td('{"for_each": ⟨[]⟩}'), [FOR_EACH]),
    (_td('{"for_each": ⟨"abc"⟩}'), [FOR_EACH]),
    (_td('{"for_each": ⟨1⟩}'), [FOR_EACH]),
    (_td('{"for_each": ⟨false⟩}'), [FOR_EACH]),
    (_td('{"for_each": ⟨null⟩}'), [FOR_EACH]),
    ('{"module": {"m": {"source": "./m", "for_each": ⟨["a"]⟩}}}', [FOR_EACH]),
    (_td('{"for_each": {}}'), []),
    (_td('{"for_each": {"a": {"b": 1}}}'), []),
    (_td('{"for_each": "${toset([\\"a\\"])}"}'), []),
    (_td('{"for_each": "${var.m}"}'), []),
    # count with for_each: only the conflict (Terraform reads neither)
    (_td('{"count": "two", ⟨"for_each"⟩: ["a"]}'), ["structure/conflicting-arguments"]),
    # ---- provisioners
    (_td('{"provisioner": {⟨"chef"⟩: {"a": 1}}}'), [REMOVED]),
    (_td('{"provisioner": [{⟨"puppet"⟩: {"when": "later"}}, {⟨"salt-masterless"⟩: {}}, {"habit": {}}]}'), [REMOVED, REMOVED]),
    (_td('{"provisioner": {"local-exec": {"command": ⟨"${var.v}"⟩, "when": "destroy"}}}'), [DESTROY]),
    (_td('{"provisioner": {"local-exec": {"command": "${self.id} ${path.module} ${terraform.workspace}", "when": "destroy"}}}'), []),
    (_td('{"count": 1, "provisioner": {"local-exec": {"command": "${count.index}", "environment": ⟨{"A": "${count.nope}"}⟩, "when": "destroy"}}}'), [DESTROY]),
    (_td('{"provisioner": {"local-exec": {"command": "x", "when": "destroy", "connection": {"host": ⟨"${terraform_data.r.output}"⟩}}}}'), [DESTROY]),
    (_td('{"provisioner": {"local-exec": {"command": "${var.v}", "when": "create"}}}'), []),
    (_td('{"provisioner": {"local-exec": {"command": "${var.v}"}}}'), []),
    # ---- version means a registry source
    ('{"module": {"m": {"source": ⟨"./child"⟩, "version": "1.0.0"}}}', [SOURCE]),
    ('{"module": {"m": {"source": ⟨"../x"⟩, "version": null}}}', [SOURCE]),
    ('{"module": {"m": {"source": "hashicorp/consul/aws", "version": "1.0.0"}}}', []),
    ('{"module": {"m": {"source": "./child"}}}', []),
    # ---- replace_triggered_by: one resource, count.index and each.key
    (_td('{"lifecycle": {"replace_triggered_by": [⟨"var.b"⟩]}}'), [TRIGGER]),
    (_td('{"lifecycle": {"replace_triggered_by": [⟨"path.module"⟩, ⟨"module.m"⟩, ⟨"local.x"⟩]}}'), [TRIGGER, TRIGGER, TRIGGER]),
    (_td('{"lifecycle": {"replace_triggered_by": [⟨"terraform_data.r.output[var.b]"⟩]}}'), [TRIGGER]),
    (_td('{"lifecycle": {"replace_triggered_by": [⟨"terraform_data.r.input[terraform_data.s.output]"⟩]}}'), [TRIGGER]),
    (_td('{"count": 1, "lifecycle": {"replace_triggered_by": ["terraform_data.r", "terraform_data.r.output", "terraform_data.r[count.index]", "terraform_data.r[0].input", "data.terraform_remote_state.s"]}}'), []),
    # ---- terraform_remote_state: the backend and its config keys
    ('{"data": {"terraform_remote_state": {"s": {"backend": ⟨"nope"⟩}}}}', [BACKEND]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": ⟨1⟩}}}}', [BACKEND]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": ⟨"etcd"⟩}}}}', [BACKEND]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "local", "config": {⟨"nope"⟩: "x", "path": "p"}}}}}', [CONFIG]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "_local", "config": {⟨"pth"⟩: "x"}}}}}', [CONFIG]),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "local", "config": {"path": "x.tfstate", "workspace_dir": "w"}}}}}', []),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "s3", "config": {"bucket": "b", "key": "k", "region": "r", "assume_role": {"role_arn": "arn:aws:iam::1:role/x"}, "endpoints": {"s3": "http://x"}}}}}}', []),
    # not known during validate: Terraform judges neither
    ('{"data": {"terraform_remote_state": {"s": {"backend": "nope", "config": {"nope": "${var.v}"}}}}}', []),
    ('{"data": {"terraform_remote_state": {"s": {"backend": "${var.v}"}}}}', []),
]


@pytest.mark.parametrize(("fixture", "codes"), CASES, ids=[f"{i}:{c[0][:70]}" for i, c in enumerate(CASES)])
def test_rule(fixture: str, codes: list[str]) -> None:
    check(fixture, codes)


def test_a_second_connection_block_is_one_too_many() -> None:
    # Terraform 1.11.4: "Duplicate connection block" at the second one's DefRange (the `[` both share)
    check(_td('{"connection": ⟨[⟩{"host": "a"}, {"host": "b"}], "provisioner": {"local-exec": {"command": "x"}}}'), [MANY],
          arrays=False)
    check(_td('{"provisioner": {"local-exec": {"command": "x", "connection": ⟨[⟩{"host": "a"}, {"host": "b"}]}}}'), [MANY],
          arrays=False)


def test_messages_name_what_is_wrong_and_suggest_the_fix() -> None:
    def only(text: str):
        _, found = diagnostics(text)
        assert len(found) == 1, found
        return found[0]

    d = only(_td('{"count": "two"}'))
    assert (d.summary, d.severity) == ("Incorrect value type", "error") and '"two"' in d.detail
    d = only(_td('{"for_each": ["a"]}'))
    assert d.summary == "Invalid for_each argument" and "toset" in d.detail
    d = only(_td('{"provisioner": {"local-exec": {"command": "${var.v}", "when": "destroy"}}}'))
    assert d.summary == "Invalid reference from destroy provisioner" and '"var.v"' in d.detail
    d = only('{"data": {"terraform_remote_state": {"s": {"backend": "locl"}}}}')
    assert 'Did you mean "local"?' in d.detail and d.fixes and d.fixes[0].new_text == '"local"'
    d = only('{"data": {"terraform_remote_state": {"s": {"backend": "etcd"}}}}')
    assert "not supported in Terraform v1.3 or later" in d.detail
    d = only('{"data": {"terraform_remote_state": {"s": {"backend": "s3", "config": {"bucket": "b", "key": "k", "regoin": "x"}}}}}')
    assert 'Did you mean "region"?' in d.detail
    d = only(_td('{"lifecycle": {"replace_triggered_by": ["count.nope"]}}'))
    assert d.summary == "Invalid count reference in replace_triggered_by expression"
    d = only(_td('{"lifecycle": {"replace_triggered_by": ["var.b"]}}'))
    assert d.summary == "Invalid reference in replace_triggered_by expression" and "exactly one resource" in d.detail


def test_override_files_leave_count_to_the_merged_block() -> None:
    _, found = diagnostics(_td('{"count": null}'), "main_override.tf.json")
    assert found == []


def test_what_does_not_parse_is_left_to_other_rules() -> None:
    # A literal or a string that does not parse in replace_triggered_by: other rules speak of it; a
    # count far beyond any number of instances is not judged (and never breaks the rule).
    _, found = diagnostics(_td('{"lifecycle": {"replace_triggered_by": ["1", "terraform_data.r[0", ""]}}'))
    assert TRIGGER not in {d.code for d in found}
    for big in ("1e99999999999999999999", '"-1e400000"', "1e-999999999"):
        _, found = diagnostics(_td('{"count": %s, "input": ⟨1⟩}' % big).replace("⟨", "").replace("⟩", ""))
        assert found == []
