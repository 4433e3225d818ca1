"""One focused given/when/then test per normative rule ID that no other test cites.

Each test starts from a text position (tests/support/positions.py, the verbs of
domain/mountain_king/positions.py): a game past doors and draft, then storage,
rosters, doors and pieces set where the geometry or the history is not the
point of the rule.
"""
from collections import Counter

import pytest

from domain.core import Illegal
from domain.mountain_king import content
from domain.mountain_king.catalog import starting_row, top_row
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.economy import SUPPLY, resource_of, spendable
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import CATEGORIES, breakdowns
from domain.mountain_king.spells import SPELLS
from domain.mountain_king.terrain import lay

from mk_driver import apply, new_game, play, ready, resume, types
from tests.support.positions import edit, position

WINTER = content.board("winter")

# --------------------------------------------------------------------------- positions

FIRST_TURN = """
    mountain-king 4 seed=seed
    opening                       # doors and draft: seat 0's first turn
    empty_trolls 0
"""
"""Seat 0's first turn of four, no tokens on its trolls; each test says what its storage holds."""

ROW12 = FIRST_TURN + """
    door 0 12,2
    step statues
"""
"""Seat 0 in step 4 with its door on (12,2), where each test lays the tunnels east of it and
says which statues stand: statue rules checked without digging."""

D_CORNER = FIRST_TURN + """
    door 3 3,15                   # seat 3 moves to start point A
    door 0 3,3                    # seat 0 on start point D
"""
"""Seat 0's door on start point D (3,3): the I3 dig on (4,2)-(4,4) touches the empty workshop
spaces (4,1) and (4,5)."""

ANCHOR_ON_STATUE = FIRST_TURN + """
    storage 0 stone=2
    door 0 2,8
    statue 3,8 ice                # the brown statue space, where a D2 dig can put its anchor
"""

HALL_REGION = FIRST_TURN + """
    step hall
    door 0 8,3
    tunnel t1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4 11,5 12,4 13,4
    halls = ["shamans-chamber"]
"""

TEAMS = """
    mountain-king 4 seed=seed options={"teams": true}
    opening
    empty_trolls 0
"""

NINE = ("2,1", "2,2", "2,3", "3,1", "3,2")  # with the 4 starters: 9 trolls


# --------------------------------------------------------------------------- helpers

def find_dig(s, seat, want):
    return next((c for c in dig_commands(s, seat) if want(c)), None)


def moves(s, seat=0):
    return [c for c in GAME.legal_commands(s, seat) if c["type"] == "move_statue"]


def level(cell):
    return WINTER.level(cell)


def d_corner(s):
    """The I3 dig on (4,2)-(4,4) from the D corner (``D_CORNER``), touching the empty workshop
    spaces (4,1) and (4,5)."""
    cmd = find_dig(s, 0, lambda c: c["tile"] == "I3" and sorted(c["cells"]) == [[4, 2], [4, 3], [4, 4]]
                   and c["mineral"] == "stone")
    assert cmd is not None
    return cmd


# --------------------------------------------------------------------------- general, setup

