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
from tests.api.helpers import auth

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


def test_kept_bodies_are_what_the_service_builds_now(client, service):
    """GET game and legal-actions answer bytes kept per ``summary_key``/``legal_key``: at each
    version, for each viewer, the answer (asked twice, the second from the kept bytes) is the
    service's summary and legal actions of that moment."""
    created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}],
                                             "options": {}}).get_json()
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    viewers = [(0, tokens[0]), (1, tokens[1]), (None, None)]
    for _ in range(MAX_TURNS):
        for seat, token in viewers:
            for _twice in range(2):
                got = client.get(f"/v1/games/{gid}", headers=auth(token))
                assert got.get_json() == service.summary(gid, seat)
                assert got.headers["ETag"] == f'"{got.get_json()["version"]}-{"spectator" if seat is None else f"seat{seat}"}"'
                assert client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).get_json() == \
                    service.legal(gid, seat)
        g = service.load(gid)
        seats = g.game.turn(g.state).seats
        if not seats:
            break
        cmd = service.legal(gid, min(seats))["commands"][0]
        assert client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[min(seats)]),
                           json={"expected_version": g.version, "command": cmd}).status_code == 201
    assert service.load(gid).version > 2 and not client.get(f"/v1/games/{gid}").get_json()["active_seats"]


def test_a_clocked_summary_is_never_kept(service):
    """A running clock counts down between two reads of one version: its summary has no key."""
    gid = service.create("tiny", [{"name": "ann"}, {"name": "bob"}], {},
                         clock={"initial_s": 60, "increment_s": 5})["id"]
    g = service.load(gid)
    assert service.summary_key(gid, 0, g) is None
    assert service.summary_key(gid, 0, service.load(service.create("tiny", [{"name": "a"}, {"name": "b"}], {})["id"])) \
        is not None
