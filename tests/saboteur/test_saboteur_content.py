"""The content pack against the constraints of spec section 17 (SAB-COMP, SAB-GAP)."""
from collections import Counter
from itertools import combinations

from domain.saboteur.content import (
    CARDS, GOAL_CELLS, GOAL_SHAPES, GOLD, HAND_SIZE, ROLE_DECK, SABOTEUR_PAY, SHAPES, START_SHAPE,
    TOOLS, TREASURE,
)
from domain.saboteur.maze import oriented


def test_SAB_COMP_1_SAB_COMP_2_path_cards_44_with_start_and_three_goals():
    paths = [c for c in CARDS.values() if c.kind == "path"]
    assert len(paths) == 40
    assert len(paths) + 1 + len(GOAL_SHAPES) == 44
    assert START_SHAPE in SHAPES and len(GOAL_SHAPES) == 3
    assert GOAL_SHAPES.count(TREASURE) == 1


def test_SAB_GAP_1_every_goal_has_an_open_edge_and_treasure_connects_all_sides():
    for g in GOAL_SHAPES:
        assert SHAPES[g].edges
    assert SHAPES[TREASURE].edges == "NESW" and len(SHAPES[TREASURE].segments) == 1


def test_SAB_GAP_1_segments_partition_open_edges():
    for shape in SHAPES.values():
        assert sorted("".join(shape.segments)) == sorted(shape.edges)


def test_SAB_GAP_1_enough_tunnels_to_reach_the_middle_goal():
    through = [c for c in CARDS.values() if c.kind == "path" and not SHAPES[c.shape].dead_end
               and {"E", "W"} <= set(oriented(c.shape, False)[0])]
    assert len(through) >= 7  # (1,0)..(7,0)
    assert GOAL_CELLS["B"] == (8, 0)


def test_SAB_GAP_2_action_types_and_remedies():
    kinds = Counter(c.kind for c in CARDS.values() if c.kind != "path")
    assert set(kinds) == {"break", "repair", "rockfall", "map"}
    breaks = {c.tools[0] for c in CARDS.values() if c.kind == "break"}
    repairs = {t for c in CARDS.values() if c.kind == "repair" for t in c.tools}
    assert breaks == set(TOOLS) and breaks <= repairs
    for c in CARDS.values():
        if c.kind == "repair":
            assert len(set(c.tools)) == len(c.tools) in (1, 2)
    assert any(len(c.tools) == 2 for c in CARDS.values())


def test_SAB_GAP_2_deck_covers_the_opening_deal():
    for players, size in HAND_SIZE.items():
        assert len(CARDS) >= players * size
    assert len(CARDS) == 67


def test_SAB_GAP_3_gold_28_positive_and_covers_three_rounds():
    assert len(GOLD) == 28 and all(isinstance(v, int) and v > 0 for v in GOLD)
    assert len(GOLD) >= 27  # at most 9 cards per round to the miners
    for amount in set(SABOTEUR_PAY.values()):
        assert any(sum(c) == amount for k in (1, 2, 3) for c in combinations(GOLD, k))


def test_SAB_ROLE_1_role_deck_is_one_more_than_players():
    for players, (sab, mine) in ROLE_DECK.items():
        assert sab + mine == players + 1
    assert ROLE_DECK[10] == (4, 7)