def test_MK_GEN_2_most_honor_wins_ties_by_MK_TIE_1():
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        empty_trolls 0
        empty_trolls 1
        empty_trolls 2
        storage 0
        storage 1
        storage 2
        honor = [10, 25, 12]
    """)
    assert GAME.scores(s).winners == [1]
    edit(GAME, s, """
        honor = [25, 25, 12]
        levels = [4, 7, 0]
    """)
    assert GAME.scores(s).winners == [0]  # tied on honor: the lower recruited levels win


def test_MK_GEN_3_honor_during_play_comes_only_from_digging(finished):
    _state, events = finished
    s = GAME.initial_state()
    dug = 0
    for ev in events:
        before = list(s.get("honor") or [])
        s = GAME.evolve(s, ev)
        if before and s["honor"] != before:
            assert ev["type"] == "TunnelDug"
            assert sum(s["honor"]) - sum(before) == ev["data"]["honor"]
        dug += ev["type"] == "TunnelDug"
    assert dug, "the sample game digs"


def test_MK_GEN_5_second_token_ends_after_the_round_and_two_more(finished):
    state, events = finished
    kinds = types(events)
    crowned = [e["data"]["token"] for e in events if e["type"] == "CoronationTaken"]
    assert crowned == [5, 3]
    trigger = kinds.index("EndTriggered")
    assert events[trigger - 1] == {"type": "CoronationTaken", "data": {"seat": events[trigger]["data"]["seat"],
                                                                       "token": 3}}
    assert kinds.count("EndTriggered") == 1
    place = state["order"].index(events[trigger]["data"]["seat"])
    after = [e["data"]["seat"] for e in events[trigger:] if e["type"] == "TurnStarted"]
    assert after == state["order"][place + 1:] + state["order"] * 2
    assert kinds[-1] == "GameEnded" and GAME.is_terminal(state)


@pytest.mark.parametrize("players, side", [(2, "autumn"), (3, "autumn"), (4, "winter"), (5, "winter")])
def test_MK_SETUP_1_board_side_and_seven_supplies(players, side):
    s, _ = new_game(players)
    assert s["board"] == side
    assert s["supply"] == {"stone": 35, "iron": 35, "heartstone": 30, "cart": 45, "hammer": 20, "rune": 25,
                           "coin": 35}


def test_MK_SETUP_2_open_tunnel_stacks_and_six_halls():
    _, s = position(FIRST_TURN + "storage 0 stone=3")
    assert sum(s["tiles"].values()) == 52 and s["tiles"] == {t.id: t.copies for t in content.tiles()}
    assert sorted(s["halls"]) == sorted(h.id for h in content.halls()) and len(s["halls"]) == 6
    cmd = find_dig(s, 0, lambda c: c["tile"] == "I3")
    s, _ = apply(s, 0, cmd)
    for viewer in (None, 0, 1):
        v = GAME.view(s, viewer)
        assert v["tiles"]["I3"] == content.tile("I3").copies - 1 and v["halls"] == s["halls"]


def test_MK_BOARD_8_buried_resources_are_gained_once():
    """MK-DIG-10: covering a buried spot puts its resources in storage at once, and only once."""
    _, s = position(FIRST_TURN + """
        storage 0 stone=3 hammer=1
        door 0 3,6
    """)
    cmd = find_dig(s, 0, lambda c: [3, 7] in c["cells"] and not any(tuple(x) in WINTER.rubble for x in c["cells"]))
    s, ev = apply(s, 0, cmd)
    assert {"type": "ResourcesGained", "data": {"seat": 0, "resources": {"iron": 2, "hammer": 1},
                                                "reason": "buried"}} in ev
    assert s["stores"][0]["iron"] == 2 and s["stores"][0]["hammer"] == 2
    edit(GAME, s, """
        storage 0 stone=5 hammer=5
        turn.step = spells
        turn.acted = false
        turn.dug = null
    """)
    assert not [c for c in dig_commands(s, 0) if [3, 7] in c["cells"]]  # covered for good


def test_MK_BOARD_10_honor_is_an_unbounded_integer():
    _, s = position(FIRST_TURN + """
        storage 0 heartstone=5
        honor.0 = 99
    """)
    cmd = find_dig(s, 0, lambda c: len(c["cells"]) == 5 and c["mineral"] == "heartstone")
    s, _ = apply(s, 0, cmd)
    assert s["honor"][0] == 110 and type(s["honor"][0]) is int
    assert s["stores"][0]["coin"] == 0  # the 100 reminder coin is no resource
    assert next(x for x in GAME.scores(s).seats if x.seat == 0).breakdown["tunnels"] == 110


def test_MK_BOARD_11_pedestal_track_keyed_by_level_and_clan():
    s, _ = new_game(4)
    assert set(s["ped_track"]) == {f"{lv}:{clan}" for lv in range(1, 6) for clan in ("fire", "ice", "moon")}
    assert sorted(s["ped_track"].values()) == sorted(content.pedestal_tokens())


def test_MK_PSETUP_2_score_markers_start_at_zero():
    for n in (2, 5):
        s = ready(n)
        assert s["honor"] == [0] * n
        assert all(p["honor"] == 0 for p in GAME.view(s, None)["players"])


@pytest.mark.parametrize("first", [0, 2])
def test_MK_PSETUP_3_2_any_free_point_not_one_near_your_seat(first):
    s, _ = new_game(4, {"start_player": first})
    points = {p.id for p in WINTER.start_points_for(4)}
    assert {c["point"] for c in GAME.legal_commands(s, first)} == points


def test_MK_PSETUP_5_top_row_repeats_bottom_row_once():
    s = ready(3)
    starters = {pos: t["card"] for pos, t in s["rosters"][0].items()}
    store = dict(s["stores"][0])
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    for pos in ("1,1", "1,2"):  # activated: the top row fills
        assert s["rosters"][0][pos]["held"] == [True] * len(top_row(starters[pos]))
    collected = next(e for e in ev if e["type"] == "TrollRecruited")["data"]["collected"]
    assert s["stores"][0] == {r: n + collected.get(r, 0) for r, n in store.items()}  # no starting row again
    assert all(starting_row(c) for c in starters.values())


def test_MK_EX_14_turn_order_bonus_five_players():
    s, _ = new_game(5)
    while s["phase"] == "doors":
        s, _ = apply(s, s["current"], GAME.legal_commands(s, s["current"])[0])
    unplaced, events = {}, []
    while s["phase"] == "draft":
        seat = min(GAME.active_seats(s))
        cmd = GAME.legal_commands(s, seat)[0]
        if len(s["draft"][seat]["placed"]) == 3:  # the last placement: what stays unplaced
            hand = [c for c in s["draft"][seat]["hand"] if c != cmd["card"]]
            unplaced[seat] = (hand, list(s["draft"][seat]["deck"]))
        s, ev = apply(s, seat, cmd)
        events += ev
    taken = {e["data"]["seat"]: e["data"] for e in events if e["type"] == "StartingResourcesTaken"}
    for seat in range(5):
        placed = [s["rosters"][seat][f"1,{k}"]["card"] for k in range(1, 5)]
        hand, deck = unplaced[seat]
        extra = {0: [], 1: hand, 2: hand, 3: hand + deck, 4: hand + deck}[seat]
        assert taken[seat]["cards"] == placed + extra
        assert Counter(taken[seat]["resources"]) == Counter(r for c in placed + extra for r in starting_row(c))


# --------------------------------------------------------------------------- resources, carts, trading

def test_MK_RES_1_seven_resource_types_everywhere():
    s = ready(3)
    kinds = {"stone", "iron", "heartstone", "coin", "cart", "hammer", "rune"}
    assert set(s["supply"]) == kinds and all(set(st) == kinds for st in s["stores"])
    _, t = position(FIRST_TURN + "storage 0 stone=4")
    assert {c["get"] for c in GAME.legal_commands(t, 0) if c["type"] == "trade"} == kinds


def test_MK_RES_6_clan_carts_only_move_their_clan():
    """MK-CART-2: a cart on a Fire clan symbol moves only a Fire statue and pays for nothing else."""
    _, s = position(ROW12 + """
        statues = {"12,2": "fire", "12,4": "ice"}
        storage 0 stone=3
        tunnel t1 0 12,3
        tunnel t2 0 12,4
        troll 0 1,1 stone+cart:fire 01
    """)
    assert spendable(s, 0).get("cart", 0) == 0
    with pytest.raises(Illegal):
        apply(s, 0, {"type": "trade", "give": {"stone": 3, "cart": 1}, "get": "rune"})
    assert {(tuple(m["from"]), m["cart"]) for m in moves(s)} == {((12, 2), "clan")}
    s, ev = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "clan"})
    assert s["rosters"][0]["1,1"]["held"] == [False, False]


def test_MK_RES_7_finite_supply_tokens_are_conserved(finished):
    _state, events = finished
    s = GAME.initial_state()
    for ev in events:
        s = GAME.evolve(s, ev)
        if "spells" not in s:
            continue
        total = Counter(s["supply"])
        for store in s["stores"]:
            total.update(store)
        for roster in s["rosters"]:
            for t in roster.values():
                total.update(resource_of(sym) for sym, held in zip(top_row(t["card"]), t["held"]) if held)
        for spot in s["horde"]["slots"].values():
            total.update(spot["bribes"])
        total["rune"] += sum(c["runes"] for c in s["spells"]["book"])
        assert dict(total) == SUPPLY, ev["type"]
        assert min(s["supply"].values()) >= 0


def test_MK_RES_7_an_empty_supply_fills_no_symbol_MK_AMB_4():
    _, s = position(FIRST_TURN + """
        storage 0
        troll 0 1,1 magenta-1          # [stone, stone]
        supply.stone = 1
        stores.1.stone = 34            # the rest of the 35 stone are elsewhere
        horde B1 coin+cart:fire        # the new troll takes no stone
    """)
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["rosters"][0]["1,1"]["held"] == [True, False] and s["supply"]["stone"] == 0


def test_MK_CART_1_a_carts_kind_comes_from_where_it_sits():
    _, s = position(ROW12 + """
        statues = {"12,2": "ice"}
        storage 0
        tunnel t1 0 12,3
        troll 0 1,1 stone+cart:fire 01
    """)
    assert moves(s) == []  # a Fire clan cart cannot move an Ice statue
    edit(GAME, s, """
        workshop 11,2 quartermasters_post
        turn.step = spells
    """)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [11, 2], "move": [1, 1, 1]})
    assert s["stores"][0]["cart"] == 1  # the same token, now in storage: wild
    assert {m["cart"] for m in moves(s)} == {"wild"}


def test_MK_CART_3_a_spiral_cart_on_a_troll_is_wild():
    _, s = position(ROW12 + """
        statues = {"12,2": "ice"}
        storage 0
        tunnel t1 0 12,3
        troll 0 1,1 magenta-5 01       # [stone, cart]: a spiral symbol
    """)
    s, ev = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert ev[-1]["data"]["paid"] == {"storage": {}, "trolls": [["1,1", 1]]}


def test_MK_CART_5_a_wild_cart_moves_any_clan():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire", "12,3": "ice", "12,4": "moon"}
        storage 0 cart=3
        tunnel t1 0 12,3
        tunnel t2 0 12,4
        tunnel t3 0 12,5
    """)
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 4], "to": [12, 5], "cart": "wild"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 3], "to": [12, 4], "cart": "wild"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert s["statues"] == {"12,3": "fire", "12,4": "ice", "12,5": "moon"} and s["stores"][0]["cart"] == 0


