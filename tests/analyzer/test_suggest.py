""" "Did you mean": a declared name within one edit (ignoring case), found through an index."""

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
    assert s.suggest("Uesr") == "User"  # equally close to Usr: the alphabetically first
    assert s.suggest("Customer") is None
    assert s.suggest("Id") == "ID"  # short names: a difference of case only (ID sorts before id)
    assert s.suggest("x") is None and s.suggest("ix") is None


def test_a_declared_name_is_never_its_own_suggestion() -> None:
    assert Suggester(["User"]).suggest("User") is None


word = st.text(alphabet="abcAB", min_size=0, max_size=7)


@given(st.lists(word, max_size=20), word)
def test_the_index_finds_exactly_the_names_a_full_scan_finds(names: list[str], query: str) -> None:
    """The index is a speed-up only: it agrees with comparing the query with every name."""
    low = query.lower()
    limit = 1 if len(query) >= 3 else 0
    close = [(_edits(low, n.lower()), n) for n in names if n != query]
    best = min(((e, n) for e, n in close if e <= limit), default=None)
    assert Suggester(names).suggest(query) == (best[1] if best else None)


near = st.text(alphabet="abB", min_size=3, max_size=4)  # short alphabet: many equally close names


@given(st.lists(near, max_size=12), st.randoms(use_true_random=False), near)
def test_a_hint_depends_on_the_names_not_on_their_order(names: list[str], rng, query: str) -> None:  # type: ignore[no-untyped-def]
    """The language server re-checks a hint when the set of names changes, not when a
    declaration only moves (found by the keystroke test: two equally close names swapped)."""
    shuffled = list(names)
    rng.shuffle(shuffled)
    assert Suggester(names).suggest(query) == Suggester(shuffled).suggest(query)
    assert Suggester(["Big1", "Big6"]).suggest("Big16") == Suggester(["Big6", "Big1"]).suggest("Big16") == "Big1"
