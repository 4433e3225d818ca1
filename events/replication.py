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
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import MovedError, RedisClusterException


class ReplicationUnconfirmed(Exception):
    """The write landed on the master, but fewer than ``wanted`` replicas acknowledged it in time."""

    def __init__(self, game_id: str, version: int, acked: int, wanted: int):
        super().__init__(f"game {game_id}: version {version} was written, but {acked} of {wanted} replicas "
                         "acknowledged it in time; it may be lost if the master fails now")
        self.game_id, self.version, self.acked, self.wanted = game_id, version, acked, wanted


def run_acknowledged(script: Script, r: redis.Redis | RedisCluster, keys: list[str], args: list[Any],
                     replicas: int, timeout_ms: int, game_id: str) -> list:
    """Run the append ``script`` then ``WAIT replicas timeout_ms`` on one connection; the script's reply.

    ReplicationUnconfirmed when the script appended (reply ``{1, version, ...}``)
    but too few replicas acknowledged. A refused append (conflict) wrote
    nothing, so its acknowledgements do not matter.
    """
    res, acked = _then_wait(r, keys[0], lambda pipe: script(keys=keys, args=args, client=pipe), replicas, timeout_ms)
    if int(res[0]) == 1 and acked < replicas:
        raise ReplicationUnconfirmed(game_id, int(res[1]), acked, replicas)
    return res


def confirm(r: redis.Redis | RedisCluster, record_key: str, ttl_s: int, replicas: int, timeout_ms: int,
            game_id: str, version: int) -> None:
    """Before a stored answer is given again: renew the record's TTL and WAIT for that write."""
    _, acked = _then_wait(r, record_key, lambda pipe: pipe.expire(record_key, ttl_s), replicas, timeout_ms)
    if acked < replicas:
        raise ReplicationUnconfirmed(game_id, version, acked, replicas)


def _then_wait(r: redis.Redis | RedisCluster, key: str, write: Callable[[Pipeline], Any], replicas: int,
               timeout_ms: int) -> tuple[Any, int]:
    """``write`` then ``WAIT`` in one pipeline on the master of ``key``'s slot: (the write's reply, acks)."""
    try:
        return _pipelined(r, key, write, replicas, timeout_ms)
    except MovedError:
        _relearn(r)  # a failover moved the slot and nothing ran: try the new master, once
        return _pipelined(r, key, write, replicas, timeout_ms)


def _pipelined(r: redis.Redis | RedisCluster, key: str, write: Callable[[Pipeline], Any], replicas: int,
               timeout_ms: int) -> tuple[Any, int]:
    pipe = _master_client(r, key).pipeline(transaction=False)
    write(pipe)
    pipe.execute_command("WAIT", replicas, timeout_ms)
    try:
        reply, acked = pipe.execute()
    except (redis.ConnectionError, redis.TimeoutError):
        _relearn(r)  # the node may be gone; the write may have run, so no retry here
        raise
    return reply, int(acked)


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