def test_MK_TRADE_2_a_traded_cart_is_wild():
    _, s = position(ROW12 + """
        statues = {"12,2": "moon"}
        storage 0 stone=4
        tunnel t1 0 12,3
    """)
    assert moves(s) == []
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "cart"})
    assert s["stores"][0]["cart"] == 1
    assert {m["cart"] for m in moves(s)} == {"wild"}


def test_MK_TRADE_3_trading_while_scoring_leftover_sets():
    _, s = position(FIRST_TURN + "storage 0 cart=3 stone=3 coin=2 rune=1 hammer=1 iron=2")
    assert sum(n // 3 for n in s["stores"][0].values()) == 2
    assert breakdowns(s)[0]["leftover_sets"] == 3  # rune + hammer + 2 iron -> the third coin


def test_MK_TRADE_4_only_resources_are_traded():
    _, s = position(FIRST_TURN + """
        storage 0 stone=4
        peds.0.fire = 1
    """)
    for give in ({"stone": 3, "fire": 1}, {"stone": 3, "pedestal": 1}, {"stone": 3, "statue": 1}):
        with pytest.raises(Illegal) as e:
            apply(s, 0, {"type": "trade", "give": give, "get": "rune"})
        assert e.value.rule == "MK-TRADE-1"
    assert all(set(c["give"]) <= set(SUPPLY) for c in GAME.legal_commands(s, 0) if c["type"] == "trade")


def test_MK_COMP_21_non_resources_never_count_as_resources():
    _, s = position(FIRST_TURN + """
        storage 0
        peds.0.fire = 3
        peds.0.ice = 3
        ped_tokens.0 = [3, 3, 3]
        coronation.taken = {"5": 0}
    """)
    assert spendable(s, 0) == {}
    assert [c for c in GAME.legal_commands(s, 0) if c["type"] == "trade"] == []
    got = breakdowns(s)[0]
    assert got["leftover_sets"] == 0 and got["pedestals"] == 9 and got["coronation"] == 5


def test_MK_PED_9_pedestals_are_not_resources():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        peds.0.moon = 3
    """)
    assert "moon" not in spendable(s, 0)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "trade", "give": {"stone": 3, "moon": 1}, "get": "iron"})
    assert e.value.rule == "MK-TRADE-1"
    assert breakdowns(s)[0]["leftover_sets"] == 1  # the 3 stone; 3 pedestals are no set


def test_MK_MOVE_9_trade_for_a_cart_during_step_4():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire"}
        storage 0 stone=4
        tunnel t1 0 12,3
    """)
    assert moves(s) == []
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "cart"})
    assert s["turn"]["step"] == "statues"
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 3], "cart": "wild"})
    assert s["statues"] == {"12,3": "fire"}


