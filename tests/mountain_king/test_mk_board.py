"""Board geometry (board.py): adjacency, shapes, digging, networks, halls, statues, workshops.

Most cases use a small hand-drawn board in the content file format, so each
situation can be read off the map below.
"""
from __future__ import annotations

import pytest

from domain.core import Illegal
from domain.mountain_king import board as geo
from domain.mountain_king import content

#           col 0  1  2  3  4  5  6  7  8  9
MINI = """\
1. 1. 1. 1. 1. 1. 1. 1. 1. 1.
1. 2. 2o 2. 2W 2. 2a 2. 2. 1.
1. 2. 3. 3S 3. 3. 3. 3. 2. 1.
1A 2. 3. 4. ## ## 4. 3. 2. 1B
1C 2. 3. 3. 3. 3. 3. 3. 2. 1.
1. 2. 2. 2. 2. 2. 2. 2. 2W 1.
1. 1. 1. 1. 1. 1. 1.    1. 1D
---
buried:
  a: [iron, iron, hammer]
start_points:
  A: [2]
  B: [2]
  C: [2]
  D: [3]
"""


@pytest.fixture(scope="module")
def mini() -> geo.Board:
    return content._parse_board("mini", MINI)


def door(seat, cell):
    return {"kind": "door", "cells": [list(cell)], "seat": seat}


def tunnel(seat, cells, anchor=None, pedestal=None, tile="X"):
    return {"kind": "tunnel", "cells": [list(c) for c in cells], "seat": seat, "tile": tile,
            "anchor": None if anchor is None else list(anchor), "pedestal": pedestal}


def T(tile_id):
    return content.tile(tile_id)


def illegal(code, rule, fn, *args, **kw):
    with pytest.raises(Illegal) as e:
        fn(*args, **kw)
    assert (e.value.code, e.value.rule) == (code, rule), e.value
    return e.value


# --------------------------------------------------------------------------- board basics

def test_parse_mini_board(mini):
    assert (mini.rows, mini.cols) == (7, 10)
    assert mini.heart == {(3, 4), (3, 5)}
    assert mini.level((3, 3)) == 4 and mini.level((0, 0)) == 1 and mini.level((3, 4)) is None
    assert mini.rubble == {(1, 2)} and mini.statue_spaces == ((2, 3),)
    assert mini.workshop_spaces == ((1, 4), (5, 8))
    assert mini.buried == {(1, 6): ("iron", "iron", "hammer")}
    assert [p.id for p in mini.start_points_for(2)] == ["A", "B", "C"]


def test_MK_ADJ_1_only_shared_sides(mini):
    assert sorted(mini.neighbours((2, 2))) == [(1, 2), (2, 1), (2, 3), (3, 2)]
    assert (1, 1) not in mini.neighbours((2, 2))
    assert sorted(mini.neighbours((0, 0))) == [(0, 1), (1, 0)]


def test_MK_BOARD_2_spaces_beyond_the_edge_do_not_exist(mini):
    assert not mini.in_bounds((-1, 0)) and not mini.in_bounds((6, 7)) and not mini.in_bounds((0, 10))
    assert (6, 7) not in mini.neighbours((6, 6))
    pieces = {"door:0": door(0, (6, 6))}
    illegal("off_board", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(6, 7), (6, 8)], (6, 7))


def test_MK_BOARD_3_heart_is_on_the_board_but_never_coverable(mini):
    assert mini.in_bounds((3, 4)) and not mini.coverable((3, 4))
    pieces = {"door:0": door(0, (2, 4))}
    illegal("covers_heart", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(3, 4), (3, 3)], (3, 4))


# --------------------------------------------------------------------------- shapes

@pytest.mark.parametrize("tile_id,count", [("D2", 4), ("I3", 2), ("L3", 4), ("O4", 4), ("L4", 8),
                                           ("S4", 8), ("I5", 2), ("X5", 1), ("F5", 8), ("U5", 4)])
def test_MK_DIG_6_distinct_orientations(tile_id, count):
    t = T(tile_id)
    out = geo.orientations(t.cells, t.anchor)
    assert len(out) == count == len(set(out))
    for shape, anc in out:
        assert geo.normalise(shape, anc) == (shape, anc)
        assert anc is None or anc in shape


