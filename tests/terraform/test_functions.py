"""Built-in function signatures (`terraform.functions`), their type rendering (`terraform.ctytypes`),
and the packaged data file against what `tools/build_functions.py` builds from the test data (tests/data/functions)."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
from shared_data import FUNCTION_SIGNATURES, requires, schema_files

from hcljson_ls.terraform.definition import functions as fn
from hcljson_ls.terraform.definition.ctytypes import is_type, render_type
from hcljson_ls.terraform.definition.functions import Function, Parameter

REPO = Path(__file__).resolve().parents[2]
PACKAGED = REPO / "server" / "hcljson_ls" / "terraform" / "data" / "functions.json"

ONLY_TERRAFORM = {"convert"}
ONLY_OPENTOFU = {"base64gunzip", "cidrcontains", "urldecode"}
DIFFERENT = {"contains", "templatestring"}  # in both engines, with different signatures


def _builder():
    spec = importlib.util.spec_from_file_location("build_functions", REPO / "tools" / "build_functions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lookup(name: str, engine: str | None) -> Function:
    found = fn.lookup(name, engine)
    assert found is not None, (name, engine)
    return found


# ---- lookups per engine ----------------------------------------------------------------------------


def test_each_engine_has_its_functions():
    terraform, opentofu = set(fn.names("terraform")), set(fn.names("opentofu"))
    assert len(terraform) == 119 and len(opentofu) == 121
    assert terraform - opentofu == ONLY_TERRAFORM
    assert opentofu - terraform == ONLY_OPENTOFU
    assert set(fn.names(None)) == terraform | opentofu
    assert list(fn.names("terraform")) == sorted(terraform)
    assert not [n for n in fn.names(None) if "::" in n]


def test_engine_only_functions_are_unknown_to_the_other_engine():
    for name in ONLY_OPENTOFU:
        assert fn.lookup(name, "terraform") is None
        assert _lookup(name, "opentofu").engines == ("opentofu",)
        assert _lookup(name, None).engines == ("opentofu",)
    assert fn.lookup("convert", "opentofu") is None
    assert _lookup("convert", "terraform").engines == ("terraform",)
    assert _lookup("upper", "terraform").engines == ("terraform", "opentofu")


def test_functions_that_differ_between_the_engines():
    differ = {n for n in set(fn.names("terraform")) & set(fn.names("opentofu"))
              if fn.lookup(n, "terraform") != fn.lookup(n, "opentofu")}
    assert differ == DIFFERENT
    assert fn.signature(_lookup("templatestring", "terraform")) == "templatestring(template string, vars any) string"
    assert fn.signature(_lookup("templatestring", "opentofu")) == "templatestring(data string, vars any) any"
    assert _lookup("contains", "terraform").parameters[1] == Parameter("value", "any", True)
    assert _lookup("contains", "opentofu").parameters[1] == Parameter("value", "any", False)
    for name in DIFFERENT:  # both engines have them, whatever the signature
        assert _lookup(name, "terraform").engines == ("terraform", "opentofu")
    # Either engine: the first of ENGINES that has the name gives the signature.
    assert fn.lookup("templatestring", None) == fn.lookup("templatestring", "terraform")


def test_core_namespace_aliases_and_provider_functions():
    for engine in ("terraform", "opentofu", None):
        assert fn.lookup("core::upper", engine) is _lookup("upper", engine)
        assert _lookup("core::upper", engine).name == "upper"
        assert fn.lookup("provider::aws::arn_parse", engine) is None
        assert fn.lookup("core::provider::aws::x", engine) is None
        assert fn.lookup("core::core::upper", engine) is None
        assert fn.lookup("core::", engine) is None
        assert fn.lookup("other::upper", engine) is None
    assert fn.lookup("core::urldecode", "terraform") is None
    assert fn.lookup("core::urldecode", "opentofu") is not None
    assert fn.is_provider_function("provider::aws::arn_parse")
    assert not fn.is_provider_function("core::upper") and not fn.is_provider_function("upper")


def test_names_are_case_sensitive_and_unknown_names_give_none():
    assert fn.lookup("Upper", "terraform") is None
    assert fn.lookup("", "terraform") is None
    assert fn.lookup("nosuchfunction", None) is None


def test_unknown_engine_is_a_programming_error():
    with pytest.raises(ValueError):
        fn.lookup("upper", "tofu")
    with pytest.raises(ValueError):
        fn.names("Terraform")
    assert fn.engine_version("terraform") == "1.16" and fn.engine_version("opentofu") == "1.11"


def test_data_is_loaded_once():
    assert fn.lookup("abs", "terraform") is fn.lookup("abs", "terraform")
    assert fn._engines() is fn._engines()


# ---- signatures --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rendered"),
    [
        ("format", "format(format string, args... any) string"),
        ("abs", "abs(num number) number"),
        ("timestamp", "timestamp() string"),
        ("join", "join(separator string, lists... list(string)) string"),
        ("lookup", "lookup(inputMap any, key string, default... any) any"),
        ("transpose", "transpose(values map(list(string))) map(list(string))"),
        ("chunklist", "chunklist(list list(any), size number) list(list(any))"),
        ("setunion", "setunion(first_set set(any), other_sets... set(any)) set(any)"),
        ("tomap", "tomap(v any) map(any)"),
        ("fileset", "fileset(path string, pattern string) set(string)"),
        ("setproduct", "setproduct(sets... any) any"),
    ],
)
def test_signatures_render(name, rendered):
    assert fn.signature(_lookup(name, "terraform")) == rendered


def test_every_signature_renders_with_hcl_types_only():
    typed = re.compile(r"^[a-z0-9]+\((.*)\) (.+)$")
    for engine in fn.ENGINES:
        for name in fn.names(engine):
            text = fn.signature(_lookup(name, engine))
            match = typed.match(text)
            assert match and text.startswith(name + "("), text
            assert "dynamic" not in text, text


def test_parameters_and_nullability():
    fmt = _lookup("format", "terraform")
    assert fmt.parameters == (Parameter("format", "string", False),)
    assert fmt.variadic == Parameter("args", "any", True)
    assert _lookup("upper", "opentofu").variadic is None
    nullable = {(n, p.name) for n in fn.names("terraform") for f in [_lookup(n, "terraform")]
                for p in (*f.parameters, *([f.variadic] if f.variadic else [])) if p.nullable}
    assert len(nullable) == 20  # SOURCES.md: Terraform 1.16 marks 20 parameters nullable
    assert ("lookup", "default") in nullable and ("contains", "value") in nullable


def test_parameter_at():
    fmt = _lookup("format", "terraform")
    assert fn.parameter_at(fmt, 0).name == "format"
    assert fn.parameter_at(fmt, 1).name == "args" and fn.parameter_at(fmt, 7).name == "args"
    upper = _lookup("upper", "terraform")
    assert fn.parameter_at(upper, 0).name == "str"
    assert fn.parameter_at(upper, 1) is None and fn.parameter_at(upper, -1) is None
    assert fn.parameter_at(_lookup("timestamp", "terraform"), 0) is None


# ---- argument counts -----------------------------------------------------------------------------


def test_fixed_argument_counts():
    replace = _lookup("replace", "terraform")  # (str, substr, replace)
    assert (replace.min_args, replace.max_args) == (3, 3)
    assert [fn.accepts(replace, n) for n in range(5)] == [False, False, False, True, False]
    timestamp = _lookup("timestamp", "terraform")
    assert fn.accepts(timestamp, 0) and not fn.accepts(timestamp, 1)
    assert not fn.accepts(replace, -1)


def test_variadic_argument_counts():
    fmt = _lookup("format", "terraform")  # (format, args...)
    assert (fmt.min_args, fmt.max_args) == (1, None)
    assert not fn.accepts(fmt, 0)
    assert all(fn.accepts(fmt, n) for n in (1, 2, 10))
    merge = _lookup("merge", "terraform")  # (maps...): none at all is fine
    assert fn.accepts(merge, 0) and fn.accepts(merge, 5)


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [("lookup", 2, 3), ("bcrypt", 1, 2), ("range", 1, 3), ("min", 1, None), ("max", 1, None),
     ("concat", 1, None), ("try", 1, None), ("join", 2, None), ("setproduct", 2, None)],
)
def test_counts_the_implementations_check_beyond_the_signature(name, low, high):
    for engine in fn.ENGINES:
        f = _lookup(name, engine)
        assert (f.min_args, f.max_args) == (low, high)
        assert not fn.accepts(f, low - 1) and fn.accepts(f, low)
        if high is not None:
            assert fn.accepts(f, high) and not fn.accepts(f, high + 1)
            assert not fn.accepts(f, high + 2, expands=True)
        else:
            assert fn.accepts(f, low + 5)


def test_expanded_calls():
    # The expanded last argument stands for zero or more arguments, for any function.
    fmt = _lookup("format", "terraform")
    assert fn.accepts(fmt, 1, expands=True)  # format(args...): the list holds the format too
    assert fn.accepts(fmt, 6, expands=True)
    assert not fn.accepts(fmt, 0, expands=True)  # nothing to expand
    replace = _lookup("replace", "terraform")
    assert [fn.accepts(replace, n, expands=True) for n in range(6)] == [False, True, True, True, True, False]
    upper = _lookup("upper", "terraform")
    assert fn.accepts(upper, 1, expands=True) and fn.accepts(upper, 2, expands=True)
    assert not fn.accepts(upper, 3, expands=True)
    timestamp = _lookup("timestamp", "terraform")  # timestamp([]...) is a valid call
    assert fn.accepts(timestamp, 1, expands=True) and not fn.accepts(timestamp, 2, expands=True)
    join = _lookup("join", "terraform")  # at least 2, but the list may supply them
    assert fn.accepts(join, 1, expands=True)


def test_a_function_built_by_hand_defaults_to_its_signature_counts():
    f = Function("f", (Parameter("a", "string", False),), Parameter("b", "number", False), "string", "F.", ("terraform",))
    assert (f.min_args, f.max_args) == (1, None) and f.count_limits is None
    assert fn.signature(f) == "f(a string, b... number) string"


# ---- did you mean ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "engine", "meant"),
    [
        ("uper", "terraform", "upper"),
        ("lenght", "terraform", "length"),
        ("Upper", "terraform", "upper"),  # case-insensitive exact match first
        ("LENGTH", "opentofu", "length"),
        ("jsonencod", "opentofu", "jsonencode"),
        ("tostrin", None, "tostring"),
        ("core::uper", "opentofu", "core::upper"),
        ("core::Lower", "terraform", "core::lower"),
        ("upper", "terraform", "upper"),  # a known name is its own best match
        ("cidrcontain", "opentofu", "cidrcontains"),
        ("xyzzy", "terraform", None),
        ("", "terraform", None),
        ("provider::aws::uper", "terraform", None),
        ("core::", "terraform", None),
    ],
)
def test_closest(typed, engine, meant):
    assert fn.closest(typed, engine) == meant


def test_closest_only_suggests_names_of_the_engine():
    assert fn.closest("urldecode", "opentofu") == "urldecode"
    assert fn.closest("urldecode", "terraform") != "urldecode"  # Terraform has no urldecode
    assert fn.closest("Urldecode", None) == "urldecode"


# ---- descriptions ----------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\b(todo|tbd|fixme|xxx|lorem|placeholder|description)\b|\.\.\.", re.IGNORECASE)


def test_every_function_has_a_one_sentence_description_of_its_own():
    seen: dict[str, str] = {}
    for name in fn.names(None):
        text = _lookup(name, None).description
        assert text and text == text.strip() and "\n" not in text, name
        assert text[0].isupper() and text.endswith(".") and text.count(". ") == 0, (name, text)
        assert len(text.split()) >= 4, (name, text)
        assert not _PLACEHOLDER.search(text), (name, text)
        assert text.rstrip(".").lower() != name, (name, text)
        assert text not in seen, (name, seen.get(text))
        seen[text] = name
    for engine in fn.ENGINES:  # the engines share one description per name
        for name in fn.names(engine):
            assert _lookup(name, engine).description == _lookup(name, None).description


# ---- type rendering ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cty", "hcl"),
    [
        ("string", "string"),
        ("number", "number"),
        ("bool", "bool"),
        ("dynamic", "any"),
        (["list", "string"], "list(string)"),
        (["set", "dynamic"], "set(any)"),
        (["map", ["list", "string"]], "map(list(string))"),
        (["tuple", []], "tuple([])"),
        (["tuple", ["string", ["list", "number"]]], "tuple([string, list(number)])"),
        (["object", {}], "object({})"),
        (["object", {"id": "string", "port": "number"}], "object({id = string, port = number})"),
        (["object", {"id": "string", "port": "number"}, ["port"]], "object({id = string, port = optional(number)})"),
        (["list", ["object", {"a b": "bool"}]], 'list(object({"a b" = bool}))'),
    ],
)
def test_cty_types_render_in_hcl_syntax(cty, hcl):
    assert render_type(cty) == hcl
    assert is_type(cty)


@pytest.mark.parametrize(
    "bad",
    ["str", "any", None, 3, [], ["list"], ["list", "string", "x"], ["map", "nope"], ["tuple", "string"],
     ["object", []], ["object", {"a": "string"}, ["b"]], ["object", {"a": "string"}, "a"], [["list"], "string"]],
)
def test_malformed_cty_types_are_rejected(bad):
    assert not is_type(bad)
    with pytest.raises(ValueError):
        render_type(bad)


def test_provider_schema_types_render():
    """Every attribute type of the test data's provider schemas renders (nested objects and collections)."""
    count = 0

    def walk(node):
        nonlocal count
        if isinstance(node, dict):
            attributes = node.get("attributes")
            if isinstance(attributes, dict):  # a block's attributes: NAME -> {"type": ..., ...}
                for attribute in attributes.values():
                    if isinstance(attribute, dict) and "type" in attribute:
                        render_type(attribute["type"])
                        count += 1
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in schema_files():
        walk(json.loads(path.read_text(encoding="utf-8")))
    assert count > 100


