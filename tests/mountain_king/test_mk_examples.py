"""The rulebook's worked examples (section 25, MK-EX-1..14) rebuilt as states.

Board positions in the rulebooks are pictures, so each example builds the
smallest situation that reproduces the stated outcome: pieces are written
straight into the occupancy model of board.py where the geometry is not the
point of the example.
"""
import pytest

from domain.core import Illegal
from domain.mountain_king import content
from domain.mountain_king.catalog import top_row
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.economy import plan_payment, spendable
from domain.mountain_king.leftovers import best_sets
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import breakdowns

from mk_driver import apply, empty_trolls, ready, resume, set_storage, types


def troll(card, held=None):
    return {"card": card, "held": list(held) if held else [False] * len(top_row(card))}


def tunnel(cells, seat=0, anchor=None, pedestal=None):
    return {"kind": "tunnel", "cells": [list(c) for c in cells], "seat": seat, "tile": "X",
            "anchor": list(anchor) if anchor else None, "pedestal": pedestal}


def card_with(symbols):
    return next(t.id for t in content.horde_trolls() if t.symbols == tuple(symbols))


def test_MK_EX_1_spend_from_storage_and_trolls_MK_RES_2():
    s = ready(3)
    empty_trolls(s, 0)
    set_storage(s, 0, stone=2)
    s["rosters"][0]["1,3"] = troll("magenta-1", [True, True])  # [stone, stone]
    s["rosters"][0]["1,1"] = troll("magenta-5", [True, False])  # [stone, cart]
    assert spendable(s, 0)["stone"] == 5
    paid = plan_payment(s, 0, {"stone": 4}, "MK-DIG-2")
    assert len(paid["trolls"]) == 3 and paid["storage"] == {"stone": 1}
    paid = plan_payment(s, 0, {"stone": 4}, "MK-DIG-2", sources=["storage", [1, 3], [1, 1]])
    assert paid["storage"] == {"stone": 2} and len(paid["trolls"]) == 2


def test_MK_EX_2_earth_ritual_rune_stays_then_disintegrates_MK_SPELL_2_3():
    """MK-SPELL-3: the third rune disintegrates the card: runes to the supply, card to the bottom, top revealed."""
    s = ready(3)
    s["spells"]["book"][0] = {"id": "earth_ritual", "runes": 1}
    s["spells"]["deck"] = [c for c in s["spells"]["deck"] if c != "earth_ritual"]
    empty_trolls(s, 0)
    set_storage(s, 0, rune=1)
    s2, ev = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert s2["spells"]["book"][0] == {"id": "earth_ritual", "runes": 2}
    assert s2["stores"][0]["stone"] == s2["stores"][0]["iron"] == s2["stores"][0]["heartstone"] == 1
    with pytest.raises(Illegal) as e:
        apply(s2, 0, {"type": "cast", "spell": "earth_ritual"})
    assert e.value.rule == "MK-TURN-2"
    s["spells"]["book"][0]["runes"] = 2
    top = s["spells"]["deck"][0]
    supply = s["supply"]["rune"]
    s3, ev = apply(s, 0, {"type": "cast", "spell": "earth_ritual"})
    assert "SpellDisintegrated" in types(ev)
    assert s3["spells"]["book"][0] == {"id": top, "runes": 0}
    assert s3["spells"]["deck"][-1] == "earth_ritual"
    assert s3["supply"]["rune"] == supply + 3  # the card's 3 runes return (MK-SPELL-3.1)


def _workshop_beside_door(s, seat, kind):
    """A workshop on the space east of ``seat``'s door (entrance 1 open to it)."""
    (r, c), = s["pieces"][f"door:{seat}"]["cells"]
    w = (r, c + 1)
    s["workshops"][f"{w[0]},{w[1]}"] = kind
    return w


