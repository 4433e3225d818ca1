"""Indagar's text positions: content given to one position is the content its game plays with."""
from __future__ import annotations

import pytest

from domain.core import Drbg, Illegal
from domain.indagar import content
from domain.kit import copy_state

from tests.support.positions import position

ARIANE_AT_THE_WEST_END = """
    arena
    put ariane r4c1
    turn 0 ariane                      # her full movement, from her card
"""


def walk(game, s, tiles):
    for tile in tiles:
        events = game.decide(s, 0, {"type": "move", "to": tile}, Drbg(b"t", "walk"))
        s = copy_state(s)
        for ev in events:
            s = game.evolve(s, ev)
    return s


def test_a_given_hero_card_is_the_card_that_position_plays_with():
    """IND-MOVE-1: a hero moves up to its card's movement; given 4 instead of Ariane's 3, she
    walks four tiles, and the card everywhere else still says 3."""
    game, s = position("indagar 2 seed=indagar\ngiven heroes.ariane.movement = 4\n" + ARIANE_AT_THE_WEST_END)
    assert s["turn"]["moves"] == 4
    s = walk(game, s, ["r4c2", "r4c3", "r4c4", "r4c5"])
    assert s["heroes"]["ariane"]["tile"] == "r4c5" and s["turn"]["moves"] == 0
    assert content.heroes()["ariane"]["movement"] == 3                 # only that position's game saw 4
    plain, t = position("indagar 2 seed=indagar\n" + ARIANE_AT_THE_WEST_END)
    t = walk(plain, t, ["r4c2", "r4c3", "r4c4"])
    with pytest.raises(Illegal):
        walk(plain, t, ["r4c5"])
