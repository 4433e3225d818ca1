"""What one identity may hold at once, counted across every API process.

A player token costs one POST, so a limit per process (or keyed on a header
nobody checks) is no limit. Open streams are counted as leases in Redis
(``events.counters.Counters.hold``): each expires at a time its holder set when it
took it (a stream's longest life plus a margin), so a lease whose process died
frees itself. Active games are counted from the player's own game index.
"""
from __future__ import annotations

import hashlib
import secrets
import time

from errors import Full
from application.status import GameStatus
from events.counters import Counters


class Leases:
    """Counted holds per identity (open streams), shared by every process on this Redis."""

    def __init__(self, counters: Counters, kind: str = "streams"):
        self.counters, self.kind = counters, kind

    def _bucket(self, who: str) -> str:
        return f"{self.kind}:{hashlib.sha256(who.encode()).hexdigest()[:20]}"

    def take(self, who: str, cap: int, seconds: float) -> str:
        """A lease for ``who`` valid ``seconds`` at most; Full when ``cap`` are held. Returns its id."""
        holder, now = secrets.token_hex(8), int(time.time() * 1000)
        taken, earliest = self.counters.hold(self._bucket(who), holder, cap, now, now + int(seconds * 1000))
        if not taken:
            raise Full(cap, max(1, min(int(seconds), (earliest - now) // 1000 + 1)))
        return holder

    def release(self, who: str, holder: str) -> None:
        self.counters.unhold(self._bucket(who), holder)


def active_games(svc, player_id: str, scan: int = 1000) -> int:
    """How many of the player's games (their ``scan`` newest) are open or active, tournament games aside.

    A tournament's games are the tournament's quota (entrants, planned games), not the player's.
    """
    ids = svc.players.games(player_id, limit=scan)
    if not ids:
        return 0
    status = svc.store.reads.meta_field(ids, "status")
    tournament = svc.store.reads.meta_field(ids, "tournament")
    return sum(1 for gid in ids if status.get(gid) in (GameStatus.OPEN, GameStatus.ACTIVE) and not tournament.get(gid))
