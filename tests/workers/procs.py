"""Entry point of the worker and reactor subprocesses the process tests start
(`running` starts both): the real ones, with the tests' tiny game registered first.

DELVE_TEST_SLOW=<seconds> slows the tiny bot down and makes the reactor
pause three times as long before each enqueue (long enough for the worker
to fork the next job meanwhile), so a kill -9 is likely to land while a job
is running and while the reactor holds unacknowledged feed entries.

DELVE_TEST_RAN=<key> makes a worker push every job it ran onto that Redis list
(kind, game, version, whether it moved the game, and the worker's DELVE_SHARD),
so a test sees which worker handled which turn, and how often.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from domain import registry
from domain.kit import random_bot
from tests.support.tinygame import GAME

SLOW = float(os.environ.get("DELVE_TEST_SLOW", "0"))
RAN = os.environ.get("DELVE_TEST_RAN")


def record_jobs(key: str) -> None:
    """Wrap the job function (rq imports it by path in each work horse) to record each run on ``key``."""
    from workers import jobs

    run_job, shard = jobs.run, os.environ.get("DELVE_SHARD", "")

    def recorded(kind: str, game_id: str, version: int):
        result = run_job(kind, game_id, version)
        jobs.service().store.r.rpush(key, json.dumps({"kind": kind, "game": game_id, "version": version,
                                                      "moved": bool(result), "shard": shard}))
        return result

    jobs.run = recorded


@contextlib.contextmanager
def running(env: dict, log_path: Path, cwd: Path):
    """A real worker and reactor for the ``with`` block, their output in ``log_path``."""
    with log_path.open("wb") as log:
        procs = [subprocess.Popen([sys.executable, "-m", "tests.workers.procs", role], cwd=cwd, env=env,
                                  stdout=log, stderr=subprocess.STDOUT) for role in ("worker", "reactor")]
        try:
            yield procs
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)


def slow_bot(game, state, seat, rng):
    time.sleep(SLOW)
    return random_bot(game, state, seat, rng)


if __name__ == "__main__":
    if SLOW:
        GAME.bots = {"random": slow_bot}
    registry.register(GAME)
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {sys.argv[1]} %(levelname)s %(message)s")
    if sys.argv[1] == "worker":
        from workers.worker import run
        if RAN:
            record_jobs(RAN)
        run()
    else:
        from workers import queue
        from workers.process import run_from_env

        if SLOW:
            schedule = queue.RqScheduler.schedule

            def slow_schedule(self, *args, **kwargs):
                time.sleep(3 * SLOW)
                return schedule(self, *args, **kwargs)

            queue.RqScheduler.schedule = slow_schedule
        run_from_env()
