"""``DELVE_WAIT_REPLICAS``: an append that replicas acknowledged before the API says 201.

Redis replicates asynchronously: a master that dies right after an append
may take it along, and the replica promoted in its place never saw it. With
``wait_replicas = n`` the append script and ``WAIT n timeout`` go down the
same connection in one round trip (``WAIT`` counts the writes of the
connection that sends it, so it cannot go through a pool that might pick
another one). Fewer than ``n`` acknowledgements within the timeout raises
:class:`ReplicationUnconfirmed`: the append *is* on the master and may well
survive, so the API answers 503 ``replication_unconfirmed`` and the client
retries with the same ``Idempotency-Key``. The retry finds the stored
record and, before answering its 201, asks the replicas again (:func:`confirm`:
it renews the record's TTL, a write whose acknowledgement implies every
earlier one); if the move was lost in a failover, the key is free and the
move is decided again. ``WAIT`` makes a lost acknowledged write unlikely, not
impossible: Redis promotes the replica with the most data, which holds
every write ``WAIT`` saw acknowledged unless more nodes fail at once.

A master with fewer replicas than wanted (a shard left without one) is the
``floor``'s case (DELVE_WAIT_REPLICAS_MIN). Without a floor every write there
is refused as above, and a retry gets its 201 once a replica holds the move.
With one, such a master's writes are acknowledged with as many replicas as it
has, no fewer than the floor: the first write there finds out (``ROLE``, in
the same round trip) and this process waits for no more replicas than the
master has until it has them again, each change logged and every such write
counted (``COUNTS``, ``/metrics``). A refused write is counted too.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import MovedError, RedisClusterException

from errors import ReplicationUnconfirmed



log = logging.getLogger("delve.replication")
COUNTS = {"degraded": 0, "unconfirmed": 0}  # writes acknowledged with fewer replicas than wanted; refused
_SHORT: dict[str, int] = {}  # master (host:port) -> its replicas, while fewer than wanted (floor set)


def run_acknowledged(script: Script, r: redis.Redis | RedisCluster, keys: list[str], args: list[Any],
                     replicas: int, timeout_ms: int, game_id: str, floor: int | None = None) -> list:
    """Run the append ``script`` then ``WAIT`` on one connection; the script's reply.

    ReplicationUnconfirmed when the script appended (reply ``{1, version, ...}``)
    but too few replicas acknowledged (``floor``: see the module). A refused
    append (conflict) wrote nothing, so its acknowledgements do not matter.
    """
    res, acked, enough = _then_wait(r, keys[0], lambda pipe: script(keys=keys, args=args, client=pipe), replicas,
                                    timeout_ms, floor)
    if int(res[0]) == 1 and not enough:
        COUNTS["unconfirmed"] += 1
        raise ReplicationUnconfirmed(game_id, int(res[1]), acked, replicas)
    return res


def confirm(r: redis.Redis | RedisCluster, record_key: str, ttl_s: int, replicas: int, timeout_ms: int,
            game_id: str, version: int, floor: int | None = None) -> None:
    """Before a stored answer is given again: renew the record's TTL and WAIT for that write."""
    _, acked, enough = _then_wait(r, record_key, lambda pipe: pipe.expire(record_key, ttl_s), replicas, timeout_ms,
                                  floor)
    if not enough:
        raise ReplicationUnconfirmed(game_id, version, acked, replicas)


def _then_wait(r: redis.Redis | RedisCluster, key: str, write: Callable[[Pipeline], Any], replicas: int,
               timeout_ms: int, floor: int | None) -> tuple[Any, int, bool]:
    """``write`` then ``WAIT`` in one pipeline on the master of ``key``'s slot: (the write's reply, acks,
    whether they are enough)."""
    try:
        return _pipelined(r, key, write, replicas, timeout_ms, floor)
    except MovedError:
        _relearn(r)  # a failover moved the slot and nothing ran: try the new master, once
        return _pipelined(r, key, write, replicas, timeout_ms, floor)


def _pipelined(r: redis.Redis | RedisCluster, key: str, write: Callable[[Pipeline], Any], replicas: int,
               timeout_ms: int, floor: int | None) -> tuple[Any, int, bool]:
    client = _master_client(r, key)
    kw = client.connection_pool.connection_kwargs
    node = f"{kw.get('host')}:{kw.get('port')}"
    asked = replicas if floor is None or node not in _SHORT else max(floor, min(replicas, _SHORT[node]))
    pipe = client.pipeline(transaction=False)
    write(pipe)
    pipe.execute_command("WAIT", asked, timeout_ms)
    if floor is not None:
        pipe.execute_command("ROLE")  # the master's linked replicas, in the same round trip
    try:
        reply, acked, *role = pipe.execute()
    except (redis.ConnectionError, redis.TimeoutError):
        _relearn(r)  # the node may be gone; the write may have run, so no retry here
        raise
    acked = int(acked)
    if floor is None:
        return reply, acked, acked >= replicas
    linked = len(role[0][2]) if _text(role[0][0]) == "master" else 0
    _track(node, linked, replicas, floor)
    if acked >= replicas:
        return reply, acked, True
    enough = acked >= floor and (asked < replicas and acked >= asked or linked < replicas)
    if enough:
        COUNTS["degraded"] += 1
    return reply, acked, enough


def _track(node: str, linked: int, replicas: int, floor: int) -> None:
    """Remember (and log) a master that has fewer replicas than wanted, and when it has them again."""
    if linked >= replicas:
        if _SHORT.pop(node, None) is not None:
            log.warning("Redis master %s has %d replicas again: appends wait for %d", node, linked, replicas)
    elif _SHORT.get(node) != linked:
        _SHORT[node] = linked
        log.warning("Redis master %s has %d of the %d replicas DELVE_WAIT_REPLICAS wants: its appends are "
                    "acknowledged with %d (DELVE_WAIT_REPLICAS_MIN) until it has them again", node, linked,
                    replicas, max(floor, linked))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _master_client(r: redis.Redis | RedisCluster, key: str) -> redis.Redis:
    """The plain client of the node that serves ``key`` (``r`` itself when it is not a cluster)."""
    if isinstance(r, RedisCluster):
        return r.get_redis_connection(r.get_node_from_key(key))
    return r


def _relearn(r: redis.Redis | RedisCluster) -> None:
    """Ask a cluster for its slot map again (what RedisCluster does itself after a node error)."""
    if isinstance(r, RedisCluster):
        try:
            r.nodes_manager.initialize()
        except (redis.RedisError, RedisClusterException):
            pass  # no node answers now: the next command tries again
