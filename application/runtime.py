"""Build the store and service from the environment, the same way in the API,
the workers, the reactor and the CLI.

Every setting read here (REDIS_URL, DELVE_PARTITIONS, DELVE_ADMIN_TOKEN, ...) is described in
``settings`` and docs/settings.md.
"""
from __future__ import annotations

from pathlib import Path

import redis
from redis.cluster import RedisCluster

from application import clocks, signing
from events import liveness
from application.service import GameService
from application.shards import Shards, shards_from_env
from events.store import RedisEventStore
import settings

POOL, CLUSTER_POOL, POOL_WAIT = 64, 1024, 30.0
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


def store_client(url: str) -> redis.Redis | RedisCluster:
    """The store's client for a process (API, worker, reactor).

    On one Redis server its pool is a blocking one of DELVE_REDIS_MAX_CONNECTIONS (default
    ``POOL``): a request that finds every connection busy waits for one (up to ``POOL_WAIT``
    seconds), so a burst of thousands of greenlets (streams opening, a move woken on every
    stream) never opens thousands of connections. No stream holds one while it waits: the
    feed hub's one read serves them all (events.hub). On a Cluster each waiting stream
    holds one of its node's (default ``CLUSTER_POOL``, which must stay above DELVE_SSE_MAX_STREAMS).
    """
    cap = settings.get("DELVE_REDIS_MAX_CONNECTIONS")
    if is_cluster_url(url):
        return redis_client(url, max_connections=cap or CLUSTER_POOL)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(url, max_connections=cap or POOL,
                                                                            timeout=POOL_WAIT))


def redis_url() -> str:
    url = settings.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set: run `delve serve` (it starts a Redis) or export REDIS_URL")
    return url


def rq_redis_url() -> str:
    url = settings.get("RQ_REDIS_URL") or redis_url()
    if is_cluster_url(url):
        raise RuntimeError("rq cannot use a Redis Cluster: with REDIS_URL=redis+cluster://... set RQ_REDIS_URL "
                           "to a plain Redis (redis://host:port/db) for the job queue")
    return url


def queue_name() -> str:
    """DELVE_QUEUE: the queue's name with one shard, the base of each shard's queue name with more
    (application/shards.py)."""
    return settings.get("DELVE_QUEUE")


def queue_redis_from_env() -> redis.Redis | None:
    """The queue Redis when RQ_REDIS_URL names one apart from the store's, else None (the store's)."""
    url = settings.get("RQ_REDIS_URL")
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) if url else None


def store_from_env(client: redis.Redis | None = None, acknowledged: bool = True) -> RedisEventStore:
    """The store; ``acknowledged=False`` (workers, the reactor) appends without waiting for replicas:
    nobody waits for a bot's 201, and a bot move a failover lost is decided again from what Redis holds."""
    return RedisEventStore(
        client or store_client(redis_url()),
        partitions=settings.get("DELVE_PARTITIONS"),
        snapshot_every=settings.get("DELVE_SNAPSHOT_EVERY"),
        prefix=settings.get("DELVE_PREFIX"),
        cache_size=settings.get("DELVE_STATE_CACHE"),
        wait_replicas=settings.get("DELVE_WAIT_REPLICAS") if acknowledged else 0,
        wait_timeout_ms=settings.get("DELVE_WAIT_TIMEOUT_MS"),
        wait_floor=settings.get("DELVE_WAIT_REPLICAS_MIN"),
    )


def signer_from_env() -> signing.Signer | None:
    """The signer of DELVE_SIGNING_KEY (None when unset: records go unsigned until a process with the key
    exports them). A key path that names no file is an error, never a new key: every process of a
    deployment must sign with the same one (`delve serve` and `delve keys rotate` make it)."""
    path = settings.get("DELVE_SIGNING_KEY")
    if not path:
        return None
    if not Path(path).is_file():
        raise RuntimeError(f"DELVE_SIGNING_KEY={path} names no file: make the key with `delve keys rotate --key {path}`"
                           " or unset DELVE_SIGNING_KEY")
    return signing.load(Path(path), settings.get("DELVE_SERVER_NAME"))


def service_from_env(client: redis.Redis | None = None, acknowledged: bool = True) -> GameService:
    service = GameService(store_from_env(client, acknowledged), admin_token=settings.get("DELVE_ADMIN_TOKEN"),
                          signer=signer_from_env())
    service.store.appends.after_append = clock_timers()
    return service


def clock_timers(url: str | None = None, queue: str | None = None):
    """What adds a clock's timer right after the append that set its deadline, whichever process
    appended (the API, a worker, a timer's poller): the reactor adds it too, from the feed, but a
    reactor being restarted would otherwise delay every deadline set meanwhile. None without a
    queue Redis (a Cluster without RQ_REDIS_URL cannot queue anyway). The queue Redis and the
    shards come from the environment unless given; the timer goes to the queue of the game's
    shard, whose worker and reactor poll it (application/shards.py)."""
    try:
        url = url or rq_redis_url()
    except RuntimeError:
        return None
    shards = shards_from_env()
    if queue is not None:
        shards = Shards(shards.partitions, 1, (0,), queue)
    connection = redis.Redis.from_url(url)

    def add(game_id: str, version: int, at: str, meta: dict[str, str]) -> None:
        due = clocks.deadline_written(meta, at)
        if due is not None:
            liveness.add_timer(connection, shards.queue_of(game_id), "clock", game_id, version, due)
    return add
