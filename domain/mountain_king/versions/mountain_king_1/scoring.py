"""Final scoring (section 23) and the tie-break (MK-TIE-1).

Six categories per store (a seat, or a team in the 2v2 variant):
``tunnels, coronation, pedestals, leftover_sets, great_halls, statues``.
"""
from __future__ import annotations

from . import content, terrain
from .board import board_key
from .content import RESOURCES
from .economy import top_resources
from .leftovers import best_sets
from .state import key, members, store_of

CATEGORIES = ("tunnels", "coronation", "pedestals", "leftover_sets", "great_halls", "statues")
CORONATION = {"5": 5, "3": 3}  # MK-SCORE-2


def leftovers(s, store: int) -> dict[str, int]:
    """Storage plus every troll token of the store's members; clan carts are wild now (MK-SCORE-4.1)."""
    out = {r: s["stores"][store].get(r, 0) for r in RESOURCES}
    for seat in members(s, store):
        for troll in s["rosters"][seat].values():
            for held, r in zip(troll["held"], top_resources(troll["card"])):
                if held:
                    out[r] += 1
    return out


def statue_value(s, cell, piece: dict) -> int:
    """MK-SCORE-7: the level value, doubled on a same-clan pedestal (MK-PED-8)."""
    clan = s["statues"][key(cell)]
    value = 2 * terrain.side(s).level(cell)
    if piece.get("pedestal") == clan and piece.get("anchor") == list(cell):
        value *= 2
    return value


def board_points(s) -> tuple[dict[int, int], dict[int, int]]:
    """Per store: great halls (MK-SCORE-5) and statues, one per tunnel (MK-SCORE-8, MK-AMB-21).

    Computed once per occupancy, statues, board side, stores and great hall cards (a test
    position may give its own values): judging positions asks again and again. Each call
    returns its own dicts."""
    layout = terrain.lay(s)
    on_board = layout.derived(("hall_ids",), lambda: tuple(p["hall"] for p in s["pieces"].values() if p["kind"] == "hall"))
    key = ("board_points", *board_key(terrain.side(s)), tuple(content.hall(h) for h in on_board), tuple(s["statues"].items()),
           tuple(s["store_of"]), len(s["stores"]))
    halls, statues = layout.derived(key, lambda: _board_points(s, layout))
    return dict(halls), dict(statues)


def _board_points(s, layout) -> tuple[dict[int, int], dict[int, int]]:
    halls = {st: 0 for st in range(len(s["stores"]))}
    statues = dict(halls)
    by_piece: dict[str, list] = {}
    for k in s["statues"]:
        cell = tuple(int(x) for x in k.split(","))
        pid = layout.piece_at.get(cell)
        if pid is not None:
            by_piece.setdefault(pid, []).append(list(cell))
    for pid, piece in sorted(s["pieces"].items()):
        owners = layout.network_of[pid].seats
        if not owners:
            continue  # isolated: scores for no one (MK-SCORE-9)
        store = store_of(s, min(owners))  # joined teammates score once (MK-TEAM-13)
        here = by_piece.get(pid, [])
        if piece["kind"] == "hall":
            h = content.hall(piece["hall"])
            halls[store] += h.high if piece["altar"] in here else h.low  # MK-HALL-10, MK-SCORE-6, MK-HALL-11
        elif here:
            statues[store] += max(statue_value(s, c, piece) for c in here)
    return halls, statues


def breakdowns(s) -> dict[int, dict[str, int]]:
    """Per store, the six categories; the total is their sum (MK-SCORE-1)."""
    halls, statues = board_points(s)
    out = {}
    for store in range(len(s["stores"])):
        mine = set(members(s, store))
        out[store] = {
            "tunnels": s["honor"][store],
            "coronation": sum(CORONATION[t] for t, seat in s["coronation"]["taken"].items() if seat in mine),
            "pedestals": sum(s["ped_tokens"][store]),  # MK-SCORE-3
            "leftover_sets": best_sets(leftovers(s, store)),
            "great_halls": halls[store],
            "statues": statues[store],
        }
    return out


def final_scores(s) -> dict[str, dict[str, int]]:
    """The GameEnded payload: seat -> breakdown (teammates share their team's)."""
    per_store = breakdowns(s)
    return {str(seat): per_store[store_of(s, seat)] for seat in range(s["n"])}


def tiebreak(s) -> dict[int, int]:
    """MK-TIE-1 / MK-AMB-26/27c: lower recruited troll levels win, so negate."""
    return {seat: -sum(s["levels"][m] for m in members(s, store_of(s, seat))) for seat in range(s["n"])}

