"""The authored content pack meets every constraint of spec section 28 (MK-GAP-1..13)."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from domain.mountain_king import board as geo
from domain.mountain_king import content

SIDES = ("winter", "autumn")


def _edge(b: geo.Board) -> set:
    """On-board spaces with a side on the board's edge."""
    out = set()
    for (r, c) in b.levels:
        for dr, dc in geo.SIDES.values():
            if not b.in_bounds((r + dr, c + dc)):
                out.add((r, c))
    return out


def _fits(b: geo.Board, cells, anchor, where) -> bool:
    """Some orientation and position puts every cell on a coverable space and the anchor in ``where``."""
    for shape, anc in geo.orientations(cells, anchor):
        for (r, c) in where:
            dr, dc = r - anc[0], c - anc[1]
            if all(b.coverable((x + dr, y + dc)) for x, y in shape):
                return True
    return False


# --------------------------------------------------------------------------- MK-GAP-1 / MK-GAP-2 boards

@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_1_levels_are_concentric_rings(side):
    b = content.board(side)
    assert set(b.levels.values()) == {1, 2, 3, 4, 5}
    for cell, lv in b.levels.items():
        for n in b.neighbours(cell):
            if n in b.levels:
                assert abs(b.levels[n] - lv) <= 1, (cell, n)
            else:
                assert n in b.heart and lv == 5, "the heart is bordered by yellow"
    assert all(b.levels[c] == 1 for c in _edge(b)), "the board edge is dark grey"


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_3_heart_is_central_and_uncoverable(side):
    b = content.board(side)
    assert b.heart and not (b.heart & set(b.levels))
    rows = [r for r, _ in b.heart]
    cols = [c for _, c in b.heart]
    assert abs((min(rows) + max(rows)) - (b.rows - 1)) <= 1 and abs((min(cols) + max(cols)) - (b.cols - 1)) <= 1
    assert not any(b.coverable(c) for c in b.heart)
    assert geo.connected(b.heart)


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_2_every_level_has_room_for_anchored_tunnels(side):
    b = content.board(side)
    anchored = [t for t in content.tiles() if t.anchor is not None]
    for level in range(1, 6):
        where = [c for c, lv in b.levels.items() if lv == level]
        for t in anchored:
            assert _fits(b, t.cells, t.anchor, where), (side, level, t.id)


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_2_every_coverable_space_is_reachable(side):
    """Workshop spaces and the heart are holes, but they never cut the mountain apart."""
    b = content.board(side)
    spaces = set(b.open_spaces)
    assert geo.connected(spaces)


@pytest.mark.parametrize("side,labels", [("winter", (4, 5)), ("autumn", (3,))])
def test_MK_GAP_1_4_start_points(side, labels):
    b = content.board(side)
    minimum = {3: 3, 4: 4, 5: 5}
    for label in labels:
        points = b.start_points_for(label)
        assert len(points) >= minimum[label]
        for p, q in itertools.combinations(points, 2):
            assert q.cell not in b.neighbours(p.cell), "MK-NET-5: doors of one game never touch"
    for p in b.start_points:
        cells = geo.door_cells(b, p.id, content.door())
        assert all(b.coverable(c) for c in cells)
        assert any(b.coverable(n) for c in cells for n in b.neighbours(c) if n not in cells)
        assert b.level(p.cell) == 1, "recommended: on the outer edge of the mountain"
    assert {lab for p in b.start_points for lab in p.labels} == set(labels), "MK-BOARD-9"


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_4_start_points_start_equal(side):
    """Authoring choice (AUTHORED.md): no feature next to a start point."""
    b = content.board(side)
    features = set(b.rubble) | set(b.statue_spaces) | set(b.workshop_spaces) | set(b.buried)
    for p in b.start_points:
        assert p.cell not in features
        assert not [n for n in b.neighbours(p.cell) if n in features], p.id


def test_MK_GAP_1_5_team_pairs_are_clockwise_neighbours():
    b = content.board("winter")
    fours = [p.id for p in b.start_points_for(4)]
    pairs = b.team_pairs
    assert len(pairs) == 2
    flat = [x for pair in pairs for x in pair]
    assert sorted(flat) == sorted(fours) and len(set(flat)) == 4
    order = sorted(fours, key=lambda pid: _angle(b, b.start_point(pid).cell))
    consecutive = {frozenset((order[i], order[(i + 1) % 4])) for i in range(4)}
    assert all(frozenset(p) in consecutive for p in pairs)
    assert content.board("autumn").team_pairs == ()


def _angle(b, cell):
    import math
    cr = sum(r for r, _ in b.heart) / len(b.heart)
    cc = sum(c for _, c in b.heart) / len(b.heart)
    return math.atan2(cell[1] - cc, -(cell[0] - cr)) % (2 * math.pi)


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_6_statue_spaces(side):
    b = content.board(side)
    s = b.statue_spaces
    assert 3 <= len(s) <= 21 and len(set(s)) == len(s)
    starts = {p.cell for p in b.start_points}
    for cell in s:
        assert cell in b.levels and cell not in b.workshop_spaces and cell not in starts
    angles = [_angle(b, c) for c in s]
    assert angles == sorted(angles), "listed in clockwise order"
    assert {b.level(c) for c in s} == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("side,minimum", [("winter", 12), ("autumn", 8)])
