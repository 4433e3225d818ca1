"""A round step by step (DW-MINE, DW-SEL, DW-SPEC, DW-RES, DW-EOR, DW-FP, DW-END) on
real states: a real setup, then staged top cards (as Special Actions put them there)."""
from __future__ import annotations

import pytest

from domain.core import Illegal, event
from domain.dwarf import mining
from domain.dwarf.evolve import batch
from domain.dwarf.grid import LOCATIONS
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, apply, give, stage_top, start, who

GUARD = "X7"  # guard_post: a Defend card with no threat, a neutral place to stand


def stage_mine(s: dict, cards: dict | None = None, area: int = 0) -> dict:
    """Every location of Mine ``area`` shows a Guard Post unless ``cards`` says otherwise."""
    for loc in LOCATIONS:
        s = stage_top(s, area, loc, (cards or {}).get(loc, GUARD))
    return s


def place(s: dict, seat: int, loc: str, mine: int = 0) -> dict:
    return act(s, seat, {"type": "place", "mine": mine, "location": loc})


def passes(s: dict, seat: int) -> dict:
    return act(s, seat, {"type": "pass"})


def types(events: list) -> list[str]:
    return [e["type"] for e in events]


def test_DW_SETUP_2_3_4_5_6_7_8_table_after_setup():
    """DW-SETUP-1..8, DW-AMB-10, DW-AMB-35: 9 starting cards, a 45-card Mountain less the
    first Mining, 3 piles of 3, 2 workers each, no resources, a seeded first player."""
    s = start(3, seed=b"setup")
    area = s["areas"][0]
    assert sorted(area["stacks"]) == sorted(LOCATIONS)
    assert sum(len(v) for v in area["stacks"].values()) + len(area["mountain"]) == 54
    assert [len(p) for p in area["piles"]] == [3, 3, 3]
    assert s["unplaced"] == [2, 2, 2] and s["extras"] == [0, 0, 0]
    assert all(p[r] == 0 for p in s["players"] for r in ("iron", "gold", "steel", "object", "medal"))
    assert s["first"] in (0, 1, 2) and s["phase"] == "select" and s["round"] == 1
    assert start(3, first_player=2)["first"] == 2


def test_DW_ALT_1_DW_ALT_2_DW_AMB_9_alternative_mountain_two_lanterns_on_top():
    """DW-ALT-1/2, DW-AMB-9, DW-RN-12: every 2-lantern card is drawn before any 3-lantern card."""
    from domain.dwarf import content
    s = start(2, alternative_mountain=True)
    drawn = [c for loc in LOCATIONS for c in s["areas"][0]["stacks"][loc] if content.card(c).kind == "mountain"]
    lanterns = [content.card(c).lanterns for c in drawn + s["areas"][0]["mountain"]]
    assert lanterns == sorted(lanterns)


def _mine_with(order: list[str]) -> tuple[dict, list]:
    s = start(2)
    s = apply(s, [event("MountainShuffled", area=0, cards=order)])
    b = batch(s)
    ok = mining.mine(b)
    return {"ok": ok, "state": b.state}, [e for e in b.events if e["type"] == "CardMined"]


def test_DW_EX_5_DW_MINE_1_DW_MINE_2_third_card_rule():
    """DW-EX-5, DW-MINE-1/2/4, DW-CARD-2: two cards for L(2,3) bring a third; a third for
    L(2,3) goes there too and no fourth is drawn; the last card placed is recorded."""
    result, mined = _mine_with(["M26", "M27", "M01", "M02"])
    assert [(e["data"]["card"], e["data"]["location"]) for e in mined] == [("M26", "23"), ("M27", "23"), ("M01", "11")]
    assert result["state"]["areas"][0]["stacks"]["23"][-2:] == ["M26", "M27"]
    assert result["state"]["last_mined"] == {"area": 0, "card": "M01"}
    result, mined = _mine_with(["M26", "M27", "M28", "M01"])
    assert [e["data"]["card"] for e in mined] == ["M26", "M27", "M28"]
    result, mined = _mine_with(["M26", "M01", "M02"])
    assert [e["data"]["card"] for e in mined] == ["M26", "M01"]


