"""The store's Lua scripts, each written once (a ``.lua`` file here) and registered once per client."""
from __future__ import annotations

from importlib import resources

import redis
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
        self.open: Script = r.register_script(_source("open.lua"))
        self.now: Script = r.register_script(_source("now.lua"))
        self.hold: Script = r.register_script(_source("hold.lua"))
