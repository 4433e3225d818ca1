"""Mountain King's text positions (domain/mountain_king/positions.py) set up what its test
helpers do: a position and the helpers' state are the same, byte for byte."""
from __future__ import annotations

from domain.core import canonical_json
from test_mk_rule_ids import bare, tunnel

from tests.support.positions import named, position


def test_the_opening_and_storage_verbs_are_the_bare_first_turn():
    _, s = position("""
        mountain-king 4 seed=seed
        opening
        empty_trolls 0
        storage 0 iron=2 coin=1
    """)
    assert canonical_json(s) == canonical_json(bare(4, iron=2, coin=1))


def test_piece_verbs_place_what_the_helpers_place():
    _, s = position(named("mountain-king", "first-turn-bare")[0].positions["first-turn-bare"] + """
        tunnel t1 0 12,3 13,3
        workshop 11,2 swivel_bolts
        statue 12,2 ice
        step statues
    """)
    want = bare(stone=4, coin=2, hammer=1)
    want["pieces"]["t1"] = tunnel([(12, 3), (13, 3)])
    want["workshops"]["11,2"] = "swivel_bolts"
    want["statues"]["12,2"] = "ice"
    want["turn"].update(step="statues", acted=True)
    assert canonical_json(s) == canonical_json(want)