def test_DW_MINE_3_DW_END_2_DW_AMB_8_empty_mountain_ends_at_once():
    """DW-MINE-3, DW-END-2, DW-AMB-7/8: a required draw (here the third) from an empty
    Mountain ends the game; no selection follows."""
    result, _ = _mine_with(["M26", "M27"])
    assert result["ok"] is False
    s = start(2, first_player=0)
    s = apply(s, [event("MountainShuffled", area=0, cards=["M01"])])
    s = stage_mine(s)
    s = place(s, 0, "11")
    s = place(s, 1, "12")
    s = passes(s, 1)
    events = GAME.decide(s, 0, {"type": "pass"}, None)
    assert types(events)[-3:] == ["RoundStarted", "CardMined", "GameEnded"]
    assert events[-1]["data"]["reason"] == "mountain_empty"
    assert GAME.is_terminal(apply(s, events))


def test_DW_AMB_7_empty_mountain_finish_round_option():
    """DW-AMB-7 option empty_mountain_end = finish_round: that round is still played."""
    s = start(2, first_player=0, empty_mountain_end="finish_round")
    s = apply(s, [event("MountainShuffled", area=0, cards=["M01"])])
    s = stage_mine(s)
    for seat, loc in ((0, "11"), (1, "12")):
        s = place(s, seat, loc)
    s = passes(passes(s, 1), 0)
    assert s["phase"] == "select" and s["end_pending"] == "mountain_empty"
    s = passes(passes(place(place(s, 0, "13"), 1, "21"), 1), 0)
    assert s["ended"] == "mountain_empty"


def test_DW_EX_6_DW_SEL_1_DW_SEL_3_DW_FP_1_placement_order():
    """DW-EX-6, DW-SEL-1/3, DW-FP-1: A, B, C, then C, B, A; B taking a Special Action with
    both workers is skipped in the second placement."""
    s = stage_mine(start(3, first_player=0))
    order = []
    for loc in ("11", "12", "13", "21", "22", "23"):
        order.append(who(s))
        s = place(s, who(s), loc)
    assert order == [0, 1, 2, 2, 1, 0]
    s = stage_mine(start(3, first_player=0))
    s = place(s, 0, "11")
    s = act(s, 1, {"type": "special", "pile": 0, "pay": False})
    order = [1]
    for loc in ("12", "13", "21"):
        order.append(who(s))
        s = place(s, who(s), loc)
    assert order == [1, 2, 2, 0]


def test_DW_SEL_2_DW_CARD_7_one_worker_per_location():
    """DW-SEL-2, DW-CARD-7: an occupied location is refused."""
    s = place(stage_mine(start(2, first_player=0)), 0, "11")
    with pytest.raises(Illegal) as err:
        place(s, 1, "11")
    assert (err.value.code, err.value.rule) == ("location_occupied", "DW-CARD-7")
    assert {"type": "place", "mine": 0, "location": "11"} not in GAME.legal_commands(s, 1)


def test_DW_AMB_11_second_placement_optional_and_never_special():
    """DW-AMB-11, DW-SEL-3: the second placement may be passed and cannot be a Special Action;
    the first placement may not be passed."""
    s = stage_mine(start(2, first_player=0))
    with pytest.raises(Illegal) as err:
        passes(s, 0)
    assert err.value.rule == "DW-AMB-11"
    s = place(place(s, 0, "11"), 1, "12")
    with pytest.raises(Illegal) as err:
        act(s, 1, {"type": "special", "pile": 0})
    assert err.value.code == "special_not_now"
    assert {"type": "pass"} in GAME.legal_commands(s, 1)


def test_DW_SPEC_1_2_3_4_5_7_special_action_with_both_workers_or_paid():
    """DW-SPEC-1..5/7, DW-AMB-1, DW-RN-5: both workers on a pile, or 4 Medals and one worker; the face
    resolves at once, the Mine side lands on its location as the new top card."""
    s = stage_mine(start(2, first_player=0))
    s = apply(s, [event("PilesDealt", area=0, piles=[["X1", "X2", "X3"], ["X4", "X5", "X6"], ["X7", "X8", "X9"]])])
    s2 = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert s2["players"][0]["iron"] == 4  # Windfall
    assert s2["areas"][0]["stacks"]["11"][-1] == "X1" and s2["unplaced"][0] == 0
    assert s2["areas"][0]["piles"][0] == ["X2", "X3"]
    with pytest.raises(Illegal) as err:
        act(s, 0, {"type": "special", "pile": 0, "pay": True})
    assert (err.value.code, err.value.rule) == ("cannot_pay", "DW-SPEC-2")
    s3 = act(give(s, 0, medal=5), 0, {"type": "special", "pile": 1, "pay": True})
    assert s3["players"][0]["medal"] == 1 and s3["unplaced"][0] == 1
    assert s3["players"][0]["gold"] == 1 and s3["players"][0]["iron"] == 2  # Prospector


