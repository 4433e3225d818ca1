"""Solo mode (DW-SOLO, DW-ELD, DW-AND, DW-FAD): the automaton is a game-driven
participant; ``turn`` names it and ``decide_actor`` plays it."""
from __future__ import annotations

import pytest

from domain.core import Illegal, event
from domain.dwarf import automaton, content
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, apply, give, step_actor, who
from tests.support.positions import edit
from tests.dwarf.dwarf_support import start as _start
from tests.dwarf.test_dwarf_rounds import passes, place, stage_mine

AUTO = 1  # the automaton's participant index in a one-seat game


def start(level="eldhusfifl", **options):
    return _start(1, solo_level=level, **options)


def mined(s: dict, card: str) -> dict:
    """Make ``card`` the card most recently mined this round (DW-MINE-4)."""
    return apply(s, [event("MountainShuffled", area=0, cards=[card] + s["areas"][0]["mountain"]),
                     event("CardMined", area=0, location=content.card(card).location, card=card)])


def test_DW_SOLO_1_DW_SOLO_3_DW_SOLO_4_order_automaton_human_automaton_human():
    """DW-SOLO-1/3/4, DW-FP-4, DW-COMP-3: a one-seat game adds actor:automaton; it is first
    every round; placements go A, H, A, H; the marker never moves."""
    s = stage_mine(start())
    assert s["players"][AUTO]["id"] == "actor:automaton" and s["first"] == AUTO
    assert GAME.turn(s).actor == "automaton" and GAME.active_seats(s) == set()
    order = []
    for _ in range(4):
        order.append(who(s))
        s = step_actor(s) if who(s) == "automaton" else place(s, 0, GAME.legal_commands(s, 0)[0]["location"])
    assert order == ["automaton", 0, "automaton", 0]
    assert s["round"] == 2 and s["first"] == AUTO
    with pytest.raises(Illegal):
        GAME.decide_actor(s, "monster", None)


def test_DW_ELD_1_DW_ELD_2_first_worker_on_primary_of_most_recent_card():
    """DW-ELD-1/2, DW-MINE-4: the primary icon of the card most recently mined."""
    s = mined(stage_mine(start()), "M07")  # primary 12
    s = step_actor(s)
    assert s["workers"]["0:12"]["player"] == AUTO


def test_DW_ELD_3_DW_ELD_4_second_worker_reads_the_humans_card_then_fallback():
    """DW-ELD-3/4, DW-RN-9: the grid of the card the human chose; its primary taken, the fallback."""
    s = mined(stage_mine(start(), {"23": "M26"}), "M07")  # M26: primary 23, fallback 33
    s = step_actor(s)
    s = place(s, 0, "23")
    s = step_actor(s)
    assert s["workers"]["0:33"]["player"] == AUTO


def test_DW_ELD_3_special_action_card_is_read_when_the_human_took_one():
    """DW-ELD-3: after a Special Action the grid of the card taken is read (X4: primary 31)."""
    s = mined(stage_mine(start()), "M07")
    s = apply(s, [event("PilesDealt", area=0, piles=[["X4"], ["X5"], ["X6"]])])
    s = step_actor(s)
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    placed = GAME.decide_actor(s, "automaton", None)[0]
    assert placed["data"]["place"] == "0:31"


def test_DW_AMB_26_both_icons_taken_first_free_in_reading_order():
    """DW-AMB-26."""
    s = mined(stage_mine(start(), {"23": "M26"}), "M07")
    s = step_actor(s)  # 12
    s = apply(s, [event("WorkerPlaced", player=0, place="0:33", card="X7", action="defend", extra=False,
                        slot="instant")])
    s = place(s, 0, "23")
    placed = GAME.decide_actor(s, "automaton", None)[0]
    assert placed["type"] == "WorkerPlaced" and placed["data"]["place"] == "0:11"


