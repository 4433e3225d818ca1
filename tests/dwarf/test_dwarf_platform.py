"""DWARF served by the platform on a real Redis: a solo game at each level (the automaton's
steps appended as game-driven actor steps) and 2-5 seat bot games run to the end, and
their exports verify (a replay re-runs every seat command and every automaton step)."""
from __future__ import annotations

import pytest

from events.replay import verify

TABLES = [(1, "greedy", {"solo_level": level}) for level in ("eldhusfifl", "andvettr", "andvettr-fadir")] + \
    [(n, bot, {}) for n, bot in ((2, "greedy"), (3, "andvettr"), (4, "random"), (5, "eldhusfifl"))]


@pytest.mark.parametrize("seats,bot,options", TABLES,
                         ids=[f"{t[0]}-{t[1]}-{t[2].get('solo_level', 'seats')}" for t in TABLES])
def test_DW_SOLO_1_DW_COMB_1_games_on_the_platform_end_and_verify(service, seats, bot, options):
    """DW-SOLO-1, DW-SOLO-4, DW-COMB-1: one POST creates the game; bots and the automaton
    play it to the end; the export verifies."""
    gid = service.create("dwarf", [{"name": f"{bot}{i}", "bot": bot} for i in range(seats)], options)["id"]
    actor_steps = 0
    for _ in range(3000):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        if g.game.turn(g.state).actor:
            assert service.actor_turn(gid, g.version) is not None
            actor_steps += 1
        else:
            assert service.bot_turn(gid, g.version) is not None
    assert service.finalize(gid)
    assert (actor_steps > 0) == (seats == 1)
    board = service.load(gid)
    assert board.game.scores(board.state).final
    verdict = verify(list(service.export(gid, admin=False)))
    assert verdict.ok, verdict.problems
