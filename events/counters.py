"""Fixed-window counters beside the games (the API's rate limit): short-lived keys that expire."""
from __future__ import annotations

import redis

from events.keys import Keys


class Counters:
    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys

    def hit(self, bucket: str, ttl_seconds: int) -> int:
        """Count one hit in ``bucket`` (a fixed-window counter that expires) and return the count."""
        key = self.keys.counter(bucket)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl_seconds)
        count, _ = pipe.execute()
        return count
