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

from application.replay import verify

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


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def signal_all(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:  # a work horse that just finished its job
            pass


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
           "DELVE_JOB_STALE_SECONDS": "2", "DELVE_TEST_SLOW": "0.05", "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    log = tmp_path / "procs.log"
    ids = [service.create("tiny", BOTS, {"turns": 30})["id"] for _ in range(3)]
    store = service.store
    procs = [start("worker", env, log), start("reactor", env, log)]
    try:
        wait_for(lambda: any(store.version(g) >= 12 for g in ids), 30, "the games to get going")
        # Freeze everything at a moment a job runs and the reactor holds an
        # unacknowledged feed entry, then kill -9 it all: the worst time to crash.
        group = env["DELVE_REACTOR_GROUP"]

        def frozen_in_flight() -> bool:
            pids = [pid for p in reversed(procs) for pid in [p.pid, *children(p.pid)]]
            signal_all(pids, signal.SIGSTOP)
            pending = sum(store.r.xpending(f, group)["pending"] for f in store.keys.all_feeds())
            running = [j for j in queue.started_job_registry.get_job_ids(cleanup=False)
                       if j.startswith("bot-") and store.version(j.split("-")[1]) == int(j.split("-")[2])]
            if pending and running:  # a job that has not appended yet, and cannot any more
                return True
            signal_all(pids, signal.SIGCONT)
            return False

        wait_for(frozen_in_flight, 20, "a running job and an unacknowledged feed entry at once")
        for p in procs:  # the work horse too: a crashed machine takes every process with it
            signal_all([*children(p.pid), p.pid], signal.SIGKILL)
            p.wait()
        mid = [store.version(g) for g in ids]
        assert any(store.meta(g)["status"] == "active" for g in ids), "the crash came too late to test anything"

        procs = [start("worker", env, log), start("reactor", env, log)]
        wait_for(lambda: all(store.meta(g)["status"] == "finished" for g in ids), 45,
                 f"the games to finish after the restart (versions at the crash: {mid}); see {log}")
    finally:
        stop(procs)

    text = log.read_text()
    assert "reclaimed" in text, "the dead reactor's pending entry was not taken over"
    assert "replaced" in text, "the job the dead worker was running was not replaced"
    for gid in ids:
        envs = list(store.reads.iter_all(gid))
        assert [e["seq"] for e in envs] == list(range(1, len(envs) + 1))
        batches = [e["command_id"] for i, e in enumerate(envs) if i == 0 or envs[i - 1]["command_id"] != e["command_id"]]
        assert len(batches) == len(set(batches)), "a command was appended twice"
        assert [e["type"] for e in envs].count("GameFinished") == 1
        verdict = verify(store.export(gid))
        assert verdict.ok, verdict.problems
