"""One focused given/when/then test per rule ID the other modules did not cite yet."""
from collections import Counter

import pytest

from domain.core import Illegal
from domain.saboteur.content import (
    CARDS, GOAL_CELLS, GOAL_SHAPES, GOLD, HAND_SIZE, ROLE_DECK, SHAPES, START_CELL, START_SHAPE, TOOLS,
    TREASURE,
)
from domain.saboteur.maze import candidate_cells, connected_edges, oriented
from domain.saboteur.rules import GAME
from saboteur_support import Table, action_card, card_for, cards_run_out, data, dumps, path_card, play, reach_stone_goal_a, treasure_found_by
from tests.support.positions import edit


def table(players: int = 5, **options) -> Table:
    return Table(players, first_player=0, **options)


def stage_broken(t: Table, target: int, tool: str, keep_hand: int | None = None) -> str:
    """A broken ``tool`` in front of ``target``, taken from anywhere but ``keep_hand``'s hand."""
    spare = t.state["hands"][keep_hand] if keep_hand is not None else []
    card = t.free(lambda c: action_card("break", tool)(c) and c.id not in spare)
    edit(GAME, t.state, f"broken {target} {tool} {card} by=none")
    return card


def round_events(t: Table, rnd: int) -> list[dict]:
    """The events from the start of round ``rnd`` on."""
    starts = [i for i, e in enumerate(t.events) if e["type"] == "RoundStarted" and e["data"]["round"] == rnd]
    return t.events[starts[0]:]


# -- components and setup -------------------------------------------------------

def test_SAB_SETUP_1_four_separate_groups_of_cards():
    box = GAME.content()
    kinds = Counter(c["kind"] for c in box["cards"])
    assert kinds["path"] == 40 and sum(kinds.values()) - kinds["path"] == 27  # path / action
    assert set(kinds) == {"path", "break", "repair", "rockfall", "map"}
    assert len(box["gold_cards"]) == 28 and all(isinstance(v, int) for v in box["gold_cards"])
    assert box["role_deck"]["10"] == {"saboteurs": 4, "miners": 7}
    # Given a started game, then each group lives apart: playing deck, gold deck, role cards.
    s = Table(5).state
    assert set(s["deck"]) | {c for h in s["hands"] for c in h} == set(CARDS)
    assert sorted(s["gold_deck"]) == sorted(GOLD)
    assert set(s["roles"] + [s["leftover"]]) <= {"miner", "saboteur"}


def test_SAB_COMP_3_action_types_and_their_variants():
    variants = {(c.kind, c.tools) for c in CARDS.values() if c.kind != "path"}
    assert {kind for kind, _ in variants} == {"break", "repair", "rockfall", "map"}
    assert {tools for kind, tools in variants if kind == "break"} == {("pick",), ("lantern",), ("cart",)}
    repairs = {tools for kind, tools in variants if kind == "repair"}
    assert {tools for tools in repairs if len(tools) == 1} == {("pick",), ("lantern",), ("cart",)}
    assert any(len(tools) == 2 for tools in repairs)  # repair cards showing two tools
    assert {tools for kind, tools in variants if kind == "rockfall"} == {()}  # one kind
    assert {tools for kind, tools in variants if kind == "map"} == {()}  # one kind
    box = {(c["kind"], tuple(c.get("tools", ()))) for c in GAME.content()["cards"] if c["kind"] != "path"}
    assert box == variants


def test_SAB_TOOL_1_three_tool_types_and_each_broken_tool_shows_one():
    assert set(TOOLS) == {"pick", "lantern", "cart"}
    assert all(len(c.tools) == 1 for c in CARDS.values() if c.kind == "break")
    t = table()
    card = card_for(t, 0, action_card("break", "lantern"))
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "break_tool", "card": card, "target": 1, "tool": "pick"})
    assert (exc.value.code, exc.value.rule) == ("tool_not_on_card", "SAB-TOOL-1")
    evs = t.do(0, {"type": "break_tool", "card": card, "target": 1, "tool": "lantern"})
    assert data(evs, "ToolBroken")[0]["tool"] == "lantern" and set(t.state["broken"][1]) == {"lantern"}


