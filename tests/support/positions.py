"""Test positions from text (``domain.kit.position``): the started table of the first line,
with the edits of the lines after it.

    game, s = position('''
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        turn 0 ariane
    ''')
"""
from __future__ import annotations

from contextlib import nullcontext

from domain import registry
from domain.core import Drbg, Game, Seat, fold
from domain.kit import position as text
from domain.kit.tables import WithContent


def position(source: str) -> tuple[Game, dict]:
    """The game and the state ``source`` describes (see ``domain.kit.position``). With ``given``
    lines the game is one whose every call sees the given content tables (``domain.kit.tables``)."""
    p = text.parse(source)
    game = registry.get(p.game)
    given = text.tables(p, game.content_tables)
    if given:
        game = WithContent(game, given)
    seats = [Seat(i, f"p{i}") for i in range(p.seats)]
    state = fold(game, game.start(game.validate_options(p.options, p.seats), seats, Drbg(p.seed.encode(), "start")))
    with _content(game):
        return game, text.apply(state, p, game.position_verbs)


def edit(game: Game, state: dict, source: str) -> dict:
    """More edits (lines of a position after its first) on a state a test has played to, in place."""
    with _content(game):
        return text.apply(state, text.Position(game.id, 0, edits=text.parse_edits(source)), game.position_verbs)


def _content(game: Game):
    return game.given() if isinstance(game, WithContent) else nullcontext()


def named(game_id: str, name: str) -> tuple[Game, dict]:
    """One of the positions a game declares (``Game.positions``)."""
    return position(registry.get(game_id).positions[name])
