"""More given/when/then tests, one per normative rule ID no other test cites exactly.

Same style as test_mk_rule_ids.py, whose positions are reused: a game past doors
and draft, then storage, rosters, doors and pieces set by the text position
where geometry or history is not the point of the rule.
"""
import json

import pytest

from domain.core import Illegal
from domain.mountain_king import content, terrain
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.economy import spendable
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import breakdowns

from mk_driver import apply, new_game, ready, types
from tests.support.positions import edit, position
from test_mk_rule_ids import (D_CORNER, FIRST_TURN, NINE, ROW12, TEAMS, WINTER, d_corner, find_dig, level, moves)

FULL_ROSTER = FIRST_TURN + """
    roster 0 2,1 2,2 2,3 3,1 3,2 4,1    # with the 4 starters: 10 trolls, nothing more to recruit
"""

COIN_PRESS = FIRST_TURN + """
    only_doors 0=12,2
    workshop 12,3 coin_press
    tunnel t1 0 11,2 11,3
    tunnel t2 0 13,2 13,3               # three open entrances
"""


# --------------------------------------------------------------------------- helpers

def of_type(cmds, kind):
    return [c for c in cmds if c["type"] == kind]


def event(events, kind):
    return next(e["data"] for e in events if e["type"] == kind)


# --------------------------------------------------------------------------- general, board, setup

def test_MK_GEN_1_two_to_five_players():
    for n in (2, 3, 4, 5):
        assert GAME.validate_options({}, n)["board"] in ("winter", "autumn")
        assert len(new_game(n)[0]["rosters"]) == n
    for n in (1, 6):
        with pytest.raises(Illegal) as e:
            GAME.validate_options({}, n)
        assert e.value.rule == "MK-GEN-1"
    assert GAME.validate_options({"teams": True}, 4)["teams"]  # the 2v2 variant: exactly 4


def test_MK_BOARD_4_five_levels_score_2_to_10_doubled_on_a_same_clan_pedestal():
    got = {}
    for lv in (1, 2, 3, 4, 5):
        a, b = next((c, n) for c in sorted(WINTER.levels) if WINTER.level(c) == lv and WINTER.coverable(c)
                    for n in WINTER.neighbours(c) if WINTER.level(n) == lv and WINTER.coverable(n))
        _, s = position(FIRST_TURN + f"""
            storage 0
            only_doors 0={a[0]},{a[1]}
            tunnel t1 0 {b[0]},{b[1]} anchor={b[0]},{b[1]} pedestal=fire
            statue {a[0]},{a[1]} ice           # on the door: no pedestal
        """)
        base = breakdowns(s)[0]["statues"]
        edit(GAME, s, f"""
            statues = {{}}
            statue {b[0]},{b[1]} fire          # on its own clan's pedestal
        """)
        got[lv] = (base, breakdowns(s)[0]["statues"])
    assert got == {1: (2, 4), 2: (4, 8), 3: (6, 12), 4: (8, 16), 5: (10, 20)}