def test_DW_SPEC_8_DW_AMB_37_empty_pile_cannot_be_chosen():
    """DW-SPEC-8, DW-AMB-37."""
    s = stage_mine(start(2, first_player=0))
    s = apply(s, [event("PilesDealt", area=0, piles=[[], ["X4"], []])])
    with pytest.raises(Illegal) as err:
        act(s, 0, {"type": "special", "pile": 0})
    assert (err.value.code, err.value.rule) == ("pile_empty", "DW-SPEC-8")
    assert [c["pile"] for c in GAME.legal_commands(s, 0) if c["type"] == "special"] == [1]


def test_DW_EX_8_DW_SPEC_6_DW_RES_7_DW_AMB_17_special_on_an_occupied_location():
    """DW-EX-8, DW-SPEC-6, DW-RES-7, DW-AMB-17/18: B stands on Gold Vein at L(1,2); A's Special
    Action card belongs there: B takes 1 Gold now, the new card covers it, B's worker stays,
    blocks the location and does nothing in resolution."""
    s = stage_mine(start(2, first_player=1), {"12": "S2"})
    s = apply(s, [event("PilesDealt", area=0, piles=[["X2"], ["X4"], ["X7"]])])
    s = place(s, 1, "12")
    events = GAME.decide(s, 0, {"type": "special", "pile": 0, "pay": False}, None)
    s = apply(s, events)
    assert s["players"][1]["gold"] == 1
    assert types(events).index("ActionResolved") < types(events).index("CardPlacedInMine")
    assert s["areas"][0]["stacks"]["12"][-2:] == ["S2", "X2"] and s["workers"]["0:12"]["done"]
    with pytest.raises(Illegal):
        place(s, 1, "12")
    s = place(s, 1, "11")  # B's second worker; A has none left
    assert s["round"] == 2
    assert s["players"][1]["gold"] == 1  # nothing more from L(1,2) (rich gold vein now)


def test_DW_EX_7_DW_RES_2_DW_SEL_4_DW_FP_2_receive_help_order_and_marker():
    """DW-EX-7, DW-RES-2, DW-SEL-4, DW-FP-2, DW-GLOS-10: C took Receive Help before A did;
    extras go C's 3rd, A's 3rd, C's 4th, A's 4th; A is first player, so the marker passes to B."""
    s = stage_mine(start(3, first_player=0), {"22": "S5", "11": "M05"})
    s = place(s, 0, "33")
    s = place(s, 1, "32")
    s = place(s, 2, "22")  # C on Receive Help
    s = passes(s, 2)
    s = passes(s, 1)
    s = place(s, 0, "11")  # A on Receive Help, after C
    assert s["phase"] == "help"
    order = []
    for loc in ("12", "13", "21", "23"):
        order.append(who(s))
        s = place(s, who(s), loc)
    assert order == [2, 0, 2, 0]
    assert s["first"] == 1 and s["round"] == 2


def test_DW_AMB_12_extras_limit_decline_and_extra_on_receive_help_does_nothing():
    """DW-AMB-12: two Receive Help actions still give 2 extras; an extra may be declined;
    an extra on Receive Help gives nothing more."""
    s = stage_mine(start(2, first_player=0), {"11": "M05", "12": "M15", "13": "M25"})
    s = place(s, 0, "11")
    s = place(s, 1, "33")
    s = passes(s, 1)
    s = place(s, 0, "12")
    assert s["extras"][0] == 2 and [q["player"] for q in s["queue"]] == [0, 0]
    s = place(s, 0, "13")
    s = passes(s, 0)
    assert s["round"] == 2 and s["extras"] == [0, 0]


