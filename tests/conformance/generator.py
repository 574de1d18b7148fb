"""The generated modules of the differential suite: small Terraform JSON modules, deterministic.

`cases()` returns every case, always the same ones in the same order, each a `Case`: an id
(`category/slug`), its rule category, its files (path relative to the module -> text) and what it
means to show (`intent`: "valid" or the one mistake it makes). Terraform, not the intent, is the judge:
the verdicts stored in `verdicts.json` are what `terraform validate -json` said about each case
(`tools/differential.py refresh`). The intent only helps a reader.

Every case uses only Terraform's built-in provider (`terraform_data`, `terraform_remote_state`), so
`terraform init -backend=false` and `validate` run offline; child modules are local (`./child`).
Each case makes at most one mistake, because Terraform stops at the first stage that fails (a module
that does not decode is not validated further), and one mistake is what the comparison can judge.

A case's `digest` covers its files: a changed generator shows up as a stale verdict.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VALID = "valid"


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    files: tuple[tuple[str, str], ...]
    intent: str

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for path, text in self.files:
            h.update(path.encode() + b"\0" + text.encode() + b"\0")
        return h.hexdigest()[:16]

    def write(self, root: Path) -> Path:
        """Write the module under `root/<id>` and return its directory."""
        where = root / self.id
        for path, text in self.files:
            target = where / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return where


def render(body: Any) -> str:
    """A JSON file as people write it: two-space indentation, so each argument has a line of its own."""
    if isinstance(body, str):
        return body
    return _json(body) + "\n"


def _case(category: str, slug: str, intent: str, files: Mapping[str, Any]) -> Case:
    return Case(f"{category}/{slug}", category, tuple((p, render(b)) for p, b in files.items()), intent)


# --- the child module most cases call ---------------------------------------------------------------

CHILD = {
    "variable": {
        "name": {"type": "string"},
        "size": {"type": "number", "default": 1},
        "tags": {"type": "map(string)", "default": {}},
        "opts": {"type": "object({a = string, b = optional(number)})", "default": {"a": "x"}},
        "secret": {"type": "string", "default": "s", "sensitive": True},
    },
    "output": {
        "out": {"value": "${var.name}"},
        "size": {"value": "${var.size}"},
    },
}


def _prelude() -> dict[str, Any]:
    """Declarations every expression case can refer to."""
    return {
        "variable": {
            "v": {"type": "string", "default": "x"},
            "n": {"type": "number", "default": 2},
            "list": {"type": "list(string)", "default": ["a", "b"]},
            "obj": {"type": "object({a = string})", "default": {"a": "x"}},
        },
        "locals": {"l": "local-${var.v}", "m": {"a": 1}},
        "resource": {
            "terraform_data": {
                "r": {"input": "${var.v}"},
                "c": {"count": 2, "input": "${count.index}"},
                "e": {"for_each": {"a": "x", "b": "y"}, "input": "${each.value}"},
            }
        },
        "data": {"terraform_remote_state": {"s": {"backend": "local", "config": {"path": "x.tfstate"}}}},
        "module": {"m": {"source": "./child", "name": "n"}},
    }


# --- expressions, judged in every context ---------------------------------------------------------
# (category, slug, expression, intent)
EXPRESSIONS: tuple[tuple[str, str, str, str], ...] = (
    ("references", "var", "${var.v}", VALID),
    ("references", "var-attr-of-object", "${var.obj.a}", VALID),
    ("references", "local", "${local.l}", VALID),
    ("references", "local-index", "${local.m.a}", VALID),
    ("references", "resource", "${terraform_data.r.id}", VALID),
    ("references", "resource-output", "${terraform_data.r.output}", VALID),
    ("references", "data", "${data.terraform_remote_state.s.outputs}", VALID),
    ("references", "module-output", "${module.m.out}", VALID),
    ("references", "path-module", "${path.module}", VALID),
    ("references", "path-root", "${path.root}", VALID),
    ("references", "terraform-workspace", "${terraform.workspace}", VALID),
    ("references", "template-mixed", "a-${var.v}-${local.l}", VALID),
    ("references", "escaped-interpolation", "$${not.a.reference}", VALID),
    ("references", "undeclared-var", "${var.nope}", "undeclared input variable"),
    ("references", "undeclared-var-in-template", "x-${var.nope}-y", "undeclared input variable"),
    ("references", "undeclared-local", "${local.nope}", "undeclared local value"),
    ("references", "undeclared-resource", "${terraform_data.nope.id}", "undeclared resource"),
    ("references", "undeclared-data", "${data.terraform_remote_state.nope.outputs}", "undeclared data source"),
    ("references", "undeclared-module", "${module.nope.out}", "undeclared module call"),
    ("references", "unknown-module-output", "${module.m.nope}", "output the child does not declare"),
    ("references", "unknown-resource-attribute", "${terraform_data.r.nope}", "attribute terraform_data lacks"),
    ("references", "var-attr-of-string", "${var.v.attr}", "attribute of a string"),
    ("references", "var-unknown-object-attr", "${var.obj.b}", "attribute the object type lacks"),
    ("references", "bare-name", "${foo}", "a bare name is no reference"),
    ("references", "bare-var", "${var}", "var alone is no reference"),
    ("references", "bare-local", "${local}", "local alone is no reference"),
    ("references", "bare-module", "${module}", "module alone is no reference"),
    ("references", "path-unknown", "${path.nope}", "unknown path attribute"),
    ("references", "terraform-unknown", "${terraform.nope}", "unknown terraform attribute"),
    ("references", "resource-type-only", "${terraform_data}", "resource type without a name"),
    ("references", "count-index-outside", "${count.index}", "count.index outside count"),
    ("references", "each-key-outside", "${each.key}", "each.key outside for_each"),
    ("references", "self-outside", "${self.id}", "self outside a provisioner"),
    ("references", "data-type-only", "${data.terraform_remote_state}", "data source type without a name"),
    ("instance-keys", "count-index", "${terraform_data.c[0].id}", VALID),
    ("instance-keys", "count-splat", "${terraform_data.c[*].id}", VALID),
    ("instance-keys", "for-each-key", '${terraform_data.e["a"].id}', VALID),
    ("instance-keys", "for-each-values", "${values(terraform_data.e)[0].id}", VALID),
    ("instance-keys", "index-without-count", "${terraform_data.r[0].id}", "instance key on a single resource"),
    ("instance-keys", "string-key-without-for-each", '${terraform_data.r["a"].id}', "string key on a single resource"),
    ("instance-keys", "count-missing-key", "${terraform_data.c.id}", "count resource without an index"),
    ("instance-keys", "count-string-key", '${terraform_data.c["a"].id}', "string key on a count resource"),
    ("instance-keys", "for-each-missing-key", "${terraform_data.e.id}", "for_each resource without a key"),
    ("instance-keys", "for-each-number-key", "${terraform_data.e[0].id}", "number key on a for_each resource"),
    ("instance-keys", "module-index-without-count", "${module.m[0].out}", "instance key on a single module call"),
    ("functions", "upper", "${upper(var.v)}", VALID),
    ("functions", "join", '${join(",", var.list)}', VALID),
    ("functions", "length", "${length(var.list)}", VALID),
    ("functions", "try", "${try(local.m.b, 1)}", VALID),
    ("functions", "jsonencode", "${jsonencode({a = 1})}", VALID),
    ("functions", "format-variadic", '${format("%s-%s", var.v, local.l)}', VALID),
    ("functions", "coalesce-variadic", '${coalesce(var.v, "a", "b")}', VALID),
    ("functions", "cidrsubnet", '${cidrsubnet("10.0.0.0/16", 8, 1)}', VALID),
    ("functions", "ephemeralasnull", "${ephemeralasnull(var.v)}", VALID),
    ("functions", "unknown", "${nope(var.v)}", "unknown function"),
    ("functions", "unknown-near", "${uper(var.v)}", "misspelt function"),
    ("functions", "too-few-args", "${upper()}", "too few arguments"),
    ("functions", "too-many-args", '${upper("a", "b")}', "too many arguments"),
    ("functions", "join-one-arg", '${join(",")}', "too few arguments"),
    ("functions", "provider-function", '${provider::terraform::encode_tfvars({a = "b"})}', "provider not required"),
    ("functions", "unknown-provider-function", "${provider::nope::f(1)}", "provider not required"),
    ("functions", "opentofu-only", "${base64gunzip(var.v)}", "an OpenTofu-only function"),
    ("functions", "constant-type-error", '${upper(["a"])}', "argument of the wrong type"),
    ("functions", "constant-arith-error", '${1 + "a"}', "arithmetic on a string"),
    ("templates", "unclosed-interpolation", "${var.v", "unclosed interpolation"),
    ("templates", "unclosed-directive", "%{ if true }x", "if without endif"),
    ("templates", "directive", '%{ if var.v == "x" }yes%{ else }no%{ endif }', VALID),
    ("templates", "for-directive", "%{ for s in var.list }${s},%{ endfor }", VALID),
    ("templates", "bad-operator", "${var.v +}", "incomplete expression"),
    ("templates", "conditional", '${var.n > 1 ? "big" : "small"}', VALID),
    ("templates", "for-expression", "${[for s in var.list : upper(s)]}", VALID),
    ("templates", "for-expression-bad-var", "${[for s in var.list : upper(t)]}", "unknown name in a for expression"),
    ("templates", "heredoc-free-string", "plain string", VALID),
    ("templates", "index-out-of-range", "${[1, 2][5]}", "constant index out of range"),
    # static evaluation (terraform/expressions/evaluate.py): what Terraform's validate suppresses or converts
    ("references", "var-attr-in-try", '${try(var.v.attr, "")}', VALID),
    ("references", "var-attr-in-branch", '${var.n > 1 ? var.obj.b : "x"}', VALID),
    ("references", "var-list-attr", "${var.list.x}", "attribute of a list"),
    ("references", "resource-attribute-in-try", '${try(terraform_data.r.nope, "")}', "attribute terraform_data lacks, even in try"),
    ("functions", "constant-conversions", '${upper(1)}-${abs("1")}-${1 + "1"}', VALID),
    ("templates", "index-in-range", "${[1, 2][1]}", VALID),
    ("templates", "index-in-false-branch", "${false ? [1, 2][5] : 1}", VALID),
    ("templates", "splat-of-string", "${var.v[*]}", VALID),
)

#: Where an expression is placed: (slug, builds the extra body for expression E).
CONTEXTS: tuple[tuple[str, Any], ...] = (
    ("local", lambda e: {"locals": {"x": e}}),
    ("output", lambda e: {"output": {"o": {"value": e}}}),
    ("resource", lambda e: {"resource": {"terraform_data": {"t": {"input": e}}}}),
    ("counted", lambda e: {"resource": {"terraform_data": {"t": {"count": 2, "triggers_replace": [e]}}}}),
    ("for-each", lambda e: {"resource": {"terraform_data": {"t": {"for_each": {"k": "v"}, "input": e}}}}),
    ("module-input", lambda e: {"module": {"k": {"source": "./child", "name": e}}}),
)


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(base))
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _expression_cases() -> Iterator[Case]:
    for category, slug, expression, intent in EXPRESSIONS:
        for where, build in CONTEXTS:
            main = _merge(_prelude(), build(expression))
            yield _case(category, f"{slug}@{where}", intent, {"main.tf.json": main, "child/main.tf.json": CHILD})


#: Calls of the built-in provider's functions where the module requires it, judged in every context:
#: (category, slug, expression, intent, the module's `required_providers`). (The provider under another
#: local name is no case here: the prelude's `terraform_data` blocks require it as `terraform`, and
#: Terraform reports the two names as a duplicate requirement.)
_BUILTIN_PROVIDER = {"source": "terraform.io/builtin/terraform"}
PROVIDER_FUNCTION_EXPRESSIONS: tuple[tuple[str, str, str, str, dict[str, Any]], ...] = (
    ("functions", "provider-function-required", '${provider::terraform::encode_tfvars({a = "b"})}', VALID,
     {"terraform": _BUILTIN_PROVIDER}),
    ("functions", "provider-function-implied-source", "${provider::terraform::encode_expr(var.list)}", VALID,
     {"terraform": {}}),
    ("functions", "provider-function-unknown", "${provider::terraform::encode_tfvar({})}",
     "a function the provider lacks", {"terraform": _BUILTIN_PROVIDER}),
    ("functions", "provider-function-too-many", "${provider::terraform::encode_expr(1, 2)}", "too many arguments",
     {"terraform": _BUILTIN_PROVIDER}),
    ("functions", "provider-function-expanded", "${provider::terraform::encode_expr(var.list...)}", VALID,
     {"terraform": _BUILTIN_PROVIDER}),
)


def _provider_function_cases() -> Iterator[Case]:
    for category, slug, expression, intent, required in PROVIDER_FUNCTION_EXPRESSIONS:
        for where, build in CONTEXTS:
            main = _merge(_prelude(), build(expression))
            main["terraform"] = {"required_providers": required}
            yield _case(category, f"{slug}@{where}", intent, {"main.tf.json": main, "child/main.tf.json": CHILD})


def _module(slug: str, category: str, intent: str, main: Any, **files: Any) -> Case:
    """A case with `main.tf.json` and other JSON files (`child__main=...` stands for `child/main.tf.json`)."""
    all_files = {"main.tf.json": main}
    all_files.update({name.replace("__", "/") + ".tf.json": body for name, body in files.items()})
    return _case(category, slug, intent, all_files)


def _td(body: dict[str, Any], name: str = "t") -> dict[str, Any]:
    return {"resource": {"terraform_data": {name: body}}}


class Repeated(list):
    """An object written with the members `(key, value)` in order, so a key may repeat (a dict cannot
    say that): `render` writes it like any object."""


def _json(value: Any, level: int = 0) -> str:
    """`value` as `json.dumps(value, indent=2)` writes it, `Repeated` objects (anywhere) included."""
    pad = "  " * (level + 1)
    if isinstance(value, (Repeated, dict)):
        pairs = list(value) if isinstance(value, Repeated) else list(value.items())
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_json(v, level + 1)}" for k, v in pairs]
        opener, closer = "{", "}"
    elif isinstance(value, list):
        items = [pad + _json(v, level + 1) for v in value]
        opener, closer = "[", "]"
    else:
        return json.dumps(value, ensure_ascii=False)
    return opener + "\n" + ",\n".join(items) + "\n" + "  " * level + closer if items else opener + closer


# --- built-in schemas: terraform_data, terraform_remote_state, provisioners, connection ------------

def _builtin_cases() -> Iterator[Case]:
    cat = "builtin-schemas"
    td = {
        "empty": ({}, VALID),
        "input": ({"input": "x"}, VALID),
        "input-object": ({"input": {"a": [1, 2]}}, VALID),
        "triggers-replace": ({"triggers_replace": ["a", 1]}, VALID),
        "unknown-argument": ({"inputs": "x"}, "unknown argument (did you mean input?)"),
        "computed-output": ({"output": "x"}, "computed-only attribute set"),
        "computed-id": ({"id": "x"}, "computed-only attribute set"),
        "nested-block-unknown": ({"setting": {"a": 1}}, "unknown nested block"),
        "input-null": ({"input": None}, VALID),
    }
    for slug, (body, intent) in td.items():
        yield _module(f"terraform-data-{slug}", cat, intent, _td(body))
    rs = {
        "local": ({"backend": "local", "config": {"path": "x.tfstate"}}, VALID),
        "defaults": ({"backend": "local", "defaults": {"a": 1}}, VALID),
        "workspace": ({"backend": "local", "workspace": "w"}, VALID),
        "no-backend": ({"config": {"path": "x"}}, "missing required argument backend"),
        "unknown-argument": ({"backend": "local", "configs": {}}, "unknown argument"),
        "computed-outputs": ({"backend": "local", "outputs": {}}, "computed-only attribute set"),
        "unknown-backend": ({"backend": "nope"}, "unknown backend type"),
        "bad-config-key": ({"backend": "local", "config": {"nope": "x"}}, "config the backend lacks"),
        "backend-number": ({"backend": 1}, "number where a string is expected"),
    }
    for slug, (body, intent) in rs.items():
        yield _module(f"remote-state-{slug}", cat, intent, {"data": {"terraform_remote_state": {"s": body}}})

    def prov(kind: str, body: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return _td({"provisioner": {kind: body}, **(extra or {})})

    provisioners = {
        "local-exec": ({"command": "echo hi"}, VALID),
        "local-exec-all": (
            {"command": "echo ${self.id}", "working_dir": "/tmp", "interpreter": ["sh", "-c"],
             "environment": {"A": "b"}, "quiet": True, "when": "create", "on_failure": "fail"},
            VALID,
        ),
        "local-exec-no-command": ({"working_dir": "/tmp"}, "missing required argument command"),
        "local-exec-unknown": ({"command": "x", "cmd": "y"}, "unknown argument"),
        "local-exec-self-attr-unknown": ({"command": "${self.nope}"}, "attribute terraform_data lacks"),
        "local-exec-when-destroy": ({"command": "x", "when": "destroy"}, VALID),
        "local-exec-when-bad": ({"command": "x", "when": "later"}, "invalid when"),
        "local-exec-on-failure-bad": ({"command": "x", "on_failure": "ignore"}, "invalid on_failure"),
        "local-exec-destroy-other-ref": ({"command": "${var.v}", "when": "destroy"}, "destroy provisioner refers to a variable"),
        "remote-exec-inline": ({"inline": ["ls"], "connection": {"host": "h"}}, VALID),
        "remote-exec-script": ({"script": "a.sh", "connection": {"host": "h"}}, VALID),
        "remote-exec-conflict": ({"inline": ["ls"], "script": "a.sh", "connection": {"host": "h"}}, "conflicting arguments"),
        "remote-exec-none": ({"connection": {"host": "h"}}, "one of inline/script/scripts needed"),
        "remote-exec-unknown": ({"inline": ["ls"], "inlines": ["x"], "connection": {"host": "h"}}, "unknown argument"),
        "file-content": ({"content": "x", "destination": "/tmp/x", "connection": {"host": "h"}}, VALID),
        "file-source": ({"source": "a.txt", "destination": "/tmp/x", "connection": {"host": "h"}}, VALID),
        "file-no-destination": ({"content": "x", "connection": {"host": "h"}}, "missing required argument destination"),
        "file-both": ({"content": "x", "source": "a", "destination": "/tmp/x", "connection": {"host": "h"}}, "conflicting arguments"),
        "file-neither": ({"destination": "/tmp/x", "connection": {"host": "h"}}, "source or content needed"),
    }
    for slug, (body, intent) in provisioners.items():
        kind = slug.split("-exec")[0] + "-exec" if "-exec" in slug else "file"
        extra = {"variable": {"v": {"default": "x"}}} if "other-ref" in slug else {}
        yield _module(f"provisioner-{slug}", cat, intent, {**prov(kind, body), **extra})
    yield _module("provisioner-unknown-type", cat, "unknown provisioner type", prov("chef", {"a": 1}))
    yield _module("provisioner-two", cat, VALID,
                  _td({"provisioner": [{"local-exec": {"command": "a"}}, {"local-exec": {"command": "b"}}]}))
    connections = {
        "ssh": ({"type": "ssh", "host": "h", "user": "u", "port": 22, "timeout": "5m"}, VALID),
        "winrm": ({"type": "winrm", "host": "h", "https": True, "insecure": True}, VALID),
        "no-host": ({"type": "ssh", "user": "u"}, "missing required argument host"),
        "unknown": ({"host": "h", "hostname": "x"}, "unknown argument"),
        "bastion": ({"host": "h", "bastion_host": "b", "bastion_user": "u"}, VALID),
        "self-ref": ({"host": "${self.output}"}, VALID),
        "bad-type": ({"host": "h", "type": "telnet"}, "unknown connection type"),
        "port-string": ({"host": "h", "port": "x"}, "a string where a number is expected"),
    }
    for slug, (body, intent) in connections.items():
        yield _module(f"connection-{slug}", cat, intent,
                      _td({"connection": body, "provisioner": {"remote-exec": {"inline": ["ls"]}}}))
    yield _module("connection-in-provisioner", cat, VALID,
                  prov("remote-exec", {"inline": ["ls"], "connection": {"host": "h"}}))
    yield _module("connection-twice", cat, "two connection blocks",
                  _td({"connection": [{"host": "a"}, {"host": "b"}], "provisioner": {"local-exec": {"command": "x"}}}))
    yield _module("more-provisioner-puppet", cat, "removed provisioner", prov("puppet", {"when": "later"}))
    yield _module("more-provisioner-destroy-self", cat, VALID,
                  prov("local-exec", {"command": "${self.output} ${path.module} ${terraform.workspace}", "when": "destroy"}))
    yield _module("more-provisioner-destroy-connection", cat, "destroy provisioner's connection refers to a variable",
                  {**prov("remote-exec", {"inline": ["ls"], "when": "destroy", "connection": {"host": "${var.v}"}}),
                   "variable": {"v": {"default": "x"}}})
    yield _module("more-remote-state-removed-backend", cat, "removed backend",
                  {"data": {"terraform_remote_state": {"s": {"backend": "etcd"}}}})
    yield _module("more-remote-state-s3", cat, VALID,
                  {"data": {"terraform_remote_state": {"s": {"backend": "s3", "config": {
                      "bucket": "b", "key": "k", "region": "eu-west-1", "assume_role": {"role_arn": "arn:aws:iam::123456789012:role/r"}}}}}})
    yield _module("more-remote-state-config-template", cat, VALID,
                  {"variable": {"v": {"default": "x"}},
                   "data": {"terraform_remote_state": {"s": {"backend": "nope", "config": {"nope": "${var.v}"}}}}})

    yield from _remote_state_config_cases(cat)


#: An ARN the s3 backend's own validation accepts (the cases' mistakes are elsewhere).
_ARN = "arn:aws:iam::123456789012:role/r"
_S3 = {"bucket": "b", "key": "k", "region": "eu-west-1"}


def _remote_state_config_cases(cat: str) -> Iterator[Case]:
    """A `terraform_remote_state`'s `config` against its backend's schema (Terraform's `CoerceValue`:
    missing required keys, nested ones, literals of the wrong type, unknown keys) and the shapes of
    `config` and `defaults`; each backend with required keys, and what cty converts silently."""
    def s3(**extra: Any) -> dict[str, Any]:
        return {"backend": "s3", "config": {**_S3, **extra}}

    cases_: dict[str, tuple[dict[str, Any], str]] = {
        "s3-ok": (s3(), VALID),
        "s3-no-config": ({"backend": "s3"}, "missing required bucket and key"),
        "s3-config-null": ({"backend": "s3", "config": None}, "missing required bucket and key"),
        "s3-no-bucket": ({"backend": "s3", "config": {"key": "k", "region": "eu-west-1"}}, "missing required bucket"),
        "s3-no-key": ({"backend": "s3", "config": {"bucket": "b", "region": "eu-west-1"}}, "missing required key"),
        "s3-bucket-number": ({"backend": "s3", "config": {**_S3, "bucket": 1}}, VALID),
        "s3-bucket-bool": ({"backend": "s3", "config": {**_S3, "bucket": True}}, VALID),
        "s3-bucket-list": ({"backend": "s3", "config": {**_S3, "bucket": ["b"]}}, "a list where a string is wanted"),
        "s3-bucket-object": ({"backend": "s3", "config": {**_S3, "bucket": {"a": 1}}}, "an object where a string is wanted"),
        "s3-encrypt-string-true": (s3(encrypt="true"), VALID),
        "s3-encrypt-string-1": (s3(encrypt="1"), VALID),
        "s3-encrypt-word": (s3(encrypt="yes"), "a string that is no bool"),
        "s3-encrypt-capital": (s3(encrypt="True"), "a bool in capitals"),
        "s3-encrypt-number": (s3(encrypt=1), "a number where a bool is wanted"),
        "s3-retries-numeric-string": (s3(max_retries="3"), VALID),
        "s3-retries-word": (s3(max_retries="x"), "a string that is no number"),
        "s3-retries-bool": (s3(max_retries=True), "a bool where a number is wanted"),
        "s3-accounts-numbers": (s3(allowed_account_ids=[1, 2]), VALID),
        "s3-accounts-string": (s3(allowed_account_ids="x"), "a string where a set is wanted"),
        "s3-accounts-objects": (s3(allowed_account_ids=[{"a": 1}]), "an object as a set's element"),
        "s3-assume-role-ok": (s3(assume_role={"role_arn": _ARN, "tags": {"a": 1}}), VALID),
        "s3-assume-role-extra-key": (s3(assume_role={"role_arn": _ARN, "nope": 1}), VALID),
        "s3-assume-role-null": (s3(assume_role=None), VALID),
        "s3-assume-role-no-arn": (s3(assume_role={"duration": "1h"}), "nested required key missing"),
        "s3-assume-role-string": (s3(assume_role="x"), "a string where an object is wanted"),
        "s3-assume-role-tags-list": (s3(assume_role={"role_arn": _ARN, "tags": ["a"]}), "a list where a map is wanted"),
        "s3-comment-key": ({"backend": "s3", "config": {"//": "c", **_S3}}, "a comment key is no comment in config"),
        "s3-two-unknown": (s3(nope=1, nope2=2), "unknown keys"),
        "azurerm-ok": ({"backend": "azurerm", "config": {"storage_account_name": "a", "container_name": "c", "key": "k"}}, VALID),
        "azurerm-no-key": ({"backend": "azurerm", "config": {"storage_account_name": "a", "container_name": "c"}}, "missing required key"),
        "gcs-ok": ({"backend": "gcs", "config": {"bucket": "b"}}, VALID),
        "gcs-no-config": ({"backend": "gcs"}, "missing required bucket"),
        "gcs-prefix-object": ({"backend": "gcs", "config": {"bucket": "b", "prefix": {}}}, "an object where a string is wanted"),
        "consul-no-path": ({"backend": "consul", "config": {"address": "a"}}, "missing required path"),
        "cos-no-bucket": ({"backend": "cos", "config": {"region": "r"}}, "missing required bucket"),
        "cos-assume-role-list": ({"backend": "cos", "config": {"bucket": "b", "region": "r", "assume_role": [{"role_arn": "a", "session_name": "s"}]}}, VALID),
        "cos-assume-role-object-of-strings": ({"backend": "cos", "config": {"bucket": "b", "region": "r", "assume_role": {"role_arn": "a"}}}, "a set of blocks read from an object's values"),
        "cos-assume-role-unknown-key": ({"backend": "cos", "config": {"bucket": "b", "region": "r", "assume_role": [{"role_arn": "a", "session_name": "s", "nope": 1}]}}, "unknown key in a nested block"),
        "cos-assume-role-string": ({"backend": "cos", "config": {"bucket": "b", "region": "r", "assume_role": "x"}}, "a string where blocks are wanted"),
        "oss-no-bucket": ({"backend": "oss", "config": {}}, "missing required bucket"),
        "kubernetes-no-secret-suffix": ({"backend": "kubernetes", "config": {"namespace": "n"}}, "missing required secret_suffix"),
        "kubernetes-labels-list": ({"backend": "kubernetes", "config": {"secret_suffix": "s", "labels": ["a"]}}, "a list where a map is wanted"),
        "kubernetes-paths-object": ({"backend": "kubernetes", "config": {"secret_suffix": "s", "config_paths": {"a": "b"}}}, "an object where a list is wanted"),
        "remote-no-organization": ({"backend": "remote", "config": {"workspaces": {"name": "w"}}}, "missing required organization"),
        "remote-ok": ({"backend": "remote", "config": {"organization": "o", "workspaces": {"name": "w"}}}, VALID),
        "remote-organization-number": ({"backend": "remote", "config": {"organization": 1, "workspaces": {"name": "w"}}}, VALID),
        "remote-workspaces-list": ({"backend": "remote", "config": {"organization": "o", "workspaces": [{"name": "w"}]}}, "a list where a block object is wanted"),
        "remote-workspaces-unknown-key": ({"backend": "remote", "config": {"organization": "o", "workspaces": {"nam": "w"}}}, "unknown key in a nested block (did you mean name?)"),
        "cloud-ok": ({"backend": "cloud", "config": {"organization": "o", "workspaces": {"name": "w"}}}, VALID),
        "cloud-workspaces-string": ({"backend": "cloud", "config": {"organization": "o", "workspaces": "w"}}, "a string where a block object is wanted"),
        "cloud-organization-list": ({"backend": "cloud", "config": {"organization": ["o"]}}, "a list where a string is wanted"),
        "local-path-number": ({"backend": "local", "config": {"path": 1}}, VALID),
        "local-path-bool": ({"backend": "local", "config": {"path": True}}, VALID),
        "local-path-list": ({"backend": "local", "config": {"path": ["a"]}}, "a list where a string is wanted"),
        "local-config-string": ({"backend": "local", "config": "x"}, "config not an object"),
        "local-config-number": ({"backend": "local", "config": 1}, "config not an object"),
        "local-config-array": ({"backend": "local", "config": [{"path": "x"}]}, "config not an object"),
        "local-config-template-text": ({"backend": "local", "config": "a${var.v}"}, "config a string (a template with text)"),
        "local-config-template-array": ({"backend": "local", "config": ["${var.v}"]}, "config a tuple (not known, still no object)"),
        "local-config-lone-template": ({"backend": "local", "config": "${var.v}"}, VALID),
        "s3-config-templated-key": ({"backend": "s3", "config": {"bucket": "${var.v}"}}, VALID),
        "backend-template-unknown-key": ({"backend": "${var.v}", "config": {"nope": 1}}, VALID),
        "defaults-string": ({"backend": "local", "defaults": "x"}, "defaults not an object"),
        "defaults-number": ({"backend": "local", "defaults": 1}, "defaults not an object"),
        "defaults-array": ({"backend": "local", "defaults": ["x"]}, "defaults not an object"),
        "defaults-template-text": ({"backend": "local", "defaults": "a${var.v}"}, "defaults a string"),
        "defaults-lone-template": ({"backend": "local", "defaults": "${var.v}"}, VALID),
        "defaults-null": ({"backend": "local", "defaults": None}, VALID),
        # the backend's own validation, once the schema accepts the configuration
        "local-path-empty": ({"backend": "local", "config": {"path": ""}}, "an empty path"),
        "local-workspace-dir-empty": ({"backend": "local", "config": {"workspace_dir": ""}}, "an empty workspace_dir"),
        "local-path-null": ({"backend": "local", "config": {"path": None}}, VALID),
        "remote-organization-empty": ({"backend": "remote", "config": {"organization": "", "workspaces": {"name": "w"}}}, "an empty organization"),
        "remote-organization-null": ({"backend": "remote", "config": {"organization": None, "workspaces": {"name": "w"}}}, "a null organization"),
        "remote-no-workspaces": ({"backend": "remote", "config": {"organization": "o"}}, "neither workspace name nor prefix"),
        "remote-workspaces-both": ({"backend": "remote", "config": {"organization": "o", "workspaces": {"name": "w", "prefix": "p"}}}, "both name and prefix"),
        "remote-workspaces-prefix": ({"backend": "remote", "config": {"organization": "o", "workspaces": {"prefix": "p"}}}, VALID),
        "remote-workspaces-empty-name-and-prefix": ({"backend": "remote", "config": {"organization": "o", "workspaces": {"name": "", "prefix": "p"}}}, VALID),
        # what only some engines or releases have: Terraform 1.11.4 judges by its own
        "http-headers": ({"backend": "http", "config": {"address": "http://x", "headers": {"a": "b"}}}, "OpenTofu's key"),
        "oss-tablestore": ({"backend": "oss", "config": {"bucket": "b", "tablestore_instance_name": "t"}}, "a key of Terraform 1.12+"),
        "s3-assume-role-duration-seconds": (s3(assume_role_duration_seconds=1), "OpenTofu's key"),
        "oci-backend": ({"backend": "oci", "config": {"bucket": "b", "namespace": "n"}}, "a backend of Terraform 1.12+"),
        "cloud-workspaces-project": ({"backend": "cloud", "config": {"organization": "o", "workspaces": {"name": "w", "project": "p"}}}, VALID),
        "workspace-number": ({"backend": "local", "workspace": 1}, VALID),
        "workspace-object": ({"backend": "local", "workspace": {"a": 1}}, "an object where a string is wanted"),
    }
    for slug, (body, intent) in cases_.items():
        yield _module(f"remote-state-config-{slug}", cat, intent,
                      {"variable": {"v": {"default": "x"}}, "data": {"terraform_remote_state": {"s": body}}})


# --- types: variable defaults, module inputs -------------------------------------------------------

TYPE_DEFAULTS: tuple[tuple[str, str, Any, bool], ...] = (
    ("string-string", "string", "x", True),
    ("string-number", "string", 42, True),
    ("string-bool", "string", True, True),
    ("string-list", "string", ["a"], False),
    ("string-object", "string", {"a": 1}, False),
    ("number-number", "number", 1.5, True),
    ("number-numeric-string", "number", "42", True),
    ("number-word", "number", "x", False),
    ("number-bool", "number", True, False),
    ("bool-bool", "bool", False, True),
    ("bool-string-true", "bool", "true", True),
    ("bool-word", "bool", "yes", False),
    ("bool-number", "bool", 1, False),
    ("list-list", "list(string)", ["a", "b"], True),
    ("list-string", "list(string)", "a", False),
    ("list-of-numbers-words", "list(number)", ["a"], False),
    ("list-of-numbers-mixed", "list(number)", [1, "2"], True),
    ("set-list", "set(string)", ["a", "a"], True),
    ("map-map", "map(string)", {"a": "b"}, True),
    ("map-list", "map(string)", ["a"], False),
    ("map-nested", "map(string)", {"a": {"b": 1}}, False),
    ("map-number-values", "map(number)", {"a": "x"}, False),
    ("object-ok", "object({a = string, b = number})", {"a": "x", "b": 1}, True),
    ("object-missing-attr", "object({a = string, b = number})", {"a": "x"}, False),
    ("object-extra-attr", "object({a = string})", {"a": "x", "c": 1}, True),
    ("object-optional", "object({a = string, b = optional(number)})", {"a": "x"}, True),
    ("object-optional-default", 'object({a = string, b = optional(number, 3)})', {"a": "x"}, True),
    ("object-wrong-attr-type", "object({a = number})", {"a": "x"}, False),
    ("tuple-ok", "tuple([string, number])", ["a", 1], True),
    ("tuple-short", "tuple([string, number])", ["a"], False),
    ("any-object", "any", {"a": [1]}, True),
    ("null-default", "string", None, True),
    ("list-of-objects", "list(object({n = string}))", [{"n": "a"}, {"m": "b"}], False),
    ("map-of-objects-ok", "map(object({n = number}))", {"k": {"n": 1}}, True),
)


def _type_cases() -> Iterator[Case]:
    cat = "types"
    for slug, typ, default, ok in TYPE_DEFAULTS:
        yield _module(f"default-{slug}", cat, VALID if ok else "default does not convert to the type",
                      {"variable": {"v": {"type": typ, "default": default}}})
    yield _module("default-null-not-nullable", cat, "null default of a non-nullable variable",
                  {"variable": {"v": {"type": "string", "default": None, "nullable": False}}})
    bad_types = {
        "unknown-type": ("strin", "unknown type keyword"),
        "list-no-arg": ("list", VALID),
        "map-of-nothing": ("map()", "map without an element type"),
        "object-bad": ("object({a})", "object attribute without a type"),
        "quoted-legacy": ('"string"', "a quoted type"),
        "optional-top": ("optional(string)", "optional outside an object"),
        "template-in-type": ("${string}", "template in a type"),
    }
    for slug, (typ, intent) in bad_types.items():
        yield _module(f"constraint-{slug}", cat, intent, {"variable": {"v": {"type": typ}}})
    inputs: tuple[tuple[str, str, Any, bool], ...] = (
        ("string-ok", "name", "a", True),
        ("string-number", "name", 3, True),
        ("string-list", "name", ["a"], False),
        ("number-word", "size", "big", False),
        ("number-ok", "size", 3, True),
        ("map-list", "tags", ["a"], False),
        ("map-ok", "tags", {"a": "b"}, True),
        ("map-nested", "tags", {"a": {"b": "c"}}, False),
        ("object-missing-attr", "opts", {"b": 1}, False),
        ("object-ok", "opts", {"a": "y", "b": 2}, True),
        ("object-wrong-attr", "opts", {"a": "y", "b": "z"}, False),
    )
    for slug, name, value, ok in inputs:
        body = {"source": "./child", "name": "n"}
        body[name] = value
        yield _module(f"module-input-{slug}", cat, VALID if ok else "module input of the wrong type",
                      {"module": {"m": body}}, child__main=CHILD)
    yield _module("module-input-reference", cat, VALID,
                  {"variable": {"x": {"type": "list(string)", "default": []}},
                   "module": {"m": {"source": "./child", "name": "${var.x[0]}"}}}, child__main=CHILD)


def _typed_template_cases() -> Iterator[Case]:
    """Templates that read input variables, evaluated with each variable an unknown of its type."""
    cat = "types"
    variables = {"variable": {
        "l": {"type": "list(string)"}, "m": {"type": "map(string)"}, "s": {"type": "string"}, "b": {"type": "bool"},
        "n": {"type": "number"}, "a": {}, "o": {"type": "object({x = string, n = number})"},
        "st": {"type": "set(string)"}, "tp": {"type": "tuple([string])"},
    }}
    expressions = {
        "upper-list": ("${upper(var.l)}", "list to a string parameter"),
        "upper-object": ("${upper(var.o)}", "object to a string parameter"),
        "upper-string": ("${upper(var.s)}", VALID),
        "upper-number": ("${upper(var.n)}", VALID),
        "upper-bool": ("${upper(var.b)}", VALID),
        "upper-map-element": ('${upper(var.m["k"])}', VALID),
        "upper-list-element": ("${upper(var.l[0])}", VALID),
        "upper-attribute": ("${upper(var.o.x)}", VALID),
        "upper-any": ("${upper(var.a)}", VALID),
        "abs-list": ("${abs(var.l)}", "list to a number parameter"),
        "abs-string": ("${abs(var.s)}", VALID),
        "plus-list": ("${var.l + 1}", "list operand"),
        "plus-bool": ("${var.b + 1}", "bool operand of +"),
        "plus-string": ("${var.s + 1}", VALID),
        "plus-numbers": ("${var.n + var.o.n}", VALID),
        "times-attribute": ("${var.o.x * 2}", VALID),
        "less-list": ("${var.l < 1}", "list operand of <"),
        "not-list": ("${!var.l}", "list operand of !"),
        "not-string": ("${!var.s}", VALID),
        "not-number": ("${!var.n}", "number operand of !"),
        "and-number": ("${var.b && var.n}", "number operand of &&"),
        "equal-list-map": ("${var.l == var.m}", VALID),
        "try-upper-list": ('${try(upper(var.l), "x")}', VALID),
        "can-upper-list": ("${can(upper(var.l))}", VALID),
        "known-condition": ('${true ? upper(var.l) : "x"}', "list to a string parameter in the branch taken"),
        "for-upper": ("${[for x in var.l : upper(x)]}", VALID),
        "text-around": ("${upper(var.l)}-x", "list to a string parameter"),
        "lower-element": ("${lower(var.l[0])}", VALID),
        "index-list-word": ('${var.l["a"]}', "a word as a list index"),
        "index-list-number-string": ('${var.l["1"]}', VALID),
        "index-list-fraction": ("${var.l[1.5]}", VALID),
        "index-list-negative": ("${var.l[-1]}", VALID),
        "index-tuple-word": ('${var.tp["x"]}', "a word as a tuple index"),
        "index-constant-tuple-word": ('${[1, 2]["a"]}', "a word as a tuple index"),
        "index-set": ("${var.st[0]}", "an index on a set"),
        "index-map-number": ("${var.m[0]}", VALID),
        "index-object-number": ("${var.o[0]}", VALID),
        # parameters of a collection type: the argument converted to it (`join`'s list of strings)
        "join-string": ('${join(",", var.s)}', "a string to a list parameter"),
        "join-map": ('${join(",", var.m)}', "a map to a list parameter"),
        "join-set": ('${join(",", var.st)}', VALID),
        "join-tuple-of-primitives": ('${join(",", ["a", 1, true, var.n])}', VALID),
        "join-nested": ('${join(",", [["a"]])}', "a list of lists to a list of strings"),
        "join-object": ('${join(",", var.o)}', "an object to a list parameter"),
        "sort-string": ('${sort("abc")}', "a string to a list parameter"),
        "distinct-object": ("${distinct(var.o)}", "an object to a list parameter"),
        "distinct-tuple": ('${distinct(["a", 1])}', VALID),
        "alltrue-numbers": ("${alltrue([1])}", "a number to a bool element"),
        "alltrue-strings": ('${alltrue(["true", var.b])}', VALID),
        "setunion-string": ('${setunion(var.l, "a")}', "a string to a set parameter"),
        "setunion-mixed": ('${setunion([1], ["a"], var.st)}', VALID),
        "transpose-object": ('${transpose({a = ["x"], b = var.l})}', VALID),
        "transpose-list": ("${transpose(var.l)}", "a list to a map parameter"),
        "zipmap-tuple": ("${zipmap([\"a\", 1], [1, 2])}", VALID),
        "compact-nulls": ('${compact(["a", null, ""])}', VALID),
        # a function's own checks of its arguments' types (`function_types`)
        "merge-list": ("${merge(var.l)}", "a list merged"),
        "merge-string-second": ("${merge(var.m, var.s)}", "a string merged"),
        "merge-tuple": ('${merge(["a"])}', "a tuple merged"),
        "merge-maps": ("${merge(var.m, var.o, {a = 1})}", VALID),
        "merge-any-first": ("${merge(var.a, var.l)}", VALID),
        "merge-null": ("${merge(null, var.m)}", VALID),
        "keys-list": ("${keys(var.l)}", "the keys of a list"),
        "keys-object": ("${keys(var.o)}", VALID),
        "values-set": ("${values(var.st)}", "the values of a set"),
        "values-map": ("${values(var.m)}", VALID),
        "length-number": ("${length(var.n)}", "the length of a number"),
        "length-bool": ("${length(true)}", "the length of a bool"),
        "length-string": ("${length(var.s)}", VALID),
        "length-object": ("${length(var.o)}", VALID),
        "lookup-list": ('${lookup(var.l, "a", "")}', "a lookup in a list"),
        "lookup-map": ('${lookup(var.m, "a", "")}', VALID),
        "element-set": ("${element(var.st, 0)}", "an element of a set"),
        "element-map": ("${element(var.m, 0)}", "an element of a map"),
        "element-empty": ("${element([], 0)}", "an element of an empty tuple"),
        "element-list": ("${element(var.l, 5)}", VALID),
        "element-tuple": ('${element(["a"], 5)}', VALID),
        "reverse-map": ("${reverse(var.m)}", "a map reversed"),
        "reverse-set": ("${reverse(var.st)}", VALID),
        "slice-set": ("${slice(var.st, 0, 1)}", "a set sliced"),
        "slice-string": ("${slice(var.s, 0, 1)}", "a string sliced"),
        "slice-list": ("${slice(var.l, 0, 1)}", VALID),
        "zipmap-map": ("${zipmap(var.l, var.m)}", "a map as zipmap's values"),
        "zipmap-list": ("${zipmap(var.l, var.l)}", VALID),
        "one-string": ("${one(var.s)}", "one of a string"),
        "one-pair": ('${one(["a", "b"])}', "one of two elements"),
        "one-empty": ("${one([])}", VALID),
        "one-set": ("${one(var.st)}", VALID),
        # functions that check their arguments' kinds only on values Terraform knows
        "contains-string": ('${contains("abc", "a")}', "a string searched"),
        "contains-variable": ('${contains(var.s, "a")}', VALID),
        "contains-tuple": ('${contains(["a", var.s], "a")}', VALID),
        "flatten-string": ('${flatten("x")}', "a string flattened"),
        "flatten-map": ("${flatten(var.m)}", VALID),
        "flatten-list": ('${flatten([["a"], var.l])}', VALID),
        "coalescelist-string": ('${coalescelist([], "a")}', "a string as coalescelist's argument"),
        "coalescelist-unknown-first": ('${coalescelist(var.l, "a")}', VALID),
    }
    for slug, (expression, intent) in expressions.items():
        yield _module(f"typed-{slug}", cat, intent, _merge(variables, {"locals": {"v": expression}}))
    yield _module("typed-resource-argument", cat, "list to a string parameter in a resource argument",
                  _merge(variables, _td({"input": "${upper(var.l)}"})))
    yield _module("typed-output", cat, "list operand in an output", _merge(variables, {"output": {"o": {"value": "${var.l + 1}"}}}))
    yield _module("typed-module-input", cat, "list to a string parameter in a module input",
                  _merge(variables, {"module": {"m": {"source": "./child", "name": "${upper(var.l)}"}}}), child__main=CHILD)
    yield _module("typed-variable-elsewhere", cat, "list to a string parameter, the variable in another file",
                  {"locals": {"v": "${upper(var.names)}"}}, variables={"variable": {"names": {"type": "list(string)"}}})
    yield _module("typed-local-upper-list", cat, "a local list to a string parameter",
                  {"locals": {"l": ["a"], "v": "${upper(local.l)}"}})
    yield _module("typed-local-plus-number", cat, VALID, {"locals": {"n": 1, "v": "${local.n + 1}"}})
    yield _module("typed-local-plus-object", cat, "a local object operand", {"locals": {"o": {"a": 1}, "v": "${local.o + 1}"}})
    yield _module("typed-local-alias-upper", cat, "a local naming a list variable, to a string parameter",
                  _merge(variables, {"locals": {"a": "${var.l}", "v": "${upper(local.a)}"}}))
    yield _module("typed-local-computed", cat, VALID, _merge(variables, {"locals": {"c": "${var.s}", "v": "${upper(local.c)}"}}))
    places: dict[str, tuple[dict[str, Any], str]] = {
        "in-provisioner": (_td({"provisioner": {"local-exec": {"command": "${upper(var.l)}"}}}), "in a provisioner"),
        "in-connection": (_td({"connection": {"host": "${upper(var.l)}"}, "provisioner": {"local-exec": {"command": "x"}}}),
                          "in a connection"),
        "in-precondition": (_td({"lifecycle": {"precondition": {"condition": '${upper(var.l) == ""}', "error_message": "x"}}}),
                            "in a precondition"),
        "in-postcondition-message": (_td({"lifecycle": {"postcondition": {"condition": "${var.b}", "error_message": "${upper(var.l)}"}}}),
                                     "in a postcondition's error message"),
        "in-unknown-branch": (_td({"input": '${var.b ? upper(var.l) : ""}'}), VALID),
        "in-import-id": ({"import": {"to": "terraform_data.t", "id": "${upper(var.l)}"}, **_td({})}, "in an import id"),
        "in-output-precondition": ({"output": {"o": {"value": 1, "precondition": {"condition": "${!var.l}", "error_message": "x"}}}},
                                   "in an output's precondition"),
    }
    for slug, (body, intent) in places.items():
        yield _module(f"typed-{slug}", cat, intent, _merge(variables, body))
    yield _module("typed-overridden", cat, VALID,
                  {"variable": {"l": {"type": "list(string)"}}, "locals": {"x": ["a"], "a": "${upper(var.l)}"},
                   **_td({"for_each": "${local.x}"})},
                  main_override={"variable": {"l": {"type": "string"}}, "locals": {"x": {"k": "v"}}})
    yield _module("typed-validation", cat, "list to a string parameter in a variable's validation",
                  {"variable": {"l": {"type": "list(string)", "validation": {
                      "condition": '${upper(var.l) != ""}', "error_message": "Bad."}}}})


def _argument_type_cases() -> Iterator[Case]:
    """Argument values of one interpolation converted to the argument's type: a built-in data source's
    `string` attributes (its schema), and module inputs (the child's variable types)."""
    cat = "types"
    variables = {"variable": {
        "l": {"type": "list(string)"}, "m": {"type": "map(string)"}, "s": {"type": "string"}, "b": {"type": "bool"},
        "n": {"type": "number"}, "a": {}, "o": {"type": "object({x = string})"}, "st": {"type": "set(string)"},
        "ll": {"type": "list(list(string))"}, "ml": {"type": "map(list(string))"}, "ob": {"type": "object({c = string})"},
        "oe": {"type": "object({a = string, z = number})"},
    }}
    locals_ = {"locals": {"t": [1, True], "t3": ["a", 1, 2], "o": {"b": 1}, "oa": {"a": "x"}, "mixed": ["a", ["b"]],
                          "num": "12", "alias": "${var.l}", "list": ["a"]}}
    declared = _merge(variables, locals_)
    workspace = {
        "list": ("${var.l}", "list variable to a string argument"),
        "map": ("${var.m}", "map variable to a string argument"),
        "number": ("${var.n}", VALID),
        "bool": ("${var.b}", VALID),
        "any": ("${var.a}", VALID),
        "element": ("${var.l[0]}", VALID),
        "object-attribute": ("${var.o.x}", VALID),
        "constant-tuple": ("${[1]}", "tuple constant to a string argument"),
        "local-list": ("${local.list}", "local list to a string argument"),
        "local-alias": ("${local.alias}", "local naming a list variable, to a string argument"),
        "set": ("${var.st}", "set variable to a string argument"),
    }
    for slug, (value, intent) in workspace.items():
        body = {"data": {"terraform_remote_state": {"s": {"backend": "local", "workspace": value}}}}
        yield _module(f"argument-workspace-{slug}", cat, intent, _merge(declared, body))
    yield _module("argument-backend-object", cat, "object variable to a string argument",
                  _merge(declared, {"data": {"terraform_remote_state": {"s": {"backend": "${var.o}"}}}}))
    child = {"variable": {name: {"type": t, "default": None} for name, t in {
        "s": "string", "n": "number", "b": "bool", "ls": "list(string)", "ln": "list(number)",
        "o": "object({a = string, b = optional(number)})", "m": "map(string)", "la": "list(any)", "st": "set(string)",
        "tp": "tuple([string, number])"}.items()}}
    inputs = {
        "string-list": ("s", "${var.l}", "list variable to a string input"),
        "string-number": ("s", "${var.n}", VALID),
        "string-constant-tuple": ("s", "${[1]}", "tuple constant to a string input"),
        "string-resource-attribute": ("s", "${terraform_data.r.output}", VALID),
        "number-bool": ("n", "${var.b}", "bool variable to a number input"),
        "number-string": ("n", "${var.s}", VALID),
        "number-local-numeric": ("n", "${local.num}", VALID),
        "bool-string": ("b", "${var.s}", VALID),
        "list-string": ("ls", "${var.s}", "string variable to a list input"),
        "list-set": ("ls", "${var.st}", VALID),
        "list-tuple-bool": ("ln", "${local.t}", "a bool element to a list of number"),
        "list-tuple-strings": ("ls", "${local.t}", VALID),
        "list-nested": ("ls", "${var.ll}", "list of lists to a list of strings"),
        "list-numbers-from-strings": ("ln", "${var.l}", VALID),
        "object-missing": ("o", "${local.o}", "object without a required attribute"),
        "object-ok": ("o", "${local.oa}", VALID),
        "object-from-map": ("o", "${var.ml}", "map to an object input"),
        "object-other": ("o", "${var.ob}", "object without a required attribute"),
        "object-extra": ("o", "${var.oe}", VALID),
        "map-list": ("m", "${var.l}", "list to a map input"),
        "map-object": ("m", "${local.oa}", VALID),
        "any-mixed": ("la", "${local.mixed}", "elements of no one type"),
        "any-number-bool": ("la", "${local.t}", "a number and a bool as list(any)"),
        "tuple-length": ("tp", "${local.t3}", "three elements to a tuple of two"),
        "tuple-from-list": ("tp", "${var.l}", "a list to a tuple input"),
        "set-tuple": ("st", "${local.t}", VALID),
        "list-text-template": ("ls", "a-${var.s}", "a string template to a list input"),
        "list-directive": ("ls", "%{if var.b}a%{endif}", "a string template to a list input"),
        "string-text-template": ("s", "a-${var.l[0]}", VALID),
    }
    for slug, (name, value, intent) in inputs.items():
        main = _merge(declared, {**_td({}, "r"), "module": {"m": {"source": "./child", name: value}}})
        yield _module(f"argument-input-{slug}", cat, intent, main, child__main=child)


def _conditional_cases() -> Iterator[Case]:
    """A conditional's result types unified (HCL's `UnifyUnsafe`), whatever its condition."""
    cat = "types"
    variables = {"variable": {
        "l": {"type": "list(string)"}, "ln": {"type": "list(number)"}, "st": {"type": "set(string)"}, "m": {"type": "map(string)"},
        "b": {"type": "bool"}, "n": {"type": "number"}, "s": {"type": "string"}, "t": {"type": "tuple([string, number])"},
        "o1": {"type": "object({a = string})"}, "o2": {"type": "object({b = string})"}, "o3": {"type": "object({b = list(string)})"},
    }}
    expressions = {
        "list-string": ("${var.b ? var.l : \"x\"}", "list and string results"),
        "list-map": ("${var.b ? var.l : var.m}", "list and map results"),
        "number-bool": ("${var.b ? var.n : var.b}", "number and bool results"),
        "constant-number-bool": ("${var.b ? 1 : true}", "number and bool results"),
        "known-condition": ("${true ? var.l : \"x\"}", "list and string results, the condition known"),
        "objects-other-types": ("${var.b ? var.o1 : var.o3}", "objects of other attributes and types"),
        "objects-attribute-types": ("${var.b ? {a = 1} : {a = \"x\", b = [1]}}", "objects of other attributes and types"),
        "tuples-lengths": ("${var.b ? [1] : [\"a\", [1]]}", "tuples of other lengths and types"),
        "tuple-object": ("${var.b ? [] : {}}", "a tuple and an object"),
        "list-empty-tuple": ("${var.b ? var.l : []}", VALID),
        "number-string": ("${var.b ? 1 : \"x\"}", VALID),
        "list-null": ("${var.b ? null : var.l}", VALID),
        "map-empty-object": ("${var.b ? var.m : {}}", VALID),
        "objects-other-names": ("${var.b ? var.o1 : var.o2}", VALID),
        "tuples-unify-to-list": ("${var.b ? [1] : [\"a\", 2]}", VALID),
        "list-set": ("${var.b ? var.l : var.st}", VALID),
        "list-element-types": ("${var.b ? var.l : var.ln}", VALID),
        "tuple-list": ("${var.b ? var.t : var.l}", VALID),
        "objects-to-map": ("${var.b ? {a = 1} : {b = 2}}", VALID),
        "function-argument": ("${upper(var.b ? [1] : [2])}", "a tuple (a conditional's) to a string parameter"),
    }
    for slug, (expression, intent) in expressions.items():
        yield _module(f"conditional-{slug}", cat, intent, _merge(variables, {"locals": {"v": expression}}))
    yield _module("conditional-count", cat, "list and number results as a count",
                  _merge(variables, _td({"count": "${var.b ? var.l : 1}"})))
    repetition = {
        "for-each-list": ({"for_each": "${var.b ? var.l : []}"}, "a list (a conditional's) as for_each"),
        "for-each-map": ({"for_each": "${var.b ? var.m : {}}"}, VALID),
        "for-each-set": ({"for_each": "${var.b ? toset(var.l) : toset([])}"}, VALID),
        "count-bool": ({"count": "${var.b ? var.b : false}"}, "a bool (a conditional's) as count"),
        "count-number": ({"count": "${var.b ? 1 : 0}"}, VALID),
        "count-number-local": ({"count": "${local.on ? 1 : 0}"}, VALID),
    }
    for slug, (body, intent) in repetition.items():
        yield _module(f"conditional-{slug}", cat, intent, _merge(variables, {"locals": {"on": True}, **_td(body)}))
    # A known set (`toset` of known elements) must be of strings; an unknown one is not judged.
    sets = {
        "objects": ("${toset([{a = 1}])}", "a known set of objects as for_each"),
        "numbers": ("${toset([1, 2])}", "a known set of numbers as for_each"),
        "local-objects": ("${toset(local.users)}", "a local list of objects made a set, as for_each"),
        "local-strings": ("${toset(local.names)}", VALID),
        "mixed": ("${toset([\"a\", 1])}", VALID),
        "variable-objects": ("${toset(var.objs)}", VALID),
    }
    # A value interpolated among other parts is converted to a string (an unknown one is not checked).
    interpolated = {
        "tuple": ("x-${[1]}", "a tuple in a string template"),
        "object-in-directive": ("%{if true}${{a = 1}}%{endif}", "an object in a string template's directive"),
        "null-beside-call": ('x-${null}-${upper("a")}', "a null in a string template"),
        "null-names-only": ("x-${null}", "a null in a string template of names only"),
        "null-before-text": ("${null}y", "a null before text"),
        "null-alone": ("${null}", VALID),
        "bools-names-only": ("${true}-${false}", VALID),
        "alone": ("${[1]}", VALID),
        "variable-list": ("x-${var.objs}", VALID),
        "element": ('x-${[1, "a"][1]}', VALID),
    }
    for slug, (value, intent) in interpolated.items():
        yield _module(f"interpolation-{slug}", cat, intent,
                      {"variable": {"objs": {"type": "list(object({a = string}))"}}, "locals": {"v": value}})
    # A local value interpolated among other parts: its value as validate knows it (a literal, or
    # the one reference it is) converted to a string.
    known = {"names": ["a", "b"], "obj": {"a": "x", "b": [1]}, "nothing": None, "word": "w", "alias": "${local.names}"}
    interpolated_locals = {
        "list": ("x-${local.names}", "a local list in a string template"),
        "null": ("${local.nothing}-y", "a local null in a string template"),
        "attribute-list": ("x-${local.obj.b}", "a local object's list attribute in a string template"),
        "alias": ("${local.alias}/z", "a local naming a local list, in a string template"),
        "object-beside-call": ("x-${upper(var.s)}-${local.obj}", "a local object beside a call, in a string template"),
        "element": ("x-${local.names[0]}-${local.obj.a}", VALID),
        "alone": ("${local.names}", VALID),
        "strings": ("${local.word}${local.word}", VALID),
        "in-conditional": ("${var.on ? \"x-${local.names}\" : \"\"}", VALID),
    }
    for slug, (value, intent) in interpolated_locals.items():
        yield _module(f"interpolation-local-{slug}", cat, intent, {
            "variable": {"s": {"type": "string"}, "on": {"type": "bool"}}, "locals": {**known, "v": value}})
    # The steps after a local value validate knows, applied to it (outside `try`).
    literals = {"obj": {"a": "x", "b": [1], "c": {"d": 1}}, "names": ["a", "b"], "nothing": None, "num": 5,
                "none": [], "alias": "${local.obj}"}
    local_steps = {
        "missing-attribute": ("${local.obj.missing}", "a local object's missing attribute"),
        "nested-attribute": ("${local.obj.c.e}", "a missing attribute of a local object's object"),
        "alias-attribute": ("${local.alias.zz}", "a missing attribute through a local naming a local"),
        "tuple-attribute": ("${local.names.x}", "an attribute of a local list"),
        "number-attribute": ("${local.num.x}", "an attribute of a local number"),
        "index-outside": ("${local.names[5]}", "an index outside a local list"),
        "legacy-index-outside": ("${local.names.5}", "a legacy index outside a local list"),
        "empty-index": ("${local.none[0]}", "an index of an empty local list"),
        "negative-index": ("${local.names[-1]}", "a negative index of a local list"),
        "null-attribute": ("${local.nothing.x}", "an attribute of a local null"),
        "null-index": ("${local.nothing[0]}", "an index of a local null"),
        "in-text": ("x-${local.obj.nope}", "a missing attribute of a local object in a string template"),
        "fine": ("${local.obj.b[0]}-${local.names[1]}-${local.obj.c.d}-${local.names.0}", VALID),
        "in-try": ("${try(local.obj.missing, 1)}", VALID),
        "splat": ("${local.names[*]}", VALID),
    }
    for slug, (value, intent) in local_steps.items():
        yield _module(f"local-steps-{slug}", cat, intent, {"locals": {**literals, "v": value}})
    # A literal structure holding templates: its shape known, each template an unknown value.
    shaped = {"cfg": {"region": "${var.region}", "name": "x", "list": ["${var.a}", 1]}, "refs": ["${var.region}"],
              "tpl": ["a-${var.region}"]}
    shaped_cases = {
        "attribute": ("${local.cfg.regoin}", "a missing attribute of a local object holding references"),
        "index": ("${local.refs[3]}", "an index outside a local list holding references"),
        "interpolated": ("x-${local.cfg}", "a local object holding references, in a string template"),
        "argument": ("${upper(local.cfg)}", "a local object holding references, to a string parameter"),
        "nested-index": ("${local.cfg.list[2]}", "an index outside a list inside a local object"),
        "fine": ("${local.cfg.region}-${local.cfg.list[1]}-${local.refs[0]}", VALID),
        "toset": ("${toset(local.tpl)}", VALID),
        "merge": ("${merge(local.cfg, {b = 1})}", VALID),
        "template-key": ("${local.keyed.zz}", VALID),
    }
    for slug, (value, intent) in shaped_cases.items():
        yield _module(f"local-shape-{slug}", cat, intent, {
            "variable": {"region": {"type": "string"}, "a": {}},
            "locals": {**shaped, "keyed": {"${var.region}": 1}, "v": value}})
    for slug, body, intent in (("for-each-tuple", {"for_each": "${local.refs}"}, "a local list holding references as for_each"),
                               ("count-object", {"count": "${local.cfg}"}, "a local object holding references as count"),
                               ("for-each-object", {"for_each": "${local.cfg}"}, VALID),
                               ("for-each-toset", {"for_each": "${toset(local.tpl)}"}, VALID)):
        yield _module(f"local-shape-{slug}", cat, intent, {
            "variable": {"region": {"type": "string"}, "a": {}}, "locals": shaped, **_td(body)})
    for slug, (value, intent) in sets.items():
        yield _module(f"for-each-toset-{slug}", cat, intent, {
            "variable": {"objs": {"type": "list(object({a = string}))"}},
            "locals": {"users": [{"name": "a"}, {"name": "b"}], "names": ["a", "b"]}, **_td({"for_each": value})})
    yield _module("conditional-argument", cat, "list and string results as a module input",
                  _merge(variables, {"module": {"m": {"source": "./child", "name": "${var.b ? var.l : \"x\"}"}}}),
                  child__main=CHILD)


# --- module calls --------------------------------------------------------------------------------

def _import_key_cases() -> Iterator[Case]:
    """An import block's `to` whose instance key does not fit the target's `count` / `for_each`."""
    cat = "instance-keys"
    repeated = {"count": {"count": 1}, "for-each": {"for_each": {"a": 1}}, "single": {}}
    for to_slug, to in [("string-key", 'terraform_data.r["a"]'), ("number-key", "terraform_data.r[0]"),
                        ("no-key", "terraform_data.r")]:
        for target_slug, body in repeated.items():
            fits = (to_slug, target_slug) in {("string-key", "for-each"), ("number-key", "count"), ("no-key", "single")}
            intent = VALID if fits else "import to an instance key the target's repetition does not take"
            yield _module(f"import-{to_slug}-to-{target_slug}", cat, intent,
                          {"import": {"to": to, "id": "x"}, **_td(body, "r")})
    yield _module("import-for-each-to-for-each", cat, VALID,
                  {"import": {"for_each": {"a": "x"}, "to": "terraform_data.r[each.key]", "id": "${each.value}"},
                   **_td({"for_each": {"a": 1}}, "r")})


def _self_reference_cases() -> Iterator[Case]:
    """A local value that uses its own result ("Self-referencing local value", on each reference)."""
    cat = "references"
    for slug, intent, locals_ in [
        ("local-self", "a local value refers to itself", {"a": "${local.a}"}),
        ("local-self-nested", "local values that refer to themselves, through attributes and indexes",
         {"a": {"x": "${local.a.x}", "y": "${local.a}"}, "b": "${local.b[0]} ${upper(local.c)}", "c": "c"}),
        ("local-self-in-for", "a local value iterates over itself", {"a": "${[for x in local.a : x]}"}),
        ("local-other", VALID, {"a": "${local.b}", "b": 1}),
        # local values that refer to one another ("Cycle: local.b (expand), local.a (expand)", no range)
        ("local-cycle-pair", "two local values refer to each other, in a conditional and in try",
         {"a": "${var.on ? local.b : 1}", "b": "${try(local.a, 2)}"}),
        ("local-cycle-three", "three local values refer to one another, inside structures",
         {"a": "${local.b}-x", "b": ["${local.c}"], "c": {"k": "${upper(local.a)}"}, "d": "${local.a}"}),
        ("local-chain", VALID, {"a": "${local.b}-${local.c}", "b": "${local.c}", "c": "c"}),
    ]:
        yield _module(slug, cat, intent, {"variable": {"on": {"type": "bool"}}, "locals": locals_})
    yield _module("local-cycle-files", cat, "local values of two files refer to each other",
                  {"locals": {"a": "${[for x in local.b : x]}"}}, other={"locals": {"b": "${local.a}"}})


def _provider_passing_cases(cat: str) -> Iterator[Case]:
    """What Terraform's configs/provider_validation.go says of the provider configurations a call
    passes: legacy modules with their own configurations under `count`, `for_each` or `depends_on`,
    a passed configuration the child configures itself, a `configuration_aliases` entry not passed,
    and names neither side declares."""
    builtin = {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}}
    configured = {"terraform": builtin, "provider": {"terraform": {"region": "x"}}}  # a block with content
    aliases = {"terraform": {"required_providers": {"terraform": {
        "source": "terraform.io/builtin/terraform", "configuration_aliases": ["terraform.y"]}}}}
    cases: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
        ("legacy-count", "a module with its own provider configuration called with count",
         {"count": 1}, configured),
        ("legacy-for-each", "a module with its own provider configuration called with for_each",
         {"for_each": {"a": "b"}}, configured),
        ("legacy-depends-on", "a module with its own provider configuration called with depends_on",
         {"depends_on": ["terraform_data.r"]}, configured),
        ("legacy-empty-block", "an empty provider block under count (no configuration)",
         {"count": 1}, {"terraform": builtin, "provider": {"terraform": {}}}),
        ("legacy-alias-only", "a provider block with an alias only under count (no configuration)",
         {"count": 1}, {"terraform": builtin, "provider": {"terraform": {"alias": "a"}}}),
        ("legacy-version-only", "a provider block with a version only under count",
         {"count": 1}, {"terraform": builtin, "provider": {"terraform": {"version": ">= 0"}}}),
        ("override-configured", "a configuration passed to a module that configures it itself",
         {"providers": {"terraform": "terraform"}}, configured),
        ("alias-not-passed", "a configuration_aliases entry the call does not pass",
         {}, aliases),
        ("alias-not-passed-empty-map", "a configuration_aliases entry an empty map does not pass",
         {"providers": {}}, aliases),
        ("alias-passed", "a configuration_aliases entry passed",
         {"providers": {"terraform.y": "terraform"}}, aliases),
        ("alias-configured-in-child", "a configuration_aliases entry the child configures",
         {}, {**aliases, "provider": {"terraform": {"alias": "y", "region": "x"}}}),
        ("alias-empty-block-in-child", "a configuration_aliases entry with only an empty block in the child",
         {}, {**aliases, "provider": {"terraform": {"alias": "y"}}}),
        ("type-mismatch", "a builtin configuration passed as the child's implied hashicorp/terraform",
         {"providers": {"terraform": "terraform"}}, {"locals": {"a": 1}}),
    ]
    for slug, intent, call, child in cases:
        main: dict[str, Any] = {"terraform": builtin, "module": {"m": {"source": "./child", **call}}}
        if "depends_on" in call:
            main.update(_td({}, "r"))
        yield _module(f"providers-{slug}", cat, intent, main, child__main=child)
    yield _case(cat, "providers-legacy-nested-count", "a grandchild holding a configuration, called with count by a counted child",
                {"main.tf.json": {"terraform": builtin, "module": {"m": {"source": "./child", "count": 1}}},
                 "child/main.tf.json": {"module": {"g": {"source": "./g", "count": 2}}}, "child/g/main.tf.json": configured})
    yield _case(cat, "providers-legacy-grandchild", "a grandchild with its own provider configuration under count",
                {"main.tf.json": {"terraform": builtin, "module": {"m": {"source": "./child", "count": 1}}},
                 "child/main.tf.json": {"module": {"g": {"source": "./g"}}}, "child/g/main.tf.json": configured})


