"""Geometry on the authored boards: the rulebook examples MK-EX-6 / MK-EX-7 rebuilt on
the Winter side, random digging games (invariants of MK-NET, MK-DIG, MK-HALL) and speed."""
from __future__ import annotations

import time
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.mountain_king import board as geo
from domain.mountain_king import content

WINTER = content.board("winter")


def door(seat, cell):
    return {"kind": "door", "cells": [list(cell)], "seat": seat}


def tunnel(seat, cells, tile="X"):
    return {"kind": "tunnel", "cells": [list(c) for c in cells], "seat": seat, "tile": tile,
            "anchor": None, "pedestal": None}


def test_MK_EX_6_dig_uncovers_iron_hammer_and_a_statue_on_winter():
    """Size-4 tile over the buried 2 iron + hammer and a statue space, no rubble;
    the same tile elsewhere covering 3 rubble spaces would cost 3 hammers."""
    b = WINTER
    d_point = b.start_point("D").cell
    assert d_point == (3, 3)
    spot, statue = (3, 7), (3, 8)
    assert b.buried[spot] == ("iron", "iron", "hammer") and statue in b.statue_spaces
    pieces = {"door:0": door(0, d_point), "t1": tunnel(0, [(3, 4)], "D2")}
    i4 = content.tile("I4")
    d = geo.dig_check(b, pieces, 0, i4, [(3, 5), (3, 6), (3, 7), (3, 8)], (3, 6))
    assert d.size == 4 and d.rubble == ()
    assert d.buried == ((spot, ("iron", "iron", "hammer")),)
    assert d.statues == (statue,), "the statue on (3, 8) is unburied (MK-DIG-9)"
    pieces["t2"] = d.piece(0)
    assert statue in geo.layout(pieces).own_cells(0)
    pieces["t3"] = tunnel(0, [(3, 9), (3, 10)], "D2")
    rubble = geo.dig_check(b, pieces, 0, i4, [(3, 11), (3, 12), (3, 13), (3, 14)], (3, 12))
    assert rubble.hammers == 3 and rubble.buried == () and rubble.statues == ()


def _path_to_yellow(b: geo.Board, start):
    """Shortest chain of coverable spaces from ``start``'s neighbours to a space next to yellow."""
    prev = {start: None}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if cell != start and any(b.level(n) == 5 for n in b.neighbours(cell)):
            path = []
            while cell != start:
                path.append(cell)
                cell = prev[cell]
            return path
        for n in b.neighbours(cell):
            if n not in prev and b.coverable(n) and b.level(n) != 5:
                prev[n] = cell
                todo.append(n)
    raise AssertionError("no way in")


def test_MK_EX_7_size_4_tile_with_its_anchor_in_yellow():
    b = WINTER
    start = b.start_point("E").cell
    pieces = {"door:0": door(0, start), "t1": tunnel(0, _path_to_yellow(b, start))}
    anchored4 = [t for t in content.tiles() if t.size == 4 and t.anchor is not None]
    hits = [d for t in anchored4 for d in geo.dig_placements(b, pieces, 0, t) if d.anchor_level == 5]
    assert hits
    d = hits[0]
    assert b.level(d.anchor) == 5 and d.to_json()["anchor_level"] == 5


# --------------------------------------------------------------------------- random games

def _touching(a, b) -> bool:
    return any((r + dr, c + dc) in b for r, c in a for dr, dc in geo.SIDES.values())


def _check_invariants(b: geo.Board, pieces, teams):
    lay = geo.layout(pieces)
    covered = [geo.cell_of(c) for p in pieces.values() for c in p["cells"]]
    assert len(covered) == len(set(covered)), "MK-DIG-7: no space covered twice"
    assert all(b.coverable(c) for c in covered), "never the heart, a workshop space or off the board"
    for n in lay.networks:
        assert len(n.seats) <= 2
        if len(n.seats) == 2:
            s, t = sorted(n.seats)
            assert teams.get(s) == teams.get(t) is not None, "MK-TEAM-9: only teammates join"
    nets = [n for n in lay.networks if n.seats]
    for i, n in enumerate(nets):
        for m in nets[i + 1:]:
            assert not _touching(n.cells, m.cells), "MK-NET-5: networks never touch"


@settings(max_examples=10, deadline=None)
@given(side=st.sampled_from(["winter", "autumn"]), team=st.booleans(),
       picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=20, max_size=50))
def test_MK_NET_5_random_digging_keeps_networks_apart(side, team, picks):
    b = content.board(side)
    labels = {"winter": 5 if not team else 4, "autumn": 3}[side]
    points = [p.id for p in b.start_points_for(labels)]
    if team and side == "winter":
        points = [x for pair in b.team_pairs for x in pair]
        teams = {0: 0, 1: 0, 2: 1, 3: 1}
    else:
        teams = {}
    pieces: dict = {}
    for seat, point in enumerate(points):
        pieces[f"door:{seat}"] = {"kind": "door", "cells": geo.cells_json(geo.door_check(b, pieces, point, labels)),
                                  "seat": seat}
    n = len(points)
    stock = {t.id: t.copies for t in content.tiles()}
    for turn, pick in enumerate(picks):
        seat = turn % n
        friends = [s for s in teams if s != seat and teams[s] == teams.get(seat)]
        lay = geo.layout(pieces)
        stacks = [t for t in content.tiles() if stock[t.id]]
        # the picked stack first, the others only if it has no room: keeps the test quick
        for t in stacks[pick % len(stacks):] + stacks[:pick % len(stacks)]:
            options = list(geo.dig_placements(b, lay, seat, t, friends))
            if options:
                break
        keys = [(d.cells, d.anchor) for d in options]
        assert len(keys) == len(set(keys))
        if not options:
            continue
        d = options[pick % len(options)]
        assert geo.dig_check(b, pieces, seat, content.tile(d.tile), d.cells, d.anchor, friends) == d
        stock[d.tile] -= 1
        pieces[f"t{turn}"] = d.piece(seat)
        if pick % 7 == 0:
            halls = [p for h in content.halls() if f"hall:{h.id}" not in pieces  # MK-HALL-2: once each
                     for p in geo.hall_placements(b, pieces, seat, h)]
            if halls:
                p = halls[pick % len(halls)]
                before = geo.layout(pieces).network(seat).cells
                pieces = p.apply(pieces, seat)
                after = geo.layout(pieces).network(seat)
                assert after.cells == before, "MK-HALL-8: a hall keeps the network whole"
                assert f"hall:{p.hall}" in after.pieces
        _check_invariants(b, pieces, teams)


def test_dig_placements_speed_midgame():
    """A bot asks for every placement of every stack each turn: keep it cheap."""
    b = WINTER
    pieces: dict = {}
    for seat, point in enumerate(["E", "F", "B", "C", "G"]):
        pieces[f"door:{seat}"] = {"kind": "door", "cells": geo.cells_json(geo.door_check(b, pieces, point, 5)),
                                  "seat": seat}
    tiles = content.tiles()
    for turn in range(30):
        seat = turn % 5
        options = list(geo.dig_placements(b, pieces, seat, tiles[turn % len(tiles)]))
        if options:
            pieces[f"t{turn}"] = options[(turn * 7919) % len(options)].piece(seat)
    start = time.perf_counter()
    total = 0
    for seat in range(5):
        lay = geo.layout(pieces)
        total += sum(1 for t in tiles for _ in geo.dig_placements(b, lay, seat, t))
    per_seat = (time.perf_counter() - start) / 5
    assert total > 0
    assert per_seat < 0.5, f"{per_seat * 1000:.0f} ms for all placements of one seat"  # ~40 ms when idle
