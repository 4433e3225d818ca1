"""Board construction (section 8) from the authored layouts (IND-GAP-7, IND-AMB-6)."""
from __future__ import annotations

import math
from collections import Counter

import pytest

from domain.indagar import content
from domain.indagar.board import layout

TOTALS = {1: 47, 2: 39, 3: 58, 4: 67}          # IND-BOARD-6 check sums
FACE_DOWN = {1: 36, 2: 26, 3: 39, 4: 42}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_IND_BOARD_6_positions_match_the_tile_counts(players):
    lay = layout(players)
    assert len(lay.cells) == TOTALS[players]
    assert len(lay.hidden) == FACE_DOWN[players]
    mix = content.tiles()["mix"][players]
    assert sum(mix.values()) == FACE_DOWN[players]
    assert len(lay.start) == 6 * players


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_IND_BOARD_1_2_3_starting_areas_source_and_face_down_tiles(players):
    """Each starting area is 1 Gold, 1 Wood, 1 Ore and 3 Meadow deployment tiles; the
    Source sits in the centre; everything else is face down."""
    lay = layout(players)
    for seat in range(players):
        kinds = Counter(lay.start[t][1] for t in lay.area(seat))
        assert kinds == {"gold": 1, "wood": 1, "ore": 1, "meadow": 3}
        assert len(lay.deployment(seat)) == 3
        assert all(lay.start[t][1] == "meadow" for t in lay.deployment(seat))
    # "in the centre": no tile is closer to the farthest tile of the board than the Source
    def reach(t):
        return max(lay.distance(t, u) for u in lay.cells)
    assert reach(lay.source) == min(reach(t) for t in lay.cells)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_IND_BOARD_8_one_home_per_monster_between_two_starting_areas(players):
    """Home k lies between seat k and the next seat clockwise (IND-MTURN-1): nearer to
    those two areas than the layout's size, and its bearing from the Source between theirs."""
    lay = layout(players)
    assert sorted(lay.homes) == list(range(players))

    def bearing(tiles):
        (x0, y0) = lay.centre(lay.source)
        xs = [lay.centre(t) for t in tiles]
        x, y = sum(p[0] for p in xs) / len(xs) - x0, sum(p[1] for p in xs) / len(xs) - y0
        return math.degrees(math.atan2(x, -y)) % 360

    for k, home in lay.homes.items():
        a = bearing(lay.area(k))
        b = bearing(lay.area((k + 1) % players))
        h = bearing([home])
        span = (b - a) % 360
        assert 0 < (h - a) % 360 < span, (k, a, b, h)


def test_IND_BOARD_7_solo_has_four_homes_apart_from_the_face_down_mix():
    lay = layout(1)
    assert len(lay.homes) == 4
    assert not set(lay.homes.values()) & set(lay.hidden)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_IND_BOARD_9_IND_AMB_6_hex_adjacency_is_symmetric_and_connected(players):
    """IND-TILE-1 (adjacent = touching: an edge), IND-TILE-2 and IND-TERM-3 (range = hex distance)."""
    lay = layout(players)
    for t, ns in lay.neighbours.items():
        assert len(ns) <= 6
        for n in ns:
            assert t in lay.neighbours[n]
            assert lay.distance(t, n) == 1
    seen, todo = {lay.source}, [lay.source]
    while todo:
        for n in lay.neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(lay.cells)


def test_IND_OIM_1_four_player_layout_lets_mountains_seal_an_area():
    """IND-GAP-7: some starting area has at most 4 neighbours outside it (4 Mountains)."""
    lay = layout(4)
    rings = [{n for t in lay.area(p) for n in lay.neighbours[t]} - set(lay.area(p)) for p in range(4)]
    assert min(len(r) for r in rings) <= content.tiles()["mix"][4]["mountains"]
