"""An rq worker for Delve's jobs, ready before it forks.

The domain packages are imported and the application service is built in
the parent, so each forked work horse starts with every game loaded instead
of paying the imports per job. Payloads use rq's JSON serializer: pickled
payloads would let anyone who can write to the queue run code.

Between jobs, and every second while it waits for one, the worker polls the
timers (workers/timers.py) in its own loop, so clock deadlines fire while any
worker or reactor is alive; no thread, so forking a work horse copies no lock
a poller holds.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import redis
from rq import SimpleWorker, Worker
from rq.worker import DequeueStrategy
from rq.serializers import JSONSerializer

from domain import registry
from workers import jobs
from application.shards import shards_from_env
from workers.queue import HEARTBEAT, queue_from_env, timer_poller
from workers.timers import Timers

log = logging.getLogger("delve.worker")


def preload() -> list[str]:
    """Import every installed game and connect the service; returns the game ids."""
    games = registry.available()
    jobs.service()
    return games


class _Delve:
    """What Delve adds to rq's workers: a stop by signal is told apart from a quit on an error (rq's
    ``work()`` returns alike on a Redis blip, which ``run`` answers by working again), the timers
    are polled while waiting for a job, and a lost Redis is retried every second, not with rq's
    pause growing to a minute."""

    asked_to_stop = False
    timers: "_EachQueue | None" = None
    exponential_backoff_factor = 1.0
    max_connection_wait_time = 1.0

    def request_stop(self, signum, frame):
        self.asked_to_stop = True
        return super().request_stop(signum, frame)

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """rq's wait for a job, one second at a time, with the due timers fired in between."""
        if self.timers is None or timeout is None or max_idle_time is not None:
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        while True:
            self.timers.step()
            found = super().dequeue_job_and_maintain_ttl(TIMER_POLL, max_idle_time=TIMER_POLL)
            if found is not None:
                return found


class DelveWorker(_Delve, Worker):
    pass


class DelveSimpleWorker(_Delve, SimpleWorker):
    pass


TIMER_POLL = 1  # seconds an idle worker waits for a job before it polls the timers again


class _EachQueue:
    """The timers of each of a worker's queues, polled as one."""

    def __init__(self, pollers: list[Timers]):
        self.pollers = pollers

    def step(self) -> int:
        return sum(p.step() for p in self.pollers)


def shard_queues() -> list[str]:
    """The queues of the shards DELVE_SHARD names (every shard's when unset; application/shards.py)."""
    return shards_from_env().queues()


def make_worker(queues: list[str] | None = None, *, simple: bool = False, name: str | None = None) -> Worker:
    """A forking rq Worker (``simple=True``: run jobs in this process, no fork) on ``queues`` (default:
    its shards' queues) that polls each queue's timers.

    A running job is heartbeaten every HEARTBEAT seconds, so the reactor can
    tell within seconds that its worker died (workers/queue.py).
    """
    qs = [queue_from_env(q) for q in (queues or shard_queues())]
    cls = DelveSimpleWorker if simple else DelveWorker
    worker = cls(qs, connection=qs[0].connection, serializer=JSONSerializer, name=name,
                 job_monitoring_interval=HEARTBEAT)
    worker.timers = _EachQueue([timer_poller(q, jobs.service, f"worker:{worker.name}") for q in qs])
    return worker


def work_through_outages(make, *, burst: bool, logging_level: str, max_backoff: float = 10.0,
                         steady: float = 30.0) -> bool:
    """Run rq workers until a signal stops one (or the queues are empty, with ``burst``).

    rq's worker quits on any Redis error ("unhandled exception, quitting");
    then a new worker starts as soon as Redis answers again (polled every
    quarter second). Only a worker that keeps quitting with Redis up waits a
    growing pause first; one that ran ``steady`` seconds starts the count over.
    """
    backoff, worker = 0.0, None
    while True:
        began = time.monotonic()
        try:
            worker = make()
            # Round robin: a worker of several shards serves each in turn, not the first one first.
            worked = worker.work(burst=burst, logging_level=logging_level, dequeue_strategy=DequeueStrategy.ROUND_ROBIN)
        except (redis.ConnectionError, redis.TimeoutError) as exc:  # starting or tearing down without Redis
            worked = False
            log.warning("worker lost Redis (%s)", exc)
        if burst or (worker is not None and worker.asked_to_stop):
            return worked
        backoff = 0.0 if time.monotonic() - began >= steady else min(max(backoff * 2, 0.5), max_backoff)
        waited = wait_for_redis(queue_from_env().connection)
        pause = max(0.0, backoff - waited)
        log.warning("worker quit on an error; Redis answers again after %.1fs; a new worker starts in %.1fs",
                    waited, pause)
        time.sleep(pause)


def wait_for_redis(connection: redis.Redis, every: float = 0.25) -> float:
    """Block until the queue Redis answers a PING; returns the seconds waited."""
    began = time.monotonic()
    while True:
        try:
            connection.ping()
            return time.monotonic() - began
        except (redis.ConnectionError, redis.TimeoutError):
            time.sleep(every)


def run(queues: list[str] | None = None, *, burst: bool = False, simple: bool = False,
        with_reactor: bool = False, logging_level: str = "INFO") -> bool:
    """Work until SIGTERM/SIGINT (rq's warm shutdown), or until the queues are empty with ``burst``."""
    games = preload()
    log.info("worker on %s, games preloaded: %s", queues or shard_queues(), games)
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
