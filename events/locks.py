"""Short-lived keys beside the games: locks that expire, and fixed-window counters (the API's rate limit)."""
from __future__ import annotations

import redis

from events.keys import Keys
from events.scripts import Scripts


class Locks:
    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts):
        self.r, self.keys, self.scripts = r, keys, scripts

    def take(self, name: str, token: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms`` unless someone holds it."""
        return bool(self.r.set(self.keys.lock(name), token, nx=True, px=ttl_ms))

    def release(self, name: str, token: str) -> None:
        """Release the lock ``name`` if ``token`` still holds it (it may have expired and been retaken)."""
        self.scripts.release(keys=[self.keys.lock(name)], args=[token])

    def count_hit(self, bucket: str, ttl_seconds: int) -> int:
        """Count one hit in ``bucket`` (a fixed-window counter that expires) and return the count."""
        key = self.keys.counter(bucket)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl_seconds)
        count, _ = pipe.execute()
        return count
