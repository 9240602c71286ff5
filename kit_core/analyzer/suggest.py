""" "Did you mean" hints: a declared name within one edit of an unknown one.

Names are indexed by their one-deletion variants (symmetric deletion: two names within one
insertion, deletion, substitution or adjacent swap of each other share a variant), so a
lookup costs time in the length of the unknown name, not in the number of declared names,
and each unknown name is looked up once. (difflib's `get_close_matches`, used before,
compared every unknown name with every declared one: 5,000 unknown references to a
package of 5,000 types took most of a minute.)

Between equally close names the alphabetically first wins, so a hint depends only on the
set of names, never on where they are declared: that set is what the language server's
incremental analysis tracks (an edit that only moves declarations keeps the hints).
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 3  # shorter names get a hint only for a difference of case ("id" -> "ID")


class Suggester:
    def __init__(self, names: Iterable[str]) -> None:
        self._index: dict[str, list[str]] = {}
        for name in dict.fromkeys(names):
            for variant in _variants(name.lower()):
                self._index.setdefault(variant, []).append(name)
        self._memo: dict[str, str | None] = {}

    def suggest(self, name: str) -> str | None:
        """The closest declared name (fewest edits ignoring case, then alphabetically first);
        None when none is within one edit."""
        try:
            return self._memo[name]
        except KeyError:
            pass
        if len(self._memo) > 10_000:  # a long editing session types many names once
            self._memo.clear()
        found = self._memo[name] = self._closest(name)
        return found

    def _closest(self, name: str) -> str | None:
        low = name.lower()
        best: tuple[int, str] | None = None
        for variant in _variants(low):
            for candidate in self._index.get(variant, ()):
                if candidate == name:
                    continue
                edits = _edits(low, candidate.lower())
                if edits > 1 or (edits == 1 and len(name) < MIN_LENGTH):
                    continue
                if best is None or (edits, candidate) < best:
                    best = (edits, candidate)
        return best[1] if best else None


def _variants(word: str) -> set[str]:
    """The word and every word one deletion away from it."""
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions and swaps of
    two neighbours), for two words the index already found within two edits."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]
