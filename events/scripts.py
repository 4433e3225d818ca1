"""The store's Lua scripts, each written once (a ``.lua`` file here) and registered once per client."""
from __future__ import annotations

from importlib import resources

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script


def _source(name: str) -> str:
    return resources.files("events").joinpath(name).read_text()


class Scripts:
    """``append`` (check and store sealed envelopes), ``release`` (drop a lease we hold), ``compact``, ``open``,
    ``now`` (the clock an append is stamped with), ``hold`` (one of a capped number of expiring holds:
    ``Counters.hold``)."""

    def __init__(self, r: redis.Redis):
        self.append: Script = r.register_script(_source("append.lua"))
        self.release: Script = r.register_script(_source("release.lua"))
        self.compact: Script = r.register_script(_source("compact.lua"))
        self.open = Direct(r, r.register_script(_source("open.lua")))
        self.now: Script = r.register_script(_source("now.lua"))
        self.hold: Script = r.register_script(_source("hold.lua"))


class Direct:
    """A read-only script called on one pooled connection directly, past redis-py's command path
    (its retry and deprecation wrappers and reply callbacks: ~50 us of CPU per call, a twentieth
    of a game read's). Any Redis error (the script not loaded yet, a dropped connection) hands the
    call to the ordinary path, which loads the script, reconnects and retries: running a read
    twice changes nothing. A Cluster takes the ordinary path."""

    def __init__(self, r: redis.Redis, script: Script):
        self.script = script
        self.pool = None if isinstance(r, RedisCluster) else r.connection_pool

    def __call__(self, keys: list[str], args: list) -> object:
        if self.pool is None:
            return self.script(keys=keys, args=args)
        conn = self.pool.get_connection()
        try:
            conn.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            return conn.read_response()
        except redis.RedisError:
            pass  # (the connection drops itself on an I/O error, as on any exception mid-reply)
        finally:
            self.pool.release(conn)
        return self.script(keys=keys, args=args)