def _module_call_cases() -> Iterator[Case]:
    cat = "module-calls"
    child = CHILD
    calls: dict[str, tuple[dict[str, Any], str]] = {
        "ok": ({"source": "./child", "name": "a"}, VALID),
        "all-inputs": ({"source": "./child", "name": "a", "size": 2, "tags": {}, "opts": {"a": "b"}, "secret": "z"}, VALID),
        "unknown-input": ({"source": "./child", "name": "a", "nmae": "b"}, "unknown input (did you mean name?)"),
        "unknown-input-far": ({"source": "./child", "name": "a", "zzz": 1}, "unknown input"),
        "missing-required": ({"source": "./child"}, "missing required input name"),
        "missing-required-with-others": ({"source": "./child", "size": 1}, "missing required input name"),
        "no-source": ({"name": "a"}, "missing source"),
        "source-missing-dir": ({"source": "./nowhere"}, "source directory does not exist"),
        "source-template": ({"source": "./${var.x}", "name": "a"}, "variable in source"),
        "version-on-local": ({"source": "./child", "version": "1.0.0", "name": "a"}, "version on a local source"),
        "count": ({"source": "./child", "count": 2, "name": "a"}, VALID),
        "for-each": ({"source": "./child", "for_each": {"a": "b"}, "name": "${each.value}"}, VALID),
        "count-and-for-each": ({"source": "./child", "count": 1, "for_each": {}, "name": "a"}, "count and for_each"),
        "depends-on": ({"source": "./child", "depends_on": ["terraform_data.r"], "name": "a"}, VALID),
        "providers-unknown": ({"source": "./child", "providers": {"aws": "aws.nope"}, "name": "a"}, "provider not configured"),
        "providers-terraform": ({"source": "./child", "providers": {"terraform": "terraform"}, "name": "a"}, VALID),
        "lifecycle": ({"source": "./child", "lifecycle": {"create_before_destroy": True}, "name": "a"}, "lifecycle in a module call"),
        "input-is-meta-name": ({"source": "./child", "name": "a", "provider": "x"}, "provider in a module call"),
        "input-count-string": ({"source": "./child", "count": "two", "name": "a"}, "count is not a number"),
        "enabled": ({"source": "./child", "name": "a", "enabled": True}, "unknown input (OpenTofu's lifecycle.enabled)"),
        "escaping-block": ({"source": "./child", "_": {"name": "a", "size": 2}}, VALID),
        "escaping-block-unknown": ({"source": "./child", "_": {"name": "a", "nmae": "b"}}, "unknown input in the escaping block"),
        "escaping-block-twice": ({"source": "./child", "_": [{"name": "a"}, {"size": 2}]}, "two escaping blocks"),
        "reserved-locals": ({"source": "./child", "name": "a", "locals": {"x": 1}}, "locals in a module call (reserved)"),
        "reserved-provider": ({"source": "./child", "name": "a", "provider": {"aws": {}}}, "provider in a module call (reserved)"),
    }
    for slug, (body, intent) in calls.items():
        extra: dict[str, Any] = {}
        if "var.x" in json.dumps(body):
            extra = {"variable": {"x": {"default": "child"}}}
        if "terraform_data.r" in json.dumps(body):
            extra = _td({}, "r")
        yield _module(f"call-{slug}", cat, intent, {"module": {"m": body}, **extra}, child__main=child)
    yield from _provider_passing_cases(cat)
    yield _module("more-version-null-on-local", cat, "version (null) with a local source",
                  {"module": {"m": {"source": "./child", "version": None, "name": "a"}}}, child__main=child)
    yield _module("more-source-a-file", cat, "local source that is a file",
                  {"module": {"m": {"source": "./notes.tf.json"}}}, notes={"locals": {"a": 1}})
    yield _module("more-count-null", cat, "null count", {"module": {"m": {"source": "./child", "count": None, "name": "a"}}},
                  child__main=child)
    yield _module("two-calls-same-name", cat, "duplicate module call",
                  {"module": [{"m": {"source": "./child", "name": "a"}}, {"m": {"source": "./child", "name": "b"}}]},
                  child__main=child)
    yield _module("child-error", cat, "undeclared reference inside the child",
                  {"module": {"m": {"source": "./child"}}},
                  child__main={"output": {"o": {"value": "${var.nope}"}}})
    yield _case(cat, "child-native-tf", VALID, {
        "main.tf.json": {"module": {"m": {"source": "./child", "name": "a"}}, "output": {"o": {"value": "${module.m.out}"}}},
        "child/main.tf": "variable \"name\" {\n  type = string\n}\n\noutput \"out\" {\n  value = var.name\n}\n",
    })
    yield _case(cat, "child-native-tf-unknown-input", "unknown input of a native child", {
        "main.tf.json": {"module": {"m": {"source": "./child", "name": "a", "nope": 1}}},
        "child/main.tf": "variable \"name\" {\n  type = string\n}\n",
    })
    yield _case(cat, "child-native-tf-missing-input", "missing required input of a native child", {
        "main.tf.json": {"module": {"m": {"source": "./child"}}},
        "child/main.tf": "variable \"name\" {\n  type = string\n}\n",
    })
    yield _case(cat, "child-native-tf-unknown-output", "output a native child lacks", {
        "main.tf.json": {"module": {"m": {"source": "./child", "name": "a"}}, "output": {"o": {"value": "${module.m.nope}"}}},
        "child/main.tf": "variable \"name\" {\n  type = string\n}\n\noutput \"out\" {\n  value = var.name\n}\n",
    })
    yield _module("counted-output-index", cat, VALID,
                  {"module": {"m": {"source": "./child", "count": 2, "name": "a"}}, "output": {"o": {"value": "${module.m[0].out}"}}},
                  child__main=child)
    yield _module("counted-output-unknown", cat, "output the child lacks, through an index",
                  {"module": {"m": {"source": "./child", "count": 2, "name": "a"}}, "output": {"o": {"value": "${module.m[0].nope}"}}},
                  child__main=child)
    yield _module("counted-output-no-index", cat, "module with count used without an index",
                  {"module": {"m": {"source": "./child", "count": 2, "name": "a"}}, "output": {"o": {"value": "${module.m.out}"}}},
                  child__main=child)
    yield _module("nested-child", cat, VALID,
                  {"module": {"m": {"source": "./child"}}},
                  child__main={"module": {"g": {"source": "./grand"}}, "output": {"o": {"value": "${module.g.x}"}}},
                  child__grand__main={"output": {"x": {"value": 1}}})
    yield _module("nested-child-missing-output", cat, "output the grandchild lacks",
                  {"module": {"m": {"source": "./child"}}},
                  child__main={"module": {"g": {"source": "./grand"}}, "output": {"o": {"value": "${module.g.y}"}}},
                  child__grand__main={"output": {"x": {"value": 1}}})