def test_MK_EX_3_workshop_with_three_open_entrances_MK_WS_4():
    s = ready(4)
    r, c = _workshop_beside_door(s, 0, "tool_forge")
    s["pieces"]["x1"] = {"kind": "door", "cells": [[r - 1, c], [r - 1, c + 1], [r, c + 1]], "seat": 1}
    empty_trolls(s, 0)
    set_storage(s, 0, heartstone=3, hammer=1)
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
    s = ready(4)
    r, c = _workshop_beside_door(s, 1, "stone_mill")
    set_storage(s, 0, stone=2)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "use_workshop", "space": [r, c], "give": {"stone": 1}, "get": {"iron": 1}})
    assert e.value.rule == "MK-WS-3"


def test_MK_WST_6_quartermaster_clan_cart_becomes_wild():
    s = ready(4)
    r, c = _workshop_beside_door(s, 0, "quartermasters_post")
    empty_trolls(s, 0)
    set_storage(s, 0)
    s["rosters"][0]["1,1"] = troll(card_with(["stone", "cart:fire"]), [False, True])
    assert spendable(s, 0).get("cart", 0) == 0  # clan carts are not general payment (MK-AMB-3)
    s, _ = apply(s, 0, {"type": "use_workshop", "space": [r, c], "move": [1, 1, 1]})
    assert s["stores"][0]["cart"] == 1 and spendable(s, 0)["cart"] == 1


def test_MK_EX_4_level_3_recruit_bribes_five_and_chooses_pedestal_MK_REC_3_9():
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, coin=5)
    slots = s["horde"]["slots"]
    slots["T3"]["card"] = card_with(["iron", "iron", "heartstone", "cart:ice", "cart:ice"])
    nxt = s["horde"]["decks"]["3"][0]
    s["bag"]["moon"] = max(1, s["bag"]["moon"])
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T3", "position": [2, 1], "pedestal": "moon"})
    for sl in ("M3", "M4", "B3", "B4", "B5"):
        assert s["horde"]["slots"][sl]["bribes"] == {"coin": 1}
    assert s["stores"][0]["coin"] == 0
    assert s["horde"]["slots"]["T3"]["card"] == nxt
    assert s["peds"][0]["moon"] == 1
    assert GAME.view(s, None)["horde"]["slots"]["T3"]["choose_pedestal"]


def test_MK_REC_2_level_2_recruit_bribes_two_and_takes_pedestal_MK_REC_8():
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, coin=2)
    ped = s["horde"]["slots"]["M2"]["ped"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert s["horde"]["slots"]["B2"]["bribes"] == {"coin": 1} == s["horde"]["slots"]["B3"]["bribes"]
    assert s["peds"][0][ped] == 1
    refill = next(e for e in ev if e["type"] == "HordeRefilled")
    assert refill["data"]["slot"] == "M2"
    assert s["horde"]["slots"]["M2"]["ped"] == refill["data"]["pedestal"]  # MK-HORDE-3


def test_MK_REC_4_cannot_recruit_without_bribes():
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, coin=1)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert e.value.rule == "MK-REC-4"
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "recruit" and c["slot"][0] != "B"]


def test_MK_REC_7_collect_bribes_and_MK_HORDE_4_retire_at_four():
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, coin=2)
    s["horde"]["slots"]["B1"]["bribes"] = {"coin": 2, "rune": 1}
    s["horde"]["slots"]["B3"]["bribes"] = {"coin": 3}
    for r, n in (("coin", 5), ("rune", 1)):
        s["supply"][r] -= n
    retiring = s["horde"]["slots"]["B3"]["card"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 1]})
    assert "TrollRetired" in types(ev)
    assert s["horde"]["decks"]["1"][-1] == retiring
    assert s["horde"]["slots"]["B3"]["bribes"] == {}
    s2 = ready(4)
    empty_trolls(s2, 0)
    set_storage(s2, 0)
    s2["horde"]["slots"]["B1"]["bribes"] = {"coin": 2, "rune": 1}
    s2, _ = apply(s2, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s2["stores"][0]["coin"] == 2 and s2["stores"][0]["rune"] == 1


def test_MK_HORDE_2_deck_exhaustion_falls_back_up_then_down():
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, coin=5)
    s["horde"]["decks"]["1"] = []
    up = s["horde"]["decks"]["2"][0]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["horde"]["slots"]["B1"]["card"] == up
    s = ready(4)
    s["horde"]["decks"]["3"] = []
    down = s["horde"]["decks"]["2"][0]
    empty_trolls(s, 0)
    set_storage(s, 0, coin=5)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T1", "position": [2, 1]})
    assert s["horde"]["slots"]["T1"]["card"] == down


