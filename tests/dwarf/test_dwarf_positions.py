"""DWARF's text positions: content given to one position is the content its game plays with."""
from __future__ import annotations

from domain.core import Drbg, fold
from domain.dwarf import content

from tests.support.positions import position

WINDFALL_ON_TOP = """
    areas.0.piles = [["X1"], ["X4"], ["X7"]]    # Windfall heads the first Special Action pile
"""


def special(game, s):
    """Seat 0 takes the first pile's Special Action with both workers (DW-SPEC-1)."""
    return fold(game, game.decide(s, 0, {"type": "special", "pile": 0, "pay": False}, Drbg(b"t", "v")),
                game.load_state(s))


def test_a_given_effect_is_the_effect_that_position_resolves():
    """DW-SPEC-3: a Special Action's face resolves at once; given Windfall gains 6 iron instead
    of the card's 4, that position's game gains 6, and the card everywhere else still gains 4."""
    game, s = position('dwarf 2 seed=dwarf options={"first_player": 0}\n'
                       'given effects.windfall.gain = {"iron": 6}\n' + WINDFALL_ON_TOP)
    assert special(game, s)["players"][0]["iron"] == 6
    assert content.effects()["windfall"].gain == {"iron": 4}
    plain, t = position('dwarf 2 seed=dwarf options={"first_player": 0}\n' + WINDFALL_ON_TOP)
    assert special(plain, t)["players"][0]["iron"] == 4
