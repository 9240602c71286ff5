"""`int_range_pattern`: the regex accepts a spelling iff it is a canonical decimal in range."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kit_core.generators.openapi.intpattern import int_range_pattern
from kit_core.symbols import INT_RANGES

from .helpers import doc

I64, U64 = INT_RANGES["int64"], INT_RANGES["uint64"]
EDGES = [0, 1, 9, 10, 99, 100, 255, 256, 300, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, 2**63, 2**64 - 1]
EDGES += [-e for e in EDGES]
bound = st.one_of(st.sampled_from(EDGES), st.integers(I64[0], U64[1]), st.integers(-1000, 1000))
ranges = st.tuples(bound, bound).map(sorted)


def _near(lo: int, hi: int) -> st.SearchStrategy[int]:
    """Values at and around the bounds, inside and outside, and anywhere."""
    edges = [lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0, -1, 1]
    return st.one_of(st.sampled_from(edges), st.integers(lo - 10**20, hi + 10**20), st.integers(lo, hi))


@settings(max_examples=400)
@given(data=st.data(), bounds=ranges)
@example(data=None, bounds=list(I64))
@example(data=None, bounds=list(U64))
@example(data=None, bounds=[0, 255])
def test_accepts_n_iff_in_range(data: st.DataObject | None, bounds: list[int]) -> None:
    lo, hi = bounds
    regex = re.compile(int_range_pattern(lo, hi))
    values = [data.draw(_near(lo, hi)) for _ in range(20)] if data else [lo - 1, lo, hi, hi + 1, 0, 7]
    for n in values:
        assert bool(regex.fullmatch(str(n))) == (lo <= n <= hi), (lo, hi, n, regex.pattern)


@given(bounds=ranges, n=st.integers(-(10**21), 10**21))
def test_refuses_every_other_spelling(bounds: list[int], n: int) -> None:
    """`+n`, leading zeros and `-0` are not JSON's spelling; the decoder refuses them too."""
    regex = re.compile(int_range_pattern(*bounds))
    digits = str(abs(n))
    for spelling in (f"+{digits}", f"0{digits}", f"-0{digits}", "-0", f" {n}", f"{n} ", f"{n}.0", ""):
        assert not regex.fullmatch(spelling), (bounds, spelling, regex.pattern)


@pytest.mark.parametrize(
    ("lo", "hi", "pattern"),
    [
        (0, 255, "^(?:[0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"),
        (5, 5, "^5$"),
        (-3, -3, "^-3$"),
        (0, 99, "^(?:[0-9]|[1-9][0-9])$"),
    ],
)
def test_readable_shapes(lo: int, hi: int, pattern: str) -> None:
    assert int_range_pattern(lo, hi) == pattern


def test_empty_range_is_a_bug() -> None:
    with pytest.raises(ValueError, match="empty range"):
        int_range_pattern(2, 1)


MAP_KEYS = """package todo

scalar Small int32 @gte(-5) @range(-10, 300) @lt(300)
enum Level {
	Minus = -7
	One   = 1
}
enum Tint {
	Red
}

type M {
	a map<uint8, string>
	b map<Small, string>
	c map<Level, string>
	d map<Tint, string>
	e map<string, string>
}

service S {
	post Put /m {
		request M
	}
}
"""


def test_map_key_schemas_in_the_document() -> None:
    props = doc(MAP_KEYS)["components"]["schemas"]["M"]["properties"]
    assert props["a"]["propertyNames"] == {"pattern": int_range_pattern(0, 255)}
    # every bound holds, in whatever order written: [-5, 299]
    assert props["b"]["propertyNames"] == {"pattern": int_range_pattern(-5, 299)}
    assert props["c"]["propertyNames"] == {"enum": ["-7", "1"]}
    assert props["d"]["propertyNames"] == {"$ref": "#/components/schemas/Tint"}
    assert "propertyNames" not in props["e"]
