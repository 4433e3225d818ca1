"""More given/when/then tests, one per normative rule ID no other test cites exactly.

Same style as test_mk_rule_ids.py, whose state-building helpers are reused: a
game past doors and draft, then storage, rosters, doors and pieces written
straight into the state where geometry or history is not the point of the rule.
"""
import json
from collections import Counter

import pytest

from domain.core import Illegal
from domain.mountain_king import content, terrain
from domain.mountain_king.catalog import horde_ids, level as troll_level
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.economy import spendable
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import breakdowns

from mk_driver import apply, empty_trolls, new_game, ready, set_storage, types
from test_mk_rule_ids import (NINE, WINTER, at_step, bare, card_with, d_corner, door_at, fill_roster, find_dig,
                              level, moves, row12, team, troll, tunnel)


# --------------------------------------------------------------------------- helpers

def hall_piece(hall_id, cells, altar, seat=0):
    return {"kind": "hall", "cells": [list(c) for c in cells], "seat": seat, "hall": hall_id, "altar": list(altar)}


def only_doors(s, doors):
    """Just the given doors on the board: scoring and movement see nothing else."""
    s["pieces"] = {f"door:{seat}": {"kind": "door", "cells": [list(cell)], "seat": seat}
                   for seat, cell in doors.items()}
    s["statues"] = {}
    return s


def new_turn(s, seat=0):
    """``seat`` at step 1 of a fresh turn (same round): one turn's history set aside."""
    s["current"] = seat
    s["turn"] = {"seat": seat, "step": "spells", "spell": False, "ws": None, "acted": False, "hall": False,
                 "flags": [], "dug": None}
    return s


def spell_in_book(s, spell, runes=0):
    s["spells"]["deck"] = [c for c in s["spells"]["deck"] if c != spell]
    s["spells"]["book"][0] = {"id": spell, "runes": runes}
    return s


def of_type(cmds, kind):
    return [c for c in cmds if c["type"] == kind]


def event(events, kind):
    return next(e["data"] for e in events if e["type"] == kind)


def full_roster(s, seat=0):
    fill_roster(s, seat, NINE + ("4,1",))
    return s


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
        s = only_doors(bare(), {0: a})
        s["pieces"]["t1"] = tunnel([b], anchor=b, pedestal="fire")
        s["statues"] = {f"{a[0]},{a[1]}": "ice"}  # on the door: no pedestal
        base = breakdowns(s)[0]["statues"]
        s["statues"] = {f"{b[0]},{b[1]}": "fire"}  # on its own clan's pedestal
        got[lv] = (base, breakdowns(s)[0]["statues"])
    assert got == {1: (2, 4), 2: (4, 8), 3: (6, 12), 4: (8, 16), 5: (10, 20)}


def test_MK_BOARD_7_workshop_spaces_have_four_sides_outnumber_tiles_and_are_never_dug():
    assert len(WINTER.workshop_spaces) > 2 * 5 + 1 and len(content.board("autumn").workshop_spaces) > 2 * 3 + 1
    s = only_doors(bare(stone=3), {0: (9, 1)})
    assert (9, 2) in WINTER.workshop_spaces
    s["pieces"]["t1"] = tunnel([(8, 1), (8, 2), (8, 3), (9, 3)])
    s["pieces"]["t2"] = tunnel([(10, 1), (10, 2)])
    s["workshops"]["9,2"] = "stone_mill"
    s, ev = apply(s, 0, {"type": "use_workshop", "space": [9, 2], "give": {"stone": 1}, "get": {"iron": 1}})
    assert ev[0]["data"]["uses"] == 4  # one entrance per side
    t = bare(stone=3)
    cmd = d_corner(t)  # digs next to the empty workshop spaces (4, 1) and (4, 5)
    t["workshops"]["4,5"] = "tool_forge"
    spaces = set(WINTER.workshop_spaces)
    assert cmd and not [d for d in dig_commands(t, 0) if spaces & {tuple(x) for x in d["cells"]}]
    for cells in ([[4, 1], [4, 2]], [[4, 4], [4, 5]]):  # empty, then built
        with pytest.raises(Illegal) as e:
            apply(t, 0, {"type": "dig", "tile": "D2", "cells": cells, "anchor": cells[1], "mineral": "stone"})
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
    s = bare(coin=5)
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
    s = bare(stone=7, coin=2, rune=1)
    spell_in_book(s, "earth_ritual")
    supply = dict(s["supply"])
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "iron"})
    assert s["supply"]["stone"] == supply["stone"] + 4 and s["supply"]["iron"] == supply["iron"] - 1
    s, _ = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert s["supply"]["rune"] == supply["rune"] and s["spells"]["book"][0]["runes"] == 1  # onto the card
    s, _ = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert s["supply"]["coin"] == supply["coin"] and s["stores"][0]["coin"] == 0  # onto B2 and B3
    assert s["horde"]["slots"]["B2"]["bribes"] == {"coin": 1} == s["horde"]["slots"]["B3"]["bribes"]
    t = bare(stone=3)
    stone = t["supply"]["stone"]
    t, _ = apply(t, 0, find_dig(t, 0, lambda c: len(c["cells"]) == 3 and c["mineral"] == "stone"))
    assert t["supply"]["stone"] == stone + 3 and t["stores"][0]["stone"] == 0