# --- structure: block shapes, duplicates, names, meta-arguments, lifecycle ------------------------

def _structure_cases() -> Iterator[Case]:
    cat = "structure"
    S: dict[str, tuple[Any, str]] = {
        "empty-file": ({}, VALID),
        "comment-root": ({"//": "note", "locals": {"a": 1}}, VALID),
        "comment-in-resource": (_td({"//": "note", "input": 1}), VALID),
        "unknown-top-block": ({"resources": {}}, "unknown block type (did you mean resource?)"),
        "resource-no-name": ({"resource": {"terraform_data": {"input": 1}}}, "resource without a name label"),
        "resource-body-string": ({"resource": {"terraform_data": {"t": "x"}}}, "block body is a string"),
        "resource-body-array": ({"resource": {"terraform_data": {"t": [{"input": 1}]}}}, VALID),
        "resource-body-two": ({"resource": {"terraform_data": {"t": [{"input": 1}, {"input": 2}]}}}, "resource declared twice"),
        "resource-array-form": ({"resource": [{"terraform_data": {"a": {}}}, {"terraform_data": {"b": {}}}]}, VALID),
        "resource-array-dup": ({"resource": [{"terraform_data": {"a": {}}}, {"terraform_data": {"a": {}}}]}, "duplicate resource"),
        "root-array": ([{"locals": {}}], "root is an array"),
        "locals-array": ({"locals": [{"a": 1}, {"b": 2}]}, VALID),
        "locals-dup": ({"locals": [{"a": 1}, {"a": 2}]}, "duplicate local"),
        "locals-string": ({"locals": "x"}, "locals is a string"),
        "variable-dup": ({"variable": [{"v": {}}, {"v": {}}]}, "duplicate variable"),
        "output-dup": ({"output": [{"o": {"value": 1}}, {"o": {"value": 2}}]}, "duplicate output"),
        "output-no-value": ({"output": {"o": {"description": "x"}}}, "output without value"),
        "output-unknown-arg": ({"output": {"o": {"value": 1, "values": 2}}}, "unknown argument"),
        "output-for-each": ({"output": {"o": {"value": 1, "for_each": {}}}}, "for_each in an output"),
        "output-depends-on": ({"output": {"o": {"value": 1, "depends_on": ["terraform_data.r"]}}, **_td({}, "r")}, VALID),
        "variable-unknown-arg": ({"variable": {"v": {"defaults": 1}}}, "unknown argument"),
        "variable-description-number": ({"variable": {"v": {"description": 5}}}, "number as description"),
        "variable-sensitive-string": ({"variable": {"v": {"sensitive": "true"}}}, "string true for a bool"),
        "variable-sensitive-word": ({"variable": {"v": {"sensitive": "yes"}}}, "not a bool"),
        "variable-nullable-ref": ({"variable": {"v": {"nullable": "${true}"}}}, "expression in nullable"),
        "variable-default-ref": ({"variable": {"v": {"default": "${local.x}"}}, "locals": {"x": 1}}, "reference in a default"),
        "variable-validation": ({"variable": {"v": {"default": "a", "validation": {"condition": "${length(var.v) > 0}", "error_message": "Empty."}}}}, VALID),
        "variable-validation-no-message": ({"variable": {"v": {"validation": {"condition": "${var.v != \"\"}"}}}}, "validation without error_message"),
        "variable-validation-other-var": ({"variable": {"v": {"validation": {"condition": "${var.w != \"\"}", "error_message": "x"}}, "w": {}}}, VALID),
        "variable-validation-undeclared": ({"variable": {"v": {"validation": {"condition": "${var.nope != \"\"}", "error_message": "x"}}}}, "undeclared in a condition"),
        "variable-validation-no-ref": ({"variable": {"v": {"validation": {"condition": "${true}", "error_message": "x"}}}}, "condition refers to nothing"),
        "variable-validation-bad-template": ({"variable": {"v": {"validation": {"condition": "${var.v != \"\"}", "error_message": "Bad ${"}}}}, "error_message does not parse"),
        "variable-ephemeral": ({"variable": {"v": {"ephemeral": True}}}, VALID),
        "provider-terraform": ({"provider": {"terraform": {}}}, "provider block for the built-in provider"),
        "provider-terraform-unknown-arg": ({"provider": {"terraform": {"region": "x"}}}, "unknown argument in a provider block"),
        "provider-terraform-unknown-block": ({"provider": {"terraform": {"assume_role": {"role": "r"}}}},
                                             "unknown nested block in a provider block"),
        "provider-terraform-aliases": ({"provider": {"terraform": [{}, {"alias": "b"}]}}, VALID),
        "provider-terraform-alias-unknown-arg": ({"provider": {"terraform": [{"alias": "b", "regoin": 1}]}},
                                                 "unknown argument in an aliased provider block"),
        # Used by a resource or data source of the module: then `validate` reads the block.
        "provider-terraform-used-unknown-arg": ({"provider": {"terraform": {"region": "x"}}, **_td({})},
                                                "unknown argument in a used provider block"),
        "provider-terraform-used-unknown-block": ({"provider": {"terraform": {"assume_role": {"role": "r"}}}, **_td({})},
                                                  "unknown nested block in a used provider block"),
        "provider-terraform-used-by-data": ({"provider": {"terraform": {"region": "x"}},
                                             "data": {"terraform_remote_state": {"s": {"backend": "local"}}}},
                                            "unknown argument in a provider block a data source uses"),
        "provider-terraform-used-by-meta": ({"provider": {"terraform": {"region": "x"}}, **_td({"provider": "terraform"})},
                                            "unknown argument in a provider block a resource names"),
        "provider-terraform-alias-used-unknown-arg": ({"provider": {"terraform": [{"alias": "b", "regoin": 1}]},
                                                       **_td({"provider": "terraform.b"})},
                                                      "unknown argument in a used aliased provider block"),
        "provider-terraform-default-unused": ({"provider": {"terraform": [{"region": "x"}, {"alias": "b"}]},
                                               **_td({"provider": "terraform.b"})}, VALID),
        "terraform-unknown-arg": ({"terraform": {"required_versions": ">= 1.0"}}, "unknown argument in terraform"),
        "terraform-backend-local": ({"terraform": {"backend": {"local": {"path": "x"}}}}, VALID),
        "terraform-two-backends": ({"terraform": [{"backend": {"local": {}}}, {"backend": {"local": {}}}]}, "two backends"),
        "terraform-required-providers-builtin": ({"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}}}, VALID),
        "terraform-cloud-and-backend": ({"terraform": {"cloud": {"organization": "o"}, "backend": {"local": {}}}}, "cloud and backend"),
        "data-no-name": ({"data": {"terraform_remote_state": {"backend": "local"}}}, "data without a name label"),
        "moved-ok": ({"moved": {"from": "terraform_data.a", "to": "terraform_data.b"}, **_td({}, "b")}, VALID),
        "moved-no-to": ({"moved": {"from": "terraform_data.a"}}, "moved without to"),
        "moved-bad-address": ({"moved": {"from": "var.a", "to": "terraform_data.b"}, **_td({}, "b")}, "moved from a variable"),
        "moved-to-undeclared": ({"moved": {"from": "terraform_data.a", "to": "terraform_data.b"}}, VALID),
        "moved-kind-mismatch": ({"moved": {"from": "terraform_data.a", "to": "module.b"}}, "resource moved to a module"),
        "import-ok": ({"import": {"to": "terraform_data.a", "id": "x"}, **_td({}, "a")}, VALID),
        "import-no-id": ({"import": {"to": "terraform_data.a"}, **_td({}, "a")}, "import without id"),
        "import-to-undeclared": ({"import": {"to": "terraform_data.nope", "id": "x"}}, "import into an undeclared resource"),
        "import-for-each": ({"import": {"for_each": {"a": "x"}, "to": "terraform_data.a[each.key]", "id": "${each.value}"}, **_td({"for_each": {"a": "x"}}, "a")}, VALID),
        "removed-ok": ({"removed": {"from": "terraform_data.a", "lifecycle": {"destroy": False}}}, VALID),
        "removed-declared": ({"removed": {"from": "terraform_data.a", "lifecycle": {"destroy": False}}, **_td({}, "a")}, "removed but still declared"),
        "removed-no-lifecycle": ({"removed": {"from": "terraform_data.a"}}, VALID),
        # Not valid despite its name: the condition refers to nothing ("Invalid assert expression"), so
        # Terraform drops the assert and then finds none ("Zero assert blocks").
        "check-ok": ({"check": {"c": {"assert": {"condition": "${1 == 1}", "error_message": "x"}}}},
                     "assert condition refers to nothing, so no valid assert"),
        "check-no-assert": ({"check": {"c": {}}}, "check without assert"),
        "check-scoped-data": ({"check": {"c": {"data": {"terraform_remote_state": {"s": {"backend": "local"}}}, "assert": {"condition": "${data.terraform_remote_state.s.outputs != null}", "error_message": "x"}}}}, VALID),
        "check-unknown-ref": ({"check": {"c": {"assert": {"condition": "${var.nope}", "error_message": "x"}}}}, "undeclared reference in an assertion"),
        "ephemeral-builtin-unknown": ({"ephemeral": {"terraform_data": {"e": {}}}}, "no ephemeral terraform_data"),
    }
    for slug, (main, intent) in S.items():
        yield _module(slug, cat, intent, main)
    child_resource = _td({}, "c")
    yield _case(cat, "provider-inherited-by-a-child", "unknown argument in a provider block a child module inherits",
                {"main.tf.json": {"provider": {"terraform": {"region": "x"}}, "module": {"c": {"source": "./child"}}},
                 "child/main.tf.json": child_resource})
    yield _case(cat, "provider-inherited-by-a-grandchild", "unknown argument in a provider block a grandchild inherits",
                {"main.tf.json": {"provider": {"terraform": {"region": "x"}}, "module": {"c": {"source": "./child"}}},
                 "child/main.tf.json": {"module": {"g": {"source": "./g"}}}, "child/g/main.tf.json": child_resource})
    yield _case(cat, "provider-child-uses-none", VALID,
                {"main.tf.json": {"provider": {"terraform": {"region": "x"}}, "module": {"c": {"source": "./child"}}},
                 "child/main.tf.json": {"locals": {"a": 1}}})
    builtin = {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}}
    child_aliases = {"terraform": {"required_providers": {"terraform": {
        "source": "terraform.io/builtin/terraform", "configuration_aliases": ["terraform.y"]}}}}
    two_blocks = [{"region": "x"}, {"alias": "x", "zone": "y"}]
    for slug, intent, blocks, providers, child in [
        ("provider-passed-by-a-map", "unknown argument in an aliased provider block a call's map passes down",
         [{"alias": "x", "zone": "y"}], {"terraform": "terraform.x"}, {"terraform": builtin, **child_resource}),
        ("provider-default-beside-an-empty-map", "unknown argument in a default provider block, a call with an empty map",
         [{"region": "x"}], {}, {"terraform": builtin, **child_resource}),
        ("provider-default-set-by-the-map", "the aliased block the map passes; the default beside it unused",
         two_blocks, {"terraform": "terraform.x"}, {"terraform": builtin, **child_resource}),
        ("provider-default-beside-an-alias-map", "unknown argument in a default block inherited beside a map of an alias",
         two_blocks, {"terraform.y": "terraform.x"}, {**child_aliases, **child_resource}),
    ]:
        yield _case(cat, slug, intent,
                    {"main.tf.json": {"terraform": builtin, "provider": {"terraform": blocks},
                                      "module": {"c": {"source": "./child", "providers": providers}}},
                     "child/main.tf.json": child})
    yield _module("provider-dynamic-unknown-block", cat, "a dynamic block of a type the provider lacks",
                  {"provider": {"terraform": {"dynamic": {"foo": {"for_each": [1], "content": {}}}}}, **_td({})})
    yield _case(cat, "provider-used-in-another-file", "unknown argument in a provider block another file's resource uses",
                {"main.tf.json": {"provider": {"terraform": {"region": "x"}}}, "other.tf.json": _td({})})
    yield _case(cat, "variable-dup-across-files", "variable declared in two files",
                {"main.tf.json": {"variable": {"v": {}}}, "other.tf.json": {"variable": {"v": {}}}})
    yield _case(cat, "resource-dup-across-files", "resource declared in two files",
                {"main.tf.json": _td({}), "other.tf.json": _td({})})
    yield _case(cat, "local-dup-across-files", "local declared in two files",
                {"main.tf.json": {"locals": {"a": 1}}, "other.tf.json": {"locals": {"a": 2}}})
    yield _case(cat, "output-dup-across-files", "output declared in two files",
                {"main.tf.json": {"output": {"o": {"value": 1}}}, "other.tf.json": {"output": {"o": {"value": 1}}}})
    yield _case(cat, "dup-json-and-native", "variable in a JSON and a native file",
                {"main.tf.json": {"variable": {"v": {}}}, "other.tf": "variable \"v\" {}\n"})
    yield _case(cat, "override-file", VALID,
                {"main.tf.json": _td({"input": 1}), "override.tf.json": _td({"input": 2})})
    yield _case(cat, "override-file-undeclared", "override of an undeclared resource",
                {"main.tf.json": {}, "main_override.tf.json": _td({"input": 2})})
    yield _case(cat, "duplicate-key-in-object", "argument given twice",
                {"main.tf.json": '{\n  "locals": {\n    "a": 1,\n    "a": 2\n  }\n}\n'})
    yield _case(cat, "duplicate-key-resource-arg", "argument given twice",
                {"main.tf.json": '{\n  "resource": {\n    "terraform_data": {\n      "t": {\n        "input": 1,\n        "input": 2\n      }\n    }\n  }\n}\n'})
    yield _case(cat, "syntax-trailing-comma", "JSON syntax error",
                {"main.tf.json": '{\n  "locals": {\n    "a": 1,\n  }\n}\n'})
    yield _case(cat, "syntax-missing-comma", "JSON syntax error",
                {"main.tf.json": '{\n  "locals": {\n    "a": 1\n    "b": 2\n  }\n}\n'})
    yield _case(cat, "syntax-comment", "JSON has no comments",
                {"main.tf.json": '{\n  // note\n  "locals": {}\n}\n'})
    yield from _duplicate_cases(cat)
    yield from _duplicate_import_cases(cat)


def _duplicate_cases(cat: str) -> Iterator[Case]:
    """Duplicates where JSON lets a name repeat: a second root key, a label twice under one key, the
    type key twice, arrays at a label level or of bodies; for every kind of declaration. Terraform
    reports the second at its `DeclRange`: the `{` of its body, the `[` of an array of bodies (hcl's
    json package), a local value's whole attribute; a `null` body is no block."""
    R = Repeated
    rp = {"terraform": {"source": "terraform.io/builtin/terraform"}}

    def td(labels: Any) -> dict[str, Any]:
        return {"terraform_data": labels}

    def check(c: str) -> dict[str, Any]:
        return {c: {"assert": {"condition": '${var.v != ""}', "error_message": "x"}}}

    remote = {"s": {"backend": "local", "config": {"path": "x.tfstate"}}}
    v = ("variable", {"v": {"default": "x"}})
    D: dict[str, tuple[Any, str]] = {
        "dup-root-keys-resource": (R([("resource", td({"a": {}})), ("resource", td({"a": {"input": 1}}))]), "duplicate resource"),
        "dup-root-keys-resource-provider-array": (R([("resource", td({"a": {}})), ("resource", td({"a": {"provider": []}}))]),
                                                  "duplicate resource, and a provider that is no reference"),
        "dup-root-keys-resource-body-array": (R([("resource", td({"a": {}})), ("resource", td({"a": [{"input": 1}]}))]),
                                              "duplicate resource"),
        "dup-label-twice": ({"resource": td(R([("a", {}), ("a", {"input": 1})]))}, "duplicate resource"),
        "dup-type-key-twice": ({"resource": R([("terraform_data", {"a": {}}), ("terraform_data", {"a": {}})])}, "duplicate resource"),
        "dup-label-level-array": ({"resource": td([{"a": {}}, {"a": {"input": 1}}])}, "duplicate resource"),
        "dup-null-bodies": (R([("resource", td({"a": None})), ("resource", td({"a": None})), ("resource", td({"a": {}}))]), VALID),
        "dup-root-keys-variable": (R([("variable", {"v": {}}), ("variable", {"v": {"type": "string"}})]), "duplicate variable"),
        "dup-root-keys-output": (R([("output", {"o": {"value": 1}}), ("output", {"o": {"value": 2}})]), "duplicate output"),
        "dup-root-keys-data": (R([("data", {"terraform_remote_state": remote}), ("data", {"terraform_remote_state": remote})]),
                               "duplicate data source"),
        "dup-root-keys-provider": (R([("provider", {"terraform": {}}), ("provider", {"terraform": {}})]), "duplicate provider"),
        "dup-root-keys-provider-alias": (R([("provider", {"terraform": {"alias": "x"}}), ("provider", {"terraform": {"alias": "x"}})]),
                                         "duplicate provider alias"),
        "dup-root-keys-check": (R([v, ("check", check("c")), ("check", check("c"))]), "duplicate check"),
        "dup-check-scoped-data": (R([v, ("data", {"terraform_remote_state": remote}),
                                     ("check", {"c": {"data": {"terraform_remote_state": remote}, **check("c")["c"]}})]),
                                  "a check's data source named like a module's"),
        "dup-root-keys-locals": (R([("locals", {"a": 1}), ("locals", {"a": {"b": 2}})]), "duplicate local"),
        "dup-root-keys-backend": (R([("terraform", {"backend": {"local": {}}}), ("terraform", {"backend": {"local": {}}})]),
                                  "two backends"),
        "dup-root-keys-cloud-and-backend": (R([("terraform", {"cloud": {"organization": "o"}}), ("terraform", {"backend": {"local": {}}})]),
                                            "cloud and backend"),
        "dup-required-providers": (R([("terraform", {"required_providers": rp}), ("terraform", {"required_providers": rp})]),
                                   "two required_providers blocks"),
        "dup-required-providers-array": ({"terraform": {"required_providers": [rp, rp]}}, "two required_providers blocks"),
        "dup-required-providers-null": (R([("terraform", {"required_providers": rp}), ("terraform", {"required_providers": None}),
                                           ("terraform", {"required_providers": []})]), VALID),
    }
    for slug, (main, intent) in D.items():
        yield _module(slug, cat, intent, main)
    yield _module("dup-root-keys-module", cat, "duplicate module call",
                  R([("module", {"m": {"source": "./child", "name": "a"}}), ("module", {"m": {"source": "./child", "name": "b"}})]),
                  child__main=CHILD)
    # A body on a line of its own: the line Terraform reports is not the label's.
    yield _case(cat, "dup-body-own-line", "duplicate resource",
                {"main.tf.json": '{\n  "resource": {\n    "terraform_data": {\n      "a": {}\n    }\n  },\n'
                                 '  "resource": {\n    "terraform_data": {\n      "a":\n        {\n          "input": 1\n'
                                 '        }\n    }\n  }\n}\n'})
    yield _case(cat, "resource-dup-across-files-body-array", "resource declared in two files",
                {"main.tf.json": _td({}), "other.tf.json": {"resource": {"terraform_data": {"t": [{"input": 1}]}}}})
    yield _case(cat, "required-providers-across-files", "required_providers in two files",
                {"main.tf.json": {"terraform": {"required_providers": rp}}, "versions.tf.json": {"terraform": {"required_providers": rp}}})
    yield _case(cat, "required-providers-json-and-native", "required_providers in a JSON and a native file",
                {"main.tf.json": {"terraform": {"required_providers": rp}},
                 "versions.tf": 'terraform {\n  required_providers {\n    terraform = {\n      source = "terraform.io/builtin/terraform"\n'
                                '    }\n  }\n}\n'})


def _duplicate_import_cases(cat: str) -> Iterator[Case]:
    """Two import blocks for one resource instance (Terraform's module.go: "Duplicate import
    configuration for ...", at the later `to`), as JSON writes them, across files, and the `to`
    values Terraform does not find equal (another instance key, a key that is no constant)."""
    R = Repeated

    def imp(to: str, id_: str = "x", **more: Any) -> dict[str, Any]:
        return {"to": to, "id": id_, **more}

    counted = _td({"count": 2}, "a")
    D: dict[str, tuple[Any, str]] = {
        "dup-import-array": ({"import": [imp("terraform_data.a"), imp("terraform_data.a", "y")], **_td({}, "a")},
                             "two imports into one resource"),
        "dup-import-root-keys": (R([("import", imp("terraform_data.a")), ("import", imp("terraform_data.a", "y")),
                                    *_td({}, "a").items()]), "two imports into one resource"),
        "dup-import-number-key": ({"import": [imp("terraform_data.a[0]"), imp("terraform_data.a[ 00 ]", "y")], **counted},
                                  "two imports into one instance, its key written twice"),
        "dup-import-other-keys": ({"import": [imp("terraform_data.a[0]"), imp("terraform_data.a[1]", "y")], **counted}, VALID),
        "dup-import-for-each": ({"import": [imp("terraform_data.a[each.key]", "${each.value}", for_each={"k": "x"}),
                                            imp("terraform_data.a[each.key]", "${each.value}", for_each={"k": "y"})],
                                 **_td({"for_each": {"k": 1}}, "a")}, VALID),
        "dup-import-module": ({"import": [imp("module.m.terraform_data.a"), imp("module.m.terraform_data.a", "y")],
                               "module": {"m": {"source": "./child"}}}, "two imports into one resource of a module"),
    }
    for slug, (main, intent) in D.items():
        files: dict[str, Any] = {"child__main": _td({}, "a")} if slug == "dup-import-module" else {}
        yield _module(slug, cat, intent, main, **files)
    yield _case(cat, "dup-import-across-files", "two imports into one resource, in two files",
                {"main.tf.json": {"import": imp("terraform_data.a"), **_td({}, "a")},
                 "imports.tf.json": {"import": imp("terraform_data.a", "y")}})
    yield _case(cat, "dup-import-native-and-json", "two imports into one resource, the first in a native file",
                {"imports.tf": 'import {\n  to = terraform_data.a\n  id = "y"\n}\n',
                 "main.tf.json": {"import": imp("terraform_data.a"), **_td({}, "a")}})


NAMES: tuple[tuple[str, bool], ...] = (
    ("ok", True), ("with-dash", True), ("under_score", True), ("Cap", True), ("x1", True),
    ("1x", False), ("-x", False), ("a.b", False), ("a b", False), ("é", True), ("", False), ("a/b", False),
)


def _name_cases() -> Iterator[Case]:
    cat = "names"
    for label, ok in NAMES:
        slug = {"": "empty", "a b": "space", "a.b": "dot", "a/b": "slash", "é": "unicode", "-x": "leading-dash"}.get(label, label)
        intent = VALID if ok else "invalid name"
        yield _module(f"variable-{slug}", cat, intent, {"variable": {label: {"default": 1}}})
        yield _module(f"resource-{slug}", cat, intent, _td({}, label))
        yield _module(f"output-{slug}", cat, intent, {"output": {label: {"value": 1}}})
        yield _module(f"local-{slug}", cat, intent, {"locals": {label: 1}})
        yield _module(f"module-{slug}", cat, intent, {"module": {label: {"source": "./child", "name": "a"}}},
                      child__main=CHILD)
    for reserved in ("count", "for_each", "source", "version", "providers", "depends_on", "lifecycle", "locals", "sensitive"):
        yield _module(f"variable-reserved-{reserved}", cat, "reserved variable name", {"variable": {reserved: {"default": 1}}})
    for reserved in ("count", "for_each", "depends_on", "providers", "source", "version", "lifecycle"):
        yield _module(f"module-reserved-{reserved}", cat, "reserved module name",
                      {"module": {reserved: {"source": "./child", "name": "a"}}}, child__main=CHILD)
    yield _module("resource-type-bad", cat, "invalid resource type name", {"resource": {"1bad": {"t": {}}}})
    # The provider local name Terraform implies from a type (up to its first "_"): ParseProviderPart.
    for slug, block_type, type_name, body in [
        ("implied-provider-trailing-dash", "resource", "a-_x", {}),
        ("implied-provider-double-dash", "data", "a--b_x", {}),
        ("implied-provider-empty", "resource", "_x", {}),
        ("implied-provider-named", "resource", "a-_x", {"provider": "terraform"}),
        ("implied-provider-array-body", "resource", "a--b_x", [{}]),
    ]:
        intent = "a type implying an invalid provider local name" if "provider" not in body else "a type the provider lacks"
        yield _module(slug, cat, intent, {block_type: {type_name: {"r": body}}})


def _meta_argument_cases() -> Iterator[Case]:
    cat = "meta-arguments"
    M: dict[str, tuple[dict[str, Any], str]] = {
        "count-number": ({"count": 3}, VALID),
        "count-string-number": ({"count": "3"}, VALID),
        "count-word": ({"count": "three"}, "count is not a number"),
        "count-negative": ({"count": -1}, "negative count"),
        "count-fraction": ({"count": 1.5}, "fractional count"),
        "count-list": ({"count": [1]}, "list as count"),
        "count-ref": ({"count": "${length(var.l)}"}, VALID),
        "count-self": ({"count": "${terraform_data.t.id}"}, "self reference in count"),
        "for-each-map": ({"for_each": {"a": 1}}, VALID),
        "for-each-set": ({"for_each": "${toset([\"a\"])}"}, VALID),
        "for-each-list": ({"for_each": ["a", "b"]}, "list in for_each"),
        "for-each-string": ({"for_each": "abc"}, "string in for_each"),
        "count-and-for-each": ({"count": 1, "for_each": {"a": 1}}, "count and for_each"),
        "each-in-count": ({"count": 1, "input": "${each.key}"}, "each in a count resource"),
        "count-in-for-each": ({"for_each": {"a": 1}, "input": "${count.index}"}, "count.index in a for_each resource"),
        "provider-bad": ({"provider": "nope"}, "provider not required"),
        "provider-terraform": ({"provider": "terraform"}, VALID),
        "provider-alias-unknown": ({"provider": "terraform.nope"}, "undeclared provider alias"),
        "provider-null-alias": ({"provider": "null.alias"}, "provider null.alias not configured"),
        "provider-number": ({"provider": 1}, "provider as a number"),
        "provider-template": ({"provider": "${terraform}"}, "provider as a template"),
        "depends-on-resource": ({"depends_on": ["terraform_data.r"]}, VALID),
        "depends-on-interpolated": ({"depends_on": ["${terraform_data.r}"]}, VALID),
        "depends-on-attribute": ({"depends_on": ["terraform_data.r.id"]}, "attribute in depends_on"),
        "depends-on-index": ({"depends_on": ["terraform_data.c[0]"]}, VALID),
        "depends-on-var": ({"depends_on": ["var.l"]}, "variable in depends_on"),
        "depends-on-local": ({"depends_on": ["local.x"]}, VALID),
        "depends-on-undeclared": ({"depends_on": ["terraform_data.nope"]}, "undeclared resource in depends_on"),
        "depends-on-module": ({"depends_on": ["module.nope"]}, "undeclared module in depends_on"),
        "depends-on-string": ({"depends_on": "terraform_data.r"}, "depends_on not a list"),
        "depends-on-function": ({"depends_on": ["${tolist(terraform_data.r)}"]}, "function call in depends_on"),
        "depends-on-self": ({"depends_on": ["terraform_data.t"]}, "depends on itself"),
        "depends-on-data": ({"depends_on": ["data.terraform_remote_state.s"]}, VALID),
        "depends-on-data-attr": ({"depends_on": ["data.terraform_remote_state.s.outputs"]}, "attribute in depends_on"),
        "depends-on-count-index": ({"depends_on": ["count.index"]}, "count.index in depends_on"),
    }
    base = {
        "variable": {"l": {"type": "list(string)", "default": []}},
        "locals": {"x": 1},
        "data": {"terraform_remote_state": {"s": {"backend": "local"}}},
    }
    for slug, (body, intent) in M.items():
        main = _merge(base, {"resource": {"terraform_data": {"t": body, "r": {}, "c": {"count": 1}}}})
        yield _module(f"resource-{slug}", cat, intent, main)
    yield _module("output-depends-on-attribute", cat, "attribute in depends_on",
                  {"output": {"o": {"value": 1, "depends_on": ["terraform_data.r.id"]}}, **_td({}, "r")})
    yield _module("data-depends-on-attribute", cat, "attribute in depends_on",
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "depends_on": ["terraform_data.r.output"]}}}, **_td({}, "r")})
    yield _module("data-count", cat, VALID,
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "count": 2}}},
                   "output": {"o": {"value": "${data.terraform_remote_state.s[0].outputs}"}}})
    # More variants of the literal count/for_each rules (valid neighbours included).
    more: dict[str, tuple[dict[str, Any], str]] = {
        "count-null": ({"count": None}, "null count"),
        "count-string-float": ({"count": "3.0"}, VALID),
        "count-string-space": ({"count": " 3"}, "count string with a space"),
        "count-whole-float": ({"count": 2.0}, VALID),
        "for-each-null": ({"for_each": None}, "null for_each"),
        "for-each-empty-list": ({"for_each": []}, "empty list in for_each"),
        "for-each-empty-map": ({"for_each": {}}, VALID),
    }
    for slug, (body, intent) in more.items():
        main = _merge(base, {"resource": {"terraform_data": {"t": body, "r": {}, "c": {"count": 1}}}})
        yield _module(f"more-{slug}", cat, intent, main)
    yield from _repetition_value_cases(cat, base)
    yield _module("data-count-no-index", cat, "counted data source without an index",
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "count": 2}}},
                   "output": {"o": {"value": "${data.terraform_remote_state.s.outputs}"}}})