def test_MK_EX_5_cascade_MK_CASC_2_4():
    """MK-CASC-4: each empty symbol of an activated troll takes one token; covered symbols produce nothing."""
    s = ready(4)
    ros = s["rosters"][0]
    ros.clear()
    ros["1,1"] = troll("magenta-3")
    ros["1,2"] = troll("magenta-4")
    ros["1,3"] = troll("magenta-1", [True, True])
    ros["1,4"] = troll("magenta-2")
    ros["2,1"] = troll(card_with(["stone", "stone", "cart:fire"]), [False, False, True])
    ros["2,2"] = troll(card_with(["iron", "heartstone"]), [False, True])
    new = card_with(["iron", "iron", "iron", "rune", "cart"])
    s["horde"]["slots"]["B1"]["card"] = new
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
    s["pieces"][f"door:{seat}"]["cells"] = [list(cell)]


def _find_dig(s, seat, want):
    for cmd in dig_commands(s, seat):
        if want(cmd):
            return cmd
    return None


def test_MK_EX_6_dig_unearths_resources_and_statue_MK_DIG_3_9_10():
    s = ready(4)
    b = content.board("winter")
    spot = next(c for c, r in b.buried.items() if r == ("iron", "iron", "hammer") and b.level(c) == 3)
    statue = next(c for c in b.statue_spaces if abs(c[0] - spot[0]) + abs(c[1] - spot[1]) == 1)
    s["statues"][f"{statue[0]},{statue[1]}"] = "fire"
    empty_trolls(s, 0)
    set_storage(s, 0, stone=4)
    door = next(n for n in b.neighbours(spot) if b.coverable(n) and n != statue and n not in b.rubble)
    _door_at(s, 0, door)
    cmd = _find_dig(s, 0, lambda c: len(c["cells"]) == 4 and list(spot) in c["cells"]
                    and list(statue) in c["cells"] and not any(tuple(x) in b.rubble for x in c["cells"]))
    assert cmd is not None and cmd["mineral"] == "stone"
    s, ev = apply(s, 0, cmd)
    assert s["honor"][0] == 4
    assert s["stores"][0]["iron"] == 2 and s["stores"][0]["hammer"] == 1 and s["stores"][0]["stone"] == 0
    dug = next(e for e in ev if e["type"] == "TunnelDug")["data"]
    assert dug["unburied"] == [list(statue)]
    s, _ = apply(s, 0, {"type": "end_step"})
    set_storage(s, 0, cart=1)
    moves = [c for c in GAME.legal_commands(s, 0) if c["type"] == "move_statue"]
    assert moves and all(m["from"] == list(statue) for m in moves)


def test_MK_DIG_8_rubble_costs_hammers():
    s = ready(4)
    b = content.board("winter")
    empty_trolls(s, 0)
    set_storage(s, 0, stone=4, hammer=3)
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
    set_storage(s, 0, stone=4, hammer=2)
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
    s = ready(4)
    empty_trolls(s, 0)
    set_storage(s, 0, iron=4, hammer=4)
    s["peds"][0].update({"fire": 1, "moon": 1})
    s["ped_track"].pop("5:moon")
    s["ped_track"]["5:fire"] = 3
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
    s = ready(4)
    b = content.board("winter")
    empty_trolls(s, 0)
    set_storage(s, 0, stone=5, hammer=5, coin=2)
    s["ws_supply"].append("spellweaver")
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
    s["turn"] = dict(s["turn"], step="spells", ws=None)  # a later turn's step 1
    s, ev = apply(s, 0, {"type": "use_workshop", "space": spaces[0], "give": {"coin": 1}, "get": {"rune": 1}})
    assert s["stores"][0]["rune"] == 1


