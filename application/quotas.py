"""What one identity may hold at once, counted across every API process.

A player token costs one POST, so a limit per process (or keyed on a header
nobody checks) is no limit. Open streams are counted as leases in Redis: a
sorted set per identity whose members expire at a time the holder set when it
took one (a stream's longest life plus a margin), so a lease whose process died
frees itself. Active games are counted from the player's own game index.
"""
from __future__ import annotations

import hashlib
import secrets
import time

import redis

from events.store import as_text

# KEYS[1] the holder set; ARGV: now (ms), cap, expiry (ms), holder, key ttl (ms). Atomic, so two
# processes racing for the last lease cannot both get it.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, first[2] or ARGV[1]}
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, ARGV[3]}
"""


class Full(Exception):
    """No lease left: ``retry_after`` seconds until the oldest one runs out at the latest."""

    def __init__(self, cap: int, retry_after: int):
        super().__init__(f"{cap} held")
        self.cap, self.retry_after = cap, retry_after


class Leases:
    """Counted holds per identity (open streams), shared by every process on this Redis."""

    def __init__(self, r: redis.Redis, prefix: str, kind: str = "streams"):
        self.r, self.prefix, self.kind = r, prefix, kind
        self._take = r.register_script(_TAKE)

    def _key(self, who: str) -> str:
        return f"{self.prefix}:quota:{self.kind}:{hashlib.sha256(who.encode()).hexdigest()[:20]}"

    def take(self, who: str, cap: int, seconds: float) -> str:
        """A lease for ``who`` valid ``seconds`` at most; Full when ``cap`` are held. Returns its id."""
        holder = secrets.token_hex(8)
        now = int(time.time() * 1000)
        expiry = now + int(seconds * 1000)
        ok, until = self._take(keys=[self._key(who)], args=[now, cap, expiry, holder, int(seconds * 1000) + 1000])
        if not ok:
            raise Full(cap, max(1, min(int(seconds), (int(float(as_text(until))) - now) // 1000 + 1)))
        return holder

    def release(self, who: str, holder: str) -> None:
        self.r.zrem(self._key(who), holder)

    def held(self, who: str) -> int:
        self.r.zremrangebyscore(self._key(who), "-inf", int(time.time() * 1000))
        return self.r.zcard(self._key(who))


def active_games(svc, player_id: str, scan: int = 1000) -> int:
    """How many of the player's games (their ``scan`` newest) are open or active, tournament games aside.

    A tournament's games are the tournament's quota (entrants, planned games), not the player's.
    """
    ids = svc.players.games(player_id, limit=scan)
    if not ids:
        return 0
    status = svc.store.meta_field(ids, "status")
    tournament = svc.store.meta_field(ids, "tournament")
    return sum(1 for gid in ids if status.get(gid) in ("open", "active") and not tournament.get(gid))
