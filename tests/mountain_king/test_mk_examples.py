"""The rulebook's worked examples (section 25, MK-EX-1..14) rebuilt as states.

Board positions in the rulebooks are pictures, so each example is the smallest
text position (tests/support/positions.py) that reproduces the stated outcome:
pieces are set straight into the occupancy model of board.py where the geometry
is not the point of the example.
"""
import pytest

from domain.core import Illegal
from domain.mountain_king import content
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.economy import plan_payment, spendable
from domain.mountain_king.leftovers import best_sets
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import breakdowns

from mk_driver import apply, resume, types
from tests.support.positions import edit, position
from test_mk_rule_ids import FIRST_TURN


def test_MK_EX_1_spend_from_storage_and_trolls_MK_RES_2():
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        empty_trolls 0
        storage 0 stone=2
        troll 0 1,3 magenta-1 11      # [stone, stone]
        troll 0 1,1 magenta-5 10      # [stone, cart]
    """)
    assert spendable(s, 0)["stone"] == 5
    paid = plan_payment(s, 0, {"stone": 4}, "MK-DIG-2")
    assert len(paid["trolls"]) == 3 and paid["storage"] == {"stone": 1}
    paid = plan_payment(s, 0, {"stone": 4}, "MK-DIG-2", sources=["storage", [1, 3], [1, 1]])
    assert paid["storage"] == {"stone": 2} and len(paid["trolls"]) == 2


def test_MK_EX_2_earth_ritual_rune_stays_then_disintegrates_MK_SPELL_2_3():
    """MK-SPELL-3: the third rune disintegrates the card: runes to the supply, card to the bottom, top revealed."""
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        spell earth_ritual 0 1
        empty_trolls 0
        storage 0 rune=1
    """)
    s2, ev = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert s2["spells"]["book"][0] == {"id": "earth_ritual", "runes": 2}
    assert s2["stores"][0]["stone"] == s2["stores"][0]["iron"] == s2["stores"][0]["heartstone"] == 1
    with pytest.raises(Illegal) as e:
        apply(s2, 0, {"type": "cast", "spell": "earth_ritual"})
    assert e.value.rule == "MK-TURN-2"
    edit(GAME, s, "spells.book.0.runes = 2")
    top = s["spells"]["deck"][0]
    supply = s["supply"]["rune"]
    s3, ev = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert "SpellDisintegrated" in types(ev)
    assert s3["spells"]["book"][0] == {"id": top, "runes": 0}
    assert s3["spells"]["deck"][-1] == "earth_ritual"
    assert s3["supply"]["rune"] == supply + 3  # the card's 3 runes return (MK-SPELL-3.1)


def test_MK_EX_3_workshop_with_three_open_entrances_MK_WS_4():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 3,15
        workshop 3,16 tool_forge      # east of the door: entrance 1
        pieces.x1 = {"kind": "door", "cells": [[2, 16], [2, 17], [3, 17]], "seat": 1}   # entrances 2 and 3
        empty_trolls 0
        storage 0 heartstone=3 hammer=1
    """)
    r, c = 3, 16
    uses = [x for x in GAME.legal_commands(s, 0) if x["type"] == "use_workshop"]
    assert {(tuple(u["give"]), tuple(u["get"])) for u in uses} == {(("heartstone",), ("hammer",)),
                                                                  (("hammer",), ("heartstone",))}
    cmd = {"type": "use_workshop", "space": [r, c], "give": {"heartstone": 1}, "get": {"hammer": 1}}
    s, ev = apply(s, 0, cmd)
    assert ev[0]["type"] == "WorkshopActivated" and ev[0]["data"]["uses"] == 3
    s, _ = apply(s, 0, cmd)
    s, _ = apply(s, 0, {**cmd, "give": {"hammer": 1}, "get": {"heartstone": 1}})
    assert s["stores"][0]["hammer"] == 2 and s["stores"][0]["heartstone"] == 2
    with pytest.raises(Illegal) as e:
        apply(s, 0, cmd)
    assert e.value.rule == "MK-WS-8"


def test_MK_WS_3_no_access_without_own_entrance():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 1 15,15
        workshop 15,16 stone_mill     # east of seat 1's door
        storage 0 stone=2
    """)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "use_workshop", "space": [15, 16], "give": {"stone": 1}, "get": {"iron": 1}})
    assert e.value.rule == "MK-WS-3"


