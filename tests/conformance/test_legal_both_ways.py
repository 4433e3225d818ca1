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

Thousands of commands per game, bounded by ``STATES`` x ``DRAWS``.
"""
from __future__ import annotations

import random

import pytest

from domain import registry
from domain.core import Drbg, Illegal, canonical_json
from domain.kit import command_stream
from tests.conformance.schema_draw import Drawer, harvest
from tests.conformance.test_conformance import IDS, TABLES, played, states

STATES = 24  # positions per table, spread over the game
DRAWS = 60  # drawn commands per position, shared by its seats (the seats to act get most)


def positions(gid: str, players: int):
    g = played(gid, players)
    walk = list(states(g))
    return g, walk[:: max(1, len(walk) // STATES)][:STATES]


def bare(cmd: dict, fields: tuple[str, ...]) -> dict:
    return {k: v for k, v in cmd.items() if k not in fields}


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_accepted_command_is_listed_and_every_listed_one_accepted(gid, players):
    g, picks = positions(gid, players)
    game = g.game
    prefix = registry.get(gid).rule_prefix
    pool: dict[str, list] = {}
    for _version, state, step in picks:
        harvest([c for seat in range(players) for c in game.legal_commands(state, seat)], pool)
        if step.command and step.seat is not None:
            harvest([step.command], pool)
    rng = random.Random(f"{gid}-{players}")
    drawer = Drawer(game.command_schema, rng, pool)
    tried = accepted = 0
    for version, state, _step in picks:
        acting = sorted(game.turn(state).seats)
        for seat in range(players):
            legal = game.legal_commands(state, seat)
            listed = {canonical_json(c) for c in legal}
            unlisted = {canonical_json(bare(c, game.unlisted_fields)) for c in legal}
            for cmd in legal:
                game.decide(state, seat, cmd, Drbg(g.seed, command_stream(version)))
            share = DRAWS // max(1, len(acting)) if seat in acting else max(2, DRAWS // (4 * players))
            for _ in range(share):
                cmd = drawer.command(legal)
                tried += 1
                try:
                    events = game.decide(state, seat, cmd, Drbg(g.seed, command_stream(version)))
                except Illegal as refused:
                    assert refused.rule is None or refused.rule.startswith(f"{prefix}-"), (cmd, refused)
                    continue
                accepted += 1
                if canonical_json(cmd) in listed or canonical_json(bare(cmd, game.unlisted_fields)) in unlisted:
                    continue
                same = [c for c in legal if c["type"] == cmd.get("type")
                        and game.decide(state, seat, c, Drbg(g.seed, command_stream(version))) == events]
                assert same, f"v{version} seat {seat}: {cmd} is accepted but not listed"
    assert tried >= len(picks) * DRAWS // 2 and accepted, (tried, accepted)