# --------------------------------------------------------------------------- step 2: recruit or dig

def test_MK_ACT_3_without_minerals_for_any_tunnel_you_must_recruit():
    _, s = position(FIRST_TURN + "storage 0 stone=1 iron=1 heartstone=1")  # no two minerals of one type
    cmds = GAME.legal_commands(s, 0)
    assert not [c for c in cmds if c["type"] == "dig"] and [c for c in cmds if c["type"] == "recruit"]
    assert {"type": "end_turn"} not in cmds
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "end_turn"})
    assert e.value.code == "must_recruit_or_dig"
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["turn"]["acted"]


def test_MK_ACT_5_both_possible_free_choice():
    _, s = position(FIRST_TURN + "storage 0 stone=2")
    kinds = {c["type"] for c in GAME.legal_commands(s, 0)}
    assert {"recruit", "dig"} <= kinds
    s1, _ = apply(s, 0, find_dig(s, 0, lambda c: True))
    s2, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s1["turn"]["acted"] and s2["turn"]["acted"]


def test_MK_REC_1_a_bottom_row_troll_costs_nothing():
    _, s = position(FIRST_TURN + "storage 0")
    card = s["horde"]["slots"]["B3"]["card"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B3", "position": [2, 2]})
    rec = next(e for e in ev if e["type"] == "TrollRecruited")["data"]
    assert rec["paid"] == {"storage": {}, "trolls": []} and rec["bribed"] == []
    assert all(sp["bribes"] == {} for sp in s["horde"]["slots"].values())
    assert s["rosters"][0]["2,2"]["card"] == card


def test_MK_REC_6_take_and_refill_from_the_same_level():
    _, s = position(FIRST_TURN + "storage 0 coin=2")
    taken = s["horde"]["slots"]["M3"]["card"]
    top = s["horde"]["decks"]["2"][0]
    bag = sum(s["bag"].values())
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M3", "position": [2, 1]})
    assert s["rosters"][0]["2,1"]["card"] == taken
    assert s["horde"]["slots"]["M3"]["card"] == top and top not in s["horde"]["decks"]["2"]
    assert s["horde"]["slots"]["M3"]["ped"] is not None and sum(s["bag"].values()) == bag - 1


def test_MK_REC_10_retirement_is_checked_after_a_recruit_only():
    _, s = position(FIRST_TURN + """
        storage 0 rune=1
        spell troll_lure
        bribes B4 coin=2
    """)
    card = s["horde"]["slots"]["B4"]["card"]
    s, ev = apply(s, 0, {"type": "cast", "spell": "troll_lure", "slot": "B4", "res": "stone"})
    assert "TrollRetired" not in types(ev) and s["horde"]["slots"]["B4"]["card"] == card  # 4 bribes wait
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert "TrollRetired" in types(ev) and s["horde"]["decks"]["1"][-1] == card
    assert types(ev).index("TrollRetired") > types(ev).index("TrollRecruited")


def test_MK_REC_11_place_then_cascade():
    _, s = position(FIRST_TURN + "storage 0")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B2", "position": [2, 2]})
    filled = next(e for e in ev if e["type"] == "TrollsActivated")["data"]["filled"]
    assert {pos for pos, _i in filled} == {"2,2", "1,2", "1,3"}
    assert types(ev).index("TrollsActivated") > types(ev).index("TrollRecruited")


def test_MK_REC_12_tenth_troll_checks_coronation():
    _, s = position(FIRST_TURN + f"""
        storage 0
        roster 0 {" ".join(NINE[:-1])}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [3, 2]})
    assert "CoronationTaken" not in types(ev)  # 9 trolls
    _, s = position(FIRST_TURN + f"""
        storage 0
        roster 0 {" ".join(NINE)}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "CoronationTaken", "data": {"seat": 0, "token": 5}} in ev


def test_MK_CASC_5_activation_gains_stay_on_the_trolls():
    _, s = position(FIRST_TURN + "storage 0")
    supply = dict(s["supply"])
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert all(n == 0 for n in s["stores"][0].values())
    filled = next(e for e in ev if e["type"] == "TrollsActivated")["data"]["filled"]
    assert filled and all(s["rosters"][0][pos]["held"][i] for pos, i in filled)
    assert sum(supply.values()) - sum(s["supply"].values()) == len(filled)


def test_MK_CASC_6_only_a_cascade_activates():
    s = ready(4)
    assert all(not any(t["held"]) for roster in s["rosters"] for t in roster.values())  # not at setup
    edit(GAME, s, "storage 0 stone=9")
    s, ev = apply(s, 0, find_dig(s, 0, lambda c: c["mineral"] == "stone"))
    s, ev2 = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "iron"})
    assert "TrollsActivated" not in types(ev + ev2)
    assert all(not any(t["held"]) for t in s["rosters"][0].values())