def test_SAB_COMP_4_paths_and_actions_are_shuffled_into_one_pile():
    t = Table(5)
    deck = data(t.events, "DeckShuffled")[0]["cards"]
    assert sorted(deck) == sorted(CARDS)
    is_path = [CARDS[c].kind == "path" for c in deck]
    assert is_path != sorted(is_path) and is_path != sorted(is_path, reverse=True)  # interleaved
    # Gold and role cards are separate decks, never in the draw pile.
    assert not set(deck) & {"miner", "saboteur"} and sorted(t.state["gold_deck"]) == sorted(GOLD)


def test_SAB_SETUP_2_role_deck_built_shuffled_and_dealt_face_down():
    deals = set()
    for i in range(10):
        t = Table(6, seed=b"roles%d" % i)
        dealt = data(t.events, "RoleDealt")
        aside = data(t.events, "RoleSetAside")
        assert [d["seat"] for d in dealt] == list(range(6)) and len(aside) == 1
        roles = [d["role"] for d in dealt] + [aside[0]["role"]]
        assert Counter(roles) == Counter(saboteur=ROLE_DECK[6][0], miner=ROLE_DECK[6][1])
        deals.add(tuple(roles))
        v = GAME.view(t.state, 0)
        assert v["you"]["role"] == t.state["roles"][0]
        assert all(p["role"] is None for p in v["players"][1:]) and v["leftover_role"] is None
    assert len(deals) > 1  # shuffled


def test_SAB_ROLE_3_the_leftover_role_stays_face_down_until_the_round_ends():
    t = table(gold_choice="auto")
    aside = next(e for e in t.events if e["type"] == "RoleSetAside")
    leftover = aside["data"]["role"]
    assert t.state["leftover"] == leftover and len(t.state["roles"]) == 5  # not dealt to anyone
    for _ in range(5):  # a full circle of turns: still aside, still unseen
        t.do(t.turn, {"type": "pass", "card": t.state["hands"][t.turn][0]})
    for seat in [None, *range(5)]:
        assert GAME.redact(aside, seat)["data"] == {}
        assert GAME.view(t.state, seat)["leftover_role"] is None
    assert t.state["leftover"] == leftover
    t.set_roles("MSMMS")
    evs = cards_run_out(t, 0)
    assert data(evs, "RolesRevealed")[0]["leftover"] == leftover  # the round's end (SAB-AMB-21)
    assert GAME.view(t.state, 3)["history"][0]["leftover"] == leftover


def test_SAB_SETUP_8_the_first_player_starts_then_play_goes_clockwise():
    t = Table(5, first_player=3)
    assert data(t.events, "RoundStarted")[0]["first_seat"] == 3
    order = []
    for _ in range(6):
        order.append(t.turn)
        t.do(t.turn, {"type": "pass", "card": t.state["hands"][t.turn][0]})
    assert order == [3, 4, 0, 1, 2, 3]
    # Without a named seat the start is drawn from the game's seed (SAB-AMB-22): replayable.
    assert Table(5, seed=b"s8").turn == Table(5, seed=b"s8").turn


def test_SAB_ROLE_5_with_four_players_the_saboteur_may_be_left_over():
    leftover_saboteur = dealt_saboteur = 0
    for i in range(40):
        s = Table(4, seed=b"r5-%d" % i).state
        if s["leftover"] == "saboteur":
            leftover_saboteur += 1
            assert s["roles"] == ["miner"] * 4
            assert GAME.legal_commands(s, s["turn"])  # the round is played all the same
        else:
            dealt_saboteur += 1
            assert s["roles"].count("saboteur") == 1
    assert leftover_saboteur and dealt_saboteur


def test_SAB_GRID_4_nobody_knows_which_goal_is_the_treasure():
    t = Table(5)
    assert sorted(g["shape"] for g in t.state["goals"].values()) == sorted(GOAL_SHAPES)
    shuffled = next(e for e in t.events if e["type"] == "GoalsShuffled")
    for seat in [None, *range(5)]:
        assert GAME.redact(shuffled, seat)["data"] == {}
        v = GAME.view(t.state, seat)
        assert all(g["shape"] is None for g in v["goals"].values()) and "treasure_goal" not in v


