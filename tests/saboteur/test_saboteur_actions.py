"""Action cards, passing and drawing (SAB-ACT, SAB-TOOL, SAB-REP, SAB-ROCK, SAB-MAP, SAB-PASS, SAB-TURN)."""
import pytest

from domain.core import Illegal
from domain.saboteur.rules import GAME
from saboteur_support import Table, action_card, card_for, path_card
from tests.support.positions import edit


def table(**options) -> Table:
    return Table(5, first_player=0, **options)


def break_on(t: Table, seat: int, target: int, tool: str) -> list[dict]:
    card = card_for(t, seat, action_card("break", tool))
    return t.do(seat, {"type": "break_tool", "card": card, "target": target})


def stage_broken(t: Table, target: int, tool: str, by: int = 4) -> str:
    card = t.free(action_card("break", tool))
    edit(GAME, t.state, f"broken {target} {tool} {card} by={by}")
    return card


def test_SAB_TOOL_2_broken_tool_lies_in_front_of_the_target():
    t = table()
    evs = break_on(t, 0, 2, "pick")
    assert evs[0]["type"] == "ToolBroken" and evs[0]["data"]["tool"] == "pick"
    assert t.state["broken"][2]["pick"]["by"] == 0
    assert t.types(evs)[1:] == ["CardDrawn", "TurnStarted"]  # SAB-TURN-3


def test_SAB_EX_6_SAB_TOOL_3_one_of_each_kind():
    t = table()
    stage_broken(t, 2, "pick")
    card = card_for(t, 0, action_card("break", "pick"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "break_tool", "card": card, "target": 2})
    assert (exc.value.code, exc.value.rule) == ("tool_already_broken", "SAB-TOOL-3")
    assert {"type": "break_tool", "card": card, "target": 2} not in GAME.legal_commands(t.state, 0)
    break_on(t, 0, 2, "lantern")
    assert set(t.state["broken"][2]) == {"pick", "lantern"}


def test_SAB_AMB_7_broken_tool_on_oneself():
    t = table()
    break_on(t, 0, 0, "cart")
    assert "cart" in t.state["broken"][0]


def test_SAB_ACT_2_blocked_player_may_still_act_and_pass():
    t = table()
    stage_broken(t, 0, "pick")
    kinds = {c["type"] for c in GAME.legal_commands(t.state, 0)}
    assert "play_path" not in kinds and "pass" in kinds


def test_SAB_EX_7_SAB_REP_5_two_tool_repair_mends_one_chosen_tool():
    t = table()
    broken_pick = stage_broken(t, 3, "pick")
    stage_broken(t, 3, "lantern")
    card = card_for(t, 0, action_card("repair", "pick", "lantern"))
    legal = [c for c in GAME.legal_commands(t.state, 0) if c["type"] == "repair" and c["card"] == card]
    assert {(c["target"], c["tool"]) for c in legal} == {(3, "pick"), (3, "lantern")}
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "repair", "card": card, "target": 3})
    assert exc.value.rule == "SAB-AMB-8"
    evs = t.do(0, {"type": "repair", "card": card, "target": 3, "tool": "pick"})
    assert evs[0]["type"] == "ToolRepaired" and evs[0]["data"]["broken_card"] == broken_pick
    assert set(t.state["broken"][3]) == {"lantern"}  # still blocked
    assert [d["card"] for d in t.state["discard"][-2:]] == [card, broken_pick]
    assert all(d["face_up"] for d in t.state["discard"][-2:])  # SAB-REP-2


def test_SAB_REP_3_repair_must_show_the_same_tool():
    t = table()
    stage_broken(t, 1, "cart")
    card = card_for(t, 0, action_card("repair", "lantern"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "repair", "card": card, "target": 1, "tool": "cart"})
    assert exc.value.rule == "SAB-REP-3"


def test_SAB_REP_4_repair_needs_a_matching_broken_tool():
    t = table()
    card = card_for(t, 0, action_card("repair", "pick"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "repair", "card": card, "target": 1})
    assert (exc.value.code, exc.value.rule) == ("nothing_to_repair", "SAB-REP-4")
    assert not any(c["type"] == "repair" for c in GAME.legal_commands(t.state, 0))


def test_SAB_REP_2_repair_oneself_but_no_path_this_turn():
    t = table()
    stage_broken(t, 0, "pick")
    card = card_for(t, 0, action_card("repair", "pick"))
    t.do(0, {"type": "repair", "card": card, "target": 0})
    assert not t.state["broken"][0] and t.turn == 1  # SAB-TOOL-4 consequence: the turn is over


def test_SAB_ROCK_1_SAB_ROCK_2_rockfall_removes_a_path_card():
    t = table()
    placed = t.place("straight-ew", 1, 0)
    card = card_for(t, 0, action_card("rockfall"))
    evs = t.do(0, {"type": "rockfall", "card": card, "x": 1, "y": 0})
    assert evs[0]["type"] == "PathCollapsed" and evs[0]["data"]["removed"] == placed
    assert "1,0" not in t.state["maze"]
    assert [(d["card"], d["face_up"]) for d in t.state["discard"][-2:]] == [(card, True), (placed, True)]


def test_SAB_ROCK_3_emptied_cell_can_be_refilled():
    t = table()
    t.place("dead-ew", 1, 0)
    t.do(0, {"type": "rockfall", "card": card_for(t, 0, action_card("rockfall")), "x": 1, "y": 0})
    card = card_for(t, 1, path_card("straight-ew"))
    t.do(1, {"type": "play_path", "card": card, "x": 1, "y": 0, "rotated": False})


