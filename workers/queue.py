"""rq plumbing: the queue from the environment, and an enqueue under the job
table's deterministic ids that a redelivered feed entry can repeat without
duplicating work.

RQ_REDIS_URL and DELVE_QUEUE name the queue's Redis and the queue (``settings``); with
DELVE_SHARDS above 1, each shard has a queue of its own (application/shards.py).
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import Callable

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from application.runtime import queue_name, rq_redis_url
from application.service import GameService
from application.shards import Shards
from workers import table
from workers.timers import Timers
import settings

JOB_FUNCTION = "workers.jobs.run"  # every kind goes through it: the table says what it does
# Nobody reads a finished job's result, so rq keeps none (issue 13: a finished game's ~570 bot-turn
# records held ~750 KB). A redelivered feed entry may then enqueue a job again: harmless, since every
# job re-checks the game's version and the append is conditional on it. Failed jobs keep theirs.
RESULT_TTL = 0
FAILURE_TTL = 7 * 24 * 3600
RETRIES = Retry(max=2)  # a transient Redis error; a bot that raises fails again and stays failed
GONE = {JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}
# A running job is heartbeaten every HEARTBEAT seconds (the worker's job monitoring interval); one
# without a heartbeat for DELVE_JOB_STALE_SECONDS (default 2) belongs to a dead worker and is run again, so a worker's
# death stalls its game for seconds, not minutes (docs/reliability.md).
HEARTBEAT = 1
log = logging.getLogger("delve.queue")


def queue_from_env(name: str | None = None, connection: redis.Redis | None = None) -> Queue:
    return Queue(name or queue_name(), connection=connection or redis.Redis.from_url(rq_redis_url()),
                 serializer=JSONSerializer)


class RqScheduler:
    """Enqueue jobs under deterministic ids, at most one live job per id.

    An id that already names a queued, running or finished job is left
    alone, so enqueueing twice is harmless. A job whose worker died is
    replaced once ``stale_after`` seconds passed: *started* with no heartbeat
    since, or *queued* that long ago yet no longer in the queue (a worker
    popped it and died before starting it). rq recovers those itself, but
    only after minutes. A failed or stopped job (rq already retried it) is
    tried again ``stale_after`` seconds after it ended, so a bot that keeps
    raising costs one attempt per interval, not a busy loop. Running a job
    twice by mistake is harmless: it re-checks the game version and the
    append is conditional on it.
    """

    def __init__(self, queue: Queue, stale_after: float | None = None):
        self.queue = queue
        self.timers = Timers(queue.connection, queue.name)
        self.stale_after = stale_after or settings.get("DELVE_JOB_STALE_SECONDS")

    def schedule(self, kind: str, game_id: str, version: int, at: datetime | None = None) -> str:
        """Returns "enqueued", "exists" or "replaced". A job with ``at`` is a timer (workers/timers.py):
        whichever worker or reactor polls first runs it then, so no process's death loses a deadline."""
        if at is not None:
            return self.timers.add(kind, game_id, version if table.kind(kind).per_version else 0, at)
        jid = table.job_id(kind, game_id, version)
        if self._enqueue(kind, game_id, version, jid):
            return "enqueued"
        try:
            job = Job.fetch(jid, connection=self.queue.connection, serializer=JSONSerializer)
            status = job.get_status(refresh=False)
        except NoSuchJobError:  # expired between the two calls
            return "enqueued" if self._enqueue(kind, game_id, version, jid) else "exists"
        if self._lost(job, status):
            try:
                job.delete()
            except ValueError:
                # rq 3: "Execution ... not found" when the dead worker's execution record expired
                # first; the job's own keys must still go, or the id stays taken until a sweep.
                self.queue.connection.delete(job.key, job.dependents_key, job.dependencies_key)
            self.queue.intermediate_queue.remove(jid)
            return "replaced" if self._enqueue(kind, game_id, version, jid) else "exists"
        return "exists"

    def recover(self) -> int:
        """Run again the started jobs whose worker died (no heartbeat for ``stale_after``); returns how many.

        Cheap (it looks only at running jobs), so the reactor process calls it
        every second or two instead of waiting for its sweep over every game.
        """
        replaced = 0
        started = self.queue.started_job_registry.get_job_ids(cleanup=False)
        for jid in {*started, *self.queue.intermediate_queue.get_job_ids()}:
            try:
                job = Job.fetch(jid, connection=self.queue.connection, serializer=JSONSerializer)
            except NoSuchJobError:
                continue
            if job.func_name == JOB_FUNCTION and self._lost(job, job.get_status(refresh=False)):
                kind, game_id, version = job.args
                if self.schedule(kind, game_id, version) == "replaced":
                    log.warning("job %s of a dead worker replaced", jid)
                    replaced += 1
        return replaced

    def _enqueue(self, kind: str, game_id: str, version: int, jid: str) -> bool:
        try:
            self.queue.enqueue_call(JOB_FUNCTION, args=[kind, game_id, version], job_id=jid, unique=True,
                                    retry=RETRIES, result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL,
                                    description=f"{kind} {game_id} v{version}")
        except DuplicateJobError:
            return False
        return True

    def _lost(self, job: Job, status: JobStatus) -> bool:
        if status in GONE:
            return self._older(job.ended_at or job.enqueued_at)
        if status == JobStatus.STARTED:
            return self._older(job.last_heartbeat or job.started_at)
        if status == JobStatus.QUEUED:
            return self._older(job.enqueued_at) and self.queue.get_job_position(job.id) is None
        return False

    def _older(self, seen: datetime | None) -> bool:
        if seen is None:
            return False
        if seen.tzinfo is None:
            seen = seen.replace(tzinfo=timezone.utc)
        return (datetime.now(timezone.utc) - seen).total_seconds() > self.stale_after


class ShardScheduler:
    """One :class:`RqScheduler` per shard: each job goes to the queue of its game's (or tournament's)
    shard (application/shards.py), whose workers and timer pollers are the only ones that run it."""

    def __init__(self, shards: Shards, connection: redis.Redis | None = None):
        self.shards = shards
        connection = connection or redis.Redis.from_url(rq_redis_url())
        self.by_shard = {s: RqScheduler(queue_from_env(shards.queue_name(s), connection))
                         for s in range(shards.count)}

    def schedule(self, kind: str, game_id: str, version: int, at: datetime | None = None) -> str:
        return self.by_shard[self.shards.of(game_id)].schedule(kind, game_id, version, at)

    def mine(self) -> list[RqScheduler]:
        """The schedulers of this process's shards (whose lost jobs it recovers, whose timers it polls)."""
        return [self.by_shard[s] for s in self.shards.mine]


def timer_poller(queue: Queue, service: Callable[[], GameService], name: str) -> Timers:
    """The timers of ``queue``, each run as its job-table kind with ``service()`` (workers/timers.py)."""
    return Timers(queue.connection, queue.name, name=name,
                  run=lambda kind, key, version: table.kind(kind).run(service(), key, version))


class LostJobs:
    """A stepper of the reactor's loop: ``scheduler.recover()`` every ``every`` seconds."""

    def __init__(self, scheduler: RqScheduler, every: float = 1.0):
        self.scheduler, self.every = scheduler, every
        self._last = float("-inf")

    def step(self, block_ms: int | None = None) -> int:
        if time.monotonic() - self._last < self.every:
            return 0
        self._last = time.monotonic()
        return self.scheduler.recover()