def test_MK_BOARD_7_workshop_spaces_have_four_sides_outnumber_tiles_and_are_never_dug():
    assert len(WINTER.workshop_spaces) > 2 * 5 + 1 and len(content.board("autumn").workshop_spaces) > 2 * 3 + 1
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        only_doors 0=9,1
        tunnel t1 0 8,1 8,2 8,3 9,3
        tunnel t2 0 10,1 10,2
        workshop 9,2 stone_mill       # a workshop space: four sides, four entrances
    """)
    assert (9, 2) in WINTER.workshop_spaces
    s, ev = apply(s, 0, {"type": "use_workshop", "space": [9, 2], "give": {"stone": 1}, "get": {"iron": 1}})
    assert ev[0]["data"]["uses"] == 4  # one entrance per side
    _, t = position(D_CORNER + "storage 0 stone=3")
    cmd = d_corner(t)  # digs next to the empty workshop spaces (4, 1) and (4, 5)
    edit(GAME, t, "workshop 4,5 tool_forge")
    spaces = set(WINTER.workshop_spaces)
    assert cmd and not [d for d in dig_commands(t, 0) if spaces & {tuple(x) for x in d["cells"]}]
    for shift in (-1, 1):  # the same I3 one space west (empty space), then east (built)
        moved = dict(cmd, cells=[[r, c + shift] for r, c in cmd["cells"]],
                     anchor=[cmd["anchor"][0], cmd["anchor"][1] + shift])
        with pytest.raises(Illegal) as e:
            apply(t, 0, moved)
        assert (e.value.code, e.value.rule) == ("covers_workshop_space", "MK-DIG-7")


def test_MK_COMP_22_five_colours_one_named_magenta():
    assert len(content.colours()) == 5 and "magenta" in content.colours()
    s = ready(5)
    assert sorted(s["colours"]) == sorted(content.colours())


@pytest.mark.parametrize("slot, below", [
    ("M1", {"B1", "B2"}), ("M2", {"B2", "B3"}), ("M3", {"B3", "B4"}), ("M4", {"B4", "B5"}),
    ("T1", {"M1", "M2", "B1", "B2", "B3"}), ("T2", {"M2", "M3", "B2", "B3", "B4"}),
    ("T3", {"M3", "M4", "B3", "B4", "B5"})])
def test_MK_SETUP_3_1_each_slot_rests_on_the_slots_beneath(slot, below):
    _, s = position(FIRST_TURN + "storage 0 coin=5")
    s, ev = apply(s, 0, {"type": "recruit", "slot": slot, "position": [2, 1]})
    assert set(event(ev, "TrollRecruited")["bribed"]) == below
    assert {sl for sl, sp in s["horde"]["slots"].items() if sp["bribes"]} == below
    assert all(s["horde"]["slots"][sl]["bribes"] == {"coin": 1} for sl in below)


# --------------------------------------------------------------------------- the starter draft

def test_MK_AMB_10_draft_at_once_hand_owner_only_deck_card_unseen():
    s, _ = new_game(4)
    while s["phase"] == "doors":
        s, _ = apply(s, s["current"], GAME.legal_commands(s, s["current"])[0])
    assert GAME.active_seats(s) == {0, 1, 2, 3}
    events, last = [], {}
    for seat in (3, 1, 0, 2) * 4:  # any seat, in any order, independently
        if len(s["draft"][seat]["placed"]) == 3:
            last[seat] = s["draft"][seat]["deck"][0]  # the card nobody ever draws
        s, ev = apply(s, seat, GAME.legal_commands(s, seat)[0])
        events += ev
        if s["phase"] != "draft":
            break
        dr = s["draft"][seat]
        for viewer in (None, 0, 1, 2, 3):
            mine = GAME.view(s, viewer)["players"][seat]["draft"]
            assert mine["placed"] == dr["placed"]  # placed starters are public
            assert mine["hand"] == (dr["hand"] if viewer == seat else len(dr["hand"]))
            text = json.dumps(GAME.view(s, viewer))
            assert not [c for c in dr["deck"] if f'"{c}"' in text]  # nobody sees the deck card
    taken = {e["data"]["seat"]: e["data"]["cards"] for e in events if e["type"] == "StartingResourcesTaken"}
    for seat in (0, 1, 2):
        assert last[seat] not in taken[seat]  # unseen to the end
    assert last[3] in taken[3]  # revealed by the 4th player's bonus
    assert s["draft"] is None and "draft" not in GAME.view(s, 0)["players"][0]  # both to the box


# --------------------------------------------------------------------------- resources and carts

def test_MK_RES_3_spent_resources_return_to_the_supply_except_bribes_and_runes():
    _, s = position(FIRST_TURN + """
        storage 0 stone=7 coin=2 rune=1
        spell earth_ritual
    """)
    supply = dict(s["supply"])
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "iron"})
    assert s["supply"]["stone"] == supply["stone"] + 4 and s["supply"]["iron"] == supply["iron"] - 1
    s, _ = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert s["supply"]["rune"] == supply["rune"] and s["spells"]["book"][0]["runes"] == 1  # onto the card
    s, _ = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert s["supply"]["coin"] == supply["coin"] and s["stores"][0]["coin"] == 0  # onto B2 and B3
    assert s["horde"]["slots"]["B2"]["bribes"] == {"coin": 1} == s["horde"]["slots"]["B3"]["bribes"]
    _, t = position(FIRST_TURN + "storage 0 stone=3")
    stone = t["supply"]["stone"]
    t, _ = apply(t, 0, find_dig(t, 0, lambda c: len(c["cells"]) == 3 and c["mineral"] == "stone"))
    assert t["supply"]["stone"] == stone + 3 and t["stores"][0]["stone"] == 0


def test_MK_RES_4_gains_come_from_the_supply_into_storage_without_limit():
    _, s = position("""
        mountain-king 3 seed=seed options={"unlimited_supply": true}
        opening
        empty_trolls 0
        storage 0 stone=400 coin=4
    """)
    supply = dict(s["supply"])
    s, _ = apply(s, 0, {"type": "trade", "give": {"coin": 4}, "get": "stone"})
    assert s["stores"][0]["stone"] == 401 and s["supply"]["stone"] == supply["stone"] - 1
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    filled = event(ev, "TrollsActivated")["filled"]
    assert filled and s["stores"][0]["stone"] == 401  # production stays on the trolls (MK-CASC-4)
    assert all(s["rosters"][0][pos]["held"][i] for pos, i in filled)


def test_MK_RES_5_one_token_per_empty_symbol_of_its_own_type():
    _, s = position(FIRST_TURN + """
        storage 0 stone=2
        troll 0 1,1 magenta-1 10      # [stone, stone], one covered
        troll 0 1,2 magenta-4 1       # [heartstone], covered
        horde B1 coin+cart:fire
    """)
    stone, heart = s["supply"]["stone"], s["supply"]["heartstone"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    filled = event(ev, "TrollsActivated")["filled"]
    assert sorted(p for p in filled if p[0] in ("1,1", "1,2")) == [["1,1", 1]]
    assert s["rosters"][0]["1,1"]["held"] == [True, True] and s["rosters"][0]["1,2"]["held"] == [True]
    assert (s["supply"]["stone"], s["supply"]["heartstone"]) == (stone - 1, heart)
    # spending from a troll frees its symbol, so the next activation fills it again
    edit(GAME, s, "new_turn 0")
    s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 2 and c["mineral"] == "stone"))
    assert s["rosters"][0]["1,1"]["held"] == [False, False]  # trolls are drawn on first
    edit(GAME, s, "new_turn 0")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B2", "position": [2, 2]})
    assert ["1,2", 0] not in event(ev, "TrollsActivated")["filled"]  # still covered
    edit(GAME, s, "new_turn 0")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B3", "position": [3, 1]})
    assert {"1,1"} <= {p for p, _i in event(ev, "TrollsActivated")["filled"]}
    assert s["rosters"][0]["1,1"]["held"] == [True, True]


def test_MK_CART_4_workshop_carts_in_storage_are_wild():
    _, s = position(ROW12 + """
        statues = {"12,2": "ice"}
        storage 0 stone=2
        tunnel t1 0 12,3
        workshop 11,2 swivel_bolts
        new_turn 0
    """)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [11, 2], "give": {"stone": 2}, "get": {"cart": 1}})
    assert s["stores"][0]["cart"] == 1
    t = edit(GAME, json.loads(json.dumps(s)), "step statues")
    assert {m["cart"] for m in moves(t)} == {"wild"}  # moves an Ice statue: any clan
    t, ev = apply(t, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert ev[-1]["data"]["paid"] == {"storage": {"cart": 1}, "trolls": []}
    edit(GAME, s, """
        workshop 11,2 cartwrights_house   # the same storage cart is welcome there (MK-CART-6)
        turn.ws = null
    """)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [11, 2], "give": {"cart": 1}, "get": {"heartstone": 1}})
    assert s["stores"][0]["heartstone"] == 1 and s["stores"][0]["cart"] == 0


def test_MK_MOVE_6_a_clan_cart_pays_only_for_its_own_clan():
    _, s = position(ROW12 + """
        statues = {"12,2": "ice", "12,5": "fire"}
        storage 0
        tunnel t1 0 12,3 13,3
        tunnel t2 0 12,4 12,5
        troll 0 1,1 stone+cart:fire 01
    """)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "clan"})
    assert e.value.rule == "MK-MOVE-6"
    with pytest.raises(Illegal) as e:  # and it is no wild cart either
        apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert e.value.code == "cannot_pay"
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 5], "to": [12, 3], "cart": "clan"})
    assert s["rosters"][0]["1,1"]["held"] == [False, False]
    edit(GAME, s, "storage 0 cart=1")
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [13, 3], "cart": "wild"})
    assert s["statues"] == {"12,3": "fire", "13,3": "ice"} and s["stores"][0]["cart"] == 0


# --------------------------------------------------------------------------- turn structure

def test_MK_TURN_1_four_steps_in_order():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire"}
        storage 0 cart=1 rune=1
        spell earth_ritual
        tunnel t1 0 12,3 12,4 12,5 12,6 12,7
        halls = ["hall-of-echoes"]
        new_turn 0
    """)
    steps = []
    for cmd in ({"type": "cast", "spell": "earth_ritual"},
                {"type": "recruit", "slot": "B1", "position": [2, 1]},
                {"type": "build_hall", "hall": "hall-of-echoes", "cells": [[12, c] for c in range(3, 8)],
                 "altar": [12, 5]},
                {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"}):
        s, _ = apply(s, 0, cmd)
        steps.append(s["turn"]["step"])
    assert steps == ["spells", "hall", "hall", "statues"]
    s, ev = apply(s, 0, {"type": "end_step"})  # after step 4 the turn is over
    assert types(ev) == ["TurnEnded", "TurnStarted"]
    _, t = position(FIRST_TURN + """
        storage 0
        new_turn 0
    """)
    walked = []
    for cmd in ({"type": "end_step"}, {"type": "recruit", "slot": "B1", "position": [2, 1]}, {"type": "end_step"}):
        t, _ = apply(t, 0, cmd)
        walked.append(t["turn"]["step"])
    assert walked == ["action", "hall", "statues"]


def test_MK_TURN_4_trade_at_any_moment_of_your_own_turn():
    _, s = position(FIRST_TURN + """
        storage 0 stone=26 iron=3
        door 0 3,15
        workshop 3,16 stone_mill
        pieces.x1 = {"kind": "door", "cells": [[2, 16]], "seat": 1}   # a second open entrance
    """)
    trade = {"type": "trade", "give": {"stone": 4}, "get": "rune"}
    seen = []

    def trade_here(state):
        before = json.loads(json.dumps(state["turn"]))
        state, ev = apply(state, 0, trade)
        assert types(ev) == ["Traded"] and state["turn"] == before  # no step moves
        seen.append(state["turn"]["step"])
        return state

    s = trade_here(s)  # before step 1 acts
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [3, 16], "give": {"stone": 1}, "get": {"iron": 1}})
    s = trade_here(s)  # inside the workshop activation
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [3, 16], "give": {"stone": 1}, "get": {"iron": 1}})
    s, _ = apply(s, 0, {"type": "end_step"})
    s = trade_here(s)  # step 2, before acting
    s, _ = apply(s, 0, find_dig(s, 0, lambda d: d["mineral"] == "iron" and len(d["cells"]) == 3))
    s = trade_here(s)  # between the dig and its follow-ups
    s, _ = apply(s, 0, {"type": "end_step"})
    s = trade_here(s)  # step 3
    s, _ = apply(s, 0, {"type": "end_step"})
    s = trade_here(s)  # step 4
    assert seen == ["spells", "spells", "action", "followup", "hall", "statues"]
    assert s["stores"][0]["rune"] == 6
    s, _ = apply(s, 0, {"type": "end_turn"})
    with pytest.raises(Illegal) as e:  # only on your own turn (MK-TURN-5)
        apply(s, 0, trade)
    assert e.value.code == "not_your_turn"