def test_MK_RES_4_gains_come_from_the_supply_into_storage_without_limit():
    s = ready(3, {"unlimited_supply": True})
    empty_trolls(s, 0)
    set_storage(s, 0, stone=400, coin=4)
    supply = dict(s["supply"])
    s, _ = apply(s, 0, {"type": "trade", "give": {"coin": 4}, "get": "stone"})
    assert s["stores"][0]["stone"] == 401 and s["supply"]["stone"] == supply["stone"] - 1
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    filled = event(ev, "TrollsActivated")["filled"]
    assert filled and s["stores"][0]["stone"] == 401  # production stays on the trolls (MK-CASC-4)
    assert all(s["rosters"][0][pos]["held"][i] for pos, i in filled)


def test_MK_RES_5_one_token_per_empty_symbol_of_its_own_type():
    s = bare(stone=2)
    s["rosters"][0]["1,1"] = troll("magenta-1", [True, False])  # [stone, stone], one covered
    s["rosters"][0]["1,2"] = troll("magenta-4", [True])  # [heartstone], covered
    s["horde"]["slots"]["B1"]["card"] = card_with(["coin", "cart:fire"])
    stone, heart = s["supply"]["stone"], s["supply"]["heartstone"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    filled = event(ev, "TrollsActivated")["filled"]
    assert sorted(p for p in filled if p[0] in ("1,1", "1,2")) == [["1,1", 1]]
    assert s["rosters"][0]["1,1"]["held"] == [True, True] and s["rosters"][0]["1,2"]["held"] == [True]
    assert (s["supply"]["stone"], s["supply"]["heartstone"]) == (stone - 1, heart)
    # spending from a troll frees its symbol, so the next activation fills it again
    s = new_turn(s)
    s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 2 and c["mineral"] == "stone"))
    assert s["rosters"][0]["1,1"]["held"] == [False, False]  # trolls are drawn on first
    s = new_turn(s)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B2", "position": [2, 2]})
    assert ["1,2", 0] not in event(ev, "TrollsActivated")["filled"]  # still covered
    s = new_turn(s)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B3", "position": [3, 1]})
    assert {"1,1"} <= {p for p, _i in event(ev, "TrollsActivated")["filled"]}
    assert s["rosters"][0]["1,1"]["held"] == [True, True]


def test_MK_CART_4_workshop_carts_in_storage_are_wild():
    s = row12(bare(), {(12, 2): "ice"}, stone=2)
    s["pieces"]["t1"] = tunnel([(12, 3)])
    s["workshops"]["11,2"] = "swivel_bolts"
    s = new_turn(s)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [11, 2], "give": {"stone": 2}, "get": {"cart": 1}})
    assert s["stores"][0]["cart"] == 1
    t = at_step(json.loads(json.dumps(s)), "statues")
    assert {m["cart"] for m in moves(t)} == {"wild"}  # moves an Ice statue: any clan
    t, ev = apply(t, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert ev[-1]["data"]["paid"] == {"storage": {"cart": 1}, "trolls": []}
    s["workshops"]["11,2"] = "cartwrights_house"  # the same storage cart is welcome there (MK-CART-6)
    s["turn"]["ws"] = None
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [11, 2], "give": {"cart": 1}, "get": {"heartstone": 1}})
    assert s["stores"][0]["heartstone"] == 1 and s["stores"][0]["cart"] == 0


def test_MK_MOVE_6_a_clan_cart_pays_only_for_its_own_clan():
    s = row12(bare(), {(12, 2): "ice", (12, 5): "fire"})
    s["pieces"]["t1"] = tunnel([(12, 3), (13, 3)])
    s["pieces"]["t2"] = tunnel([(12, 4), (12, 5)])
    s["rosters"][0]["1,1"] = troll(card_with(["stone", "cart:fire"]), [False, True])
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "clan"})
    assert e.value.rule == "MK-MOVE-6"
    with pytest.raises(Illegal):
        apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 5], "to": [12, 3], "cart": "clan"})
    assert s["rosters"][0]["1,1"]["held"] == [False, False]
    set_storage(s, 0, cart=1)
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [13, 3], "cart": "wild"})
    assert s["statues"] == {"12,3": "fire", "13,3": "ice"} and s["stores"][0]["cart"] == 0


