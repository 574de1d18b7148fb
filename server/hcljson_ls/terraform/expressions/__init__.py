"""Expressions: strings read by their schema mode as templates, and their static evaluation
(the errors `terraform validate` finds from types alone). Above the definition only."""