def test_MK_AMB_18_mirror_off_keeps_only_rotations():
    f5 = T("F5")
    assert len(geo.orientations(f5.cells, mirror=False)) == 4
    assert not geo.is_symmetric(f5.cells) and geo.is_symmetric(T("X5").cells)


# --------------------------------------------------------------------------- digging

def test_MK_DIG_6_any_rotation_or_flip_is_accepted(mini):
    pieces = {"door:0": door(0, (3, 0))}
    # L4 drawn "#. / #. / A#"; here flipped and rotated: anchor at the corner (4, 0)
    d = geo.dig_check(mini, pieces, 0, T("L4"), [(4, 2), (4, 1), (4, 0), (5, 0)], [4, 0])
    assert d.cells == ((4, 0), (4, 1), (4, 2), (5, 0)) and d.anchor == (4, 0)
    illegal("shape_mismatch", "MK-DIG-6", geo.dig_check, mini, pieces, 0, T("L4"),
            [(4, 0), (4, 1), (4, 2), (5, 0)], (4, 1))
    illegal("shape_mismatch", "MK-DIG-6", geo.dig_check, mini, pieces, 0, T("L4"),
            [(4, 0), (4, 1), (4, 2), (4, 3)], (4, 0))
    illegal("shape_mismatch", "MK-DIG-6", geo.dig_check, mini, pieces, 0, T("L4"),
            [(4, 0), (4, 1), (4, 2), (5, 0)], None)


def test_MK_DIG_4_must_touch_your_own_network(mini):
    pieces = {"door:0": door(0, (3, 0))}
    illegal("not_connected", "MK-DIG-4", geo.dig_check, mini, pieces, 0, T("D2"), [(5, 2), (5, 3)], (5, 2))
    # diagonal contact is not adjacency (MK-ADJ-1)
    illegal("not_connected", "MK-DIG-4", geo.dig_check, mini, pieces, 0, T("D2"), [(2, 1), (2, 2)], (2, 1))
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(2, 0), (1, 0)], (2, 0)).cells == ((1, 0), (2, 0))


def test_MK_DIG_4_workshops_are_not_part_of_the_network(mini):
    pieces = {"door:0": door(0, (1, 3))}
    # (1, 5) touches only the workshop space (1, 4), which touches the door
    illegal("not_connected", "MK-DIG-4", geo.dig_check, mini, pieces, 0, T("D2"), [(1, 5), (2, 5)], (1, 5),
            built=[(1, 4)])


def test_MK_DIG_5_must_not_touch_an_opponent(mini):
    pieces = {"door:0": door(0, (3, 0)), "door:1": door(1, (5, 2))}
    illegal("touches_opponent", "MK-DIG-5", geo.dig_check, mini, pieces, 0, T("I3"),
            [(4, 0), (4, 1), (4, 2)], (4, 1))
    # corner contact between (4, 1) and (5, 2) is fine
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(4, 0), (4, 1)], (4, 0))


def test_MK_DIG_5_isolated_tiles_are_nobodys_and_MK_DIG_11_joining_them(mini):
    pieces = {"door:0": door(0, (3, 0)), "door:1": door(1, (3, 9)),
              "t1": tunnel(1, [(5, 2), (5, 3)])}  # laid by seat 1 but cut off: no door
    lay = geo.layout(pieces)
    assert lay.network_of["t1"].seats == frozenset() and lay.owners((5, 2)) == frozenset()
    d = geo.dig_check(mini, pieces, 0, T("L3"), [(4, 0), (4, 1), (5, 1)], (4, 1))
    assert d.joins == ("t1",)
    after = dict(pieces, t2=d.piece(0))
    assert "t1" in geo.layout(after).network(0).pieces
    assert geo.layout(after).owners((5, 3)) == {0}


def test_MK_DIG_7_footprint(mini):
    pieces = {"door:0": door(0, (2, 4)), "t1": tunnel(0, [(2, 5), (2, 6)])}
    illegal("covers_workshop_space", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(1, 4), (1, 3)], (1, 4))
    illegal("covers_workshop_space", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(1, 4), (1, 3)], (1, 4),
            built=[(1, 4)])
    illegal("covers_tile", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(2, 6), (2, 7)], (2, 6))
    illegal("covers_tile", "MK-DIG-7", geo.dig_check, mini, pieces, 0, T("D2"), [(2, 3), (2, 4)], (2, 3))