def test_SAB_GAP_4_SAB_AMB_1_layout_matches_the_surviving_captions():
    sx, sy = START_CELL
    cells = sorted(GOAL_CELLS.values(), key=lambda c: c[1])
    middle = cells[1]
    assert middle[0] - sx - 1 == 7  # seven card spaces to the middle goal
    assert middle[1] == sy  # SAB-AMB-1: the start lines up with the middle goal
    assert len({x for x, _ in cells}) == 1
    assert [b[1] - a[1] - 1 for a, b in zip(cells, cells[1:])] == [1, 1]  # one space between goals
    xs = [sx] + [x for x, _ in cells]
    ys = [sy] + [y for _, y in cells]
    assert (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) == (9, 5)  # the 5-by-9 area


# -- the maze -----------------------------------------------------------------------

def test_SAB_GRID_1_x_grows_east_and_y_grows_south():
    assert all(x > START_CELL[0] for x, _ in GOAL_CELLS.values())  # the goals lie east
    t = table()

    def cells(shape: str) -> set[tuple[int, int, bool]]:
        card = card_for(t, 0, path_card(shape))
        return {(c["x"], c["y"], c["rotated"]) for c in GAME.legal_commands(t.state, 0)
                if c["type"] == "play_path" and c["card"] == card}
    # The start is open all round; a one-edge dead end fits only where that edge faces it.
    assert cells("dead-n") == {(0, 1, False), (0, -1, True)}  # N is (x, y-1): below the start, N faces it
    assert cells("dead-e") == {(-1, 0, False), (1, 0, True)}  # E is (x+1, y): west of the start, E faces it
    play(t, "dead-n", 0, 1)
    assert ("0,1", "N") in connected_edges(t.state["maze"])


def test_SAB_PATH_1_every_card_is_open_edges_and_segments():
    for shape in SHAPES.values():
        assert set(shape.edges) <= set("NESW") and shape.edges
        assert sorted("".join(shape.segments)) == sorted(shape.edges)
        if shape.dead_end:
            assert all(len(seg) == 1 for seg in shape.segments)  # every open edge stops alone
        else:
            assert shape.segments == (shape.edges,)  # one tunnel joins them all
    box = GAME.content()
    assert START_SHAPE in box["shapes"] and set(GOAL_SHAPES) <= set(box["shapes"])
    for card in box["cards"]:
        if card["kind"] == "path":
            assert (card["edges"], tuple(card["segments"])) == (SHAPES[card["shape"]].edges,
                                                                SHAPES[card["shape"]].segments)


def test_SAB_AMB_6_upside_down_is_legal_crosswise_is_not():
    t = table()
    card = card_for(t, 0, path_card("curve-nw"))  # upright N, W; turned 180 degrees S, E
    offered = [c for c in GAME.legal_commands(t.state, 0) if c["type"] == "play_path" and c["card"] == card]
    assert {c["rotated"] for c in offered} == {False, True}
    assert {"type": "play_path", "card": card, "x": 0, "y": -1, "rotated": True} in offered
    assert {"type": "play_path", "card": card, "x": 0, "y": -1, "rotated": False} not in offered
    for crosswise in (90, 270, "90"):
        with pytest.raises(Illegal) as exc:
            t.do(0, {"type": "play_path", "card": card, "x": 0, "y": -1, "rotated": crosswise})
        assert exc.value.rule == "SAB-PATH-2"
    evs = t.do(0, {"type": "play_path", "card": card, "x": 0, "y": -1, "rotated": True})
    assert evs[0]["data"]["rotated"] is True and GAME.view(t.state, 1)["maze"]["0,-1"]["edges"] == "ES"


def test_SAB_GRID_3_the_maze_has_no_border():
    t = table()
    play(t, "straight-ew", -1, 0)  # west of the start: outside the 9 columns
    for y in (-1, -2, -3):  # north beyond the 5 rows
        play(t, "straight-ns", 0, y, seat=t.turn)
    assert {"-1,0", "0,-3"} <= set(t.state["maze"])
    cells = candidate_cells(t.state["maze"], [])
    assert (-2, 0) in cells and (0, -4) in cells


def test_SAB_PATH_7_a_new_card_need_not_connect_to_the_start():
    t = table()
    t.place("dead-ew", 1, 0)  # its E edge is open but cut off from the start
    move = {"type": "play_path", "card": card_for(t, 0, path_card("straight-ew")), "x": 2, "y": 0,
            "rotated": False}
    assert move in GAME.legal_commands(t.state, 0)
    t.do(0, move)
    assert "2,0" in t.state["maze"]
    assert not {d for k, d in connected_edges(t.state["maze"]) if k == "2,0"}


