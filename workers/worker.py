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

from rq import SimpleWorker, Worker
from rq.serializers import JSONSerializer

from domain import registry
from workers import jobs
from workers.queue import queue_from_env, queue_name

log = logging.getLogger("delve.worker")


def preload() -> list[str]:
    """Import every installed game and connect the service; returns the game ids."""
    games = registry.available()
    jobs.service()
    return games


def make_worker(queues: list[str] | None = None, *, simple: bool = False, name: str | None = None) -> Worker:
    """A forking rq Worker (``simple=True``: run jobs in this process, no fork)."""
    qs = [queue_from_env(q) for q in (queues or [queue_name()])]
    cls = SimpleWorker if simple else Worker
    return cls(qs, connection=qs[0].connection, serializer=JSONSerializer, name=name)


def run(queues: list[str] | None = None, *, burst: bool = False, simple: bool = False,
        with_reactor: bool = False, logging_level: str = "INFO") -> bool:
    """Work until SIGTERM/SIGINT (rq's warm shutdown), or until the queues are empty with ``burst``."""
    games = preload()
    worker = make_worker(queues, simple=simple)
    log.info("worker %s on %s, games preloaded: %s", worker.name, [q.name for q in worker.queues], games)
    reactor = None
    if with_reactor:
        # A process of its own: forking work horses out of a process that runs
        # a reactor thread could copy a lock that thread holds.
        reactor = subprocess.Popen([sys.executable, "-m", "workers.reactor"],
                                   env={**os.environ, "DELVE_LOG_LEVEL": logging_level})
    try:
        # with_scheduler: moves jobs enqueued for later (clock deadlines) onto the queue when due.
        return worker.work(burst=burst, logging_level=logging_level, with_scheduler=True)
    finally:
        if reactor is not None:
            reactor.terminate()
            reactor.wait(timeout=15)