def test_MK_DIG_8_9_10_rubble_statues_buried_and_MK_PED_4_anchor_level(mini):
    pieces = {"door:0": door(0, (1, 0))}
    d = geo.dig_check(mini, pieces, 0, T("I3"), [(1, 1), (1, 2), (1, 3)], (1, 2))
    assert d.rubble == ((1, 2),) and d.hammers == 1
    assert d.statues == () and d.buried == () and d.anchor_level == 2
    pieces["t1"] = d.piece(0)
    d2 = geo.dig_check(mini, pieces, 0, T("L3"), [(2, 3), (2, 4), (3, 3)], (2, 3))
    assert d2.statues == ((2, 3),) and d2.rubble == () and d2.anchor_level == 3
    assert d2.to_json()["statues"] == [[2, 3]]
    pieces = {"door:0": door(0, (0, 6))}
    d3 = geo.dig_check(mini, pieces, 0, T("D2"), [(1, 6), (2, 6)], (2, 6))
    assert d3.buried == (((1, 6), ("iron", "iron", "hammer")),)
    assert d3.to_json()["buried"] == [{"cell": [1, 6], "resources": ["iron", "iron", "hammer"]}]


def test_MK_DIG_12_MK_EST_1_to_3_workshop_spaces_next_to_the_new_tile(mini):
    pieces = {"door:0": door(0, (0, 3))}
    d = geo.dig_check(mini, pieces, 0, T("D2"), [(1, 3), (2, 3)], (1, 3))
    assert d.workshops == ((1, 4),)
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(1, 3), (2, 3)], (1, 3), built=[(1, 4)]).workshops == ()
    pieces["t1"] = d.piece(0)
    # a later dig away from the workshop space gets no right to it (MK-EST-3)
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(2, 2), (2, 1)], (2, 2)).workshops == ()


@pytest.mark.parametrize("cells,anchor", [([], None), ("x", None), ([[1]], None), ([[1, "a"], [1, 1]], None),
                                          ([[1.5, 0], [1, 1]], None), ([[1, 0], [1, 0]], [1, 0]),
                                          ([[1, 0], [2, 0]], "top"), ([[1, 0], [2, 0]], [True, 0])])
def test_malformed_cells_are_refused_not_crashed(mini, cells, anchor):
    pieces = {"door:0": door(0, (0, 0))}
    illegal("bad_cells", "MK-DIG-6", geo.dig_check, mini, pieces, 0, T("D2"), cells, anchor)


def test_malformed_hall_and_door_commands_are_refused(mini):
    pieces = {"door:0": door(0, (0, 0))}
    rift = content.hall("the-rift")
    illegal("bad_cells", "MK-HALL-3", geo.hall_check, mini, pieces, 0, rift, [], [0, 0])
    illegal("bad_cells", "MK-HALL-3", geo.hall_check, mini, pieces, 0, rift, "zz", [0, 0])
    illegal("bad_cells", "MK-HALL-9", geo.hall_check, mini, pieces, 0, rift, [[0, 1]], None)
    illegal("unknown_start_point", "MK-PSETUP-3", geo.door_check, mini, pieces, ["A"], 2)


def test_dig_piece_is_json_ready(mini):
    d = geo.dig_check(mini, {"door:0": door(0, (3, 0))}, 0, T("D2"), [(2, 0), (1, 0)], (1, 0))
    assert d.piece(0, "ice") == {"kind": "tunnel", "cells": [[1, 0], [2, 0]], "seat": 0, "tile": "D2",
                                 "anchor": [1, 0], "pedestal": "ice"}


def _brute_force(board, pieces, seat, tile, friends=(), built=()):
    out = set()
    for shape, anc in geo.orientations(tile.cells, tile.anchor):
        for r in range(-4, board.rows):
            for c in range(-4, board.cols):
                cells = [(x + r, y + c) for x, y in shape]
                a = None if anc is None else (anc[0] + r, anc[1] + c)
                try:
                    geo.dig_check(board, pieces, seat, tile, cells, a, friends, built)
                except Illegal:
                    continue
                out.add((tuple(sorted(cells)), a))
    return out


