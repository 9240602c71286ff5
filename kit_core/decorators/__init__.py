"""The decorator registry: every decorator of the closed set with its sites, arguments,
documentation, role, validator family and checks (`DECORATORS`), plus the `@format` names
(`FORMATS`) and the error categories (`ERROR_CATEGORIES`).

Typical questions and where the answer is:
    lookup("length")                     the entry (None for an unknown name)
    VALIDATORS / BINDINGS / FLAGS        names by role (generators, formatter)
    for_site(Site.FIELD)                 what completion offers after `@` on a field
    spec.hover()                         Markdown for hover; spec.signature for signature help
"""

from __future__ import annotations

from kit_core.decorators.checks import flat_args, literal_text
from kit_core.decorators.formats import FORMATS, Format
from kit_core.decorators.spec import (
    SITE_LABELS,
    ArgKind,
    ArgProblem,
    DecoratorSpec,
    Family,
    Param,
    RefKind,
    Role,
    Site,
    kind_accepts,
)
from kit_core.decorators.table import DECORATORS, REMOVED
from kit_core.error_categories import ERROR_CATEGORIES, ErrorCategory, category_status

REGISTRY: dict[str, DecoratorSpec] = {d.name: d for d in DECORATORS}

VALIDATORS: frozenset[str] = frozenset(d.name for d in DECORATORS if d.role is Role.VALIDATOR)
BINDINGS: frozenset[str] = frozenset(d.name for d in DECORATORS if d.role is Role.BINDING)
FLAGS: frozenset[str] = frozenset(d.name for d in DECORATORS if d.is_flag)
REPEATABLE: frozenset[str] = frozenset(d.name for d in DECORATORS if d.repeatable)
VARIADIC: frozenset[str] = frozenset(d.name for d in DECORATORS if d.variadic)

EXTEND_ALLOWED: frozenset[str] = frozenset(d.name for d in DECORATORS if Site.EXTEND_SERVICE in d.sites)
"""Decorators an `extend service` block accepts (decorator rule 12)."""

IDENT_ARGS: frozenset[str] = frozenset(d.name for d in DECORATORS if d.params and d.params[0].refers is RefKind.FORMAT)
"""Decorators whose quoted argument naming a registered identifier warns (`@format("email")`)."""


def lookup(name: str) -> DecoratorSpec | None:
    return REGISTRY.get(name)


def for_site(site: Site) -> tuple[DecoratorSpec, ...]:
    return tuple(d for d in DECORATORS if site in d.sites)


def validators_for(family: Family) -> tuple[DecoratorSpec, ...]:
    return tuple(d for d in DECORATORS if d.family is family)


__all__ = [
    "BINDINGS",
    "DECORATORS",
    "ERROR_CATEGORIES",
    "EXTEND_ALLOWED",
    "FLAGS",
    "FORMATS",
    "IDENT_ARGS",
    "REGISTRY",
    "REMOVED",
    "REPEATABLE",
    "SITE_LABELS",
    "VALIDATORS",
    "VARIADIC",
    "ArgKind",
    "ArgProblem",
    "DecoratorSpec",
    "ErrorCategory",
    "Family",
    "Format",
    "Param",
    "RefKind",
    "Role",
    "Site",
    "category_status",
    "flat_args",
    "for_site",
    "kind_accepts",
    "literal_text",
    "lookup",
    "validators_for",
]