def _repetition_value_cases(cat: str, base: dict[str, Any]) -> Iterator[Case]:
    """`count` and `for_each` from an expression: a template of one interpolation (its value), or an
    input variable of a known type (an unknown value of that type), valid neighbours included."""
    types = {"n": "number", "b": "bool", "str": "string", "s": "set(string)", "m": "map(string)",
             "lo": "list(object({a=string}))", "o": "object({a=list(string)})"}
    variables = {"variable": {**base["variable"], "any": {}, "untyped": {"default": ["a"]},
                              **{name: {"type": t} for name, t in types.items()}}}
    values: dict[str, tuple[dict[str, Any], str]] = {
        "count-expr-negative": ({"count": "${-1}"}, "negative count expression"),
        "count-expr-negative-spaced": ({"count": "${ -1 }"}, "negative count expression"),
        "count-expr-fraction": ({"count": "${1.5}"}, "fractional count expression"),
        "count-expr-null": ({"count": "${null}"}, "null count expression"),
        "count-expr-bool": ({"count": "${true}"}, "bool count expression"),
        "count-expr-comparison": ({"count": "${1 == 1}"}, "comparison as count"),
        "count-expr-word": ({"count": '${"x"}'}, "word count expression"),
        "count-expr-tuple": ({"count": "${[1]}"}, "tuple count expression"),
        "count-expr-string-number": ({"count": '${"3"}'}, VALID),
        "count-expr-sum": ({"count": "${1 + 1}"}, VALID),
        "count-expr-conditional": ({"count": "${var.b ? 1 : 0}"}, VALID),
        "count-var-number": ({"count": "${var.n}"}, VALID),
        "count-var-string": ({"count": "${var.str}"}, VALID),
        "count-var-any": ({"count": "${var.any}"}, VALID),
        "count-var-untyped": ({"count": "${var.untyped}"}, VALID),
        "count-var-bool": ({"count": "${var.b}"}, "bool variable as count"),
        "count-var-list": ({"count": "${var.l}"}, "list variable as count"),
        "count-var-map": ({"count": "${var.m}"}, "map variable as count"),
        "count-var-length": ({"count": "${length(var.l)}"}, VALID),
        "for-each-expr-tuple": ({"for_each": '${["a"]}'}, "tuple expression in for_each"),
        "for-each-expr-empty-tuple": ({"for_each": "${[]}"}, "empty tuple expression in for_each"),
        "for-each-expr-string": ({"for_each": '${"a"}'}, "string expression in for_each"),
        "for-each-expr-number": ({"for_each": "${1}"}, "number expression in for_each"),
        "for-each-expr-null": ({"for_each": "${null}"}, "null expression in for_each"),
        "for-each-expr-tostring": ({"for_each": "${tostring(1)}"}, "string function in for_each"),
        "for-each-expr-object": ({"for_each": "${{a = 1}}"}, VALID),
        "for-each-expr-text": ({"for_each": "a${1}"}, "template with text in for_each"),
        "for-each-var-list": ({"for_each": "${var.l}"}, "list variable in for_each"),
        "for-each-var-list-spaced": ({"for_each": "${ var.l }"}, "list variable in for_each"),
        "for-each-var-list-strip": ({"for_each": "${~var.l~}"}, "list variable in for_each"),
        "for-each-var-list-objects": ({"for_each": "${var.lo}"}, "list of objects variable in for_each"),
        "for-each-var-number": ({"for_each": "${var.n}"}, "number variable in for_each"),
        "for-each-var-string": ({"for_each": "${var.str}"}, "string variable in for_each"),
        "for-each-var-bool": ({"for_each": "${var.b}"}, "bool variable in for_each"),
        "for-each-var-attribute": ({"for_each": "${var.o.a}"}, "list attribute of a variable in for_each"),
        "for-each-var-set": ({"for_each": "${var.s}"}, VALID),
        "for-each-var-map": ({"for_each": "${var.m}"}, VALID),
        "for-each-var-any": ({"for_each": "${var.any}"}, VALID),
        "for-each-var-untyped": ({"for_each": "${var.untyped}"}, VALID),
        "for-each-var-element": ({"for_each": "${var.lo[0]}"}, VALID),
        "for-each-var-toset": ({"for_each": "${toset(var.l)}"}, VALID),
        "for-each-var-for": ({"for_each": "${{for x in var.l : x => x}}"}, VALID),
    }
    for slug, (body, intent) in values.items():
        yield _module(f"value-{slug}", cat, intent, _merge(variables, _td(body)))
    local_values: dict[str, tuple[Any, dict[str, Any], str]] = {
        "for-each-local-list": (["a", "b"], {"for_each": "${local.v}"}, "a local list in for_each"),
        "for-each-local-empty-list": ([], {"for_each": "${local.v}"}, "a local empty list in for_each"),
        "for-each-local-string": ("a", {"for_each": "${local.v}"}, "a local string in for_each"),
        "for-each-local-map": ({"a": "b"}, {"for_each": "${local.v}"}, VALID),
        "for-each-local-attribute": ({"a": ["x"]}, {"for_each": "${local.v.a}"}, "a local list in for_each"),
        "for-each-local-toset": (["a"], {"for_each": "${toset(local.v)}"}, VALID),
        "count-local-negative": (-1, {"count": "${local.v}"}, "a local negative count"),
        "count-local-number": (2, {"count": "${local.v}"}, VALID),
        "count-local-number-string": ("2", {"count": "${local.v}"}, VALID),
        "count-local-list": ([1], {"count": "${local.v}"}, "a local list as count"),
        "count-local-null": (None, {"count": "${local.v}"}, "a local null as count"),
    }
    for slug, (value, body, intent) in local_values.items():
        yield _module(f"value-{slug}", cat, intent, {"locals": {"v": value}, **_td(body)})
    aliases: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {
        "for-each-local-alias-list": ({"a": "${var.l}"}, {"for_each": "${local.a}"}, "a local naming a list variable"),
        "for-each-local-alias-chain": ({"a": "${var.l}", "b": "${local.a}"}, {"for_each": "${local.b}"},
                                       "a local naming a local naming a list variable"),
        "for-each-local-alias-spaced": ({"a": "${ var.l }"}, {"for_each": "${local.a}"}, "a local naming a list variable"),
        "for-each-local-alias-attribute": ({"a": "${var.o.ids}"}, {"for_each": "${local.a}"},
                                           "a local naming a list attribute of a variable"),
        "for-each-local-alias-set": ({"a": "${var.s}"}, {"for_each": "${local.a}"}, VALID),
        "for-each-local-alias-any": ({"a": "${var.any}"}, {"for_each": "${local.a}"}, VALID),
        "count-local-alias-bool": ({"a": "${var.b}"}, {"count": "${local.a}"}, "a local naming a bool variable"),
        "count-local-alias-length": ({"a": "${var.l}"}, {"count": "${length(local.a)}"}, VALID),
    }
    alias_variables = {"variable": {"l": {"type": "list(string)"}, "s": {"type": "set(string)"}, "b": {"type": "bool"},
                                    "any": {}, "o": {"type": "object({ids = list(string)})"}}}
    for slug, (locals_, body, intent) in aliases.items():
        yield _module(f"value-{slug}", cat, intent, {**alias_variables, "locals": locals_, **_td(body)})
    yield _module("value-local-elsewhere", cat, "a local list of another file in for_each",
                  _td({"for_each": "${local.names}"}), locals={"locals": {"names": ["a"]}})
    yield _module("value-data-count-negative", cat, "negative count expression on a data source",
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "count": "${-2}"}}}})
    yield _module("value-module-for-each-list", cat, "list variable in a module call's for_each",
                  _merge(variables, {"module": {"m": {"source": "./child", "for_each": "${var.l}"}}}), child__main={})
    yield _module("value-module-count-bool", cat, "bool variable as a module call's count",
                  _merge(variables, {"module": {"m": {"source": "./child", "count": "${var.b}"}}}), child__main={})
    yield _module("value-variable-elsewhere", cat, "list variable of another file in for_each",
                  _td({"for_each": "${var.names}"}), variables={"variable": {"names": {"type": "list(string)"}}})


