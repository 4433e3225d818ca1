"""Path placement, connectivity and goals (SAB-PATH, SAB-CONN, SAB-GOAL, SAB-AMB-2/3/12/13)."""
import pytest

from domain.core import Illegal
from domain.saboteur.maze import connected_edges, oriented
from domain.saboteur.rules import GAME
from saboteur_support import Table, path_card, play, reach_stone_goal_a
from tests.support.positions import edit


def table(**options) -> Table:
    return Table(5, first_player=0, **options)


def illegal(t: Table, shape: str, x: int, y: int, rotated: bool = False, seat: int = 0) -> Illegal:
    with pytest.raises(Illegal) as exc:
        play(t, shape, x, y, rotated, seat)
    return exc.value


def test_SAB_EX_4_SAB_PATH_2_only_upright_or_upside_down():
    assert oriented("curve-ne", False)[0] == "NE"
    assert oriented("curve-ne", True)[0] == "SW"
    t = table()
    card = t.free(path_card("straight-ew"))
    t.give(0, card)
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "play_path", "card": card, "x": 1, "y": 0, "rotated": 90})
    assert exc.value.rule == "SAB-PATH-2"


def test_SAB_EX_5_SAB_PATH_5_every_edge_must_match():
    t = table()
    err = illegal(t, "straight-ns", 1, 0)
    assert (err.code, err.rule) == ("edges_mismatch", "SAB-PATH-5")
    evs = play(t, "straight-ew", 1, 0)
    assert evs[0]["type"] == "PathPlaced" and t.state["maze"]["1,0"]["shape"] == "straight-ew"


def test_SAB_PATH_5_one_mismatch_among_several_neighbours_is_enough():
    t = table()
    t.place("straight-ew", 1, 0)
    t.place("straight-ns", 2, 1)  # its N edge is open
    # (2,0): W must be open (matches (1,0)), S must be open (matches (2,1)); a straight E-W has S closed.
    assert illegal(t, "straight-ew", 2, 0).code == "edges_mismatch"
    play(t, "tee-new", 2, 0, rotated=True)  # S, W, E open


def test_SAB_PATH_3_cell_must_be_empty_goals_included():
    t = table()
    assert illegal(t, "cross", 0, 0).rule == "SAB-PATH-3"
    t.place("straight-ew", 7, 0, by=1)
    assert illegal(t, "cross", 8, 0).code == "cell_occupied"


def test_SAB_PATH_4_must_touch_the_maze():
    t = table()
    err = illegal(t, "cross", 3, 3)
    assert (err.code, err.rule) == ("not_adjacent", "SAB-PATH-4")


def test_SAB_AMB_2_face_down_goal_neither_touches_nor_constrains():
    t = table()
    err = illegal(t, "cross", 7, -2)  # next to goal A only
    assert err.code == "not_adjacent"
    t.place("straight-ns", 7, -1, by=1)  # not connected to the start
    play(t, "tee-nes", 7, -2)  # E edge open towards the hidden goal: allowed
    assert not t.state["goals"]["A"]["revealed"]
    t2 = table()
    t2.place("straight-ns", 7, -1, by=1)
    play(t2, "straight-ns", 7, -2)  # E edge closed towards the hidden goal: allowed too


def test_SAB_AMB_3_touching_only_through_walls_is_legal_by_default():
    t = table()
    t.place("straight-ew", 1, 0)
    play(t, "straight-ew", 1, 1)  # its N wall meets the S wall of (1,0)


def test_SAB_AMB_3_option_requires_connection_to_start():
    t = table(require_connection_to_start=True)
    t.place("straight-ew", 1, 0)
    err = illegal(t, "straight-ew", 1, 1)
    assert (err.code, err.rule) == ("not_connected", "SAB-AMB-3")
    t.place("dead-ew", 2, 0)
    assert illegal(t, "straight-ew", 3, 0).code == "not_connected"  # behind a dead end
    play(t, "straight-ns", 0, 1)
    assert not any(c["type"] == "play_path" and c["x"] == 1 and c["y"] == 1
                   for c in GAME.legal_commands(t.state, t.turn))


def test_SAB_PATH_6_SAB_TOOL_4_broken_tool_blocks_path_cards():
    t = table()
    edit(GAME, t.state, f"broken 0 pick {t.free(lambda c: c.kind == 'break')} by=2")
    err = illegal(t, "straight-ew", 1, 0)
    assert (err.code, err.rule) == ("tools_broken", "SAB-TOOL-4")
    assert not any(c["type"] == "play_path" for c in GAME.legal_commands(t.state, 0))


def test_SAB_CONN_2_dead_end_interrupts_the_path():
    t = table()
    t.place("dead-ew", 1, 0)
    t.place("straight-ew", 2, 0)
    conn = connected_edges(t.state["maze"])
    assert ("1,0", "W") in conn and ("1,0", "E") not in conn and ("2,0", "E") not in conn


