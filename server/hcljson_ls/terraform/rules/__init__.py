"""The rules of a configuration: per block (`validate`, `provider_rules`, `provisioners`, ...), the
flow of sensitive values (`flow`) and module-wide declarations (`declarations`)."""