def test_SAB_PATH_8_building_or_blocking_is_not_restricted_by_role():
    t = table()
    tunnel, dead = t.free(path_card("straight-ew")), t.free(path_card("dead-ew"))
    t.give(0, tunnel, dead)
    t.set_roles("MSMMS")
    as_miner = GAME.legal_commands(t.state, 0)
    t.set_roles("SSMMM")
    assert GAME.legal_commands(t.state, 0) == as_miner
    t.do(0, {"type": "play_path", "card": tunnel, "x": 1, "y": 0, "rotated": False})  # saboteur digs on
    t.set_roles("SMMMS")
    play(t, "dead-ew", 2, 0, seat=1)  # a miner may lay a dead end
    assert t.state["maze"]["2,0"]["by"] == 1


def test_SAB_GOAL_1_a_connected_open_edge_next_to_a_goal_turns_it_up():
    def dug_to_6() -> Table:
        t = table()
        t.set_goals(A="treasure", B="stone-ne", C="stone-nw")
        for x in range(1, 7):
            t.place_ew(x, 0)
        return t
    walled = dug_to_6()
    evs = play(walled, "curve-nw", 7, 0)  # joined to the start, but a wall faces goal B
    assert not data(evs, "GoalRevealed") and not walled.state["goals"]["B"]["revealed"]
    t = dug_to_6()
    evs = play(t, "straight-ew", 7, 0)  # joined to the start and open towards B
    assert t.types(evs)[:2] == ["PathPlaced", "GoalRevealed"]
    assert data(evs, "GoalRevealed") == [{"goal": "B", "x": 8, "y": 0, "shape": "stone-ne",
                                          "rotated": True, "by": 0}]
    for seat in [None, *range(5)]:
        assert GAME.view(t.state, seat)["goals"]["B"] == {"x": 8, "y": 0, "revealed": True, "shape": "stone-ne"}
        assert GAME.view(walled.state, seat)["goals"]["B"]["shape"] is None
    assert t.state["maze"]["8,0"]["shape"] == "stone-ne"


def test_SAB_GOAL_5_a_revealed_goal_is_upright_or_upside_down_only():
    t = table()
    t.set_goals(A="stone-nw", B="stone-ne", C="treasure")
    for x in range(1, 7):
        t.place_ew(x, 0)
    t.place("straight-ns", 8, -1, by=1)  # its S edge is open towards goal B
    evs = play(t, "straight-ew", 7, 0)
    rev = data(evs, "GoalRevealed")[0]
    assert rev["goal"] == "B" and isinstance(rev["rotated"], bool)
    edges = GAME.view(t.state, None)["maze"]["8,0"]["edges"]
    # A quarter turn (N, W) would match both neighbours; the engine may only choose NE or SW.
    assert edges in (oriented("stone-ne", False)[0], oriented("stone-ne", True)[0])
    assert edges == "SW"


# -- action cards ---------------------------------------------------------------------

def test_SAB_ACT_1_action_cards_are_played_face_up_before_oneself_or_another():
    t = table()
    on_other = card_for(t, 0, action_card("break", "pick"))
    evs = t.do(0, {"type": "break_tool", "card": on_other, "target": 2})
    on_self = card_for(t, 1, action_card("break", "cart"))
    evs += t.do(1, {"type": "break_tool", "card": on_self, "target": 1})
    played = [e for e in evs if e["type"] == "ToolBroken"]
    for seat in [None, *range(5)]:
        assert [GAME.redact(e, seat) for e in played] == played  # face up: nothing to hide
        players = GAME.view(t.state, seat)["players"]
        assert players[2]["broken_tools"] == {"pick": {"card": on_other, "by": 0}}
        assert players[1]["broken_tools"] == {"cart": {"card": on_self, "by": 1}}
    card = card_for(t, 2, action_card("break", "lantern"))
    offered = {c["target"] for c in GAME.legal_commands(t.state, 2) if c.get("card") == card
               and c["type"] == "break_tool"}
    assert offered == set(range(5))  # oneself or any other player
    for bad in (5, -1, "3", None, True):
        with pytest.raises(Illegal) as exc:
            t.do(2, {"type": "break_tool", "card": card, "target": bad})
        assert (exc.value.code, exc.value.rule) == ("bad_target", "SAB-ACT-1")


