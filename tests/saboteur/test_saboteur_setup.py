"""Setup: layout, roles, hands, deck, first player, options (SAB-SETUP, SAB-GRID, SAB-ROLE)."""
import pytest

from domain.core import Drbg, Illegal, Seat
from domain.saboteur.content import CARDS, START_SHAPE
from domain.saboteur.rules import GAME
from saboteur_support import Table


def test_SAB_EX_1_SAB_GRID_2_layout():
    s = Table(5).state
    assert s["maze"] == {"0,0": {"card": "start", "shape": START_SHAPE, "rotated": False, "by": None}}
    assert {g: (i["x"], i["y"]) for g, i in s["goals"].items()} == {"A": (8, -2), "B": (8, 0), "C": (8, 2)}
    assert not any(i["revealed"] for i in s["goals"].values())
    for cell in [f"{x},0" for x in range(1, 8)] + ["8,-1", "8,1"]:
        assert cell not in s["maze"]


def test_SAB_SETUP_3_goals_shuffled_one_treasure():
    seen = set()
    for i in range(12):
        s = Table(3, seed=b"g%d" % i).state
        shapes = [g["shape"] for g in s["goals"].values()]
        assert shapes.count("treasure") == 1
        seen.add(next(g for g, i in s["goals"].items() if i["shape"] == "treasure"))
    assert len(seen) > 1


@pytest.mark.parametrize("players", range(3, 11))
def test_SAB_EX_2_role_deck_by_player_count(players):
    from domain.saboteur.content import ROLE_DECK
    s = Table(players).state
    roles = s["roles"] + [s["leftover"]]
    assert roles.count("saboteur") == ROLE_DECK[players][0]
    assert roles.count("miner") == ROLE_DECK[players][1]
    assert len(s["roles"]) == players


def test_SAB_EX_2_seven_players_deal_seven_set_one_aside():
    t = Table(7)
    types = t.types(t.events)
    assert types.count("RoleDealt") == 7 and types.count("RoleSetAside") == 1


@pytest.mark.parametrize("players,size", [(3, 6), (4, 6), (5, 6), (6, 5), (7, 5), (8, 4), (9, 4), (10, 4)])
def test_SAB_EX_3_SAB_SETUP_5_hand_sizes(players, size):
    s = Table(players).state
    assert all(len(h) == size for h in s["hands"])
    assert len(s["deck"]) == 67 - players * size  # SAB-SETUP-6


def test_SAB_SETUP_4_deck_is_paths_and_actions_shuffled_together():
    t = Table(4)
    shuffled = next(e for e in t.events if e["type"] == "DeckShuffled")["data"]["cards"]
    assert sorted(shuffled) == sorted(CARDS)
    assert shuffled != sorted(CARDS)


def test_SAB_AMB_22_first_player_random_or_named():
    firsts = {Table(5, seed=b"f%d" % i).turn for i in range(15)}
    assert len(firsts) > 1
    assert Table(5, first_player=3).turn == 3


def test_SAB_SETUP_7_gold_deck_starts_with_28_cards():
    assert len(Table(3).state["gold_deck"]) == 28


def test_SAB_DOC_2_options_defaults_and_unknown_option():
    opts = GAME.validate_options({}, 5)
    assert opts == {"first_player": None, "require_connection_to_start": False,
                    "gold_cards_for_miners": "players", "gold_choice": "players",
                    "auto_pass_empty_hand": True}
    with pytest.raises(Illegal) as exc:
        GAME.validate_options({"speed": 2}, 5)
    assert exc.value.code == "unknown_option" and exc.value.rule is None
    with pytest.raises(Illegal) as exc:
        GAME.validate_options({"first_player": 5}, 5)
    assert exc.value.code == "bad_option"
    with pytest.raises(Illegal):
        GAME.validate_options({"gold_cards_for_miners": "all"}, 5)
    assert set(GAME.options_schema["properties"]) == set(opts)


@pytest.mark.parametrize("players", [2, 11])
def test_SAB_ROLE_1_player_count_3_to_10(players):
    with pytest.raises(Illegal) as exc:
        GAME.start({}, [Seat(i, "p") for i in range(players)], Drbg(b"x", "start"))
    assert exc.value.code == "bad_player_count"