def test_MK_CASC_7_the_tenth_troll_tops_and_activates_all():
    _, s = position(FIRST_TURN + f"""
        storage 0
        roster 0 {" ".join(NINE)}
    """)
    assert {tuple(c["position"]) for c in GAME.legal_commands(s, 0) if c["type"] == "recruit"} == {(4, 1)}
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    filled = next(e for e in ev if e["type"] == "TrollsActivated")["data"]["filled"]
    assert {pos for pos, _i in filled} == set(s["rosters"][0]) and len(s["rosters"][0]) == 10
    assert all(all(t["held"]) for t in s["rosters"][0].values())


# --------------------------------------------------------------------------- horde and pedestals

def test_MK_HORDE_3_1_no_pedestals_once_the_bag_is_empty():
    _, s = position(FIRST_TURN + """
        storage 0 coin=7
        bag = {"fire": 0, "ice": 0, "moon": 0}
    """)
    s2, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert next(e for e in ev if e["type"] == "HordeRefilled")["data"]["pedestal"] is None
    assert s2["horde"]["slots"]["M2"]["ped"] is None
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "recruit" and "pedestal" in c]
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1], "pedestal": "fire"})
    assert e.value.rule == "MK-REC-9"


def test_MK_HORDE_3_2_a_retiring_middle_troll_leaves_its_pedestal_MK_AMB_7():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        bribes M1 coin=3
    """)
    ped = s["horde"]["slots"]["M1"]["ped"]
    card = s["horde"]["slots"]["M1"]["card"]
    bag = dict(s["bag"])
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert {"type": "TrollRetired", "data": {"slot": "M1", "card": card, "bribes": {"coin": 4}}} in ev
    assert s["horde"]["slots"]["M1"]["card"] != card and s["horde"]["slots"]["M1"]["ped"] == ped
    assert s["bag"] == bag


def test_MK_HORDE_5_choose_pedestal_tokens_stay_in_the_top_row():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        bribes T2 coin=4
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B5", "position": [2, 1]})
    assert "TrollRetired" in types(ev)
    view = GAME.view(s, None)["horde"]["slots"]
    assert sorted(sl for sl, sp in view.items() if sp["choose_pedestal"]) == ["T1", "T2", "T3"]


def test_MK_PED_1_pedestals_come_from_recruiting_into_storage():
    _, s = position(FIRST_TURN + "storage 0 coin=7 stone=2")
    none = {"fire": 0, "ice": 0, "moon": 0}
    s1, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s1["peds"][0] == none
    s1, _ = apply(s, 0, find_dig(s, 0, lambda c: True))
    assert s1["peds"][0] == none
    mid = s["horde"]["slots"]["M1"]["ped"]
    s1, _ = apply(s, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert s1["peds"][0] == dict(none, **{mid: 1})
    clan = next(c for c in ("fire", "ice", "moon") if s["bag"][c])
    s1, _ = apply(s, 0, {"type": "recruit", "slot": "T2", "position": [2, 1], "pedestal": clan})
    assert s1["peds"][0] == dict(none, **{clan: 1}) and GAME.view(s1, 1)["players"][0]["pedestals"][clan] == 1


def _anchor_on_statue(s):
    """Seat 0 digs a D2 tile whose anchor lies on the brown statue space (3,8) (``ANCHOR_ON_STATUE``)."""
    cmd = find_dig(s, 0, lambda c: c["tile"] == "D2" and c["anchor"] == [3, 8]
                   and not any(tuple(x) in WINTER.rubble or tuple(x) in WINTER.buried for x in c["cells"]))
    assert cmd is not None
    return apply(s, 0, cmd)[0]


def test_MK_AMB_11_a_pedestal_under_a_statue_unburied_by_the_same_dig():
    _, s = position(ANCHOR_ON_STATUE + "peds.0.ice = 1")
    s = _anchor_on_statue(s)
    assert s["turn"]["dug"]["anchor"] == [3, 8]
    s, _ = apply(s, 0, {"type": "place_pedestal", "clan": "ice"})
    assert s["statues"]["3,8"] == "ice"
    assert breakdowns(s)[0]["statues"] == 2 * 2 * level((3, 8))  # the statue stands on its own clan's pedestal
    assert all(t.anchor is None for t in content.tiles() if t.size == 5)


def test_MK_AMB_12_one_pedestal_per_dig():
    _, s = position(ANCHOR_ON_STATUE + """
        peds.0.ice = 1
        peds.0.fire = 1
    """)
    s = _anchor_on_statue(s)
    s, _ = apply(s, 0, {"type": "place_pedestal", "clan": "ice"})
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "place_pedestal"]
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "place_pedestal", "clan": "fire"})
    assert e.value.rule == "MK-PED-3"


def test_MK_PED_7_a_placed_pedestal_stays_until_a_hall_covers_it():
    _, s = position(FIRST_TURN + """
        storage 0
        step hall
        door 0 8,3
        tunnel t1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4 11,5 12,4 13,4 anchor=9,3 pedestal=fire
        ped_track -= 3:fire           # (9,3) is on level 3
        halls = ["shamans-chamber"]
    """)
    cmd = next(c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall" and [9, 3] not in c["cells"]
               and sorted(c["cells"]) == [[10, 3], [10, 4], [10, 5], [11, 3], [11, 4], [11, 5]])
    s, _ = apply(s, 0, cmd)
    kept = [p for p in s["pieces"].values() if p.get("pedestal")]
    assert kept and kept[0]["anchor"] == [9, 3] and kept[0]["pedestal"] == "fire"  # never moves
    _, t = position(FIRST_TURN + """
        storage 0
        step hall
        door 0 12,2
        tunnel t1 0 12,3 12,4 12,5 12,6 12,7 anchor=12,5 pedestal=moon
        ped_track -= 4:moon           # (12,5) is on level 4
        halls = ["hall-of-echoes"]
    """)
    t, _ = apply(t, 0, next(c for c in GAME.legal_commands(t, 0) if c["type"] == "build_hall"))
    assert not [p for p in t["pieces"].values() if p.get("pedestal")]
    assert f"{level((12, 5))}:moon" not in t["ped_track"]  # the pair stays used


# --------------------------------------------------------------------------- digging

def test_MK_ADJ_2_a_tile_touches_the_network_through_any_one_space():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        door 0 12,3
    """)
    ends = [c for c in dig_commands(s, 0) if c["tile"] == "I3"
            and [x for x in c["cells"] if abs(x[0] - 12) + abs(x[1] - 3) == 1] in ([c["cells"][0]], [c["cells"][-1]])]
    assert ends  # one end space touching the door is enough
    apply(s, 0, ends[0])
    diagonal = {"type": "dig", "tile": "I3", "cells": [[9, 4], [10, 4], [11, 4]], "anchor": [10, 4],
                "mineral": "stone"}
    with pytest.raises(Illegal) as e:
        apply(s, 0, diagonal)
    assert e.value.rule == "MK-DIG-4"


