"""Workshop types, cascade size, statue occupancy and the scoring details
(MK-WST-1..11, MK-CASC-3/7, MK-MOVE-7, MK-SCORE-7/8, MK-AMB-21/22, MK-HALL-7)."""
import pytest

from domain.mountain_king import content, workshops
from domain.mountain_king.catalog import top_row
from domain.mountain_king.roster import cascade
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import breakdowns

from mk_driver import apply, ready
from tests.support.positions import edit, position

THREE = """
    mountain-king 3 seed=seed
    opening
    empty_trolls 0
"""

SPEC_USES = {  # section 11.1, one use each way
    "cartwrights_house": [({"heartstone": 1}, {"cart": 1}), ({"cart": 1}, {"heartstone": 1})],
    "spellweaver": [({"coin": 1}, {"rune": 1}), ({"rune": 1}, {"coin": 1})],
    "coin_press": [({"iron": 1}, {"coin": 1}), ({"heartstone": 1}, {"coin": 1}),
                   ({"coin": 1}, {"iron": 1}), ({"coin": 1}, {"heartstone": 1})],
    "metal_works": [({"heartstone": 1}, {"iron": 1}), ({"iron": 1}, {"heartstone": 1})],
    "runeforge": [({"stone": 1}, {"rune": 1}), ({"iron": 1}, {"rune": 1}),
                  ({"rune": 1}, {"stone": 1}), ({"rune": 1}, {"iron": 1})],
    "great_quarry": [({"heartstone": 1}, {"stone": 2}), ({"stone": 2}, {"heartstone": 1})],
    "stone_mill": [({"stone": 1}, {"iron": 1}), ({"iron": 1}, {"stone": 1})],
    "tool_forge": [({"heartstone": 1}, {"hammer": 1}), ({"hammer": 1}, {"heartstone": 1})],
}


def test_MK_WST_11_types_two_copies():
    assert len(workshops.TYPES) == 11


@pytest.mark.parametrize("kind", sorted(SPEC_USES))
def test_MK_WST_exchange_uses_match_the_table(kind):
    _, s = position(THREE + "storage 0 stone=2 iron=2 heartstone=2 coin=2 cart=2 hammer=2 rune=2")
    got = [(u["give"], u["get"]) for u in workshops.uses(kind, s, 0, s["stores"][0])]
    assert sorted(map(str, got)) == sorted(map(str, SPEC_USES[kind]))


@pytest.mark.parametrize("kind, gain", [("utensil_forge", "hammer"), ("swivel_bolts", "cart")])
def test_MK_WST_5_11_any_two_resources_one_way(kind, gain):
    _, s = position(THREE + "storage 0 stone=1 rune=1")
    got = workshops.uses(kind, s, 0, s["stores"][0])
    assert got == [{"give": {"rune": 1, "stone": 1}, "get": {gain: 1}}]


def test_MK_CASC_3_7_cascade_sizes():
    assert len(cascade(2, 1)) == 3 and len(cascade(3, 2)) == 6
    assert sorted(cascade(4, 1)) == sorted(f"{r},{i}" for r, n in ((1, 4), (2, 3), (3, 2), (4, 1))
                                           for i in range(1, n + 1))


def level_at(s, cell):
    return content.board(s["board"]).level(cell)


def test_MK_SCORE_8_AMB_21_one_statue_per_tunnel_the_best():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 9,0
        tunnel t1 0 9,1 9,2 anchor=9,2 pedestal=ice
        statues = {"9,1": "fire", "9,2": "ice"}
    """)
    level = level_at(s, (9, 2))
    assert breakdowns(s)[0]["statues"] == 4 * level  # only the Ice statue on its pedestal


def test_MK_AMB_22_statue_on_the_door_scores_its_level():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 3,15
        statues = {"3,15": "moon"}
    """)
    assert breakdowns(s)[0]["statues"] == 2 * level_at(s, (3, 15))


def test_MK_SCORE_9_buried_statues_score_nothing():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        statues = {"9,3": "fire"}
    """)
    assert all(b["statues"] == 0 for b in breakdowns(s).values())


def test_MK_MOVE_7_never_onto_another_statue():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 9,0
        tunnel t1 0 9,1
        statues = {"9,0": "fire", "9,1": "ice"}
        empty_trolls 0
        storage 0 cart=2
        step statues
    """)
    moves = [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue"]
    assert moves == []


def test_MK_HALL_7_remnants_are_tunnels_of_their_own():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 8,3
        tunnel t1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4 11,5 12,4 13,4
        halls = ["shamans-chamber"]
        step hall
    """)
    cmds = [c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"]
    cmd = next(c for c in cmds if sorted(c["cells"]) == [[10, 3], [10, 4], [10, 5], [11, 3], [11, 4], [11, 5]])
    s, _ = apply(s, 0, cmd)
    parts = sorted(sorted(p["cells"]) for pid, p in s["pieces"].items() if pid.startswith("t1."))
    assert parts == [[[9, 3], [9, 4], [9, 5]], [[12, 4], [13, 4]]]
    edit(GAME, s, 'statues = {"9,3": "fire", "13,4": "moon"}')
    two = breakdowns(s)[0]["statues"]
    assert two == 2 * level_at(s, (9, 3)) + 2 * level_at(s, (13, 4))


def test_roster_tokens_match_symbols():
    s = ready(5)
    for roster in s["rosters"]:
        for troll in roster.values():
            assert len(troll["held"]) == len(top_row(troll["card"]))


def _brute_sets(counts):
    """Every sequence of 4-for-1 trades, exhaustively (small totals only)."""
    from functools import lru_cache
    from itertools import combinations_with_replacement

    @lru_cache(maxsize=None)
    def best(c):
        score = sum(x // 3 for x in c)
        kinds = [i for i, x in enumerate(c) if x]
        for give in combinations_with_replacement(kinds, 4):
            left = list(c)
            for i in give:
                left[i] -= 1
            if min(left) < 0:
                continue
            for get in range(len(c)):
                nxt = list(left)
                nxt[get] += 1
                score = max(score, best(tuple(nxt)))
        return score

    return best(tuple(counts))


@pytest.mark.parametrize("counts", [(2, 2, 2, 2), (1, 1, 1, 1, 2), (5, 0, 1, 1), (3, 3, 2, 1, 1), (4, 4, 4),
                                    (2, 2, 1, 0), (8, 1, 1), (2, 5, 5)])
def test_MK_AMB_25_best_sets_equals_exhaustive_trading(counts):
    from domain.mountain_king.leftovers import best_sets
    assert best_sets(dict(zip("abcdefg", counts))) == _brute_sets(counts)