def test_DW_RES_2_4_no_location_left_extra_is_lost():
    """DW-RES-2: an extra with no available location is lost for the round."""
    s = stage_mine(start(3, first_player=0), {"11": "M05"})
    for seat, loc in ((0, "11"), (1, "12"), (2, "13"), (2, "21"), (1, "22"), (0, "23")):
        s = place(s, seat, loc)
    s = place(s, 0, "31")
    s = place(s, 0, "32")
    assert s["round"] == 2


def test_DW_EX_9_DW_RES_1_DW_RES_3_DW_RES_4_alloy_then_forge():
    """DW-EX-9, DW-RES-1/3/4, DW-GLOS-2/3, DW-AMB-24: 3 Iron and 1 Steel; alloy in the Mine
    step (3 Steel), forge in the Forge step: 1 Object."""
    s = stage_mine(start(2, first_player=0), {"21": "S4", "31": "S7"})
    s = give(s, 0, iron=3, steel=1)
    s = place(s, 0, "31")  # Forge Sword placed first, still resolved after the Mine step
    s = place(s, 1, "11")
    s = passes(s, 1)
    s = place(s, 0, "21")
    p = s["players"][0]
    assert (p["iron"], p["steel"], p["object"], p["created"]) == (0, 0, 1, 1)


def test_DW_RES_6_DW_AMB_15_unpayable_action_does_nothing():
    """DW-RES-6, DW-AMB-15: nothing is paid, nothing gained."""
    s = stage_mine(start(2, first_player=0), {"31": "S7"})
    s = give(s, 0, steel=2)
    events = GAME.decide(place(place(s, 0, "31"), 1, "11"), 1, {"type": "pass"}, None)
    s2 = apply(place(place(s, 0, "31"), 1, "11"), events)
    s2 = passes(s2, 0)
    assert s2["players"][0]["steel"] == 2 and s2["players"][0]["object"] == 0


def test_DW_EX_10_DW_GLOS_8_DW_GLOS_11_sidhe():
    """DW-EX-10, DW-GLOS-8, DW-GLOS-11: undefended Sidhe: 5 Gold -> 3 and +2 Iron; 1 -> 0 and +1; 0 unchanged."""
    s = stage_mine(start(3, first_player=0), {"21": "M19"})
    s = give(give(s, 0, gold=5), 1, gold=1)
    for seat, loc in ((0, "11"), (1, "12"), (2, "13")):
        s = place(s, seat, loc)
    s = passes(passes(passes(s, 2), 1), 0)
    got = [(p["gold"], p["iron"]) for p in s["players"]]
    assert got == [(3, 2), (0, 1), (0, 0)]


def test_DW_EX_11_DW_GLOS_7_DW_GLOS_9_great_dragon():
    """DW-EX-11, DW-GLOS-7, DW-GLOS-9, DW-RES-5: defended, A gains a Medal and nobody loses
    Gold; undefended, everybody returns all Gold."""
    base = give(give(stage_mine(start(2, first_player=0), {"23": "M29"}), 0, gold=4), 1, gold=2)
    s = passes(passes(place(place(base, 0, "23"), 1, "11"), 1), 0)
    assert [p["gold"] for p in s["players"]] == [4, 2] and s["players"][0]["medal"] == 1
    s = passes(passes(place(place(base, 0, "12"), 1, "11"), 1), 0)
    assert [p["gold"] for p in s["players"]] == [0, 0]


def test_DW_GLOS_5_DW_GLOS_6_DW_AMB_16_knockers_dragon_take_only_what_there_is():
    """DW-GLOS-5/6, DW-AMB-16: 1 Iron and 1 Gold from each player, never below 0; medals first."""
    base = stage_mine(start(2, first_player=0), {"13": "M04", "23": "M30"})
    base = give(base, 0, iron=2, gold=2)
    s = passes(passes(place(place(base, 0, "11"), 1, "12"), 1), 0)
    assert [(p["iron"], p["gold"]) for p in s["players"]] == [(1, 1), (0, 0)]
    assert s["players"][0]["medal"] == 1 and s["players"][1]["medal"] == 1


