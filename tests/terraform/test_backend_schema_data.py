"""The packaged state backend schema (`data/backends.json`, `definition.backends`) and the tool
that writes it (`tools/backend_schemas.py`): every key has our description, the facts the
engines' sources state are read (types, required, sensitive, deprecated, nested keys, constants as
key names), and versions pick the keys of their release."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path

from hcljson_ls.terraform.definition.backends import all_backend_keys, backend_keys, backend_names
from hcljson_ls.terraform.definition.language import parse_version

_spec = importlib.util.spec_from_file_location("backend_schemas", Path(__file__).parents[2] / "tools" / "backend_schemas.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def _data(name: str):
    return json.loads(resources.files("hcljson_ls.terraform").joinpath(f"data/{name}").read_text(encoding="utf-8"))


def test_every_key_has_a_description_and_every_description_a_key():
    keys: set[str] = set()

    def walk(backend, found, prefix):
        for name, facts in found.items():
            keys.add(f"{backend}.{prefix}{name}")
            walk(backend, facts.get("keys") or {}, f"{prefix}{name}.")

    for engine in _data("backends.json")["engines"].values():
        for backend, b in engine["backends"].items():
            walk(backend, b["keys"] or {}, "")
    described = _data("backend_descriptions.json")["descriptions"]
    assert keys == set(described)
    assert all(d and "\n" not in d and len(d) <= 100 for d in described.values())


def test_versions_pick_their_release():
    assert "oci" not in backend_names("terraform", parse_version("1.11.4"))
    assert "oci" in backend_names("terraform", parse_version("1.12.0"))
    assert "oci" in backend_names("terraform", None)
    assert "oci" not in backend_names("terraform", parse_version("1.5.7"))  # older than read: the first release
    assert "tablestore_instance_name" not in backend_keys("terraform", parse_version("1.11.4"), "oss")
    assert "tablestore_instance_name" in backend_keys("terraform", parse_version("1.13.0"), "oss")
    assert backend_keys("terraform", None, "nosuch") is None
    assert backend_keys("terraform", None, "_local") == backend_keys("terraform", None, "local")


def test_the_union_is_what_any_engine_accepts():
    union = all_backend_keys()
    assert {"assume_role_duration_seconds", "use_lockfile"} <= union["s3"]  # OpenTofu only, both
    assert "oci" in union and "cloud" in union


GO_CONFIGSCHEMA = '''
const BucketAttr = "bucket"

func (b *Backend) ConfigSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			BucketAttr: {
				Type:        cty.String,
				Required:    true,
				Description: "a { brace in prose",
			},
			"tags": {
				Type:      cty.Map(cty.String),
				Optional:  true,
				Sensitive: true,
			},
			"old": {Type: cty.Bool, Optional: true, Deprecated: true},
			"role": roleSchema.SchemaAttribute(),
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"exec": {
				Nesting: configschema.NestingSingle,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"args": {Type: cty.List(cty.String), Optional: true},
					},
				},
			},
		},
	}
}

var roleSchema = singleNestedAttribute{
	Attributes: map[string]schemaAttribute{
		"arn": stringAttribute{
			configschema.Attribute{
				Type:     cty.String,
				Required: true,
			},
			validateString{},
		},
	},
}
'''

GO_LEGACY = '''
func New() backend.Backend {
	s := &schema.Backend{
		Schema: map[string]*schema.Schema{
			"retries": &schema.Schema{
				Type:     schema.TypeInt,
				Optional: true,
			},
			"paths": {
				Type:     schema.TypeList,
				Elem:     &schema.Schema{Type: schema.TypeString},
				Optional: true,
			},
			"assume": assumeSchema(),
		},
	}
}

func assumeSchema() *schema.Schema {
	return &schema.Schema{
		Type:       schema.TypeSet,
		Optional:   true,
		Deprecated: "use the flat arguments",
		MaxItems:   1,
		Elem: &schema.Resource{
			Schema: map[string]*schema.Schema{
				"role_arn": {Type: schema.TypeString, Required: true},
				"session": {
					Type:        schema.TypeString,
					Required:    true,
					DefaultFunc: schema.EnvDefaultFunc("SESSION", nil),
				},
			},
		},
	}
}
'''


def test_the_tool_reads_configschema_literals():
    keys = tool.backend_schema(GO_CONFIGSCHEMA, [GO_CONFIGSCHEMA])
    assert keys == {
        "bucket": {"type": "string", "required": True},
        "tags": {"type": "map(string)", "required": False, "sensitive": True},
        "old": {"type": "bool", "required": False, "deprecated": True},
        "role": {"type": "object", "required": False, "keys": {"arn": {"type": "string", "required": True}}},
        "exec": {"type": "block", "nesting": "single", "required": False,
                 "keys": {"args": {"type": "list(string)", "required": False}}},
    }


def test_the_tool_reads_legacy_schema_literals():
    keys = tool.backend_schema(GO_LEGACY, [GO_LEGACY])
    assert keys == {
        "retries": {"type": "number", "required": False},
        "paths": {"type": "list(string)", "required": False},
        "assume": {"type": "block", "nesting": "set", "max_items": 1, "required": False, "deprecated": True,
                   "keys": {"role_arn": {"type": "string", "required": True},
                            "session": {"type": "string", "required": True, "env_default": True}}},
    }
