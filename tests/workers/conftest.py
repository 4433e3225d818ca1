"""Fixtures for the worker tests: a per-test rq queue next to the per-test key prefix."""
from __future__ import annotations

import pytest
from rq import Queue
from rq.serializers import JSONSerializer

from events.liveness import alive_key, timers_key


@pytest.fixture
def queue(r, prefix):
    q = Queue(f"q-{prefix}", connection=r, serializer=JSONSerializer)
    yield q
    ids = set(q.job_ids)
    for reg in (q.started_job_registry, q.finished_job_registry, q.failed_job_registry,
                q.deferred_job_registry, q.scheduled_job_registry, q.canceled_job_registry):
        ids.update(reg.get_job_ids())
    for key in r.scan_iter("rq:*", count=1000):
        name = key.decode()
        if q.name in name or any(i in name for i in ids):
            r.delete(key)
    r.srem("rq:queues", q.key)
    r.delete(timers_key(q.name), alive_key(q.name))
    for worker_key in r.smembers("rq:workers"):  # workers killed by a test never deregister
        if q.name in (r.hget(worker_key, "queues") or b"").decode():
            r.delete(worker_key)
            r.srem("rq:workers", worker_key)
