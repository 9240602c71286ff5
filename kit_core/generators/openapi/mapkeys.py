"""`propertyNames` of a map whose key type is an integer, an integer scalar or an integer enum.

JSON keys are strings, so an integer key type cannot be stated with `type: integer`: the
document states the exact set of spellings the decoder takes instead (see intpattern).
"""

from __future__ import annotations

import math
from typing import Any

from kit_core.model import EnumDecl, ScalarDecl
from kit_core.semantics import TypeShape
from kit_core.symbols import INT_RANGES, Kind

from .constraints import number_keywords
from .intpattern import int_range_pattern


def integer_key_names(key: TypeShape) -> dict[str, Any] | None:
    """The key schema of an integer-typed key, None for a string-typed one."""
    base = key.base()
    if base.kind is Kind.PRIMITIVE and base.name in INT_RANGES:
        return {"pattern": int_range_pattern(*INT_RANGES[base.name])}
    decl = base.decl
    if isinstance(decl, ScalarDecl) and decl.primitive.name in INT_RANGES:
        return {"pattern": int_range_pattern(*_scalar_range(decl))}  # never empty: decorator/empty-range
    if isinstance(decl, EnumDecl) and any(v.value is not None and not v.value.is_string for v in decl.values):
        return {"enum": [str(v.value.value) for v in decl.values if v.value is not None]}
    return None


def _scalar_range(decl: ScalarDecl) -> tuple[int, int]:
    """The primitive's range narrowed by every bound of the scalar, each one in turn (two
    bounds on one side both hold). `@multipleOf` is not a range: a key pattern omits it."""
    lo, hi = INT_RANGES[decl.primitive.name]
    for d in decl.decorators:
        kws = number_keywords(d)
        if "minimum" in kws:
            lo = max(lo, math.ceil(kws["minimum"]))
        if "exclusiveMinimum" in kws:
            lo = max(lo, math.floor(kws["exclusiveMinimum"]) + 1)
        if "maximum" in kws:
            hi = min(hi, math.floor(kws["maximum"]))
        if "exclusiveMaximum" in kws:
            hi = min(hi, math.ceil(kws["exclusiveMaximum"]) - 1)
    return lo, hi