def _block(r0, c0, rows, cols):
    return [(r, c) for r in range(r0, r0 + rows) for c in range(c0, c0 + cols)]


def test_MK_EX_9_hidden_treasure_6_or_15_MK_HALL_3_5_6_10():
    """MK-HALL-10: the hall scores its low value with an empty altar, its high value with a statue on it."""
    s = ready(4)
    region = _block(9, 3, 3, 3)
    _door_at(s, 0, (9, 6))
    s["pieces"]["t1"] = tunnel(region, anchor=(10, 4), pedestal="ice")
    s["ped_tokens"][0] = [4]
    s["ped_track"].pop("4:ice", None)
    s["statues"] = {"11,3": "moon"}
    s["turn"].update(step="hall", acted=True)
    s["halls"] = ["the-hidden-treasure"]
    cmds = [c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"]
    cmd = next(c for c in cmds if [11, 3] in c["cells"] and [10, 4] in c["cells"] and c["altar"] != [11, 3])
    s, ev = apply(s, 0, cmd)
    built = next(e for e in ev if e["type"] == "GreatHallBuilt")["data"]
    assert built["pedestals_removed"] == [{"cell": [10, 4], "clan": "ice"}]
    assert s["ped_tokens"][0] == [4] and "4:ice" not in s["ped_track"]
    assert s["statues"] == {"11,3": "moon"}
    assert breakdowns(s)[0]["great_halls"] == 6 and breakdowns(s)[0]["statues"] == 0
    s["statues"] = {f"{cmd['altar'][0]},{cmd['altar'][1]}": "moon"}
    assert breakdowns(s)[0]["great_halls"] == 15


def test_MK_EX_10_statue_moves_clan_and_wild_carts_MK_MOVE_1_9():
    s = ready(4)
    r = 9
    _door_at(s, 0, (r, 0))
    for k in range(1, 5):
        s["pieces"][f"t{k}"] = tunnel([(r, k)], anchor=(r, k) if k == 4 else None, pedestal="fire" if k == 4 else None)
    s["pieces"]["hall:the-rift"] = {"kind": "hall", "cells": [[r + 1, 2]], "seat": 0, "hall": "the-rift",
                                    "altar": [r + 1, 2]}
    s["statues"] = {f"{r},0": "fire", f"{r},2": "moon", f"{r - 1},6": "ice"}
    empty_trolls(s, 0)
    set_storage(s, 0, cart=1, stone=4)
    ros = s["rosters"][0]
    ros["1,1"] = troll(card_with(["stone", "cart:fire"]), [False, True])
    ros["1,2"] = troll("magenta-5", [False, True])  # [stone, cart]: a spiral, wild cart
    ros["1,3"] = troll(card_with(["hammer", "cart:moon"]), [False, True])
    s["turn"].update(step="statues", acted=True)
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
    s = ready(4)
    b = content.board("winter")
    start = tuple(s["pieces"]["door:0"]["cells"][0])
    path = _path(b, start, 5)
    yellow2 = next(n for n in b.neighbours(path[-1]) if b.level(n) == 5 and n not in path)
    path.append(yellow2)
    for k, cell in enumerate(path[1:], 1):
        s["pieces"][f"t{k}"] = tunnel([cell])
    grey = next(k for k, c in enumerate(path) if b.level(c) == 2)
    s["pieces"][f"t{grey}"].update(anchor=list(path[grey]), pedestal="fire")
    last = len(path) - 1
    s["pieces"][f"t{last}"].update(anchor=list(path[last]), pedestal="fire")
    s["statues"] = {f"{path[grey][0]},{path[grey][1]}": "fire", f"{path[last][0]},{path[last][1]}": "fire",
                    f"{path[last - 1][0]},{path[last - 1][1]}": "ice"}
    taken = set(path) | {c for p in s["pieces"].values() for c in map(tuple, p["cells"])}
    free = [n for c in path[2:-3] for n in b.neighbours(c) if n not in taken and b.coverable(n)]
    a1 = free[0]
    a2 = next(n for n in b.neighbours(a1) if n not in taken and n != a1 and b.coverable(n))
    h2 = next(c for c in free if c not in (a1, a2) and abs(c[0] - a1[0]) + abs(c[1] - a1[1]) > 1
              and abs(c[0] - a2[0]) + abs(c[1] - a2[1]) > 1)
    s["pieces"]["hall:the-rift"] = {"kind": "hall", "cells": [list(a1), list(a2)], "seat": 0, "hall": "the-rift",
                                    "altar": list(a1)}
    s["pieces"]["hall:the-hidden-treasure"] = {"kind": "hall", "cells": [list(h2)], "seat": 0,
                                               "hall": "the-hidden-treasure", "altar": list(h2)}
    s["statues"][f"{a2[0]},{a2[1]}"] = "ice"
    s["statues"][f"{h2[0]},{h2[1]}"] = "moon"
    s["honor"][0] = 43
    s["coronation"]["taken"] = {"3": 0}
    s["ped_tokens"][0] = [5, 4, 2]
    empty_trolls(s, 0)
    set_storage(s, 0, rune=3)
    got = breakdowns(s)[0]
    assert got == {"tunnels": 43, "coronation": 3, "pedestals": 11, "leftover_sets": 1,
                   "great_halls": 15, "statues": 20 + 10 + 8}
    assert sum(got.values()) == 111


@pytest.mark.parametrize("trigger, after", [(1, 10), (3, 8)])
def test_MK_EX_13_end_timing_MK_END_4_5(trigger, after):
    s = ready(4)
    s["coronation"] = {"left": [3], "taken": {"5": 2}}
    s["current"] = trigger
    s["turn"]["seat"] = trigger
    ros = s["rosters"][trigger]
    for pos in ("2,1", "2,2", "2,3", "3,1", "3,2"):
        ros[pos] = troll("L1-05")
    empty_trolls(s, trigger)
    s, ev = apply(s, trigger, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "EndTriggered", "data": {"seat": trigger, "turns_left": after}} in ev
    s, ev = apply(s, trigger, {"type": "end_turn"})
    started = [types(ev).count("TurnStarted")]
    s = resume(s, b"end", on_step=lambda g: started.append(types(g.steps[-1].events).count("TurnStarted")))
    assert GAME.is_terminal(s) and sum(started) == after


def test_MK_END_3_two_players_single_token_triggers():
    s = ready(2)
    ros = s["rosters"][0]
    for pos in ("2,1", "2,2", "2,3", "3,1", "3,2"):
        ros[pos] = troll("L1-05")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert {"type": "CoronationTaken", "data": {"seat": 0, "token": 3}} in ev
    assert {"type": "EndTriggered", "data": {"seat": 0, "turns_left": 5}} in ev


def test_MK_END_1_first_token_worth_five_does_not_end():
    s = ready(3)
    ros = s["rosters"][0]
    for pos in ("2,1", "2,2", "2,3", "3,1", "3,2"):
        ros[pos] = troll("L1-05")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert "EndTriggered" not in types(ev) and s["coronation"]["taken"] == {"5": 0}
    assert len(s["rosters"][0]) == 10
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "recruit"]  # MK-ACT-2


def test_MK_TIE_1_lowest_recruited_levels_win():
    s = ready(3)
    s["levels"] = [9, 6, 6]
    for st in range(3):
        empty_trolls(s, st)
        set_storage(s, st)
    s["honor"] = [10, 10, 10]
    board = GAME.scores(s)
    places = {x.seat: x.place for x in board.seats}
    assert places == {1: 1, 2: 1, 0: 3}


def test_leftover_counts_every_troll_token_MK_SCORE_4_1():
    s = ready(3)
    empty_trolls(s, 0)
    set_storage(s, 0, cart=2)
    s["rosters"][0]["1,1"] = troll(card_with(["stone", "cart:fire"]), [False, True])
    assert breakdowns(s)[0]["leftover_sets"] == 1