def test_SAB_ACT_3_action_cards_are_offered_only_where_they_have_an_effect():
    t = table()
    brk = t.free(action_card("break", "pick"))
    rep = t.free(action_card("repair", "lantern"))
    fall = t.free(action_card("rockfall"))
    peek = t.free(action_card("map"))
    t.give(0, brk, rep, fall, peek)
    stage_broken(t, 1, "pick", keep_hand=0)
    stage_broken(t, 2, "pick", keep_hand=0)
    edit(GAME, t.state, "turned A")
    legal = GAME.legal_commands(t.state, 0)

    def offered(kind: str) -> list[dict]:
        return [c for c in legal if c["type"] == kind and c["card"] in (brk, rep, fall, peek)]
    assert {c["target"] for c in offered("break_tool")} == {0, 3, 4}  # not on a broken pick
    assert offered("repair") == []  # no broken lantern anywhere
    assert offered("rockfall") == []  # only the start card is in the maze
    assert {c["goal"] for c in offered("map")} == {"B", "C"}  # face-down goals only
    assert {c["card"] for c in offered("pass")} == {brk, rep, fall, peek}  # useless cards can be discarded
    for cmd, rule in [
        ({"type": "break_tool", "card": brk, "target": 1}, "SAB-TOOL-3"),
        ({"type": "repair", "card": rep, "target": 1}, "SAB-REP-4"),
        ({"type": "rockfall", "card": fall, "x": 0, "y": 0}, "SAB-AMB-11"),
        ({"type": "map", "card": peek, "goal": "A"}, "SAB-AMB-10"),
    ]:
        with pytest.raises(Illegal) as exc:
            t.do(0, cmd)
        assert exc.value.rule == rule
    # When an effect becomes possible, the card is offered.
    stage_broken(t, 3, "lantern", keep_hand=0)
    t.place("straight-ew", 1, 0)
    legal = GAME.legal_commands(t.state, 0)
    assert [(c["target"], c["tool"]) for c in offered("repair")] == [(3, "lantern")]
    assert [(c["x"], c["y"]) for c in offered("rockfall")] == [(1, 0)]


def test_SAB_AMB_4_broken_tools_count_when_the_path_card_is_played():
    t = table()
    stage_broken(t, 1, "pick")
    t.do(0, {"type": "repair", "card": card_for(t, 0, action_card("repair", "pick")), "target": 1})
    play(t, "straight-ew", 1, 0, seat=1)  # repaired before playing: free to dig
    t.do(2, {"type": "break_tool", "card": card_for(t, 2, action_card("break", "cart")), "target": 3})
    card = card_for(t, 3, path_card("straight-ew"))
    with pytest.raises(Illegal) as exc:
        t.do(3, {"type": "play_path", "card": card, "x": 2, "y": 0, "rotated": False})
    assert (exc.value.code, exc.value.rule) == ("tools_broken", "SAB-TOOL-4")


def test_SAB_TOOL_5_a_broken_tool_stays_until_repaired_or_the_round_ends():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    t.do(0, {"type": "break_tool", "card": card_for(t, 0, action_card("break", "lantern")), "target": 2})
    for seat in (1, 2, 3, 4, 0):  # a full circle of other turns does not remove it
        t.do(seat, {"type": "pass", "card": t.state["hands"][seat][0]})
    assert "lantern" in t.state["broken"][2]
    with pytest.raises(Illegal):
        t.do(1, {"type": "repair", "card": card_for(t, 1, action_card("repair", "pick")), "target": 2})
    assert "lantern" in t.state["broken"][2]  # a non-matching repair changes nothing
    t.do(1, {"type": "repair", "card": card_for(t, 1, action_card("repair", "lantern")), "target": 2})
    assert t.state["broken"][2] == {}
    stage_broken(t, 4, "cart")
    treasure_found_by(t, 2)
    assert t.state["round"] == 2 and not any(t.state["broken"])  # the round's end clears it