def test_MK_WST_6_quartermaster_clan_cart_becomes_wild():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 3,15
        workshop 3,16 quartermasters_post
        empty_trolls 0
        storage 0
        troll 0 1,1 stone+cart:fire 01
    """)
    assert spendable(s, 0).get("cart", 0) == 0  # clan carts are not general payment (MK-AMB-3)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [3, 16], "move": [1, 1, 1]})
    assert s["stores"][0]["cart"] == 1 and spendable(s, 0)["cart"] == 1


def test_MK_EX_4_level_3_recruit_bribes_five_and_chooses_pedestal_MK_REC_3_9():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        horde T3 iron+iron+heartstone+cart:ice+cart:ice
    """)
    nxt = s["horde"]["decks"]["3"][0]
    assert s["bag"]["moon"]  # a moon pedestal left to choose
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T3", "position": [2, 1], "pedestal": "moon"})
    for sl in ("M3", "M4", "B3", "B4", "B5"):
        assert s["horde"]["slots"][sl]["bribes"] == {"coin": 1}
    assert s["stores"][0]["coin"] == 0
    assert s["horde"]["slots"]["T3"]["card"] == nxt
    assert s["peds"][0]["moon"] == 1
    assert GAME.view(s, None)["horde"]["slots"]["T3"]["choose_pedestal"]


def test_MK_REC_2_level_2_recruit_bribes_two_and_takes_pedestal_MK_REC_8():
    _, s = position(FIRST_TURN + "storage 0 coin=2")
    ped = s["horde"]["slots"]["M2"]["ped"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert s["horde"]["slots"]["B2"]["bribes"] == {"coin": 1} == s["horde"]["slots"]["B3"]["bribes"]
    assert s["peds"][0][ped] == 1
    refill = next(e for e in ev if e["type"] == "HordeRefilled")
    assert refill["data"]["slot"] == "M2"
    assert s["horde"]["slots"]["M2"]["ped"] == refill["data"]["pedestal"]  # MK-HORDE-3


def test_MK_REC_4_cannot_recruit_without_bribes():
    _, s = position(FIRST_TURN + "storage 0 coin=1")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert e.value.rule == "MK-REC-4"
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "recruit" and c["slot"][0] != "B"]


def test_MK_REC_7_collect_bribes_and_MK_HORDE_4_retire_at_four():
    _, s = position(FIRST_TURN + """
        storage 0 coin=2
        bribes B1 coin=2 rune=1
        bribes B3 coin=3
    """)
    retiring = s["horde"]["slots"]["B3"]["card"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert "TrollRetired" in types(ev)
    assert s["horde"]["decks"]["1"][-1] == retiring
    assert s["horde"]["slots"]["B3"]["bribes"] == {}
    _, s2 = position(FIRST_TURN + """
        storage 0
        bribes B1 coin=2 rune=1
    """)
    s2, _ = apply(s2, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s2["stores"][0]["coin"] == 2 and s2["stores"][0]["rune"] == 1


def test_MK_HORDE_2_deck_exhaustion_falls_back_up_then_down():
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        horde.decks.1 = []
    """)
    up = s["horde"]["decks"]["2"][0]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["horde"]["slots"]["B1"]["card"] == up
    _, s = position(FIRST_TURN + """
        storage 0 coin=5
        horde.decks.3 = []
    """)
    down = s["horde"]["decks"]["2"][0]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert s["horde"]["slots"]["T1"]["card"] == down


def test_MK_EX_5_cascade_MK_CASC_2_4():
    """MK-CASC-4: each empty symbol of an activated troll takes one token; covered symbols produce nothing."""
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        rosters.0 = {}
        troll 0 1,1 magenta-3
        troll 0 1,2 magenta-4
        troll 0 1,3 magenta-1 11
        troll 0 1,4 magenta-2
        troll 0 2,1 stone+stone+cart:fire 001
        troll 0 2,2 iron+heartstone 01
        horde B1 iron+iron+iron+rune+cart
    """)
    positions = {tuple(c["position"]) for c in GAME.legal_commands(s, 0) if c["type"] == "recruit"}
    assert positions == {(3, 1), (2, 3)}
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [3, 1]})
    ros = s["rosters"][0]
    assert ros["3,1"]["held"] == [True] * 5
    assert ros["2,1"]["held"] == [True, True, True]
    assert ros["2,2"]["held"] == [True, True]
    assert ros["1,1"]["held"] == [True] and ros["1,2"]["held"] == [True]
    assert ros["1,4"]["held"] == [False]