def test_MK_AMB_13_buried_hammers_cannot_pay_for_their_own_dig():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3 hammer=1
        door 0 3,6
    """)
    cmd = find_dig(s, 0, lambda c: [3, 7] in c["cells"] and [4, 8] in c["cells"] and len(c["cells"]) == 3)
    assert cmd is not None  # covers the buried hammer at (3,7) and the rubble at (4,8)
    edit(GAME, s, "storage 0 stone=3")
    assert cmd not in GAME.legal_commands(s, 0)
    with pytest.raises(Illegal) as e:
        apply(s, 0, cmd)
    assert e.value.rule == "MK-DIG-8"
    edit(GAME, s, "storage 0 stone=3 hammer=1")
    s, ev = apply(s, 0, cmd)
    assert types(ev)[-2:] == ["TunnelDug", "ResourcesGained"] and s["stores"][0]["hammer"] == 1


def test_MK_DIG_3_2_tunnel_honor_stays_when_a_hall_covers_the_tunnel():
    _, s = position(FIRST_TURN + """
        storage 0 stone=4
        door 0 9,6
        tunnel x1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4   # not "t1": the dig below takes that id
        statues = {}
    """)
    s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 4 and c["mineral"] == "stone"))
    assert s["honor"][0] == 4
    s, _ = apply(s, 0, {"type": "end_step"})
    hall = next(c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall")
    s, _ = apply(s, 0, hall)
    assert s["honor"][0] == 4 and breakdowns(s)[0]["tunnels"] == 4


def test_MK_EST_2_one_tunnel_several_workshops():
    _, s = position(D_CORNER + """
        storage 0 stone=3
        ws_supply = ["spellweaver", "tool_forge"]
    """)
    s, ev = apply(s, 0, d_corner(s))
    assert next(e for e in ev if e["type"] == "TunnelDug")["data"]["workshops"] == [[4, 1], [4, 5]]
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 1], "kind": "tool_forge"})
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 5], "kind": "spellweaver"})
    assert s["workshops"] == {"4,1": "tool_forge", "4,5": "spellweaver"} and s["ws_supply"] == []


def test_MK_AMB_17_establishing_is_optional_free_and_duplicates_allowed():
    _, s = position(D_CORNER + """
        storage 0 stone=3
        ws_supply = ["coin_press", "tool_forge", "tool_forge"]
    """)
    s, _ = apply(s, 0, d_corner(s))
    cmds = GAME.legal_commands(s, 0)
    assert {"type": "end_step"} in cmds  # optional
    assert {c["kind"] for c in cmds if c["type"] == "establish_workshop"} == {"coin_press", "tool_forge"}
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 1], "kind": "tool_forge"})
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 5], "kind": "tool_forge"})
    assert s["workshops"] == {"4,1": "tool_forge", "4,5": "tool_forge"}
    edit(GAME, s, "storage 0 heartstone=1")
    with pytest.raises(Illegal) as e:  # within the dig: not usable this turn
        apply(s, 0, {"type": "use_workshop", "space": [4, 5], "give": {"heartstone": 1}, "get": {"hammer": 1}})
    assert e.value.code == "out_of_phase"


def test_MK_EST_5_a_new_workshop_serves_any_network_on_later_turns():
    _, s = position(D_CORNER + """
        storage 0 stone=3
        ws_supply = ["stone_mill"]
        door 1 4,6                    # seat 1's door opens the east entrance of (4,5)
    """)
    s, _ = apply(s, 0, d_corner(s))
    s, _ = apply(s, 0, {"type": "establish_workshop", "space": [4, 5], "kind": "stone_mill"})
    s, _ = apply(s, 0, {"type": "end_turn"})
    assert s["current"] == 1
    edit(GAME, s, """
        empty_trolls 1
        storage 1 stone=2 iron=2 heartstone=2 coin=2 cart=2 hammer=2 rune=2
    """)
    uses = [c for c in GAME.legal_commands(s, 1) if c["type"] == "use_workshop"]
    assert uses and all(u["space"] == [4, 5] for u in uses)
    s, ev = apply(s, 1, uses[0])
    assert ev[0]["type"] == "WorkshopActivated" and ev[0]["data"]["uses"] == 2


# --------------------------------------------------------------------------- workshops

def test_MK_WS_6_workshop_gains_go_into_storage():
    _, s = position(FIRST_TURN + """
        storage 0
        door 0 3,15
        workshop 3,16 tool_forge
        workshop 2,15 quartermasters_post
        troll 0 1,1 magenta-4 1       # [heartstone]
    """)
    s2, _ = apply(s, 0, {"type": "use_workshop", "space": [3, 16], "give": {"heartstone": 1},
                         "get": {"hammer": 1}})
    assert s2["stores"][0]["hammer"] == 1 and s2["rosters"][0]["1,1"]["held"] == [False]
    supply = dict(s["supply"])
    s3, _ = apply(s, 0, {"type": "use_workshop", "space": [2, 15], "move": [1, 1, 0]})
    assert s3["stores"][0]["heartstone"] == 1 and s3["supply"] == supply  # moved, nothing from the supply


def test_MK_WS_7_workshops_have_no_owner():
    _, s = position(FIRST_TURN + """
        storage 0 stone=1
        door 0 3,15
        workshop 3,16 stone_mill
        door 1 4,16                   # another network, through another entrance
    """)
    use = {"type": "use_workshop", "space": [3, 16], "give": {"stone": 1}, "get": {"iron": 1}}
    s, ev = apply(s, 0, use)
    assert ev[0]["data"]["uses"] == 2
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    s, _ = apply(s, 0, {"type": "end_turn"})
    edit(GAME, s, """
        empty_trolls 1
        storage 1 stone=1
    """)
    s, ev = apply(s, 1, use)
    assert ev[0]["data"] == {"seat": 1, "space": "3,16", "kind": "stone_mill", "uses": 2}
    assert s["stores"][1]["iron"] == 1


# --------------------------------------------------------------------------- halls and statues

def _hall_region(s):
    """The build of the 6-space shamans-chamber on rows 10-11 in ``HALL_REGION``."""
    return next(c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"
                and sorted(c["cells"]) == [[10, 3], [10, 4], [10, 5], [11, 3], [11, 4], [11, 5]])


def test_MK_HALL_4_a_hall_costs_nothing_and_scores_only_at_the_end():
    _, s = position(HALL_REGION + """
        storage 0 stone=2 coin=1
        troll 0 1,1 magenta-1 11
        statues = {}
    """)
    cmd = _hall_region(s)
    before = (dict(s["stores"][0]), [t["held"] for t in s["rosters"][0].values()], list(s["honor"]))
    s, ev = apply(s, 0, cmd)
    assert types(ev) == ["GreatHallBuilt"]
    assert (s["stores"][0], [t["held"] for t in s["rosters"][0].values()], s["honor"]) == before
    assert breakdowns(s)[0]["great_halls"] == content.hall("shamans-chamber").low


def test_MK_HALL_5_covered_statues_stay_on_their_space():
    _, s = position(HALL_REGION + """
        storage 0
        statues = {"10,4": "fire", "11,5": "moon", "9,3": "ice"}
    """)
    s, _ = apply(s, 0, _hall_region(s))
    assert s["statues"] == {"10,4": "fire", "11,5": "moon", "9,3": "ice"}
    assert lay(s).piece_at[(10, 4)] == "hall:shamans-chamber" == lay(s).piece_at[(11, 5)]


def test_MK_HALL_11_statues_in_a_hall_score_no_level_points():
    """MK-SCORE-6: statues in a great hall, on the altar or not, score no mountain-level points."""
    _, s = position(FIRST_TURN + """
        storage 0
        door 0 12,2
        hall hall-of-echoes 0 12,3 12,4 12,5 12,6 12,7 altar=12,5
        statues = {"12,3": "fire", "12,7": "ice"}
    """)
    echoes = content.hall("hall-of-echoes")
    got = breakdowns(s)[0]
    assert (got["statues"], got["great_halls"]) == (0, echoes.low)
    edit(GAME, s, "statue 12,5 moon")
    got = breakdowns(s)[0]
    assert (got["statues"], got["great_halls"]) == (0, echoes.high)


def test_MK_MOVE_8_several_statues_in_one_tunnel_one_scores():
    _, s = position(ROW12 + """
        statues = {"12,2": "fire", "12,3": "ice"}
        storage 0 cart=1
        tunnel t1 0 12,3 12,4
    """)
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 2], "to": [12, 4], "cart": "wild"})
    assert s["statues"] == {"12,3": "ice", "12,4": "fire"}
    assert breakdowns(s)[0]["statues"] == max(2 * level((12, 3)), 2 * level((12, 4)))


def test_MK_AMB_24_statues_have_no_owner():
    _, s = position(ROW12 + """
        statues = {"12,4": "moon"}
        storage 0 cart=1
        tunnel t1 0 12,3
        tunnel t2 1 12,4              # laid (and unburied) by another seat, now in seat 0's network
    """)
    assert {tuple(m["from"]) for m in moves(s)} == {(12, 4)}
    s, _ = apply(s, 0, {"type": "move_statue", "from": [12, 4], "to": [12, 3], "cart": "wild"})
    assert s["statues"] == {"12,3": "moon"}


# --------------------------------------------------------------------------- spells

def test_MK_SPELL_4_runes_stay_on_the_card():
    _, s = position(FIRST_TURN + """
        storage 0 rune=1
        spell earth_ritual 1
    """)
    supply = s["supply"]["rune"]
    s, ev = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert s["spells"]["book"][1] == {"id": "earth_ritual", "runes": 1}
    assert s["supply"]["rune"] == supply and s["stores"][0]["rune"] == 0
    assert "SpellDisintegrated" not in types(ev)


def test_MK_SPELL_5_earth_ritual_is_among_the_seventeen():
    s, _ = new_game(3)
    dealt = [c["id"] for c in s["spells"]["book"]] + s["spells"]["deck"]
    assert sorted(dealt) == sorted(SPELLS) and len(dealt) == 17
    assert SPELLS["earth_ritual"]["name"] == "Earth Ritual"


# --------------------------------------------------------------------------- end and scoring

def test_MK_END_2_the_second_token_triggers_the_end():
    _, s = position(FIRST_TURN + f"""
        storage 0
        coronation = {{"left": [3], "taken": {{"5": 2}}}}
        roster 0 {" ".join(NINE)}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "CoronationTaken", "data": {"seat": 0, "token": 3}} in ev
    assert "EndTriggered" in types(ev) and s["coronation"] == {"left": [], "taken": {"5": 2, "3": 0}}


