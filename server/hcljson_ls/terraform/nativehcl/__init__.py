"""Native HCL syntax: what a `.tf`/`.tofu` file declares and refers to (`native`), native values
(`native_values`: the lock file, `terraform.tfvars`), and conversion of JSON to native syntax (`to_native`)."""
