"""Saboteur's text positions: content given to one position is the content its game plays with."""
from __future__ import annotations

from domain.saboteur.content import CARDS

from saboteur_support import all_cards
from tests.support.positions import position

CART_BROKEN = """
    hands.0 = ["A12", "P01"]                     # A12: a Repair card
    broken.1.cart = {"card": "A07", "by": 2}     # seat 1's cart is broken
"""


def repairs(game, s):
    return [c for c in game.legal_commands(s, 0) if c["type"] == "repair"]


def test_a_given_card_is_the_card_that_position_plays_with():
    """SAB-REP-3: a Repair card mends only the tool it shows; A12 shows a lantern, given a cart
    instead it mends seat 1's cart, and the card everywhere else still shows a lantern."""
    game, s = position('saboteur 3 seed=x options={"first_player": 0}\n'
                       'given cards.A12.tools = ["cart"]\n' + CART_BROKEN)
    assert repairs(game, s) == [{"type": "repair", "card": "A12", "target": 1, "tool": "cart"}]
    assert CARDS["A12"].tools == ("lantern",)
    plain, t = position('saboteur 3 seed=x options={"first_player": 0}\n' + CART_BROKEN)
    assert repairs(plain, t) == []


def test_the_verbs_move_cards_by_swapping_so_each_card_stays_once():
    """SAB-PATH-1, SAB-TOOL-1: cards staged in a hand, the maze or in front of a player come from
    the deck or a hand, never from nowhere: the 67 playing cards stay, each once."""
    _, s = position("""
        saboteur 5 seed=x options={"first_player": 0}
        give 0 shape:cross repair:pick
        path straight-ew 1,0 by=1
        broken 2 pick by=4
        turned A stone-nw
        discard_hand 3
    """)
    hand = [CARDS[c] for c in s["hands"][0]]
    assert any(c.shape == "cross" for c in hand) and any(c.kind == "repair" and c.tools == ("pick",) for c in hand)
    assert s["maze"]["1,0"]["shape"] == "straight-ew" and s["maze"]["1,0"]["by"] == 1
    assert CARDS[s["broken"][2]["pick"]["card"]].tools == ("pick",) and s["broken"][2]["pick"]["by"] == 4
    assert s["goals"]["A"]["revealed"] and s["hands"][3] == []
    assert sorted(all_cards(s)) == sorted(CARDS) and [len(h) for h in s["hands"]] == [6, 6, 6, 0, 6]
