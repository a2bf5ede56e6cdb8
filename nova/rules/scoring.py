"""End-game scoring: Cargo Bays (R50-R54) and Special Action cards (R55-R58).

>>> score_bay(["black", "black", "red"])
6
>>> score_specials(["red", "red", "red"])
6
>>> score_specials(["red", "red", "black", "yellow"])
5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from .content import COLOUR_NAMES

COLOUR_LETTERS = {**{name: c for c, name in COLOUR_NAMES.items()}, **{c: c for c in COLOUR_NAMES}}

DEFAULT_BAY_SETS = {1: 1, 2: 5, 3: 10}
DEFAULT_SPECIAL_SETS = {1: 1, 2: 3, 3: 6}


def _letters(shards: Iterable[str]) -> str:
    try:
        return "".join(COLOUR_LETTERS[s] for s in shards)
    except KeyError as exc:
        raise ValueError(f"unknown Shard colour {exc.args[0]!r}") from None


def best_bay_split(shards: Iterable[str], table: Mapping[int, int] | None = None):
    """The best split of one bay into consecutive groups of different colours.

    Returns ``(points, groups)``; the bay keeps its order, bottom first (R50).
    """
    table = DEFAULT_BAY_SETS if table is None else table
    seq = _letters(shards)
    n = len(seq)
    best = [0] * (n + 1)
    cut = [0] * (n + 1)
    largest = max(table)
    for i in range(1, n + 1):
        best[i] = -1
        for size in range(1, min(largest, i) + 1):
            group = seq[i - size : i]
            if len(set(group)) != size or size not in table:
                continue
            value = best[i - size] + table[size]
            if value > best[i]:
                best[i], cut[i] = value, size
    groups = []
    i = n
    while i > 0:
        groups.append(seq[i - cut[i] : i])
        i -= cut[i]
    groups.reverse()
    return best[n], groups


def score_bay(shards: Iterable[str], table: Mapping[int, int] | None = None) -> int:
    """Points of one Cargo Bay, bottom first: groups of 3 different 10, 2 different 5, one 1."""
    return best_bay_split(shards, table)[0]


def special_groups(symbols: Iterable[str], table: Mapping[int, int] | None = None):
    """Groups of matching Shard symbols and their points: ``[(colour, size, points), ...]``."""
    table = DEFAULT_SPECIAL_SETS if table is None else table
    largest = max(table)
    out = []
    for colour, count in sorted(Counter(_letters(symbols)).items()):
        while count > 0:
            size = min(largest, count)
            out.append((colour, size, table[size]))
            count -= size
    return out


def score_specials(symbols: Iterable[str], table: Mapping[int, int] | None = None) -> int:
    """Points of a player's Special cards by Shard symbol: three alike 6, a pair 3, one 1."""
    return sum(points for _, _, points in special_groups(symbols, table))
