"""Drive Mountain King games for tests: start, fold, and a legal-command loop."""
from __future__ import annotations

from domain.core import Drbg, Seat, fold
from domain.mountain_king.rules import GAME


def new_game(players: int, options: dict | None = None, seed: bytes = b"seed"):
    seats = [Seat(i, f"p{i}", "random") for i in range(players)]
    events = GAME.start(options or {}, seats, Drbg(seed, "start"))
    return fold(GAME, events), events


def by_type(rng, cmds):
    """Uniform over command types, then over commands of that type: random games
    that dig and recruit instead of trading away everything."""
    kinds = sorted({c["type"] for c in cmds})
    kind = rng.choice(kinds)
    return rng.choice([c for c in cmds if c["type"] == kind])


def play(players: int, options: dict | None = None, seed: bytes = b"seed", pick=by_type,
         max_steps: int = 20000, check=None):
    """Play a whole game; returns (state, events, steps)."""
    state, events = new_game(players, options, seed)
    n = 0
    while not GAME.is_terminal(state) and n < max_steps:
        seat = min(GAME.active_seats(state))
        cmds = GAME.legal_commands(state, seat)
        rng = Drbg(seed, f"v{n}")
        cmd = pick(rng, cmds)
        new = GAME.decide(state, seat, cmd, rng)
        for ev in new:
            state = GAME.evolve(state, ev)
        events.extend(new)
        if check:
            check(state, events)
        n += 1
    return state, events, n