def test_DW_GLOS_4_DW_AMB_2_orc_raiders_stop_forging_and_the_forge_pass():
    """DW-GLOS-4, DW-AMB-2, DW-AMB-41, DW-RN-7, DW-RN-13, DW-FP-3: undefended Orc Raiders: no Forge action this round and
    no first-player pass for forging; defended, the forge resolves and the marker passes."""
    base = give(stage_mine(start(2, first_player=0), {"13": "M14", "31": "S7"}), 0, steel=3)
    s = passes(passes(place(place(base, 0, "31"), 1, "11"), 1), 0)
    assert s["players"][0]["object"] == 0 and s["first"] == 0
    s = passes(place(place(place(base, 0, "31"), 1, "13"), 1, "11"), 0)
    assert s["players"][0]["object"] == 1 and s["first"] == 1


def test_DW_AMB_2_orc_raiders_next_round_option():
    """DW-AMB-2 option orc_raiders_timing = next_round: the ban falls on the next round."""
    base = give(stage_mine(start(2, first_player=0, orc_raiders_timing="next_round"),
                           {"13": "M14", "31": "S7"}), 0, steel=6)
    s = passes(passes(place(place(base, 0, "31"), 1, "11"), 1), 0)
    assert s["players"][0]["object"] == 1 and s["ban_next"] == "forge"
    assert s["first"] == 1  # player 0 forged as first player (DW-FP-3)
    s = stage_mine(s, {"31": "S7"})
    s = passes(passes(place(place(s, 1, "11"), 0, "31"), 0), 1)
    assert s["round"] == 3 and s["players"][0]["object"] == 1 and s["players"][0]["steel"] == 3


def test_DW_FP_2_DW_FP_3_DW_AMB_5_DW_EOR_4_marker_moves_only_by_actions():
    """DW-FP-2/3, DW-AMB-5, DW-RN-6, DW-EOR-4: Receive Help passes it, then the new holder's Forge
    passes it again; a round with neither leaves it where it is."""
    s = stage_mine(start(3, first_player=0), {"11": "M05", "31": "S7"})
    s = give(s, 1, steel=3)
    s = place(s, 0, "11")
    s = place(s, 1, "31")
    s = place(s, 2, "33")
    s = passes(passes(passes(s, 2), 1), 0)
    s = passes(passes(s, 0), 0)
    assert s["first"] == 2
    s = stage_mine(s)
    for _ in range(6):
        cmds = GAME.legal_commands(s, who(s))
        s = act(s, who(s), next(c for c in cmds if c["type"] == "place"))
    assert s["first"] == 2 and s["round"] == 3


def test_DW_FP_3_pass_types_option_defend():
    """DW-AMB-4 option first_player_pass_types: with only defend, a defending holder passes."""
    s = stage_mine(start(2, first_player=0, first_player_pass_types=["defend"]))
    s = passes(passes(place(place(s, 0, "11"), 1, "12"), 1), 0)
    assert s["first"] == 1


def test_DW_EX_14_DW_END_1_DW_EOR_1_2_3_four_objects_finish_the_round():
    """DW-EX-14, DW-END-1, DW-EOR-1..3, DW-AMB-23: the 4th Object in the Forge step; the
    Defend step and the end of the round are still played, then the game ends."""
    s = stage_mine(start(2, first_player=0), {"31": "S7"})
    s = give(s, 0, steel=3, object=3)
    s = place(s, 0, "31")
    s = place(s, 1, "11")
    s = passes(s, 1)
    events = GAME.decide(s, 0, {"type": "pass"}, None)
    kinds = types(events)
    assert kinds.index("ActionResolved") < kinds.index("Gained") < kinds.index("RoundEnded") < kinds.index("GameEnded")
    end = apply(s, events)
    assert end["ended"] == "four_objects" and end["workers"] == {} and end["unplaced"] == [2, 2]


def test_DW_AMB_6_DW_END_5_round_limit_option():
    """DW-AMB-6, DW-END-5: no round limit by default; round_limit ends after that round."""
    s = stage_mine(start(2, first_player=0, round_limit=1))
    s = passes(passes(place(place(s, 0, "11"), 1, "12"), 1), 0)
    assert s["ended"] == "round_limit"