@pytest.mark.parametrize("tile_id", ["D2", "I3", "S4", "O4", "F5"])
def test_MK_DIG_4_to_7_dig_placements_is_exactly_the_legal_set(mini, tile_id):
    pieces = {"door:0": door(0, (3, 0)), "door:1": door(1, (3, 9)), "t1": tunnel(0, [(4, 1), (4, 2)]),
              "t2": tunnel(1, [(2, 8), (2, 7)]), "t3": tunnel(None, [(5, 5)])}
    for seat in (0, 1):
        got = [(d.cells, d.anchor) for d in geo.dig_placements(mini, pieces, seat, T(tile_id))]
        assert len(got) == len(set(got))
        assert set(got) == _brute_force(mini, pieces, seat, T(tile_id))


# --------------------------------------------------------------------------- networks and doors

def test_MK_NET_1_to_3_networks_are_connected_components(mini):
    """MK-NET-3: a tile belongs to a network only through a path of adjacent network tiles to the door."""
    pieces = {"door:0": door(0, (3, 0)), "t1": tunnel(0, [(4, 1), (4, 0)]), "t2": tunnel(0, [(5, 4), (5, 5)])}
    lay = geo.layout(pieces)
    assert lay.network(0).pieces == ("door:0", "t1")
    assert lay.network_of["t2"].seats == frozenset(), "MK-NET-4: t2 reaches no door"
    assert lay.network(1) is None and lay.own_cells(1) == frozenset()
    assert geo.tunnels_in(pieces, 0) == ["door:0", "t1"]


def test_MK_NET_5_doors_never_touch_and_MK_PSETUP_3_labels(mini):
    pieces = {}
    assert geo.door_points(mini, pieces, 2) == ["A", "B", "C"]
    cells = geo.door_check(mini, pieces, "A", 2)
    assert cells == ((3, 0),)
    pieces["door:0"] = door(0, cells[0])
    illegal("doors_adjacent", "MK-NET-5", geo.door_check, mini, pieces, "C", 2)
    illegal("start_point_taken", "MK-PSETUP-3", geo.door_check, mini, pieces, "A", 2)
    illegal("wrong_start_point_label", "MK-PSETUP-3", geo.door_check, mini, pieces, "D", 2)
    illegal("unknown_start_point", "MK-PSETUP-3", geo.door_check, mini, pieces, "Z", 2)
    assert geo.door_points(mini, pieces, 2) == ["B"]


def test_MK_TEAM_9_10_teammates_are_not_opponents_and_join(mini):
    pieces = {"door:0": door(0, (3, 0)), "door:1": door(1, (5, 2))}
    illegal("touches_opponent", "MK-DIG-5", geo.dig_check, mini, pieces, 0, T("I3"),
            [(4, 0), (4, 1), (4, 2)], (4, 1))
    assert geo.dig_check(mini, pieces, 0, T("I3"), [(4, 0), (4, 1), (4, 2)], (4, 1), friends=[1])
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(2, 0), (1, 0)], (2, 0), friends=[1]).joins == ()
    d = geo.dig_check(mini, pieces, 0, T("L3"), [(4, 0), (4, 1), (5, 1)], (4, 1), friends=[1])
    assert d.joins == ("door:1",)
    # before joining, touching only the teammate is not enough (MK-AMB-27 f)
    illegal("not_connected", "MK-DIG-4", geo.dig_check, mini, pieces, 0, T("D2"), [(5, 3), (5, 4)], (5, 3),
            friends=[1])
    pieces["t1"] = d.piece(0)
    lay = geo.layout(pieces)
    assert lay.network(0) is lay.network(1) and lay.network(0).seats == {0, 1}
    # once joined, the teammate's part counts for MK-DIG-4 too
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(5, 3), (5, 4)], (5, 3), friends=[1])


# --------------------------------------------------------------------------- great halls