# --------------------------------------------------------------------------- step 2: recruit or dig

def test_MK_ACT_4_neither_possible_skip_step_2():
    _, s = position(FIRST_TURN + """
        storage 0 stone=1
        empty_horde                   # nothing to recruit
    """)
    cmds = GAME.legal_commands(s, 0)
    assert not of_type(cmds, "recruit") and not of_type(cmds, "dig") and {"type": "end_turn"} in cmds
    s, ev = apply(s, 0, {"type": "end_step"})
    s, ev = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "hall" and s["turn"]["acted"]  # step 2 skipped
    _, t = position(FIRST_TURN + """
        storage 0 stone=1
        empty_horde B5
    """)
    with pytest.raises(Illegal) as e:  # one free bottom-row troll: you must recruit
        apply(t, 0, {"type": "end_turn"})
    assert e.value.code == "must_recruit_or_dig"


def test_MK_AMB_2_can_dig_means_a_whole_legal_payable_dig_and_trades_are_never_forced():
    _, s = position(FULL_ROSTER + """
        storage 0 stone=5
        tiles_left                    # no tile left in supply
    """)
    assert {"type": "end_turn"} in GAME.legal_commands(s, 0)
    apply(s, 0, {"type": "end_turn"})
    _, s = position(FULL_ROSTER + "storage 0 stone=1 coin=4")
    assert {"type": "end_turn"} in GAME.legal_commands(s, 0)  # a trade could make a dig possible: not forced
    s, _ = apply(s, 0, {"type": "trade", "give": {"coin": 4}, "get": "stone"})
    assert of_type(GAME.legal_commands(s, 0), "dig")  # a trade made earlier counts
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "end_turn"})
    assert e.value.code == "must_recruit_or_dig"
    # the rubble hammers count too: every placement here covers rubble
    _, s = position(FULL_ROSTER + """
        storage 0 stone=2
        door 0 1,4
        door 1 1,6
        tiles_left D2
    """)
    assert not of_type(GAME.legal_commands(s, 0), "dig") and {"type": "end_turn"} in GAME.legal_commands(s, 0)
    edit(GAME, s, "storage 0 stone=2 hammer=1")
    digs = of_type(GAME.legal_commands(s, 0), "dig")
    assert digs and all(any(tuple(x) in WINTER.rubble for x in d["cells"]) for d in digs)
    assert {"type": "end_turn"} not in GAME.legal_commands(s, 0)


# --------------------------------------------------------------------------- horde and roster