def test_MK_GAP_1_7_workshop_spaces(side, minimum):
    b = content.board(side)
    ws = b.workshop_spaces
    assert len(ws) >= minimum and len(set(ws)) == len(ws)
    assert not set(ws) & b.heart
    starts = {p.cell for p in b.start_points}
    assert not set(ws) & starts
    for cell in ws:
        assert any(b.coverable(n) for n in b.neighbours(cell)), "every workshop can be reached"


@pytest.mark.parametrize("side", SIDES)
def test_MK_GAP_1_8_and_9_rubble_and_buried_resources(side):
    b = content.board(side)
    assert b.rubble and b.rubble <= set(b.levels)
    assert b.buried
    for cell, resources in b.buried.items():
        assert cell in b.levels and b.coverable(cell) and resources
        assert set(resources) <= set(content.RESOURCES)
    assert set(b.statue_spaces) & b.rubble, "statues may lie on rubble (MK-BOARD-5)"
    assert set(b.buried) & b.rubble, "buried resources may lie on rubble (MK-BOARD-6)"


def _size4_placements(b):
    for t in content.tiles():
        if t.size != 4:
            continue
        for shape, anc in geo.orientations(t.cells, t.anchor):
            for r in range(-3, b.rows):
                for c in range(-3, b.cols):
                    cells = [(x + r, y + c) for x, y in shape]
                    if all(b.coverable(x) for x in cells):
                        yield t, cells, None if anc is None else (anc[0] + r, anc[1] + c)


def test_MK_GAP_1_10_example_6_is_rebuildable_on_winter():
    b = content.board("winter")
    plain = any(
        [b.buried.get(x) for x in cells if x in b.buried] == [("iron", "iron", "hammer")]
        and any(x in b.statue_spaces for x in cells) and not any(x in b.rubble for x in cells)
        for _, cells, _ in _size4_placements(b))
    assert plain
    assert any(sum(x in b.rubble for x in cells) == 3 for _, cells, _ in _size4_placements(b))


def test_MK_GAP_1_10_example_7_anchor_in_yellow_on_both_sides():
    for side in SIDES:
        b = content.board(side)
        assert any(a is not None and b.level(a) == 5 for _, _, a in _size4_placements(b))


# --------------------------------------------------------------------------- MK-GAP-3 door, MK-GAP-4 tiles

def test_MK_GAP_3_door_footprint_fits_every_start_point():
    door = content.door()
    assert len(door) >= 1 and geo.connected(door)
    for side in SIDES:
        b = content.board(side)
        for p in b.start_points:
            cells = geo.door_cells(b, p.id, door)
            assert all(b.coverable(c) for c in cells)
            for q in b.start_points:
                if q.id != p.id and set(p.labels) & set(q.labels):
                    assert not set(cells) & set(geo.door_cells(b, q.id, door))


def test_MK_GAP_4_1_tiles_are_polyominoes_of_every_size():
    ts = content.tiles()
    for t in ts:
        assert geo.connected(t.cells) and t.size == len(t.cells) == len(set(t.cells))
    assert {t.size for t in ts} == {2, 3, 4, 5}


def test_MK_GAP_4_2_exactly_52_tiles():
    assert sum(t.copies for t in content.tiles()) == 52


def test_MK_GAP_4_3_anchors():
    ts = content.tiles()
    assert all(t.anchor is None for t in ts if t.size == 5)
    assert sum(t.copies for t in ts if t.anchor is not None) >= 27
    assert all(t.anchor is None or t.anchor in t.cells for t in ts)
    assert any(t.size == 4 and t.anchor is not None for t in ts), "MK-EX-7"


def test_MK_GAP_4_4_one_stack_per_shape():
    seen = set()
    for t in content.tiles():
        free = min(s for s, _ in geo.orientations(t.cells))
        assert free not in seen, t.id
        seen.add(free)
    assert len({t.id for t in content.tiles()}) == len(content.tiles())


# --------------------------------------------------------------------------- MK-GAP-5 halls

def test_MK_GAP_5_1_six_halls_with_the_known_names():
    hs = content.halls()
    names = {h.name for h in hs}
    assert len(hs) == 6 and len(names) == 6 and len({h.id for h in hs}) == 6
    assert {"Shaman's Chamber", "Sculptor's Hall", "The Hidden Treasure", "The Rift"} <= names


def _tileable(cells, shapes) -> bool:
    """Exact cover of ``cells`` by copies of the tunnel shapes (any orientation)."""
    todo = set(cells)
    if not todo:
        return True
    first = min(todo)
    for shape in shapes:
        for cs, _ in geo.orientations(shape):
            r0, c0 = cs[0]
            placed = {(r + first[0] - r0, c + first[1] - c0) for r, c in cs}
            if placed <= todo and _tileable(todo - placed, shapes):
                return True
    return False


