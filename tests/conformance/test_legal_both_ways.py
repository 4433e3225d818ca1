"""``legal_commands`` and ``decide`` agree, both ways, on every registered game.

Along each conformance game (the random-bot games of ``test_conformance``),
at ``STATES`` positions, for every seat:

- every listed command is accepted (``test_conformance`` checks it too, on
  fewer states);
- ``DRAWS`` random commands drawn from the game's command schema
  (``schema_draw``) are put to ``decide``: each one accepted must be listed,
  literally, or as a listed command of the same type with the same events (a
  field left at its default), or but for the fields the game declares it does
  not enumerate (``unlisted_fields``: a payment order); each one refused must be refused with
  ``Illegal`` (never another exception: bad input never causes a 500) citing a
  rule of this game or none.

Thousands of commands per game, bounded by ``STATES`` x ``DRAWS``; the same at every test
position a game declares (``Game.positions``).
"""
from __future__ import annotations

import random

import pytest

from domain import registry
from domain.core import Drbg, Illegal, canonical_json
from domain.kit import command_stream
from tests.conformance.schema_draw import Drawer, harvest
from tests.conformance.test_conformance import IDS, TABLES, played, states
from tests.support.positions import named

STATES = 24  # positions per table, spread over the game
DRAWS = 60  # drawn commands per position, shared by its seats (the seats to act get most)


def positions(gid: str, players: int):
    g = played(gid, players)
    walk = list(states(g))
    return g, walk[:: max(1, len(walk) // STATES)][:STATES]


def bare(cmd: dict, fields: tuple[str, ...]) -> dict:
    return {k: v for k, v in cmd.items() if k not in fields}


def both_ways(game, state, players: int, drawer: Drawer, rng_of, draws: int) -> tuple[int, int]:
    """At one position: every listed command is accepted; each drawn one accepted is listed
    (or refused citing a rule of the game). Returns (tried, accepted) of the drawn ones."""
    prefix = game.rule_prefix
    acting = sorted(game.turn(state).seats)
    tried = accepted = 0
    for seat in range(players):
        legal = game.legal_commands(state, seat)
        for cmd in legal:
            game.decide(state, seat, cmd, rng_of())
        share = draws // max(1, len(acting)) if seat in acting else max(2, draws // (4 * players))
        for _ in range(share):
            cmd = drawer.command(legal)
            tried += 1
            try:
                events = game.decide(state, seat, cmd, rng_of())
            except Illegal as refused:
                assert refused.rule is None or refused.rule.startswith(f"{prefix}-"), (cmd, refused)
                continue
            accepted += 1
            assert is_listed(game, state, seat, legal, cmd, events, rng_of), f"seat {seat}: {cmd} is accepted but not listed"
    return tried, accepted


def is_listed(game, state, seat: int, legal: list[dict], cmd: dict, events: list, rng_of) -> bool:
    """An accepted ``cmd`` (its ``events``) is listed: literally, or but for the fields the game does
    not enumerate (``unlisted_fields``), or as a listed command of its type with the same events
    (a field written out at its default)."""
    if canonical_json(cmd) in {canonical_json(c) for c in legal}:
        return True
    if canonical_json(bare(cmd, game.unlisted_fields)) in {canonical_json(bare(c, game.unlisted_fields)) for c in legal}:
        return True
    return any(c["type"] == cmd.get("type") and game.decide(state, seat, c, rng_of()) == events for c in legal)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_accepted_command_is_listed_and_every_listed_one_accepted(gid, players):
    g, picks = positions(gid, players)
    game = g.game
    pool: dict[str, list] = {}
    for _version, state, step in picks:
        harvest([c for seat in range(players) for c in game.legal_commands(state, seat)], pool)
        if step.command and step.seat is not None:
            harvest([step.command], pool)
    drawer = Drawer(game.command_schema, random.Random(f"{gid}-{players}"), pool)
    tried = accepted = 0
    for version, state, _step in picks:
        t, a = both_ways(game, state, players, drawer, lambda: Drbg(g.seed, command_stream(version)), DRAWS)
        tried, accepted = tried + t, accepted + a
    assert tried >= len(picks) * DRAWS // 2 and accepted, (tried, accepted)


DECLARED = [(gid, name) for gid in registry.available() for name in sorted(registry.get(gid).positions)]


@pytest.mark.parametrize("gid,name", DECLARED, ids=[f"{g}:{n}" for g, n in DECLARED])
def test_both_ways_at_every_declared_test_position(gid, name):
    """The positions a game declares (``Game.positions``) are where its rule tests stand."""
    game, state = named(gid, name)
    players = game.players(state)
    pool: dict[str, list] = {}
    harvest([c for seat in range(players) for c in game.legal_commands(state, seat)], pool)
    drawer = Drawer(game.command_schema, random.Random(f"{gid}:{name}"), pool)
    tried, _accepted = both_ways(game, state, players, drawer, lambda: Drbg(b"position", "v1"), DRAWS * 4)
    assert tried >= DRAWS