def _lifecycle_cases() -> Iterator[Case]:
    cat = "lifecycle"
    L: dict[str, tuple[dict[str, Any], str]] = {
        "create-before-destroy": ({"create_before_destroy": True}, VALID),
        "prevent-destroy": ({"prevent_destroy": True}, VALID),
        "prevent-destroy-expr": ({"prevent_destroy": "${var.b}"}, "expression in prevent_destroy"),
        "prevent-destroy-string": ({"prevent_destroy": "true"}, VALID),
        "ignore-changes-list": ({"ignore_changes": ["input"]}, VALID),
        "ignore-changes-all": ({"ignore_changes": "all"}, VALID),
        "ignore-changes-unknown-attr": ({"ignore_changes": ["nope"]}, "attribute terraform_data lacks"),
        "ignore-changes-word": ({"ignore_changes": "some"}, "ignore_changes is not all or a list"),
        "ignore-changes-ref": ({"ignore_changes": ["${var.b}"]}, "a variable in ignore_changes"),
        "replace-triggered-by": ({"replace_triggered_by": ["terraform_data.r"]}, VALID),
        "replace-triggered-by-attr": ({"replace_triggered_by": ["terraform_data.r.output"]}, VALID),
        "replace-triggered-by-var": ({"replace_triggered_by": ["var.b"]}, "a variable in replace_triggered_by"),
        "replace-triggered-by-undeclared": ({"replace_triggered_by": ["terraform_data.nope"]}, "undeclared resource"),
        "unknown": ({"enabled": False}, "unknown lifecycle argument (OpenTofu's enabled)"),
        "destroy": ({"destroy": False}, "destroy outside removed"),
        "precondition": ({"precondition": {"condition": "${var.b}", "error_message": "x"}}, VALID),
        "precondition-self": ({"precondition": {"condition": "${self.input != null}", "error_message": "x"}}, "self in a precondition"),
        "postcondition-self": ({"postcondition": {"condition": "${self.input != null}", "error_message": "x"}}, VALID),
        "precondition-no-condition": ({"precondition": {"error_message": "x"}}, "precondition without a condition"),
        "precondition-undeclared": ({"precondition": {"condition": "${var.nope}", "error_message": "x"}}, "undeclared in a condition"),
        "create-before-destroy-word": ({"create_before_destroy": "sometimes"}, "not a bool"),
        "two-lifecycles": ([{"create_before_destroy": True}, {"prevent_destroy": True}], "two lifecycle blocks"),
    }
    for slug, (body, intent) in L.items():
        main = {"variable": {"b": {"type": "bool", "default": True}},
                "resource": {"terraform_data": {"t": {"input": 1, "lifecycle": body}, "r": {}}}}
        yield _module(f"resource-{slug}", cat, intent, main)
    more: dict[str, tuple[dict[str, Any], str]] = {
        "replace-triggered-by-count-index": ({"replace_triggered_by": ["terraform_data.r[count.index]"]}, VALID),
        "replace-triggered-by-count-attr": ({"replace_triggered_by": ["count.nope"]}, "count.nope in replace_triggered_by"),
        "replace-triggered-by-two": ({"replace_triggered_by": ["terraform_data.r.input[terraform_data.r.output]"]}, "two resources in one trigger"),
        "ignore-changes-typo": ({"ignore_changes": ["inptu"]}, "attribute terraform_data lacks (did you mean input?)"),
        "ignore-changes-nested": ({"ignore_changes": ["triggers_replace[0]", "input.a"]}, VALID),
        "postcondition-self-unknown": ({"postcondition": {"condition": "${self.nope != null}", "error_message": "x"}}, "attribute terraform_data lacks"),
    }
    for slug, (body, intent) in more.items():
        main = {"variable": {"b": {"type": "bool", "default": True}},
                "resource": {"terraform_data": {"t": {"input": 1, "count": 1, "lifecycle": body}, "r": {}}}}
        yield _module(f"more-{slug}", cat, intent, main)
    yield _module("data-lifecycle-postcondition", cat, VALID,
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "lifecycle": {"postcondition": {"condition": "${self.outputs != null}", "error_message": "x"}}}}}})
    yield _module("data-lifecycle-create-before-destroy", cat, "create_before_destroy in a data source",
                  {"data": {"terraform_remote_state": {"s": {"backend": "local", "lifecycle": {"create_before_destroy": True}}}}})
    yield _module("output-precondition", cat, VALID,
                  {"output": {"o": {"value": 1, "precondition": {"condition": "${true}", "error_message": "x"}}}})
    yield _module("output-postcondition", cat, "postcondition in an output",
                  {"output": {"o": {"value": 1, "postcondition": {"condition": "${true}", "error_message": "x"}}}})