def test_MK_END_5_two_more_full_rounds_from_the_start_player():
    _, s = position(f"""
        mountain-king 3 seed=seed
        opening
        coronation = {{"left": [3], "taken": {{"5": 0}}}}
        current = 2
        turn.seat = 2
        roster 2 {" ".join(NINE)}
    """)
    s, _ = apply(s, 2, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    s, ev = apply(s, 2, {"type": "end_turn"})
    seats = [e["data"]["seat"] for e in ev if e["type"] == "TurnStarted"]
    s = resume(s, b"end5", on_step=lambda g: seats.extend(
        e["data"]["seat"] for e in g.steps[-1].events if e["type"] == "TurnStarted"))
    assert GAME.is_terminal(s) and seats == [0, 1, 2, 0, 1, 2]


def test_MK_SCORE_1_the_total_is_the_sum_of_six_figures(finished):
    state, events = finished
    final = events[-1]["data"]["scores"]
    board = GAME.scores(state)
    assert board.final
    for x in board.seats:
        assert tuple(final[str(x.seat)]) == CATEGORIES
        assert x.total == sum(final[str(x.seat)].values())
        assert final[str(x.seat)]["tunnels"] == state["honor"][x.seat]


def test_MK_SCORE_3_pedestal_tokens_sum():
    _, s = position(FIRST_TURN + """
        storage 0
        ped_tokens.0 = [3, 4, 2]
    """)
    assert breakdowns(s)[0]["pedestals"] == 9


def test_MK_SCORE_10_the_highest_total_is_crowned(finished):
    state, _events = finished
    board = GAME.scores(state)
    best = max(x.total for x in board.seats)
    assert board.winners and all(x.total == best for x in board.seats if x.seat in board.winners)
    assert {str(x.seat): x.breakdown for x in board.seats} == state["final"]


# --------------------------------------------------------------------------- team variant

def test_MK_TEAM_2_one_score_marker_per_team():
    _, s = position(TEAMS + "storage 0 stone=3")
    assert len(s["honor"]) == 2
    s, _ = apply(s, 0, find_dig(s, 0, lambda c: len(c["cells"]) == 3 and c["mineral"] == "stone"))
    totals = {x.seat: x.breakdown["tunnels"] for x in GAME.scores(s).seats}
    assert totals == {0: 3, 3: 3, 1: 0, 2: 0}


def test_MK_TEAM_4_one_storage_per_team():
    _, s = position(TEAMS + "storage 0 stone=4")
    assert len(s["stores"]) == 2 and s["store_of"] == [0, 1, 1, 0]
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "rune"})
    assert GAME.view(s, 3)["players"][3]["storage"]["rune"] == 1
    edit(GAME, s, "empty_trolls 3")
    assert spendable(s, 3) == {"rune": 1}


