"""Mountain King's position verbs (``domain.kit.position``): the edits its tests make most.

    mountain-king 4 seed=seed
    opening                      # doors and draft, each seat taking its first legal choice
    empty_trolls 0               # seat 0's troll tokens back to the supply
    storage 0 iron=2 coin=1      # exactly this in seat 0's storage (the rest back to the supply)
    door 0 9,2                   # seat 0's door on a space
    tunnel t1 0 8,1 8,2          # a tunnel piece of seat 0 on spaces
    workshop 9,2 stone_mill
    statue 9,3 fire
    step halls                   # seat 0's turn past its step 2, now in this step
"""
from __future__ import annotations

from domain.core import Drbg
from domain.kit import Batch

from . import commands, setup
from .catalog import top_row
from .evolve import evolve


def _cell(text: str) -> list[int]:
    r, c = text.split(",")
    return [int(r), int(c)]


def opening(s: dict) -> None:
    """Doors and the starter draft, each time the lowest seat to act taking its first legal command."""
    for _ in range(200):
        if s["phase"] not in ("doors", "draft"):
            return
        seat = min(p for p in range(s["n"]) if setup.drafting(s, p)) if s["phase"] == "draft" else s["current"]
        b = Batch(s, evolve)
        commands.dispatch(b.state, seat, commands.legal(s, seat)[0], Drbg(b"test", "t"), b.add)
        s.clear()
        s.update(b.state)
    raise ValueError("the opening did not end")


def empty_trolls(s: dict, seat: str) -> None:
    for troll in s["rosters"][int(seat)].values():
        for i, sym in enumerate(top_row(troll["card"])):
            if troll["held"][i]:
                troll["held"][i] = False
                s["supply"][sym.split(":")[0]] += 1


def storage(s: dict, seat: str, *counts: str) -> None:
    """Exactly ``res=n ...`` in the seat's storage, through the supply."""
    store = s["stores"][s["store_of"][int(seat)]]
    for res in list(store):
        s["supply"][res] += store[res]
        store[res] = 0
    for res, n in (c.split("=") for c in counts):
        s["supply"][res] -= int(n)
        store[res] = int(n)


def door(s: dict, seat: str, cell: str) -> None:
    s["pieces"][f"door:{seat}"]["cells"] = [_cell(cell)]


def tunnel(s: dict, piece: str, seat: str, *cells: str) -> None:
    s["pieces"][piece] = {"kind": "tunnel", "cells": [_cell(c) for c in cells], "seat": int(seat), "tile": "X",
                          "anchor": None, "pedestal": None}


def workshop(s: dict, cell: str, kind: str) -> None:
    s["workshops"][cell] = kind


def statue(s: dict, cell: str, clan: str) -> None:
    s["statues"][cell] = clan


def step(s: dict, name: str) -> None:
    s["turn"].update(step=name, acted=True)


VERBS = {"opening": opening, "empty_trolls": empty_trolls, "storage": storage, "door": door, "tunnel": tunnel,
         "workshop": workshop, "statue": statue, "step": step}

POSITIONS = {
    "first-turn-bare": """
        mountain-king 4 seed=seed
        opening
        empty_trolls 0
        storage 0 stone=4 coin=2 hammer=1
    """,
}