# ---- the packaged file -------------------------------------------------------------------------------


def test_packaged_file_shape():
    data = json.loads(PACKAGED.read_text(encoding="utf-8"))
    assert data["format_version"] == 1
    assert set(data["engines"]) == set(fn.ENGINES)
    assert all(info["alias_prefix"] == "core::" for info in data["engines"].values())
    assert len(data["functions"]) == 122  # no `core::` duplicates: an alias rule instead
    assert not [n for n in data["functions"] if "::" in n]
    for name, entry in data["functions"].items():
        engines = [e for s in entry["signatures"] for e in s["engines"]]
        assert len(engines) == len(set(engines)), name  # one signature per engine


@requires(FUNCTION_SIGNATURES)
def test_packaged_file_is_what_the_script_builds_from_the_test_data():
    built = _builder().build(FUNCTION_SIGNATURES)
    assert PACKAGED.read_text(encoding="utf-8") == built, (
        "server/hcljson_ls/terraform/data/functions.json is out of date: run python tools/build_functions.py"
    )


@requires(FUNCTION_SIGNATURES)
def test_the_packaged_signatures_match_the_sources():
    """Independently of the script: every function of each source file, and every `core::` alias of
    OpenTofu's, is found with the same parameters, nullability and variadic parameter."""

    def param(raw):
        return Parameter(raw["name"], render_type(raw["type"]), bool(raw.get("is_nullable")))

    for engine, file in (("terraform", "terraform-1.16.json"), ("opentofu", "opentofu-1.11.json")):
        raw = json.loads((FUNCTION_SIGNATURES / file).read_text(encoding="utf-8"))["function_signatures"]
        for name, sig in raw.items():
            f = _lookup(name, engine)
            assert f.parameters == tuple(param(p) for p in sig.get("parameters", [])), name
            variadic = sig.get("variadic_parameter")
            assert f.variadic == (param(variadic) if variadic else None), name
            assert f.return_type == render_type(sig["return_type"]), name
        assert set(fn.names(engine)) == {n for n in raw if "::" not in n}