def test_MK_HORDE_1_an_emptied_slot_is_refilled_at_once_from_its_level():
    _, s = position(FIRST_TURN + """
        storage 0 coin=2
        bribes B3 coin=3
    """)
    gone = s["horde"]["slots"]["B3"]["card"]
    top1, top2 = s["horde"]["decks"]["1"][0], s["horde"]["decks"]["2"][0]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})  # B3's 4th bribe: it retires
    refills = [e["data"] for e in ev if e["type"] == "HordeRefilled"]
    assert [(d["slot"], d["card"], d["deck"]) for d in refills] == [("M2", top2, "2"), ("B3", top1, "1")]
    assert types(ev).index("TrollRetired") < types(ev).index("HordeRefilled", types(ev).index("TrollRetired"))
    assert s["horde"]["slots"]["B3"]["card"] == top1 and s["horde"]["decks"]["1"][-1] == gone
    assert all(spot["card"] for spot in s["horde"]["slots"].values())


def test_MK_AMB_5_fallback_order_by_row_and_empty_slots_need_no_bribe():
    def refill_from(slot, empty, coins=5):
        _, s = position(FIRST_TURN + f"storage 0 coin={coins}\n" + "\n".join(f"horde.decks.{lv} = []" for lv in empty))
        s, ev = apply(s, 0, {"type": "recruit", "slot": slot, "position": [2, 1]})
        return next(e["data"]["deck"] for e in ev if e["type"] == "HordeRefilled" and e["data"]["slot"] == slot), s

    assert refill_from("B1", ["1", "2"])[0] == "3"
    assert refill_from("M1", ["2"])[0] == "3"
    assert refill_from("M1", ["2", "3"])[0] == "1"
    assert refill_from("T1", ["3", "2"])[0] == "1"
    deck, s = refill_from("M1", ["1", "2", "3"])
    assert deck is None and s["horde"]["slots"]["M1"]["card"] is None  # the slot stays empty
    edit(GAME, s, """
        new_turn 0
        storage 0 coin=4
    """)
    assert "M1" not in {c["slot"] for c in of_type(GAME.legal_commands(s, 0), "recruit")}
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 2]})  # 4 coins: M1 needs none
    assert sorted(event(ev, "TrollRecruited")["bribed"]) == ["B1", "B2", "B3", "M2"]


def test_MK_AMB_6_the_row_sets_the_costs_the_printed_level_the_deck_and_tie_break():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        horde T1 deck:1               # a level-1 card in the top row
    """)
    offered = {c.get("pedestal") for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "T1"}
    assert offered > {None}  # the top row's choose-pedestal token
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert len(event(ev, "TrollRecruited")["bribed"]) == 5 and s["stores"][0]["coin"] == 0
    assert s["levels"][0] == 1
    _, t = position(FIRST_TURN + """
        storage 0
        horde B2 deck:3               # a level-3 card in the bottom row
    """)
    t, ev = apply(t, 0, {"type": "recruit", "slot": "B2", "position": [2, 1]})
    assert event(ev, "TrollRecruited")["bribed"] == [] and t["levels"][0] == 3  # free, yet counts 3
    _, u = position(FIRST_TURN + """
        storage 0 coin=2
        horde B3 deck:3
        bribes B3 coin=3
    """)
    high = u["horde"]["slots"]["B3"]["card"]
    u, _ = apply(u, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})  # B3 retires ...
    assert u["horde"]["decks"]["3"][-1] == high and len(u["horde"]["decks"]["3"]) == 14  # ... to its own deck


def test_MK_AMB_8_one_check_after_the_refill_four_or_more_bribes_of_any_type():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        bribes B1 hammer=3
        bribes B2 coin=2
        bribes B3 coin=4
        bribes M2 rune=3
    """)
    slots = s["horde"]["slots"]
    old = {sl: slots[sl]["card"] for sl in ("B1", "B3", "M2")}
    deck1, deck2 = s["horde"]["decks"]["1"][:2], s["horde"]["decks"]["2"][0]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    flow = [(e["type"], e["data"].get("slot")) for e in ev if e["type"] in ("HordeRefilled", "TrollRetired")]
    assert flow == [("HordeRefilled", "T1"), ("TrollRetired", "B1"), ("TrollRetired", "B3"), ("TrollRetired", "M2"),
                    ("HordeRefilled", "B1"), ("HordeRefilled", "B3"), ("HordeRefilled", "M2")]
    assert event(ev, "TrollRetired") == {"slot": "B1", "card": old["B1"], "bribes": {"hammer": 3, "coin": 1}}
    assert [s["horde"]["slots"][x]["card"] for x in ("B1", "B3", "M2")] == deck1 + [deck2]
    assert all(s["horde"]["slots"][x]["bribes"] == {} for x in ("B1", "B3", "M2"))
    assert s["horde"]["slots"]["B2"]["bribes"] == {"coin": 3}  # 3 bribes: stays


