"""Compaction (issue 13): a closed game's stream, snapshot and idempotency keys become one
compressed archive, and every reader answers exactly as before from it."""
from __future__ import annotations

import redis as redis_lib
import pytest

from domain import registry
from errors import BadArchive
from events import archive
from application.replay import verify
from application.service import GameService
from events.store import RedisEventStore
from tests.api.helpers import auth, tiny_game


def play_out(client, created) -> str:
    """Play a tiny game to its end through the API, each action under an Idempotency-Key."""
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for n in range(20):
        summary = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json
        if not summary["active_seats"]:
            break
        seat = summary["active_seats"][0]
        resp = client.post(f"/v1/games/{gid}/actions", headers={**auth(tokens[seat]), "Idempotency-Key": f"k{n}"},
                           json={"expected_version": summary["version"],
                                 "command": {"type": "guess", "target": 1 - seat, "digit": 3}})
        assert resp.status_code == 201, resp.json
    assert client.application.extensions["delve.service"].finalize(gid)
    return gid


def answers(client, gid: str, token: str) -> dict:
    """Everything a client can read of a finished game, as bytes."""
    paths = [f"/v1/games/{gid}", f"/v1/games/{gid}/scores", f"/v1/games/{gid}/audit",
             f"/v1/games/{gid}/events?after=0&limit=100", f"/v1/games/{gid}/events?after=3&limit=2",
             f"/v1/games/{gid}/export", f"/v1/games/{gid}/events/stream"]
    version = client.get(f"/v1/games/{gid}").json["version"]
    paths += [f"/v1/games/{gid}/states/{v}" for v in range(1, version + 1)]
    out = {}
    for path in paths:
        for who in (None, token):
            resp = client.get(path, headers={**auth(who), "Last-Event-ID": "1"})
            out[(path, who)] = (resp.status_code, resp.get_data())
    return out


def test_a_compacted_game_answers_every_read_as_before(client, service, store, r):
    created = tiny_game(client, turns=3)
    gid = play_out(client, created)
    token = created["seats"][0]["token"]
    before, export = answers(client, gid, token), b"".join(client.get(f"/v1/games/{gid}/export").response)
    size_before = sum(store.compaction.footprint(gid).values())
    assert list(r.scan_iter(match=store.keys.idem(gid, "*")))  # the game did leave idempotency records

    assert service.compact(gid) and not service.compact(gid)  # once only
    assert not r.exists(store.keys.events(gid)) and not r.exists(store.keys.snap(gid))
    assert r.exists(store.keys.archive(gid)) and not list(r.scan_iter(match=store.keys.idem(gid, "*")))
    assert set(store.compaction.footprint(gid)) == {"meta", "archive"} and sum(store.compaction.footprint(gid).values()) < size_before

    assert answers(client, gid, token) == before
    # A process that never saw the game (no cached state or archive) reads the same from Redis.
    fresh = GameService(RedisEventStore(redis_lib.Redis(connection_pool=r.connection_pool), prefix=store.prefix),
                        admin_token="admin-secret")
    from server.app import create_app
    other = create_app(fresh, RATE_LIMIT=0, SSE_BLOCK_MS=200).test_client()
    assert answers(other, gid, token) == before
    after = b"".join(other.get(f"/v1/games/{gid}/export").response)
    assert after == export and verify(after.decode().splitlines()).ok


def test_a_game_still_playing_is_not_compacted(client, service, store, r):
    created = tiny_game(client, turns=3)
    assert not service.compact(created["id"])
    assert r.exists(store.keys.events(created["id"])) and not r.exists(store.keys.archive(created["id"]))


def test_an_archive_that_does_not_rebuild_its_chain_is_refused(service, client, store, r):
    gid = play_out(client, tiny_game(client, turns=2))
    envs = list(store.read(gid))
    assert [e["hash"] for e in archive.unpack(archive.pack(envs))] == [e["hash"] for e in envs]
    with pytest.raises(BadArchive):
        archive.unpack(archive.pack(envs)[:-4])  # truncated
    assert service.compact(gid)
    envs[2] = {**envs[2], "data": {**envs[2]["data"], "tampered": True}}
    r.set(store.keys.archive(gid), archive.pack(envs))  # consistent in itself, but not the game's chain
    fresh = RedisEventStore(redis_lib.Redis(connection_pool=r.connection_pool), prefix=store.prefix)
    with pytest.raises(BadArchive):
        fresh.read(gid)


@pytest.mark.skipif("saboteur" not in registry.available(), reason="needs Saboteur")
def test_a_real_game_compacts_small_and_exports_byte_identical(service, store):
    from workers import play as matches
    from workers.inprocess import InProcessDriver

    game = registry.get("saboteur")
    with InProcessDriver(service) as driver:
        (gid,) = matches.create_games(service, game, 1, 3, matches.default_bot(game), {})
        driver.run([gid])
    export = "".join(store.export(gid))
    before = sum(store.compaction.footprint(gid).values())
    assert service.compact(gid)
    after = sum(store.compaction.footprint(gid).values())
    assert "".join(store.export(gid)) == export and verify(export.splitlines()).ok
    assert after * 5 < before  # far smaller; the figures themselves are `delve bench`'s