def test_SAB_REP_1_repair_cards_show_one_tool_or_two_different_tools():
    repairs = [c for c in CARDS.values() if c.kind == "repair"]
    assert {len(c.tools) for c in repairs} == {1, 2}
    for c in repairs:
        assert len(set(c.tools)) == len(c.tools) and set(c.tools) <= set(TOOLS)


def test_SAB_ROCK_4_either_role_may_use_a_rockfall():
    t = table()
    t.place("straight-ew", 1, 0)
    t.place("dead-ew", 2, 0)
    t.set_roles("SMMMS")
    falls = {"type": "rockfall", "card": card_for(t, 0, action_card("rockfall")), "x": 1, "y": 0}
    assert falls in GAME.legal_commands(t.state, 0)
    t.do(0, falls)  # a saboteur breaks the tunnel
    t.do(1, {"type": "rockfall", "card": card_for(t, 1, action_card("rockfall")), "x": 2, "y": 0})
    assert "1,0" not in t.state["maze"] and "2,0" not in t.state["maze"]  # a miner clears a dead end


def test_SAB_MAP_3_a_map_cannot_target_a_goal_already_face_up():
    t = table()
    reach_stone_goal_a(t)  # turns stone A face up
    card = card_for(t, 1, action_card("map"))
    assert {c["goal"] for c in GAME.legal_commands(t.state, 1) if c["type"] == "map"} == {"B", "C"}
    with pytest.raises(Illegal) as exc:
        t.do(1, {"type": "map", "card": card, "goal": "A"})
    assert (exc.value.code, exc.value.rule) == ("goal_face_up", "SAB-AMB-10")


# -- end of a round and gold ------------------------------------------------------------

def test_SAB_PASS_3_the_discard_pile_mixes_face_up_and_face_down_cards():
    t = table()
    peek = card_for(t, 0, action_card("map"))
    t.do(0, {"type": "map", "card": peek, "goal": "A"})
    hidden = t.state["hands"][1][0]
    evs = t.do(1, {"type": "pass", "card": hidden})
    assert [(d["card"], d["face_up"]) for d in t.state["discard"]] == [(peek, True), (hidden, False)]
    for seat in [None, *range(5)]:
        v = GAME.view(t.state, seat)
        assert v["discard_count"] == 2 and v["discard_face_up"] == [peek]
        if seat is not None:
            assert v["you"]["face_down_discards"] == ([hidden] if seat == 1 else [])
        if seat != 1:
            assert f'"{hidden}"' not in dumps(v) + dumps(GAME.redact(evs[0], seat))


def test_SAB_END_2_the_round_ends_once_the_pile_and_every_hand_are_empty():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    t.empty_deck()
    hands = t.state["hands"]
    edit(GAME, t.state, f"""
        discard_hand 0 {hands[0][0]}
        discard_hand 1
        discard_hand 2 {hands[2][0]}
        discard_hand 3
        discard_hand 4
    """)
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert not data(evs, "RoundEnded") and t.turn == 2  # a card is still in hand: play on
    evs = t.do(2, {"type": "pass", "card": t.state["hands"][2][0]})
    ended = data(evs, "RoundEnded")[0]
    assert (ended["round"], ended["reason"], ended["finder"]) == (1, "cards_out", None)
    assert t.state["round"] == 2


def test_SAB_END_4_miners_win_by_the_treasure_saboteurs_otherwise():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    assert data(treasure_found_by(t, 0), "RoundEnded")[0]["winner"] == "miners"
    t.set_roles("MSMMS")
    ended = data(cards_run_out(t, 3), "RoundEnded")[0]
    assert (ended["reason"], ended["winner"]) == ("cards_out", "saboteurs")


def test_SAB_GOLD_1_miners_share_gold_when_the_treasure_is_reached():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    evs = treasure_found_by(t, 2)
    assert data(evs, "RoundEnded")[0]["winner"] == "miners"
    assert data(evs, "GoldBundleDrawn") and not data(evs, "GoldPayoutDue")
    got = [len(g[0]) for g in t.state["gold"]]
    assert sum(got) == 5 and got[1] == got[4] == 0 and all(got[m] for m in (0, 2, 3))