def test_SAB_ROCK_1_SAB_AMB_11_start_and_goals_never_removed():
    t = table()
    card = card_for(t, 0, action_card("rockfall"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "rockfall", "card": card, "x": 0, "y": 0})
    assert exc.value.code == "cannot_remove"
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "rockfall", "card": card, "x": 8, "y": 0})
    assert exc.value.code == "no_path_card"
    edit(GAME, t.state, "turned B stone-ne")
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "rockfall", "card": card, "x": 8, "y": 0})
    assert exc.value.rule == "SAB-AMB-11"


def test_SAB_AMB_9_rockfall_needs_a_removable_card():
    t = table()
    card_for(t, 0, action_card("rockfall"))
    assert not any(c["type"] == "rockfall" for c in GAME.legal_commands(t.state, 0))


def test_SAB_ROCK_5_cut_off_cards_stay():
    t = table()
    t.place("straight-ew", 1, 0)
    t.place("straight-ew", 2, 0)
    t.do(0, {"type": "rockfall", "card": card_for(t, 0, action_card("rockfall")), "x": 1, "y": 0})
    assert "2,0" in t.state["maze"]


def test_SAB_MAP_1_SAB_MAP_2_only_the_map_player_learns_the_goal():
    t = table()
    card = card_for(t, 0, action_card("map"))
    evs = t.do(0, {"type": "map", "card": card, "goal": "C"})
    peek = evs[0]
    assert peek["type"] == "GoalPeeked" and peek["data"]["shape"] == t.state["goals"]["C"]["shape"]
    assert t.state["peeks"][0] == {"C": t.state["goals"]["C"]["shape"]}
    assert not t.state["goals"]["C"]["revealed"]
    for seat in (None, 1, 2, 3, 4):
        assert "shape" not in GAME.redact(peek, seat)["data"]
        assert GAME.view(t.state, seat)["goals"]["C"]["shape"] is None
    assert GAME.redact(peek, 0) == peek
    assert GAME.view(t.state, 0)["goals"]["C"]["shape"] == t.state["goals"]["C"]["shape"]
    assert t.state["discard"][-1] == {"card": card, "face_up": True, "by": 0}


def test_SAB_AMB_10_map_only_on_face_down_goal():
    t = table()
    edit(GAME, t.state, "turned B stone-ne")
    card = card_for(t, 0, action_card("map"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "map", "card": card, "goal": "B"})
    assert exc.value.rule == "SAB-AMB-10"
    assert {c["goal"] for c in GAME.legal_commands(t.state, 0) if c["type"] == "map"} == {"A", "C"}


def test_SAB_PASS_1_SAB_PASS_5_pass_discards_face_down_then_draws():
    t = table()
    card = t.state["hands"][0][0]
    top = t.state["deck"][0]
    evs = t.do(0, {"type": "pass", "card": card})
    assert t.types(evs) == ["CardDiscarded", "CardDrawn", "TurnStarted"]
    assert t.state["discard"][-1] == {"card": card, "face_up": False, "by": 0}
    assert top in t.state["hands"][0] and len(t.state["hands"][0]) == 6  # SAB-TURN-5
    for seat in (None, 1):
        assert GAME.redact(evs[0], seat)["data"] == {"seat": 0}
        assert GAME.redact(evs[1], seat)["data"] == {"seat": 0}
    assert card not in GAME.view(t.state, 1)["discard_face_up"]
    assert card in GAME.view(t.state, 0)["you"]["face_down_discards"]


def test_SAB_PASS_2_SAB_AMB_23_pass_is_always_legal_with_cards():
    t = table()
    legal = GAME.legal_commands(t.state, 0)
    assert {c["card"] for c in legal if c["type"] == "pass"} == set(t.state["hands"][0])


def test_SAB_PASS_1_empty_pass_needs_an_empty_hand():
    t = table()
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "pass"})
    assert exc.value.code == "must_discard"


def test_SAB_TURN_4_no_draw_once_the_pile_is_empty():
    t = table()
    t.empty_deck()
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert t.types(evs) == ["CardDiscarded", "TurnStarted"] and len(t.state["hands"][0]) == 5


def test_SAB_PASS_4_SAB_AMB_14_empty_hands_pass_automatically():
    t = table()
    t.empty_deck()
    edit(GAME, t.state, """
        discard_hand 1
        discard_hand 2
    """)
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert t.types(evs) == ["CardDiscarded", "TurnPassed", "TurnPassed", "TurnStarted"]
    assert [e["data"] for e in evs[1:3]] == [{"seat": 1, "auto": True}, {"seat": 2, "auto": True}]
    assert t.turn == 3


def test_SAB_PASS_4_option_off_empty_hand_sends_pass():
    t = table(auto_pass_empty_hand=False)
    t.empty_deck()
    edit(GAME, t.state, "discard_hand 1")
    t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert t.turn == 1 and GAME.legal_commands(t.state, 1) == [{"type": "pass"}]
    evs = t.do(1, {"type": "pass"})
    assert evs[0] == {"type": "TurnPassed", "data": {"seat": 1, "auto": False}} and t.turn == 2


def test_SAB_TURN_1_only_the_seat_in_turn_acts():
    t = table()
    with pytest.raises(Illegal) as exc:
        t.do(1, {"type": "pass", "card": t.state["hands"][1][0]})
    assert (exc.value.code, exc.value.rule) == ("not_your_turn", "SAB-TURN-1")
    assert GAME.legal_commands(t.state, 1) == [] and GAME.active_seats(t.state) == {0}


def test_SAB_TURN_2_card_must_be_in_hand_and_message_leaks_nothing():
    t = table()
    other = t.state["hands"][1][0]
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "pass", "card": other})
    assert exc.value.code == "card_not_in_hand" and other not in exc.value.message
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "dance"})
    assert exc.value.code == "unknown_command"
    with pytest.raises(Illegal) as exc:
        t.do(0, "pass")
    assert exc.value.code == "bad_command"
