"""The Terraform and OpenTofu language as versioned data: which engine and which version has each
block type, argument and nested block that not every version has, which version a module is
read by, and the diagnostics that follow from that choice.

Versions and constraints
    Version(major, minor, patch, prerelease)    `parse_version("1.16.0-rc1")`; ordered as go-version
    parse_constraints(text) -> tuple | None     Terraform's syntax: `=`, `!=`, `>`, `>=`, `<`, `<=`,
                                                `~>`, comma lists; None when malformed
    constraint_syntax_ok(text) -> bool          go-version's syntax, as Terraform checks it
    constraint_text(text, node, start)          a constraint value as Terraform reads it (numbers too)
    satisfies(version, constraints) -> bool     go-version's check, prereleases included
Releases
    RELEASES[engine]                            the latest patch of each known minor release
    PRERELEASES[engine]                         known prereleases (alphas, betas, release candidates)
    NEWEST[engine]                              the newest stable release (the default choice)
The definition
    Feature(path, since, note)                  one versioned piece of syntax; `since`: engine ->
                                                the first version that has it (missing engine: none)
    FEATURES                                    path -> Feature
    FUNCTIONS_SINCE                             (engine, function) -> the first version having it
    ACTION_TRIGGER_EVENTS                       `action_trigger.events` keyword -> first Terraform version
    action_trigger_events(language)             the event keywords a language takes
    feature(path) / available(path, language)   the entry of a path / whether a language has it
    introduced(path) -> str                     "Terraform 1.14, OpenTofu 1.11" (hover)
Choosing the version of a module
    Language(engine, version, chosen_by)        the engine and version a module is read by
    choose(engine, setting, constraints) -> Language
    CONSTRAINT_KIND                             declaration key kind of a version constraint
Sites and diagnostics (resolved per block against the module's `Language`, like provider schemas)
    language_sites(block, text, tofu_file) -> list[LanguageSite]
    test_file_sites(block, text) -> list[LanguageSite]     the same for a test file's block
    check_sites(sites, language, constraints) -> list[Diagnostic]
    LANGUAGE_CHANGED                            the `uses` key of every resolution that read it

Codes (docs/diagnostics.md, "Language versions"):
* `language/other-engine` -- syntax only the other engine has (`provider.for_each` read by
  Terraform, `action` read by OpenTofu); the message names that engine.
* `language/newer-version` -- syntax newer than the chosen version; names the version that brought it.
* `language/experimental` -- syntax that only alpha builds accept (`terraform.experiments`,
  `terraform.state_store` in Terraform).
* `language/unsatisfied-version` -- a `required_version` the chosen version does not satisfy.
* `language/const-conflict` -- a const variable that is also sensitive or ephemeral, in the
  Terraform versions that have const variables (1.15+; OpenTofu allows it).

Contract
--------
* This module is the one home of the versioned facts; `schema.CONFIG_SCHEMA` decodes the union of
  every version of both engines, and these rules narrow it per module. A path is a tuple of block
  type and argument names from the top-level block type down (`("resource", "lifecycle",
  "enabled")`); nested blocks count by type name whatever their labels.
* The choice (`choose`): the `engineVersion` setting, else the newest known release that satisfies
  every constraint of the module, else the newest stable release. OpenTofu reads `required_version`
  only in `.tofu` files (and `language.compatible_with.opentofu` anywhere); Terraform reads every
  `required_version` except in `.tofu` files. Prereleases are candidates only when a constraint
  names a prerelease of the same version core (go-version's rule).
* Nothing here raises on any input; malformed constraints are ignored for the choice (the
  `required_version` syntax rule is not this module's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

from ...diagnostic import ERROR, Diagnostic
from ...hcljson.model import Block, Body
from ...hcljson.values import quoted, string_text
from ...jsonsyntax.tree import FALSE, NUMBER, STRING, TRUE, Node
from ...text.buffer import readable
from .backends import UNKNOWN_BACKEND, UNKNOWN_CONFIG, backend_keys, backend_names, key_at

TERRAFORM = "terraform"
OPENTOFU = "opentofu"
ENGINE_NAMES = MappingProxyType({TERRAFORM: "Terraform", OPENTOFU: "OpenTofu"})

OTHER_ENGINE = "language/other-engine"
NEWER_VERSION = "language/newer-version"
EXPERIMENTAL = "language/experimental"
UNSATISFIED_VERSION = "language/unsatisfied-version"
CONST_CONFLICT = "language/const-conflict"

#: The `uses` key of a block whose resolution read the module's language (`resolve.affected`).
LANGUAGE_CHANGED = ("language",)
#: Declaration key kind: `("version-constraint", engine or "", constraint text)`; engine
#: "terraform" for `required_version` outside `.tofu` files, "opentofu" for one in them and for
#: `language.compatible_with.opentofu`.
CONSTRAINT_KIND = "version-constraint"


# ---- versions ----------------------------------------------------------------------------------

_VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\Z")


@dataclass(frozen=True, slots=True, order=False)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    prerelease: str = ""
    segments: int = 3  # how many numbers were written (`~>` reads it)

    def core(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def key(self) -> tuple:
        """Sort key: the core, then a release after its prereleases, prereleases part by part."""
        if not self.prerelease:
            return (self.core(), 1, ())
        parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease.split("."))
        return (self.core(), 0, parts)

    def __lt__(self, other: Version) -> bool:
        return self.key() < other.key()

    def __le__(self, other: Version) -> bool:
        return self.key() <= other.key()

    @property
    def minor_version(self) -> tuple[int, int]:
        return (self.major, self.minor)

    @property
    def allows_experiments(self) -> bool:
        """Terraform enables experiments only in alpha (and development) builds."""
        return "alpha" in self.prerelease or "dev" in self.prerelease

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}" + (f"-{self.prerelease}" if self.prerelease else "")

    def short(self) -> str:
        """`1.14` for a release `.0`, else the whole version."""
        return f"{self.major}.{self.minor}" if not self.patch and not self.prerelease else str(self)


def parse_version(text: str) -> Version | None:
    m = _VERSION.match(text.strip())
    if m is None:
        return None
    major, minor, patch, pre = m.groups()
    return Version(int(major), int(minor or 0), int(patch or 0), pre or "",
                   1 + (minor is not None) + (patch is not None))


def _equal(v: Version, c: Version) -> bool:
    return v.key() == c.key()


_OPERATORS = {
    "": _equal,
    "=": _equal,
    "!=": lambda v, c: not _equal(v, c),
    ">": lambda v, c: c < v,
    "<": lambda v, c: v < c,
    ">=": lambda v, c: c <= v,
    "<=": lambda v, c: v <= c,
    "~>": lambda v, c: c <= v and _pessimistic_prefix(v, c),
}
_CONSTRAINT = re.compile(r"\s*(~>|>=|<=|!=|=|>|<)?\s*(\S+)\s*\Z")


def _pessimistic_prefix(v: Version, c: Version) -> bool:
    """`~> 1.2` allows 1.x from 1.2; `~> 1.2.3` allows 1.2.x from 1.2.3; `~> 1` allows 1.x."""
    fixed = max(c.segments - 1, 1)
    return v.core()[:fixed] == c.core()[:fixed]


def parse_constraints(text: str) -> tuple[tuple[str, Version], ...] | None:
    """The comma-separated constraints of `text` as (operator, version); None when any part is
    malformed or there is none."""
    out = []
    for part in text.split(","):
        m = _CONSTRAINT.match(part)
        if m is None:
            return None
        version = parse_version(m.group(2))
        if version is None:
            return None
        out.append((m.group(1) or "", version))
    return tuple(out) or None


# go-version's syntax (hashicorp/go-version constraint.go, version.go), which Terraform's
# `version.NewConstraint` accepts: more than `parse_constraints` reads (four segments, `1.0beta`).
_GO_VERSION = (r"v?[0-9]+(?:\.[0-9]+)*"
               r"(?:-[0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*|-?[A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)?"
               r"(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?")
_GO_CONSTRAINT = re.compile(rf"[ \t\n\f\r]*(?:~>|>=|<=|!=|=|>|<)?[ \t\n\f\r]*{_GO_VERSION}[ \t\n\f\r]*\Z")


def constraint_syntax_ok(text: str) -> bool:
    """Whether Terraform reads `text` as version constraints at all (go-version's syntax: comma-
    separated `[operator] version`; the empty string is not)."""
    return all(_GO_CONSTRAINT.match(part) is not None for part in text.split(","))


def constraint_text(text: str, node: Node, start: int) -> str | None:
    """What Terraform reads a version constraint value (`node`, absolute start `start`) as: a JSON
    string literally (no template evaluation), a number or a boolean converted to a string as cty
    converts it (`1.10` -> "1.1"); None for anything else."""
    kind = node.kind
    if kind == STRING:
        return string_text(text, node, start)
    if kind == NUMBER:
        try:
            return format(Decimal(text[start : start + node.end - node.start]).normalize(), "f")
        except (InvalidOperation, ValueError):
            return None
    if kind in (TRUE, FALSE):
        return kind
    return None


def satisfies(version: Version, constraints: Sequence[tuple[str, Version]]) -> bool:
    """go-version's `Constraints.Check`: every constraint holds. A prerelease version satisfies
    a constraint only when the constraint names a prerelease of the same core."""
    for op, c in constraints:
        if version.prerelease and (not c.prerelease or c.core() != version.core()):
            return False
        if not _OPERATORS[op](version, c):
            return False
    return True


# ---- releases ----------------------------------------------------------------------------------
# From the release tags of github.com/hashicorp/terraform and github.com/opentofu/opentofu.

def _versions(*texts: str) -> tuple[Version, ...]:
    return tuple(v for t in texts if (v := parse_version(t)) is not None)


RELEASES: Mapping[str, tuple[Version, ...]] = MappingProxyType({
    TERRAFORM: _versions(
        "0.11.15", "0.12.31", "0.13.7", "0.14.11", "0.15.5", "1.0.11", "1.1.9", "1.2.9", "1.3.10", "1.4.7",
        "1.5.7", "1.6.6", "1.7.5", "1.8.5", "1.9.8", "1.10.5", "1.11.4", "1.12.2", "1.13.5", "1.14.9", "1.15.9",
    ),
    OPENTOFU: _versions("1.6.3", "1.7.10", "1.8.11", "1.9.4", "1.10.10", "1.11.14", "1.12.6"),
})
PRERELEASES: Mapping[str, tuple[Version, ...]] = MappingProxyType({
    TERRAFORM: _versions("1.16.0-alpha20260715", "1.16.0-beta2", "1.16.0-rc2", "1.17.0-alpha20260812"),
    OPENTOFU: _versions("1.13.0-alpha1"),
})
#: The default choice: the newest stable release of each engine (one data change moves it).
NEWEST: Mapping[str, Version] = MappingProxyType({e: max(vs, key=Version.key) for e, vs in RELEASES.items()})


# ---- the definition ----------------------------------------------------------------------------

EXPERIMENTAL_ONLY = "experimental"  # a `since` value: only alpha builds accept it


@dataclass(frozen=True, slots=True)
class Feature:
    path: tuple[str, ...]
    since: Mapping[str, str]  # engine -> first version ("1.14") or EXPERIMENTAL_ONLY; absent: never
    note: str  # what it is, for messages ("for_each in provider blocks")
    source: str  # where the fact comes from (source file or CHANGELOG entry)


def _f(path: str, note: str, source: str, *, terraform: str | None = None, opentofu: str | None = None) -> Feature:
    since = {}
    if terraform is not None:
        since[TERRAFORM] = terraform
    if opentofu is not None:
        since[OPENTOFU] = opentofu
    return Feature(tuple(path.split(".")), MappingProxyType(since), note, source)


_ACTION_TRIGGER = "resource.lifecycle.action_trigger"
FEATURES: Mapping[tuple[str, ...], Feature] = MappingProxyType({f.path: f for f in (
    # Terraform: internal/configs/parser_config.go configFileSchema and the CHANGELOGs of each minor.
    _f("moved", "moved blocks", "CHANGELOG 1.1.0", terraform="1.1", opentofu="1.6"),
    _f("terraform.cloud", "the cloud block", "CHANGELOG 1.1.0", terraform="1.1", opentofu="1.6"),
    _f("check", "check blocks", "CHANGELOG 1.5.0", terraform="1.5", opentofu="1.6"),
    _f("import", "import blocks", "CHANGELOG 1.5.0", terraform="1.5", opentofu="1.6"),
    _f("import.for_each", "for_each in import blocks", "CHANGELOG 1.7.0", terraform="1.7", opentofu="1.7"),
    _f("import.identity", "identity in import blocks", "CHANGELOG 1.12.0; opentofu internal/configs/import.go (v1.12)",
       terraform="1.12", opentofu="1.12"),
    _f("removed", "removed blocks", "CHANGELOG 1.7.0", terraform="1.7", opentofu="1.7"),
    _f("removed.provisioner", "provisioners in removed blocks",
       "CHANGELOG 1.9.0; opentofu internal/configs/removed.go (v1.10)", terraform="1.9", opentofu="1.10"),
    _f("ephemeral", "ephemeral resources", "CHANGELOG 1.10.0; opentofu CHANGELOG 1.11.0", terraform="1.10", opentofu="1.11"),
    _f("variable.ephemeral", "ephemeral input variables", "CHANGELOG 1.10.0; opentofu internal/configs/named_values.go (v1.11)",
       terraform="1.10", opentofu="1.11"),
    _f("output.ephemeral", "ephemeral outputs", "CHANGELOG 1.10.0; opentofu internal/configs/named_values.go (v1.11)",
       terraform="1.10", opentofu="1.11"),
    _f("action", "action blocks", "CHANGELOG 1.14.0 (\"New top-level Actions block\")", terraform="1.14"),
    _f(_ACTION_TRIGGER, "action triggers", "CHANGELOG 1.14.0", terraform="1.14"),
    _f(_ACTION_TRIGGER + ".on_failure", "on_failure in action triggers", "CHANGELOG 1.16.0 (\"on_failure modes\")", terraform="1.16"),
    _f("variable.deprecated", "deprecated variables", "CHANGELOG 1.15.0; opentofu internal/configs/named_values.go (v1.10)",
       terraform="1.15", opentofu="1.10"),
    _f("output.deprecated", "deprecated outputs", "CHANGELOG 1.15.0; opentofu internal/configs/named_values.go (v1.10)",
       terraform="1.15", opentofu="1.10"),
    _f("output.type", "type constraints on outputs", "CHANGELOG 1.15.0 (\"output blocks now can have an explicit type\")",
       terraform="1.15"),
    _f("resource.lifecycle.destroy", "the lifecycle destroy argument", "CHANGELOG 1.16.0; opentofu internal/configs/resource.go (v1.12)",
       terraform="1.16", opentofu="1.12"),
    _f("terraform.state_store", "the state_store block", "internal/configs/parser_config.go parseConfigFile (experiments only)",
       terraform=EXPERIMENTAL_ONLY),
    _f("terraform.experiments", "language experiments", "internal/configs/experiments.go sniffActiveExperiments",
       terraform=EXPERIMENTAL_ONLY, opentofu="1.6"),
    _f("module.source.template", "variables and locals in module source", "CHANGELOG 1.15.0; opentofu CHANGELOG 1.8.0",
       terraform="1.15", opentofu="1.8"),
    _f("terraform.backend.template", "variables and locals in backend settings", "opentofu CHANGELOG 1.8.0 (early evaluation)",
       opentofu="1.8"),
    # OpenTofu: internal/configs of each release branch.
    _f("provider.for_each", "for_each in provider blocks", "opentofu internal/configs/provider.go decodeProviderBlock (v1.9)", opentofu="1.9"),
    _f("resource.provider.instance", "provider instances in the provider argument",
       "opentofu internal/configs/resource.go decodeResourceBlock (v1.9)", opentofu="1.9"),
    _f("module.providers.instance", "provider instances in module providers",
       "opentofu internal/configs/module_call.go decodePassedProviderConfigs (v1.9)", opentofu="1.9"),
    _f("resource.lifecycle.enabled", "the lifecycle enabled argument", "opentofu internal/configs/resource.go (v1.11)", opentofu="1.11"),
    _f("data.lifecycle.enabled", "the lifecycle enabled argument", "opentofu internal/configs/resource.go (v1.11)", opentofu="1.11"),
    _f("module.lifecycle", "lifecycle blocks in module calls", "opentofu internal/configs/module_call.go (v1.11)", opentofu="1.11"),
    # Reserved in every release of both (internal/configs/module_call.go of both, main in 2026-08).
    _f("module.locals", "locals blocks in module calls", "internal/configs/module_call.go (Terraform, OpenTofu)"),
    _f("module.provider", "provider blocks in module calls", "internal/configs/module_call.go (Terraform, OpenTofu)"),
    _f("terraform.encryption", "state and plan encryption", "opentofu CHANGELOG 1.7.0", opentofu="1.7"),
    _f("language", "the language block", "opentofu internal/configs/language.go (v1.12)", opentofu="1.12"),
    _f("resource.lifecycle.prevent_destroy.template", "prevent_destroy set from an expression",
       "opentofu internal/configs/resource.go (v1.12)", opentofu="1.12"),
    # Test files (`*.tftest.json`): paths under TEST_FILE; Terraform internal/configs/test_file.go
    # testFileSchema / testRunBlockSchema at each release tag; OpenTofu's test_file.go (v1.12) has none.
    _f("tftest.run.state_key", "state_key in test runs", "internal/configs/test_file.go testRunBlockSchema (v1.11.0)",
       terraform="1.11"),
    _f("tftest.test", "the test block of test files", "internal/configs/test_file.go testFileSchema (v1.12.0)", terraform="1.12"),
    _f("tftest.run.parallel", "parallel test runs", "internal/configs/test_file.go testRunBlockSchema (v1.12.0)", terraform="1.12"),
    _f("tftest.variable", "variable blocks in test files", "internal/configs/test_file.go testFileSchema (v1.13.0)", terraform="1.13"),
    _f("tftest.run.backend", "backend blocks in test runs", "internal/configs/test_file.go testRunBlockSchema (v1.14.0)",
       terraform="1.14"),
    _f("variable.const", "constant variables (const)",
       "internal/configs/named_values.go variableBlockSchema (v1.15.0); opentofu internal/configs/named_values.go (v1.12)",
       terraform="1.15", opentofu="1.12"),
)})

#: The keywords of an `action_trigger`'s `events`, each with the first Terraform version that takes
#: it (OpenTofu has no actions): internal/configs/action.go decodeActionTriggerBlock, v1.14.0 the
#: create and update events; the destroy ones since v1.16.0-beta1 (commit 848818ccb1, "add before
#: and after destroy config events"; v1.14 had them before release and removed them, #37586).
ACTION_TRIGGER_EVENTS: Mapping[str, str] = MappingProxyType({
    "before_create": "1.14", "after_create": "1.14", "before_update": "1.14", "after_update": "1.14",
    "before_destroy": "1.16", "after_destroy": "1.16",
})

#: Built-in functions newer than the oldest version either engine's data describes:
#: (engine, name) -> first version.
FUNCTIONS_SINCE: Mapping[tuple[str, str], str] = MappingProxyType({
    # Terraform: the CHANGELOG of each minor release ("Added functions: ...", "New function ...").
    (TERRAFORM, "startswith"): "1.3",
    (TERRAFORM, "endswith"): "1.3",
    (TERRAFORM, "timecmp"): "1.3",
    (TERRAFORM, "plantimestamp"): "1.5",
    (TERRAFORM, "strcontains"): "1.5",
    (TERRAFORM, "issensitive"): "1.8",
    (TERRAFORM, "templatestring"): "1.9",
    (TERRAFORM, "ephemeralasnull"): "1.10",
    (TERRAFORM, "convert"): "1.15",
    # OpenTofu: CHANGELOG 1.7.0 ("Added `templatestring` function", ...), internal/lang/functions.go.
    (OPENTOFU, "templatestring"): "1.7",
    (OPENTOFU, "base64gunzip"): "1.7",
    (OPENTOFU, "cidrcontains"): "1.7",
    (OPENTOFU, "urldecode"): "1.7",
    (OPENTOFU, "issensitive"): "1.7",
    (OPENTOFU, "ephemeralasnull"): "1.11",
    (OPENTOFU, "convert"): "1.13",  # CHANGELOG 1.13.0 "New function `convert`"
})


def feature(path: Sequence[str]) -> Feature | None:
    return FEATURES.get(tuple(path))


def versioned_names(*path: str) -> frozenset[str]:
    """The argument and nested block names directly under `path` (a top-level block type, then the
    nested block types down) whose presence alone not every version accepts (for the quick open,
    which must not certify them). A feature of a name's value (`prevent_destroy.template`,
    `provider.instance`) or of something nested in it is not among them: the quick open reads
    such values in shapes without it (`quick._certify`)."""
    n = len(path)
    return frozenset(p[n] for p in FEATURES if len(p) == n + 1 and p[:n] == path)


def introduced(path: Sequence[str]) -> str:
    """Which version of each engine brought `path` ("Terraform 1.14; not in OpenTofu"), or ""."""
    f = feature(path)
    if f is None:
        return ""
    parts = []
    for engine in (TERRAFORM, OPENTOFU):
        since = f.since.get(engine)
        if since is None:
            parts.append(f"not in {ENGINE_NAMES[engine]}")
        elif since == EXPERIMENTAL_ONLY:
            parts.append(f"{ENGINE_NAMES[engine]} alpha builds only")
        else:
            parts.append(f"{ENGINE_NAMES[engine]} {since}+")
    return "; ".join(parts)


# ---- choosing the version of a module ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Language:
    engine: str
    version: Version
    chosen_by: str  # "setting", "required_version", "newest"

    @property
    def name(self) -> str:
        return f"{ENGINE_NAMES[self.engine]} {self.version.short()}"


def _candidates(engine: str, constraints: Iterable[tuple[tuple[str, Version], ...]]) -> list[Version]:
    known = {v.minor_version for v in (*RELEASES[engine], *PRERELEASES[engine])}
    out = [*RELEASES[engine], *PRERELEASES[engine]]
    for cs in constraints:
        out.extend(v for _, v in cs if v.minor_version in known)  # an exact version the module names
    return out


def choose(engine: str, setting: str | None, constraints: Iterable[str]) -> Language:
    """The language module is read by: `setting` (`engineVersion`: "1.11", "1.16.0-rc1") when it
    parses, else the newest known version of `engine` satisfying all `constraints` (texts of this
    engine), else the newest stable release."""
    engine = engine if engine in RELEASES else TERRAFORM
    if setting:
        v = parse_version(setting)
        if v is not None:
            return Language(engine, v, "setting")
    parsed = [c for c in map(parse_constraints, constraints) if c is not None]
    if parsed:
        ok = [v for v in _candidates(engine, parsed) if all(satisfies(v, c) for c in parsed)]
        if ok:
            return Language(engine, max(ok, key=Version.key), "required_version")
    return Language(engine, NEWEST[engine], "newest")


def has(language: Language, since: str | None) -> bool:
    if since is None:
        return False
    if since == EXPERIMENTAL_ONLY:
        return language.version.allows_experiments
    v = parse_version(since)
    return v is not None and v.minor_version <= language.version.minor_version


def available(path: Sequence[str], language: Language | None) -> bool:
    """Whether `language` has `path` (always True for an unversioned path or no language)."""
    f = feature(path)
    return f is None or language is None or has(language, f.since.get(language.engine))


def action_trigger_events(language: Language | None) -> tuple[str, ...]:
    """The `action_trigger.events` keywords `language` takes (every one for no language)."""
    return tuple(e for e, since in ACTION_TRIGGER_EVENTS.items()
                 if language is None or (language.engine == TERRAFORM and has(language, since)))


def function_available(name: str, language: Language | None) -> str | None:
    """None when `language` has built-in function `name` as far as versions go, else the version
    that brought it."""
    if language is None:
        return None
    since = FUNCTIONS_SINCE.get((language.engine, name))
    return since if since is not None and not has(language, since) else None


# ---- sites ----------------------------------------------------------------------------------------

SITE_FEATURE = "feature"  # a versioned name was written
SITE_CONSTRAINT = "constraint"  # a `required_version` to check against the chosen version
SITE_CONST_CONFLICT = "const-conflict"  # a const variable also sensitive or ephemeral (`path[-1]` which)
SITE_BACKEND = "backend"  # a `terraform_remote_state` backend only some engines or releases have (`path`: (name,))
SITE_BACKEND_KEY = "backend-key"  # ... a config key likewise (`path`: backend, then names through nested blocks)

#: The Terraform versions that reject a const variable that is also sensitive or ephemeral
#: (internal/configs/named_values.go decodeVariableBlock, v1.15.0: "Const variable cannot be
#: sensitive", subject the variable's declaration range; OpenTofu 1.12 has no such rule).
CONST_CONFLICT_SINCE = MappingProxyType({TERRAFORM: "1.15"})


@dataclass(frozen=True, slots=True)
class LanguageSite:
    """One place a block's meaning depends on the module's language: a feature used (`path`, the
    range of its name) or a version constraint (`path[-1]` its text, the range of the attribute)."""

    kind: str
    path: tuple[str, ...]
    start: int
    end: int

    def shifted(self, delta: int) -> LanguageSite:
        return self if delta == 0 else LanguageSite(self.kind, self.path, self.start + delta, self.end + delta)

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)


#: An index in a provider address that is not a literal (`aws.by_region[each.key]`).
_INSTANCE_KEY = re.compile(r'\[\s*[^\]\s"\\0-9]')
_PROVIDER_OWNERS = frozenset({"resource", "data", "ephemeral"})
_TEMPLATE = re.compile(r"(?<![$%])[$%]\{")


def _has_template(text: str, attr) -> bool:
    expr = attr.expr
    if expr is None or expr.node.kind != STRING:
        return False
    value = string_text(text, expr.node, expr.start)
    return "${" in value and _TEMPLATE.search(value.replace("$${", "")) is not None


def _under() -> dict[tuple[str, ...], frozenset[str]]:
    """path -> the names directly under it that are versioned or lead to something versioned (the
    walk looks at nothing else: a resource's provider-defined arguments cost one set lookup)."""
    under: dict[tuple[str, ...], set[str]] = {}
    for path in FEATURES:
        for k in range(len(path)):
            under.setdefault(path[:k], set()).add(path[k])
    under[("module",)].add("version")  # `module.source.template` covers `version` too
    for owner in _PROVIDER_OWNERS:  # `resource.provider.instance` covers data and ephemeral resources
        under.setdefault((owner,), set()).add("provider")
    return {p: frozenset(names) for p, names in under.items()}


def _walk(body: Body, path: tuple[str, ...], out: list[LanguageSite], text: str) -> None:
    names = _UNDER.get(path)
    if names is None:
        return
    for a in body.attributes:
        name = a.name
        if name not in names:
            continue
        p = (*path, name)
        if p in FEATURES:
            out.append(LanguageSite(SITE_FEATURE, p, a.name_start, a.name_end))
        special: tuple[str, ...] | None = None
        if name == "prevent_destroy" and path == ("resource", "lifecycle") and _has_template(text, a):
            special = ("resource", "lifecycle", "prevent_destroy", "template")
        elif name == "provider" and len(path) == 1 and a.expr is not None and _INSTANCE_KEY.search(
                *readable(text, a.expr.start, a.expr.end)):
            special = ("resource", "provider", "instance")
        elif name == "providers" and path == ("module",) and a.expr is not None and _INSTANCE_KEY.search(
                *readable(text, a.expr.start, a.expr.end)):
            special = ("module", "providers", "instance")
        elif name in ("source", "version") and path == ("module",) and _has_template(text, a):
            special = ("module", "source", "template")
        if special is not None:
            out.append(LanguageSite(SITE_FEATURE, special, a.name_start, a.name_end))
    for b in body.blocks:
        if b.type_name not in names:
            continue
        p = (*path, b.type_name)
        if p in FEATURES:
            out.append(LanguageSite(SITE_FEATURE, p, b.type_start, b.type_end))
        if p == ("terraform", "backend"):
            if any(_has_template(text, a) for a in b.body.attributes):
                out.append(LanguageSite(SITE_FEATURE, ("terraform", "backend", "template"), b.type_start, b.type_end))
            continue
        _walk(b.body, p, out, text)


_UNDER = _under()


#: The first element of the paths of test file syntax (`("tftest", "run", "parallel")`).
TEST_FILE = "tftest"


def test_file_sites(block: Block, text: str) -> list[LanguageSite]:
    """The versioned names top-level `block` of a test file uses (paths under `TEST_FILE`)."""
    out: list[LanguageSite] = []
    path = (TEST_FILE, block.type_name)
    if path in FEATURES:
        out.append(LanguageSite(SITE_FEATURE, path, block.type_start, block.type_end))
    _walk(block.body, path, out, text)
    return out


def language_sites(block: Block, text: str, tofu_file: bool = False) -> list[LanguageSite]:
    """The sites of top-level `block`: every versioned name it uses, and in a `terraform` block
    its `required_version` (checked against the chosen version)."""
    out: list[LanguageSite] = []
    path = ("data",) if block.type_name == "data" else (block.type_name,)
    if path in FEATURES:
        out.append(LanguageSite(SITE_FEATURE, path, block.type_start, block.type_end))
    _walk(block.body, path, out, text)
    if block.type_name == "variable":
        out.extend(_const_conflicts(block))
    if block.type_name == "terraform":
        for a in block.body.attributes:
            value = constraint_text(text, a.expr.node, a.expr.start) if a.name == "required_version" and a.expr is not None else None
            if value is not None:
                engine = OPENTOFU if tofu_file else TERRAFORM
                out.append(LanguageSite(SITE_CONSTRAINT, (engine, value), a.start, a.end))
    out.sort(key=lambda site: site.range)
    return out


def _is_true(body: Body, name: str) -> bool:
    a = body.attribute(name)
    return a is not None and a.expr is not None and a.expr.node.kind == TRUE


def _const_conflicts(block: Block) -> list[LanguageSite]:
    """A variable whose `const` is true and which is also `sensitive` or `ephemeral`, on the
    variable's declaration range (the `{` of its body, as HCL's JSON parser gives it)."""
    if not _is_true(block.body, "const"):
        return []
    start = block.body.start
    return [LanguageSite(SITE_CONST_CONFLICT, ("variable", "const", other), start, start + 1)
            for other in ("sensitive", "ephemeral") if _is_true(block.body, other)]


def constraint_keys(block: Block, text: str, tofu_file: bool = False) -> list[tuple[tuple, int, int]]:
    """The version constraints `block` declares for the module, as declaration keys
    `(CONSTRAINT_KIND, engine, text)` with the range of their value: a `terraform` block's
    `required_version`, a `language` block's `compatible_with.opentofu`."""
    out = []
    if block.type_name == "terraform":
        for a in block.body.attributes:
            e = a.expr
            value = constraint_text(text, e.node, e.start) if a.name == "required_version" and e is not None else None
            if value is not None and e is not None:
                engine = OPENTOFU if tofu_file else TERRAFORM
                out.append(((CONSTRAINT_KIND, engine, value), e.start, e.end))
    elif block.type_name == "language":
        for cw in block.body.blocks_of("compatible_with"):
            tofu = cw.body.attribute("opentofu")
            if tofu is not None and tofu.expr is not None and tofu.expr.node.kind == STRING:
                out.append(((CONSTRAINT_KIND, OPENTOFU, string_text(text, tofu.expr.node, tofu.expr.start)), tofu.expr.start, tofu.expr.end))
    return out


def module_constraints(keys: Iterable[tuple], engine: str) -> list[str]:
    """The constraint texts of `engine` among declaration keys (`CONSTRAINT_KIND` keys)."""
    return sorted({k[2] for k in keys if k[0] == CONSTRAINT_KIND and len(k) > 2 and k[1] == engine})


def check_sites(sites: Sequence[LanguageSite], language: Language) -> list[Diagnostic]:
    out = []
    for s in sites:
        if s.kind == SITE_CONSTRAINT:
            engine, text = s.path
            if engine != language.engine or language.chosen_by != "setting":
                continue  # a version chosen from the constraints satisfies them (or none could)
            parsed = parse_constraints(text)
            if parsed is not None and not satisfies(language.version, parsed):
                name = ENGINE_NAMES[language.engine]
                out.append(Diagnostic(
                    s.start, s.end, ERROR, UNSATISFIED_VERSION, f"Unsupported {name} Core version",
                    f"This configuration does not support {name} version {language.version}. To proceed, either choose "
                    f"another supported {name} version or update this version constraint (the version comes from the "
                    "\"engineVersion\" setting).",
                ))
            continue
        if s.kind == SITE_CONST_CONFLICT:
            if has(language, CONST_CONFLICT_SINCE.get(language.engine)):
                other = s.path[-1]
                out.append(Diagnostic(s.start, s.end, ERROR, CONST_CONFLICT, f"Const variable cannot be {other}",
                                      f"A variable that is marked as \"const\" cannot also be marked as {quoted(other)}."))
            continue
        if s.kind in (SITE_BACKEND, SITE_BACKEND_KEY):
            found = _backend_problem(s, language)
            if found is not None:
                out.append(found)
            continue
        problem = _feature_problem(s, language)
        if problem is not None:
            out.append(problem)
    return out


def _backend_problem(s: LanguageSite, language: Language) -> Diagnostic | None:
    """A `terraform_remote_state` backend or config key that `language` lacks (other engines or
    releases have it: `rules.remote_state` sends only those here)."""
    engine, version = language.engine, language.version
    backend = s.path[0]
    if s.kind == SITE_BACKEND:
        if backend in backend_names(engine, version):
            return None
        return Diagnostic(s.start, s.end, ERROR, UNKNOWN_BACKEND, "Invalid backend configuration",
                          f"There is no backend type named {quoted(backend)} in {language.name}, which reads this "
                          f"module ({_why(language)}); other releases or engines have it.")
    if (backend not in backend_names(engine, version) or backend_keys(engine, version, backend) is None
            or key_at(engine, version, backend, s.path[1:]) is not None):
        return None  # the backend itself is the problem there (SITE_BACKEND), or the key is known
    parent = key_at(engine, version, backend, s.path[1:-1]) if len(s.path) > 2 else None
    if len(s.path) > 2 and parent is None:
        return None  # its block is what that version lacks: reported on the block's own key
    where = f"the {quoted('.'.join(s.path[1:-1]))} block of " if len(s.path) > 2 else ""
    return Diagnostic(s.start, s.end, ERROR, UNKNOWN_CONFIG, "Invalid backend configuration",
                      f"The configuration of {where}backend {quoted(backend)} has no argument {quoted(s.path[-1])} "
                      f"in {language.name}, which reads this module ({_why(language)}); other releases or "
                      "engines have it.")


def _feature_problem(s: LanguageSite, language: Language) -> Diagnostic | None:
    f = FEATURES.get(s.path)
    if f is None:
        return None
    since = f.since.get(language.engine)
    if has(language, since):
        return None
    name = ENGINE_NAMES[language.engine]
    written = ".".join(p for p in s.path[1 if s.path[0] == TEST_FILE else 0:] if p != "template")
    if s.path in RESERVED_BLOCKS:
        return _reserved(s, language, since)
    if since == EXPERIMENTAL_ONLY:
        if s.path == ("terraform", "experiments"):
            return Diagnostic(s.start, s.end, ERROR, EXPERIMENTAL, "Module uses experimental features",
                              "Experimental features are intended only for gathering early feedback on new language "
                              f"designs, and so are available only in alpha releases of {name} (this module is read "
                              f"by {language.name}).")
        return Diagnostic(s.start, s.end, ERROR, EXPERIMENTAL, f"Unsupported block type {quoted(s.path[-1])}",
                          f"{quoted(written)} is available only in alpha releases of {name} "
                          f"with experiments enabled; this module is read by {language.name}.")
    if since is None:
        others = [ENGINE_NAMES[e] for e in f.since if e != language.engine]
        other = others[0] if others else "another engine"
        return Diagnostic(s.start, s.end, ERROR, OTHER_ENGINE, f"{name} does not support {f.note}",
                          f"{quoted(written)} exists only in {other}; this module is read by {name} (see the "
                          "\"engine\" setting; a module with .tofu.json files is read by OpenTofu).")
    return Diagnostic(s.start, s.end, ERROR, NEWER_VERSION, f"{language.name} does not support {f.note}",
                      f"{quoted(written)} was introduced in {name} {since}; this module is read by {language.name}"
                      f" ({_why(language)}).")


#: Block types a version without them reserves (decodes nothing in them): path -> the summary of
#: the engine's error (internal/configs/module_call.go: "lifecycle" in a module call is reserved in
#: every Terraform release and in OpenTofu before 1.11, which gives it `enabled`; "locals" and
#: "provider" in every release of both: `RESERVED_BLOCK`).
RESERVED_BLOCKS: Mapping[tuple[str, ...], str] = MappingProxyType({
    ("module", "lifecycle"): "Reserved block type name in module block",
    ("module", "locals"): "Reserved block type name in module block",
    ("module", "provider"): "Reserved block type name in module block",
})
#: A block type no release of either engine accepts (`RESERVED_BLOCKS` without a version that has it).
RESERVED_BLOCK = "structure/reserved-block"


def _reserved(s: LanguageSite, language: Language, since: str | None) -> Diagnostic:
    name = ENGINE_NAMES[language.engine]
    detail = f"The block type name {quoted(s.path[-1])} is reserved for use by {name} in a future version"
    if not FEATURES[s.path].since:
        return Diagnostic(s.start, s.end, ERROR, RESERVED_BLOCK, RESERVED_BLOCKS[s.path], detail + ".")
    if since is None:
        others = [f"{ENGINE_NAMES[e]} {v}" for e, v in FEATURES[s.path].since.items() if e != language.engine]
        detail += f" ({others[0]} and later accept it; this module is read by {name})." if others else "."
        return Diagnostic(s.start, s.end, ERROR, OTHER_ENGINE, RESERVED_BLOCKS[s.path], detail)
    detail += f" ({name} {since} and later accept it; this module is read by {language.name}, {_why(language)})."
    return Diagnostic(s.start, s.end, ERROR, NEWER_VERSION, RESERVED_BLOCKS[s.path], detail)


def _why(language: Language) -> str:
    if language.chosen_by == "setting":
        return "the \"engineVersion\" setting"
    if language.chosen_by == "required_version":
        return "the newest version its required_version allows"
    return "the newest release"