def test_MK_TEAM_11_pedestals_go_to_team_storage_either_teammate_places():
    _, s = position(TEAMS + "storage 0 coin=2")
    clan = s["horde"]["slots"]["M1"]["ped"]
    s, _ = apply(s, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    s, _ = apply(s, 0, {"type": "end_turn"})
    for seat in (1, 2):
        s, _ = apply(s, seat, {"type": "recruit", "slot": "B1", "position": [2, 1]})
        s, _ = apply(s, seat, {"type": "end_turn"})
    assert s["current"] == 3 and s["peds"][0][clan] == 1
    edit(GAME, s, """
        empty_trolls 3
        storage 3 stone=4
    """)
    track = dict(s["ped_track"])
    dig = find_dig(s, 3, lambda c: c["anchor"] and f"{WINTER.level(c['anchor'])}:{clan}" in track)
    s, _ = apply(s, 3, dig)
    s, ev = apply(s, 3, {"type": "place_pedestal", "clan": clan})
    assert s["peds"][0][clan] == 0 and len(s["ped_tokens"][0]) == 1


def test_MK_TEAM_14_the_team_with_the_highest_total_wins():
    _, s = position("""
        mountain-king 4 seed=seed options={"teams": true}
        opening
        empty_trolls 0
        empty_trolls 1
        empty_trolls 2
        empty_trolls 3
        storage 0
        storage 1
        storage 2
        storage 3
        honor = [12, 20]
    """)
    board = GAME.scores(s)
    assert sorted(board.winners) == [1, 2]
    assert {x.seat: x.place for x in board.seats} == {1: 1, 2: 1, 0: 3, 3: 3}


# --------------------------------------------------------------------------- a whole game

@pytest.fixture(scope="module")
def finished():
    state, events, _n = play(3, seed=b"rule-ids")
    assert GAME.is_terminal(state)
    return state, events