# --------------------------------------------------------------------------- turn structure

def test_MK_TURN_1_four_steps_in_order():
    s = row12(bare(rune=1), {(12, 2): "fire"}, carts=1, rune=1)
    spell_in_book(s, "earth_ritual")
    s["pieces"]["t1"] = tunnel([(12, c) for c in range(3, 8)])
    s["halls"] = ["hall-of-echoes"]
    s = new_turn(s)
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
    t = new_turn(bare())
    walked = []
    for cmd in ({"type": "end_step"}, {"type": "recruit", "slot": "B1", "position": [2, 1]}, {"type": "end_step"}):
        t, _ = apply(t, 0, cmd)
        walked.append(t["turn"]["step"])
    assert walked == ["action", "hall", "statues"]


def test_MK_TURN_4_trade_at_any_moment_of_your_own_turn():
    s = bare(stone=26, iron=3)
    (r, c), = s["pieces"]["door:0"]["cells"]
    s["workshops"][f"{r},{c + 1}"] = "stone_mill"
    s["pieces"]["x1"] = {"kind": "door", "cells": [[r - 1, c + 1]], "seat": 1}  # a second open entrance
    trade = {"type": "trade", "give": {"stone": 4}, "get": "rune"}
    seen = []

    def trade_here(state):
        before = json.loads(json.dumps(state["turn"]))
        state, ev = apply(state, 0, trade)
        assert types(ev) == ["Traded"] and state["turn"] == before  # no step moves
        seen.append(state["turn"]["step"])
        return state

    s = trade_here(s)  # before step 1 acts
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [r, c + 1], "give": {"stone": 1}, "get": {"iron": 1}})
    s = trade_here(s)  # inside the workshop activation
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [r, c + 1], "give": {"stone": 1}, "get": {"iron": 1}})
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
    s = bare(stone=1)
    for spot in s["horde"]["slots"].values():
        spot["card"] = None  # an empty horde: nothing to recruit
    cmds = GAME.legal_commands(s, 0)
    assert not of_type(cmds, "recruit") and not of_type(cmds, "dig") and {"type": "end_turn"} in cmds
    s, ev = apply(s, 0, {"type": "end_step"})
    s, ev = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "hall" and s["turn"]["acted"]  # step 2 skipped
    t = bare(stone=1)
    for slot, spot in t["horde"]["slots"].items():
        spot["card"] = spot["card"] if slot == "B5" else None
    with pytest.raises(Illegal) as e:  # one free bottom-row troll: you must recruit
        apply(t, 0, {"type": "end_turn"})
    assert e.value.code == "must_recruit_or_dig"


def test_MK_AMB_2_can_dig_means_a_whole_legal_payable_dig_and_trades_are_never_forced():
    s = full_roster(bare(stone=5))
    s["tiles"] = dict.fromkeys(s["tiles"], 0)  # no tile left in supply
    assert {"type": "end_turn"} in GAME.legal_commands(s, 0)
    apply(s, 0, {"type": "end_turn"})
    s = full_roster(bare(stone=1, coin=4))
    assert {"type": "end_turn"} in GAME.legal_commands(s, 0)  # a trade could make a dig possible: not forced
    s, _ = apply(s, 0, {"type": "trade", "give": {"coin": 4}, "get": "stone"})
    assert of_type(GAME.legal_commands(s, 0), "dig")  # a trade made earlier counts
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "end_turn"})
    assert e.value.code == "must_recruit_or_dig"
    # the rubble hammers count too: every placement here covers rubble
    s = full_roster(bare(stone=2))
    door_at(s, 0, (1, 4))
    door_at(s, 1, (1, 6))
    s["tiles"] = {t: (n if t == "D2" else 0) for t, n in s["tiles"].items()}
    assert not of_type(GAME.legal_commands(s, 0), "dig") and {"type": "end_turn"} in GAME.legal_commands(s, 0)
    set_storage(s, 0, stone=2, hammer=1)
    digs = of_type(GAME.legal_commands(s, 0), "dig")
    assert digs and all(any(tuple(x) in WINTER.rubble for x in d["cells"]) for d in digs)
    assert {"type": "end_turn"} not in GAME.legal_commands(s, 0)


# --------------------------------------------------------------------------- horde and roster