def _hall_pieces():
    return {
        "door:0": door(0, (3, 0)),
        "t1": tunnel(0, [(4, 0), (4, 1), (4, 2), (4, 3), (4, 4)], anchor=(4, 0), pedestal="fire"),
        "t2": tunnel(0, [(5, 1), (5, 2), (5, 3)], anchor=(5, 2), pedestal="ice"),
    }


def test_MK_HALL_3_hall_on_own_tunnels_only(mini):
    shaman = content.hall("shamans-chamber")  # "#*# / ###"
    pieces = _hall_pieces()
    got = {(p.cells, p.altar) for p in geo.hall_placements(mini, pieces, 0, shaman)}
    cells = ((4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3))
    assert got == {(cells, (4, 2)), (cells, (5, 2))}
    p = geo.hall_check(mini, pieces, 0, shaman, cells, (4, 2))
    assert p.covered == ("t1", "t2")
    # doors, empty spaces and other players' tunnels are refused
    illegal("hall_off_tunnels", "MK-HALL-3", geo.hall_check, mini, pieces, 0, shaman,
            [(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2)], (3, 1))
    illegal("hall_off_tunnels", "MK-HALL-3", geo.hall_check, mini, pieces, 0, shaman,
            [(4, 2), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4)], (4, 3))
    assert list(geo.hall_placements(mini, pieces, 1, shaman)) == []
    illegal("shape_mismatch", "MK-AMB-18", geo.hall_check, mini, pieces, 0, shaman, cells, (4, 1))


def test_MK_AMB_18_halls_rotate_but_do_not_flip_by_default(mini):
    rift = content.hall("the-rift")  # "##.. / .##. / ..*#"
    cells = [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 2)]  # not the rift at all
    zig = [(2, 0), (2, 1), (3, 1), (3, 2), (4, 2), (4, 3)]   # as drawn, altar (4, 2)
    mirrored = [(2, 3), (2, 2), (3, 2), (3, 1), (4, 1), (4, 0)]
    pieces = {"door:0": door(0, (1, 0)), "t1": tunnel(0, zig + mirrored[:1] + [(4, 1), (4, 0), (2, 2)])}
    # every space above is one tunnel of seat 0, so only the shape decides
    assert geo.hall_check(mini, pieces, 0, rift, zig, (4, 2))
    illegal("shape_mismatch", "MK-AMB-18", geo.hall_check, mini, pieces, 0, rift, mirrored, (4, 1))
    assert geo.hall_check(mini, pieces, 0, rift, mirrored, (4, 1), mirror=True)
    illegal("shape_mismatch", "MK-AMB-18", geo.hall_check, mini, pieces, 0, rift, cells, (3, 3))


def test_MK_HALL_6_7_pedestals_removed_and_remnants_split(mini):
    shaman = content.hall("shamans-chamber")
    pieces = _hall_pieces()
    cells = [(4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3)]
    p = geo.hall_check(mini, pieces, 0, shaman, cells, (5, 2))
    assert p.pedestals == ("t2",), "t2's anchor is covered; t1's is not"
    assert p.remnants == (("t1", (((4, 0),), ((4, 4),))),), "MK-AMB-19: two separate parts"
    after = p.apply(pieces, 0)
    assert set(after) == {"door:0", "t1.1", "t1.2", "hall:shamans-chamber"}
    assert after["t1.1"]["cells"] == [[4, 0]] and after["t1.1"]["pedestal"] == "fire"
    assert after["t1.2"]["cells"] == [[4, 4]] and after["t1.2"]["anchor"] is None and after["t1.2"]["pedestal"] is None
    assert after["hall:shamans-chamber"] == {"kind": "hall", "cells": [list(c) for c in sorted(cells)], "seat": 0,
                                             "hall": "shamans-chamber", "altar": [5, 2]}
    assert "t1" in pieces, "apply leaves its input alone"
    assert p.to_json()["remnants"] == [{"piece": "t1", "parts": [[[4, 0]], [[4, 4]]]}]