def test_SAB_CONN_1_dead_end_before_goal_does_not_reveal_it():
    t = table()
    for x in range(1, 6):
        t.place_ew(x, 0)
    t.place("dead-ew", 6, 0)
    play(t, "straight-ew", 7, 0)
    assert not t.state["goals"]["B"]["revealed"]


def row_to(t: Table, last_x: int, y: int = 0) -> None:
    for x in range(1, last_x + 1):
        t.place_ew(x, y)


def test_SAB_EX_8_SAB_GOAL_3_stone_is_turned_up_and_play_continues():
    t = table()
    evs = reach_stone_goal_a(t)
    types = t.types(evs)
    assert types[:2] == ["PathPlaced", "GoalRevealed"]
    rev = evs[1]["data"]
    assert (rev["goal"], rev["shape"], rev["rotated"], rev["by"]) == ("A", "stone-nw", False, 0)
    assert "RoundEnded" not in types and types[-1] == "TurnStarted" and t.turn == 1
    assert t.state["maze"]["8,-2"]["shape"] == "stone-nw"
    play(t, "straight-ns", 8, -3, seat=1)  # a revealed stone is a face-up card to build on


def test_SAB_GOAL_2_SAB_END_1_treasure_ends_the_round_without_a_draw():
    t = table()
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    row_to(t, 6)
    evs = play(t, "straight-ew", 7, 0)
    types = t.types(evs)
    assert types[:4] == ["PathPlaced", "GoalRevealed", "RoundEnded", "RolesRevealed"]
    assert "CardDrawn" not in types[:3]  # SAB-AMB-24
    ended = evs[2]["data"]
    assert (ended["reason"], ended["winner"], ended["finder"]) == ("treasure_found", "miners", 0)


def test_SAB_GOAL_4_SAB_AMB_13_mismatch_exception_prefers_the_reaching_side():
    t = table()
    t.set_goals(A="stone-nw", B="stone-ne", C="treasure")
    row_to(t, 6)
    t.place("straight-ns", 8, -1, by=1)  # disconnected, S edge open towards B
    evs = play(t, "straight-ew", 7, 0)
    rev = next(e for e in evs if e["type"] == "GoalRevealed")["data"]
    # Neither way matches both neighbours; 180 degrees opens W towards the reaching card.
    assert (rev["goal"], rev["rotated"]) == ("B", True)
    assert oriented("stone-ne", True)[0] == "SW"


def test_SAB_AMB_13_full_match_preferred_then_upright():
    t = table()
    t.set_goals(A="stone-nw", B="stone-ne", C="treasure")
    row_to(t, 6)
    evs = play(t, "straight-ew", 7, 0)
    rev = next(e for e in evs if e["type"] == "GoalRevealed")["data"]
    assert rev["rotated"] is True  # S, W: the only way W matches


def test_SAB_AMB_12_one_placement_reaches_two_goals():
    t = table()
    t.set_goals(A="stone-ne", B="stone-nw", C="treasure")
    t.place("curve-nw", 0, -1, rotated=True)  # S, E
    for x in range(1, 8):
        t.place_ew(x, -1)
    evs = play(t, "cross", 8, -1)
    assert [e["data"]["goal"] for e in evs if e["type"] == "GoalRevealed"] == ["A", "B"]
    assert "RoundEnded" not in t.types(evs)


def test_SAB_AMB_12_revealed_stone_can_reach_the_next_goal_for_the_same_finder():
    t = table()
    t.set_goals(A="stone-nw", B="stone-ne", C="treasure")
    row_to(t, 6)
    t.place("straight-ns", 8, 1, by=2)
    evs = play(t, "straight-ew", 7, 0)
    revealed = [(e["data"]["goal"], e["data"]["by"]) for e in evs if e["type"] == "GoalRevealed"]
    assert revealed == [("B", 0), ("C", 0)]
    ended = next(e for e in evs if e["type"] == "RoundEnded")["data"]
    assert (ended["winner"], ended["finder"]) == ("miners", 0)


def test_SAB_AMB_12_open_edge_without_connection_does_not_reveal():
    t = table()
    t.place_ew(6, 0, by=1)
    play(t, "cross", 7, 0)
    assert not t.state["goals"]["B"]["revealed"]
    for x in range(1, 5):
        t.place_ew(x, 0)
    evs = play(t, "straight-ew", 5, 0, seat=1)  # a later placement completes the path
    assert any(e["type"] == "GoalRevealed" and e["data"]["by"] == 1 for e in evs)


def test_SAB_AMB_5_building_between_and_beyond_goals():
    t = table()
    t.set_goals(A="stone-ne", B="stone-nw", C="treasure")
    t.place("curve-nw", 0, -1, rotated=True)  # S, E
    for x in range(1, 8):
        t.place_ew(x, -1)
    play(t, "cross", 8, -1)  # between A and B
    play(t, "straight-ew", 9, -1, seat=1)  # beyond the goals
    assert t.state["maze"]["9,-1"]["by"] == 1
