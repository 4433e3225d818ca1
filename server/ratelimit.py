"""Fixed-window limits (writes per second, verify uploads per minute, creations per hour), kept in
Redis so every API process shares them, keyed on a verified identity (server/identity.py)."""
from __future__ import annotations

import hashlib
import time

from events.store import RedisEventStore
from server import identity
from server.errors import ApiError

clock = time.time  # the windows' clock (a test holds it still, so no window turns over mid-test)


def check(store: RedisEventStore, limit: int, who: str, *, seconds: int = 1, what: str = "writes") -> None:
    """Raise a 429 (with Retry-After) when ``who`` did ``what`` more than ``limit`` times in this
    window of ``seconds``. The admin, and a limit of 0, are not limited."""
    if limit <= 0 or who == identity.ADMIN:
        return
    now = int(clock())
    window = now // seconds
    count = store.locks.count_hit(f"{what}:{hashlib.sha256(who.encode()).hexdigest()[:16]}:{window}",
                                  ttl_seconds=seconds + 1)
    if count > limit:
        wait = seconds - now % seconds
        per = {1: "second", 60: "minute", 3600: "hour"}.get(seconds, f"{seconds} s")
        raise ApiError(429, "rate_limited", f"more than {limit} {what} per {per} from this "
                       f"{'client address' if who.startswith('addr:') else 'token'}; retry in {wait} s",
                       retry_after=wait)