def test_DW_EX_12_DW_ELD_5_DW_AMB_27_extra_workers_row_then_column():
    """DW-EX-12, DW-ELD-5, DW-AMB-27: row has one free location, so both go in the column."""
    s = stage_mine(start())
    s = apply(s, [event("WorkerPlaced", player=0, place="0:23", card="X7", action="defend", extra=False,
                        slot="instant")])
    assert automaton.extras(s, AUTO, "eldhusfifl", "0:22") == ["0:12", "0:32"]
    assert automaton.extras(stage_mine(start()), AUTO, "eldhusfifl", "0:22") == ["0:21", "0:23"]
    s = apply(s, [event("WorkerPlaced", player=0, place="0:12", card="X7", action="defend", extra=False,
                        slot="instant")])
    assert automaton.extras(s, AUTO, "eldhusfifl", "0:22") == ["0:21", "0:32"]
    s = apply(s, [event("WorkerPlaced", player=0, place=p, card="X7", action="defend", extra=False, slot="instant")
                  for p in ("0:21", "0:32")])
    assert automaton.extras(s, AUTO, "eldhusfifl", "0:22") == ["0:11", "0:13"]


def test_DW_SOLO_5_extras_placed_at_once_and_block_the_human():
    """DW-SOLO-5, DW-AND-3: on Receive Help the automaton's two extras come at once."""
    s = mined(stage_mine(start(), {"22": "S5"}), "S5")  # S5 primary 22
    s = step_actor(s)
    assert {w: x["extra"] for w, x in s["workers"].items()} == {"0:22": False, "0:21": True, "0:23": True}
    assert {"type": "place", "mine": 0, "location": "21"} not in GAME.legal_commands(s, 0)


def test_DW_SOLO_4_DW_SOLO_5_DW_FAD_2_an_automaton_step_is_labelled_by_what_it_placed():
    """The move list read "automaton plays" for every step of the automaton: its label says where its
    worker went, with the extras its Receive Help places at once, or that faðir kept it back."""
    def label(s):
        return GAME.actor_label(s, "automaton", GAME.decide_actor(s, "automaton", None), public=True)

    assert label(mined(stage_mine(start(), {"12": "S2", "31": "S7"}), "M07")) == \
        "Place a worker on Gold Vein (Veta de Oro) at 12 (1 gold)"
    assert label(mined(stage_mine(start(), {"22": "S5", "21": "S4", "23": "S7"}), "S5")) == \
        "Place a worker on Receive Help (Recibir Ayuda) at 22, and its extra workers on Alloy Steel " \
        "(Alear acero) at 21 (3 iron -> 2 steel) and Forge Sword (Forjar Espada) at 23 (3 steel -> 1 object)"
    nothing = stage_mine(mined(start("andvettr-fadir"), "M07"), {loc: "S7" for loc in ("11", "12", "13", "21", "22",
                                                                                       "23", "31", "32", "33")})
    assert label(nothing) == "Pass: leave the worker unplaced (no usable location)"


def test_DW_SOLO_6_DW_SOLO_7_automaton_never_takes_special_and_resolves_like_a_player():
    """DW-SOLO-6/7, DW-AMB-39: no Special Action; its workers resolve; unpaid does nothing."""
    s = mined(stage_mine(start(), {"12": "S2", "31": "S7"}), "M07")
    s = step_actor(s)
    s = place(s, 0, "11")
    s = apply(s, [event("PilesDealt", area=0, piles=[["X1"], [], []])])
    s = step_actor(s)
    s = passes(s, 0)
    assert s["players"][AUTO]["gold"] == 1 and s["players"][AUTO]["specials"] == 0


def test_DW_AND_1_DW_AND_2_DW_AMB_28_second_worker_takes_receive_help():
    """DW-AND-1/2, DW-AMB-28, DW-RN-10 (rules dwarf-4): Andvettr's second worker takes the first
    free Receive Help location, past a free Defend one; with none free, he places as Eldhusfifl."""
    cards = {loc: "S1" for loc in ("11", "12", "13", "21", "22", "23", "31", "33")}
    cards["22"] = "S5"  # Receive Help
    cards["32"] = "S8"  # Knockers
    s = mined(stage_mine(start("andvettr"), cards), "M07")
    s = step_actor(s)
    s = place(s, 0, "11")
    s = step_actor(s)
    assert s["workers"]["0:22"]["player"] == AUTO
    cards["22"] = "S1"
    s = mined(stage_mine(start("andvettr"), cards), "M07")
    s = place(step_actor(s), 0, "11")  # S1's primary icon is 11, its fallback 21
    s = step_actor(s)
    assert s["workers"]["0:21"]["player"] == AUTO and "0:32" not in s["workers"]