@pytest.fixture
def shared_copy(tmp_path: Path) -> Path:
    target = tmp_path / "functions"
    shutil.copytree(FUNCTION_SIGNATURES, target)
    return target


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@requires(FUNCTION_SIGNATURES)
def test_the_script_refuses_inconsistent_inputs(shared_copy: Path, tmp_path: Path):
    builder = _builder()
    descriptions = tmp_path / "descriptions.json"
    shutil.copy(REPO / "tools" / "function_descriptions.json", descriptions)
    assert builder.build(shared_copy, descriptions) == PACKAGED.read_text(encoding="utf-8")

    _edit(descriptions, lambda d: d.pop("upper"))
    with pytest.raises(builder.BuildError, match="no description .* upper"):
        builder.build(shared_copy, descriptions)
    _edit(descriptions, lambda d: d.update(upper="Converts every letter of a string to uppercase.", gone="Gone away."))
    with pytest.raises(builder.BuildError, match="no engine has: gone"):
        builder.build(shared_copy, descriptions)
    _edit(descriptions, lambda d: (d.pop("gone"), d.update(upper="no period")))
    with pytest.raises(builder.BuildError, match="upper: a description"):
        builder.build(shared_copy, descriptions)

    tofu = shared_copy / "opentofu-1.11.json"
    _edit(tofu, lambda d: d["function_signatures"]["core::upper"].update(return_type="number"))
    with pytest.raises(builder.BuildError, match="core::upper differs from upper"):
        builder.build(shared_copy)
    _edit(tofu, lambda d: d["function_signatures"].pop("core::upper"))
    with pytest.raises(builder.BuildError, match="does not hold"):
        builder.build(shared_copy)


@requires(FUNCTION_SIGNATURES)
def test_the_script_checks_without_writing(tmp_path: Path):
    builder = _builder()
    assert builder.main(["--check"]) == 0
    assert builder.main(["--check", "--functions", str(FUNCTION_SIGNATURES)]) == 0
    assert builder.main(["--check", "--functions", str(tmp_path)]) == 2  # no signature files there
