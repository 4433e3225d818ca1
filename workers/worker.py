"""An rq worker for Delve's jobs, ready before it forks.

The domain packages are imported and the application service is built in
the parent, so each forked work horse starts with every game loaded instead
of paying the imports per job. Payloads use rq's JSON serializer: pickled
payloads would let anyone who can write to the queue run code.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import redis
from rq import SimpleWorker, Worker
from rq.serializers import JSONSerializer

from domain import registry
from workers import jobs
from workers.queue import HEARTBEAT, queue_from_env, queue_name

log = logging.getLogger("delve.worker")


def preload() -> list[str]:
    """Import every installed game and connect the service; returns the game ids."""
    games = registry.available()
    jobs.service()
    return games


class _Stoppable:
    """Remembers that a signal asked the worker to stop: rq's ``work()`` returns alike when it
    quits on an error (a Redis blip), which ``run`` answers by working again."""

    asked_to_stop = False

    def request_stop(self, signum, frame):
        self.asked_to_stop = True
        return super().request_stop(signum, frame)


class DelveWorker(_Stoppable, Worker):
    pass


class DelveSimpleWorker(_Stoppable, SimpleWorker):
    pass


def make_worker(queues: list[str] | None = None, *, simple: bool = False, name: str | None = None) -> Worker:
    """A forking rq Worker (``simple=True``: run jobs in this process, no fork).

    A running job is heartbeaten every HEARTBEAT seconds, so the reactor can
    tell within seconds that its worker died (workers/queue.py).
    """
    qs = [queue_from_env(q) for q in (queues or [queue_name()])]
    cls = DelveSimpleWorker if simple else DelveWorker
    return cls(qs, connection=qs[0].connection, serializer=JSONSerializer, name=name,
               job_monitoring_interval=HEARTBEAT)


def work_through_outages(make, *, burst: bool, logging_level: str, max_backoff: float = 10.0) -> bool:
    """Run rq workers until a signal stops one (or the queues are empty, with ``burst``).

    rq's worker quits on any Redis error ("unhandled exception, quitting");
    then a new worker starts once Redis answers again, with a growing pause.
    """
    backoff, worker = 0.5, None
    while True:
        try:
            worker = make()
            # with_scheduler: moves jobs enqueued for later (clock deadlines) onto the queue when due.
            worked = worker.work(burst=burst, logging_level=logging_level, with_scheduler=True)
        except (redis.ConnectionError, redis.TimeoutError) as exc:  # starting or tearing down without Redis
            worked = False
            log.warning("worker lost Redis (%s)", exc)
        if burst or (worker is not None and worker.asked_to_stop):
            return worked
        log.warning("worker quit on an error; a new worker starts in %.1fs", backoff)
        time.sleep(backoff)
        backoff = min(backoff * 2, max_backoff)


def run(queues: list[str] | None = None, *, burst: bool = False, simple: bool = False,
        with_reactor: bool = False, logging_level: str = "INFO") -> bool:
    """Work until SIGTERM/SIGINT (rq's warm shutdown), or until the queues are empty with ``burst``."""
    games = preload()
    log.info("worker on %s, games preloaded: %s", queues or [queue_name()], games)
    reactor = None
    if with_reactor:
        # A process of its own: forking work horses out of a process that runs
        # a reactor thread could copy a lock that thread holds.
        reactor = subprocess.Popen([sys.executable, "-m", "workers.process"],
                                   env={**os.environ, "DELVE_LOG_LEVEL": logging_level})
    try:
        return work_through_outages(lambda: make_worker(queues, simple=simple), burst=burst,
                                    logging_level=logging_level)
    finally:
        if reactor is not None:
            reactor.terminate()
            reactor.wait(timeout=15)
