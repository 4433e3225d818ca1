"""Step 3, great halls (MK-HALL), and step 4, statue moves (MK-MOVE)."""
from __future__ import annotations

from domain.core import event, require

from . import board as geo
from . import content, terrain
from .economy import plan_cart, troll_tokens
from .state import key


def hall_commands(s, seat: int, layout=None) -> list[dict]:
    """Every legal hall placement (MK-HALL-1..3, MK-AMB-18/20)."""
    if s["turn"]["hall"]:
        return []
    layout = layout or terrain.lay(s)
    b = terrain.side(s)
    out = []
    for hall_id in s["halls"]:
        for p in geo.hall_placements(b, layout, seat, content.hall(hall_id), terrain.mirror(s)):
            out.append({"type": "build_hall", "hall": hall_id, "cells": geo.cells_json(p.cells),
                        "altar": geo.cell_json(p.altar)})
    return out


def build_hall(s, seat: int, cmd: dict, rng, emit) -> None:
    require(not s["turn"]["hall"], "one_hall", "MK-HALL-1", "at most one great hall per turn")
    require(cmd["hall"] in s["halls"], "hall_gone", "MK-HALL-2", "that great hall is not in the supply")
    cells, altar = cmd["cells"], cmd["altar"]
    p = terrain.hall_placement(s, seat, cmd["hall"], cells, altar)
    removed = [{"cell": s["pieces"][pid]["anchor"], "clan": s["pieces"][pid]["pedestal"]} for pid in p.pedestals]
    emit(event("GreatHallBuilt", seat=seat, hall=p.hall, cells=geo.cells_json(p.cells),
               altar=geo.cell_json(p.altar), covered=list(p.covered), pedestals_removed=removed))


def _cart_kinds(tokens: set[str], stored_carts: int, clan: str) -> list[str]:
    """Which carts could pay for a move of a ``clan`` statue (MK-MOVE-6), given the symbols
    of the seat's troll tokens and the carts in its storage."""
    kinds = []
    if f"cart:{clan}" in tokens:
        kinds.append("clan")
    if "cart" in tokens or stored_carts > 0:
        kinds.append("wild")
    return kinds


def move_commands(s, seat: int, layout=None) -> list[dict]:
    moves = terrain.statue_moves(s, seat, layout)
    if not moves:
        return []
    tokens = {sym for _p, _i, sym in troll_tokens(s, seat)}
    stored_carts = s["stores"][s["store_of"][seat]].get("cart", 0)
    kinds: dict[str, list[str]] = {}
    out = []
    for frm, to in moves:
        clan = s["statues"][key(frm)]
        if clan not in kinds:
            kinds[clan] = _cart_kinds(tokens, stored_carts, clan)
        for kind in kinds[clan]:
            out.append({"type": "move_statue", "from": frm, "to": to, "cart": kind})
    return out


def move_statue(s, seat: int, cmd: dict, rng, emit) -> None:
    frm, to = cmd["from"], cmd["to"]
    require(key(frm) in s["statues"], "no_statue", "MK-MOVE-2", "no statue on that space")
    require(terrain.is_statue_move(s, seat, frm, to), "bad_move", "MK-MOVE-3",
            "a statue in your network moves within its tunnel or into an adjacent one of yours, onto a free space")
    paid = plan_cart(s, seat, s["statues"][key(frm)], cmd.get("cart", "wild"), "MK-MOVE-6", cmd.get("sources"))
    emit(event("StatueMoved", seat=seat, **{"from": frm}, to=to, paid=paid))
