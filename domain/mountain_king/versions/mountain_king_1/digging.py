"""Digging a tunnel and its follow-ups (MK-DIG, MK-PED, MK-EST), over board.py's geometry."""
from __future__ import annotations

from domain.core import event, require

from . import board as geo
from . import content, terrain
from .content import MINERALS
from .economy import available, plan_payment, spendable
from .state import key, store_of

HONOR = {2: (0, 0, 0), 3: (3, 4, 5), 4: (4, 6, 8), 5: (5, 8, 11)}
"""MK-DIG-3 (TN-1, MK-AMB-1): size -> honor for stone, iron, heartstone."""


def honor(size: int, mineral: str) -> int:
    return HONOR[size][MINERALS.index(mineral)]


def _rubble_free(s) -> bool:
    """Hammer Rite: this turn's digs pay no hammers for their rubble."""
    return "no_rubble_cost" in s["turn"]["flags"]


def _hammers(s, d: geo.Dig) -> int:
    return 0 if _rubble_free(s) else d.hammers


def _supplied(s, max_size: int):
    """The tiles left in supply (MK-DIG-1), those larger than ``max_size`` skipped."""
    return (tile for tile in content.tiles() if s["tiles"].get(tile.id, 0) > 0 and tile.size <= max_size)


def placements(s, seat: int, layout=None, max_size: int = 5):
    """``(tile, Dig)`` for every legal placement of every tile left in supply (MK-DIG-1, -4..-7),
    tiles larger than ``max_size`` skipped."""
    layout = layout or terrain.lay(s)
    b = terrain.side(s)
    mates = terrain.friends(s, seat)
    built = terrain.built(s)
    for tile in _supplied(s, max_size):
        for d in geo.dig_placements(b, layout, seat, tile, mates, built):
            yield tile, d


def dig_commands(s, seat: int, layout=None) -> list[dict]:
    """Every legal dig: placement x a mineral type the seat can pay in full (MK-DIG-2, -8).

    The same placements as :func:`placements`, in the same order; their cells and anchor
    in JSON form are made once per occupancy and shared by the commands that name them
    (a command is read, never changed)."""
    have = spendable(s, seat)
    sizes_ok = {m: have.get(m, 0) for m in MINERALS}
    best = max(sizes_ok.values())
    if best < 2:
        return []
    layout = layout or terrain.lay(s)
    hammers = have.get("hammer", 0)
    free_rubble = _rubble_free(s)
    mates = frozenset(terrain.friends(s, seat))
    built = frozenset(terrain.built(s))
    out = []
    for tile in _supplied(s, best):
        minerals = [m for m in MINERALS if sizes_ok[m] >= tile.size]
        for rubble, cells, anchor in _dig_json(s, seat, layout, tile, mates, built):
            if free_rubble or rubble <= hammers:
                out.extend({"type": "dig", "tile": tile.id, "cells": cells, "anchor": anchor, "mineral": m}
                           for m in minerals)
    return out


def _dig_json(s, seat: int, layout, tile, mates: frozenset,
              built: frozenset) -> tuple[tuple[int, list, list | None], ...]:
    """``(hammers, cells, anchor)`` of each placement of ``tile``, cells and anchor as JSON."""
    board = terrain.side(s)
    return layout.derived(("dig_json", *geo.board_key(board), seat, tile, mates, built), lambda: tuple(
        (d.hammers, geo.cells_json(d.cells), geo.cell_json(d.anchor))
        for d in geo.dig_placements(board, layout, seat, tile, mates, built)))


def can_dig(s, seat: int) -> bool:
    """MK-AMB-2: some complete legal dig is affordable now."""
    have = spendable(s, seat)
    best = max(have.get(m, 0) for m in MINERALS)
    if best < 2:
        return False
    return any(have.get("hammer", 0) >= _hammers(s, d) for _tile, d in placements(s, seat, None, best))


