"""Hex geometry of the authored layouts (IND-AMB-6, IND-GAP-7/8).

A layout is an ASCII map (``content/board_<n>p.txt``): rows of two-letter
tokens, odd rows shifted half a tile right ("odd-r" offset). Tiles are named
``"r<row>c<col>"``. Adjacency is edge contact (IND-TILE-1) and distance is hex
distance (IND-TILE-2, IND-TERM-3). Screen orientation: north up, east right,
so "clockwise" and "left" (IND-AMB-37, IND-AMB-43) have one meaning.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from . import content

_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_KINDS = {"g": "gold", "w": "wood", "o": "ore", "D": "meadow"}


def tile_id(row: int, col: int) -> str:
    return f"r{row}c{col}"


@dataclass(frozen=True)
class Layout:
    """A parsed layout: positions, their marks, and the adjacency graph."""

    players: int
    cells: dict = field(hash=False)      # tile id -> (row, col)
    start: dict = field(hash=False)      # tile id -> (seat, type, deployment?)
    homes: dict = field(hash=False)      # home index -> tile id
    source: str = ""
    hidden: tuple = ()                   # face-down positions (homes included unless solo)
    neighbours: dict = field(default_factory=dict, hash=False)

    def axial(self, tile: str) -> tuple[int, int]:
        row, col = self.cells[tile]
        return col - (row - (row & 1)) // 2, row

    def distance(self, a: str, b: str) -> int:
        (q1, r1), (q2, r2) = self.axial(a), self.axial(b)
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    def centre(self, tile: str) -> tuple[float, float]:
        """Screen centre (x east, y south) of a tile, one tile = width sqrt(3)."""
        q, r = self.axial(tile)
        return math.sqrt(3) * (q + r / 2), 1.5 * r

    def bearing(self, a: str, b: str) -> float:
        """Compass bearing from a to b in degrees, clockwise from north."""
        (x1, y1), (x2, y2) = self.centre(a), self.centre(b)
        return math.degrees(math.atan2(x2 - x1, -(y2 - y1))) % 360

    def area(self, seat: int) -> list[str]:
        return [t for t, (s, _, _) in self.start.items() if s == seat]

    def deployment(self, seat: int) -> list[str]:
        return [t for t, (s, _, d) in self.start.items() if s == seat and d]


@lru_cache(maxsize=None)
def layout(players: int) -> Layout:
    """The layout for ``players`` (1 = solo), parsed from the content pack."""
    cells, start, homes = {}, {}, {}
    source = ""
    rows = [ln for ln in content.layout_text(players).splitlines() if ln.strip() and not ln.startswith("#")]
    for row, line in enumerate(rows):
        body = line[2:] if row % 2 else line
        for col, tok in enumerate(body.split()):
            if tok == "--":
                continue
            tid = tile_id(row, col)
            cells[tid] = (row, col)
            if tok == "**":
                source = tid
            elif tok[0] == "M":
                homes[int(tok[1])] = tid
            elif tok[0] in _KINDS:
                start[tid] = (int(tok[1]), _KINDS[tok[0]], tok[0] == "D")
            elif tok != "..":
                raise ValueError(f"board_{players}p.txt: unknown token {tok!r}")
    solo = players == 1
    hidden = tuple(t for t in cells if t not in start and t != source and not (solo and t in homes.values()))
    lay = Layout(players, cells, start, dict(sorted(homes.items())), source, hidden)
    ax = {lay.axial(t): t for t in cells}
    for t in cells:
        q, r = lay.axial(t)
        lay.neighbours[t] = tuple(ax[(q + dq, r + dr)] for dq, dr in _DIRS if (q + dq, r + dr) in ax)
    return lay
