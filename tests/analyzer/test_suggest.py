""""Did you mean": a declared name within one edit (ignoring case), found through an index."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kit_core.analyzer.suggest import Suggester, _edits

NAMES = ["User", "Order", "OrderItem", "Usr", "id", "ID", "Address"]


def test_one_edit_away_ignoring_case() -> None:
    s = Suggester(NAMES)
    assert s.suggest("user") == "User"  # case only
    assert s.suggest("Ordr") == "Order"  # a deletion
    assert s.suggest("Orders") == "Order"  # an insertion
    assert s.suggest("Adress") == "Address"
    assert s.suggest("OrderItme") == "OrderItem"  # two neighbours swapped
    assert s.suggest("Uesr") == "User"  # a swap beats an equally close later name
    assert s.suggest("Customer") is None
    assert s.suggest("Id") == "id"  # short names: a difference of case only
    assert s.suggest("x") is None and s.suggest("ix") is None


def test_a_declared_name_is_never_its_own_suggestion() -> None:
    assert Suggester(["User"]).suggest("User") is None


word = st.text(alphabet="abcAB", min_size=0, max_size=7)


@given(st.lists(word, max_size=20), word)
def test_the_index_finds_exactly_the_names_a_full_scan_finds(names: list[str], query: str) -> None:
    """The index is a speed-up only: it agrees with comparing the query with every name."""
    low = query.lower()
    limit = 1 if len(query) >= 3 else 0
    close = [(_edits(low, n.lower()), i) for i, n in enumerate(dict.fromkeys(names)) if n != query]
    best = min(((e, i) for e, i in close if e <= limit), default=None)
    expected = list(dict.fromkeys(names))[best[1]] if best else None
    assert Suggester(names).suggest(query) == expected