def test_DW_AND_2_DW_AMB_28_the_other_readings_as_options():
    """DW-AMB-28: rules dwarf-3's reading (the first free Defend location) and the literal one
    (the first free location) stay as ``andvettr_second_worker_rule``."""
    cards = {loc: "S1" for loc in ("11", "12", "13", "21", "22", "23", "31", "33")}
    cards["32"] = "S8"  # Knockers
    s = mined(stage_mine(start("andvettr", andvettr_second_worker_rule="defend"), cards), "M07")
    s = step_actor(s)
    s = place(s, 0, "11")
    s = step_actor(s)
    assert s["workers"]["0:32"]["player"] == AUTO
    s = mined(stage_mine(start("andvettr", andvettr_second_worker_rule="any_empty"), cards), "M07")
    s = place(step_actor(s), 0, "13")
    s = step_actor(s)
    assert s["workers"]["0:11"]["player"] == AUTO


def test_DW_AND_4_DW_AMB_29_unusable_choice_scans_forward_then_returns():
    """DW-AND-4, DW-AMB-29: Forge without the Steel: the next usable location after it;
    none after it: back to the rejected one (no wrap)."""
    cards = {loc: "S7" for loc in ("11", "12", "13", "21", "22", "23", "31", "32", "33")}
    cards["23"] = "S2"  # Gold Vein after L(1,2)
    s = stage_mine(mined(start("andvettr"), "M07"), cards)  # M07's primary 12: a forge he cannot pay
    assert automaton.choose(s, AUTO, "andvettr", False, s["last_mined"]) == "0:23"
    cards["23"] = "S7"
    cards["11"] = "S2"
    s = stage_mine(mined(start("andvettr"), "M07"), cards)
    assert automaton.choose(s, AUTO, "andvettr", False, s["last_mined"]) == "0:12"
    assert automaton.choose(s, AUTO, "eldhusfifl", False, s["last_mined"]) == "0:12"


def test_DW_FAD_1_DW_FAD_2_DW_FAD_3_DW_AMB_30_father_searches_everywhere_or_stays_off():
    """DW-FAD-1/2/3, DW-AMB-30, DW-RN-11: with nothing usable after the choice, faðir takes the first
    usable location from L(1,1); with nothing usable at all, the worker stays off the board."""
    cards = {loc: "S7" for loc in ("11", "12", "13", "21", "22", "23", "31", "32", "33")}
    cards["11"] = "S2"
    s = stage_mine(mined(start("andvettr-fadir"), "M07"), cards)
    assert automaton.choose(s, AUTO, "andvettr-fadir", False, s["last_mined"]) == "0:11"
    cards["11"] = "S7"
    s = stage_mine(mined(start("andvettr-fadir"), "M07"), cards)
    assert automaton.choose(s, AUTO, "andvettr-fadir", False, s["last_mined"]) is None
    s = step_actor(s)
    assert s["workers"] == {} and s["queue"][0] == {"player": 0, "slot": "first"}


def first_worker_acts(s: dict, loc: str, card: str, action: str, **held) -> dict:
    """The automaton, holding ``held``, puts its first worker on ``card`` at ``loc`` (the card
    just mined there); its second worker goes by its rules (to a Guard Post elsewhere), the
    player's to L(1,1); then the round is resolved."""
    s = give(mined(stage_mine(s, {loc: card}), card), AUTO, **held)
    s = apply(s, [event("WorkerPlaced", player=AUTO, place=f"0:{loc}", card=card, action=action, extra=False,
                        slot="first")])
    return passes(step_actor(place(s, 0, "11")), 0)


def test_DW_AND_5_DW_AMB_31_the_master_of_the_anvil_forges_twice():
    """DW-AND-5, DW-AMB-31 (rules dwarf-4): Andvettr carries out a Forge action twice if he can pay
    the second time from what the first left (6 Steel: 2 Swords, 5 Steel: 1); a Mine action (Alloy
    Steel) and a Defend once; Eldhusfifl never doubles."""
    for level, steel, objects in (("andvettr", 6, 2), ("andvettr", 5, 1), ("eldhusfifl", 6, 1)):
        s = first_worker_acts(start(level), "31", "S7", "forge", steel=steel)  # S7: Forge Sword at 31
        assert s["players"][AUTO]["created"] == objects, level
    s = first_worker_acts(start("andvettr"), "21", "S4", "mine", iron=6)  # S4 primary 31: a guard post
    assert s["players"][AUTO]["steel"] == 2 and s["players"][AUTO]["medal"] == 1  # once each


