"""The ``greedy`` bot's lookahead (issue 8): it plays the round out before choosing, so it
sees Andvettr's instant win coming (DW-AND-2, DW-AND-6, DW-AND-8) and never reads the
Mountain's hidden order (DW-CARD-3)."""
from __future__ import annotations

from domain.core import Drbg
from domain.dwarf.grid import LOCATIONS
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import apply, give, start, step_actor, who
from tests.support.positions import edit
from tests.dwarf.test_dwarf_rounds import stage_mine

GOLD, KNOCKERS = "S2", "S8"  # Gold Vein (+1 Gold, free), Knockers (a Defend location)
AUTO = 1


def greedy(s: dict, seat: int = 0) -> dict:
    return GAME.bots["greedy"](GAME, s, seat, Drbg(b"bot", "v"))


def near_instant_win(medals: int, specials: int) -> dict:
    """Solo against Andvettr under rules dwarf-3's readings (his second worker seeks a Defend,
    DW-AMB-28; he defends twice, DW-AMB-31): Gold Veins everywhere but one Knockers at L(3,2);
    the automaton has placed its first worker; it holds ``medals``; the human has taken
    ``specials`` Special Actions."""
    s = stage_mine(start(1, solo_level="andvettr", andvettr_second_worker_rule="defend", andvettr_double_actions="all"),
                   {**{loc: GOLD for loc in LOCATIONS}, "32": KNOCKERS})
    s = give(s, AUTO, medal=medals)
    edit(GAME, s, f"players.0.specials = {specials}")  # staged: the human's earlier Special Actions (DW-AND-6)
    s = step_actor(s)
    assert who(s) == 0 and "0:32" not in s["workers"]
    return s


def test_DW_AND_2_DW_AND_8_greedy_blocks_the_defend_that_would_give_andvettr_13_medals():
    """DW-AND-2, DW-AND-8, DW-AMB-32: with 11 Medals, Andvettr's second worker on the only
    free Defend location would win (2 Medals, doubled); greedy's first worker takes it."""
    s = near_instant_win(11, 0)
    assert greedy(s) == {"type": "place", "mine": 0, "location": "32"}


def test_DW_AND_6_greedy_takes_no_special_action_that_hands_andvettr_the_win():
    """DW-AND-6, DW-AND-8: a 2nd Special Action gives Andvettr 2 Medals: at 11 that is his
    13th, so greedy places a worker instead (on the Defend location, as above)."""
    s = near_instant_win(11, 1)
    assert any(c["type"] == "special" for c in GAME.legal_commands(s, 0))
    assert greedy(s)["type"] == "place"


def test_DW_CARD_3_greedy_never_reads_the_mountains_order():
    """DW-CARD-3: the same table with the Mountain in another order gets the same choice,
    at each of 30 decisions of a game."""
    states = []
    s = start(2, seed=b"secret", first_player=0)
    for _ in range(30):
        if GAME.is_terminal(s):
            break
        seat = who(s)
        mixed = GAME.load_state(s)
        for area in mixed["areas"]:
            area["mountain"] = list(reversed(area["mountain"]))
        choice = greedy(s, seat)
        assert greedy(mixed, seat) == choice
        states.append(s)
        s = apply(s, GAME.decide(s, seat, choice, Drbg(b"t", "v")))
    assert len(states) == 30
