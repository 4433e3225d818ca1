"""A shard left without a replica under ``DELVE_WAIT_REPLICAS=1`` (the default policy: refuse, no
DELVE_WAIT_REPLICAS_MIN). Before, workers waited a second and raised on every bot move and moves
were stored but never acknowledged. Now: bot games go on at full speed (workers do not wait for
replicas), a player's move is stored and answered 503, the same request retried with its
Idempotency-Key gets its 201 once a replica holds the move, and every stored move is acknowledged.
"""
from __future__ import annotations

import os
import time

import pytest
import redis as redis_lib

from application.service import GameService
from events.store import RedisEventStore
from localredis.server import EmbeddedRedis
from tests.faults import tally
from tests.faults.support import ROOT, Redis, api
from tests.workers.test_worker_crash import start, stop, wait_for

pytestmark = pytest.mark.slow

BOTS = [{"name": "cy", "bot": "random"}, {"name": "dee", "bot": "random"}]
WAIT = {"DELVE_WAIT_REPLICAS": "1", "DELVE_WAIT_TIMEOUT_MS": "300"}


def linked(master: Redis) -> bool:
    r = redis_lib.Redis.from_url(master.url)
    return r.info("replication").get("connected_slaves", 0) >= 1 and r.wait(0, 0) >= 1


def test_a_shard_without_its_replica_holds_no_bot_turn_and_every_stored_move_is_acknowledged(tmp_path):
    master = Redis(tmp_path / "redis")
    replica = EmbeddedRedis(tmp_path / "replica", args=["--replicaof", "127.0.0.1", str(master.port)])
    replica.start()
    log = tmp_path / "procs.log"
    env = {**os.environ, "REDIS_URL": master.url, "DELVE_QUEUE": "faults", "DELVE_PREFIX": "delve",
           "PYTHONPATH": str(ROOT), **WAIT}
    env.pop("RQ_REDIS_URL", None)
    env.pop("DELVE_WAIT_REPLICAS_MIN", None)
    svc = GameService(RedisEventStore(redis_lib.Redis.from_url(master.url)))
    procs = [start("worker", env, log), start("reactor", env, log)]
    try:
        wait_for(lambda: linked(master), 30, "the replica to follow its master")
        with api(master.url, env=WAIT) as client:
            gid, tokens = client.create_tiny(turns=40)
            keys: list[str] = []

            sent: dict[str, tuple[dict, str]] = {}

            def send(key: str) -> tuple[int, dict, dict]:
                body, token = sent[key]
                return client.call("POST", f"/v1/games/{gid}/actions", body, token=token,
                                   headers={"Idempotency-Key": key})

            def play(key: str) -> int:
                """The seat to act plays; the request is kept, to be sent again as it was."""
                seat = client.call("GET", f"/v1/games/{gid}")[1]["active_seats"][0]
                legal = client.call("GET", f"/v1/games/{gid}/legal-actions", token=tokens[seat])[1]
                sent[key] = ({"expected_version": legal["version"], "command": legal["commands"][-1]}, tokens[seat])
                return send(key)[0]

            assert play("k0") == 201
            keys.append("k0")
            bots = [svc.create("tiny", BOTS, {"turns": 50})["id"] for _ in range(3)]
            wait_for(lambda: all(svc.store.version(g) >= 5 for g in bots), 30, f"the bot games to start; see {log}")
            replica.proc.kill()
            replica.proc.wait()
            lost_at = {g: svc.store.version(g) for g in bots}
            began = time.monotonic()
            assert play("k1") == 503  # stored, not confirmed
            keys.append("k1")
            retried = send("k1")
            assert retried[0] == 503 and retried[1]["code"] == "replication_unconfirmed"  # its answer, not a 409
            # Bot turns do not wait for the missing replica: every bot game moves on meanwhile.
            wait_for(lambda: all(svc.store.version(g) >= lost_at[g] + 10 or svc.store.meta(g)["status"] == "finished"
                                 for g in bots), 20, f"the bot games to go on without the replica; see {log}")
            tally.cost("a shard's only replica killed (DELVE_WAIT_REPLICAS=1, refuse)",
                       bot_moves_while_replica_down=sum(svc.store.version(g) - lost_at[g] for g in bots),
                       seconds_measured=time.monotonic() - began)
            replica = EmbeddedRedis(tmp_path / "replica", args=["--replicaof", "127.0.0.1", str(master.port)])
            replica.start()
            back = time.monotonic()
            wait_for(lambda: linked(master), 30, "the replica to follow its master again")
            confirmed = send("k1")
            assert confirmed[0] == 201 and confirmed[2].get("Idempotent-Replayed") == "true", confirmed
            tally.cost("a shard's only replica killed (DELVE_WAIT_REPLICAS=1, refuse)",
                       stored_move_acknowledged_after_replica_back_s=time.monotonic() - back)
            assert play("k2") == 201
            keys.append("k2")
            wait_for(lambda: all(svc.store.meta(g)["status"] == "finished" for g in bots), 60,
                     f"the bot games to finish; see {log}")
            envs = list(svc.store.reads.iter_all(gid))
            stored = [e["command_id"] for e in envs if e["seat"] is not None and e["command"]]
            seen = tally.check_export(client.export(gid), stored, seed=None if envs[-1]["type"] == "GameFinished"
                                      else svc.store.meta(gid)["seed"])
            assert seen["verdict"]["ok"] and not seen["lost"] and not seen["duplicates"]
            assert len(stored) == len(keys), "a retry played its move twice"
            for g in bots:
                assert tally.check_export(list(svc.store.export(g)), [])["verdict"]["ok"]
            tally.count(games_finished=len(bots))
    finally:
        stop(procs)
        replica.stop()
        master.stop()
