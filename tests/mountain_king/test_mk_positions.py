"""Mountain King's text positions (domain/mountain_king/positions.py): the opening is the test
driver's, and each verb sets what it says."""
from __future__ import annotations

import json
from collections import Counter

from domain.core import canonical_json
from domain.mountain_king import content
from domain.mountain_king.catalog import top_row
from domain.mountain_king.economy import resource_of
from domain.mountain_king.scoring import leftovers
from domain.mountain_king.rules import GAME

from mk_driver import ready
from tests.support.positions import edit, named, position


def test_the_opening_is_the_drivers_ready_and_storage_goes_through_the_supply():
    _, s = position("mountain-king 4 seed=seed\nopening")
    assert canonical_json(s) == canonical_json(ready(4))
    edit(GAME, s, "troll 0 1,1 magenta-1 11")  # two stone on a troll
    total = _tokens(s)
    edit(GAME, s, """
        empty_trolls 0
        storage 0 iron=2 coin=1
    """)
    assert not any(any(t["held"]) for t in s["rosters"][0].values())
    assert {r: n for r, n in s["stores"][0].items() if n} == {"iron": 2, "coin": 1}
    assert _tokens(s) == total  # every token still in the supply, a storage or on a troll


def _tokens(s):
    count = Counter(s["supply"])
    for store in s["stores"]:
        count.update(store)
    for roster in s["rosters"]:
        for t in roster.values():
            count.update(resource_of(sym) for sym, held in zip(top_row(t["card"]), t["held"]) if held)
    return count


def test_piece_verbs_place_what_they_say():
    _, before = named("mountain-king", "first-turn-bare")
    _, s = position(named("mountain-king", "first-turn-bare")[0].positions["first-turn-bare"] + """
        tunnel t1 0 12,3 13,3 anchor=13,3 pedestal=ice
        hall hall-of-echoes 1 12,4 12,5 altar=12,5
        workshop 11,2 swivel_bolts
        statue 12,2 ice
        troll 0 2,1 stone+cart:fire 01
        bribes B4 coin=2
        step statues
    """)
    assert s["pieces"]["t1"] == {"kind": "tunnel", "cells": [[12, 3], [13, 3]], "seat": 0, "tile": "X",
                                 "anchor": [13, 3], "pedestal": "ice"}
    assert s["pieces"]["hall:hall-of-echoes"] == {"kind": "hall", "cells": [[12, 4], [12, 5]], "seat": 1,
                                                  "hall": "hall-of-echoes", "altar": [12, 5]}
    assert s["workshops"]["11,2"] == "swivel_bolts" and s["statues"]["12,2"] == "ice"
    assert s["rosters"][0]["2,1"]["held"] == [False, True]
    assert s["horde"]["slots"]["B4"]["bribes"] == {"coin": 2} and s["supply"]["coin"] == before["supply"]["coin"] - 2
    assert s["turn"]["step"] == "statues" and s["turn"]["acted"]


def test_a_given_hall_is_the_hall_that_position_scores():
    """MK-HALL-10: a hall scores its high value with a statue on its altar; given 40 instead of
    the card's value, that position's game scores 40, and the card everywhere else is unchanged."""
    lines = """
        opening
        empty_trolls 0
        storage 0
        only_doors 0=12,2
        hall hall-of-echoes 0 12,3 12,4 12,5 12,6 12,7 altar=12,5
        statue 12,5 moon
    """
    game, s = position("mountain-king 4 seed=seed\ngiven halls.hall-of-echoes.high = 40\n" + lines)
    assert _great_halls(game, s) == 40
    plain, t = position("mountain-king 4 seed=seed\n" + lines)
    assert _great_halls(plain, t) == content.hall("hall-of-echoes").high != 40


def _great_halls(game, s):
    return _breakdown(game, s)["great_halls"]


def _breakdown(game, s):
    return next(x for x in game.scores(s).seats if x.seat == 0).breakdown


def test_a_given_troll_card_is_the_card_that_position_plays_with():
    """MK-SCORE-4: the tokens on a roster's trolls are counted by the card's top row; given a
    troll whose row is two iron, that position's leftovers hold two iron from it, and the card
    everywhere else is unchanged."""
    lines = "opening\nempty_trolls 0\nstorage 0\ntroll 0 2,1 L1-05 11\n"
    game, s = position('mountain-king 4 seed=seed\ngiven trolls.L1-05.symbols = ["iron", "iron"]\n' + lines)
    with game.given():
        assert leftovers(s, 0)["iron"] == 2 and top_row("L1-05") == ("iron", "iron")
    plain, t = position("mountain-king 4 seed=seed\n" + lines)
    assert top_row("L1-05") != ("iron", "iron")
    assert leftovers(t, 0) == {r: sum(resource_of(x) == r for x in top_row("L1-05")) for r in content.RESOURCES}


def test_a_given_board_is_the_board_that_position_plays_on():
    """MK-SCORE-8: a statue on a tunnel scores twice its space's level (MK-SCORE-7); given the
    Winter board with that space at level 5 instead of 2, the position's statue scores 10,
    and the real board is unchanged. A board is given whole, as its file's lines."""
    lines = "opening\nonly_doors 0=12,2\ntunnel t1 0 12,3 13,3 anchor=13,3\nstatue 13,3 ice\n"
    text = (content.CONTENT / "board_winter.txt").read_text(encoding="utf-8").splitlines()
    row = [i for i, line in enumerate(text) if line.strip() and not line.startswith("#")][13]
    assert text[row][9:11] == "2."  # column 3 of map row 13
    text[row] = text[row][:9] + "5" + text[row][10:]
    game, s = position(f"mountain-king 4 seed=seed\ngiven boards.winter = {json.dumps(text)}\n" + lines)
    assert _breakdown(game, s)["statues"] == 10
    plain, t = position("mountain-king 4 seed=seed\n" + lines)
    assert _breakdown(plain, t)["statues"] == 4 and content.board("winter").level((13, 3)) == 2
