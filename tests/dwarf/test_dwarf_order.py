"""DW-AMB-14: a player chooses the order of their own actions inside a resolution step.
The engine asks only when the order changes the outcome; then the step waits for the
seat's ``order`` command and goes on after it."""
from __future__ import annotations

import pytest

from domain.core import Illegal, event
from domain.dwarf import rounds
from domain.dwarf.evolve import batch
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, apply, give, start, who
from tests.dwarf.test_dwarf_rounds import passes, place, stage_mine, types

ALLOY, VEIN = "S4", "S1"  # Alloy Steel (3 Iron -> 2 Steel), Iron Vein (+2 Iron)
SWORD, AXE = "S7", "M08"  # Forge Sword (3 Steel), Forge Axe (3 Iron + 1 Steel)


def order(*locs: str) -> dict:
    return {"type": "order", "locations": [{"mine": 0, "location": loc} for loc in locs]}


def alloy_and_vein(n: int = 2) -> dict:
    """Seat 0 (first player) on Alloy Steel at L(1,1) and Iron Vein at L(1,2), holding 1
    Iron: the vein first pays for the alloy; reading order would not."""
    s = give(stage_mine(start(n, first_player=0), {"11": ALLOY, "12": VEIN}), 0, iron=1)
    s = place(s, 0, "11")
    for seat in range(1, n):
        s = place(s, seat, f"3{seat}")
    for seat in reversed(range(1, n)):
        s = passes(s, seat)
    return place(s, 0, "12")


def test_DW_AMB_14_seat_is_asked_when_its_order_changes_the_outcome():
    """DW-AMB-14, DW-RES-3: the Mine step stops for seat 0; the legal commands are the two
    orders, reading order first; nothing of the step has happened yet."""
    s = alloy_and_vein()
    assert s["phase"] == "order" and s["step"] == "mine" and who(s) == 0
    assert GAME.legal_commands(s, 0) == [order("11", "12"), order("12", "11")]
    assert GAME.legal_commands(s, 1) == []
    assert (s["players"][0]["iron"], s["players"][0]["steel"]) == (1, 0)
    assert GAME.view(s, None)["to_place"] == {"player": 0, "slot": "order", "step": "mine",
                                              "places": ["0:11", "0:12"]}


def test_DW_AMB_14_the_chosen_order_is_carried_out_and_the_round_goes_on():
    """DW-AMB-14, DW-RES-1, DW-AMB-15: vein then alloy makes 2 Steel; alloy then vein
    fails the alloy (nothing paid) and keeps 3 Iron; then Forge, Defend and the next round."""
    s = alloy_and_vein()
    events = GAME.decide(s, 0, order("12", "11"), None)
    kinds = types(events)
    assert kinds[0] == "ActionsOrdered" and kinds.index("RoundEnded") > kinds.index("StepStarted")
    steps = [e["data"]["step"] for e in events if e["type"] == "StepStarted"]
    assert steps == ["forge", "defend"]
    done = apply(s, events)
    assert (done["players"][0]["iron"], done["players"][0]["steel"]) == (0, 2) and done["round"] == 2
    other = act(s, 0, order("11", "12"))
    assert (other["players"][0]["iron"], other["players"][0]["steel"]) == (3, 0)


def test_DW_AMB_14_no_question_when_every_order_ends_the_same():
    """DW-AMB-14: two veins (or one action per step) leave the same holdings in any
    order, so the round resolves without asking, in reading order."""
    s = stage_mine(start(2, first_player=0), {"11": VEIN, "12": "S3"})
    s = place(place(s, 0, "11"), 1, "33")
    events = GAME.decide(passes(s, 1), 0, {"type": "place", "mine": 0, "location": "12"}, None)
    assert "OrderRequested" not in types(events)
    s = apply(passes(s, 1), events)
    assert s["round"] == 2 and s["players"][0]["iron"] == 4


def test_DW_AMB_14_DW_RES_4_two_forges_competing_for_steel_are_ordered():
    """DW-AMB-14, DW-RES-4, DW-FP-3: 3 Steel and 3 Iron pay for the Sword or the Axe,
    not both: each order makes one Object and leaves different holdings. The Forge
    step waits (the Mine step is done); after the order the marker passes for forging."""
    s = give(stage_mine(start(2, first_player=0), {"31": SWORD, "12": AXE, "11": VEIN}), 0, steel=3, iron=3)
    s = place(place(s, 0, "31"), 1, "11")
    s = place(passes(s, 1), 0, "12")
    assert s["phase"] == "order" and s["step"] == "forge" and s["first"] == 0
    assert s["players"][1]["iron"] == 2  # seat 1's Mine action was carried out before the Forge step
    sword_first = act(s, 0, order("31", "12"))
    axe_first = act(s, 0, order("12", "31"))
    held = [(x["players"][0]["object"], x["players"][0]["steel"], x["players"][0]["iron"])
            for x in (sword_first, axe_first)]
    assert held == [(1, 0, 3), (1, 2, 0)]
    assert sword_first["first"] == 1 and sword_first["round"] == 2


