"""Provider schemas: reading them (`provider_schema`) and finding the schema of a block
(`provider_lookup`). Above the definition only."""
