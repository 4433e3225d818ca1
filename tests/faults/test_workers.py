"""Issue 7, items 2 and 3: workers and the reactor under Redis restarts and worker deaths.

Before, rq workers quit on any Redis blip while busy ("unhandled exception,
quitting"), and a job held by a worker that died stalled its game for 66-159 s
(the stale timer plus the sweep).
"""
from __future__ import annotations

import os
import signal
import time

import pytest
import redis as redis_lib
from rq.job import Job
from rq.serializers import JSONSerializer

from application.service import GameService
from events.store import RedisEventStore
from tests.faults import tally
from tests.faults.support import ROOT, Redis
from tests.workers.test_worker_crash import BOTS, children, signal_all, start, stop, wait_for
from workers.queue import queue_from_env

pytestmark = pytest.mark.slow


def env_for(redis: Redis, **extra: str) -> dict[str, str]:
    env = {**os.environ, "REDIS_URL": redis.url, "DELVE_QUEUE": "faults", "DELVE_PREFIX": "delve",
           "DELVE_REACTOR_MIN_IDLE_MS": "1000", "DELVE_REACTOR_SWEEP_SECONDS": "30", "PYTHONPATH": str(ROOT),
           **extra}
    env.pop("RQ_REDIS_URL", None)
    env.pop("DELVE_JOB_STALE_SECONDS", None)  # the defaults are what is tested
    return env


def finish_and_verify(svc: GameService, ids: list[str], timeout: float, log) -> None:
    wait_for(lambda: all(svc.store.meta(g)["status"] == "finished" for g in ids), timeout,
             f"every game to finish; see {log}")
    for gid in ids:
        envs = list(svc.store.reads.iter_all(gid))
        batches = [e["command_id"] for i, e in enumerate(envs) if i == 0 or envs[i - 1]["command_id"] != e["command_id"]]
        seen = tally.check_export(list(svc.store.export(gid)), [])
        tally.count(games_finished=1, duplicates=len(batches) - len(set(batches)))
        assert seen["verdict"]["ok"], seen["verdict"]["problems"]
        assert len(batches) == len(set(batches)), "a command was appended twice"


def test_workers_and_the_reactor_ride_out_a_redis_restart(tmp_path):
    redis = Redis(tmp_path / "redis")
    log = tmp_path / "procs.log"
    env = env_for(redis, DELVE_TEST_SLOW="0.05")
    svc = GameService(RedisEventStore(redis_lib.Redis.from_url(redis.url)))
    procs = []
    try:
        ids = [svc.create("tiny", BOTS, {"turns": 30})["id"] for _ in range(3)]
        procs = [start("worker", env, log), start("reactor", env, log)]
        wait_for(lambda: all(svc.store.version(g) >= 8 for g in ids), 60, "the games to get going")
        redis.kill()
        time.sleep(3)  # the blip: every process's next Redis call fails for 3 s
        redis.start()
        finish_and_verify(svc, ids, 90, log)
        assert [p.poll() for p in procs] == [None, None], f"a process quit on the Redis restart; see {log}"
    finally:
        stop(procs)
        redis.stop()


def test_a_dead_workers_job_runs_again_within_seconds(tmp_path):
    redis = Redis(tmp_path / "redis")
    log = tmp_path / "procs.log"
    env = env_for(redis, DELVE_TEST_SLOW="0.3")
    svc = GameService(RedisEventStore(redis_lib.Redis.from_url(redis.url)))
    queue = queue_from_env("faults", connection=redis_lib.Redis.from_url(redis.url))
    procs = []
    try:
        ids = [svc.create("tiny", BOTS, {"turns": 30})["id"] for _ in range(2)]
        workers = [start("worker", env, log), start("worker", env, log)]
        procs = [*workers, start("reactor", env, log)]
        wait_for(lambda: all(svc.store.version(g) >= 6 for g in ids), 60, "the games to get going")
        victim: dict = {}

        def holding_a_job() -> bool:
            """Freeze the workers at a moment one of them runs a bot job that has not appended yet."""
            pids = [pid for p in workers for pid in [p.pid, *children(p.pid)]]
            signal_all(pids, signal.SIGSTOP)
            for jid in queue.started_job_registry.get_job_ids(cleanup=False):
                job = Job.fetch(jid, connection=queue.connection, serializer=JSONSerializer)
                kind, gid, version = job.args
                owner = next((p for p in workers if job.worker_name and str(p.pid) == pid_of(queue, job)), None)
                if kind == "bot" and owner is not None and svc.store.version(gid) == version:
                    victim.update(proc=owner, gid=gid, version=version)
                    return True
            signal_all(pids, signal.SIGCONT)
            return False

        wait_for(holding_a_job, 30, "a worker running a bot job")
        signal_all([victim["proc"].pid, *children(victim["proc"].pid)], signal.SIGKILL)
        killed = time.monotonic()
        for p in workers:
            if p is not victim["proc"]:
                signal_all([p.pid, *children(p.pid)], signal.SIGCONT)
        wait_for(lambda: svc.store.version(victim["gid"]) > victim["version"], 30, "the dead worker's job to run again")
        stalled = time.monotonic() - killed
        tally.stall(stalled)
        assert stalled <= 10, f"the game stalled {stalled:.1f} s after its worker died"
        finish_and_verify(svc, ids, 120, log)
    finally:
        stop(procs)
        redis.stop()


def pid_of(queue, job) -> str:
    """The pid of the worker that holds ``job`` (rq keeps it in the worker's hash)."""
    raw = queue.connection.hget(f"rq:worker:{job.worker_name}", "pid")
    return raw.decode() if raw else ""