def test_MK_HALL_8_a_hall_is_one_tunnel_of_the_network(mini):
    shaman = content.hall("shamans-chamber")
    pieces = geo.hall_check(mini, _hall_pieces(), 0, shaman,
                            [(4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3)], (5, 2)).apply(_hall_pieces(), 0)
    lay = geo.layout(pieces)
    assert set(lay.network(0).pieces) == {"door:0", "t1.1", "t1.2", "hall:shamans-chamber"}
    # a new tunnel may grow from the hall (MK-DIG-4)
    assert geo.dig_check(mini, pieces, 0, T("D2"), [(6, 2), (6, 3)], (6, 2))
    # no hall may cover another hall
    illegal("hall_off_tunnels", "MK-HALL-3", geo.hall_check, mini, pieces, 0, content.hall("hall-of-echoes"),
            [(4, 0), (4, 1), (4, 2), (4, 3), (4, 4)], (4, 2))


# --------------------------------------------------------------------------- statues

def test_MK_MOVE_3_within_the_tunnel_or_into_an_adjacent_one(mini):
    pieces = {"door:0": door(0, (3, 0)), "t1": tunnel(0, [(4, 0), (5, 0)]),
              "t2": tunnel(0, [(5, 1), (5, 2)]), "t3": tunnel(0, [(5, 3), (5, 4)])}
    got = geo.statue_moves(mini, pieces, 0, (4, 0))
    assert got == [(3, 0), (5, 0), (5, 1), (5, 2)], "own tunnel, the door and t2; t3 is two tunnels away"
    assert geo.statue_moves(mini, pieces, 0, (5, 1)) == [(4, 0), (5, 0), (5, 2), (5, 3), (5, 4)]


def test_MK_MOVE_7_statues_never_block_but_occupy(mini):
    pieces = {"door:0": door(0, (3, 0)), "t1": tunnel(0, [(4, 0), (4, 1), (4, 2), (4, 3)])}
    got = geo.statue_moves(mini, pieces, 0, (4, 0), statues=[(4, 0), (4, 1)])
    assert got == [(3, 0), (4, 2), (4, 3)]


def test_MK_MOVE_5_never_through_a_workshop(mini):
    # (1, 3) and (1, 5) meet only across the workshop space (1, 4)
    pieces = {"door:0": door(0, (0, 3)), "t1": tunnel(0, [(1, 3)]), "t2": tunnel(0, [(0, 4), (0, 5), (1, 5)])}
    assert (1, 5) not in geo.statue_moves(mini, pieces, 0, (1, 3))
    pieces = {"door:0": door(0, (0, 3)), "t1": tunnel(0, [(1, 3)]), "t2": tunnel(0, [(2, 4), (2, 5), (1, 5)])}
    assert geo.statue_moves(mini, pieces, 0, (1, 3)) == [(0, 3)]


def test_MK_MOVE_2_only_statues_in_your_network(mini):
    pieces = {"door:0": door(0, (3, 0)), "door:1": door(1, (3, 9)), "t1": tunnel(1, [(4, 9), (5, 9)]),
              "t2": tunnel(None, [(5, 4), (5, 5)])}
    assert geo.statue_moves(mini, pieces, 0, (4, 9)) == []
    assert geo.statue_moves(mini, pieces, 0, (5, 4)) == [], "isolated: the statue counts as buried"
    assert geo.statue_moves(mini, pieces, 0, (2, 3)) == [], "a buried statue on the bare board"
    assert geo.statue_moves(mini, pieces, 1, (4, 9)) == [(3, 9), (5, 9)]


# --------------------------------------------------------------------------- workshops

def test_MK_WS_2_to_4_open_entrances_example_3(mini):
    """MK-EX-3: one entrance opened by you, two by another player, so 3 uses."""
    pieces = {"door:0": door(0, (1, 3)), "door:1": door(1, (0, 5)), "t1": tunnel(1, [(0, 4)]),
              "t2": tunnel(1, [(1, 5)]), "t3": tunnel(None, [(2, 4)])}
    got = geo.open_entrances(mini, pieces, (1, 4))
    assert [(e.side, e.seats) for e in got] == [("n", {1}), ("e", {1}), ("w", {0})]
    assert got[0].to_json() == {"side": "n", "cell": [0, 4], "seats": [1]}
    assert any(0 in e.seats for e in got) and len(got) == 3
    assert geo.open_entrances(mini, pieces, (5, 8)) == []