def _door_at(s, seat, cell):
    edit(GAME, s, f"door {seat} {cell[0]},{cell[1]}")


def _find_dig(s, seat, want):
    for cmd in dig_commands(s, seat):
        if want(cmd):
            return cmd
    return None


def test_MK_EX_6_dig_unearths_resources_and_statue_MK_DIG_3_9_10():
    b = content.board("winter")
    spot = next(c for c, r in b.buried.items() if r == ("iron", "iron", "hammer") and b.level(c) == 3)
    statue = next(c for c in b.statue_spaces if abs(c[0] - spot[0]) + abs(c[1] - spot[1]) == 1)
    door = next(n for n in b.neighbours(spot) if b.coverable(n) and n != statue and n not in b.rubble)
    _, s = position(FIRST_TURN + f"""
        statue {statue[0]},{statue[1]} fire
        storage 0 stone=4
        door 0 {door[0]},{door[1]}
    """)
    cmd = _find_dig(s, 0, lambda c: len(c["cells"]) == 4 and list(spot) in c["cells"]
                    and list(statue) in c["cells"] and not any(tuple(x) in b.rubble for x in c["cells"]))
    assert cmd is not None and cmd["mineral"] == "stone"
    s, ev = apply(s, 0, cmd)
    assert s["honor"][0] == 4
    assert s["stores"][0]["iron"] == 2 and s["stores"][0]["hammer"] == 1 and s["stores"][0]["stone"] == 0
    dug = next(e for e in ev if e["type"] == "TunnelDug")["data"]
    assert dug["unburied"] == [list(statue)]
    s, _ = apply(s, 0, {"type": "end_step"})
    edit(GAME, s, "storage 0 cart=1")
    moves = [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue"]
    assert moves and all(m["from"] == list(statue) for m in moves)


def test_MK_DIG_8_rubble_costs_hammers():
    _, s = position(FIRST_TURN + "storage 0 stone=4 hammer=3")
    b = content.board("winter")
    found = None
    for rub in sorted(b.rubble):
        for door in b.neighbours(rub):
            if b.coverable(door) and door not in b.rubble:
                _door_at(s, 0, door)
                found = _find_dig(s, 0, lambda c: len(c["cells"]) == 4
                                  and sum(tuple(x) in b.rubble for x in c["cells"]) == 3)
                if found:
                    break
        if found:
            break
    assert found, "the board offers a size-4 dig over 3 rubble spaces (MK-EX-6)"
    s2, ev = apply(s, 0, found)
    assert s2["stores"][0]["hammer"] == 0 and s2["stores"][0]["stone"] == 0
    edit(GAME, s, "storage 0 stone=4 hammer=2")
    with pytest.raises(Illegal) as e:
        apply(s, 0, found)
    assert e.value.rule == "MK-DIG-8"
    assert found not in GAME.legal_commands(s, 0)


def _dig_anchor_in(s, seat, level):
    b = content.board("winter")
    for cell, lv in sorted(b.levels.items()):
        if lv != level or not b.coverable(cell):
            continue
        for door in b.neighbours(cell):
            if b.coverable(door):
                _door_at(s, seat, door)
                cmd = _find_dig(s, seat, lambda c: len(c["cells"]) == 4 and c["anchor"]
                                and b.level(c["anchor"]) == level)
                if cmd:
                    return cmd
    raise AssertionError("no anchored size-4 dig in that level")


def test_MK_EX_7_pedestal_one_per_clan_per_level_MK_PED_4_6():
    _, s = position(FIRST_TURN + """
        storage 0 iron=4 hammer=4
        peds.0.fire = 1
        peds.0.moon = 1
        ped_track -= 5:moon
        ped_track.5:fire = 3
    """)
    cmd = _dig_anchor_in(s, 0, 5)
    s, _ = apply(s, 0, cmd)
    assert {"type": "place_pedestal", "clan": "moon"} not in GAME.legal_commands(s, 0)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "place_pedestal", "clan": "moon"})
    assert e.value.rule == "MK-PED-6"
    s, ev = apply(s, 0, {"type": "place_pedestal", "clan": "fire"})
    assert s["ped_tokens"][0] == [3] and "5:fire" not in s["ped_track"]
    with pytest.raises(Illegal):
        apply(s, 0, {"type": "place_pedestal", "clan": "fire"})


