"""Build the store and service from the environment, the same way in the API,
the workers, the reactor and the CLI.

REDIS_URL            event-store Redis (required here; `delve serve` sets it). ``redis://host:port/db``
                     for one Redis; ``redis+cluster://host:port`` (``rediss+cluster://`` with TLS) for a
                     Redis Cluster, any node as the seed: the store, lobby, feeds, players, ratings and
                     tournaments then live on the cluster (every multi-key write is single-slot)
RQ_REDIS_URL         queue Redis (default: REDIS_URL; required with a Cluster: rq cannot use one)
DELVE_QUEUE          queue name (default "delve"; tests use their own): rq's queue and the timers
DELVE_WAIT_REPLICAS  replicas that must acknowledge an append (Redis ``WAIT``) before the API answers
                     201 (default 0: do not wait); not acknowledged within DELVE_WAIT_TIMEOUT_MS
                     (default 1000) -> 503 ``replication_unconfirmed`` (events/replication.py)
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
from redis.cluster import RedisCluster

from application import clocks, liveness
from application.service import GameService
from events.store import RedisEventStore

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0] in CLUSTER_SCHEMES


def redis_client(url: str, **options) -> redis.Redis | RedisCluster:
    """The client for ``url``: a ``RedisCluster`` for ``redis+cluster://``, else a ``redis.Redis``.

    A cluster client learns the slot map from the seed node and follows
    MOVED/ASK and failovers itself; ``options`` (timeouts, ``max_connections``)
    apply to each node's pool.
    """
    scheme, _, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        return RedisCluster.from_url(f"{CLUSTER_SCHEMES[scheme]}://{rest}", **options)
    return redis.Redis.from_url(url, **options)


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set: run `delve serve` (it starts a Redis) or export REDIS_URL")
    return url


def rq_redis_url() -> str:
    url = os.environ.get("RQ_REDIS_URL") or redis_url()
    if is_cluster_url(url):
        raise RuntimeError("rq cannot use a Redis Cluster: with REDIS_URL=redis+cluster://... set RQ_REDIS_URL "
                           "to a plain Redis (redis://host:port/db) for the job queue")
    return url


def queue_name() -> str:
    return os.environ.get("DELVE_QUEUE") or "delve"


def queue_redis_from_env() -> redis.Redis | None:
    """The queue Redis when RQ_REDIS_URL names one apart from the store's, else None (the store's)."""
    url = os.environ.get("RQ_REDIS_URL")
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) if url else None


def store_from_env(client: redis.Redis | None = None) -> RedisEventStore:
    return RedisEventStore(
        client or redis_client(redis_url(), max_connections=int(os.environ.get("DELVE_REDIS_MAX_CONNECTIONS", "1024"))),
        partitions=int(os.environ.get("DELVE_PARTITIONS", "16")),
        snapshot_every=int(os.environ.get("DELVE_SNAPSHOT_EVERY", "50")),
        prefix=os.environ.get("DELVE_PREFIX", "delve"),
        cache_size=int(os.environ.get("DELVE_STATE_CACHE", "256")),
        wait_replicas=int(os.environ.get("DELVE_WAIT_REPLICAS") or 0),
        wait_timeout_ms=int(os.environ.get("DELVE_WAIT_TIMEOUT_MS") or 1000),
    )


def service_from_env(client: redis.Redis | None = None) -> GameService:
    service = GameService(store_from_env(client), admin_token=os.environ.get("DELVE_ADMIN_TOKEN") or None)
    service.store.after_append = clock_timers()
    return service


def clock_timers():
    """What adds a clock's timer right after the append that set its deadline, whichever process
    appended (the API, a worker, a timer's poller): the reactor adds it too, from the feed, but a
    reactor being restarted would otherwise delay every deadline set meanwhile. None without a
    queue Redis (a Cluster without RQ_REDIS_URL cannot queue anyway)."""
    try:
        url = rq_redis_url()
    except RuntimeError:
        return None
    queue, connection = queue_name(), redis.Redis.from_url(url)

    def add(game_id: str, version: int, at: str, meta: dict[str, str]) -> None:
        due = clocks.deadline_written(meta, at)
        if due is not None:
            liveness.add_timer(connection, queue, "clock", game_id, version, due)
    return add
