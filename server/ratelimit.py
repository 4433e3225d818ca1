"""Fixed-window rate limits (writes, verify uploads), kept in Redis so every API process shares them."""
from __future__ import annotations

import hashlib
import time

from flask import request

from events.store import RedisEventStore
from server.errors import ApiError


def check(store: RedisEventStore, limit: int, *, seconds: int = 1, what: str = "writes") -> None:
    """Raise a 429 when this client (token, else address) did ``what`` more than ``limit`` times
    in this window of ``seconds``."""
    if limit <= 0:
        return
    who = request.headers.get("Authorization") or request.remote_addr or "unknown"
    now = int(time.time())
    window = now // seconds
    count = store.locks.count_hit(f"{what}:{hashlib.sha256(who.encode()).hexdigest()[:16]}:{window}",
                            ttl_seconds=seconds + 1)
    if count > limit:
        wait = seconds - now % seconds
        raise ApiError(429, "rate_limited", f"more than {limit} {what} per {seconds} s; retry in {wait} s",
                       retry_after=wait)
