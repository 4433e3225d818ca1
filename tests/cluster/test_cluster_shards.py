"""Shards and keyed creates on a real Redis Cluster: a reactor of one shard reads only its
partitions' feeds (each in its own slot) and schedules only its games; a create under an
Idempotency-Key keeps its record in the game's slot, so the append that creates the game
stores it (one script, one slot) and a retry gets the same game."""
from __future__ import annotations

from datetime import datetime

import pytest

from application.runtime import redis_client
from application.service import GameService
from application.shards import Shards
from events.store import RedisEventStore
from workers.reactor import Reactor

pytestmark = pytest.mark.slow
BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]


class Scheduled:
    """A scheduler that keeps what it was asked to schedule (the queue is not under test here)."""

    def __init__(self):
        self.asked: list[tuple[str, str]] = []

    def schedule(self, kind: str, game_id: str, version: int, at: datetime | None = None) -> str:
        self.asked.append((kind, game_id))
        return "enqueued"


@pytest.fixture
def service(cluster):
    client = redis_client(cluster.url)
    yield GameService(RedisEventStore(client, prefix="shards"), admin_token="admin-secret")
    client.close()


def test_a_shards_reactor_reads_its_feeds_and_schedules_its_games_only(service, cluster):
    shards = [Shards(service.store.keys.partitions, 2, (s,), "q") for s in (0, 1)]
    ids = [service.create("tiny", BOTS, {"turns": 4})["id"] for _ in range(12)]
    assert {shards[0].of(g) for g in ids} == {0, 1}
    for mine in shards:
        scheduler = Scheduled()
        reactor = Reactor(service, scheduler, group=f"shard{mine.mine[0]}", shards=mine, sweep_every=0)
        assert len({cluster.master_of(f) for f in reactor.feeds}) > 1  # a shard's feeds span the masters
        for _ in range(5):  # bounded: a few steps read every feed
            reactor.step()
        bots = {gid for kind, gid in scheduler.asked if kind == "bot"}
        assert bots == {g for g in ids if mine.owns(g)}


def test_a_keyed_create_on_the_cluster_is_made_once(service):
    from server.app import create_app

    client = create_app(service, RATE_LIMIT=0, GAMES_PER_HOUR=0).test_client()
    body = {"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}], "options": {"turns": 4}}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "cluster-1"})
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": "cluster-1"})
    assert first.status_code == again.status_code == 201 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    other = client.post("/v1/games", json={**body, "options": {"turns": 5}}, headers={"Idempotency-Key": "cluster-1"})
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"