def test_DW_AMB_14_each_seat_orders_in_turn_clockwise_from_the_first_player():
    """DW-AMB-14: players are processed clockwise from the first player; a second seat
    in the same position is asked after the first one ordered."""
    s = stage_mine(start(2, first_player=1), {"11": ALLOY, "12": VEIN, "21": "S4", "13": "S3"})
    s = give(give(s, 0, iron=1), 1, iron=1)
    s = place(s, 1, "11")
    s = place(s, 0, "21")
    s = place(s, 0, "13")
    s = place(s, 1, "12")
    assert (s["phase"], who(s)) == ("order", 1)
    s = act(s, 1, order("12", "11"))
    assert (s["phase"], who(s), s["step"]) == ("order", 0, "mine")
    assert s["players"][1]["steel"] == 2
    s = act(s, 0, order("13", "21"))
    assert s["players"][0]["steel"] == 2 and s["round"] == 2


def test_DW_AMB_14_DW_AMB_13_orders_that_break_the_rules_are_refused():
    """DW-AMB-14: an order names each waiting worker once; only the asked seat orders, and
    only when asked; a placement cannot be made instead. DW-AMB-13: extras come last."""
    s = alloy_and_vein()
    cases = [(order("11"), "bad_order", "DW-AMB-14"),
             (order("11", "13"), "bad_order", "DW-AMB-14"),
             (order("11", "11"), "bad_order", "DW-AMB-14"),
             ({"type": "pass"}, "order_required", "DW-AMB-14"),
             ({"type": "place", "mine": 0, "location": "22"}, "order_required", "DW-AMB-14"),
             ({"type": "order", "locations": "11"}, "bad_order", "DW-AMB-14")]
    for command, code, rule in cases:
        with pytest.raises(Illegal) as e:
            GAME.decide(s, 0, command, None)
        assert (e.value.code, e.value.rule) == (code, rule), command
    with pytest.raises(Illegal) as e:
        GAME.decide(s, 1, order("11", "12"), None)
    assert e.value.code == "not_your_turn"
    fresh = stage_mine(start(2, first_player=0))
    with pytest.raises(Illegal) as e:
        GAME.decide(fresh, 0, order("11", "12"), None)
    assert (e.value.code, e.value.rule) == ("order_not_now", "DW-AMB-14")


def test_DW_AMB_13_DW_AMB_14_extras_are_ordered_after_normal_workers():
    """DW-AMB-13, DW-AMB-14: with a normal and an extra worker in the step, the only orders
    offered keep the normal worker first, and the reverse is refused."""
    s = give(stage_mine(start(2, first_player=0), {"22": "S5", "11": ALLOY, "12": VEIN, "13": ALLOY}), 0, iron=4)
    s = place(s, 0, "22")
    s = place(s, 1, "33")
    s = passes(s, 1)
    s = place(s, 0, "11")  # normal worker on Alloy Steel
    s = place(s, 0, "12")  # extras on Iron Vein and Alloy Steel
    s = place(s, 0, "13")
    assert s["phase"] == "order"
    assert GAME.legal_commands(s, 0) == [order("11", "12", "13"), order("11", "13", "12")]
    with pytest.raises(Illegal) as e:
        GAME.decide(s, 0, order("12", "11", "13"), None)
    assert (e.value.code, e.value.rule) == ("bad_order", "DW-AMB-13")
    s = act(s, 0, order("11", "12", "13"))
    assert (s["players"][0]["iron"], s["players"][0]["steel"]) == (0, 4)


def test_DW_AMB_39_DW_SOLO_7_automaton_is_never_asked_and_keeps_reading_order():
    """DW-AMB-39, DW-SOLO-7: the automaton in the position that would ask a seat
    resolves in reading order at once: the alloy fails, the vein pays."""
    s = give(stage_mine(start(1, solo_level="eldhusfifl"), {"11": ALLOY, "12": VEIN}), 1, iron=1)
    s = apply(s, [event("WorkerPlaced", player=1, place=p, card=c, action="mine", extra=False, slot="instant")
                  for p, c in (("0:11", ALLOY), ("0:12", VEIN))])
    s = apply(s, [event("PlacementSkipped", player=q["player"], slot=q["slot"]) for q in s["queue"]])
    b = batch(s)
    rounds.advance(b)
    assert "OrderRequested" not in types(b.events)
    assert (b.state["players"][1]["iron"], b.state["players"][1]["steel"]) == (3, 0)
