"""Fixed-window limits (writes per second, verify uploads per minute, creations per hour), kept in
Redis so every API process shares them, keyed on a verified identity (server/identity.py)."""
from __future__ import annotations

import hashlib
import time
from typing import Callable

from errors import ApiError
from events.store import RedisEventStore
from server import identity

clock = time.time  # the windows' clock (a test holds it still, so no window turns over mid-test)


def check(store: RedisEventStore, limit: int, who: str | Callable[[], str], *, seconds: int = 1,
          what: str = "writes") -> None:
    """Raise a 429 (with Retry-After) when ``who`` did ``what`` more than ``limit`` times in this
    window of ``seconds``. The admin, and a limit of 0, are not limited. ``who`` may be a function
    (server/identity.py's answer costs a round trip for a player token): called only when limiting."""
    if limit <= 0:
        return
    who = who() if callable(who) else who
    if who == identity.ADMIN:
        return
    now = int(clock())
    window = now // seconds
    count = store.counters.hit(f"{what}:{hashlib.sha256(who.encode()).hexdigest()[:16]}:{window}",
                               ttl_seconds=seconds + 1)
    if count > limit:
        wait = seconds - now % seconds
        per = {1: "second", 60: "minute", 3600: "hour"}.get(seconds, f"{seconds} s")
        raise ApiError(429, "rate_limited", f"more than {limit} {what} per {per} from this "
                       f"{'client address' if who.startswith('addr:') else 'token'}; retry in {wait} s",
                       retry_after=wait)
