"""The horde pyramid: slots, bribes, refills, retirement (MK-SETUP-3, MK-REC, MK-HORDE).

Slot ``Mj`` rests on ``Bj``/``B(j+1)``, ``Tk`` on ``Mk``/``M(k+1)`` and
``Bk``..``B(k+2)`` (MK-SETUP-3.1). A slot's *row* decides its bribes, its
pedestal and its choose-pedestal token; a card's *printed* level decides the
deck it retires to and the tie-break (MK-AMB-6). Pedestals sit on middle-row
slots, so a retiring troll's pedestal stays for its replacement (MK-AMB-7).
"""
from __future__ import annotations

from .state import State

ROWS = {"B": 1, "M": 2, "T": 3}
SLOTS = [f"B{j}" for j in range(1, 6)] + [f"M{j}" for j in range(1, 5)] + [f"T{k}" for k in range(1, 4)]
"""In refill order: bottom row left to right, then middle, then top (MK-AMB-8)."""
FALLBACK = {1: ("1", "2", "3"), 2: ("2", "3", "1"), 3: ("3", "2", "1")}
"""Deck order when a slot's own deck is empty (MK-HORDE-2, MK-AMB-5)."""
RETIRE_AT = 4  # MK-HORDE-4


def row(slot: str) -> int:
    return ROWS[slot[0]]


def below(slot: str) -> list[str]:
    """The slots a recruit from ``slot`` must bribe (MK-REC-1..3)."""
    n = int(slot[1:])
    if slot[0] == "M":
        return [f"B{n}", f"B{n + 1}"]
    if slot[0] == "T":
        return [f"M{n}", f"M{n + 1}", f"B{n}", f"B{n + 1}", f"B{n + 2}"]
    return []


def bribe_slots(state: State, slot: str) -> list[str]:
    """Occupied slots below ``slot``: an empty slot needs no bribe (MK-AMB-5)."""
    return [s for s in below(slot) if state["horde"]["slots"][s]["card"] is not None]


def next_card(state: State, slot: str) -> tuple[str | None, str | None]:
    """``(deck level, card)`` that would refill ``slot`` now, or ``(None, None)``."""
    decks = state["horde"]["decks"]
    for level in FALLBACK[row(slot)]:
        if decks[level]:
            return level, decks[level][0]
    return None, None


def bribe_count(slot_state: dict) -> int:
    return sum(slot_state["bribes"].values())


def retiring(state: State) -> list[str]:
    """Slots whose troll holds 4 or more bribes of any type (MK-HORDE-4, MK-AMB-8)."""
    return [s for s in SLOTS if state["horde"]["slots"][s]["card"] is not None
            and bribe_count(state["horde"]["slots"][s]) >= RETIRE_AT]


def draw_pedestal(bag: dict, rng) -> str | None:
    """One pedestal drawn blind from the bag (MK-HORDE-3), None once it is empty."""
    total = sum(bag.values())
    if total == 0:
        return None
    pick = rng.randbelow(total)
    for clan in sorted(bag):
        if pick < bag[clan]:
            return clan
        pick -= bag[clan]
    raise AssertionError("unreachable")