def test_MK_GAP_5_2_halls_fit_and_can_be_covered_by_tunnels():
    shapes = [t.cells for t in content.tiles()]
    for h in content.halls():
        assert geo.connected(h.cells)
        assert _tileable(h.cells, shapes), h.id
        for side in SIDES:
            b = content.board(side)
            assert _fits(b, h.cells, h.altar, list(b.levels)), (side, h.id)


def test_MK_GAP_5_3_one_altar_inside():
    for h in content.halls():
        assert h.altar in h.cells


def test_MK_GAP_5_4_values():
    hs = {h.name: h for h in content.halls()}
    assert (hs["The Hidden Treasure"].low, hs["The Hidden Treasure"].high) == (6, 15)
    assert all(0 <= h.low < h.high for h in hs.values())
    assert any(h.low == 0 for h in hs.values()) and any(h.high == 15 for h in hs.values())


# --------------------------------------------------------------------------- MK-GAP-6/7 trolls

def _symbols_ok(symbols, clan):
    for s in symbols:
        assert content.symbol_resource(s) in content.RESOURCES, s
        cart_clan = content.cart_clan(s)
        if cart_clan is not None:
            assert cart_clan in content.STATUE_CLANS and cart_clan == clan, (s, clan)


def test_MK_GAP_6_starters():
    colours = content.colours()
    sets = []
    for colour in colours:
        cards = content.starter_trolls(colour)
        assert len(cards) == 6 and all(c.colour == colour for c in cards)
        for c in cards:
            assert c.top, "a top row of repeatable symbols"
            assert c.bottom, "recommended: every bottom row is non-empty"
            _symbols_ok(c.top + c.bottom, c.clan)
            assert not hasattr(c, "level"), "starters have no level lines (MK-AMB-26: count 0)"
        sets.append(sorted((c.clan or "", c.top, c.bottom) for c in cards))
    assert all(s == sets[0] for s in sets), "recommended: identical colour sets"
    assert len({c.id for col in colours for c in content.starter_trolls(col)}) == 30
    symbols = {s for c in content.starter_trolls(colours[0]) for s in c.top}
    assert {"coin", "heartstone", "stone"} <= symbols, "the cascade example's starters"


def test_MK_GAP_7_1_horde_counts():
    levels = Counter(t.level for t in content.horde_trolls())
    assert levels == {1: 21, 2: 17, 3: 17}
    assert len({t.id for t in content.horde_trolls()}) == 55
    assert sum(t.bonus for t in content.horde_trolls()) == 6
    assert all(t.level == 3 for t in content.horde_trolls() if t.bonus)


def test_MK_GAP_7_2_to_5_clans_symbols_and_icons():
    for t in content.horde_trolls():
        assert t.clan in content.CLANS and t.symbols
        _symbols_ok(t.symbols, t.clan)
        if t.clan == "mud":
            assert all(content.cart_clan(s) is None for s in t.symbols)
        assert t.pedestal_icon == (t.level >= 2)
    assert {t.clan for t in content.horde_trolls()} == set(content.CLANS)


def test_MK_GAP_7_6_higher_levels_produce_more():
    by = {lv: [len(t.symbols) for t in content.horde_trolls() if t.level == lv] for lv in (1, 2, 3)}
    assert max(by[1]) < min(by[2]) < min(by[3])


def test_MK_GAP_7_examples_exist():
    ts = content.horde_trolls()
    assert any(t.level == 3 and t.clan == "ice" for t in ts)
    produce = [(t.clan, Counter(content.symbol_resource(s) for s in t.symbols)) for t in ts]
    assert any(c == {"iron": 3, "rune": 1, "cart": 1} for _, c in produce)
    assert any(k == "fire" and c == {"stone": 2, "cart": 1} for k, c in produce)
    assert any(k == "mud" and c == {"iron": 1, "heartstone": 1} for k, c in produce)


# --------------------------------------------------------------------------- MK-GAP-9, MK-GAP-12

def test_MK_GAP_9_pedestal_tokens():
    groups = content.pedestal_token_groups()
    assert [n for n, _ in groups] == [3, 4, 4, 4]
    values = [v for _, v in groups]
    assert len(set(values)) == 4 and 3 in values and all(v > 0 for v in values)
    tokens = content.pedestal_tokens()
    assert len(tokens) == 15 and Counter(tokens) == {v: n for n, v in groups}
    assert any(sum(combo) == 11 for k in (2, 3, 4) for combo in itertools.combinations(tokens, k))


def test_MK_GAP_12_five_colours_one_magenta():
    cs = content.colours()
    assert len(cs) == 5 and len(set(cs)) == 5 and "magenta" in cs


def test_MK_COMP_20_resource_vocabulary():
    assert content.RESOURCES == ("stone", "iron", "heartstone", "coin", "cart", "hammer", "rune")
    assert content.MINERALS == ("stone", "iron", "heartstone")
    assert content.symbol_resource("cart:ice") == "cart" and content.cart_clan("cart:ice") == "ice"
    assert content.cart_clan("cart") is None and content.cart_clan("stone") is None
