"""References and their resolution: what an expression refers to (`references`, `reference_walk`),
addresses (`addresses`), module call inputs (`module_calls`) and resolving a reference against the
module (`resolve`)."""
