"""Local values that refer to one another in a cycle: `terraform validate`'s "Cycle: local.b
(expand), local.a (expand)", which it reports without a range.

    LOCAL_USES                                   the fact's kind: ("local-uses", name, (names...))
    LOCAL_USES_USED                              what a reader's `uses` holds: any such fact changed
    may_name_locals(text, expr) -> bool          whether a `locals` value's text may name a local at all
    local_uses_fact(name, refs) -> tuple | None  one `locals` attribute's fact, from its references
    CycleSite(start, end, name)                  one of a `locals` block's refs: a local that names others
    cycle_site(name, start, end, refs) -> CycleSite | None
    cycle_of(name, graph) -> [names] | None      the shortest cycle from `name` back to it

Terraform orders the module's objects by what each expression refers to; a local value whose
expression refers, through other local values, back to itself cannot be worked out, whatever the
branch or function it sits in (`try`, a conditional: the reference is there). A `locals` attribute
states which other locals its value refers to (`LOCAL_USES`, a declaration fact like
`local_values`' ones, so a change of it reaches every reader in the module), and a `CycleSite` on its
name asks, once the module's facts are known (`resolve`), whether it lies on a cycle: the diagnostic
is on the name of each local of the cycle, in its own file, listing the cycle from it.

Only cycles among local values are found (Terraform also finds those through resources and
outputs of modules: misses, never false errors). A local referring to itself is another rule's
(`validate`, "Self-referencing local value"); a module with an override file states facts it may
replace, so nothing is said there (as `local_values`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .references import Reference

__all__ = ["LOCAL_USES", "LOCAL_USES_USED", "CycleSite", "cycle_of", "cycle_site", "local_uses_fact", "may_name_locals"]

LOCAL_USES = "local-uses"
LOCAL_USES_USED = ("local-uses-of",)


def _named(name: str, refs: Iterable) -> tuple[str, ...]:
    """The other local values `refs` name, sorted."""
    return tuple(sorted({r.steps[0].name for r in refs
                         if type(r) is Reference and r.root == "local" and r.steps and not r.steps[0].index}
                        - {name}))


def may_name_locals(text: str, expr) -> bool:
    """Whether the value `expr` of a `locals` attribute may refer to a local value: its text holds
    `local`. The fact and the site read a value's references only then (2,000 locals naming
    variables alone cost ~3% of `bench_module.py`'s open of 200 files without this test)."""
    return text.find("local", expr.start, expr.end) >= 0


def local_uses_fact(name: str, refs: Iterable) -> tuple | None:
    """`(LOCAL_USES, name, names)` of local `name` whose value's references `refs` name other local
    values; None when they name none."""
    names = _named(name, refs)
    return (LOCAL_USES, name, names) if names else None


@dataclass(frozen=True, slots=True)
class CycleSite:
    """Local `name`, whose name lies at `[start, end)`, refers to other local values."""

    start: int
    end: int
    name: str

    def shifted(self, delta: int) -> CycleSite:
        return self if delta == 0 else CycleSite(self.start + delta, self.end + delta, self.name)


def cycle_site(name: str, start: int, end: int, refs: Iterable) -> CycleSite | None:
    """The site of local `name` (its name at `[start, end)`) when its references `refs` name other
    local values."""
    return CycleSite(start, end, name) if _named(name, refs) else None


def cycle_of(name: str, graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """The shortest cycle from local `name` back to itself through the module's `graph` (name ->
    the locals it refers to), as the names in order from `name`; None when there is none."""
    parents: dict[str, str] = {}
    frontier = [name]
    while frontier:
        following: list[str] = []
        for at in frontier:
            for to in graph.get(at, ()):
                if to == name:
                    path = [at]
                    while path[-1] != name:
                        path.append(parents[path[-1]])
                    return path[::-1]
                if to not in parents and to != at:
                    parents[to] = at
                    following.append(to)
        frontier = following
    return None
