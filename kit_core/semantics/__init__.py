"""Pure functions over a SymbolTable (+ Manifest) that the analyzer and generators share.

- `kit_core.semantics.types`: `TypeIndex` (resolve refs to `TypeShape`, expand mixins with
  generic substitution into `EffectiveField`s), `value_class`, `json_key`, `is_optional`,
  `is_nullable`, `is_sensitive`, `validators`, `holds_nil`.
- `kit_core.semantics.http`: `http_model(symbols, manifest)` -> `HttpModel` of `MethodInfo`
  (routes, mux patterns, `FieldBinding`s, chains, groups, file names, statuses, limits).
"""

from kit_core.semantics.http import (
    ErrorRef,
    FieldBinding,
    HttpModel,
    Location,
    MethodInfo,
    http_model,
)
from kit_core.semantics.types import (
    EffectiveField,
    TypeIndex,
    TypeShape,
    ValueClass,
    holds_nil,
    is_nullable,
    is_optional,
    is_sensitive,
    json_key,
    validators,
    value_class,
)

__all__ = [
    "EffectiveField",
    "ErrorRef",
    "FieldBinding",
    "HttpModel",
    "Location",
    "MethodInfo",
    "TypeIndex",
    "TypeShape",
    "ValueClass",
    "holds_nil",
    "http_model",
    "is_nullable",
    "is_optional",
    "is_sensitive",
    "json_key",
    "validators",
    "value_class",
]