def test_MK_EX_8_establish_workshop_usable_later_MK_EST_1_5():
    _, s = position(FIRST_TURN + """
        storage 0 stone=5 hammer=5 coin=2
        ws_supply += spellweaver
    """)
    b = content.board("winter")
    cmd = None
    for ws in b.workshop_spaces:
        for door in b.neighbours(ws):
            if b.coverable(door):
                _door_at(s, 0, door)
                cmd = _find_dig(s, 0, lambda c: [list(ws)] and any(
                    abs(x[0] - ws[0]) + abs(x[1] - ws[1]) == 1 for x in c["cells"]))
                if cmd:
                    break
        if cmd:
            break
    s, ev = apply(s, 0, cmd)
    spaces = next(e for e in ev if e["type"] == "TunnelDug")["data"]["workshops"]
    est = {"type": "establish_workshop", "space": spaces[0], "kind": "spellweaver"}
    assert est in GAME.legal_commands(s, 0)
    s, _ = apply(s, 0, est)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "use_workshop", "space": spaces[0], "give": {"coin": 1}, "get": {"rune": 1}})
    assert e.value.code == "out_of_phase"
    edit(GAME, s, """
        turn.step = spells            # a later turn's step 1
        turn.ws = null
    """)
    s, ev = apply(s, 0, {"type": "use_workshop", "space": spaces[0], "give": {"coin": 1}, "get": {"rune": 1}})
    assert s["stores"][0]["rune"] == 1


def _block(r0, c0, rows, cols):
    return [(r, c) for r in range(r0, r0 + rows) for c in range(c0, c0 + cols)]