def test_DW_AND_5_DW_AMB_31_every_action_twice_as_an_option():
    """DW-AMB-31, ``andvettr_double_actions = all`` (rules dwarf-3's reading): with 6 Iron Alloy
    Steel runs twice, with 5 once; Defend gives 2 Medals; Eldhusfifl never doubles."""
    for level, iron, steel in (("andvettr", 6, 4), ("andvettr", 5, 2), ("eldhusfifl", 6, 2)):
        s = first_worker_acts(start(level, andvettr_double_actions="all"), "21", "S4", "mine", iron=iron)
        assert s["players"][AUTO]["steel"] == steel, level
    assert s["players"][AUTO]["medal"] == 1  # eldhusfifl defended a guard post once


def test_DW_EX_13_DW_AND_6_DW_AND_8_DW_END_3_DW_AMB_32_medals_and_instant_win():
    """DW-EX-13, DW-AND-6/8, DW-END-3/4, DW-AMB-32: 9 Medals + 3 for the human's 3rd Special
    Action = 12, not more than 12; a defence then gives 13 (rules dwarf-4: once, DW-AND-5; 14 with
    ``andvettr_double_actions = all``) and he wins at once."""
    for double, medals in (("forge", 13), ("all", 14)):
        _instant_win(double, medals)


def _instant_win(double: str, medals: int) -> None:
    s = mined(stage_mine(start("andvettr", andvettr_double_actions=double)), "M07")
    s = give(s, AUTO, medal=9)
    edit(GAME, s, "players.0.specials = 2")  # staged: the human took two Special Actions earlier
    s = step_actor(s)
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert s["players"][AUTO]["medal"] == 12 and s["ended"] is None
    while s["ended"] is None:
        s = step_actor(s) if who(s) == "automaton" else passes(s, 0)
    assert s["ended"] == "automaton_medals" and s["players"][AUTO]["medal"] == medals
    board = GAME.scores(s)
    assert board.result().kind == "no_player_wins" and board.result().winners == ("actor:automaton",)


def test_DW_AND_6_medals_for_each_special_action():
    """DW-AND-6: 1, 2, 3 Medals for the human's 1st, 2nd, 3rd Special Action."""
    s = mined(stage_mine(start("andvettr")), "M07")
    s = step_actor(s)
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert s["players"][AUTO]["medal"] == 1


def test_DW_AND_7_DW_SPEC_9_DW_AMB_33_three_special_actions_only_against_andvettr():
    """DW-AND-7, DW-SPEC-9, DW-AMB-33: the 4th is refused against Andvettr and faðir, allowed
    against Eldhusfifl."""
    for level, allowed in (("andvettr", False), ("andvettr-fadir", False), ("eldhusfifl", True)):
        s = step_actor(mined(stage_mine(start(level)), "M07"))
        edit(GAME, s, "players.0.specials = 3")
        assert any(c["type"] == "special" for c in GAME.legal_commands(s, 0)) is allowed
        if not allowed:
            with pytest.raises(Illegal) as err:
                act(s, 0, {"type": "special", "pile": 0})
            assert err.value.rule == "DW-AND-7"


def test_DW_AMB_38_human_first_worker_is_never_covered_before_the_automaton_reads_it():
    """DW-AMB-38: the automaton places right after the human's first placement, so the card
    it reads is the one the human chose."""
    s = mined(stage_mine(start(), {"23": "M26"}), "M07")
    s = place(step_actor(s), 0, "23")
    assert s["first_refs"][0] == {"area": 0, "card": "M26"} and who(s) == "automaton"


def test_DW_AMB_33_eldhusfifl_gains_no_medals_for_any_number_of_special_actions():
    """DW-AMB-33, DW-SPEC-8: against Eldhusfifl a 4th and 5th Special Action are fine and
    give the automaton nothing."""
    s = step_actor(mined(stage_mine(start("eldhusfifl")), "M07"))
    edit(GAME, s, "players.0.specials = 4")
    medals = s["players"][AUTO]["medal"]
    s = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert s["players"][0]["specials"] == 5 and s["players"][AUTO]["medal"] == medals
