"""Two copies for 4-5 players (DW-COMB, DW-AMB-34): two Mines, two Mountains, six piles."""
from __future__ import annotations

from domain.core import event
from domain.dwarf import mining
from domain.dwarf.evolve import batch
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, apply, give, start
from tests.dwarf.test_dwarf_rounds import place, stage_mine


def test_DW_COMB_1_DW_COMB_2_DW_COMB_8_two_play_areas_one_marker():
    """DW-COMB-1/2/8, DW-COMP-3: 4 and 5 players get two Mines, Mountains and pile sets;
    each player has 2 normal workers; one first-player marker."""
    for n in (4, 5):
        s = start(n)
        assert len(s["areas"]) == 2 and s["unplaced"] == [2] * n
        assert all(len(a["piles"]) == 3 for a in s["areas"])
        assert isinstance(s["first"], int)
    assert len(start(3)["areas"]) == 1


def test_DW_COMB_3_DW_AMB_34_mining_per_mine():
    """DW-COMB-3, DW-AMB-34: 2 cards from each Mountain into that copy's Mine; the third-card
    rule looks at each Mine separately."""
    s = start(4)
    s = apply(s, [event("MountainShuffled", area=0, cards=["M26", "M01"]),
                  event("MountainShuffled", area=1, cards=["M26", "M27", "M28"])])
    b = batch(s)
    assert mining.mine(b)
    mined = [(e["data"]["area"], e["data"]["card"]) for e in b.events if e["type"] == "CardMined"]
    assert mined == [(0, "M26"), (0, "M01"), (1, "M26"), (1, "M27"), (1, "M28")]


def test_DW_COMB_7_either_mountain_empty_ends_the_game():
    """DW-COMB-7, DW-AMB-34: either Mountain failing a draw ends the game."""
    s = start(4)
    s = apply(s, [event("MountainShuffled", area=1, cards=["M01"])])
    b = batch(s)
    assert mining.mine(b) is False


def test_DW_COMB_4_DW_COMB_5_places_in_either_mine_and_whole_mine_threats():
    """DW-COMB-4/5: workers go to either Mine; an undefended Orc Raiders in Mine 1 stops
    forging in Mine 0 (DW-GLOS-4 over all 18 locations); Reward for Valour in both."""
    s = stage_mine(stage_mine(start(4, first_player=0)), {"13": "M14"}, area=1)
    s = stage_mine(s, {"31": "S7"})
    s = give(s, 0, steel=3)
    s = place(s, 0, "31")
    s = place(s, 1, "11", mine=1)
    assert s["workers"]["1:11"]["player"] == 1
    for seat in (2, 3):
        s = place(s, seat, "22", mine=seat - 2)
    while s["round"] == 1:
        seat = GAME.active_seats(s).pop()
        s = act(s, seat, {"type": "pass"})
    assert s["players"][0]["object"] == 0
    assert s["players"][1]["medal"] == 1 and s["players"][2]["medal"] == 1


def test_DW_COMB_6_DW_AMB_34_six_piles_card_goes_to_its_own_copy():
    """DW-COMB-6, DW-AMB-34: any of 6 piles; the Mine side goes into that pile's copy."""
    s = stage_mine(start(4, first_player=0))
    s = apply(s, [event("PilesDealt", area=1, piles=[["X1"], ["X2"], ["X3"]])])
    assert sorted({c["pile"] for c in GAME.legal_commands(s, 0) if c["type"] == "special"}) == list(range(6))
    s = act(s, 0, {"type": "special", "pile": 4, "pay": False})
    assert s["areas"][1]["stacks"]["12"][-1] == "X2" and s["areas"][0]["stacks"]["12"][-1] != "X2"
