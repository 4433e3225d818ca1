"""Final scoring (DW-SCORE) and the rulebook's examples DW-EX-1..4, rebuilt as real
finished games: a real setup, holdings given by Gained events, then GameEnded."""
from __future__ import annotations

from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import finish, give, start


def _game(*holdings: dict) -> dict:
    s = start(len(holdings))
    for i, h in enumerate(holdings):
        s = give(s, i, **h)
    return finish(s)


def test_DW_EX_1_majorities_lorena_wins_two_to_one():
    """DW-EX-1, DW-RN-2, DW-END-4, DW-SCORE-1, DW-SCORE-2, DW-SCORE-3, DW-OBJ-2, DW-OBJ-3: Alfredo (4,9,8), Lorena (2,10,12)."""
    s = _game({"steel": 4, "gold": 9, "object": 8}, {"steel": 2, "gold": 10, "object": 12})
    board = GAME.scores(s)
    lines = {x.seat: x for x in board.seats}
    assert lines[0].breakdown == {"steel": 1, "gold": 0, "objects": 0}
    assert lines[1].breakdown == {"steel": 0, "gold": 1, "objects": 1}
    assert board.winners == [1] and board.result().kind == "win"


def test_DW_EX_2_medals_break_a_tie_pablo_wins():
    """DW-EX-2, DW-SCORE-4, DW-OBJ-4: a tied category goes to nobody; 1-1, Pablo has more Medals."""
    s = _game({"steel": 4, "gold": 9, "object": 8, "medal": 7}, {"steel": 2, "gold": 9, "object": 14, "medal": 9})
    board = GAME.scores(s)
    lines = {x.seat: x for x in board.seats}
    assert lines[0].breakdown == {"steel": 1, "gold": 0, "objects": 0}
    assert lines[1].breakdown == {"steel": 0, "gold": 0, "objects": 1}
    assert board.winners == [1]


def test_DW_EX_3_iron_breaks_a_tie_cristina_wins():
    """DW-EX-3: every category tied, Medals tied, Cristina has more Iron."""
    s = _game({"steel": 3, "gold": 6, "object": 2, "medal": 4, "iron": 1},
              {"steel": 3, "gold": 6, "object": 2, "medal": 4, "iron": 5})
    board = GAME.scores(s)
    assert all(x.total == 0 for x in board.seats)
    assert board.winners == [1]


def test_DW_EX_4_objects_break_a_tie_carlos_wins():
    """DW-EX-4, DW-AMB-22: 1 majority each, Medals and Iron tied, Carlos forged more Objects."""
    s = _game({"steel": 2, "gold": 5, "object": 3, "medal": 3, "iron": 2},
              {"steel": 4, "gold": 5, "object": 2, "medal": 3, "iron": 2})
    board = GAME.scores(s)
    assert [x.total for x in sorted(board.seats, key=lambda x: x.seat)] == [1, 1]
    assert board.winners == [0]


def test_DW_AMB_20_three_players_top_tie_goes_to_nobody_and_tiebreaks_only_among_leaders():
    """DW-AMB-20: with 3 players a majority beats every other player; the tie-breakers
    compare only those tied for the most majorities (C's many Medals do not matter)."""
    s = _game({"steel": 5, "gold": 1, "object": 0, "medal": 1},
              {"steel": 1, "gold": 5, "object": 0, "medal": 2},
              {"steel": 5, "gold": 5, "object": 0, "medal": 9})
    board = GAME.scores(s)
    assert [x.total for x in sorted(board.seats, key=lambda x: x.seat)] == [0, 0, 0]
    assert board.winners == [2]
    s = _game({"steel": 6, "gold": 1, "medal": 1}, {"steel": 1, "gold": 6, "medal": 2}, {"steel": 5, "gold": 5, "medal": 9})
    board = GAME.scores(s)
    assert board.winners == [1]


def test_DW_AMB_21_tie_after_every_tiebreak_shares_the_victory():
    """DW-AMB-21, DW-AMB-42 (units are counted, not cubes): still tied after Medals, Iron and Objects: a shared victory."""
    s = _game({"steel": 2, "gold": 2, "object": 1, "medal": 1, "iron": 1},
              {"steel": 2, "gold": 2, "object": 1, "medal": 1, "iron": 1})
    board = GAME.scores(s)
    assert board.winners == [0, 1] and board.result().kind == "shared"


def test_DW_SOLO_1_automaton_scored_like_a_player():
    """DW-SOLO-1: the automaton is ranked by the same majorities, as actor:automaton."""
    s = start(1, solo_level="eldhusfifl")
    s = give(s, 0, steel=1)
    s = give(s, 1, gold=3, object=1)
    board = GAME.scores(finish(s)).to_dict()
    first = [p["id"] for p in board["participants"] if p["place"] == 1]
    assert first == ["actor:automaton"]
    assert board["outcome"]["kind"] == "no_player_wins"


def test_DW_SCORE_5_live_scores_are_not_final():
    """DW-SCORE-5: /scores shows the live majority table before the end."""
    s = give(start(2), 0, gold=2)
    board = GAME.scores(s)
    assert not board.final
    assert {x.seat: x.breakdown["gold"] for x in board.seats} == {0: 1, 1: 0}