def test_MK_AMB_9_a_top_row_pedestal_is_optional_a_middle_row_one_always_taken():
    _, s = position(FIRST_TURN + "storage 0 coin=5")
    t1 = [c for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "T1" and c["position"] == [2, 1]]
    assert {c.get("pedestal") for c in t1} == {None} | {c for c, n in s["bag"].items() if n}
    bag, peds = dict(s["bag"]), dict(s["peds"][0])
    t, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert t["bag"] == bag and t["peds"][0] == peds and "PedestalTaken" not in types(ev)
    _, m = position(FIRST_TURN + "storage 0 coin=2")
    clan = m["horde"]["slots"]["M1"]["ped"]
    assert all("pedestal" not in c for c in of_type(GAME.legal_commands(m, 0), "recruit") if c["slot"][0] == "M")
    with pytest.raises(Illegal) as e:
        apply(m, 0, {"type": "recruit", "slot": "M1", "position": [2, 1], "pedestal": clan})
    assert e.value.rule == "MK-REC-9"
    m, _ = apply(m, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert m["peds"][0][clan] == 1


def test_MK_CASC_1_a_pyramid_of_ten_in_four_rows():
    _, s = position(FIRST_TURN + "storage 0")
    assert sorted(s["rosters"][0]) == ["1,1", "1,2", "1,3", "1,4"]
    assert [c["position"] for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "B1"] == [
        [2, 1], [2, 2], [2, 3]]
    for _ in range(6):
        pos = of_type(GAME.legal_commands(edit(GAME, s, "new_turn 0"), 0), "recruit")[0]["position"]
        s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": pos})
    assert sorted(s["rosters"][0]) == sorted(f"{r},{i}" for r, n in ((1, 4), (2, 3), (3, 2), (4, 1))
                                             for i in range(1, n + 1))
    assert not of_type(GAME.legal_commands(edit(GAME, s, "new_turn 0"), 0), "recruit")  # full: 6 recruits at most


# --------------------------------------------------------------------------- digging and pedestals

def test_MK_DIG_1_any_tile_left_in_supply_never_replenished():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        tiles.I3 = 1
    """)
    i3 = find_dig(s, 0, lambda c: c["tile"] == "I3")
    s2, _ = apply(s, 0, i3)
    assert s2["tiles"]["I3"] == 0
    edit(GAME, s2, """
        new_turn 0
        storage 0 stone=3
    """)
    assert not [c for c in dig_commands(s2, 0) if c["tile"] == "I3"] and dig_commands(s2, 0)
    with pytest.raises(Illegal) as e:
        apply(s2, 0, i3)
    assert (e.value.code, e.value.rule) == ("tile_gone", "MK-DIG-1")
    with pytest.raises(Illegal) as e:
        apply(s, 0, dict(i3, tile="Z9"))
    assert e.value.rule == "MK-DIG-1"


def test_MK_DIG_3_1_a_size_2_tunnel_costs_2_and_scores_nothing():
    _, s = position(FIRST_TURN + "storage 0 stone=2")
    stone = s["supply"]["stone"]
    cmd = find_dig(s, 0, lambda c: len(c["cells"]) == 2)
    s, ev = apply(s, 0, cmd)
    assert event(ev, "TunnelDug")["honor"] == 0 and s["honor"][0] == 0
    assert s["stores"][0]["stone"] == 0 and s["supply"]["stone"] == stone + 2
    assert any(p.get("tile") == cmd["tile"] for p in s["pieces"].values())


@pytest.mark.parametrize("size, honors", [(3, (3, 4, 5)), (4, (4, 6, 8)), (5, (5, 8, 11))])
def test_MK_AMB_1_columns_are_stone_iron_heartstone(size, honors):
    got = []
    for mineral in ("stone", "iron", "heartstone"):
        _, s = position(FIRST_TURN + f"storage 0 {mineral}={size}")
        s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == size and c["mineral"] == mineral))
        got.append(s["honor"][0])
    assert tuple(got) == honors


def test_MK_DIG_13_pay_score_place_unbury_unearth_then_the_follow_ups():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        door 0 3,6
        statue 3,8 fire
        peds.0.moon = 1
        ws_supply = ["tool_forge"]
    """)
    cmd = find_dig(s, 0, lambda c: sorted(c["cells"]) == [[3, 7], [3, 8], [3, 9]] and c["mineral"] == "stone")
    assert cmd and cmd["anchor"]
    s, ev = apply(s, 0, cmd)
    assert types(ev) == ["StepBegan", "TunnelDug", "ResourcesGained"]
    dug = event(ev, "TunnelDug")
    assert dug["paid"] == {"storage": {"stone": 3}, "trolls": []} and dug["honor"] == 3
    assert dug["unburied"] == [[3, 8]] and dug["workshops"] == [[2, 9]]
    assert event(ev, "ResourcesGained")["resources"] == {"iron": 2, "hammer": 1}
    assert s["turn"]["step"] == "followup"
    cmds = GAME.legal_commands(s, 0)
    assert {"type": "place_pedestal", "clan": "moon"} in cmds
    assert {"type": "establish_workshop", "space": [2, 9], "kind": "tool_forge"} in cmds
    s, _ = apply(s, 0, {"type": "place_pedestal", "clan": "moon"})
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [2, 9], "kind": "tool_forge"})
    assert s["workshops"] == {"2,9": "tool_forge"} and s["peds"][0]["moon"] == 0


def test_MK_PED_2_size_5_tiles_have_no_anchor():
    _, s = position(FIRST_TURN + """
        storage 0 heartstone=5
        peds.0 = {"fire": 1, "ice": 1, "moon": 1}
    """)
    fives = [c for c in dig_commands(s, 0) if len(c["cells"]) == 5]
    assert fives and all(c["anchor"] is None for c in fives)
    s2, _ = apply(s, 0, fives[0])
    assert not of_type(GAME.legal_commands(s2, 0), "place_pedestal")
    with pytest.raises(Illegal) as e:
        apply(s2, 0, {"type": "place_pedestal", "clan": "fire"})
    assert e.value.rule == "MK-PED-2"
    smaller = [c for c in dig_commands(s, 0) if len(c["cells"]) < 5]
    assert smaller and all(c["anchor"] in c["cells"] for c in smaller)
    s3, _ = apply(s, 0, smaller[0])
    assert of_type(GAME.legal_commands(s3, 0), "place_pedestal")


def test_MK_PED_8_only_a_same_clan_statue_is_doubled():
    _, s = position(FIRST_TURN + """
        storage 0
        only_doors 0=12,2
        tunnel t1 0 12,3 anchor=12,3 pedestal=ice
        statue 12,3 fire
    """)
    assert breakdowns(s)[0]["statues"] == 2 * level((12, 3))
    edit(GAME, s, "statue 12,3 ice")
    assert breakdowns(s)[0]["statues"] == 4 * level((12, 3))


def test_MK_EST_4_no_workshop_once_the_supply_is_empty():
    _, s = position(D_CORNER + """
        storage 0 stone=3
        ws_supply = ["tool_forge"]
    """)
    s, ev = apply(s, 0, d_corner(s))
    assert event(ev, "TunnelDug")["workshops"] == [[4, 1], [4, 5]]
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 1], "kind": "tool_forge"})
    assert s["ws_supply"] == [] and not of_type(GAME.legal_commands(s, 0), "establish_workshop")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "establish_workshop", "space": [4, 5], "kind": "tool_forge"})
    assert (e.value.code, e.value.rule) == ("workshop_gone", "MK-EST-4")
    assert "4,5" not in s["workshops"]


