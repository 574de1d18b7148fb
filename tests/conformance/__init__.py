"""The differential suite: generated modules judged by `terraform validate` (see docs/conformance.md)."""
