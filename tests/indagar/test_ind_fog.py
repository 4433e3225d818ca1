"""Fog of war and secrecy (IND-FOG-1, IND-FOG-2, IND-FOG-3, IND-FOG-4, IND-FOG-5, IND-FOG-6, IND-FOG-7): what each seat may see."""
from __future__ import annotations

import json

from domain.indagar.rules import GAME
from domain.kit import play, table as bots
from ind_support import apply, clear_board, neighbours, table
from tests.support.positions import edit


def _explore_setup():
    s = clear_board(table(2))
    hero = s["seats"][0]["heroes"][0]
    src = s["tiles"] and next(t for t in s["tiles"] if s["tiles"][t]["type"] == "source")
    here = next(n for n in neighbours(s, src) if s["tiles"][n]["type"] is None)
    target = next(n for n in neighbours(s, here) if n != src)
    edit(GAME, s, f"""
        put {hero} {here}
        hide {target} spirit_cache
        turn 0 {hero}
    """)
    return s, hero, here, target


def test_IND_FOG_1_IND_FOG_7_face_down_types_never_reach_a_view():
    s = table(4)
    for seat in (None, 0, 1, 2, 3):
        v = GAME.view(s, seat)
        assert "hidden" not in v and "peeks" not in v
        for t in v["face_down"]:
            assert v["tiles"][t]["type"] is None


def test_IND_BOARD_4_the_shuffled_mix_is_redacted_for_every_seat():
    g = play(GAME, bots(GAME, 2, "random"), {}, seed=b"fog", max_steps=1)
    shuffled = next(e for e in g.steps[0].events if e["type"] == "TilesShuffled")
    for seat in (None, 0, 1):
        seen = GAME.redact(shuffled, seat)
        assert seen["data"] == {"face_down": len(shuffled["data"]["hidden"])}
        assert "spirit_cache" not in json.dumps(seen)


def test_IND_EXPL_1_IND_FOG_7_an_explored_tile_is_known_to_its_explorer_only():
    """IND-FOG-6: exploring reveals a tile or lets its explorer look at it privately."""
    s, hero, here, target = _explore_setup()
    events = GAME.decide(s, 0, {"type": "explore", "tile": target}, None)
    peek = next(e for e in events if e["type"] == "TilePeeked")
    assert GAME.redact(peek, 0)["data"]["kind"] == "spirit_cache"
    assert "kind" not in GAME.redact(peek, 1)["data"] and "kind" not in GAME.redact(peek, None)["data"]
    s = apply(s, 0, {"type": "explore", "tile": target})
    assert GAME.view(s, 0)["known"] == {target: "spirit_cache"}
    assert GAME.view(s, 1)["known"] == {} and GAME.view(s, None)["known"] == {}
    assert "spirit_cache" not in json.dumps(GAME.view(s, 1))
    # IND-EXPL-2: a move is spent and the hero stays
    assert s["turn"]["moves"] == 2 and s["heroes"][hero]["tile"] == here
    # put it back: it stays face down, nothing fires (IND-EXPL-3)
    kept = apply(s, 0, {"type": "reveal", "show": False})
    assert kept["tiles"][target]["type"] is None and kept["seats"][0]["spirits"] == 0
    # reveal it: the reveal effect fires for the explorer (IND-AMB-23)
    shown = apply(s, 0, {"type": "reveal", "show": True})
    assert shown["tiles"][target]["type"] == "spirit_cache" and shown["seats"][0]["spirits"] == 2
    assert shown["heroes"][hero]["tile"] == here
    assert GAME.view(shown, 0)["known"] == {}


def test_IND_FOG_3_IND_MMOV_6_monsters_cross_face_down_tiles_without_revealing():
    g = play(GAME, bots(GAME, 3, "random"), {}, seed=b"walk")
    for step in g.steps:
        if step.seat is None and step.command:
            assert not any(e["type"] == "TileRevealed" for e in step.events
                           if e["data"].get("hero") is None and e["data"].get("seat") is None)


def test_after_a_resignation_every_face_down_tile_is_shown():
    """Ended by a resignation (the rules' round still open), the game shows what lay face down,
    as after round 10 (DESIGN.md: after the end everyone sees everything)."""
    from domain.core import Drbg, fold

    g = play(GAME, bots(GAME, 2, "greedy"), {}, seed=b"resign-fog", max_steps=60)
    assert "hidden" not in GAME.view(g.state, None)
    seat = sorted(GAME.turn(g.state).seats)[0]
    s = fold(GAME, GAME.decide_platform(g.state, seat, {"type": "resign"}, Drbg(b"x", "v")), g.state)
    assert s["phase"] != "over" and GAME.view(s, None)["hidden"] == s["hidden"] and s["hidden"]