def test_MK_HORDE_1_an_emptied_slot_is_refilled_at_once_from_its_level():
    s = bare(coin=2)
    s["horde"]["slots"]["B3"]["bribes"] = {"coin": 3}
    s["supply"]["coin"] -= 3
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
        s = bare(coin=coins)
        for lv in empty:
            s["horde"]["decks"][lv] = []
        s, ev = apply(s, 0, {"type": "recruit", "slot": slot, "position": [2, 1]})
        return next(e["data"]["deck"] for e in ev if e["type"] == "HordeRefilled" and e["data"]["slot"] == slot), s

    assert refill_from("B1", ["1", "2"])[0] == "3"
    assert refill_from("M1", ["2"])[0] == "3"
    assert refill_from("M1", ["2", "3"])[0] == "1"
    assert refill_from("T1", ["3", "2"])[0] == "1"
    deck, s = refill_from("M1", ["1", "2", "3"])
    assert deck is None and s["horde"]["slots"]["M1"]["card"] is None  # the slot stays empty
    s = new_turn(s, 0)
    set_storage(s, 0, coin=4)
    assert "M1" not in {c["slot"] for c in of_type(GAME.legal_commands(s, 0), "recruit")}
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 2]})  # 4 coins: M1 needs none
    assert sorted(event(ev, "TrollRecruited")["bribed"]) == ["B1", "B2", "B3", "M2"]


def test_MK_AMB_6_the_row_sets_the_costs_the_printed_level_the_deck_and_tie_break():
    s = bare(coin=5)
    low = horde_ids(1)[0]
    s["horde"]["slots"]["T1"]["card"] = low  # a level-1 card in the top row
    offered = {c.get("pedestal") for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "T1"}
    assert offered > {None}  # the top row's choose-pedestal token
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert len(event(ev, "TrollRecruited")["bribed"]) == 5 and s["stores"][0]["coin"] == 0
    assert s["levels"][0] == 1
    t = bare()
    high = horde_ids(3)[0]
    t["horde"]["slots"]["B2"]["card"] = high  # a level-3 card in the bottom row: free, counts 3
    t, _ = apply(t, 0, {"type": "recruit", "slot": "B2", "position": [2, 1]})
    assert t["levels"][0] == 3 and troll_level(high) == 3
    u = bare(coin=2)
    u["horde"]["slots"]["B3"].update(card=high, bribes={"coin": 3})
    u["supply"]["coin"] -= 3
    u, _ = apply(u, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert u["horde"]["decks"]["3"][-1] == high and high not in u["horde"]["decks"]["1"]


def test_MK_AMB_8_one_check_after_the_refill_four_or_more_bribes_of_any_type():
    s = bare(coin=5)
    slots = s["horde"]["slots"]
    bribes = {"B1": {"hammer": 3}, "B2": {"coin": 2}, "B3": {"coin": 4}, "M2": {"rune": 3}}
    for sl, b in bribes.items():
        slots[sl]["bribes"] = dict(b)
        for r, n in b.items():
            s["supply"][r] -= n
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
    s = bare(coin=5)
    t1 = [c for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "T1" and c["position"] == [2, 1]]
    assert {c.get("pedestal") for c in t1} == {None} | {c for c, n in s["bag"].items() if n}
    bag, peds = dict(s["bag"]), dict(s["peds"][0])
    t, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert t["bag"] == bag and t["peds"][0] == peds and "PedestalTaken" not in types(ev)
    m = bare(coin=2)
    clan = m["horde"]["slots"]["M1"]["ped"]
    assert all("pedestal" not in c for c in of_type(GAME.legal_commands(m, 0), "recruit") if c["slot"][0] == "M")
    with pytest.raises(Illegal) as e:
        apply(m, 0, {"type": "recruit", "slot": "M1", "position": [2, 1], "pedestal": clan})
    assert e.value.rule == "MK-REC-9"
    m, _ = apply(m, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert m["peds"][0][clan] == 1


def test_MK_CASC_1_a_pyramid_of_ten_in_four_rows():
    s = bare()
    assert sorted(s["rosters"][0]) == ["1,1", "1,2", "1,3", "1,4"]
    assert [c["position"] for c in of_type(GAME.legal_commands(s, 0), "recruit") if c["slot"] == "B1"] == [
        [2, 1], [2, 2], [2, 3]]
    for _ in range(6):
        pos = of_type(GAME.legal_commands(new_turn(s), 0), "recruit")[0]["position"]
        s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": pos})
    assert sorted(s["rosters"][0]) == sorted(f"{r},{i}" for r, n in ((1, 4), (2, 3), (3, 2), (4, 1))
                                             for i in range(1, n + 1))
    assert not of_type(GAME.legal_commands(new_turn(s), 0), "recruit")  # full: 6 recruits at most
