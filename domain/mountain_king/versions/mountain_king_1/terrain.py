"""The board's dynamic side, kept in the state, over board.py's geometry.

State keys: ``pieces`` (board.py's occupancy model: doors, tunnels, remnants,
halls; ownership always recomputed from connectivity, MK-NET-3/4),
``statues`` (``"r,c" -> clan``; buried = not in any network, MK-DIG-9),
``workshops`` (``"r,c" -> kind`` of established workshops).
"""
from __future__ import annotations

from . import board as geo
from . import content
from .state import State, key, teammates, unkey


def side(s: State) -> geo.Board:
    return content.board(s["board"])


def lay(s: State) -> geo.Layout:
    return geo.layout(s["pieces"])


def friends(s: State, seat: int) -> set[int]:
    """Teammates: not opponents (MK-TEAM-10)."""
    return teammates(s, seat) - {seat}


def built(s: State) -> list[tuple[int, int]]:
    return [unkey(k) for k in s["workshops"]]


# --- evolve side -------------------------------------------------------------

def setup(s: State) -> None:
    s["pieces"] = {}
    s["statues"] = {}
    s["workshops"] = {}
    s["tunnels_dug"] = 0


def place_statues(s: State, statues: dict) -> None:
    s["statues"].update(statues)


def place_door(s: State, seat: int, point: str) -> None:
    cells = geo.door_cells(side(s), point, content.door())
    s["pieces"][f"door:{seat}"] = {"kind": "door", "cells": geo.cells_json(cells), "seat": seat}


def establish(s: State, space: str, kind: str) -> None:
    s["workshops"][space] = kind


def dig(s: State, seat: int, d: dict) -> None:
    s["tunnels_dug"] += 1
    s["pieces"][f"t{s['tunnels_dug']}"] = {"kind": "tunnel", "cells": d["cells"], "seat": seat, "tile": d["tile"],
                                           "anchor": d["anchor"], "pedestal": None}


def place_pedestal(s: State, cell, clan: str) -> None:
    for piece in s["pieces"].values():
        if piece.get("anchor") == list(cell):
            piece["pedestal"] = clan
            return


def build_hall(s: State, seat: int, d: dict) -> None:
    placement = hall_placement(s, seat, d["hall"], d["cells"], d["altar"])
    s["pieces"] = placement.apply(s["pieces"], seat)


def move_statue(s: State, frm, to) -> None:
    s["statues"][key(to)] = s["statues"].pop(key(frm))


# --- queries -----------------------------------------------------------------

def hall_placement(s: State, seat: int, hall_id: str, cells, altar) -> geo.HallPlacement:
    return geo.hall_check(side(s), s["pieces"], seat, content.hall(hall_id), cells, altar, mirror(s))


def mirror(s: State) -> bool:
    """Whether halls may be flipped as well as rotated (MK-AMB-18, option ``hall_mirroring``)."""
    return bool(s["options"].get("hall_mirroring"))


def door_points(s: State) -> list[str]:
    return geo.door_points(side(s), s["pieces"], s["n"], content.door())


def tunnel_count(s: State, seat: int) -> int:
    """Tunnel pieces (tiles and remnants) in the seat's network (for Mine Song)."""
    layout = lay(s)
    return sum(1 for pid in geo.tunnels_in(layout, seat) if layout.kind(pid) == "tunnel")


def statue_moves(s: State, seat: int, layout: geo.Layout | None = None) -> list[tuple[list, list]]:
    """Every one-cart move of an unburied statue in the seat's network (MK-MOVE-2..7),
    listed once per occupancy and statue spaces."""
    return [(list(cell), list(dest)) for cell, dest in _moves(s, seat, layout or lay(s))]


def is_statue_move(s: State, seat: int, frm: list, to: list) -> bool:
    """Whether ``frm`` -> ``to`` is one of :func:`statue_moves` (checked without listing them)."""
    return (tuple(frm), tuple(to)) in _moves(s, seat, lay(s))


def _moves(s: State, seat: int, layout: geo.Layout) -> tuple:
    spaces = tuple(sorted(s["statues"]))
    board = side(s)
    return layout.derived(("statue_moves", *geo.board_key(board), seat, spaces),
                          lambda: _statue_moves(board, layout, seat, spaces))


def _statue_moves(b: geo.Board, layout: geo.Layout, seat: int, spaces: tuple[str, ...]) -> tuple:
    own = layout.own_cells(seat)
    taken = [unkey(k) for k in spaces]
    out = []
    for cell in taken:
        if cell in own:
            for dest in geo.statue_moves(b, layout, seat, cell, taken):
                out.append((cell, dest))
    return tuple(out)


def workshop_at(s: State, space: str) -> str | None:
    return s["workshops"].get(space)


def accessible_workshops(s: State, seat: int, layout: geo.Layout | None = None) -> list[tuple[str, int]]:
    """``(space, open entrances)`` of the workshops the seat's network opens (MK-WS-2..4, MK-AMB-32)."""
    layout = layout or lay(s)
    b = side(s)
    out = []
    for space in sorted(s["workshops"]):
        ents = geo.open_entrances(b, layout, unkey(space))
        if any(seat in e.seats for e in ents):  # a joined teammate's network is yours (MK-TEAM-9)
            out.append((space, len(ents)))
    return out