def test_SAB_GOLD_5_the_bundle_goes_round_the_table_until_it_is_empty():
    t = table()
    t.set_roles("MSMSM")
    treasure_found_by(t, 0)
    while t.state["phase"] == "gold":
        (seat,) = GAME.active_seats(t.state)
        t.do(seat, GAME.legal_commands(t.state, seat)[0])
    kept = [d["seat"] for d in data(t.events, "GoldKept")]
    passes = [(d["from"], d["to"]) for d in data(t.events, "GoldBundlePassed")]
    # Counter-clockwise from finder 0: 4, (3 saboteur), 2, (1 saboteur), 0 again, 4.
    assert kept == [0, 4, 2, 0, 4]
    assert passes == list(zip(kept, kept[1:]))
    assert [len(g[0]) for g in t.state["gold"]] == [2, 0, 1, 0, 2]


def test_SAB_GOLD_6_a_saboteur_finder_starts_the_bundle_at_the_next_miner():
    t = table(6, gold_choice="auto")
    t.set_roles("MSMMSM")
    evs = treasure_found_by(t, 1)  # B, a saboteur, completes the path
    assert data(evs, "RoundEnded")[0] == {"round": 1, "reason": "treasure_found", "winner": "miners",
                                          "finder": 1, "last_player": 1}
    assert data(evs, "GoldBundleDrawn")[0]["holder"] == 0
    assert [d["seat"] for d in data(evs, "GoldKept")] == [0, 5, 3, 2, 0, 5]
    assert t.state["gold"][1][0] == [] and t.state["gold"][4][0] == []


def test_SAB_GOLD_7_saboteurs_win_when_the_treasure_was_not_reached():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    edit(GAME, t.state, "turned A stone-nw")  # a stone was reached: not the treasure
    evs = cards_run_out(t, 0)
    assert data(evs, "RoundEnded")[0]["winner"] == "saboteurs" and not data(evs, "GoldBundleDrawn")
    assert [sum(g[0]) for g in t.state["gold"]] == [0, 3, 0, 0, 3]


# -- next round and the end of the game ---------------------------------------------------

def test_SAB_NEXT_2_same_layout_goals_shuffled_again():
    moved = False
    for i in range(8):
        t = Table(5, seed=b"n2-%d" % i, first_player=0, gold_choice="auto")
        treasure_found_by(t, 0)  # the treasure was at B in round 1
        evs = round_events(t, 2)
        assert len(data(evs, "GoalsShuffled")) == 1
        s = t.state
        assert s["maze"] == {"0,0": {"card": "start", "shape": START_SHAPE, "rotated": False, "by": None}}
        assert {g: (i["x"], i["y"]) for g, i in s["goals"].items()} == GOAL_CELLS
        assert not any(g["revealed"] for g in s["goals"].values())
        assert sorted(g["shape"] for g in s["goals"].values()) == sorted(GOAL_SHAPES)
        moved |= s["goals"]["B"]["shape"] != TREASURE
    assert moved


def test_SAB_NEXT_3_the_same_role_cards_are_dealt_again():
    t = table(4, gold_choice="auto")
    t.set_roles("MMMM")
    edit(GAME, t.state, "leftover = saboteur")
    treasure_found_by(t, 0)
    evs = round_events(t, 2)
    dealt, aside = data(evs, "RoleDealt"), data(evs, "RoleSetAside")
    assert [d["seat"] for d in dealt] == [0, 1, 2, 3] and len(aside) == 1
    assert Counter(d["role"] for d in dealt) + Counter([aside[0]["role"]]) == Counter(saboteur=1, miner=4)
    assert t.state["roles"] == [d["role"] for d in dealt] and not t.state["roles_revealed"]
    assert GAME.view(t.state, 0)["leftover_role"] is None


def test_SAB_ROLE_4_roles_come_from_one_deck_every_round_and_may_change():
    changed = False
    for i in range(6):
        t = Table(5, seed=b"r4-%d" % i, first_player=0, gold_choice="auto")
        decks, per_round = [], []
        for rnd in (1, 2, 3):
            decks.append(Counter(t.state["roles"] + [t.state["leftover"]]))
            per_round.append(list(t.state["roles"]))
            treasure_found_by(t, 0)
        assert decks == [Counter(saboteur=2, miner=4)] * 3
        changed |= len({tuple(r) for r in per_round}) > 1
    assert changed


