"""Each hosted game, played by bots through the service on a real Redis:
the fold up to every version equals the state the server held then, and the
export verifies (and a tampered one names its first bad seq)."""
from __future__ import annotations

import json

import pytest

from domain import registry
from domain.core import canonical_json
from application.replay import verify

TABLES = [
    ("saboteur", 5, "heuristic", {}),
    ("saboteur", 3, "random", {}),
    ("mountain-king", 2, "random", {}),
    ("mountain-king", 4, "random", {"teams": True}),
]
# ...and every other registered game at its smallest table, with its greedy bot if it has one.
TABLES += [(gid, registry.get(gid).min_players, "greedy" if "greedy" in registry.get(gid).bots else "random", {})
           for gid in registry.available() if gid not in {t[0] for t in TABLES}]


def play(service, game, seats, bot, options):
    gid = service.create(game, [{"name": f"bot{i}", "bot": bot} for i in range(seats)], options)["id"]
    held = {}
    for _ in range(20_000):
        g = service.load(gid)
        held[g.version] = canonical_json(g.game.dump_state(g.state))
        if g.game.is_terminal(g.state):
            break
        step = service.actor_turn if g.game.turn(g.state).actor else service.bot_turn  # a game-driven actor's
        assert step(gid, g.version) is not None
    assert service.finalize(gid)
    return gid, held


@pytest.mark.parametrize("game,seats,bot,options", TABLES, ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in TABLES])
def test_replay_matches_held_states_and_export_verifies(service, store, game, seats, bot, options):
    gid, held = play(service, game, seats, bot, options)
    store.r.delete(store.keys.snap(gid))
    sample = sorted(held)[:: max(1, len(held) // 25)] + [max(held)]
    for version in sample:
        g = service.load(gid, upto=version)
        assert canonical_json(g.game.dump_state(g.state)) == held[version], version
    lines = list(service.export(gid, admin=False))
    verdict = verify(lines)
    assert verdict.ok, verdict.problems
    env = json.loads(lines[len(lines) // 2])
    env["at"] = "1999-01-01T00:00:00.000Z"
    lines[len(lines) // 2] = canonical_json(env) + "\n"
    bad = verify(lines)
    assert not bad.ok and bad.problems[0]["seq"] == env["seq"]