def dig(s, seat: int, cmd: dict, rng, emit) -> None:
    """MK-DIG-13: check, pay, score, place, unbury and unearth."""
    tile_id = cmd["tile"]
    # The supply names every stack (empty ones stay at 0), so it is the check for a known tile too.
    require(tile_id in s["tiles"], "unknown_tile", "MK-DIG-1", "no such tunnel tile")
    require(s["tiles"][tile_id] > 0, "tile_gone", "MK-DIG-1", "that tile's stack is empty")
    tile = content.tile(tile_id)
    mineral, cells, anchor = cmd["mineral"], cmd["cells"], cmd["anchor"]
    d = geo.dig_check(terrain.side(s), s["pieces"], seat, tile, cells, anchor,
                      terrain.friends(s, seat), terrain.built(s))
    cost = {mineral: d.size}
    if _hammers(s, d):
        cost["hammer"] = _hammers(s, d)
    # paid in full from what is held now: resources under the new tile come after (MK-AMB-13)
    paid = plan_payment(s, seat, cost, "MK-DIG-8" if "hammer" in cost else "MK-DIG-2", cmd.get("sources"))
    unburied = [geo.cell_json(c) for c in d.statues if key(c) in s["statues"]]
    emit(event("TunnelDug", seat=seat, tile=tile.id, cells=geo.cells_json(d.cells), anchor=geo.cell_json(d.anchor),
               level=d.anchor_level, mineral=mineral, paid=paid, honor=honor(d.size, mineral),
               rubble=geo.cells_json(d.rubble), unburied=unburied, joins=list(d.joins),
               workshops=geo.cells_json(d.workshops)))
    found: dict = {}
    for _cell, resources in d.buried:
        for r in resources:
            found[r] = found.get(r, 0) + 1
    if found:
        emit(event("ResourcesGained", seat=seat, resources=available(s, found), reason="buried"))  # MK-DIG-10


def pedestal_options(s, seat: int) -> list[dict]:
    """At most one pedestal per dig, into its one anchor (MK-AMB-11, MK-AMB-12)."""
    dug = s["turn"]["dug"]
    if dug is None or dug["anchor"] is None or dug["pedestal"]:
        return []
    held = s["peds"][store_of(s, seat)]
    return [{"type": "place_pedestal", "clan": c} for c in sorted(held)
            if held[c] > 0 and f"{dug['level']}:{c}" in s["ped_track"]]


def place_pedestal(s, seat: int, cmd: dict, rng, emit) -> None:
    """MK-PED-3..6: one pedestal into the new tile's anchor, taking the track token."""
    dug = s["turn"]["dug"]
    require(dug["anchor"] is not None, "no_anchor", "MK-PED-2", "the tile you dug has no anchor")
    require(not dug["pedestal"], "anchor_full", "MK-PED-3", "an anchor holds one pedestal")
    clan = cmd["clan"]
    require(s["peds"][store_of(s, seat)].get(clan, 0) > 0, "no_pedestal", "MK-PED-3",
            "you hold no pedestal of that clan")
    require(f"{dug['level']}:{clan}" in s["ped_track"], "pedestal_pair_used", "MK-PED-6",
            "a pedestal of that clan is already placed in this mountain level")
    emit(event("PedestalPlaced", seat=seat, clan=clan, cell=dug["anchor"], level=dug["level"],
               token=s["ped_track"][f"{dug['level']}:{clan}"]))


def workshop_options(s, seat: int) -> list[dict]:
    """Optional, any supply tile on each empty space next to the new tile, duplicates
    allowed (MK-EST-2, MK-AMB-17)."""
    dug = s["turn"]["dug"]
    if dug is None:
        return []
    return [{"type": "establish_workshop", "space": sp, "kind": k}
            for sp in dug["workshops"] if key(sp) not in s["workshops"] for k in sorted(set(s["ws_supply"]))]


def establish_workshop(s, seat: int, cmd: dict, rng, emit) -> None:
    """MK-EST-1..4: any supply workshop onto an empty space next to the new tile."""
    dug = s["turn"]["dug"]
    space = cmd.get("space")
    require(space in dug["workshops"] and key(space) not in s["workshops"], "bad_space", "MK-EST-1",
            "establish only on an empty workshop space next to the tunnel you just dug")
    require(cmd.get("kind") in s["ws_supply"], "workshop_gone", "MK-EST-4", "that workshop is not in the supply")
    emit(event("WorkshopEstablished", seat=seat, space=key(space), kind=cmd["kind"]))