def test_DW_AMB_43_skipped_when_nothing_is_possible():
    """DW-AMB-43: no location and no Special Action: the player is skipped."""
    s = stage_mine(start(3, first_player=0))
    s = apply(s, [event("PilesDealt", area=0, piles=[[], [], []])])
    for seat, loc in ((0, "11"), (1, "12"), (2, "13"), (2, "21"), (1, "22"), (0, "23")):
        s = place(s, seat, loc)
    assert s["round"] == 2


def test_DW_GRID_1_DW_GRID_2_DW_GRID_3_DW_AMB_36_locations_and_reading_order():
    """DW-GRID-1/2/3, DW-AMB-36: L(r,c) with row 1 at the top; reading index 3(r-1)+c; rows and columns."""
    from domain.dwarf.grid import column_mates, places, reading_index, row_mates
    assert [reading_index(loc) for loc in LOCATIONS] == list(range(1, 10))
    assert LOCATIONS[0] == "11" and LOCATIONS[-1] == "33"
    assert row_mates("22") == ["21", "23"] and column_mates("22") == ["12", "32"]
    assert places(2)[9] == "1:11"


def test_DW_AMB_13_extra_workers_act_after_normal_workers():
    """DW-AMB-13: within a step, normal workers first, then extras: an extra's Iron Vein
    comes too late for the same player's normal Alloy Steel."""
    base = stage_mine(start(2, first_player=0), {"22": "S5", "11": "S4", "12": "S1"})
    s = place(base, 0, "22")  # Receive Help
    s = place(s, 1, "33")
    s = passes(s, 1)
    s = place(s, 0, "11")  # normal worker on Alloy Steel (no Iron yet)
    s = place(s, 0, "12")  # extra worker on Iron Vein
    s = passes(s, 0)
    assert (s["players"][0]["iron"], s["players"][0]["steel"]) == (2, 0)


def test_DW_AMB_18_early_defend_and_early_receive_help():
    """DW-AMB-18: a covered Defend card gives its Medal at once; a covered Receive Help
    gives the right to 2 extras, placed in the Receive Help step."""
    s = stage_mine(start(2, first_player=1), {"31": GUARD, "22": "S5"})
    s = apply(s, [event("PilesDealt", area=0, piles=[["X7", "X5"], [], []])])
    s = place(s, 1, "31")
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})  # X7 covers L(3,1)
    assert s["players"][1]["medal"] == 1 and s["workers"]["0:31"]["done"]
    s = place(s, 1, "22")
    assert s["phase"] == "help" and s["extras"][1] == 2
    s = stage_mine(start(2, first_player=1), {"22": "S5"})
    s = apply(s, [event("PilesDealt", area=0, piles=[["X5"], [], []])])
    s = place(s, 1, "22")
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})  # X5 covers the Receive Help
    s = place(s, 1, "11")
    assert s["phase"] == "help" and [q["player"] for q in s["queue"]] == [1, 1]


def test_DW_AMB_40_workers_on_piles_occupy_no_location():
    """DW-AMB-40, DW-SPEC-3: after a Special Action every location is still free, and the
    same pile can be used again in the round."""
    s = stage_mine(start(3, first_player=0))
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert s["workers"] == {} and s["pile_workers"][0] == 2
    assert any(c == {"type": "special", "pile": 0, "pay": False} for c in GAME.legal_commands(s, 1))


def test_DW_AMB_3_DW_RN_8_defend_is_the_last_step():
    """DW-AMB-3, DW-RN-8, DW-RES-1: Receive Help, Mine, Forge, then Defend and threats."""
    s = stage_mine(start(2, first_player=0), {"22": "S5", "11": "S1", "31": "S7"})
    s = give(s, 1, steel=3)
    s = place(place(s, 0, "22"), 1, "31")
    s = place(passes(s, 1), 0, "11")
    s = place(s, 0, "13")
    events = GAME.decide(s, 0, {"type": "pass"}, None)
    kinds = [(e["type"], e["data"].get("effect") or e["data"].get("why")) for e in events]
    order = [kinds.index(("ActionResolved", "iron_vein")), kinds.index(("ActionResolved", "forge_sword")),
             kinds.index(("Gained", "valour"))]
    assert order == sorted(order)
