"""Issue 7, item 1: Redis restarts from an older AOF under a running API.

The API process has cached states newer than what Redis now holds; another
process then plays on from the older version along another branch. Before
the fix the API kept serving its cache: stuck games (409 for every version),
then moves decided on a lost state, and exports whose replay fails.
"""
from __future__ import annotations

import re
import shutil
import time

import pytest
import redis as redis_lib

from application.service import GameService
from events.store import RedisEventStore
from tests.faults import tally
from tests.faults.support import Redis, api

pytestmark = pytest.mark.slow
BEFORE, LOST, AFTER = 4, 3, 12


def test_a_rollback_under_a_running_api_leaves_no_game_stuck_or_poisoned(tmp_path):
    redis = Redis(tmp_path / "redis")
    try:
        with api(redis.url) as a:
            # Saboteur: a state from a lost branch holds other cards, so deciding on it poisons the log.
            games = [a.create("saboteur", 3) for _ in range(2)]
            acked = {gid: [] for gid, _ in games}
            for gid, tokens in games:
                for _ in range(BEFORE):
                    status, body = a.move(gid, tokens)
                    assert status == 201, body
                    acked[gid].append(body["events"][0]["command_id"])
            older = tmp_path / "older.aof"
            shutil.copy(redis.aof, older)  # fsync always: this copy holds every move so far
            for gid, tokens in games:
                for _ in range(LOST):  # acknowledged, then lost with the rollback (what `everysec` allows)
                    assert a.move(gid, tokens)[0] == 201
            redis.restore(older)
            wait_ready(a)

            # Another process plays on from what Redis holds, along another branch: as many moves as
            # were lost in the first game (same version, other head), one fewer in the second.
            other = GameService(RedisEventStore(redis_lib.Redis.from_url(redis.url)))
            for (gid, _), moves in zip(games, (LOST, LOST - 1)):
                for i in range(moves):
                    g = other.load(gid)
                    seat = min(g.game.active_seats(g.state))
                    result = other.submit(gid, seat, g.version, g.game.legal_commands(g.state, seat)[0],
                                          f"other-{i}")
                    acked[gid].append(result["events"][0]["command_id"])

            for gid, tokens in games:
                started = time.monotonic()
                summary = a.call("GET", f"/v1/games/{gid}")[1]
                assert summary["version"] == other.load(gid).version, "the API serves a state Redis lost"
                for _ in range(AFTER):
                    status, body = a.move(gid, tokens)
                    if status != 201:
                        tally.count(stuck_games=1)
                    assert status == 201, f"game {gid} is stuck: {body}"
                    acked[gid].append(body["events"][0]["command_id"])
                tally.stall(time.monotonic() - started)
                seen = tally.check_export(a.export(gid), acked[gid], seed=other.store.meta(gid)["seed"])
                assert seen["verdict"]["ok"], seen["verdict"]["problems"]
                assert not seen["lost"] and not seen["duplicates"]
            metrics = a.call("GET", "/metrics")[1]["raw"]
            assert int(float(re.search(r"^delve_store_rollbacks_total (\S+)$", metrics, re.M)[1])) >= len(games)
    finally:
        redis.stop()


def wait_ready(client, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while client.call("GET", "/readyz")[0] != 200:
        assert time.monotonic() < deadline, "the API did not reach the restarted Redis"
        time.sleep(0.1)
