"""The one rq job function: ``run(kind, game_id, version)`` runs a kind of the
job table (workers/table.py). Plain, importable by path, JSON arguments only.

Every kind is idempotent: a bot turn re-checks the version it was scheduled
for, and finalisation does nothing to a game that is not over or already
finished. The service is built once per worker process (a forked work horse
inherits it; redis-py reopens its connections after a fork) and rebuilt if
the environment names another store, which is how the tests point one
process at per-test prefixes.
"""
from __future__ import annotations

import logging
import time
from typing import Any

import redis

from application.runtime import service_from_env
from application.service import GameService
from workers import table
import settings

_ENV = ("REDIS_URL", "DELVE_PREFIX", "DELVE_PARTITIONS", "DELVE_SNAPSHOT_EVERY", "DELVE_STATE_CACHE", "DELVE_ADMIN_TOKEN")
_cache: dict[tuple, GameService] = {}
REDIS_PATIENCE = 20.0  # seconds a job waits out a Redis outage before it fails (and is tried again later)
log = logging.getLogger("delve.jobs")


def service() -> GameService:
    key = tuple(settings.raw(name) for name in _ENV)
    if key not in _cache:
        _cache.clear()
        _cache[key] = service_from_env(acknowledged=False)  # no bot turn waits for replicas
    return _cache[key]


def run(kind: str, game_id: str, version: int) -> Any:
    """Run job ``kind`` of the table for ``game_id`` as scheduled at ``version``.

    A Redis error is waited out with a growing pause: every kind is
    idempotent and its append conditional, so trying again never plays a
    turn twice.
    """
    deadline, pause = time.monotonic() + REDIS_PATIENCE, 0.25
    while True:
        try:
            return table.kind(kind).run(service(), game_id, version)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            if time.monotonic() + pause > deadline:
                raise
            log.warning("%s job for %s v%d: Redis unreachable (%s); retrying in %.2fs", kind, game_id, version,
                        exc, pause)
            time.sleep(pause)
            pause = min(pause * 2, 1.0)  # Redis back: the job goes on within a second