def _sensitive_ephemeral_cases() -> Iterator[Case]:
    cat = "sensitive-ephemeral"
    sv = {"variable": {"s": {"type": "string", "default": "x", "sensitive": True},
                       "e": {"type": "string", "default": "x", "ephemeral": True}}}
    E: dict[str, tuple[dict[str, Any], str]] = {
        "sensitive-output-marked": ({"output": {"o": {"value": "${var.s}", "sensitive": True}}}, VALID),
        "sensitive-output-unmarked": ({"output": {"o": {"value": "${var.s}"}}}, "sensitive value in a root output"),
        "sensitive-output-via-local": ({"locals": {"x": "${var.s}"}, "output": {"o": {"value": "${local.x}"}}}, "sensitive value in a root output"),
        "sensitive-output-in-template": ({"output": {"o": {"value": "a-${var.s}"}}}, "sensitive value in a root output"),
        "sensitive-output-nonsensitive": ({"output": {"o": {"value": "${nonsensitive(var.s)}"}}}, VALID),
        "sensitive-output-function": ({"output": {"o": {"value": "${sensitive(1)}"}}}, "sensitive value in a root output"),
        "sensitive-output-length": ({"output": {"o": {"value": "${length(var.s)}"}}}, "sensitive value in a root output"),
        "sensitive-in-resource": (_td({"input": "${var.s}"}), VALID),
        "sensitive-child-output": ({"module": {"m": {"source": "./child", "name": "${var.s}"}}, "output": {"o": {"value": "${module.m.out}"}}}, "sensitive value through a child"),
        "ephemeral-output-root": ({"output": {"o": {"value": "${var.e}", "ephemeral": True}}}, "ephemeral output in the root module"),
        "ephemeral-output-unmarked": ({"output": {"o": {"value": "${var.e}"}}}, "ephemeral value in an output"),
        "ephemeral-in-resource": (_td({"input": "${var.e}"}), "ephemeral value in a resource argument"),
        "ephemeral-in-local": ({"locals": {"x": "${var.e}"}}, VALID),
        "ephemeral-local-to-resource": ({"locals": {"x": "${var.e}"}, **_td({"input": "${local.x}"})}, "ephemeral value in a resource argument"),
        "ephemeral-in-provisioner": (_td({"provisioner": {"local-exec": {"command": "echo ${var.e}"}}}), VALID),
        "ephemeral-in-connection": (_td({"connection": {"host": "${var.e}"}, "provisioner": {"remote-exec": {"inline": ["ls"]}}}), VALID),
        "ephemeral-ephemeralasnull": (_td({"input": "${ephemeralasnull(var.e)}"}), VALID),
        "ephemeral-in-count": (_td({"count": "${length(var.e)}"}), "ephemeral value in count"),
        "ephemeral-child-input": ({"module": {"m": {"source": "./child", "name": "${var.e}"}}}, "ephemeral value to a non-ephemeral input"),
        "ephemeral-to-ephemeral-child": ({"module": {"m": {"source": "./echild", "x": "${var.e}"}}}, VALID),
        "ephemeral-child-output": ({"module": {"m": {"source": "./echild", "x": "y"}}, **_td({"input": "${module.m.o}"})}, "ephemeral child output in a resource"),
        "ephemeral-in-trigger": (_td({"triggers_replace": ["${var.e}"]}), "ephemeral value in a resource argument"),
        "sensitive-and-ephemeral-var": ({"variable": {"z": {"default": "x", "sensitive": True, "ephemeral": True}}}, VALID),
        "sensitive-bad-value": ({"output": {"o": {"value": 1, "sensitive": "maybe"}}}, "not a bool"),
        # How far the marks go (issue 19 section 3: each checked with terraform validate 1.11.4).
        "sensitive-output-tuple": ({"output": {"o": {"value": ["${var.s}"]}}}, "sensitive value nested in a root output"),
        "sensitive-output-conditional": ({"output": {"o": {"value": "${var.s == \"\" ? \"a\" : \"b\"}"}}}, "sensitive condition in a root output"),
        "sensitive-output-string-true": ({"output": {"o": {"value": "${var.s}", "sensitive": "true"}}}, VALID),
        "sensitive-output-local-attribute": ({"locals": {"x": {"a": "plain", "b": "${var.s}"}}, "output": {"o": {"value": "${local.x.a}"}}}, VALID),
        # merge keeps a nested mark of an object literal (`merge(var.m, {})` of a sensitive map is not marked in validate).
        "sensitive-output-merge": ({"output": {"o": {"value": "${merge({a = var.s}, {})}"}}}, "sensitive value nested through merge"),
        "sensitive-output-length-of-tuple": ({"output": {"o": {"value": "${length([var.s])}"}}}, VALID),
        # Functions that keep every element keep its marks; a later merge argument may replace one.
        "sensitive-output-merge-replaced": ({"output": {"o": {"value": "${merge({a = var.s}, {a = \"x\"})}"}}}, VALID),
        "sensitive-output-merge-quoted-key": ({"output": {"o": {"value": "${merge({\"a\" = var.s}, {b = 1})}"}}}, "sensitive value nested through merge"),
        "sensitive-output-merge-local-last": ({"locals": {"o": {"a": "${var.s}"}}, "output": {"o": {"value": "${merge({}, local.o)}"}}}, "sensitive value nested through merge"),
        "sensitive-output-concat": ({"output": {"o": {"value": "${concat([var.s], [])}"}}}, "sensitive value nested through concat"),
        "sensitive-output-concat-whole": ({"output": {"o": {"value": "${concat(tolist([var.s]), [])}"}}}, "sensitive value nested through concat"),
        "sensitive-output-flatten": ({"output": {"o": {"value": "${flatten([[var.s]])}"}}}, "sensitive value nested through flatten"),
        "sensitive-output-values": ({"output": {"o": {"value": "${values({a = var.s})}"}}}, "sensitive value nested through values"),
        "sensitive-output-zipmap": ({"output": {"o": {"value": "${zipmap([\"a\"], [var.s])}"}}}, "sensitive value nested through zipmap"),
        "sensitive-output-keys-of-object": ({"output": {"o": {"value": "${keys({a = var.s})}"}}}, VALID),
        "sensitive-output-try-tuple": ({"output": {"o": {"value": "${try([var.s], [])}"}}}, VALID),
        "ephemeral-output-applying": ({"output": {"o": {"value": "${terraform.applying}"}}}, "ephemeral value in an output"),
        "ephemeral-and-sensitive-output": ({"output": {"o": {"value": "${var.e}${var.s}"}}}, "sensitive error first"),
        "ephemeral-in-data-source": ({"data": {"terraform_remote_state": {"r": {"backend": "local", "config": {"path": "${var.e}"}}}}}, "ephemeral value in a data source argument"),
        "ephemeral-in-for-each": (_td({"for_each": "${toset(split(\",\", var.e))}"}), "ephemeral value in for_each"),
        "ephemeral-in-precondition": (_td({"lifecycle": {"precondition": {"condition": "${var.e == \"\"}", "error_message": "x"}}}), VALID),
        "ephemeral-in-module-count": ({"module": {"m": {"source": "./child", "name": "x", "count": "${length(var.e)}"}}}, "ephemeral value in a module's count"),
    }
    echild = {"variable": {"x": {"type": "string", "ephemeral": True}},
              "output": {"o": {"value": "${var.x}", "ephemeral": True}}}
    for slug, (extra, intent) in E.items():
        main = _merge(sv, extra)
        files: dict[str, Any] = {"main.tf.json": main}
        if "./child" in json.dumps(extra):
            files["child/main.tf.json"] = CHILD
        if "./echild" in json.dumps(extra):
            files["echild/main.tf.json"] = echild
        yield _case(cat, slug, intent, files)