# --------------------------------------------------------------------------- workshops

def test_MK_WS_1_no_workshops_at_the_start():
    for n in (2, 5):
        s = ready(n)
        assert s["workshops"] == {} and GAME.view(s, None)["workshops"] == {}
        assert len(s["ws_supply"]) == 2 * n + 1  # revealed beside the board, not on it
        assert not of_type(GAME.legal_commands(s, 0), "use_workshop")


def test_MK_WS_5_each_use_separate_any_direction_stop_early():
    _, s = position(COIN_PRESS + "storage 0 iron=1 coin=1")
    use = {"type": "use_workshop", "space": [12, 3]}
    s, ev = apply(s, 0, dict(use, give={"coin": 1}, get={"heartstone": 1}))
    assert ev[0]["data"]["uses"] == 3
    s, _ = apply(s, 0, dict(use, give={"iron": 1}, get={"coin": 1}))  # the other direction
    assert {r: n for r, n in s["stores"][0].items() if n} == {"heartstone": 1, "coin": 1}
    assert s["turn"]["ws"]["left"] == 1
    s, _ = apply(s, 0, {"type": "end_step"})  # a third use is not required
    assert s["turn"]["step"] == "action"


def test_MK_AMB_15_what_opens_an_entrance_counted_when_the_activation_begins():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        only_doors 0=11,5 1=12,7
        workshop 12,5 stone_mill
        workshop 12,4 tool_forge              # west: another workshop space opens nothing
        hall the-rift 1 12,6 altar=12,6       # east: a hall of seat 1
        tunnel x1 0 13,5 14,5                 # south: isolated, opens nothing
    """)
    use = {"type": "use_workshop", "space": [12, 5], "give": {"stone": 1}, "get": {"iron": 1}}
    s, ev = apply(s, 0, use)
    assert ev[0]["data"]["uses"] == 2  # north (own door) and east (the opponent's hall)
    edit(GAME, s, "tunnel x2 1 13,6")  # were x1 to join seat 1's network now ...
    s, _ = apply(s, 0, use)
    with pytest.raises(Illegal) as e:  # ... the count stays the one taken at the start
        apply(s, 0, use)
    assert e.value.rule == "MK-WS-8"


def test_MK_AMB_16_spell_before_or_after_the_workshop_block_trades_anywhere():
    _, s = position(FIRST_TURN + """
        storage 0 stone=6 rune=1
        only_doors 0=12,2
        spell earth_ritual
        workshop 12,3 stone_mill
        tunnel t1 0 11,2 11,3         # two open entrances
    """)
    use = {"type": "use_workshop", "space": [12, 3], "give": {"stone": 1}, "get": {"iron": 1}}
    a, _ = apply(s, 0, use)
    a, _ = apply(a, 0, {"type": "trade", "give": {"stone": 4}, "get": "coin"})
    a, _ = apply(a, 0, use)  # a trade does not break the block
    assert a["stores"][0]["iron"] == 2
    b, _ = apply(s, 0, use)
    b, _ = apply(b, 0, {"type": "cast", "spell": "earth_ritual"})  # after the block ...
    assert not of_type(GAME.legal_commands(b, 0), "use_workshop")
    with pytest.raises(Illegal) as e:  # ... the block is over, never resumed
        apply(b, 0, use)
    assert e.value.rule == "MK-WS-8"
    c, _ = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})  # before the block
    c, ev = apply(c, 0, use)
    assert ev[0]["data"]["uses"] == 2
    c, _ = apply(c, 0, use)
    assert c["stores"][0]["iron"] == 3


def test_MK_AMB_32_no_open_entrance_no_activation_but_step_1_may_pass():
    _, s = position(FIRST_TURN + """
        storage 0 stone=1 rune=1
        spell earth_ritual
        workshop 5,10 stone_mill
    """)
    assert not [n for n in WINTER.neighbours((5, 10)) if terrain.lay(s).owners(n)]
    assert not of_type(GAME.legal_commands(s, 0), "use_workshop")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "use_workshop", "space": [5, 10], "give": {"stone": 1}, "get": {"iron": 1}})
    assert e.value.rule == "MK-WS-3"
    assert {"type": "end_step"} in GAME.legal_commands(s, 0)
    t, _ = apply(s, 0, {"type": "end_step"})  # nothing at all in step 1
    assert t["turn"]["step"] == "action"
    t, _ = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})  # only a spell
    t, _ = apply(t, 0, {"type": "end_step"})
    assert t["turn"]["step"] == "action"


# --------------------------------------------------------------------------- networks, halls, statues

def test_MK_NET_2_doors_tunnels_remnants_and_halls_but_never_workshops():
    _, s = position(FIRST_TURN + """
        storage 0
        only_doors 0=12,2
        tunnel t1 0 12,3
        hall hall-of-echoes 0 12,4 12,5 12,6 12,7 12,8 altar=12,6
        tunnel t2.1 0 12,9            # a remnant left by the hall
        workshop 12,10 stone_mill
        tunnel t3 0 12,11 12,12       # touches only the workshop
    """)
    lay = terrain.lay(s)
    assert set(lay.network(0).pieces) == {"door:0", "t1", "hall:hall-of-echoes", "t2.1"}
    assert lay.network_of["t3"].seats == frozenset() and (12, 10) not in lay.own_cells(0)


def test_MK_AMB_14_an_isolated_tile_is_nobodys_until_it_rejoins():
    _, s = position(FIRST_TURN + """
        storage 0 stone=2 cart=1
        only_doors 0=12,2
        tunnel x1 0 12,4 12,5         # laid by seat 0, cut off from its door
        statue 12,5 fire
        workshop 11,4 stone_mill      # its only neighbour on the board is the isolated tile
    """)
    assert terrain.lay(s).owners((12, 5)) == frozenset()
    assert terrain.statue_moves(s, 0) == [] and all(b["statues"] == 0 for b in breakdowns(s).values())
    assert terrain.accessible_workshops(s, 0) == [] and not of_type(GAME.legal_commands(s, 0), "use_workshop")
    s, ev = apply(s, 0, find_dig(s, 0, lambda c: [12, 3] in c["cells"] and len(c["cells"]) == 2))
    assert event(ev, "TunnelDug")["joins"] == ["x1"]
    assert terrain.lay(s).owners((12, 5)) == {0}
    assert breakdowns(s)[0]["statues"] == 2 * level((12, 5))  # unburied again: it scores ...
    assert [f for f, _t in terrain.statue_moves(s, 0)] and terrain.accessible_workshops(s, 0)  # ... moves, opens


def test_MK_AMB_20_halls_on_your_network_a_teammates_included_never_isolated_tiles():
    _, s = position(TEAMS + """
        storage 0
        only_doors 0=12,2 3=12,8
        step hall
        tunnel t1 0 12,3 12,4
        tunnel t2 3 12,5 12,6 12,7    # joins the teammates' networks
        tunnel x1 0 14,3 14,4 14,5 14,6 14,7   # isolated
        halls = ["hall-of-echoes"]
    """)
    halls = of_type(GAME.legal_commands(s, 0), "build_hall")
    assert [h["cells"] for h in halls] == [[[12, c] for c in range(3, 8)]]
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "build_hall", "hall": "hall-of-echoes", "cells": [[14, c] for c in range(3, 8)],
                     "altar": [14, 5]})
    assert e.value.rule == "MK-HALL-3"
    s, ev = apply(s, 0, halls[0])
    assert event(ev, "GreatHallBuilt")["covered"] == ["t1", "t2"]  # straddles both teammates' tiles


def test_MK_MOVE_4_door_tile_hall_and_each_remnant_are_one_tunnel():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire", "12,9": "ice", "12,4": "moon"}
        storage 0 cart=1
        tunnel t1 0 12,3
        hall hall-of-echoes 0 12,4 12,5 12,6 12,7 12,8 altar=12,6
        tunnel t2.1 0 12,9            # two remnants of one tile
        tunnel t2.2 0 11,4
    """)
    reach = {}
    for m in moves(s):
        reach.setdefault(tuple(m["from"]), set()).add(tuple(m["to"]))
    assert reach[(12, 2)] == {(12, 3)}  # the door is a tunnel of its own
    hall = {(12, c) for c in range(4, 9)}
    assert reach[(12, 4)] == (hall - {(12, 4)}) | {(12, 3), (11, 4)}  # the whole hall is one tunnel
    assert reach[(12, 9)] == hall - {(12, 4)}  # not the other remnant: a tunnel of its own


