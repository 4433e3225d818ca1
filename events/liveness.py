"""Which parts of a deployment are up, as ``/readyz`` reports it.

The API reaches the store and the queue Redis itself. The processes behind
it say they are alive where the API can read it: every worker and reactor
polls the timers (workers/timers.py), and each poll stamps the poller's name
with Redis's time in one hash of the queue Redis (``alive_key``). A timer
still waiting well after its time (``timers_key``) means no poller keeps up:
clock deadlines are late.
"""
from __future__ import annotations

import redis
from redis.exceptions import RedisClusterException

from events.store import RedisEventStore

ALIVE_FOR_MS = 5000  # a poller not heard from for this long counts as down
FORGET_MS = 3_600_000  # a poller silent this long is dropped from the hash
LATE_MS = 2000  # a timer this late counts as overdue


def timers_key(queue: str) -> str:
    """The sorted set of timers (``kind id version`` scored by due ms) of ``queue``."""
    return f"delve:timers:{queue}"


def alive_key(queue: str) -> str:
    """The hash of poller name -> the Redis time (ms) of its last poll."""
    return f"delve:alive:{queue}"


def timer(kind: str, key: str, version: int) -> str:
    """A timer's member in the set: ``kind id version`` (workers/timers.py runs it)."""
    return f"{kind} {key} {version}"


def add_timer(r: redis.Redis, queue: str, kind: str, key: str, version: int, due_ms: int) -> bool:
    """Add the timer unless it exists (ZADD NX): whoever learns of a deadline first adds it."""
    return bool(r.zadd(timers_key(queue), {timer(kind, key, version): due_ms}, nx=True))


def now_ms(r: redis.Redis) -> int:
    secs, micros = r.time()
    return int(secs) * 1000 + int(micros) // 1000


def pollers(r: redis.Redis, queue: str) -> dict[str, int]:
    """Each poller's ms since it last polled; forgets those silent for an hour (a restart leaves one)."""
    now = now_ms(r)
    seen = {(k.decode() if isinstance(k, bytes) else k): now - int(v) for k, v in r.hgetall(alive_key(queue)).items()}
    gone = [k for k, idle in seen.items() if idle > FORGET_MS]
    if gone:
        r.hdel(alive_key(queue), *gone)
    return {k: idle for k, idle in seen.items() if idle <= FORGET_MS}


def overdue(r: redis.Redis, queue: str) -> int:
    """Timers due more than LATE_MS ago and not run yet (none while the pollers keep up)."""
    return int(r.zcount(timers_key(queue), "-inf", now_ms(r) - LATE_MS))


def parts(store: RedisEventStore, queue_redis: redis.Redis | None, queues: list[str]) -> dict[str, dict]:
    """``{part: {"up": bool, ...}}`` for the store, the queue, the workers, the reactor and the timers.

    ``queue_redis`` None: the queue lives in the store's Redis. ``queues``: one per shard; the
    workers (or the reactor) are up when every shard's queue has one polling it, and a part
    down on some shards only names them (``"shards_down"``, as indexes into ``queues``).
    """
    out: dict[str, dict] = {}
    try:
        store.ping()
        out["store"] = {"up": True}
    except (redis.RedisError, RedisClusterException) as exc:
        out["store"] = {"up": False, "error": type(exc).__name__}
    q = queue_redis if queue_redis is not None else store.plain_client()
    if q is None:
        out["queue"] = {"up": False, "error": "no queue Redis: set RQ_REDIS_URL"}
    elif queue_redis is None:
        out["queue"] = out["store"]
    else:
        try:
            q.ping()
            out["queue"] = {"up": True}
        except redis.RedisError as exc:
            out["queue"] = {"up": False, "error": type(exc).__name__}
    if not out["queue"]["up"]:
        return out
    live = [[name for name, idle in pollers(q, queue).items() if idle <= ALIVE_FOR_MS] for queue in queues]
    for role in ("worker", "reactor"):
        each = [{name for name in names if name.startswith(role + ":")} for names in live]
        part = {"up": all(each), "alive": len(set().union(*each))}
        if len(queues) > 1 and not part["up"]:
            part["shards_down"] = [i for i, names in enumerate(each) if not names]
        out[role + "s" if role == "worker" else role] = part
    late = sum(overdue(q, queue) for queue in queues)
    out["timers"] = {"up": late == 0, "overdue": late}
    return out