def _version_cases() -> Iterator[Case]:
    cat = "version"
    V: dict[str, tuple[Any, str]] = {
        "required-version-ok": (">= 1.0", VALID),
        "required-version-exact": ("1.11.4", VALID),
        "required-version-pessimistic": ("~> 1.5", VALID),
        "required-version-too-new": (">= 2.0", "unsatisfied required_version"),
        "required-version-too-old": ("< 1.0", "unsatisfied required_version"),
        "required-version-1-12": (">= 1.12", "unsatisfied required_version"),
        "required-version-malformed": ("latest", "malformed constraint"),
        "required-version-number": (1, "number as a constraint"),
        "required-version-list": (["> 1.0", "< 2.0"], "list as required_version"),
        "required-version-comma": (">= 1.0, < 2.0", VALID),
        "required-version-prerelease": (">= 1.12.0-alpha1", "unsatisfied required_version"),
    }
    for slug, (value, intent) in V.items():
        yield _module(slug, cat, intent, {"terraform": {"required_version": value}})
    yield _case(cat, "required-version-in-child", "unsatisfied required_version in a child module", {
        "main.tf.json": {"module": {"m": {"source": "./child"}}},
        "child/main.tf.json": {"terraform": {"required_version": ">= 9.0"}},
    })
    X: dict[str, tuple[Any, str]] = {
        "experiments-empty": ([], VALID),
        "experiments-concluded": (["module_variable_optional_attrs"], "concluded experiment"),
        "experiments-unknown": (["nope"], "unknown experiment"),
        "experiments-current": (["unknown_instances"], "experiments on a release"),
        "experiments-string": ("x", "experiments not a list"),
    }
    for slug, (value, intent) in X.items():
        yield _module(slug, cat, intent, {"terraform": {"experiments": value}})
    yield _module("required-providers-bad-source", cat, "invalid provider source",
                  {"terraform": {"required_providers": {"x": {"source": "not a source!"}}}})
    yield _module("required-providers-bad-version", cat, "invalid version constraint",
                  {"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform", "version": "abc"}}}})
    yield _module("required-providers-string", cat, "legacy string form",
                  {"terraform": {"required_providers": {"terraform": ">= 1.0"}}})


