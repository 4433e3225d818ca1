"""The tournament reactor: the reactor's loop over the tournament logs' feeds.

Tournament logs live under their own prefix (application/tournaments.py), whose
partition feeds get one entry per append like the games'. This reactor reads
them through the same consumer-group machinery (workers/reactor.py: reclaim,
acknowledge after enqueue) and schedules what the job table says a log needs
(``table.tournament_due``): the ``start_at`` timer (workers/timers.py, one
per tournament). Its sweep re-handles every registering tournament, so a lost
enqueue is repaired; a repeated one is a no-op. Pairing, reporting and
finishing are the ``tournaments`` followers' (workers/table.py).
"""
from __future__ import annotations

import logging

from errors import GameNotFound, TournamentNotFound
from application.service import GameService
from application.tournaments import TournamentService
from workers import table
from workers.reactor import Reactor, Scheduler

log = logging.getLogger("delve.tournament_reactor")


class TournamentReactor(Reactor):
    def __init__(self, service: GameService, scheduler: Scheduler, **kw):
        self.tournaments = TournamentService(service)
        shards = kw.get("shards")
        kw.setdefault("feeds", shards.feeds(self.tournaments.store) if shards else self.tournaments.store.feeds())
        super().__init__(service, scheduler, **kw)

    def handle(self, tournament_id: str, seen: int | None = None) -> dict[str, str]:
        """Schedule the jobs the tournament's log needs now; ``seen`` as in ``Reactor.handle``."""
        try:
            if seen is not None and self.tournaments.store.version(tournament_id) > seen:
                return {}
            t, version = self.tournaments.state(tournament_id)
        except (TournamentNotFound, GameNotFound):
            log.warning("tournament reactor: tournament %s is gone", tournament_id)
            return {}
        return {kind.name: self.scheduler.schedule(kind.name, tournament_id, version, at=at)
                for kind, at in table.tournament_due(t)}

    def sweep(self) -> None:
        """Re-handle every tournament still registering (a lost enqueue, a trimmed feed entry)."""
        _total, ids = self.tournaments.store.indexes.page("status:registering")
        for tid in ids:
            if self.mine(tid):
                self._guarded(tid, None)
