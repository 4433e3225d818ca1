"""Redis round trips of the hot path (issue 13), counted on the wire: a read of a game this
process holds is one round trip, an action two (read meta + tail, then the append script)."""
from __future__ import annotations

import redis as redis_lib

from benchmarks.bench import CountingConnection
from application.service import GameService
from events.store import RedisEventStore
from tests.api.helpers import auth, tiny_game


def test_a_cached_read_is_one_round_trip_and_an_action_two(redis_url, prefix):
    from server.app import create_app

    pool = redis_lib.ConnectionPool.from_url(redis_url, connection_class=CountingConnection)
    store = RedisEventStore(redis_lib.Redis(connection_pool=pool), prefix=prefix, snapshot_every=1000)
    client = create_app(GameService(store), RATE_LIMIT=0).test_client()
    created = tiny_game(client, turns=4)
    gid, token = created["id"], created["seats"][0]["token"]

    def trips(method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        before = CountingConnection.sent
        resp = client.open(path, method=method, json=body, headers=auth(token))
        return CountingConnection.sent - before, resp

    trips("GET", f"/v1/games/{gid}")  # a process's first call of a script loads it (EVALSHA, SCRIPT LOAD, EVALSHA)
    n, summary = trips("GET", f"/v1/games/{gid}")
    assert n == 1 and summary.status_code == 200
    assert trips("GET", f"/v1/games/{gid}/legal-actions")[0] == 1
    n, resp = trips("POST", f"/v1/games/{gid}/actions",
                    {"expected_version": summary.json["version"], "command": {"type": "guess", "target": 1, "digit": 3}})
    assert resp.status_code == 201 and n == 2
    assert trips("GET", f"/v1/games/{gid}")[0] == 1  # the state the action reached is cached too
    first, replay = trips("GET", f"/v1/games/{gid}/states/{summary.json['version']}")
    again, same = trips("GET", f"/v1/games/{gid}/states/{summary.json['version']}")
    assert replay.status_code == 200 and same.get_data() == replay.get_data() and again == 1 < first
    first_visit, inside = trips("GET", f"/v1/games/{gid}/states/{summary.json['version'] - 1}")
    # Meta, then the events since the replay's checkpoints (which answer the batch check); that version is
    # inside the deal's batch, so one more read finds the nearest held versions the 422 names.
    assert first_visit == 3 and inside.json["code"] == "not_a_held_version" and inside.json["nearest_held"]
    store.purge()
