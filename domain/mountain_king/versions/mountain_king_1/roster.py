"""A player's troll pyramid and the cascade (MK-CASC).

Position ``(r, i)`` rests on ``(r-1, i)`` and ``(r-1, i+1)``; row 1 holds the
4 starters, so a full roster is 10 trolls (MK-CASC-1).
"""
from __future__ import annotations

from .catalog import top_row
from .economy import resource_of
from .state import State, key

FULL = 10
ROW_SIZE = {1: 4, 2: 3, 3: 2, 4: 1}


def placements(roster: dict) -> list[list[int]]:
    """Every empty (r, i), r >= 2, resting on two trolls (MK-CASC-2)."""
    out = []
    for r in (2, 3, 4):
        for i in range(1, ROW_SIZE[r] + 1):
            if key((r, i)) not in roster and key((r - 1, i)) in roster and key((r - 1, i + 1)) in roster:
                out.append([r, i])
    return out


def cascade(r: int, i: int) -> list[str]:
    """Positions activated by a troll added at (r, i), new troll first, then each
    lower row left to right (MK-CASC-3; the order matters only for MK-AMB-4)."""
    return [key((r - d, j)) for d in range(r) for j in range(i, i + d + 1)]


def activation(state: State, seat: int, positions: list[str]) -> list[list]:
    """Symbols filled by activating ``positions`` (MK-CASC-4): each empty symbol
    takes one token while the supply lasts (MK-AMB-4); gains stay on the troll (MK-CASC-5)."""
    roster = state["rosters"][seat]
    supply = dict(state["supply"])
    filled = []
    for pos in positions:
        troll = roster.get(pos)
        if troll is None:
            continue
        for idx, symbol in enumerate(top_row(troll["card"])):
            res = resource_of(symbol)
            if not troll["held"][idx] and supply[res] > 0:
                supply[res] -= 1
                filled.append([pos, idx])
    return filled


def fill(state: State, seat: int, filled: list[list]) -> None:
    """Evolve side of ``activation``."""
    roster = state["rosters"][seat]
    for pos, idx in filled:
        roster[pos]["held"][idx] = True
        state["supply"][resource_of(top_row(roster[pos]["card"])[idx])] -= 1