def test_MK_AMB_23_one_cart_one_move_judged_from_where_the_statue_stands():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire", "12,3": "ice"}
        storage 0 cart=3
        tunnel t1 0 12,3 12,4
        tunnel t2 0 12,5
        tunnel t3 0 12,6
    """)
    assert {tuple(m["to"]) for m in moves(s) if m["from"] == [12, 2]} == {(12, 4)}  # free spaces only
    for to in ([12, 2], [12, 3], [12, 5]):  # itself, another statue, two tunnels away
        with pytest.raises(Illegal) as e:
            apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": to, "cart": "wild"})
        assert e.value.rule == "MK-MOVE-3"
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 4], "cart": "wild"})
    assert s["stores"][0]["cart"] == 2
    assert {tuple(m["to"]) for m in moves(s) if m["from"] == [12, 4]} == {(12, 2), (12, 5)}  # from t1 now
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 4], "to": [12, 5], "cart": "wild"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 5], "to": [12, 6], "cart": "wild"})
    assert s["statues"] == {"12,3": "ice", "12,6": "fire"} and s["stores"][0]["cart"] == 0


# --------------------------------------------------------------------------- end of the game and scoring

def test_MK_END_6_after_the_last_turn_the_game_ends_with_final_scoring():
    _, s = position(FIRST_TURN + """
        storage 0
        turns_left = 1                # this is the last turn
    """)
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    s, ev = apply(s, 0, {"type": "end_turn"})
    assert types(ev) == ["TurnEnded", "GameEnded"] and GAME.is_terminal(s)
    assert ev[-1]["data"]["scores"] == {str(p): breakdowns(s)[p] for p in range(4)}
    assert GAME.legal_commands(s, 1) == [] and GAME.active_seats(s) == set()
    with pytest.raises(Illegal) as e:
        apply(s, 1, {"type": "end_turn"})
    assert e.value.rule == "MK-END-6"


def test_MK_END_7_after_both_tokens_the_usual_rules_and_no_third_token():
    _, s = position(FIRST_TURN + f"""
        storage 0 stone=2
        coronation = {{"left": [], "taken": {{"5": 2, "3": 3}}}}
        turns_left = 6
        roster 0 {" ".join(NINE)}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})  # others may still recruit
    assert len(s["rosters"][0]) == 10
    assert "CoronationTaken" not in types(ev) and "EndTriggered" not in types(ev) and s["turns_left"] == 6
    edit(GAME, s, "new_turn 0")
    cmds = GAME.legal_commands(s, 0)
    assert not of_type(cmds, "recruit") and of_type(cmds, "dig")  # 10 trolls: must dig
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "B2", "position": [4, 1]})
    assert e.value.rule == "MK-ACT-2"


def test_MK_SCORE_2_coronation_tokens_are_worth_5_and_3():
    _, s = position(FIRST_TURN + """
        storage 0
        coronation = {"left": [], "taken": {"5": 2, "3": 0}}
    """)
    assert {p: b["coronation"] for p, b in breakdowns(s).items()} == {0: 3, 1: 0, 2: 5, 3: 0}


def test_MK_SCORE_5_halls_in_your_network_low_or_high_by_the_altar():
    _, s = position(FIRST_TURN + """
        storage 0
        only_doors 0=12,2 1=5,2
        hall hall-of-echoes 0 12,3 12,4 12,5 12,6 12,7 altar=12,5
        hall shamans-chamber 1 5,3 5,4 5,5 6,3 6,4 6,5 altar=5,4
        statues = {"5,4": "moon", "12,3": "ice"}    # seat 1's altar taken; seat 0's is empty
    """)
    echoes, shaman = content.hall("hall-of-echoes"), content.hall("shamans-chamber")
    got = breakdowns(s)
    assert (got[0]["great_halls"], got[1]["great_halls"]) == (echoes.low, shaman.high)
    edit(GAME, s, "statue 12,5 fire")  # any clan on the altar
    assert breakdowns(s)[0]["great_halls"] == echoes.high