def _test_file_cases() -> Iterator[Case]:
    """`*.tftest.json` files, which `terraform validate` checks along with the module."""
    cat = "test-files"
    module = {"variable": {"v": {"type": "string", "default": "x"}},
              "resource": {"terraform_data": {"r": {"input": "${var.v}"}}},
              "output": {"o": {"value": "${var.v}"}}}

    def run(body: dict[str, Any], name: str = "r") -> dict[str, Any]:
        return {"run": {name: body}}

    ok_assert = {"condition": '${output.o == "x"}', "error_message": "bad"}
    T: dict[str, tuple[Any, str]] = {
        "run-plan": (run({"command": "plan", "assert": ok_assert}), VALID),
        "run-apply-default": (run({"assert": ok_assert}), VALID),
        "run-variables": (run({"variables": {"v": "y"}, "assert": {"condition": '${output.o == "y"}', "error_message": "b"}}), VALID),
        "file-variables": ({"variables": {"v": "z"}, **run({"command": "plan"})}, VALID),
        "run-unknown-argument": (run({"commands": "plan"}), "unknown run argument"),
        "run-command-bad": (run({"command": "destroy"}), "invalid command"),
        "assert-resource": (run({"command": "plan", "assert": {"condition": '${terraform_data.r.input == "x"}', "error_message": "b"}}), VALID),
        "assert-undeclared-var": (run({"command": "plan", "assert": {"condition": "${var.nope == 1}", "error_message": "b"}}), "undeclared variable in an assertion"),
        "assert-unknown-output": (run({"command": "plan", "assert": {"condition": "${output.nope == 1}", "error_message": "b"}}), "output the module lacks"),
        "assert-undeclared-resource": (run({"command": "plan", "assert": {"condition": "${terraform_data.nope.id == 1}", "error_message": "b"}}), "resource the module lacks"),
        "assert-no-message": (run({"assert": {"condition": "${true}"}}), "assert without error_message"),
        "expect-failures": (run({"command": "plan", "expect_failures": ["var.v"]}), VALID),
        "expect-failures-undeclared": (run({"command": "plan", "expect_failures": ["var.nope"]}), "undeclared in expect_failures"),
        "expect-failures-string": (run({"command": "plan", "expect_failures": "var.v"}), "expect_failures not a list"),
        "plan-options": (run({"command": "plan", "plan_options": {"mode": "refresh-only"}}), VALID),
        "plan-options-bad-mode": (run({"command": "plan", "plan_options": {"mode": "fast"}}), "invalid plan mode"),
        "plan-options-unknown": (run({"command": "plan", "plan_options": {"modes": "normal"}}), "unknown plan_options argument"),
        "run-module-local": (run({"command": "plan", "module": {"source": "./child"}, "variables": {"name": "n"}}), VALID),
        "run-module-no-source": (run({"command": "plan", "module": {}}), "module without source"),
        "unknown-block": ({"runs": {"r": {}}}, "unknown block type"),
        "provider-block": ({"provider": {"terraform": {}}, **run({"command": "plan"})}, VALID),
        "override-resource": ({"override_resource": {"target": "terraform_data.r", "values": {"output": "x"}},
                               **run({"command": "plan"})}, VALID),
        "override-resource-no-target": ({"override_resource": {"values": {}}, **run({"command": "plan"})}, "override without target"),
        "override-resource-undeclared": ({"override_resource": {"target": "terraform_data.nope"}, **run({"command": "plan"})}, "override of an undeclared resource"),
        "mock-provider": ({"mock_provider": {"terraform": {}}, **run({"command": "plan"})}, VALID),
        "test-block": ({"test": {"parallel": True}, **run({"command": "plan"})}, "test block (newer Terraform)"),
        "run-state-key": (run({"command": "plan", "state_key": "k"}), "state_key (newer Terraform)"),
        "run-parallel": (run({"command": "plan", "parallel": True}), "parallel (newer Terraform)"),
        "run-dup": ({"run": [{"r": {"command": "plan"}}, {"r": {"command": "plan"}}]}, "duplicate run block"),
        "file-variable-block": ({"variable": {"w": {"default": 1}}, **run({"command": "plan"})}, "file-level variable block (1.13)"),
        "run-name-bad": (run({"command": "plan"}, name="1bad"), "invalid run name"),
    }
    for slug, (body, intent) in T.items():
        files: dict[str, Any] = {"main.tf.json": module, "main.tftest.json": body}
        if "./child" in json.dumps(body):
            files["child/main.tf.json"] = CHILD
        yield _case(cat, slug, intent, files)


def _valid_cases() -> Iterator[Case]:
    cat = "valid"
    yield _case(cat, "prelude", VALID, {"main.tf.json": _prelude(), "child/main.tf.json": CHILD})
    yield _case(cat, "split-files", VALID, {
        "variables.tf.json": {"variable": {"v": {"type": "string", "default": "x"}}},
        "main.tf.json": _td({"input": "${var.v}"}),
        "outputs.tf.json": {"output": {"o": {"value": "${terraform_data.t.output}"}}},
    })
    yield _case(cat, "json-and-native", VALID, {
        "variables.tf": "variable \"v\" {\n  default = \"x\"\n}\n",
        "main.tf.json": _td({"input": "${var.v}"}),
    })
    yield _case(cat, "native-undeclared-from-json", "JSON refers to what no file declares", {
        "variables.tf": "variable \"v\" {\n  default = \"x\"\n}\n",
        "main.tf.json": _td({"input": "${var.w}"}),
    })
    yield _case(cat, "cdktf-shape", VALID, {"cdk.tf.json": {
        "//": {"metadata": {"version": "0.20.0", "stackName": "s", "backend": "local"}, "outputs": {}},
        "terraform": {"backend": {"local": {"path": "terraform.tfstate"}}},
        "resource": {"terraform_data": {"x": {"//": {"metadata": {"path": "s/x", "uniqueId": "x"}}, "input": "a"}}},
    }})
    yield _case(cat, "dynamic-in-resource", "dynamic block for an undeclared nested block", {
        "main.tf.json": _td({"dynamic": {"nope": {"for_each": [1], "content": {}}}}),
    })
    yield _case(cat, "everything", VALID, {"main.tf.json": {
        "terraform": {"required_version": ">= 1.5"},
        "variable": {"v": {"type": "list(object({n = string}))", "default": [{"n": "a"}],
                           "validation": {"condition": "${length(var.v) < 5}", "error_message": "Too many."}}},
        "locals": {"names": "${[for o in var.v : o.n]}", "byname": "${{for o in var.v : o.n => o}}"},
        "resource": {"terraform_data": {"each": {"for_each": "${local.byname}", "input": "${each.value.n}",
                                                 "lifecycle": {"ignore_changes": ["input"]}}}},
        "output": {"names": {"value": "${[for k, r in terraform_data.each : r.id]}"}},
        "check": {"names": {"assert": {"condition": "${length(local.names) > 0}", "error_message": "none"}}},
    }})


@functools.lru_cache(maxsize=1)
def cases() -> tuple[Case, ...]:
    """Every generated case, in a fixed order; ids are unique."""
    all_cases = (
        *_expression_cases(), *_provider_function_cases(), *_builtin_cases(), *_type_cases(), *_typed_template_cases(), *_argument_type_cases(), *_conditional_cases(), *_module_call_cases(), *_structure_cases(),
        *_name_cases(), *_meta_argument_cases(), *_lifecycle_cases(), *_sensitive_ephemeral_cases(),
        *_version_cases(), *_test_file_cases(), *_valid_cases(), *_self_reference_cases(), *_import_key_cases(),
    )
    ids = [c.id for c in all_cases]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    return all_cases
