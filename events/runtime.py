"""Build the store and service from the environment, the same way in the API,
the workers, the reactor and the CLI.

REDIS_URL            event-store Redis (required here; `delve serve` sets it)
RQ_REDIS_URL         queue Redis (default: REDIS_URL; rq cannot use a Cluster)
DELVE_PARTITIONS     feed partitions P (default 16; fixed per deployment)
DELVE_SNAPSHOT_EVERY snapshot interval in events (default 50)
DELVE_ADMIN_TOKEN    bearer token that may read every view and export
DELVE_PREFIX         key prefix (default "delve"; tests use their own)
DELVE_STATE_CACHE    states kept per process, most recent games first (default 256; 0 = off)
DELVE_REDIS_MAX_CONNECTIONS  Redis connections per process (default 1024; each open event stream holds
                     one while it waits, so keep it above DELVE_SSE_MAX_STREAMS)
"""
from __future__ import annotations

import os

import redis

from events.service import GameService
from events.store import RedisEventStore


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set: run `delve serve` (it starts a Redis) or export REDIS_URL")
    return url


def rq_redis_url() -> str:
    return os.environ.get("RQ_REDIS_URL") or redis_url()


def store_from_env(client: redis.Redis | None = None) -> RedisEventStore:
    return RedisEventStore(
        client or redis.Redis.from_url(redis_url(),
                                       max_connections=int(os.environ.get("DELVE_REDIS_MAX_CONNECTIONS", "1024"))),
        partitions=int(os.environ.get("DELVE_PARTITIONS", "16")),
        snapshot_every=int(os.environ.get("DELVE_SNAPSHOT_EVERY", "50")),
        prefix=os.environ.get("DELVE_PREFIX", "delve"),
        cache_size=int(os.environ.get("DELVE_STATE_CACHE", "256")),
    )


def service_from_env(client: redis.Redis | None = None) -> GameService:
    return GameService(store_from_env(client), admin_token=os.environ.get("DELVE_ADMIN_TOKEN") or None)