def test_SAB_NEXT_4_cards_reshuffled_and_dealt_again():
    t = table(8, gold_choice="auto")
    t.set_roles("MSMMSMSM")
    first_order = data(t.events, "DeckShuffled")[0]["cards"]
    treasure_found_by(t, 0)
    evs = round_events(t, 2)
    order = data(evs, "DeckShuffled")[0]["cards"]
    assert sorted(order) == sorted(CARDS) and order != first_order  # action cards too (SAB-AMB-19)
    assert [len(d["cards"]) for d in data(evs, "HandDealt")] == [HAND_SIZE[8]] * 8
    assert t.state["deck"] == order[8 * HAND_SIZE[8]:]


def test_SAB_NEXT_5_won_gold_is_kept_and_the_rest_is_the_next_gold_deck():
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    treasure_found_by(t, 0)
    round_1 = [list(g[0]) for g in t.state["gold"]]
    handed = Counter(v for g in round_1 for v in g)
    assert sum(handed.values()) == 5 and t.state["round"] == 2
    assert Counter(t.state["gold_deck"]) == Counter(GOLD) - handed
    deck_before = Counter(t.state["gold_deck"])
    t.set_roles("SMMMS")
    evs = treasure_found_by(t, 1)
    assert Counter(data(evs, "GoldBundleDrawn")[0]["values"]) <= deck_before
    assert [g[0] for g in t.state["gold"]] == round_1  # round 1's gold stays with its owners
    handed += Counter(v for g in t.state["gold"] for v in g[1])
    assert Counter(t.state["gold_deck"]) == Counter(GOLD) - handed
    assert GAME.view(t.state, 0)["you"]["gold"][0] == round_1[0]


@pytest.mark.parametrize("players", [3, 7])
def test_SAB_OVW_4_a_game_is_three_rounds_won_by_the_most_nuggets(players):
    t = Table(players, seed=b"ovw4-%d" % players)
    t.finish(["random"] * players)
    assert [d["round"] for d in data(t.events, "RoundStarted")] == [1, 2, 3]
    assert [d["round"] for d in data(t.events, "RoundEnded")] == [1, 2, 3]
    totals = data(t.events, "GoldRevealed")[0]["totals"]
    board = GAME.scores(t.state)
    assert board.final and set(board.winners) == {s for s, v in enumerate(totals) if v == max(totals)}


def test_SAB_WIN_3_the_most_nuggets_wins_not_the_most_cards():
    t = table(3)
    edit(GAME, t.state, """
        round = 3
        gold = [[[1, 1, 1, 1], [], []], [[3], [3], []], [[2], [2], []]]
        gold_deck -= 1
        gold_deck -= 1
        gold_deck -= 1
        gold_deck -= 1
        gold_deck -= 3
        gold_deck -= 3
        gold_deck -= 2
        gold_deck -= 2
        roles MMM
        leftover = saboteur           # no saboteur in play: round 3 pays nobody (SAB-GOLD-9)
    """)
    evs = cards_run_out(t, 0)
    assert data(evs, "GoldRevealed")[0]["totals"] == [4, 6, 4]
    board = GAME.scores(t.state)
    assert board.final and board.winners == [1]
    assert {s.seat: s.place for s in board.seats} == {1: 1, 0: 2, 2: 2}


def test_SAB_WIN_2_a_player_scores_the_nuggets_on_all_their_gold_cards():
    t = table(3, gold_choice="auto")
    edit(GAME, t.state, """
        round = 3
        gold = [[[1, 1, 1], [], []], [[2, 2], [], []], [[], [3], []]]
        gold_deck -= 1
        gold_deck -= 1
        gold_deck -= 1
        gold_deck -= 2
        gold_deck -= 2
        gold_deck -= 3
    """)
    t.set_roles("MSM")
    evs = treasure_found_by(t, 0)
    totals = data(evs, "GoldRevealed")[0]["totals"]
    assert totals == [sum(map(sum, g)) for g in t.state["gold"]]
    board = GAME.scores(t.state)
    assert board.final and {s.seat: s.total for s in board.seats} == dict(enumerate(totals))
    assert totals[1] == 4  # two cards of 2 count as 4 nuggets, not as 2 cards
    assert {s.seat: s.breakdown for s in board.seats}[1] == {"round_1": 4, "round_2": 0, "round_3": 0}
