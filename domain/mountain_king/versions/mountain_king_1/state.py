"""The game state: one JSON-ready dict, so snapshots and deep copies are trivial.

Seats are numbered clockwise and seat 0 is the start player (MK-PSETUP-1).
Storage, honor, pedestals and pedestal score tokens belong to a *store*: the
seat itself, or its team in the 2v2 variant (MK-TEAM-2, -4, -7, -11, -12), so every
rule that gains or spends "into your storage" goes through ``store_of``.
Roster positions are keyed ``"r,i"`` (MK-CASC-1), horde slots ``"B1".."T3"``
(MK-SETUP-3.1), board spaces ``"r,c"``.
"""
from __future__ import annotations

from typing import Any

STEPS = ("spells", "action", "followup", "hall", "statues")
"""Turn steps in order (MK-TURN-1); ``followup`` is the tail of a dig (MK-DIG-12)."""

State = dict[str, Any]


def key(pos) -> str:
    """``[r, c]`` -> ``"r,c"``: JSON objects need string keys."""
    return f"{int(pos[0])},{int(pos[1])}"


def unkey(k: str) -> tuple[int, int]:
    a, b = k.split(",")
    return int(a), int(b)


def store_of(state: State, seat: int) -> int:
    """Index of the storage/score a seat uses (its team's in the 2v2 variant)."""
    return state["store_of"][seat]


def members(state: State, store: int) -> list[int]:
    return [s for s in range(state["n"]) if state["store_of"][s] == store]


def teammates(state: State, seat: int) -> set[int]:
    """Seats whose networks are not opponents' (MK-TEAM-10): self and teammate."""
    return set(members(state, store_of(state, seat)))