def test_MK_EX_9_hidden_treasure_6_or_15_MK_HALL_3_5_6_10():
    """MK-HALL-10: the hall scores its low value with an empty altar, its high value with a statue on it."""
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 9,6
        tunnel t1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4 11,5 anchor=10,4 pedestal=ice
        ped_tokens.0 = [4]
        ped_track -= 4:ice
        statues = {"11,3": "moon"}
        step hall
        halls = ["the-hidden-treasure"]
    """)
    cmds = [c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"]
    cmd = next(c for c in cmds if [11, 3] in c["cells"] and [10, 4] in c["cells"] and c["altar"] != [11, 3])
    s, ev = apply(s, 0, cmd)
    built = next(e for e in ev if e["type"] == "GreatHallBuilt")["data"]
    assert built["pedestals_removed"] == [{"cell": [10, 4], "clan": "ice"}]
    assert s["ped_tokens"][0] == [4] and "4:ice" not in s["ped_track"]
    assert s["statues"] == {"11,3": "moon"}
    assert breakdowns(s)[0]["great_halls"] == 6 and breakdowns(s)[0]["statues"] == 0
    edit(GAME, s, f"""
        statues = {{}}
        statue {cmd['altar'][0]},{cmd['altar'][1]} moon
    """)
    assert breakdowns(s)[0]["great_halls"] == 15


def test_MK_EX_10_statue_moves_clan_and_wild_carts_MK_MOVE_1_9():
    r = 9
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        door 0 9,0
        tunnel t1 0 9,1
        tunnel t2 0 9,2
        tunnel t3 0 9,3
        tunnel t4 0 9,4 anchor=9,4 pedestal=fire
        hall the-rift 0 10,2 altar=10,2
        statues = {"9,0": "fire", "9,2": "moon", "8,6": "ice"}
        empty_trolls 0
        storage 0 cart=1 stone=4
        troll 0 1,1 stone+cart:fire 01
        troll 0 1,2 magenta-5 01        # [stone, cart]: a spiral, wild cart
        troll 0 1,3 hammer+cart:moon 01
        step statues
    """)
    moves = [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue"]
    assert all(m["from"] != [r - 1, 6] for m in moves)  # buried: not in a network
    s, _ = apply(s, 0, {"type": "move_statue", "from": [r, 2], "to": [r + 1, 2], "cart": "clan"})
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue" and c["cart"] == "clan"
                and c["from"] == [r + 1, 2]]
    s, _ = apply(s, 0, {"type": "move_statue", "from": [r, 0], "to": [r, 1], "cart": "clan"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [r, 1], "to": [r, 2], "cart": "wild"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [r, 2], "to": [r, 3], "cart": "wild"})
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue"]
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "cart"})
    s, _ = apply(s, 0, {"type": "move_statue", "from": [r, 3], "to": [r, 4], "cart": "wild"})
    assert s["statues"][f"{r},4"] == "fire"
    points = breakdowns(s)[0]
    assert points["great_halls"] == 10  # the Moon statue on the altar: The Rift's high value
    assert points["statues"] == 4 * content.board("winter").level((r, 4))


