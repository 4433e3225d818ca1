"""Positions as text (domain.kit.position): the format, its errors, and a game's verbs."""
from __future__ import annotations

import pytest

from domain.kit.position import BadPosition, parse
from tests.support.positions import position


def test_a_position_is_the_started_table_plus_its_edits():
    game, s = position("""
        indagar 2 seed=indagar options={"monster_start": "skipRound1"}
        # figures and tiles, in the game's words
        arena
        put ariane r4c1
        hide r4c2 "kakonositel"
        seats.0.spirits = 2                 # a path and a JSON value
        seats.0.res = {"gold": 3, "wood": 0, "ore": 0}
        turn 0 ariane
        turn.must_attack = true
        pending += {"kind": "cache", "seat": 0, "options": ["ariane"], "side": "sword"}
    """)
    assert game.id == "indagar" and s["options"]["monster_start"] == "skipRound1"
    assert s["heroes"]["ariane"]["tile"] == "r4c1" and s["hidden"] == {"r4c2": "kakonositel"}
    assert s["seats"][0]["spirits"] == 2 and s["seats"][0]["res"]["gold"] == 3
    assert s["turn"]["hero"] == "ariane" and s["turn"]["must_attack"] is True
    assert s["pending"][-1]["kind"] == "cache"


def test_a_path_edit_works_for_any_game_without_verbs():
    game, s = position("""
        saboteur 3 seed=x options={"first_player": 1}
        hands.0 = ["P01", "A20"]
        hands.1 = ["P02", "P03"]
        hands.1 -= P02
        broken.2.lantern = {"card": "A02", "by": 0}
    """)
    assert s["hands"][0] == ["P01", "A20"] and s["hands"][1] == ["P03"] and s["broken"][2]["lantern"]["by"] == 0
    assert game.turn(s).seats == {1}


@pytest.mark.parametrize("text,says", [
    ("", "starts with"),
    ("saboteur three", "line 1"),
    ("saboteur 3 options={", "JSON object"),
    ("saboteur 3\nnope.path = 1", "no 'nope'"),
    ("saboteur 3\nfly away", "no path edit and no verb"),
    ("saboteur 3\nhands.0 -= P99", "no 'P99' to remove"),
    ("saboteur 3\ngiven tiles.A01 = 1", "no content table 'tiles'"),
    ("saboteur 3\ngiven cards.Z99.kind = path", "no 'Z99' in cards"),
    ("saboteur 3\ngiven cards.A12 += 1", "'given <table>"),
    ("saboteur 3\ngiven cards.A12 = {\"shape\": \"cross\"}", "given cards.A12: "),
    ("mountain-king 4\ngiven boards.winter.rows = 3", "give the whole board as a board file's text"),
])
def test_a_bad_position_says_which_line_and_why(text, says):
    with pytest.raises(BadPosition, match=says):
        position(text) if text.strip() else parse(text)


def test_a_comment_mark_inside_a_json_string_stays_after_an_escaped_quote():
    _, s = position(r"""
        saboteur 3 seed=x
        hands.0 = ["say \"#1\"", "A20"]   # the comment
    """)
    assert s["hands"][0] == ['say "#1"', "A20"]
