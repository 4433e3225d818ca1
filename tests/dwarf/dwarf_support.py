"""Staging helpers for DWARF tests: real states built by folding real events."""
from __future__ import annotations

from domain.core import Drbg, Seat, event, fold
from domain.dwarf.rules import GAME
from domain.kit import Played, play, table


def start(n: int = 2, seed: bytes = b"dwarf", bots: str | None = None, **options) -> dict:
    """A fresh game folded from ``start``'s events."""
    seats = [Seat(i, f"p{i}", bots) for i in range(n)]
    return fold(GAME, GAME.start(options, seats, Drbg(seed, "v0")))


def apply(state: dict, events: list) -> dict:
    return fold(GAME, events, GAME.load_state(state))


def act(state: dict, seat: int, command: dict) -> dict:
    return apply(state, GAME.decide(state, seat, command, Drbg(b"t", "v")))


def step_actor(state: dict) -> dict:
    return apply(state, GAME.decide_actor(state, "automaton", Drbg(b"t", "v")))


def give(state: dict, player: int, **delta) -> dict:
    """Holdings for a staged position, through the same event resolution uses."""
    return apply(state, [event("Gained", player=player, delta=delta, why="staged")])


def stage_top(state: dict, area: int, loc: str, card: str) -> dict:
    """Put ``card`` on top of a location, as a Special Action's Mine side would be."""
    return apply(state, [event("CardPlacedInMine", place=f"{area}:{loc}", card=card)])


def finish(state: dict, reason: str = "four_objects") -> dict:
    return apply(state, [event("GameEnded", reason=reason)])


def who(state: dict) -> int | str:
    t = GAME.turn(state)
    return t.actor if t.actor else next(iter(t.seats))


def played(n: int, bot: str = "random", seed: bytes = b"play", **options) -> Played:
    """A whole bot game through the kit's driver (the server's DRBG streams)."""
    return play(GAME, table(GAME, n, bot), options, seed)
