"""The solo automata's placement rules (DW-SOLO, DW-ELD, DW-AND, DW-FAD), as pure
choices over a state. ``decide_actor`` plays them for the solo automaton; the bots
of the same names use them for seats of 2-5 player games.
"""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.actions import payable_times
from domain.dwarf.versions.dwarf_5.grid import column_mates, place, places, row_mates, split
from domain.dwarf.versions.dwarf_5.state import EXTRA_WORKERS, available, free_places, top_effect

LEVELS = ("eldhusfifl", "andvettr", "andvettr-fadir")
SECOND_WORKER_TYPE = {"receive_help": "help", "defend": "defend"}
"""DW-AND-2: the action type Andvettr's second worker looks for first, per reading (DW-AMB-28)."""


def usable(s: dict, player: int, where: str) -> bool:
    """DW-AMB-29: the top card's action can be carried out once in full with current
    holdings; no-cost actions always; Receive Help only with both extras in the supply."""
    effect = top_effect(s, where)
    if effect.type == "help":
        return s["extras"][player] == 0
    return payable_times(s, player, effect, 1) == 1


def preferred(s: dict, ref: dict | None) -> str | None:
    """DW-ELD-2..4, DW-AMB-26: the primary icon of the reference card's grid, else its
    fallback, else the first available location in reading order."""
    if ref is not None:
        card = content.card(ref["card"])
        for loc in (card.primary, card.fallback):
            if available(s, place(ref["area"], loc)):
                return place(ref["area"], loc)
    free = free_places(s)
    return free[0] if free else None


def _rescan(s: dict, player: int, level: str, chosen: str) -> str | None:
    """DW-AND-4 / DW-AMB-29: an unusable choice is replaced by the first available,
    usable location after it in reading order (no wrap), else kept; faðir instead
    scans the whole Mine and keeps the worker back if nothing is usable (DW-FAD-2/3,
    DW-AMB-30)."""
    if level == "eldhusfifl" or usable(s, player, chosen):
        return chosen
    order = places(len(s["areas"]))
    for where in order[order.index(chosen) + 1:]:
        if available(s, where) and usable(s, player, where):
            return where
    if level == "andvettr":
        return chosen
    return next((w for w in order if available(s, w) and usable(s, player, w)), None)


def choose(s: dict, player: int, level: str, second: bool, ref: dict | None) -> str | None:
    """Where the automaton's next normal worker goes; None = it stays off the board.
    ``ref`` is the card whose grid is read: the card most recently mined for the
    first worker (DW-ELD-2), the human's card (or Special Action card) for the second
    (DW-ELD-3). Andvettr's second worker takes the first free Receive Help location first
    (DW-AND-2, DW-AMB-28; the option names the other readings)."""
    chosen = None
    if second and level != "eldhusfifl":
        rule = s["options"]["andvettr_second_worker_rule"]
        if rule in SECOND_WORKER_TYPE:
            chosen = next((w for w in places(len(s["areas"]))
                           if available(s, w) and top_effect(s, w).type == SECOND_WORKER_TYPE[rule]), None)
        else:
            chosen = next(iter(free_places(s)), None)
    if chosen is None:
        chosen = preferred(s, ref)
    return None if chosen is None else _rescan(s, player, level, chosen)


def extras(s: dict, player: int, level: str, help_place: str) -> list[str]:
    """DW-ELD-5 with DW-AMB-27: both extras in the row of the Receive Help location,
    else both in its column, else one of each, else as far as possible in row and
    column, then anywhere in reading order. Faðir counts only usable locations as
    available (DW-AMB-29)."""
    area, loc = split(help_place)

    def ok(where: str) -> bool:
        return available(s, where) and (level != "andvettr-fadir" or usable(s, player, where))

    row = [place(area, x) for x in row_mates(loc) if ok(place(area, x))]
    col = [place(area, x) for x in column_mates(loc) if ok(place(area, x))]
    if len(row) == 2:
        return row
    if len(col) == 2:
        return col
    if len(row) == 1 and len(col) == 1:
        return row + col
    out = sorted(row + col, key=places(len(s["areas"])).index)
    out += [w for w in places(len(s["areas"])) if ok(w) and w not in out]
    return out[:EXTRA_WORKERS]
