"""Bot policies: ``policy(game, state, seat, rng) -> command``.

They see only what the seat may know: its ``legal_commands``.
"""
from __future__ import annotations


def random_policy(game, state, seat: int, rng):
    """Uniform over every legal command."""
    return rng.choice(game.legal_commands(state, seat))


BOTS = {"random": random_policy}
