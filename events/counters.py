"""Short-lived keys beside the games: fixed-window counters (the API's rate limit) and counted
holds that expire (an identity's open streams)."""
from __future__ import annotations

import redis

from events.keys import Keys
from events.scripts import Scripts


class Counters:
    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts):
        self.r, self.keys, self.scripts = r, keys, scripts

    def hit(self, bucket: str, ttl_seconds: int) -> int:
        """Count one hit in ``bucket`` (a fixed-window counter that expires) and return the count."""
        key = self.keys.counter(bucket)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl_seconds)
        count, _ = pipe.execute()
        return count

    def hold(self, bucket: str, holder: str, cap: int, now_ms: int, until_ms: int) -> tuple[bool, int]:
        """Take one of at most ``cap`` holds in ``bucket`` for ``holder`` until ``until_ms``; holds past
        their end (a holder that died) no longer count. Returns (taken, the earliest end held when not)."""
        taken, end = self.scripts.hold(keys=[self.keys.holds(bucket)],
                                       args=[now_ms, cap, until_ms, holder, until_ms - now_ms + 1000])
        return bool(taken), int(float(end))

    def unhold(self, bucket: str, holder: str) -> None:
        self.r.zrem(self.keys.holds(bucket), holder)
