"""Locations of the Mine (DW-GRID-1..3) and of the second Mine with two copies (DW-COMB-1).

A location is ``"rc"`` inside one Mine; a *place* is ``"a:rc"`` with ``a`` the
play area (0, or 1 with two copies). Reading order runs through Mine 0 and then Mine 1.
"""
from __future__ import annotations

from functools import lru_cache

LOCATIONS = tuple(f"{r}{c}" for r in (1, 2, 3) for c in (1, 2, 3))  # reading order (DW-GRID-2)


def place(area: int, loc: str) -> str:
    return f"{area}:{loc}"


@lru_cache(maxsize=64)
def split(place_: str) -> tuple[int, str]:
    """``(area, location)`` of a place (cached: the bots' rollouts ask millions of times)."""
    area, _, loc = place_.partition(":")
    return int(area), loc


def places(areas: int) -> list[str]:
    """Every place in reading order (DW-GRID-2, both Mines with DW-COMB-5)."""
    return list(_places(areas))


@lru_cache(maxsize=4)
def _places(areas: int) -> tuple[str, ...]:
    return tuple(place(a, loc) for a in range(areas) for loc in LOCATIONS)


def reading_index(loc: str) -> int:
    """``3(r-1)+c`` (DW-GRID-2)."""
    return 3 * (int(loc[0]) - 1) + int(loc[1])


def row_mates(loc: str) -> list[str]:
    """The other two locations of ``loc``'s row (DW-GRID-3), in reading order."""
    return [x for x in LOCATIONS if x[0] == loc[0] and x != loc]


def column_mates(loc: str) -> list[str]:
    return [x for x in LOCATIONS if x[1] == loc[1] and x != loc]
