"""Kill -9 a real rq worker and a real reactor mid-game: after a restart every
bot game still finishes, with no event written twice."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from events.replay import verify

ROOT = Path(__file__).resolve().parents[2]
BOTS = [{"name": n, "bot": "random"} for n in ("ann", "bob", "cy")]


def start(role: str, env: dict, log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "tests.workers.procs", role], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def stop(procs) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@pytest.mark.slow
def test_kill_9_worker_and_reactor_mid_game_then_restart(service, queue, redis_url, prefix, tmp_path):
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_SNAPSHOT_EVERY": "5", "DELVE_REACTOR_GROUP": f"g-{queue.name}",
           "DELVE_REACTOR_MIN_IDLE_MS": "500", "DELVE_REACTOR_SWEEP_SECONDS": "1",
           "DELVE_JOB_STALE_SECONDS": "2", "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    log = tmp_path / "procs.log"
    ids = [service.create("tiny", BOTS, {"turns": 30})["id"] for _ in range(3)]
    store = service.store
    procs = [start("worker", env, log), start("reactor", env, log)]
    try:
        wait_for(lambda: any(store.version(g) >= 15 for g in ids), 30, "the games to get going")
        for p in procs:
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
        mid = [store.version(g) for g in ids]
        assert any(store.meta(g)["status"] == "active" for g in ids), "the crash came too late to test anything"

        procs = [start("worker", env, log), start("reactor", env, log)]
        wait_for(lambda: all(store.meta(g)["status"] == "finished" for g in ids), 60,
                 f"the games to finish after the restart (versions at the crash: {mid}); see {log}")
    finally:
        stop(procs)

    for gid in ids:
        envs = list(store.iter_all(gid))
        assert [e["seq"] for e in envs] == list(range(1, len(envs) + 1))
        batches = [e["command_id"] for i, e in enumerate(envs) if i == 0 or envs[i - 1]["command_id"] != e["command_id"]]
        assert len(batches) == len(set(batches)), "a command was appended twice"
        assert [e["type"] for e in envs].count("GameFinished") == 1
        verdict = verify(store.export(gid))
        assert verdict.ok, verdict.problems
