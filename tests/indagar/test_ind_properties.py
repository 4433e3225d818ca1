"""Whole games of bots: every listed command is accepted, the state stays coherent,
and a game is its log (same seed, same events)."""
from __future__ import annotations

import pytest

from domain.core import canonical_json
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import play, table


def invariants(s: dict) -> None:
    """At most one figure per tile (IND-MOVE-3); heroes only on passable tiles (a monster stays
    on a Mountain revealed under it, IND-AMB-22); piece limits (IND-OUT-6); no negative
    reserves; damage below endurance on the board (IND-RET-1)."""
    heroes = [x["tile"] for x in s["heroes"].values() if x["tile"]]
    where = heroes + [x["tile"] for x in s["monsters"].values() if x["tile"]]
    assert len(where) == len(set(where))
    assert all(s["tiles"][t]["type"] != "mountains" for t in heroes)
    for p, seat in enumerate(s["seats"]):
        assert all(v >= 0 for v in seat["res"].values()) and seat["spirits"] >= 0
        for lvl, cap in st.PIECES.items():
            assert sum(1 for o in s["outposts"].values() if o["owner"] == p and o["level"] == lvl) <= cap
    for h, x in s["heroes"].items():
        if x["tile"]:
            assert x["damage"] < st.hero_card(h)["endurance"]
        assert len(x["bonuses"]) <= 3
    for t, o in s["outposts"].items():
        hero = st.hero_at(s, t)
        assert hero is None or st.owner(s, hero) == o["owner"] or s["attack"]  # IND-MOVE-4


@pytest.mark.parametrize("players,bot", [(1, "random"), (2, "random"), (3, "greedy"), (4, "random"),
                                         (1, "greedy"), (2, "greedy")])
def test_bot_games_run_to_a_result(players, bot):
    checked = 0

    def check(g):
        nonlocal checked
        invariants(g.state)
        seat = next(iter(GAME.turn(g.state).seats), None)
        if seat is not None and checked < 40 and len(g.steps) % 7 == 0:
            for cmd in GAME.legal_commands(g.state, seat)[:25]:     # every listed command is accepted
                assert GAME.decide(g.state, seat, cmd, __import__("domain.core").core.Drbg(b"x", "y")), cmd
            checked += 1

    g = play(GAME, table(GAME, players, bot), {}, seed=f"prop-{players}-{bot}".encode(), on_step=check)
    assert g.terminal
    board = g.scores()
    assert board.final and board.result().kind in ("win", "no_player_wins")
    assert g.state["round"] <= 10


def test_same_seed_same_game():
    a = play(GAME, table(GAME, 2, "random"), {}, seed=b"again")
    b = play(GAME, table(GAME, 2, "random"), {}, seed=b"again")
    assert canonical_json([s.events for s in a.steps]) == canonical_json([s.events for s in b.steps])
    assert canonical_json(GAME.dump_state(a.state)) == canonical_json(GAME.load_state(GAME.dump_state(b.state)))
