"""``DELVE_WAIT_REPLICAS``: a 201 only once a replica holds the append (Redis ``WAIT``).

On one master without a replica, every append is stored but unconfirmed: the
API answers 503 ``replication_unconfirmed`` with the version it wrote, and a
retry with the same ``Idempotency-Key`` finds the stored move instead of
playing it twice, and answers its 201 only once a replica holds it.
"""
from __future__ import annotations

import time

import pytest
import redis as redis_lib

from localredis.server import EmbeddedRedis
from application.service import GameService
from events import replication
from events.store import RedisEventStore
from server.app import create_app
from tests.api.helpers import auth

pytestmark = pytest.mark.slow


@pytest.fixture
def master():
    with EmbeddedRedis() as url:
        yield url


def _api(url: str):
    store = RedisEventStore(redis_lib.Redis.from_url(url), prefix="wait", wait_replicas=1, wait_timeout_ms=200)
    app = create_app(GameService(store, admin_token="admin-secret"), RATE_LIMIT=0, VERIFY_PER_MINUTE=0)
    return app.test_client(), store


def _wait_replica_linked(master_url: str, timeout: float = 20) -> None:
    r = redis_lib.Redis.from_url(master_url)
    deadline = time.monotonic() + timeout
    while r.info("replication").get("connected_slaves", 0) < 1 or r.wait(0, 0) < 1:
        assert time.monotonic() < deadline, "the replica did not link to its master"
        time.sleep(0.1)


def test_without_a_replica_an_append_is_stored_but_answered_503_replication_unconfirmed(master):
    client, store = _api(master)
    resp = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}]})
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    assert resp.json["code"] == "replication_unconfirmed" and resp.json["current_version"] >= 1
    assert resp.headers["Retry-After"] == "1"
    assert store.r.keys("wait:*:meta"), "the game was written: only its replication is unconfirmed"
    # A create has no Idempotency-Key: the answer names the game instead of asking for a retry with one.
    [meta] = store.r.keys("wait:*:meta")
    game_id = meta.decode().split(":")[-2]
    assert f"the game {game_id} was created" in resp.json["detail"], resp.json["detail"]
    assert "do not create it again" in resp.json["detail"] and "Idempotency-Key" not in resp.json["detail"]


def test_with_a_replica_appends_answer_201_and_an_unconfirmed_move_retried_by_key_is_played_once(master):
    port = int(master.rsplit(":", 1)[1].split("/")[0])
    client, store = _api(master)
    with EmbeddedRedis(args=["--replicaof", "127.0.0.1", str(port)]) as _replica_url:
        _wait_replica_linked(master)
        created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}]})
        assert created.status_code == 201, created.json
        gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[0])).json
        move = {"expected_version": legal["version"], "command": legal["commands"][-1]}
        first = client.post(f"/v1/games/{gid}/actions", json=move, headers=auth(tokens[0]))
        assert first.status_code == 201, first.json
    # The replica is gone: the next move is stored, but not confirmed.
    seat = client.get(f"/v1/games/{gid}").json["active_seats"][0]
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json
    move = {"expected_version": legal["version"], "command": legal["commands"][-1]}
    key = {"Idempotency-Key": "k-unconfirmed", **auth(tokens[seat])}
    refused = client.post(f"/v1/games/{gid}/actions", json=move, headers=key)
    assert refused.status_code == 503 and refused.json["code"] == "replication_unconfirmed", refused.json
    assert refused.json["current_version"] == legal["version"] + 1 == store.version(gid)
    # A retry finds the stored move; still no replica to confirm it: 503 again, nothing played twice.
    retried = client.post(f"/v1/games/{gid}/actions", json=move, headers=key)
    assert retried.status_code == 503 and retried.json["code"] == "replication_unconfirmed", retried.json
    assert store.version(gid) == legal["version"] + 1, "the retry played the move a second time"
    # A replica follows the master again: the retry's stored answer is confirmed, 201, still played once.
    with EmbeddedRedis(args=["--replicaof", "127.0.0.1", str(port)]):
        _wait_replica_linked(master)
        confirmed = client.post(f"/v1/games/{gid}/actions", json=move, headers=key)
        assert confirmed.status_code == 201 and confirmed.json["version"] == legal["version"] + 1, confirmed.json
        assert confirmed.headers["Idempotent-Replayed"] == "true"
    assert store.version(gid) == legal["version"] + 1


def test_with_a_floor_a_master_without_replicas_acknowledges_with_what_it_has_counted_and_logged(master, caplog):
    """DELVE_WAIT_REPLICAS_MIN=0: the write that finds the master alone is acknowledged anyway, and so
    are the next (this process then asks for no replica there); each is counted; when a replica follows
    the master again, appends wait for it again."""
    store = RedisEventStore(redis_lib.Redis.from_url(master), prefix="floor", wait_replicas=1, wait_timeout_ms=300,
                            wait_floor=0)
    app = create_app(GameService(store, admin_token="admin-secret"), RATE_LIMIT=0, VERIFY_PER_MINUTE=0)
    client = app.test_client()
    before = replication.COUNTS["degraded"]
    with caplog.at_level("WARNING", logger="delve.replication"):
        created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}]})
    assert created.status_code == 201, created.json
    assert "has 0 of the 1 replicas" in caplog.text
    gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    for seat in (0, 1):
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json
        moved = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                            json={"expected_version": legal["version"], "command": legal["commands"][-1]})
        assert moved.status_code == 201, moved.json
    assert replication.COUNTS["degraded"] >= before + 3
    assert "delve_replication_degraded_total" in client.get("/metrics").get_data(as_text=True)
    port = int(master.rsplit(":", 1)[1].split("/")[0])
    with EmbeddedRedis(args=["--replicaof", "127.0.0.1", str(port)]):
        _wait_replica_linked(master)
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[0])).json
        degraded = replication.COUNTS["degraded"]
        with caplog.at_level("WARNING", logger="delve.replication"):
            moved = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[0]),
                                json={"expected_version": legal["version"], "command": legal["commands"][-1]})
        assert moved.status_code == 201 and "has 1 replicas again" in caplog.text
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[1])).json
        moved = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[1]),
                            json={"expected_version": legal["version"], "command": legal["commands"][-1]})
        assert moved.status_code == 201 and replication.COUNTS["degraded"] <= degraded + 1  # a replica confirmed it
