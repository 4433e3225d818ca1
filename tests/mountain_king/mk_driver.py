"""Drive Mountain King games for tests: start, fold, and a legal-command loop."""
from __future__ import annotations

from domain import kit
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


def picking(pick=by_type):
    """A bot policy from ``pick(rng, legal commands)``."""
    return lambda game, state, seat, rng: pick(rng, game.legal_commands(state, seat))


def play(players: int, options: dict | None = None, seed: bytes = b"seed", pick=by_type,
         max_steps: int = 20000, check=None):
    """Play a whole game with the kit's driver (the server's streams); returns (state, events, steps).
    ``check(state, events so far)`` runs after every step."""
    events: list[dict] = []

    def each(g):
        if not events:
            events.extend(g.steps[0].events)
        events.extend(g.steps[-1].events)
        if check:
            check(g.state, events)

    seats = [Seat(i, f"p{i}", "random") for i in range(players)]
    policy = picking(pick)
    g = kit.play(GAME, seats, options or {}, seed, max_steps=max_steps,
                 policies={i: policy for i in range(players)}, on_step=each)
    return g.state, events or list(g.steps[0].events), len(g.steps) - 1


def resume(state, seed: bytes, pick=by_type, on_step=None, max_steps: int = 20000):
    """Play a staged position to the end with ``pick`` for every seat (the kit's driver)."""
    seats = [Seat(i, f"p{i}") for i in range(state["n"])]
    policy = picking(pick)
    g = kit.run(kit.Played(GAME, seats, {}, seed, state=state, version=1), max_steps=max_steps,
                policies={i: policy for i in range(state["n"])}, on_step=on_step)
    return g.state


def apply(state, seat: int, cmd: dict, stream: str = "t"):
    """Decide and fold one command; returns (state, events)."""
    events = GAME.decide(state, seat, cmd, Drbg(b"test", stream))
    state = GAME.load_state(GAME.dump_state(state))
    for ev in events:
        state = GAME.evolve(state, ev)
    return state, events


def ready(players: int, options: dict | None = None, seed: bytes = b"seed"):
    """A game past doors and draft (first legal choice each time), at seat 0's first turn."""
    state, _ = new_game(players, options, seed)
    while state["phase"] in ("doors", "draft"):
        seat = min(GAME.active_seats(state))
        state, _ = apply(state, seat, GAME.legal_commands(state, seat)[0])
    return state


def types(events):
    return [e["type"] for e in events]
