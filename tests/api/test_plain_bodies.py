"""The hot routes (game summary, legal actions, action result) send the service's dicts as they
are (server.routes.common.plain), not through marshmallow: that is only sound while each such
dict is already what its schema dumps. Proven here over played games of every hosted game, at
every version, for every seat, the spectator and the admin."""
from __future__ import annotations

import pytest

from domain import registry
from application.access import ADMIN
from server import schemas
from server.routes.common import dump

TABLES = [("saboteur", 3), ("mountain-king", 2), ("dwarf", 2), ("indagar", 3)]
# ...and every other registered game at its smallest table of two or more.
TABLES += [(gid, max(2, registry.get(gid).min_players)) for gid in registry.available() if gid not in dict(TABLES)]
MAX_TURNS = 400


def same_as_dumped(cls, body: dict) -> None:
    assert dump(cls, body) == body


@pytest.mark.parametrize("game,seats", TABLES, ids=[t[0] for t in TABLES])
def test_hot_bodies_are_what_their_schema_dumps(service, game, seats):
    if game not in registry.available():
        pytest.skip(f"{game} is not installed")
    gid = service.create(game, [{"name": f"bot{i}", "bot": "random"} for i in range(seats)], {})["id"]
    viewers = [*range(seats), None, ADMIN]
    acted = 0
    for _ in range(MAX_TURNS):
        g = service.load(gid)
        for seat in viewers:
            same_as_dumped(schemas.GameSummary, service.summary(gid, seat, g))
            same_as_dumped(schemas.LegalActions, service.legal(gid, seat, g))
        result = service.bot_turn(gid, g.version) or service.actor_turn(gid, g.version)
        if result is None:
            break
        same_as_dumped(schemas.ActionResponse, result)
        acted += 1
    assert acted > 0
    service.finalize(gid)
    for seat in viewers:
        same_as_dumped(schemas.GameSummary, service.summary(gid, seat))