# --------------------------------------------------------------------------- doors and the team variant

def test_MK_AMB_30_two_players_any_point_then_the_same_number():
    for side in ("winter", "autumn"):
        s, _ = new_game(2, {"board": side})
        b = content.board(side)
        assert {c["point"] for c in GAME.legal_commands(s, 0)} == {p.id for p in b.start_points}
    s, _ = new_game(2, {"board": "winter"})
    s, _ = apply(s, 0, {"type": "place_door", "point": "E"})  # labelled 5 only
    assert {c["point"] for c in GAME.legal_commands(s, 1)} == {"B", "C", "F", "G"}
    s, _ = new_game(2, {"board": "winter"})
    s, _ = apply(s, 0, {"type": "place_door", "point": "A"})  # labelled 4 only
    assert {c["point"] for c in GAME.legal_commands(s, 1)} == {"B", "C", "D"}
    with pytest.raises(Illegal):
        apply(s, 1, {"type": "place_door", "point": "E"})


def test_MK_TEAM_5_rounds_run_team_1_team_2_team_2_team_1():
    for first in (0, 2):
        s = ready(4, {"teams": True, "start_player": first})
        seats = [s["current"]]
        for _ in range(7):
            seat = s["current"]
            s, _ = apply(s, seat, of_type(GAME.legal_commands(s, seat), "recruit")[0])
            s, _ = apply(s, seat, {"type": "end_turn"})
            seats.append(s["current"])
        assert seats[0] == first and seats == [(first + k) % 4 for k in range(8)]  # clockwise
        team_of = {seat: k for k, pair in enumerate(s["teams"]) for seat in pair}
        assert [team_of[x] for x in seats] == [0, 1, 1, 0] * 2
        assert s["teams"][0][0] == first  # the start player leads the starting team


def test_MK_TEAM_7_every_gain_goes_to_the_team_storage():
    _, s = position(TEAMS + """
        storage 0 stone=4 coin=1
        new_turn 3
        empty_trolls 3
        door 3 15,15
        workshop 16,15 spellweaver
        bribes B1 coin=2
    """)
    s, _ = apply(s, 3, {"type": "trade", "give": {"stone": 4}, "get": "rune"})
    s, _ = apply(s, 3, {"type": "use_workshop", "space": [16, 15], "give": {"coin": 1}, "get": {"rune": 1}})
    s, _ = apply(s, 3, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert len(s["stores"]) == 2 and s["stores"][0]["rune"] == 2 and s["stores"][0]["coin"] == 2
    assert s["stores"][1] == position(TEAMS + "storage 0")[1]["stores"][1]
    _, t = position(TEAMS + """
        storage 0 stone=3
        new_turn 3
        empty_trolls 3
        door 3 3,6
    """)
    t, ev = apply(t, 3, find_dig(t, 3, lambda c: [3, 7] in c["cells"] and c["mineral"] == "stone"
                                 and not any(tuple(x) in WINTER.rubble for x in c["cells"])))
    assert event(ev, "ResourcesGained")["resources"] == {"iron": 2, "hammer": 1}
    assert (t["stores"][0]["iron"], t["stores"][0]["hammer"]) == (2, 1)


def test_MK_TEAM_8_your_roster_and_the_team_storage_never_your_teammates_trolls():
    _, s = position(TEAMS + """
        storage 0
        empty_trolls 3
        troll 3 1,1 magenta-1 11          # the teammate's 2 stone
        troll 3 1,2 stone+cart:fire 01
    """)
    assert spendable(s, 0) == {} and not of_type(GAME.legal_commands(s, 0), "dig")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "trade", "give": {"stone": 2, "cart": 2}, "get": "rune"})
    assert e.value.code == "cannot_pay"
    u = edit(GAME, json.loads(json.dumps(s)), """
        only_doors 0=12,2
        step statues
        tunnel t1 0 12,3
        statue 12,2 fire
    """)
    assert moves(u) == []  # not even the teammate's Fire cart
    edit(GAME, s, """
        troll 0 1,1 magenta-1 10          # one stone of your own
        storage 0 stone=1                 # and one in the team storage
    """)
    s, ev = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 2 and c["mineral"] == "stone"))
    assert event(ev, "TunnelDug")["paid"] == {"storage": {"stone": 1}, "trolls": [["1,1", 0]]}
    assert s["rosters"][3]["1,1"]["held"] == [True, True]


def test_MK_TEAM_12_one_shared_score_in_play_and_at_the_end():
    _, s = position(TEAMS + """
        storage 0 stone=3
        storage 1                         # the other team: nothing at all
    """)
    s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 3 and c["mineral"] == "stone"))
    edit(GAME, s, """
        coronation.taken = {"5": 3}       # the teammate's token
        ped_tokens.0 = [4]
    """)
    board = {x.seat: x for x in GAME.scores(s).seats}
    assert board[0].breakdown == board[3].breakdown and board[0].total == board[3].total == 3 + 5 + 4
    assert board[1].total == board[2].total == 0
    edit(GAME, s, "turns_left = 1")
    s, ev = apply(s, 0, {"type": "end_turn"})
    final = ev[-1]["data"]["scores"]
    assert final["0"] == final["3"] and final["0"]["tunnels"] == 3 and final["0"]["coronation"] == 5


def test_MK_TEAM_13_a_joined_network_scores_each_statue_and_hall_once():
    _, s = position(TEAMS + """
        storage 0
        only_doors 0=12,2 3=12,8
        hall hall-of-echoes 0 12,3 12,4 12,5 12,6 12,7 altar=12,5
        tunnel t1 3 13,8
        statues = {"12,5": "moon", "13,8": "fire"}
    """)
    assert terrain.lay(s).network(0).seats == {0, 3}
    got = breakdowns(s)
    assert got[0]["great_halls"] == content.hall("hall-of-echoes").high
    assert got[0]["statues"] == 2 * level((13, 8))
    assert got[1]["great_halls"] == got[1]["statues"] == 0
