"""A fixed-window rate limit on writes, kept in Redis so every API process shares it."""
from __future__ import annotations

import hashlib
import time

from flask import request

from events.store import RedisEventStore
from server.errors import ApiError


def check(store: RedisEventStore, limit_per_second: int) -> None:
    """Raise a 429 when this client (token, else address) wrote too often this second."""
    if limit_per_second <= 0:
        return
    who = request.headers.get("Authorization") or request.remote_addr or "unknown"
    window = int(time.time())
    count = store.count_hit(f"{hashlib.sha256(who.encode()).hexdigest()[:16]}:{window}", ttl_seconds=2)
    if count > limit_per_second:
        raise ApiError(429, "rate_limited", f"more than {limit_per_second} writes per second; retry in a second",
                       retry_after=1)