def test_MK_EX_11_leftover_sets_MK_SCORE_4():
    held = {"cart": 3, "stone": 3, "coin": 2, "rune": 1, "hammer": 1, "iron": 2}
    assert sum(n // 3 for n in held.values()) == 2
    assert best_sets(held) == 3  # rune + hammer + 2 iron -> coin (MK-AMB-25 maximises)


def _path(b, start, goal_level):
    from collections import deque
    prev = {start: None}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if b.level(cell) == goal_level:
            out = []
            while cell is not None:
                out.append(cell)
                cell = prev[cell]
            return out[::-1]
        for n in b.neighbours(cell):
            if n not in prev and b.coverable(n):
                prev[n] = cell
                todo.append(n)
    raise AssertionError


def test_MK_EX_12_final_score_111():
    _, s = position("mountain-king 4 seed=seed\nopening")
    b = content.board("winter")
    start = tuple(s["pieces"]["door:0"]["cells"][0])
    path = _path(b, start, 5)
    yellow2 = next(n for n in b.neighbours(path[-1]) if b.level(n) == 5 and n not in path)
    path.append(yellow2)
    grey = next(k for k, c in enumerate(path) if b.level(c) == 2)
    last = len(path) - 1

    def tunnel(k, cell):
        pedestal = f" anchor={cell[0]},{cell[1]} pedestal=fire" if k in (grey, last) else ""
        return f"tunnel t{k} 0 {cell[0]},{cell[1]}{pedestal}"

    edit(GAME, s, "\n".join(tunnel(k, cell) for k, cell in enumerate(path[1:], 1)) + f"""
        statues = {{}}
        statue {path[grey][0]},{path[grey][1]} fire
        statue {path[last][0]},{path[last][1]} fire
        statue {path[last - 1][0]},{path[last - 1][1]} ice
    """)
    taken = set(path) | {c for p in s["pieces"].values() for c in map(tuple, p["cells"])}
    free = [n for c in path[2:-3] for n in b.neighbours(c) if n not in taken and b.coverable(n)]
    a1 = free[0]
    a2 = next(n for n in b.neighbours(a1) if n not in taken and n != a1 and b.coverable(n))
    h2 = next(c for c in free if c not in (a1, a2) and abs(c[0] - a1[0]) + abs(c[1] - a1[1]) > 1
              and abs(c[0] - a2[0]) + abs(c[1] - a2[1]) > 1)
    edit(GAME, s, f"""
        hall the-rift 0 {a1[0]},{a1[1]} {a2[0]},{a2[1]} altar={a1[0]},{a1[1]}
        hall the-hidden-treasure 0 {h2[0]},{h2[1]} altar={h2[0]},{h2[1]}
        statue {a2[0]},{a2[1]} ice
        statue {h2[0]},{h2[1]} moon
        honor.0 = 43
        coronation.taken = {{"3": 0}}
        ped_tokens.0 = [5, 4, 2]
        empty_trolls 0
        storage 0 rune=3
    """)
    got = breakdowns(s)[0]
    assert got == {"tunnels": 43, "coronation": 3, "pedestals": 11, "leftover_sets": 1,
                   "great_halls": 15, "statues": 20 + 10 + 8}
    assert sum(got.values()) == 111


@pytest.mark.parametrize("trigger, after", [(1, 10), (3, 8)])
def test_MK_EX_13_end_timing_MK_END_4_5(trigger, after):
    _, s = position(f"""
        mountain-king 4 seed=seed
        opening
        coronation = {{"left": [3], "taken": {{"5": 2}}}}
        current = {trigger}
        turn.seat = {trigger}
        roster {trigger} 2,1 2,2 2,3 3,1 3,2
        empty_trolls {trigger}
    """)
    s, ev = apply(s, trigger, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "EndTriggered", "data": {"seat": trigger, "turns_left": after}} in ev
    s, ev = apply(s, trigger, {"type": "end_turn"})
    started = [types(ev).count("TurnStarted")]
    s = resume(s, b"end", on_step=lambda g: started.append(types(g.steps[-1].events).count("TurnStarted")))
    assert GAME.is_terminal(s) and sum(started) == after


def test_MK_END_3_two_players_single_token_triggers():
    _, s = position("""
        mountain-king 2 seed=seed
        opening
        roster 0 2,1 2,2 2,3 3,1 3,2
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "CoronationTaken", "data": {"seat": 0, "token": 3}} in ev
    assert {"type": "EndTriggered", "data": {"seat": 0, "turns_left": 5}} in ev


def test_MK_END_1_first_token_worth_five_does_not_end():
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        roster 0 2,1 2,2 2,3 3,1 3,2
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert "EndTriggered" not in types(ev) and s["coronation"]["taken"] == {"5": 0}
    assert len(s["rosters"][0]) == 10
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "recruit"]  # MK-ACT-2


def test_MK_TIE_1_lowest_recruited_levels_win():
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        levels = [9, 6, 6]
        empty_trolls 0
        empty_trolls 1
        empty_trolls 2
        storage 0
        storage 1
        storage 2
        honor = [10, 10, 10]
    """)
    board = GAME.scores(s)
    places = {x.seat: x.place for x in board.seats}
    assert places == {1: 1, 2: 1, 0: 3}


def test_leftover_counts_every_troll_token_MK_SCORE_4_1():
    _, s = position("""
        mountain-king 3 seed=seed
        opening
        empty_trolls 0
        storage 0 cart=2
        troll 0 1,1 stone+cart:fire 01
    """)
    assert breakdowns(s)[0]["leftover_sets"] == 1
